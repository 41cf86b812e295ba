"""VectorEnv: many games stepped at once follow the Board move by move (every rules
variant, every layout source), reset themselves in the same step, are reproducible
from a seed, and refuse bad input without changing any game."""

from __future__ import annotations

import numpy as np
import pytest

from donuts_ai import Board, IllegalMoveError, InvalidMoveError, Layout, LayoutError, Rules, RulesError, VectorEnv, random_playouts
from donuts_ai.donuts.layout import NUM_TILES, QUADRANTS
from donuts_ai.donuts.squares import NUM_SQUARES, SIZE
from donuts_ai.donuts.vector_env import END_REASONS, VectorEnvError
from donuts_ai.interop import NUM_PLANES, write_planes

RULES = [Rules(), Rules(insertion="single"), Rules(donuts=20), Rules(donuts=4)]
RULE_IDS = ["standard", "single", "20-donuts", "4-donuts"]


def planes_last(board: Board, player: int) -> np.ndarray:
    """The PettingZoo environment's observation (channels last) of ``board`` seen by ``player``."""
    return write_planes(board, player, np.empty((NUM_PLANES, SIZE, SIZE), dtype=np.float32)).transpose(1, 2, 0)


def mask_of(board: Board) -> np.ndarray:
    return np.array([bool(board.legal_mask() >> sq & 1) for sq in range(NUM_SQUARES)])


def snapshot(env: VectorEnv) -> dict:
    return {"games": env._games.copy(), "finals": env._finals.copy(), "observation": env.observation.copy(),
            "mask": env.legal_action_mask.copy(), "player": env.current_player.copy(), "rewards": env.rewards.copy(),
            "terminated": env.terminated.copy()}


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
@pytest.mark.parametrize("layout", ["standard", "random", "grid", "random:7:3"])
def test_follows_the_board_move_by_move(rules, layout):
    num_envs = 5
    env = VectorEnv(num_envs, layout=layout, rules=rules, seed=11)
    rng = np.random.default_rng(3)
    boards = [Board(env.layout(g), rules) for g in range(num_envs)]
    finished = 0
    for _ in range(120):
        for g, board in enumerate(boards):
            assert env.current_player[g] == board.turn
            assert np.array_equal(env.legal_action_mask[g], mask_of(board))
            assert np.array_equal(env.observation[g], planes_last(board, board.turn))
            assert env.fen(g) == board.fen()
            assert env.plies[g] == board.ply
        actions = np.array([rng.choice(np.flatnonzero(env.legal_action_mask[g])) for g in range(num_envs)])
        env.step(actions)
        for g, board in enumerate(boards):
            mover = board.turn
            board.push(int(actions[g]))
            outcome = board.outcome()
            if outcome is None:
                assert not env.terminated[g]
                assert env.rewards[g].tolist() == [0.0, 0.0]
                assert env.final_reason[g] == -1 and env.final_plies[g] == 0
                assert not env.final_observation[g].any()
                continue
            finished += 1
            assert env.terminated[g]
            expected = [0.0, 0.0] if outcome.winner is None else [1.0 - 2 * outcome.winner, 2 * outcome.winner - 1.0]
            assert env.rewards[g].tolist() == expected
            assert END_REASONS[int(env.final_reason[g])] == str(outcome.reason)
            assert env.final_plies[g] == board.ply
            assert np.array_equal(env.final_observation[g], planes_last(board, mover))
            boards[g] = Board(env.layout(g), rules)
            if layout == "standard":
                assert env.layout(g) == Layout.standard()
            elif layout == "random:7:3":
                assert env.layout(g) in env.layout_pool
    assert finished >= num_envs  # every game ended at least once, most several times
    assert not env.truncated.any()


def test_the_planes_are_the_pettingzoo_environments():
    env = VectorEnv(1, seed=1)
    env.step(np.array([14]))  # c3
    second = int(np.flatnonzero(env.legal_action_mask[0])[0])
    env.step(np.array([second]))
    board = Board.from_fen(env.fen(0))
    obs = env.observation[0]
    assert obs.shape == (SIZE, SIZE, NUM_PLANES)
    assert np.array_equal(obs, planes_last(board, board.turn))
    assert obs[2, 2, 0] == 1.0  # c3 (rank 3 = row 2, file c = column 2): the mover's own donut
    assert (obs[..., 11] == 1.0).all()  # the observer is to move
    pettingzoo = pytest.importorskip("donuts_ai.interop.pettingzoo")
    e = pettingzoo.raw_env()
    e.reset()
    for square in (14, second):
        e.step(square)
    seen = e.observe(e.agent_selection)
    assert np.array_equal(seen["observation"], env.observation[0])
    assert np.array_equal(seen["action_mask"].astype(bool), env.legal_action_mask[0])


