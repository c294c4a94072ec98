import ReactiveState
import Testing

/// A property slot remembers up to four call sites of its key path (each literal `\.name`
/// autoclosure is one), so later accesses from them find it by a pointer compare. An accessor
/// inlined at more places than that evicts a remembered site; eviction must never make one
/// property's site lead to another's slot.
@Suite struct CallSiteCacheTests {
  /// Two properties, each accessed through six distinct key-path literals for reads and six
  /// for writes: both slots' site caches overflow and evict.
  final class ManySites: ReactiveState.Observable, @unchecked Sendable {
    private let registrar = ReactiveState.ObservationRegistrar()
    private var storage = [0, 0]
    var value: Int { storage[0] }
    var other: Int { storage[1] }

    func readValue(site: Int) -> Int {
      switch site {
      case 0: registrar.access(self, keyPath: \.value)
      case 1: registrar.access(self, keyPath: \.value)
      case 2: registrar.access(self, keyPath: \.value)
      case 3: registrar.access(self, keyPath: \.value)
      case 4: registrar.access(self, keyPath: \.value)
      default: registrar.access(self, keyPath: \.value)
      }
      return storage[0]
    }

    func readOther(site: Int) -> Int {
      switch site {
      case 0: registrar.access(self, keyPath: \.other)
      case 1: registrar.access(self, keyPath: \.other)
      case 2: registrar.access(self, keyPath: \.other)
      case 3: registrar.access(self, keyPath: \.other)
      case 4: registrar.access(self, keyPath: \.other)
      default: registrar.access(self, keyPath: \.other)
      }
      return storage[1]
    }

    func writeValue(_ newValue: Int, site: Int) {
      let store = { self.storage[0] = newValue }
      switch site {
      case 0: registrar.withMutation(of: self, keyPath: \.value, store)
      case 1: registrar.withMutation(of: self, keyPath: \.value, store)
      case 2: registrar.withMutation(of: self, keyPath: \.value, store)
      case 3: registrar.withMutation(of: self, keyPath: \.value, store)
      case 4: registrar.withMutation(of: self, keyPath: \.value, store)
      default: registrar.withMutation(of: self, keyPath: \.value, store)
      }
    }

    func writeOther(_ newValue: Int, site: Int) {
      let store = { self.storage[1] = newValue }
      switch site {
      case 0: registrar.withMutation(of: self, keyPath: \.other, store)
      case 1: registrar.withMutation(of: self, keyPath: \.other, store)
      case 2: registrar.withMutation(of: self, keyPath: \.other, store)
      case 3: registrar.withMutation(of: self, keyPath: \.other, store)
      case 4: registrar.withMutation(of: self, keyPath: \.other, store)
      default: registrar.withMutation(of: self, keyPath: \.other, store)
      }
    }
  }

  static let sites = 0..<6

  /// Every pair of read and write sites, one-shot and continuous: a write reaches exactly the
  /// observers of its own property, however the sites were cached and evicted.
  @Test func everySiteReachesItsOwnPropertyOnly() {
    let model = ManySites()
    var next = 0
    for readSite in Self.sites {
      for writeSite in Self.sites {
        let fired = Box<[String]>([])
        ReactiveState.withObservationTracking(
          { _ = model.readValue(site: readSite) }, onChange: { fired.value.append("value") })
        ReactiveState.withObservationTracking(
          { _ = model.readOther(site: readSite) }, onChange: { fired.value.append("other") })
        let runs = Box<[Int]>([])
        let token = observe { runs.value.append(model.readValue(site: readSite)) }
        next += 1
        model.writeOther(next, site: writeSite)
        let sites = "read site \(readSite), write site \(writeSite)"
        #expect(fired.value == ["other"], "\(sites)")
        model.writeValue(next, site: writeSite)
        #expect(fired.value == ["other", "value"], "\(sites)")
        #expect(runs.value == [next - 1, next], "\(sites)")
        model.writeValue(next, site: (writeSite + 1) % Self.sites.count)
        #expect(runs.value == [next - 1, next, next], "a continuous observer sees every write")
        token.cancel()
      }
    }
  }
}
