import Foundation
import Observation
import ReactiveState
import Testing

/// Observation's registrar is `Codable` and `Hashable` while contributing nothing, so a
/// `Codable` or `Hashable` model can hold one; both of ours behave the same, checked against
/// Observation's as the oracle.
@Suite struct RegistrarConformanceTests {
  struct Ours: Codable, Hashable {
    var name: String
    var registrar = ReactiveState.ObservationRegistrar()
  }

  struct OursOnTheMainActor: Codable, Hashable {
    var name: String
    var registrar = MainActorObservationRegistrar()
  }

  struct Theirs: Codable, Hashable {
    var name: String
    var registrar = Observation.ObservationRegistrar()
  }

  static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func registrarsEncodeAndDecodeAsObservationsDoes() throws {
    let expected = try Self.json(Theirs(name: "a"))
    #expect(try Self.json(Ours(name: "a")) == expected)
    #expect(try Self.json(OursOnTheMainActor(name: "a")) == expected)
    let data = Data(expected.utf8)
    #expect(try JSONDecoder().decode(Ours.self, from: data).name == "a")
    #expect(try JSONDecoder().decode(OursOnTheMainActor.self, from: data).name == "a")
  }

  @Test func registrarsNeverMakeTheirHostsUnequal() {
    let (ours, oursOnMain, theirs) = (
      Ours(name: "a"), OursOnTheMainActor(name: "a"), Theirs(name: "a")
    )
    #expect(ours == Ours(name: "a"))
    #expect(oursOnMain == OursOnTheMainActor(name: "a"))
    #expect(theirs == Theirs(name: "a"))
    #expect(ours != Ours(name: "b"))
    #expect(oursOnMain != OursOnTheMainActor(name: "b"))
    #expect(Set([ours, Ours(name: "a"), Ours(name: "b")]).count == 2)
    #expect(Set([oursOnMain, OursOnTheMainActor(name: "a")]).count == 1)
    #expect(Set([theirs, Theirs(name: "a")]).count == 1)
  }

  /// Observation's `encode(to:)` does not throw, so a hand-written `encode(to:)` may call it
  /// without `try` (this compiles only while ours does not throw either).
  @Test func encodingARegistrarNeedsNoTry() throws {
    struct Wrapper: Encodable {
      let ours = ReactiveState.ObservationRegistrar()
      let theirs = Observation.ObservationRegistrar()
      func encode(to encoder: any Encoder) {
        ours.encode(to: encoder)
        theirs.encode(to: encoder)
      }
    }
    struct Host: Encodable { let wrapper = Wrapper() }
    #expect(try Self.json(Host()) == #"{"wrapper":{}}"#)
  }
}
