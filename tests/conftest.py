import os

import pytest
from hypothesis import HealthCheck, settings

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
