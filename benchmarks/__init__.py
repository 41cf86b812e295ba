"""Benchmarks of donuts_ai (run ``python -m benchmarks``). Benchmarks are not tests."""
