import os

import pytest
from hypothesis import HealthCheck, settings

from tests.compile_caches import share_jax_compilations

# Before any test imports JAX: every process of the run shares its compiled programs
# (tests/compile_caches.py says why; tests/README.md what the suite may cost).
share_jax_compilations()

# CI runs the same examples every time (derandomized); locally hypothesis explores.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _no_run_time_agent_kinds_leak():
    """A kind a test (or a guide's example) registers with ``register_agent`` is gone after it."""
    yield
    from donuts_ai.tournament.specs import _RUNTIME_KINDS

    _RUNTIME_KINDS.clear()
