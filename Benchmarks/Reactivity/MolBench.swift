/// `molBench` (from `$mol_wire`): a small graph of fresh objects and expensive computeds,
/// updated by two batches of two writes per step.
struct MolBench: KairoCase {
  let name = "molBench"

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
      // With A even and B == 2: C = 0, D = [0...4], E odd, F = 2 + fib(16), G = 1 + 4 + F.
      checker.expect(g.read() == 5 + hard(2), "G == 1604")
    }
  }
}

/// The effects' output log.
private final class MolLog {
  var values: [Double] = []
}

/// `hard(n) = n + fib(16)` with the suite's recursive `fib` (`fib(0) = fib(1) = 1`).
private func hard(_ value: Double) -> Double { value + Double(fib(16)) }

@inline(never) private func fib(_ n: Int) -> Int {
  n < 2 ? 1 : fib(n - 1) + fib(n - 2)
}
