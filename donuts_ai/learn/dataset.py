"""Self-play data as a dataset researchers can reuse: every searched position of a
training run, its search's visits, its game's result and the exact solver's label where
the run had one (``donuts-ai train --dataset DIR``, :attr:`~.config.TrainConfig.dataset`).

A dataset (format version :data:`FORMAT_VERSION`) is a folder: ``meta.json`` (the
format, the rules, the teacher and the search's settings, and ``fields``: what each array
holds, in words) and ``shard-NNNNNNNNNNNN.npz`` files, numbered by the index of their
first position (so they sort in order), each a compressed NumPy archive of plain arrays,
one row per position, readable by ``numpy.load`` alone (no pickles): ``game``, ``ply``,
``layout``, ``chocolate``, ``vanilla``, ``turn``, ``last``, ``placed``, ``visits``,
``policy``, ``result``, ``label``, ``keep``, ``nodes``, ``explored`` (:data:`FIELDS`;
the table of their types and meanings is in ``docs/howto/learn.md``).

A shard is written at each checkpoint of the run (and a resumed run rewrites from its
checkpoint on, so the dataset of a killed and resumed run is the dataset of one never
stopped). :func:`read_dataset` reads it back as typed records (:class:`DatasetRecord`), or
``.arrays`` for bulk use."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from ..donuts.board import Board
from ..donuts.layout import Layout
from ..donuts.rules import Rules
from ..donuts.squares import COLOR_LETTERS, NUM_SQUARES, SIZE, SQUARE_NAMES, square
from ..outcomes import UNKNOWN
from .buffer import LABELLED, POLICY_KNOWN, VALUE_KNOWN
from .errors import LearnError

FORMAT, FORMAT_VERSION = "donuts-ai-selfplay", 1
META_FILE = "meta.json"
SHARD_PREFIX, SHARD_SUFFIX = "shard-", ".npz"

#: The arrays of a shard and what each holds (written into ``meta.json`` too).
FIELDS: dict[str, str] = {
    "game": "int64: the game's number in the run (in order of their ends)",
    "ply": "int16: the position's ply in its game (0 = empty board)",
    "layout": "int8[36]: the printed line on each square (0..3, a1 = 0)",
    "chocolate": "uint64: Chocolate's donuts, bit i = square i",
    "vanilla": "uint64: Vanilla's donuts",
    "turn": "int8: the side to move, 0 Chocolate, 1 Vanilla",
    "last": "int8: the square filled last, -1 none",
    "placed": "int8[2]: donuts each colour has placed",
    "visits": "uint16[36]: the self-play search's visits of each root child",
    "policy": "float32[36]: the search's policy target (the visits normalised)",
    "result": "int8: the game's result for the side to move, +1 / 0 / -1",
    "label": "int8: the solver's exact value for the side to move, -128 unknown",
    "keep": "uint64: the squares keeping that value when every move was settled, else 0",
    "nodes": "int64: solver nodes the label took, -1 not asked",
    "explored": "bool: the position's game explored (every move drawn from its search's target)",
}
_DTYPES: dict[str, tuple[type[np.generic], tuple[int, ...]]] = {
    "game": (np.int64, ()), "ply": (np.int16, ()), "layout": (np.int8, (NUM_SQUARES,)), "chocolate": (np.uint64, ()),
    "vanilla": (np.uint64, ()), "turn": (np.int8, ()), "last": (np.int8, ()), "placed": (np.int8, (2,)),
    "visits": (np.uint16, (NUM_SQUARES,)), "policy": (np.float32, (NUM_SQUARES,)), "result": (np.int8, ()),
    "label": (np.int8, ()), "keep": (np.uint64, ()), "nodes": (np.int64, ()), "explored": (np.bool_, ()),
}


def board_of(layout: Sequence[int] | npt.NDArray[np.int8], chocolate: int, vanilla: int, turn: int, last: int, *,
             placed: tuple[int, int], rules: Rules) -> Board:
    """The :class:`~donuts_ai.Board` of a position given by its parts (as a dataset row
    holds them), with no move history. Raises :class:`~donuts_ai.donuts.errors.PositionError`
    for parts that are no position."""
    layout_text = ",".join(Layout([int(d) for d in layout]).to_text().splitlines())
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for f in range(SIZE):
            sq = square(f, rank)
            cells.append("c" if chocolate >> sq & 1 else "v" if vanilla >> sq & 1 else ".")
        rows.append("".join(cells))
    last_text = "-" if last < 0 else SQUARE_NAMES[last]
    fen = f"{layout_text} {'/'.join(rows)} {COLOR_LETTERS[turn]} {last_text} {placed[0]} {placed[1]}"
    return Board.from_fen(fen, rules)


def squares_in(mask: int) -> tuple[str, ...]:
    """The names of the squares of a bitboard, in square order."""
    return tuple(SQUARE_NAMES[sq] for sq in range(NUM_SQUARES) if mask >> sq & 1)


@dataclass(frozen=True)
class DatasetRecord:
    """One position of a dataset (see the module for the fields' meanings)."""

    game: int
    ply: int
    layout: tuple[int, ...]
    chocolate: int
    vanilla: int
    turn: int
    last: int  # -1: none
    placed: tuple[int, int]
    visits: npt.NDArray[np.uint16]
    policy: npt.NDArray[np.float32]
    result: int
    value: int | None  # the exact value for the side to move, None when not known
    keep: tuple[str, ...] | None  # the squares keeping it, None unless every legal move was settled
    nodes: int | None  # solver nodes its label took, None when no label was asked
    explored: bool  # its game explored (every move drawn from the search's target)
    rules: Rules

    def board(self) -> Board:
        """The position as a :class:`~donuts_ai.Board` (no move history)."""
        return board_of(self.layout, self.chocolate, self.vanilla, self.turn, self.last, placed=self.placed, rules=self.rules)


class Dataset(Sequence[DatasetRecord]):
    """A dataset read by :func:`read_dataset`: a sequence of :class:`DatasetRecord` (made on
    access), ``arrays`` (every shard's arrays joined, the module's fields), ``meta`` (its
    ``meta.json``) and ``rules``."""

    def __init__(self, arrays: dict[str, np.ndarray], meta: dict[str, Any]):
        self.arrays, self.meta = arrays, meta
        self.rules = Rules(**meta["rules"])

    def __len__(self) -> int:
        return len(self.arrays["game"])

    @overload
    def __getitem__(self, index: int) -> DatasetRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[DatasetRecord]: ...

    def __getitem__(self, index: int | slice) -> DatasetRecord | list[DatasetRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        a = self.arrays
        i = range(len(self))[index]  # IndexError when out of range, negative indices counted from the end
        label, keep, nodes = int(a["label"][i]), int(a["keep"][i]), int(a["nodes"][i])
        return DatasetRecord(game=int(a["game"][i]), ply=int(a["ply"][i]), layout=tuple(int(d) for d in a["layout"][i]),
                      chocolate=int(a["chocolate"][i]), vanilla=int(a["vanilla"][i]), turn=int(a["turn"][i]),
                      last=int(a["last"][i]), placed=(int(a["placed"][i, 0]), int(a["placed"][i, 1])),
                      visits=a["visits"][i].copy(), policy=a["policy"][i].copy(), result=int(a["result"][i]),
                      value=None if label == UNKNOWN else label, keep=squares_in(keep) if keep else None,
                      nodes=None if nodes < 0 else nodes, explored=bool(a["explored"][i]), rules=self.rules)

    def __iter__(self) -> Iterator[DatasetRecord]:
        return (self[i] for i in range(len(self)))


def rows_of(samples: np.ndarray, visits: npt.NDArray[np.uint16], games: npt.NDArray[np.int64],
            plies: npt.NDArray[np.int64], explored: bool = False) -> dict[str, np.ndarray]:
    """A dataset's arrays of ``samples`` (:data:`~.buffer.SAMPLE` records, valued), their
    ``visits``, their games' numbers and plies, and whether their game ``explored``."""
    color = samples["color"]
    mover_is_chocolate = color == 0
    flags = samples["label_flags"]
    labelled = (flags & LABELLED) != 0
    return {
        "game": games.astype(np.int64),
        "ply": plies.astype(np.int16),
        "layout": samples["directions"].astype(np.int8),
        "chocolate": np.where(mover_is_chocolate, samples["own"], samples["opp"]).astype(np.uint64),
        "vanilla": np.where(mover_is_chocolate, samples["opp"], samples["own"]).astype(np.uint64),
        "turn": color.astype(np.int8),
        "last": samples["last"].astype(np.int8),
        "placed": np.stack([np.where(mover_is_chocolate, samples["placed_own"], samples["placed_opp"]),
                            np.where(mover_is_chocolate, samples["placed_opp"], samples["placed_own"])], axis=1).astype(np.int8),
        "visits": visits.astype(np.uint16),
        "policy": samples["policy"].astype(np.float32),
        "result": np.rint(samples["value"]).astype(np.int8),
        "label": np.where((flags & VALUE_KNOWN) != 0, samples["label_value"], UNKNOWN).astype(np.int8),
        "keep": np.where((flags & POLICY_KNOWN) != 0, samples["label_keep"], np.uint64(0)).astype(np.uint64),
        "nodes": np.where(labelled, samples["label_nodes"], -1).astype(np.int64),
        "explored": np.full(len(samples), explored, dtype=np.bool_),
    }


def _shard_start(path: Path) -> int | None:
    name = path.name
    if not (name.startswith(SHARD_PREFIX) and name.endswith(SHARD_SUFFIX)):
        return None
    digits = name[len(SHARD_PREFIX):-len(SHARD_SUFFIX)]
    return int(digits) if digits.isascii() and digits.isdigit() else None


def shard_name(start: int) -> str:
    return f"{SHARD_PREFIX}{start:012d}{SHARD_SUFFIX}"


class DatasetWriter:
    """Writes a run's positions into the dataset folder ``path``: :meth:`add` keeps them,
    :meth:`flush` writes what it keeps as one shard. A new dataset (``written`` None)
    needs a folder without one; a resumed run's writer is given the positions ``written``
    at its checkpoint, and deletes the shards from there on, which the run is about to
    write again (the same ones)."""

    def __init__(self, path: str | Path, meta: dict[str, Any], written: int | None = None):
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise LearnError(f"dataset {str(self.path)!r} is a file, not a folder")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LearnError(f"cannot make the dataset folder {str(self.path)!r}: {exc.strerror}") from None
        if written is None and any(_shard_start(p) is not None for p in self.path.iterdir()):
            raise LearnError(f"dataset folder {str(self.path)!r} holds a dataset already: choose another")
        full = {"format": FORMAT, "version": FORMAT_VERSION, **meta, "fields": FIELDS}
        (self.path / META_FILE).write_text(json.dumps(full, indent=1) + "\n")
        self.written = 0 if written is None else written
        for shard in self.path.iterdir():
            start = _shard_start(shard)
            if start is not None and start >= self.written:
                shard.unlink()
        self._rows: list[dict[str, np.ndarray]] = []

    def add(self, rows: dict[str, np.ndarray]) -> None:
        """Keep ``rows`` (:func:`rows_of`) for the next shard."""
        self._rows.append(rows)

    def flush(self) -> None:
        """Write the positions kept since the last flush as one shard (none when there are none)."""
        if not self._rows:
            return
        arrays = {name: np.concatenate([rows[name] for rows in self._rows]) for name in FIELDS}
        final = self.path / shard_name(self.written)
        partial = final.with_name(final.name + ".part")
        with open(partial, "wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]  # numpy's stubs: keyword arrays
        os.replace(partial, final)
        self.written += len(arrays["game"])
        self._rows = []


def read_dataset(path: str | Path) -> Dataset:
    """The dataset in folder ``path`` (written by a training run with ``--dataset``): its
    positions as :class:`DatasetRecord` s, in the order written. Raises
    :class:`~donuts_ai.learn.errors.LearnError` naming what is wrong with the folder."""
    path = Path(path)
    meta_path = path / META_FILE
    if not meta_path.is_file():
        raise LearnError(f"no dataset in {str(path)!r} (it needs {META_FILE})")
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
            raise LearnError(f"{meta_path}: not a {FORMAT} dataset of version {FORMAT_VERSION}")
        Rules(**meta["rules"])
    except (ValueError, TypeError, KeyError) as exc:
        raise LearnError(f"{meta_path}: {exc}") from None
    shards = sorted((start, p) for p in path.iterdir() if (start := _shard_start(p)) is not None)
    parts: dict[str, list[np.ndarray]] = {name: [] for name in FIELDS}
    expected = 0
    for start, shard in shards:
        if start != expected:
            raise LearnError(f"{shard}: starts at position {start}, but the shards before it end at {expected}")
        try:
            with np.load(shard, allow_pickle=False) as data:
                arrays = {name: data[name] for name in FIELDS}
        except (OSError, ValueError, KeyError) as exc:
            raise LearnError(f"{shard}: cannot read it ({exc})") from None
        for name, array in arrays.items():
            parts[name].append(array)
        expected += len(arrays["game"])
    joined = {}
    for name, (dtype, shape) in _DTYPES.items():
        joined[name] = np.concatenate(parts[name]) if parts[name] else np.zeros((0, *shape), dtype=dtype)
    return Dataset(joined, meta)
