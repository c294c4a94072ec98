func runCoreBenchmarks(_ harness: BenchmarkHarness) {}
