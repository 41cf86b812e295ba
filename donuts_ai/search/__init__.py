"""The game-agnostic tree searches, one folder each with its kernels; a new search goes
here, as a folder of kernels that take the game as a record of compiled functions and
import no game:

- :mod:`.mcts` — Monte-Carlo tree search (UCT, MCTS-Solver), played by Donuts'
  ``MCTSAgent`` (:mod:`donuts_ai.donuts.agents.mcts`);
- :mod:`.ismcts` — single-observer information-set MCTS, played by Donut Boxes'
  ``ISMCTSAgent``;
- :mod:`.puct` — AlphaZero's PUCT over many games at once, driven by the learned agent
  (``donuts_ai.learn.batched_search``).

A search that knows one game's rules lives with that game: Donuts' alpha-beta and exact
solver are :mod:`donuts_ai.donuts.alphabeta`, and what Donuts' searching agents share
(the tactical pass, warm-up, touching tables) is :mod:`donuts_ai.donuts.agents.search_base`.

**The tree searches' node records** (``mcts``, ``ismcts``, ``puct``) follow one
layout, mctx's: a tree is a ``NamedTuple`` of NumPy arrays, a structure of arrays, one
field per node property, each field declared with its dtype and shape in a comment
(``visits: int32[trees, nodes]``, ``children: int32[games, nodes, actions]``); a batch of
trees (root-parallel workers, a batch of games) is the leading dimension; no Python
object exists per node, and the node properties are plain arrays (PUCT's ``states``
alone holds each node's game state in the game's own structured dtype). Their field
names agree only in part: ``visits`` is in all three, ``first_child``, ``child_count`` and
``move`` in MCTS and ISMCTS (MCTS's children lie contiguous from ``first_child``,
ISMCTS's are a list linked through ``sibling``; PUCT has ``children[games, nodes,
actions]`` instead); the nodes in use are ``next_free`` in MCTS and ``node_count`` in
ISMCTS and PUCT; the summed rewards are ``reward`` (for the node's mover) in MCTS,
``values`` (every player's) in ISMCTS and ``value`` (player 0's) in PUCT; and a node's
player is ``mover`` (who moved into it) in MCTS and ISMCTS but ``player`` (who is to
move at it) in PUCT.

**The game is passed in**: each tree search takes the game as a ``Game`` record of its
compiled functions (step, legal moves, playout or evaluation; Numba compiles the search
once for each game) and imports no game engine; the game's side binds the search to its
functions in a kernel of its own, which is what Numba caches (Donuts:
``donuts_ai.donuts.agents._mcts_bound``; Donut Boxes: ``donuts_ai.boxes._bound``; the
learned agent: ``donuts_ai.learn.batched_search``). Shared between them: UCB1's score (``_selection.ucb1``,
inlined into MCTS and ISMCTS); not shared: the rest of selection (MCTS skips proven
children, ISMCTS counts availability among the moves legal in a world, PUCT weighs priors)
and the backups (a reward for the mover with MCTS-Solver proofs, a reward vector for
every player, a value for player 0), whose arithmetic differs. The figures:
``benchmarks/RESULTS.md``.

Dependencies point one way: the searches here import only the shared Numba helpers
(``donuts_ai._bits``, ``donuts_ai._numba_types``); each game's folder imports them, never
the other way round.
"""
