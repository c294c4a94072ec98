/// A part of an app's user interface with a life cycle of its own, as SwiftUI's `Scene`:
/// here, ``WindowGroup``s (and groups of them built by ``SceneBuilder``).
@MainActor
public protocol Scene {}

/// An app: the scenes it declares and the state it owns, as SwiftUI's `App`, hosted by
/// ``AppHost``.
///
/// The app value is created once per ``AppHost`` and its ``body`` is read when a window opens,
/// so a model stored in the app (`let session = Session()`, or `@State var session = Session()`)
/// is shared by every window; a model created by a window's root view with `@State` is per
/// window. The app's own `@State` and `@StateObject` properties are created once, when the
/// ``AppHost`` is created, and shared by every window: a view that reads one in its `body`
/// (through a binding, or the object) is updated when another window writes it. The scene's
/// content itself is evaluated once per window, when it opens (the app's ``body`` is not
/// re-evaluated), so a value read there directly is the one at opening.
@MainActor
public protocol App {
  /// The type of the app's scenes.
  associatedtype Body: Scene
  /// The app's scenes.
  @SceneBuilder var body: Body { get }
}

/// A scene whose windows all show the same kind of root view, each with its own state, as
/// SwiftUI's `WindowGroup`. ``AppHost/openWindow(id:)`` opens a window from it.
public struct WindowGroup<Content: View>: Scene {
  /// The identifier ``AppHost/openWindow(id:)`` selects it by (nil: the unnamed group).
  public let id: String?
  let content: @MainActor () -> Content

  /// A group whose windows show `content()`, evaluated once per window.
  public init(id: String? = nil, @ViewBuilder content: @escaping @MainActor () -> Content) {
    self.id = id
    self.content = content
  }
}

/// Several scenes of one app body.
public struct SceneList: Scene {
  let scenes: [any Scene]
}

/// Builds an app body from one or more scenes.
@MainActor
@resultBuilder
public enum SceneBuilder {
  /// One or more scenes, in declaration order.
  public static func buildBlock(_ scenes: any Scene...) -> SceneList { SceneList(scenes: scenes) }
}

/// A scene that can open windows (type-erased).
@MainActor
protocol WindowScene {
  var sceneID: String? { get }
  func makeRoot() -> any View
}

extension WindowGroup: WindowScene {
  var sceneID: String? { id }
  func makeRoot() -> any View { content() }
}

extension Scene {
  /// The window groups of this scene, flattened, in declaration order.
  var windowScenes: [any WindowScene] {
    if let group = self as? any WindowScene { return [group] }
    if let list = self as? SceneList { return list.scenes.flatMap(\.windowScenes) }
    return []
  }
}
