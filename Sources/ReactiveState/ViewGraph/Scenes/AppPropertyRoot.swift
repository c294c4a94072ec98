/// The hidden view an ``AppHost`` mounts to give its app's `@State` and `@StateObject`
/// properties an identity: as in SwiftUI, state the app owns is created once, when the app is
/// hosted, and every window that reads it sees the same value or instance.
///
/// Only these properties of the app are linked (see ``AppOwnedProperty``); its other dynamic
/// properties (an `@Environment` has no ancestor above the app) are not installed.
struct AppPropertyRoot<A: App>: View {
  /// The hosted app, whose `@State` and `@StateObject` properties the host links to this
  /// view's node.
  let app: A

  var body: EmptyView { EmptyView() }
}

/// A dynamic property an ``App`` may own through ``AppHost``: linked to the app's hidden
/// root view (``AppPropertyRoot``) when the app is hosted.
protocol AppOwnedProperty {}

extension StateObject: AppOwnedProperty {}
extension State: AppOwnedProperty {}
