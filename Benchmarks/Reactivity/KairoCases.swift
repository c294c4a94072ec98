/// `avoidablePropagation`: `c2` always yields 0, so nothing below it needs to re-run (checked for
/// adapters with equality cut-off). Without cut-off, each of the step's 1001 writes (every one
/// changes `head`) re-runs `c3` and the effect exactly once: `c3` is cached, so the checks'
/// reads of `c5` must not recompute it.
struct AvoidablePropagation: KairoCase {
  let name = "avoidablePropagation"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let head = framework.signal(0.0)
    let c1 = framework.computed { head.read() }
    let c2 = framework.computed { () -> Double in
      _ = c1.read()
      return 0
    }
    let belowCutoff = RunCounter()
    let c3 = framework.computed { () -> Double in
      belowCutoff.count += 1
      _ = busy()
      return c2.read() + 1
    }
    let c4 = framework.computed { c3.read() + 2 }
    let c5 = framework.computed { c4.read() + 3 }
    framework.effect {
      belowCutoff.count += 1
      _ = c5.read()
      _ = busy()
    }
    return {
      belowCutoff.count = 0
      framework.withBatch { head.write(1) }
      checker.expect(c5.read() == 6, "c5 == 6")
      for i in 0..<1000 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(c5.read() == 6, "c5 == 6")
      }
      let expectedBelow = framework.hasEqualityCutoff ? 0 : 2 * 1001
      checker.expect(
        belowCutoff.count == expectedBelow,
        "c3 and the effect re-ran \(belowCutoff.count) times, expected \(expectedBelow)")
    }
  }
}

/// `broadPropagation`: one head, 50 two-computed branches, an effect on each.
struct BroadPropagation: KairoCase {
  let name = "broadPropagation"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let head = framework.signal(0.0)
    var last = head.asComputed
    let counter = RunCounter()
    for i in 0..<50 {
      let current = framework.computed { head.read() + Double(i) }
      let current2 = framework.computed { current.read() + 1 }
      framework.effect {
        _ = current2.read()
        counter.count += 1
      }
      last = current2
    }
    let end = last
    return {
      framework.withBatch { head.write(1) }
      counter.count = 0
      for i in 0..<50 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(end.read() == Double(i + 50), "last == i + 50")
      }
      checker.expect(counter.count == 50 * 50, "effect runs \(counter.count) == 2500")
    }
  }
}

/// `deepPropagation`: a chain of 50 computeds under one effect.
struct DeepPropagation: KairoCase {
  let name = "deepPropagation"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let length = 50
    let head = framework.signal(0.0)
    var current = head.asComputed
    for _ in 0..<length {
      let previous = current
      current = framework.computed { previous.read() + 1 }
    }
    let end = current
    let counter = RunCounter()
    framework.effect {
      _ = end.read()
      counter.count += 1
    }
    return {
      framework.withBatch { head.write(1) }
      counter.count = 0
      for i in 0..<50 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(end.read() == Double(length + i), "end == 50 + i")
      }
      checker.expect(counter.count == 50, "effect runs \(counter.count) == 50")
    }
  }
}

/// `diamond`: five computeds of one head, summed, under one effect.
struct Diamond: KairoCase {
  let name = "diamond"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let width = 5
    let head = framework.signal(0.0)
    let branches = (0..<width).map { _ in framework.computed { head.read() + 1 } }
    let sum = framework.computed { branches.reduce(0.0) { $0 + $1.read() } }
    let counter = RunCounter()
    framework.effect {
      _ = sum.read()
      counter.count += 1
    }
    return {
      framework.withBatch { head.write(1) }
      checker.expect(sum.read() == Double(2 * width), "sum == 10")
      counter.count = 0
      for i in 0..<500 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(sum.read() == Double((i + 1) * width), "sum == (i + 1) * 5")
      }
      checker.expect(counter.count == 500, "effect runs \(counter.count) == 500")
    }
  }
}

/// `mux`: 100 heads gathered into one fresh object, split back into 100 computeds, +1 each.
struct Mux: KairoCase {
  let name = "mux"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let heads = (0..<100).map { _ in framework.signal(0.0) }
    let mux = framework.computed { FreshObject(heads.map { $0.read() }) }
    let split = heads.indices
      .map { index in framework.computed { mux.read().value[index] } }
      .map { part in framework.computed { part.read() + 1 } }
    for part in split {
      framework.effect { _ = part.read() }
    }
    return {
      for i in 0..<10 {
        framework.withBatch { heads[i].write(Double(i)) }
        checker.expect(split[i].read() == Double(i + 1), "split[i] == i + 1")
      }
      for i in 0..<10 {
        framework.withBatch { heads[i].write(Double(i * 2)) }
        checker.expect(split[i].read() == Double(i * 2 + 1), "split[i] == 2i + 1")
      }
    }
  }
}

/// `repeatedObservers`: one computed reads the head 30 times.
struct RepeatedObservers: KairoCase {
  let name = "repeatedObservers"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let size = 30
    let head = framework.signal(0.0)
    let current = framework.computed { () -> Double in
      var result = 0.0
      for _ in 0..<size { result += head.read() }
      return result
    }
    let counter = RunCounter()
    framework.effect {
      _ = current.read()
      counter.count += 1
    }
    return {
      framework.withBatch { head.write(1) }
      checker.expect(current.read() == Double(size), "current == 30")
      counter.count = 0
      for i in 0..<100 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(current.read() == Double(i * size), "current == 30i")
      }
      checker.expect(counter.count == 100, "effect runs \(counter.count) == 100")
    }
  }
}

/// `triangle`: a chain of 10 whose every node also feeds one sum.
struct Triangle: KairoCase {
  let name = "triangle"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let width = 10
    let head = framework.signal(0.0)
    var current = head.asComputed
    var list: [ComputedHandle<Double>] = []
    for _ in 0..<width {
      let previous = current
      list.append(current)
      current = framework.computed { previous.read() + 1 }
    }
    let nodes = list
    let sum = framework.computed { nodes.map { $0.read() }.reduce(0, +) }
    let counter = RunCounter()
    framework.effect {
      _ = sum.read()
      counter.count += 1
    }
    let constant = Double((1...width).reduce(0, +))
    return {
      framework.withBatch { head.write(1) }
      checker.expect(sum.read() == constant, "sum == 55")
      counter.count = 0
      for i in 0..<100 {
        framework.withBatch { head.write(Double(i)) }
        checker.expect(
          sum.read() == constant - Double(width) + Double(i * width), "sum == 45 + 10i")
      }
      checker.expect(counter.count == 100, "effect runs \(counter.count) == 100")
    }
  }
}

/// `unstable`: the computed's dependency set flips on every write.
struct Unstable: KairoCase {
  let name = "unstable"

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let head = framework.signal(0.0)
    let double = framework.computed { head.read() * 2 }
    let inverse = framework.computed { -head.read() }
    let current = framework.computed { () -> Double in
      var result = 0.0
      for _ in 0..<20 {
        result += JSArithmetic.remainder(head.read(), 2) != 0 ? double.read() : inverse.read()
      }
      return result
    }
    let counter = RunCounter()
    framework.effect {
      _ = current.read()
      counter.count += 1
    }
    return {
      framework.withBatch { head.write(1) }
      checker.expect(current.read() == 40, "current == 40")
      counter.count = 0
      for i in 0..<100 {
        framework.withBatch { head.write(Double(i)) }
      }
      checker.expect(counter.count == 100, "effect runs \(counter.count) == 100")
    }
  }
}
