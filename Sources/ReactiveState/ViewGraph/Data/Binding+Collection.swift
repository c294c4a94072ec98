// `ForEach($model.items) { $item in … }`, as in SwiftUI: a binding to a mutable collection is
// a collection of bindings to its elements, and a binding to an `Identifiable` value has the
// value's id, so `ForEach` keys each row by its element's id.

extension Binding: @MainActor Sequence where Value: MutableCollection & RandomAccessCollection {
  /// A binding to one element of the source.
  public typealias Element = Binding<Value.Element>
}

extension Binding: @MainActor Collection where Value: MutableCollection & RandomAccessCollection {
  /// The source collection's index.
  public typealias Index = Value.Index

  /// The source collection's `startIndex` (reading it reads the source).
  public var startIndex: Value.Index { wrappedValue.startIndex }

  /// The source collection's `endIndex` (reading it reads the source).
  public var endIndex: Value.Index { wrappedValue.endIndex }

  /// The index after `index` in the source collection.
  public func index(after index: Value.Index) -> Value.Index {
    wrappedValue.index(after: index)
  }

  /// A binding to the element at `position`: it reads and writes that position of the source
  /// (through this binding), so a row keeps editing the same position until it is rebuilt.
  public subscript(position: Value.Index) -> Binding<Value.Element> {
    Binding<Value.Element>(
      get: { wrappedValue[position] },
      set: { wrappedValue[position] = $0 })
  }
}

extension Binding: @MainActor BidirectionalCollection
where Value: MutableCollection & RandomAccessCollection {
  /// The index before `index` in the source collection.
  public func index(before index: Value.Index) -> Value.Index {
    wrappedValue.index(before: index)
  }
}

extension Binding: @MainActor RandomAccessCollection
where Value: MutableCollection & RandomAccessCollection {}

extension Binding: @MainActor Identifiable where Value: Identifiable {
  /// The bound value's id (reading it reads the source).
  public var id: Value.ID { wrappedValue.id }
}
