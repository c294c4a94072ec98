@_spi(Reflection) import Swift

/// Where a class's `@Published` storage is: the byte offset of each `@Published` field (inherited
/// fields first) and how to read its box, found by one walk of the class's field metadata per
/// class and reused for every object of it.
///
/// The walk (Combine's runtime field walk) reads the field descriptors, superclasses included:
/// only the `@Published` fields are ever loaded from an object, so its other stored properties
/// are never touched (no race with their writers, no read of a dead `unowned` reference) and a
/// `CustomReflectable` conformance does not hide them. The walk resolves every field's type by
/// name and costs microseconds, so it runs once per class; the cache holds one small array per
/// class that uses `@Published`, for the life of the process.
struct PublishedFields: @unchecked Sendable {
  /// One `@Published` field: its offset in the object and the storage type that reads its box.
  private struct Field {
    let offset: Int
    let storage: any PublishedBoxProviding.Type
  }

  private let fields: [Field]

  /// The `@Published` fields of `object`'s class.
  init(of object: AnyObject) {
    let type = ObjectIdentifier(Swift.type(of: object))
    if let known = layoutLock.withLock({ layouts[type] }) {
      self = known
      return
    }
    var fields: [Field] = []
    // `_EachFieldOptions.classType` (its static member is not concurrency-safe to name).
    let classType = _EachFieldOptions(rawValue: 1 << 0)
    _ = _forEachField(of: Swift.type(of: object), options: classType) { _, offset, fieldType, _ in
      if let storage = fieldType as? any PublishedBoxProviding.Type {
        fields.append(Field(offset: offset, storage: storage))
      }
      return true
    }
    self.fields = fields
    layoutLock.withLock { layouts[type] = self }
  }

  /// The storage of the first `@Published` field of `object` (of this layout's class).
  func firstBox(of object: AnyObject) -> PublishedBoxBase? {
    fields.first.map { box(of: object, at: $0) }
  }

  /// The storage of every `@Published` field of `object` (of this layout's class), in order.
  func boxes(of object: AnyObject) -> [PublishedBoxBase] {
    fields.map { box(of: object, at: $0) }
  }

  private func box(of object: AnyObject, at field: Field) -> PublishedBoxBase {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    return field.storage.publishedBox(at: base + field.offset)
  }
}

/// Guards `layouts`.
private let layoutLock = WordLock()
/// The layouts found so far, by class.
nonisolated(unsafe) private var layouts: [ObjectIdentifier: PublishedFields] = [:]
