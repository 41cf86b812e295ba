"""The game-agnostic searches. A new search goes here, as a folder of kernels that take the
game as a record of compiled functions and import no game:

- :mod:`.mcts` — Monte-Carlo tree search (UCT, MCTS-Solver), played by Donuts' ``MCTSAgent``;
- :mod:`.ismcts` — single-observer information-set MCTS, Donut Boxes' ``ISMCTSAgent``;
- :mod:`.puct` — AlphaZero's PUCT over many games at once, driven by the learned agent;
- :mod:`.solver` — an exact solver (negamax, alpha-beta, null windows, a transposition
  table) over the compiled-game interface, :mod:`.compiled_game`;
- :mod:`.uct` and :mod:`.negamax` — UCT and alpha-beta in plain Python over the state API
  and the game's hooks, for any game of the table (:mod:`donuts_ai.agents.generic`).

A search that knows one game's rules lives with that game (Donuts' is
:mod:`donuts_ai.donuts.alphabeta`). The tree searches share one node-record layout (a
``NamedTuple`` of arrays: ``visits``, ``value_sum``, ``node_count``, ``mover`` or
``to_move``, ``path``), and each game binds a search to its functions in a cached kernel
in its own folder: the architecture page, "Tree searches", says which field is which.
Dependencies point one way: the searches import only ``donuts_ai._bits``,
``donuts_ai._numba_types`` and ``donuts_ai.outcomes``.
"""
