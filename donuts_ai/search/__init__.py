"""The game-agnostic tree searches, one folder each with its kernels; a new search goes
here, as a folder of kernels that take the game as a record of compiled functions and
import no game:

- :mod:`.mcts` — Monte-Carlo tree search (UCT, MCTS-Solver), played by Donuts'
  ``MCTSAgent`` (:mod:`donuts_ai.donuts.agents.mcts`);
- :mod:`.ismcts` — single-observer information-set MCTS, played by Donut Boxes'
  ``ISMCTSAgent``;
- :mod:`.puct` — AlphaZero's PUCT over many games at once, driven by the learned agent
  (``donuts_ai.learn.batched_search``).

The compiled-game interface, :mod:`.compiled_game` (:class:`~.compiled_game.CompiledGame`:
a two-player game's ``legal``, ``play`` and ``key`` kernels and its optional hooks), and the
search that takes any such game:

- :mod:`.solver` — an exact solver: negamax, alpha-beta, null-window searches for the
  exact score (which counts the distance to the end), a transposition table of lower and
  upper bounds, move ordering from the game's hooks; Connect Four binds it
  (:mod:`donuts_ai.connect_four.solve`).

Beside them, two searches in plain Python over the state API (``push``, ``pop``,
``legal_moves()``, ``outcome()``) and the game's hooks, for any game of the table, played
by the generic agents (:mod:`donuts_ai.agents.generic`):

- :mod:`.uct` — UCT with random playouts, a value per player, MCTS-Solver's proven wins
  and losses in two-player games;
- :mod:`.negamax` — negamax with alpha-beta, iterative deepening and a transposition
  table, exact where it reaches the end of every line.

A search that knows one game's rules lives with that game: Donuts' alpha-beta and exact
solver are :mod:`donuts_ai.donuts.alphabeta`, and what Donuts' searching agents share
(the tactical pass, warm-up, touching tables) is :mod:`donuts_ai.donuts.agents.search_base`.

**The tree searches' node records** (:class:`~.mcts.MCTSTree`,
:class:`~.ismcts.ISMCTSTree`, :class:`~.puct.PUCTTree`) follow one layout, mctx's: a tree
is a ``NamedTuple`` of NumPy arrays, a structure of arrays, one field per node property,
each field declared with its dtype and shape in a comment (``visits: int32[trees,
nodes]``, ``children: int32[games, nodes, actions]``); a batch of trees (root-parallel
workers, a batch of games) is the leading dimension; no Python object exists per node,
and the node properties are plain arrays (PUCT's ``states`` alone holds each node's game
state in the game's own structured dtype). One name for one thing:

- ``visits`` — the iterations (simulations) through a node;
- ``value_sum`` — the results backed up through it, summed (a mean is ``value_sum /
  visits``): for the node's ``mover`` in MCTS, every player's (``[nodes, players]``) in
  ISMCTS, player 0's in PUCT;
- ``node_count`` — the nodes in use (the next node made is at that index);
- ``mover`` — the player who made the move into the node (MCTS, ISMCTS: the player a
  child's reward is read for when its parent chooses); ``to_move`` — the player to move
  at it (PUCT: a node's values are read with its sign). No field means the other;
- ``move`` — the move into the node (MCTS, ISMCTS); ``first_child``, ``child_count``
  (MCTS's children lie contiguous from ``first_child``, ISMCTS's are a list linked through
  ``sibling``; PUCT has ``children[games, nodes, actions]`` instead);
- ``path`` — the nodes of a descent, root first, as long as the game's longest path from
  a root, which the game's binding gives to ``new_tree`` (MCTS, PUCT; ISMCTS sizes its
  path by the nodes it may make). No game constant is written here.

**The game is passed in**: each tree search takes the game as a record of its compiled
functions and imports no game engine (Numba compiles the search once for each game). The
MCTS and the exact solver take one record, the compiled-game interface
(:class:`~.compiled_game.CompiledGame`: ``legal``, ``play`` with a move's status, ``key``
and optional hooks, ``playout`` among them); the information-set search and PUCT take
records of their own (:class:`~.ismcts.ISMCTSGame`, :class:`~.puct.PUCTGame`: ``step``
plays a move in both), for what the interface does not say (deals and hidden cards; a
network's batches). A move is a bit of a ``uint64`` legal mask in MCTS, the solver and
PUCT, the game's integer code in ISMCTS; a two-player game's winner is kept as a winner
code of :mod:`donuts_ai.outcomes`. The game's side binds the search to its functions in a
kernel of its own, in its folder, which is what Numba caches (Donuts:
:mod:`donuts_ai.donuts.compiled`, ``donuts_ai.donuts.agents._mcts_bound`` and ``puct_game``
(bound by ``donuts_ai.learn.batched_search``); Connect Four:
``donuts_ai.connect_four._mcts`` and :mod:`donuts_ai.connect_four.solve`; Donut Boxes:
``donuts_ai.boxes._bound``).

Shared between them (:mod:`._selection`): UCB1's score (``ucb1``, inlined into MCTS and
ISMCTS) and the masked softmax over a node's legal actions (``masked_softmax_terms``:
PUCT's priors and Gumbel's improved policy); not shared: the rest of selection (MCTS skips
proven children, ISMCTS counts availability among the moves legal in a world, PUCT weighs
priors) and the backups (a reward for the mover with MCTS-Solver proofs, a reward vector
for every player, a value for player 0), whose arithmetic differs. The figures:
``benchmarks/RESULTS.md``.

Dependencies point one way: the searches here import only the shared Numba helpers
(``donuts_ai._bits``, ``donuts_ai._numba_types``) and the winner codes
(``donuts_ai.outcomes``); each game's folder imports them, never the other way round.
"""
