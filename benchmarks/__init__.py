"""The stand-alone benchmark scripts, run from the checkout as ``python -m benchmarks.<name>``
(``donuts-ai bench`` lives in :mod:`donuts_ai.bench`). Benchmarks are not tests."""
