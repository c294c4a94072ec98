import ReactiveStateMacrosFree

/// A point (CoreGraphics-free `CGPoint`).
struct DragPoint: Equatable, Sendable {
  var x: Double
  var y: Double
  static let zero = DragPoint(x: 0, y: 0)
}

/// A habit being dragged.
struct Habit: Equatable, Sendable {
  var name: String
}

/// S17 (seed 003): `HabitDragCoordinator`, written as the `@Observable` macro's expansion
/// (`_`-prefixed storage, `access`/`withMutation` accessors, the registrar).
final class HabitDragCoordinator: Observable {
  private let _$observationRegistrar = ObservationRegistrar()
  private var _draggedHabit: Habit?
  private var _dragLocation = DragPoint.zero
  private var _pendingDrop = false

  var draggedHabit: Habit? {
    get {
      _$observationRegistrar.access(self, keyPath: \.draggedHabit)
      return _draggedHabit
    }
    set {
      _$observationRegistrar.withMutation(
        of: self, keyPath: \.draggedHabit, replacing: _draggedHabit, with: newValue
      ) { _draggedHabit = newValue }
    }
  }

  var dragLocation: DragPoint {
    get {
      _$observationRegistrar.access(self, keyPath: \.dragLocation)
      return _dragLocation
    }
    set {
      _$observationRegistrar.withMutation(
        of: self, keyPath: \.dragLocation, replacing: _dragLocation, with: newValue
      ) { _dragLocation = newValue }
    }
  }

  var pendingDrop: Bool {
    get {
      _$observationRegistrar.access(self, keyPath: \.pendingDrop)
      return _pendingDrop
    }
    set {
      _$observationRegistrar.withMutation(
        of: self, keyPath: \.pendingDrop, replacing: _pendingDrop, with: newValue
      ) { _pendingDrop = newValue }
    }
  }

  /// Computed: its readers track `draggedHabit`.
  var isActive: Bool { draggedHabit != nil }

  func begin(habit: Habit, at location: DragPoint) {
    draggedHabit = habit
    dragLocation = location
    pendingDrop = false
  }

  func move(to location: DragPoint) { dragLocation = location }
  func drop() { pendingDrop = true }

  func end() {
    draggedHabit = nil
    dragLocation = .zero
    pendingDrop = false
  }
}
