/// A type whose properties report reads and writes to an ``ObservationRegistrar``.
///
/// Like the toolchain's `Observation.Observable`, this is a marker with no requirements: it is
/// the constraint of the registrar's `Subject` parameters. Conform by hand
/// (`final class Model: Observable { … }`) and write accessors that call the registrar.
public protocol Observable {}
