"""The private parts of :class:`~donuts_ai.boxes.state.BoxesState`: :mod:`.engine` (the
compiled engine's Python side: one game's arrays, moves in and dicts out), :mod:`.undo`
(the moves pushed and copies of the arrays to replay them from) and :mod:`.checks` (a
state or observation dict checked before the engine reads it back)."""
