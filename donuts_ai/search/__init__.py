"""The players' algorithms, one folder each with its kernels, its Python driver and its
agent, over the rule kernels of :mod:`donuts_ai._engine`:

- :mod:`.alphabeta` — negamax alpha-beta: the exact solver (``solve``, ``analyze``,
  ``Solver``) and the ``AlphaBetaAgent`` / ``SolverAgent``;
- :mod:`.mcts` — Monte-Carlo tree search: the ``MCTSAgent``;
- :mod:`.base` — the agent protocol and what searching agents share (time budget,
  the tactical pass of :mod:`._tactics`, warm-up).

Dependencies point one way: ``_engine`` <- ``search`` <- ``agents`` (the registry).
"""
