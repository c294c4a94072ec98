/// A standard collection type, whose element type tells whether its values hold models: a
/// view field of such a type is compared element by element by identity (see
/// ``ViewEquality/isModelCollection(_:)``), not by the collection's `==`.
protocol StandardCollectionType {
  /// The type of the elements (a dictionary's values).
  static var elementType: Any.Type { get }
}

extension Array: StandardCollectionType {
  static var elementType: Any.Type { Element.self }
}

extension ContiguousArray: StandardCollectionType {
  static var elementType: Any.Type { Element.self }
}

extension ArraySlice: StandardCollectionType {
  static var elementType: Any.Type { Element.self }
}

extension Set: StandardCollectionType {
  static var elementType: Any.Type { Element.self }
}

extension Dictionary: StandardCollectionType {
  static var elementType: Any.Type { Value.self }
}

extension ViewEquality {
  /// Whether `type` is a standard collection (or an optional of one) whose elements, at any
  /// depth of nested collections and optionals, are objects of an `Observable` class. Its
  /// `==` would compare the models with their own `==` (by id, say), so a child handed new
  /// instances would be skipped and go on showing and observing the old ones; the general
  /// rules compare such a collection element by element, each by identity.
  nonisolated static func isModelCollection(_ type: Any.Type) -> Bool {
    guard let collection = unwrappedType(type) as? any StandardCollectionType.Type else {
      return false
    }
    let element = collection.elementType
    return isObservableClass(element) || isModelCollection(element)
  }
}
