"""The node indices the tree searches share (private, frozen into each search's kernels).

Every tree keeps its nodes in arrays and its root at :data:`ROOT`; :data:`NONE` is the
index of no node (a root's parent, the end of a child list, an action not tried yet) and
the code of no move (the move into a root)."""

from __future__ import annotations

#: No node; no move.
NONE = -1
#: The root's index in every tree.
ROOT = 0
