import Testing

@testable import ReactiveState

/// A node's structural path is a chain of levels shared with its ancestors and with every log
/// record naming it. Found by the session-41 scaling review: each node stored its whole path
/// as a string (its parent's plus its own level), so mounting a tree of depth d made d strings
/// of up to d levels — quadratic time and memory (2.3 s and 2.9 GB at depth 4,000).
@MainActor
@Suite struct ViewPathSharingTests {
  struct Nest: View {
    let depth: Int
    var body: some View {
      if depth > 0 { AnyView(Nest(depth: depth - 1)) } else { AnyView(Text("leaf")) }
    }
  }

  @Test func eachLevelIsStoredOnceAndSharedDownTheTree() {
    let depth = 50
    let host = ViewHost(Nest(depth: depth))
    let nests = host.updateLog.filter { $0.view == "Nest" }
    #expect(nests.count == depth + 1)
    for (parent, child) in zip(nests, nests.dropFirst()) {
      // Between two nested Nest views sit the branch's AnyView node and its wrapped view.
      var ancestor = child.location.parent
      var steps = 1
      while let current = ancestor, current !== parent.location {
        ancestor = current.parent
        steps += 1
      }
      #expect(ancestor === parent.location, "the child's path reaches its parent's by reference")
      #expect(steps <= 4)
      #expect(!child.location.level.contains("/"), "a level holds its own component only")
    }
    let leaf = nests[depth].path
    #expect(leaf.hasPrefix("0:Nest/") && leaf.hasSuffix(":Nest"))
    #expect(leaf.split(separator: "/").filter { $0.hasSuffix(":Nest") }.count == depth + 1)
    var copy = nests[depth]
    copy.path = leaf
    #expect(copy == nests[depth], "a record whose path is set to the same text is equal")
  }
}
