/// Where an observation was started (the `#fileID` and `#line` of the `observe` or
/// `withContinuousObservation` call), so a diagnostic about the observer names it: two
/// observers both called `observe { … }` are told apart by where they were written.
struct ObserverSite {
  let fileID: StaticString
  let line: UInt

  /// For observers that the library starts itself (a view's body, an iteration).
  static let unknown = ObserverSite(fileID: "", line: 0)
}

extension ContinuousObserver {
  /// The observer's label, followed by its site when known:
  /// `observe { … } at Module/File.swift:12`.
  var name: String {
    site.line == 0 ? label : "\(label) at \(site.fileID):\(site.line)"
  }
}
