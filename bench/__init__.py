"""Benchmarks (run as modules: python -m bench.engine). See bench/README.md."""
