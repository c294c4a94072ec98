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

/// S24: the same model with Observation is S18's hand-written `FoodTruckModel`.
typealias ObservedFoodTruck = FoodTruckModel
