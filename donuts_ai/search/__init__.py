"""The players' algorithms, one folder each with its kernels, its Python driver and its
agent, over the rule kernels of :mod:`donuts_ai._engine`:

- :mod:`.alphabeta` — negamax alpha-beta: the exact solver (``solve``, ``analyze``,
  ``Solver``) and the ``AlphaBetaAgent`` / ``SolverAgent``;
- :mod:`.mcts` — Monte-Carlo tree search: the ``MCTSAgent``;
- :mod:`.base` — what searching agents share (the tactical pass of :mod:`._tactics`,
  warm-up, touching tables).

Dependencies point one way: ``_engine`` <- ``search``; the agents here derive from the one
agent base of :mod:`donuts_ai.agents` (``agents.base``, ``agents.board_agent``), whose
registry names them by dotted path and imports them only when asked.
"""
