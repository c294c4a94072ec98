/// Bindings to the properties of an observable model, as SwiftUI's `@Bindable`:
/// `$model.title` is a `Binding<String>` reading and writing `model.title`.
///
/// Works as a view property (`@Bindable var model: Model`) and as a local inside `body`
/// (`@Bindable var model = model`). Reads through the bindings are tracked by the model's own
/// registrar, in whichever view reads them.
@MainActor
@propertyWrapper
@dynamicMemberLookup
public struct Bindable<Value: AnyObject & Observable> {
  /// The model. The wrapper holds it strongly but does not own its lifetime: the view that
  /// created it (with `@State`) or injected it (with `.environment`) does.
  public var wrappedValue: Value

  /// Makes bindings to `wrappedValue`'s properties available as `$name.property`. Reads
  /// nothing: creating the wrapper adds no dependency.
  public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// Makes bindings to `wrappedValue`'s properties available without the attribute, as in
  /// `Bindable(model).title`. Reads nothing.
  public init(_ wrappedValue: Value) { self.wrappedValue = wrappedValue }

  /// The wrapper itself, so `$model.title` produces a binding.
  public var projectedValue: Bindable<Value> { self }

  /// A binding to `keyPath` of the model.
  public subscript<Member>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>)
    -> Binding<Member>
  {
    binding(to: keyPath, snapshot: nil)
  }

  /// A binding to `keyPath` of the model that carries the property's value when it was made
  /// (read untracked: making the binding adds no dependency), as SwiftUI's bindings do. A
  /// view handed a binding to the same property is skipped only when this value is `==`, so
  /// a property the model does not observe still reaches a child when its parent runs again.
  public subscript<Member: Equatable>(
    dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>
  ) -> Binding<Member> {
    let object = wrappedValue
    let value = withoutObservationTracking { object[keyPath: keyPath] }
    return binding(to: keyPath, snapshot: EquatableBindingSnapshot(value))
  }

  private func binding<Member>(
    to keyPath: ReferenceWritableKeyPath<Value, Member>, snapshot: BindingSnapshot?
  ) -> Binding<Member> {
    let object = wrappedValue
    return Binding(
      get: { object[keyPath: keyPath] },
      set: { object[keyPath: keyPath] = $0 },
      identity: BindingIdentity(root: object, path: [keyPath], snapshot: snapshot))
  }
}
