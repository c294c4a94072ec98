/// A node's dynamic-property storage (``ViewNode/slots``): the objects its properties keep
/// (`StateCell`s, legacy subscriptions, …) at the ordinals its type's plan numbers them by
/// (0, 1, …), and the host's own at the negative indices down to ``lowestIndex`` (`onChange`
/// -1, lifecycle -2, sheet -3).
///
/// One array, not a dictionary: the `@State` installation that runs at every evaluation of a
/// view with state finds its cell without hashing. A node with no slots allocates nothing.
struct NodeSlots {
  /// The lowest index in use.
  static let lowestIndex = -3

  private var entries: [AnyObject?] = []

  /// The object at `index` (≥ ``lowestIndex``), nil when none was stored there.
  subscript(index: Int) -> AnyObject? {
    get {
      let position = index - Self.lowestIndex
      return position < entries.count ? entries[position] : nil
    }
    set {
      let position = index - Self.lowestIndex
      precondition(position >= 0, "slot \(index) is below \(Self.lowestIndex)")
      if position >= entries.count {
        guard newValue != nil else { return }
        entries.append(contentsOf: repeatElement(nil, count: position + 1 - entries.count))
      }
      entries[position] = newValue
    }
  }

  /// The stored objects, lowest index first.
  var values: [AnyObject] { entries.compactMap { $0 } }
}
