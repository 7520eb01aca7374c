"""Synthetic fleets and the scale benchmark of issue 6 (`python -m benchmarks.run --help`)."""
