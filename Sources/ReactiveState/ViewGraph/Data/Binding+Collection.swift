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
  /// Making it reads nothing.
  ///
  /// Used after the source shrank past `position` (a binding a removed row captured, read by its
  /// `onDisappear`), it does not trap as an out-of-range subscript would: a write is ignored, a
  /// read returns the last element the binding read, and each reports an
  /// ``ObservationDiagnostic``. For that it keeps the last element it read (until it reads
  /// another or goes). A read out of range by a binding that never read in range still traps,
  /// with a message naming the position: it has no element to return.
  public subscript(position: Value.Index) -> Binding<Value.Element> {
    let lastRead = LastReadElement<Value.Element>()
    return Binding<Value.Element>(
      get: {
        let source = wrappedValue
        guard Self.contains(position, in: source) else {
          guard let element = lastRead.element else {
            preconditionFailure(
              Self.outOfRange(position, of: source, "it never read an element it could return"))
          }
          ObservationDiagnostics.report(
            Self.outOfRange(position, of: source, "the read returned the last element it read"))
          return element
        }
        let element = source[position]
        lastRead.element = element
        return element
      },
      set: { newValue in
        guard Self.contains(position, in: wrappedValue) else {
          ObservationDiagnostics.report(
            Self.outOfRange(position, of: wrappedValue, "the write was ignored"))
          return
        }
        wrappedValue[position] = newValue
      })
  }

  private static func contains(_ position: Value.Index, in source: Value) -> Bool {
    position >= source.startIndex && position < source.endIndex
  }

  /// The message for a use of the binding to `position` after `source` shrank past it, with
  /// what came of the use (`outcome`).
  private static func outOfRange(_ position: Value.Index, of source: Value, _ outcome: String)
    -> String
  {
    "A binding to element \(position) of a \(Value.self) was used after the collection shrank "
      + "to \(source.count) elements (it outlived the element it was made for); \(outcome). "
      + "To fix: read what the work needs before removing the element, or find the element "
      + "again by its id"
  }
}

/// The last element an element binding read, for a read after its position went away.
private final class LastReadElement<Element> {
  var element: Element?
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