def test_auto_reset_in_the_same_step():
    rules = Rules(donuts=2)
    env = VectorEnv(3, rules=rules, seed=5)
    for ply in range(4):  # four placements empty both pools of two donuts
        assert not env.terminated.any()
        assert (env.current_player == ply % 2).all()
        env.step(env.random_actions())
    assert env.terminated.all()
    assert (env.final_plies == 4).all()
    # Already the next game: the empty board, Chocolate to move, every square legal.
    assert env.legal_action_mask.all() and (env.current_player == 0).all() and (env.plies == 0).all()
    assert not env.observation[..., :2].any()
    assert env.final_observation[..., :2].sum() == 3 * 4  # each final board holds four donuts
    assert (np.abs(env.rewards).sum(axis=1) == np.where(env.rewards[:, 0] == 0, 0, 2)).all()
    env.step(env.random_actions())
    assert not env.terminated.any() and not env.rewards.any() and not env.final_observation.any()


def test_reset_starts_every_game_again():
    env = VectorEnv(4, layout="random", seed=3)
    for _ in range(5):
        env.step(env.random_actions())
    env.reset()
    assert (env.plies == 0).all() and env.legal_action_mask.all() and (env.current_player == 0).all()
    assert not env.rewards.any() and not env.terminated.any()


def _trajectory(env: VectorEnv, steps: int) -> list:
    out = []
    for _ in range(steps):
        actions = env.random_actions()
        env.step(actions)
        out.append((actions, env.observation.copy(), env.rewards.copy(), env.terminated.copy()))
    return out


def _same_trajectories(a: list, b: list) -> bool:
    return all(all(np.array_equal(x, y) for x, y in zip(sa, sb, strict=True)) for sa, sb in zip(a, b, strict=True))


@pytest.mark.parametrize("layout", ["random", "grid", "random:0:5"])
def test_a_seed_gives_the_same_games(layout):
    first = _trajectory(VectorEnv(6, layout=layout, seed=42), 60)
    assert _same_trajectories(first, _trajectory(VectorEnv(6, layout=layout, seed=42), 60))
    assert not _same_trajectories(first, _trajectory(VectorEnv(6, layout=layout, seed=43), 60))
    env = VectorEnv(6, layout=layout, seed=7)
    _trajectory(env, 13)
    env.reset(seed=42)
    assert env.seed == 42
    assert _same_trajectories(first, _trajectory(env, 60))
    env.reset()  # no seed: the streams go on, new games
    assert not _same_trajectories(first, _trajectory(env, 60))
    # Game g depends on the seed and g only, not on how many games there are.
    wide = _trajectory(VectorEnv(9, layout=layout, seed=42), 60)
    assert all(np.array_equal(x[:6], y) for sa, sb in zip(first, wide, strict=True) for y, x in zip(sa, sb, strict=True))


def test_no_seed_draws_one_and_reports_it():
    env = VectorEnv(2, layout="grid")
    again = VectorEnv(2, layout="grid", seed=env.seed)
    assert [env.layout(g) for g in range(2)] == [again.layout(g) for g in range(2)]


def test_drawn_tile_layouts_are_tile_arrangements():
    env = VectorEnv(200, layout="random", seed=9)
    env.reset()
    seen = set()
    for g in range(env.num_envs):
        layout = env.layout(g)
        arrangement = _arrangement_of(layout)
        assert Layout.from_tiles(arrangement) == layout
        seen |= {(q, p) for q, p in enumerate(arrangement)}
    # Every tile in every quadrant, both sides, all four turns come up.
    assert {(q, tile) for q, (tile, _, _) in seen} == {(q, t) for q in range(len(QUADRANTS)) for t in range(NUM_TILES)}
    assert {(side, turns) for _, (_, side, turns) in seen} == {(s, r) for s in range(2) for r in range(4)}


def _arrangement_of(layout: Layout) -> list:
    """A tile arrangement printing ``layout`` (searched quadrant by quadrant)."""
    found = []
    for q in range(len(QUADRANTS)):
        used = {p[0] for p in found}
        for tile in (t for t in range(NUM_TILES) if t not in used):
            for side in range(2):
                for turns in range(4):
                    rest = [t for t in range(NUM_TILES) if t != tile and t not in used]
                    trial = found + [(tile, side, turns)] + [(t, 0, 0) for t in rest]
                    squares = _quadrant(q)
                    if all(Layout.from_tiles(trial).direction(sq) == layout.direction(sq) for sq in squares):
                        found.append((tile, side, turns))
                        break
                else:
                    continue
                break
            else:
                continue
            break
    return found


