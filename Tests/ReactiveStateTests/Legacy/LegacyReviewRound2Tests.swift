import Foundation
import Testing

// `@testable` only to see, without taking any lock of its own, when the first `@Published`
// storage of a model has received the object's publisher (the fast path's witness).
@testable import ReactiveState

/// Legacy-publisher defects found by the second review. Combine is the reference (it does not
/// exist on Linux; OpenCombine's `PublishedSubject`, which mirrors it, is cited where it helps).

/// Many `@Published` properties, so installing the object's publisher into all of them takes
/// long enough for another thread to look at the object meanwhile.
final class ManyPublishedModel: ObservableObject, @unchecked Sendable {
  @Published var p0 = 0
  @Published var p1 = 0
  @Published var p2 = 0
  @Published var p3 = 0
  @Published var p4 = 0
  @Published var p5 = 0
  @Published var p6 = 0
  @Published var p7 = 0
  @Published var p8 = 0
  @Published var p9 = 0
  @Published var p10 = 0
  @Published var p11 = 0
  @Published var p12 = 0
  @Published var p13 = 0
  @Published var p14 = 0
  @Published var p15 = 0
  @Published var p16 = 0
  @Published var p17 = 0
  @Published var p18 = 0
  @Published var p19 = 0
  @Published var p20 = 0
  @Published var p21 = 0
  @Published var p22 = 0
  @Published var p23 = 0
  @Published var p24 = 0
  @Published var p25 = 0
  @Published var p26 = 0
  @Published var p27 = 0
  @Published var p28 = 0
  @Published var p29 = 0
  @Published var p30 = 0
  @Published var p31 = 0
  @Published var p32 = 0
  @Published var p33 = 0
  @Published var p34 = 0
  @Published var p35 = 0
  @Published var p36 = 0
  @Published var p37 = 0
  @Published var p38 = 0
  @Published var p39 = 0
  @Published var p40 = 0
  @Published var p41 = 0
  @Published var p42 = 0
  @Published var p43 = 0
  @Published var p44 = 0
  @Published var p45 = 0
  @Published var p46 = 0
  @Published var p47 = 0
  @Published var p48 = 0
  @Published var p49 = 0
  @Published var p50 = 0
  @Published var p51 = 0
  @Published var p52 = 0
  @Published var p53 = 0
  @Published var p54 = 0
  @Published var p55 = 0
  @Published var p56 = 0
  @Published var p57 = 0
  @Published var p58 = 0
  @Published var p59 = 0
  @Published var p60 = 0
  @Published var p61 = 0
  @Published var p62 = 0
  @Published var p63 = 0
}

extension ManyPublishedModel {
  /// Whether the first property's storage (the one the default `objectWillChange`'s fast path
  /// reads) already holds the object's publisher.
  var firstStorageHasThePublisher: Bool { _p0.box.objectWillChange != nil }
}

final class ClampedLevel: ObservableObject, @unchecked Sendable {
  @Published var level = -3
}

@Suite struct LegacyReviewRound2Tests {
  /// The default `objectWillChange` installs the object's publisher into each `@Published`
  /// storage in field order, and its lock-free fast path returns the publisher as soon as the
  /// *first* storage holds it. A thread that asks while another is still installing gets the
  /// publisher, subscribes, and then changes a later property whose storage does not hold it
  /// yet: its subscriber is never told (Combine's contract: every `@Published` change sends).
  @Test func aSubscriberOfAPublisherReturnedDuringItsInstallationHearsEveryLaterChange() {
    var lost = 0
    for _ in 0..<300 {
      let model = ManyPublishedModel()
      let installed = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        _ = model.objectWillChange
        installed.signal()
      }
      // Wait for the other thread's first request to be visible through the fast path.
      while !model.firstStorageHasThePublisher {}
      let heard = Box(0)
      let token = model.objectWillChange.sink { heard.value += 1 }
      model.p63 = 1
      if heard.value != 1 { lost += 1 }
      installed.wait()
      withExtendedLifetime(token) {}
    }
    #expect(lost == 0, "\(lost) of 300 subscribers missed a change made after they subscribed")
  }

  /// `$name.sink` delivers the current value before it subscribes: a value set while that
  /// first delivery runs (here by the subscriber itself, clamping the value) reaches nobody,
  /// so the subscriber's last value (-3) is not the property's (0) and stays so until the
  /// next change. Combine subscribes first and delivers the current value through the
  /// subscription, so the nested value is delivered too (OpenCombine `PublishedSubject`:
  /// the conduit is inserted before `request`, its downstream lock is recursive).
  @Test func aValueSetDuringTheFirstDeliveryOfASinkIsDeliveredToIt() {
    let model = ClampedLevel()
    let received = Box<[Int]>([])
    let token = model.$level.sink { level in
      received.value.append(level)
      if level < 0 { model.level = 0 }
    }
    #expect(model.level == 0)
    #expect(received.value == [-3, 0])
    #expect(received.value.last == model.level)
    withExtendedLifetime(token) {}
  }

  /// The same loss without re-entrancy: another thread sets the property while the first
  /// delivery runs (the hand-over is synchronised, so there is no data race on the value).
  @Test func aValueSetByAnotherThreadDuringTheFirstDeliveryIsDelivered() {
    let model = ClampedLevel()
    let received = LockedBox<[Int]>([])
    let token = model.$level.sink { level in
      received.value.append(level)
      if level == -3 { onAnotherThread { model.level = 7 } }
    }
    #expect(model.level == 7)
    #expect(received.value == [-3, 7])
    withExtendedLifetime(token) {}
  }
}
