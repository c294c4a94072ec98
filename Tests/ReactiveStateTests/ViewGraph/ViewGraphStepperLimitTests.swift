import ReactiveStateMacrosFree
import Testing

/// A stepper over an integer stops at the type's limits (or its bounds) instead of trapping on
/// overflow; a stepper over another `Strideable` still clamps to its bounds.
@MainActor
@Suite struct ViewGraphStepperLimitTests {
  struct Steppers: View {
    @State private var small: Int8 = 126
    @State private var wide = Int.max - 1
    @State private var unsigned: UInt8 = 1
    @State private var bounded = 8
    @State private var fraction = 0.5
    @State private var huge = Int128.max - 1
    @State private var hugeUnsigned: UInt128 = 5
    @State private var backwards: UInt64 = UInt64.max - 1
    @State private var descending = 1.0
    @State private var coarse: Int8 = 0

    var body: some View {
      Stepper("small", value: $small, step: 1)
      Stepper("wide", value: $wide, step: 3)
      Stepper("unsigned", value: $unsigned)
      Stepper("bounded", value: $bounded, in: 0...10, step: 5)
      Stepper("fraction", value: $fraction, in: 0...1, step: 0.25)
      Stepper("huge", value: $huge, step: 2)
      Stepper("huge unsigned", value: $hugeUnsigned, step: 10)
      // A negative step counts down on increment; its size fits Int's stride, not UInt64.
      Stepper("backwards", value: $backwards, step: -1)
      // A negative step on a non-integer value counts down on increment too.
      Stepper("descending", value: $descending, in: 0...1, step: -0.25)
      // A step whose size does not fit Int8 (its stride is Int) lands on the type's limit.
      Stepper("coarse", value: $coarse, step: 300)
    }
  }

  /// A step past the type's limits, or too large for the type, lands on the limit.
  @Test func integerSteppersStopAtTheTypesLimitsAndBounds() throws {
    let host = ViewHost(Steppers())
    try host.increment("small")
    #expect(host.value(of: "small") == "127")
    try host.increment("small")  // Int8.max: no overflow trap
    #expect(host.value(of: "small") == "127")
    try host.increment("wide")
    #expect(host.value(of: "wide") == String(Int.max))
    try host.decrement("wide")
    #expect(host.value(of: "wide") == String(Int.max - 3))
    try host.decrement("unsigned")
    try host.decrement("unsigned")  // UInt8.min
    #expect(host.value(of: "unsigned") == "0")
    try host.increment("unsigned")
    #expect(host.value(of: "unsigned") == "1")
    try host.increment("bounded")
    #expect(host.value(of: "bounded") == "10")
    try host.decrement("bounded")
    try host.decrement("bounded")
    try host.decrement("bounded")
    #expect(host.value(of: "bounded") == "0")
    try host.increment("fraction")
    try host.increment("fraction")
    try host.increment("fraction")
    #expect(host.value(of: "fraction") == "1.0")
    try host.increment("coarse")
    #expect(host.value(of: "coarse") == "127")
    try host.decrement("coarse")
    #expect(host.value(of: "coarse") == "-128")
    #expect(host.issues.isEmpty)
  }

  /// 128-bit types, and a negative step, stop at the limits the same way; a negative step
  /// moves a non-integer value down on increment (and up on decrement) within its bounds.
  @Test func wideIntegersAndNegativeStepsStopAtTheLimits() throws {
    let host = ViewHost(Steppers())
    try host.increment("huge")
    #expect(host.value(of: "huge") == String(Int128.max))
    try host.decrement("huge")
    #expect(host.value(of: "huge") == String(Int128.max - 2))
    try host.decrement("huge unsigned")
    #expect(host.value(of: "huge unsigned") == "0")
    try host.increment("huge unsigned")
    #expect(host.value(of: "huge unsigned") == "10")
    try host.decrement("backwards")
    #expect(host.value(of: "backwards") == String(UInt64.max))
    try host.decrement("backwards")
    #expect(host.value(of: "backwards") == String(UInt64.max))
    try host.increment("backwards")
    #expect(host.value(of: "backwards") == String(UInt64.max - 1))
    try host.increment("descending")
    #expect(host.value(of: "descending") == "0.75")
    try host.decrement("descending")
    try host.decrement("descending")  // the bound: stays at 1.0
    #expect(host.value(of: "descending") == "1.0")
    #expect(host.issues.isEmpty)
  }

  struct OutOfRange: View {
    @State private var count = 10
    @State private var level = -0.5
    var body: some View {
      Stepper("count", value: $count, in: 0...5)
      Stepper("level", value: $level, in: 0...1, step: 0.25)
    }
  }

  /// A value already past its range: the side that moves further out does nothing (an
  /// increment never lowers the value, a decrement never raises it); the other side moves
  /// it back into the range.
  @Test func aStepNeverMovesAValueOutsideItsRangeAgainstItsDirection() throws {
    let host = ViewHost(OutOfRange())
    try host.increment("count")
    #expect(host.value(of: "count") == "10")
    try host.decrement("count")
    #expect(host.value(of: "count") == "5")
    try host.decrement("level")
    #expect(host.value(of: "level") == "-0.5")
    try host.increment("level")
    #expect(host.value(of: "level") == "0.0")
    #expect(host.issues.isEmpty)
  }
}
