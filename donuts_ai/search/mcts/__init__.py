"""Monte-Carlo tree search for any two-player game that passes in its compiled functions:
the kernels of :mod:`._tree` (UCT with random playouts and MCTS-Solver, in preallocated
arrays). Donuts binds them to its engine and plays them with its ``MCTSAgent``
(:mod:`donuts_ai.donuts.agents.mcts`)."""