def _quadrant(q: int) -> list[int]:
    name = QUADRANTS[q]
    file0, rank0 = (0 if "left" in name else 3), (3 if "top" in name else 0)
    return [(rank0 + y) * SIZE + file0 + x for y in range(3) for x in range(3)]


def test_grid_and_pool_draws():
    grid = VectorEnv(300, layout="grid", seed=1)
    directions = np.array([grid.layout(g).directions for g in range(grid.num_envs)])
    counts = np.bincount(directions.ravel(), minlength=4) / directions.size
    assert np.all(np.abs(counts - 0.25) < 0.02)
    pool = [Layout.random(s) for s in range(3)]
    env = VectorEnv(60, layout=pool, seed=1)
    assert {env.layout(g) for g in range(env.num_envs)} == set(pool)
    assert env.layout_kind == "pool" and env.layout_pool == tuple(pool)
    fixed = VectorEnv(2, layout=Layout.standard().to_text(), seed=1)
    assert fixed.layout(1) == Layout.standard() and fixed.layout_kind == "fixed"


def test_random_policy_agrees_with_random_playouts():
    """Random games in the VectorEnv and in the playout kernel: the same distribution."""
    env = VectorEnv(512, seed=2)
    results = np.zeros(3)  # Chocolate wins, Vanilla wins, draws
    plies = []
    while results.sum() < 6000:
        env.step(env.random_actions())
        done = env.terminated
        rewards = env.rewards[done]
        results += [(rewards[:, 0] > 0).sum(), (rewards[:, 1] > 0).sum(), (rewards[:, 0] == 0).sum()]
        plies.extend(env.final_plies[done].tolist())
    stats = random_playouts(Layout.standard(), 100_000, seed=1)
    expected = np.array([stats.chocolate_wins, stats.vanilla_wins, stats.draws]) / stats.n_games
    n = results.sum()
    assert np.all(np.abs(results / n - expected) < 5 * np.sqrt(expected * (1 - expected) / n) + 1e-9)
    assert abs(np.mean(plies) - stats.mean_plies) < 5 * np.std(plies) / np.sqrt(len(plies))


def test_arrays_are_read_only_views():
    env = VectorEnv(2, seed=1)
    for array in (env.observation, env.legal_action_mask, env.current_player, env.rewards, env.terminated,
                  env.final_observation, env.truncated):
        with pytest.raises(ValueError):
            array[0] = 1
    assert env.observation.shape == (2, SIZE, SIZE, NUM_PLANES) and env.observation.dtype == np.float32
    assert env.legal_action_mask.shape == (2, NUM_SQUARES) and env.legal_action_mask.dtype == np.bool_
    assert env.rewards.shape == (2, 2) and env.rewards.dtype == np.float32
    assert env.current_player.shape == (2,) and env.terminated.shape == (2,)


def _with_last(value, dtype=None):
    """Actions legal in games 0 and 1, and ``value`` in game 2."""
    return lambda legal, off_line: np.array(legal[:2] + [value], dtype=dtype)


@pytest.mark.parametrize(
    ("make_actions", "error"),
    [
        (lambda legal, off_line: legal[:2], VectorEnvError),  # one per game: three games
        (lambda legal, off_line: np.array(legal)[:, None], VectorEnvError),
        (lambda legal, off_line: np.array(legal, dtype=float), VectorEnvError),
        (lambda legal, off_line: np.array([True, False, True]), VectorEnvError),
        (lambda legal, off_line: ["a1", "b1", "c1"], VectorEnvError),
        (lambda legal, off_line: None, VectorEnvError),
        (_with_last(36), InvalidMoveError),
        (_with_last(-1), InvalidMoveError),
        (_with_last(2**64 - 1, np.uint64), InvalidMoveError),
        (_with_last(2**63 - 1, np.int64), InvalidMoveError),
        (_with_last(-(2**63), np.int64), InvalidMoveError),
        (_with_last(14, np.int8), IllegalMoveError),  # occupied
        (lambda legal, off_line: legal[:2] + [off_line], IllegalMoveError),
    ],
    ids=["too-few", "2-d", "floats", "bools", "names", "none", "36", "-1", "uint64-max", "int64-max", "int64-min", "occupied",
         "off-line"],
)
def test_bad_actions_raise_and_change_nothing(make_actions, error):
    env, twin = VectorEnv(3, layout="random", seed=4), VectorEnv(3, layout="random", seed=4)
    for e in (env, twin):
        e.step(np.array([14, 14, 14]))
    legal = [int(np.flatnonzero(env.legal_action_mask[g])[0]) for g in range(3)]
    empty = ~env.observation[2].reshape(NUM_SQUARES, NUM_PLANES)[:, :2].any(axis=1)
    off_line = int(np.flatnonzero(empty & ~env.legal_action_mask[2])[0])
    actions = make_actions(legal, off_line)
    before = snapshot(env)
    with pytest.raises(error) as info:
        env.step(actions)
    assert isinstance(info.value, ValueError)
    assert_same(before, snapshot(env))
    if error is not VectorEnvError:
        assert "game 2" in str(info.value)
    # The random streams did not move either: the env goes on exactly as its twin.
    assert _same_trajectories(_trajectory(env, 20), _trajectory(twin, 20))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"num_envs": 0}, VectorEnvError),
        ({"num_envs": True}, VectorEnvError),
        ({"num_envs": 2.0}, VectorEnvError),
        ({"num_envs": 1 << 40}, VectorEnvError),
        ({"num_envs": 2, "layout": 5}, LayoutError),
        ({"num_envs": 2, "layout": []}, LayoutError),
        ({"num_envs": 2, "layout": ["-" * 36]}, LayoutError),
        ({"num_envs": 2, "layout": "no/such/file"}, LayoutError),
        ({"num_envs": 2, "rules": "double"}, RulesError),
        ({"num_envs": 2, "rules": 3}, RulesError),
        ({"num_envs": 2, "seed": "1"}, VectorEnvError),
        ({"num_envs": 2, "seed": 1.0}, VectorEnvError),
    ],
)
def test_bad_arguments(kwargs, error):
    with pytest.raises(error):
        VectorEnv(**kwargs)


