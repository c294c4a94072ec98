import Testing
import ReactiveState
@Test func smoke() { #expect(1 == 1) }
