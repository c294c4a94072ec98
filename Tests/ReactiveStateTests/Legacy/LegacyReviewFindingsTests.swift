import Foundation
import ReactiveState
import Testing

/// Legacy-publisher defects a review found, kept fixed. Combine is the reference (it does not
/// exist on Linux, so its behaviour is stated, not run).
@Suite struct LegacyReviewFindingsTests {
  /// A model with a custom mirror (a common `CustomReflectable` use): it hides the fields
  /// from `Mirror`, which the default `objectWillChange` used to find its storage with.
  final class ReflectableProfile: ObservableObject, CustomReflectable, @unchecked Sendable {
    @Published var name = "Ada"
    var customMirror: Mirror { Mirror(self, children: ["display": name]) }
  }

  final class Owner {}

  /// A model with an `unowned` back reference: legal while it is not read after its object
  /// went. `Mirror` read every field, so `objectWillChange` trapped on it.
  final class Child: ObservableObject, @unchecked Sendable {
    unowned let owner: Owner
    @Published var name = "child"
    init(owner: Owner) { self.owner = owner }
  }

  /// Combine never delivers to a subscription after its `cancel()` returned: a subscriber
  /// cancelled by an earlier one during the same `send()` gets nothing.
  @Test func aSubscriberCancelledDuringASendDoesNotReceiveIt() {
    let publisher = ObservableObjectPublisher()
    let received = Box<[String]>([])
    let second = Box<AnyCancellable?>(nil)
    let first = publisher.sink {
      received.value.append("first")
      second.value?.cancel()
    }
    second.value = publisher.sink { received.value.append("second") }
    publisher.send()
    #expect(received.value == ["first"])
    publisher.send()
    #expect(received.value == ["first", "first"])
    withExtendedLifetime(first) {}
  }

  @Test func aCustomReflectableModelStillHasOnePublisherThatPublishes() {
    let model = ReflectableProfile()
    #expect(model.objectWillChange === model.objectWillChange)
    let count = Box(0)
    let token = model.objectWillChange.sink { count.value += 1 }
    model.name = "Grace"
    #expect(count.value == 1)
    withExtendedLifetime(token) {}
  }

  @Test func anUnownedReferenceToAGoneObjectIsNotRead() async {
    await #expect(processExitsWith: .success) {
      var owner: Owner? = Owner()
      let child = Child(owner: owner!)
      owner = nil
      let count = Box(0)
      let token = child.objectWillChange.sink { count.value += 1 }
      child.name = "x"
      precondition(count.value == 1)
      withExtendedLifetime(token) {}
    }
  }
}
