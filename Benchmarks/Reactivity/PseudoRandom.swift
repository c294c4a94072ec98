/// The suite's deterministic random numbers: `sfc32` seeded with four draws of `xmur3a("seed")`,
/// as in milomg/js-reactivity-benchmark `util/pseudoRandom.ts` (generators from bryc's
/// public-domain PRNG collection).
///
/// All JS `| 0`, `>>>` and `Math.imul` operations are 32-bit wrapping arithmetic, so `UInt32`
/// with wrapping operators reproduces them exactly. Each `PseudoRandom()` starts a new,
/// identical sequence; the dynamic graph uses two independent instances.
struct PseudoRandom {
  private var a: UInt32
  private var b: UInt32
  private var c: UInt32
  private var d: UInt32

  init(seed: String = "seed") {
    var hash = SeedHash(seed)
    a = hash.next()
    b = hash.next()
    c = hash.next()
    d = hash.next()
  }

  /// The next value in `[0, 1)`, like JS `Math.random()`.
  mutating func next() -> Double {
    var t = a &+ b
    a = b ^ (b >> 9)
    b = c &+ (c << 3)
    c = (c << 21) | (c >> 11)
    d = d &+ 1
    t = t &+ d
    c = c &+ t
    return Double(t) / 4_294_967_296.0
  }
}

/// `xmur3a`: MurmurHash3 mixing of a string into a stream of 32-bit seeds.
private struct SeedHash {
  private var h: UInt32

  init(_ text: String) {
    h = 2_166_136_261
    let units = Array(text.utf16)
    for unit in units {
      var k = UInt32(unit) &* 3_432_918_353
      k = (k << 15) | (k >> 17)
      h ^= k &* 461_845_907
      h = (h << 13) | (h >> 19)
      h = h &* 5 &+ 3_864_292_196
    }
    h ^= UInt32(truncatingIfNeeded: units.count)
  }

  mutating func next() -> UInt32 {
    h ^= h >> 16
    h = h &* 2_246_822_507
    h ^= h >> 13
    h = h &* 3_266_489_909
    h ^= h >> 16
    return h
  }
}
