"""What every agent of every game says about itself: its constructor parameters, a spec
string that rebuilds it, and a repr that is valid Python."""

from __future__ import annotations


class Described:
    """Mixin for agents with a registry ``kind`` and a ``seed``: subclasses add their own
    constructor parameters by extending :meth:`params`."""

    kind = "agent"
    seed: int | None = None

    def params(self) -> dict:
        """Constructor parameters (for :attr:`spec` and results files)."""
        return {} if self.seed is None else {"seed": self.seed}

    @property
    def spec(self) -> str:
        """``kind:key=value,...``: enough to rebuild the agent."""
        params = ",".join(f"{k}={v}" for k, v in self.params().items())
        return f"{self.kind}:{params}" if params else self.kind

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params().items())
        return f"{type(self).__name__}({args})"
