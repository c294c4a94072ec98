/// `molBench` (from `$mol_wire`): a small graph of fresh objects and expensive computeds,
/// updated by two batches of two writes per step.
///
/// The expensive part is `hard(n) = n + fib(16)`, the same arithmetic in both columns: a
/// lazy engine with equality cut-off calls it 5 times per step, the Observation baseline 7, so
/// the ratio stays near the cost of those calls whatever the engines cost. The variant with
/// `fibArgument: 0` (`hard(n) = n + 1`, the same graph, values and checks, since `fib(0)` is
/// odd like `fib(16)`) measures the engines on this graph.
struct MolBench: KairoCase {
  /// The argument of `fib` in `hard`: 16 in the suite.
  var fibArgument = 16
  var name: String { fibArgument == 16 ? "molBench" : "molBench, hard() = n + fib(\(fibArgument))" }

  func build<F: ReactiveFramework>(_ framework: F, checker: ResultChecker) -> () -> Void {
    let a = framework.signal(0.0)
    let b = framework.signal(0.0)
    let c = framework.computed {
      JSArithmetic.remainder(a.read(), 2) + JSArithmetic.remainder(b.read(), 2)
    }
    let d = framework.computed {
      FreshObject(
        (0..<5).map { index in
          Double(index) + JSArithmetic.remainder(a.read(), 2) - JSArithmetic.remainder(b.read(), 2)
        })
    }
    let fibArgument = fibArgument
    let hard = { (value: Double) in value + Double(fib(fibArgument)) }
    let e = framework.computed { hard(c.read() + a.read() + d.read().value[0]) }
    let f = framework.computed { () -> Double in
      let x = d.read().value[2]
      return hard(x != 0 ? x : b.read())
    }
    let g = framework.computed { () -> Double in
      let cValue = c.read()
      let orTerm = cValue != 0 ? c.read() : JSArithmetic.remainder(e.read(), 2)
      return cValue + orTerm + d.read().value[4] + f.read()
    }
    let log = MolLog()
    framework.effect { log.values.append(hard(g.read())) }
    framework.effect { log.values.append(g.read()) }
    framework.effect { log.values.append(hard(f.read())) }

    // Each batch moves G (8 + hard(2), then 5 + hard(2)) and leaves F at hard(2): with
    // equality cut-off only the two effects on G re-run, twice per step; without it, the
    // invalidated F re-runs its effect in both batches too. Unbatched writes would run more.
    let expectedEffectRuns = framework.hasEqualityCutoff ? 4 : 6
    var step = 0.0
    return {
      step += 1
      log.values.removeAll(keepingCapacity: true)
      framework.withBatch {
        b.write(1)
        a.write(1 + step * 2)
      }
      framework.withBatch {
        a.write(2 + step * 2)
        b.write(2)
      }
      // With A even and B == 2: C = 0, D = [0...4], E odd, F = hard(2), G = 1 + 4 + F.
      checker.expect(g.read() == 5 + hard(2), "G == 5 + hard(2)")
      checker.expect(
        log.values.count == expectedEffectRuns,
        "effect runs \(log.values.count) == \(expectedEffectRuns) per step")
    }
  }
}

/// The effects' output log.
private final class MolLog {
  var values: [Double] = []
}

/// The suite's recursive `fib` (`fib(0) = fib(1) = 1`), which `hard` adds to its argument.
@inline(never) private func fib(_ n: Int) -> Int {
  n < 2 ? 1 : fib(n - 1) + fib(n - 2)
}
