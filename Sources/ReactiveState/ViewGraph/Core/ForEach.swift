/// Views computed from a collection; each row's identity is its element's id, so a row's
/// state moves with its element when the data is reordered, ends when the element is removed,
/// and starts fresh when an id is (re-)inserted.
///
/// The row closure runs inside this `ForEach`'s own tracking scope: what it reads re-expands
/// the `ForEach` (not the enclosing view).
///
/// `ForEach($items) { $item in … }` hands each row a binding to its element: a binding to a
/// mutable collection is a collection of element bindings, each identified by its element's id.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View,
  PrimitiveView
{
  /// The collection the rows come from.
  public let data: Data
  /// The row builder.
  public let content: (Data.Element) -> Content
  let id: (Data.Element) -> ID

  /// Rows keyed by the value at `id`.
  public init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self.content = content
    // Applied to every row of every expansion, unspecialized: a key path costs several hundred
    // instructions there (it looks up generic metadata on each use), so `\.self` is a cast.
    if ID.self == Data.Element.self, id == \Data.Element.self {
      self.id = { unsafeBitCast($0, to: ID.self) }
    } else {
      self.id = { $0[keyPath: id] }
    }
  }

  /// Rows keyed by `id(element)`.
  init(
    _ data: Data, id: @escaping (Data.Element) -> ID,
    content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self.id = id
    self.content = content
  }

  func makeChildren(_ node: ViewNode) -> [ChildSpec] {
    var rows = ExpandedRows(capacity: data.count, node: node)
    // This code runs unspecialized (it is reached through the view's existential), where the
    // standard library's generic iterator looks up its type metadata on every step (about a
    // thousand instructions per row), and so, less, does a range's generic index: so a range
    // of integers (`List(items.indices, id: \.self)`) is walked as one, anything else by index.
    if Data.self == Range<Int>.self {
      for value in unsafeBitCast(data, to: Range<Int>.self) {
        let element = unsafeBitCast(value, to: Data.Element.self)
        rows.add(ErasedID(id(element)), content(element))
      }
      return rows.specs
    }
    var index = data.startIndex
    let end = data.endIndex
    while index != end {
      let element = data[index]
      rows.add(ErasedID(id(element)), content(element))
      data.formIndex(after: &index)
    }
    return rows.specs
  }
}

/// The rows of one `ForEach` expansion, and the occurrences of each id so far. Not generic, so
/// it runs specialized: a dictionary keyed by the `ForEach`'s own `ID` would look up its
/// generic metadata on every use.
@MainActor
private struct ExpandedRows {
  private(set) var specs: [ChildSpec] = []
  private var seen: [ErasedID: Int] = [:]
  private let node: ViewNode

  init(capacity: Int, node: ViewNode) {
    specs.reserveCapacity(capacity)
    seen.reserveCapacity(capacity)  // no rehashing as it fills
    self.node = node
  }

  /// Adds the row `view` with the id `key`: a repeated id gets a fresh identity and is recorded.
  @inline(__always)
  mutating func add(_ key: ErasedID, _ view: any View) {
    let component: IdentityComponent
    if let count = seen.updateValue(1, forKey: key) {
      seen[key] = count + 1
      component = .duplicate(key, count)
      node.host.record(
        .duplicateID,
        "ForEach: the ID \(key) occurs more than once; later rows get fresh state. "
          + "To fix: give every element a unique id",
        node: node)
    } else {
      component = .element(key)
    }
    specs.append(ChildSpec(component: component, view: view))
  }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
  /// Rows keyed by the elements' `Identifiable` ids.
  public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    self.init(data, id: { $0.id }, content: content)
  }
}

extension ForEach where Data == Range<Int>, ID == Int {
  /// Rows for a constant range, keyed by the integer.
  public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
    self.init(data, id: { $0 }, content: content)
  }
}
