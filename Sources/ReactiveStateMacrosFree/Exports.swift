@_exported import ReactiveState
