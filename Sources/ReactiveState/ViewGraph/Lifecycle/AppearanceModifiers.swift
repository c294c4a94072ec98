/// A view that runs an action after the update pass in which its identity was mounted, as
/// SwiftUI's `onAppear(perform:)`: once per identity (a new identity after `.id` changes or a
/// branch switch appears again), in the appear phase of the post-pass effects (after every
/// disappear, before `onChange` actions and tasks).
public struct OnAppearView<Content: View>: View, PrimitiveView {
  let content: Content
  let action: @MainActor () -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    let lifecycle = node.lifecycle
    if !lifecycle.hasAppeared {
      lifecycle.hasAppeared = true
      node.host.enqueueEffect(.appear, action)
    }
    return [ChildSpec(component: .slot(0), view: content)]
  }
}

/// A view that runs an action after the update pass in which its identity ended (removed by a
/// branch switch, `ForEach` row removal, `.id` change, dismissed presentation or closed
/// window), as SwiftUI's `onDisappear(perform:)`. The action is the one carried by the last
/// view value; it runs in the disappear phase, before every other post-pass effect.
public struct OnDisappearView<Content: View>: View, PrimitiveView {
  let content: Content
  let action: @MainActor () -> Void

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    let lifecycle = node.lifecycle
    lifecycle.hasAppeared = true
    lifecycle.disappear = action
    return [ChildSpec(component: .slot(0), view: content)]
  }
}

extension View {
  /// Runs `action` after the pass in which this view's identity appeared (see ``OnAppearView``).
  public func onAppear(perform action: @escaping @MainActor () -> Void) -> OnAppearView<Self> {
    OnAppearView(content: self, action: action)
  }

  /// Runs `action` after the pass in which this view's identity ended (see ``OnDisappearView``).
  public func onDisappear(perform action: @escaping @MainActor () -> Void)
    -> OnDisappearView<Self>
  {
    OnDisappearView(content: self, action: action)
  }
}