def test_bad_reset_seed_and_game_index_change_nothing():
    env = VectorEnv(2, seed=1)
    env.step(env.random_actions())
    before = snapshot(env)
    with pytest.raises(VectorEnvError):
        env.reset(seed="x")
    for game in (2, -1, "0"):
        with pytest.raises(VectorEnvError):
            env.layout(game)
        with pytest.raises(VectorEnvError):
            env.fen(game)
    assert_same(before, snapshot(env))
    assert env.seed == 1


def test_repr_and_exports():
    import donuts_ai

    assert donuts_ai.VectorEnv is VectorEnv and all(hasattr(donuts_ai, name) for name in donuts_ai.__all__)
    assert repr(VectorEnv(2, rules="single", seed=3)).startswith("VectorEnv(2, layout=fixed, rules=Rules(insertion='single'")


def test_the_benchmark_figure_runs():
    """``donuts-ai bench`` measures VectorEnv's steps/s (no speed asserted: benchmarks are not tests)."""
    from donuts_ai.bench.engine import vector_env_speed

    steps, read = vector_env_speed(8, 2, 1)
    assert steps.work_unit == read.work_unit == "step" and len(steps.values) == len(read.values) == 1
    assert steps.values[0] > 0 and read.values[0] > 0 and steps.params["num_envs"] == 8


def reference_planes(board: Board, player: int) -> np.ndarray:
    """``float32[13, 36]``: the planes of ``board`` seen by ``player``, from the Board's
    public API alone (what each plane holds: ``donuts_ai/interop/_planes.py``)."""
    out = np.zeros((NUM_PLANES, NUM_SQUARES), dtype=np.float32)
    live, n = board.turn is not None, board.rules.donuts
    open_pick = live and board.is_open_pick()
    for sq in range(NUM_SQUARES):
        out[0, sq] = board.bitboards[player] >> sq & 1
        out[1, sq] = board.bitboards[1 - player] >> sq & 1
        out[2, sq] = live and not open_pick and board.legal_mask() >> sq & 1
        out[3, sq] = sq == board.last
        out[4 + board.layout.directions[sq], sq] = 1.0
    out[8], out[11], out[12] = float(open_pick), float(board.turn == player), float(player)
    out[9], out[10] = (n - board.placed[player]) / n, (n - board.placed[1 - player]) / n
    return out


@pytest.mark.parametrize("rules", RULES, ids=RULE_IDS)
def test_write_planes_is_the_kernels_view_on_random_positions(rules):
    """The NumPy path (one kernel writes every plane) against a plain reference, from both
    sides, on every position of seeded random games, finished ones included."""
    rng = np.random.default_rng(11)
    for game in range(3):
        board = Board(Layout.random(seed=game), rules)
        while True:
            for player in (0, 1):
                seen = write_planes(board, player, np.empty((NUM_PLANES, SIZE, SIZE), dtype=np.float32))
                assert np.array_equal(seen.reshape(NUM_PLANES, NUM_SQUARES), reference_planes(board, player))
            if board.is_game_over():
                break
            board.push(str(rng.choice(board.legal_moves())))
