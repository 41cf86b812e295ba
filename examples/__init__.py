"""Examples that run from the repository root: agents written against the public compiled API
(:mod:`donuts_ai.donuts.kernels`), playable in tournaments as ``examples.compiled_negamax:Agent`` and
``examples.compiled_mcts:Agent``; ``engines/`` holds an engine in C."""
