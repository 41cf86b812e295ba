"""The Donuts Engine Protocol: engines in any language, and our agents as engines.

An engine is a program that speaks text lines over its stdin and stdout, the way chess
engines speak UCI: ``dep`` (answered with ``id``/``option`` lines and ``depok``),
``setoption``, ``isready``/``readyok``, ``newgame``, ``position layout L [donuts n]
[insertion group|single] [moves ...]``, ``go [ctime ms] [vtime ms] [movetime ms] [depth d]
[nodes n]`` (answered with ``info`` lines and ``bestmove SQUARE``), ``stop`` and ``quit``.
The whole protocol, with its ``info`` vocabulary and our agents' options, is
docs/engine_protocol.md.

- :mod:`.position`: the ``position`` command, written and read; the ``go`` command's
  grammar is the harness's (:mod:`donuts_ai.tournament.engine_text`), which both sides import.
- :mod:`.server`: ``donuts-ai engine SPEC``, any of our agents as such an engine.

The tournament harness seats an engine as ``engine:COMMAND``
(:mod:`donuts_ai.tournament.engine_seat`), supervised like every seat.
"""

from ..donuts.squares import PASS
from ..tournament.engine_text import EngineProtocolError, GoLimits, parse_go
from .position import board_command, parse_position, position_command

__all__ = ["PASS", "EngineProtocolError", "GoLimits", "board_command", "parse_go", "parse_position", "position_command"]
