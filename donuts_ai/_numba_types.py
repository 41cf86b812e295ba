"""Type aliases of the kernels' arguments and results, for every game's kernels and the
game-agnostic tree searches (for the type checker only: Numba types a kernel by the
values it is called with, and ignores annotations)."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

#: An ``int64`` scalar: a Python ``int`` from (and, once boxed, back to) the Python layer, an
#: ``np.int64`` inside kernels. Bitboards are ``np.uint64`` (see :mod:`donuts_ai.donuts._kernels`).
Int64: TypeAlias = int | np.int64

#: A truth value: a Python ``bool``, or the ``np.bool`` of a comparison of NumPy scalars.
Bool: TypeAlias = bool | np.bool
