import ReactiveStateMacrosFree

/// S13 (seed 001): a legacy model — `ObservableObject` + `@Published`.
final class LegacyCounterModel: ObservableObject {
  @Published var count = 0
  @Published var note = ""

  /// How many instances were created (the broken `@ObservedObject var model = Model()`
  /// creates one per parent evaluation).
  @MainActor static var created = 0

  @MainActor init() { Self.created += 1 }
}

/// S24 (seed 004): the food-truck model in the legacy form.
final class LegacyFoodTruck: ObservableObject {
  @Published var orders: [String] = []
  @Published var donuts: [String] = ["Glazed"]
}

/// S24: the same model with Observation (hand-written registrar accessors).
final class ObservedFoodTruck: Observable {
  private let registrar = ObservationRegistrar()
  private var _orders: [String] = []
  private var _donuts: [String] = ["Glazed"]

  var orders: [String] {
    get {
      registrar.access(self, keyPath: \.orders)
      return _orders
    }
    set {
      registrar.withMutation(of: self, keyPath: \.orders, replacing: _orders, with: newValue) {
        _orders = newValue
      }
    }
  }

  var donuts: [String] {
    get {
      registrar.access(self, keyPath: \.donuts)
      return _donuts
    }
    set {
      registrar.withMutation(of: self, keyPath: \.donuts, replacing: _donuts, with: newValue) {
        _donuts = newValue
      }
    }
  }
}
