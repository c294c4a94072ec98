/// JavaScript number semantics needed to reproduce the JS suite's expected results bit-exactly.
///
/// JS numbers are IEEE doubles. The dynamic graphs use `sum & 1` (which converts with the
/// spec's ToInt32) and `sum % n` (which is C `fmod`, i.e. `truncatingRemainder`). Values in the
/// `6-100x15` graph exceed 2^53 and the `3-5x500` graph reaches ~3e241, so both operations must
/// follow the spec exactly, not go through `Int`.
enum JSArithmetic {
  private static let twoTo32 = 4_294_967_296.0

  /// ECMAScript ToInt32: truncate toward zero, reduce modulo 2^32, reinterpret as signed.
  /// NaN and infinities map to 0.
  static func toInt32(_ value: Double) -> Int32 {
    guard value.isFinite else { return 0 }
    var reduced = value.rounded(.towardZero).truncatingRemainder(dividingBy: twoTo32)
    if reduced < 0 { reduced += twoTo32 }
    return Int32(bitPattern: UInt32(reduced))
  }

  /// JS `a & b` on numbers.
  static func bitAnd(_ lhs: Double, _ rhs: Double) -> Double {
    Double(toInt32(lhs) & toInt32(rhs))
  }

  /// JS `a % b` on numbers (sign of the dividend, like C `fmod`).
  ///
  /// Small integral operands take an integer remainder, as JS engines do for their small
  /// integers (V8's Smi path); everything else goes through `fmod`. The result is the same
  /// bit for bit, including the sign of a zero result (`-4 % 2` is `-0`). Both columns of a
  /// scenario share this function, so it only removes cost the engines do not cause.
  @inline(__always)
  static func remainder(_ lhs: Double, _ rhs: Double) -> Double {
    let dividend = Int32(exactly: lhs)
    let divisor = Int32(exactly: rhs)
    if let dividend, let divisor, divisor > 0 {
      let result = Double(dividend % divisor)
      return result == 0 ? (lhs.sign == .minus ? -0.0 : 0.0) : result
    }
    return lhs.truncatingRemainder(dividingBy: rhs)
  }

  /// JS `Math.round` (halves round toward +infinity).
  static func round(_ value: Double) -> Double {
    (value + 0.5).rounded(.down)
  }
}
