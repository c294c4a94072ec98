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
  ///
  /// Used after the source shrank past `position` (a binding a removed row captured), it does
  /// not trap as an out-of-range subscript would: a read returns the element as it was when the
  /// binding was made, a write is ignored, and each reports an ``ObservationDiagnostic``.
  public subscript(position: Value.Index) -> Binding<Value.Element> {
    // Untracked: making the binding is no read of the source by the view that makes it.
    let madeWith = withoutObservationTracking { wrappedValue[position] }
    return Binding<Value.Element>(
      get: {
        let source = wrappedValue
        guard Self.contains(position, in: source) else {
          Self.reportOutOfRange(
            position, of: source, what: "read (it returned the element it was made with)")
          return madeWith
        }
        return source[position]
      },
      set: { newValue in
        guard Self.contains(position, in: wrappedValue) else {
          Self.reportOutOfRange(position, of: wrappedValue, what: "written (the write was ignored)")
          return
        }
        wrappedValue[position] = newValue
      })
  }

  private static func contains(_ position: Value.Index, in source: Value) -> Bool {
    position >= source.startIndex && position < source.endIndex
  }

  private static func reportOutOfRange(_ position: Value.Index, of source: Value, what: String) {
    ObservationDiagnostics.report(
      "A binding to element \(position) of a \(Value.self) was \(what) after the collection "
        + "shrank to \(source.count) elements: a binding to a removed element outlived it. To fix: "
        + "end the work that captured a row's binding in the row's onDisappear")
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
