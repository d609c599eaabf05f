"""Command-line tools beside the server: benchmarks and the computer players' arena."""
