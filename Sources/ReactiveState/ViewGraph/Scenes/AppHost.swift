/// Why an ``AppHost`` could not open a window.
public enum AppHostError: Error, Equatable, CustomStringConvertible {
  /// The app declares no window group with this id (nil: no window group at all).
  case noSuchScene(String?)

  /// A sentence naming the scene.
  public var description: String {
    switch self {
    case .noSuchScene(let id): "the app declares no WindowGroup with id \(id ?? "nil")"
    }
  }
}

/// One open window of an ``AppHost``: its scene and the ``ViewHost`` running its view tree.
@MainActor
public final class Window: Identifiable {
  /// Opening order, starting at 1.
  public let id: Int
  /// The id of the window group it was opened from.
  public let sceneID: String?
  /// The window's view tree (tap, type, render, update log, issues, tasks).
  public let host: ViewHost

  init(id: Int, sceneID: String?, host: ViewHost) {
    self.id = id
    self.sceneID = sceneID
    self.host = host
  }
}

/// Runs an ``App`` headlessly: opens and closes windows of its window groups.
///
/// Each window has its own ``ViewHost`` and thus its own identities: `@State` created by the
/// window's root is per window; models owned by the app are shared. Closing a window ends all
/// of its identities (their state stops accepting writes, `onDisappear` runs, tasks are
/// cancelled).
///
/// ```swift
/// let app = AppHost(NotesApp())
/// let first = try app.openWindow()
/// let second = try app.openWindow()
/// try first.host.type("milk", into: "Search")   // second window untouched
/// app.close(first)
/// ```
@MainActor
public final class AppHost<A: App> {
  /// The app value, created once.
  public let app: A
  /// The windows currently open, in opening order.
  public private(set) var windows: [Window] = []
  /// Every window opened so far, closed ones included, in opening order: their issues stay
  /// the app's (see ``issues``).
  private var everOpened: [Window] = []
  private let mode: ViewHost.UpdateMode
  /// Owns the app's `@State`s and `@StateObject`s (see ``AppPropertyRoot``): created once,
  /// shared by every window.
  private let appProperties: ViewHost

  /// Hosts `app`, creating the storage of its `@State` and `@StateObject` properties; no
  /// window is open until ``openWindow(id:)``.
  public init(_ app: A, mode: ViewHost.UpdateMode = .automatic) {
    appProperties = ViewHost(AppPropertyRoot(app: app), mode: .manual)
    // The mounted copy: its links are the ones installed (a copy of `app` shares them, unless
    // another host owned them and the installer gave this one new links).
    self.app = (appProperties.root.view as? AppPropertyRoot<A>)?.app ?? app
    self.mode = mode
  }

  /// Opens a new window of the window group `id` (nil: the first group declared) and mounts its
  /// root view.
  @discardableResult
  public func openWindow(id: String? = nil) throws -> Window {
    let scenes = app.body.windowScenes
    guard let scene = id == nil ? scenes.first : scenes.first(where: { $0.sceneID == id }) else {
      throw AppHostError.noSuchScene(id)
    }
    let window = Window(
      id: everOpened.count + 1, sceneID: scene.sceneID, host: mount(scene.makeRoot()))
    windows.append(window)
    everOpened.append(window)
    return window
  }

  /// Closes `window`: its identities end (see ``ViewHost/close()``). No-op if already closed.
  /// The app host keeps the closed ``Window``, whose host has released its tree (see
  /// ``ViewHost/close()``), so the window's issues, including writes to its ended state made
  /// after closing, stay in ``issues``.
  public func close(_ window: Window) {
    guard let index = windows.firstIndex(where: { $0 === window }) else { return }
    windows.remove(at: index)
    window.host.close()
  }

  /// Runtime issues of every window opened so far, closed ones included, window by window in
  /// opening order (oldest first within a window): closing a window loses none of them.
  public var issues: [RuntimeIssue] { everOpened.flatMap(\.host.issues) }

  /// Applies pending updates in every open window.
  public func flush() {
    for window in windows { window.host.flush() }
  }

  /// Settles every open window (see ``ViewHost/settle()``).
  public func settle() async {
    for window in windows { await window.host.settle() }
  }

  private func mount<Root: View>(_ root: Root) -> ViewHost { ViewHost(root, mode: mode) }
}
