"""The policy/value network: a small residual convolutional net over the observation planes.

Input: the :data:`~donuts_ai.interop.NUM_PLANES` planes of a position seen by the side to
move, channels last, as :class:`~donuts_ai.VectorEnv` writes them: ``float32[..., 6, 6,
13]``. Output: 36 policy logits (one per square, ``a1`` = 0; the caller masks the illegal
ones) and a value in ``[-1, 1]``, the expected result for the side to move (+1 a win).
The value head (:attr:`NetworkConfig.value_head`) is ``"scalar"`` (one output through
tanh, trained by the squared error; the default, and what older saved networks have) or
``"wdl"`` (the probabilities of a win, a draw and a loss, :data:`WDL_ORDER`, trained by
the cross-entropy; the search reads P(win) - P(loss), :func:`predict_wdl` gives all three).

The shape is AlphaZero's, as small as a 6 x 6 board allows: a 3x3 convolution, ``R``
residual blocks of two, then a policy head (1x1 convolution, dense to 36 logits) and a
value head (1x1 convolution, dense, tanh or softmax). LayerNorm over each position's
whole feature map replaces batch norm: it has no running statistics, so predicting one
position or a batch gives the same numbers.

The network is an Equinox module (a pytree of arrays); :func:`predict` (its forward pass
over a batch) is the one compiled entry point the search and the agent call."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import numpy.typing as npt

from .._checks import check_int
from ..donuts.planes import NUM_PLANES
from ..donuts.squares import NUM_SQUARES, SIZE
from .errors import LearnError

#: Policy-head channels (AlphaZero's Go net uses 2).
POLICY_CHANNELS = 2
#: Value-head channels (AlphaZero's: 1).
VALUE_CHANNELS = 1
#: The value heads (:attr:`NetworkConfig.value_head`).
VALUE_HEADS = ("scalar", "wdl")
#: The order of a ``"wdl"`` head's outputs: win, draw, loss for the side to move. A
#: result ``r`` (+1 / 0 / -1) is output ``1 - r``.
WDL_ORDER = ("win", "draw", "loss")


@dataclasses.dataclass(frozen=True)
class NetworkConfig:
    """The network's shape: ``channels`` C of the trunk, ``blocks`` R residual blocks,
    ``value_hidden`` H units of the value head's hidden layer, and the ``value_head``'s
    kind: ``"scalar"`` or ``"wdl"`` (see the module). A saved config without
    ``value_head`` (an older network's) is a scalar head."""

    channels: int = 32
    blocks: int = 3
    value_hidden: int = 64
    value_head: str = "scalar"

    def __post_init__(self) -> None:
        for name in ("channels", "blocks", "value_hidden"):
            value = getattr(self, name)
            check_int(f"NetworkConfig.{name}", value, 0 if name == "blocks" else 1, error=LearnError)
        if self.value_head not in VALUE_HEADS:
            raise LearnError(f"NetworkConfig.value_head must be one of {', '.join(VALUE_HEADS)}, got {self.value_head!r}")

    @property
    def value_outputs(self) -> int:
        """Outputs of the value head's last layer: 1 (scalar) or 3 (win, draw, loss)."""
        return len(WDL_ORDER) if self.value_head == "wdl" else 1

    def to_json(self) -> dict[str, int | str]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NetworkConfig:
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise LearnError(f"unknown network settings: {', '.join(sorted(unknown))}")
        return cls(**data)


class _ConvNorm(eqx.Module):
    conv: eqx.nn.Conv2d
    norm: eqx.nn.LayerNorm

    def __init__(self, channels_in: int, channels_out: int, kernel: int, key: jax.Array):
        self.conv = eqx.nn.Conv2d(channels_in, channels_out, kernel, padding=kernel // 2, use_bias=False, key=key)
        self.norm = eqx.nn.LayerNorm((channels_out, SIZE, SIZE))

    def __call__(self, x: jax.Array) -> jax.Array:
        return self.norm(self.conv(x))


class _ResidualBlock(eqx.Module):
    first: _ConvNorm
    second: _ConvNorm

    def __init__(self, channels: int, key: jax.Array):
        k1, k2 = jax.random.split(key)
        self.first = _ConvNorm(channels, channels, 3, k1)
        self.second = _ConvNorm(channels, channels, 3, k2)

    def __call__(self, x: jax.Array) -> jax.Array:
        return jax.nn.relu(x + self.second(jax.nn.relu(self.first(x))))


class Network(eqx.Module):
    """The policy/value network of one position (use :func:`predict` for batches).

    ``Network(config, key)``: freshly initialised weights from the JAX PRNG ``key``."""

    config: NetworkConfig = eqx.field(static=True)
    stem: _ConvNorm
    blocks: tuple[_ResidualBlock, ...]
    policy_conv: _ConvNorm
    policy_out: eqx.nn.Linear
    value_conv: _ConvNorm
    value_hidden: eqx.nn.Linear
    value_out: eqx.nn.Linear

    def __init__(self, config: NetworkConfig, key: jax.Array):
        keys = jax.random.split(key, config.blocks + 5)
        self.config = config
        c = config.channels
        self.stem = _ConvNorm(NUM_PLANES, c, 3, keys[0])
        self.blocks = tuple(_ResidualBlock(c, k) for k in keys[5:])
        self.policy_conv = _ConvNorm(c, POLICY_CHANNELS, 1, keys[1])
        self.policy_out = eqx.nn.Linear(POLICY_CHANNELS * NUM_SQUARES, NUM_SQUARES, key=keys[2])
        self.value_conv = _ConvNorm(c, VALUE_CHANNELS, 1, keys[3])
        k_hidden, k_out = jax.random.split(keys[4])
        self.value_hidden = eqx.nn.Linear(VALUE_CHANNELS * NUM_SQUARES, config.value_hidden, key=k_hidden)
        self.value_out = eqx.nn.Linear(config.value_hidden, config.value_outputs, key=k_out)

    def heads(self, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
        """``(policy logits float32[36], value head float32[k])`` of one position before any
        squashing: ``k`` = 1 (the scalar head, before tanh) or 3 (the win/draw/loss logits)."""
        x = jnp.transpose(planes, (2, 0, 1))  # channels first, as Equinox's convolutions take them
        x = jax.nn.relu(self.stem(x))
        for block in self.blocks:
            x = block(x)
        # Row-major (rank, file) flattening of a plane is square order: rank r file f is square 6r + f.
        logits = self.policy_out(jax.nn.relu(self.policy_conv(x)).reshape(-1))
        hidden = jax.nn.relu(self.value_hidden(jax.nn.relu(self.value_conv(x)).reshape(-1)))
        return logits, self.value_out(hidden)

    def __call__(self, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
        """``(logits float32[36], value float32[])`` of one position, ``planes`` ``float32[6, 6, 13]``:
        the value in [-1, 1] for the side to move (a WDL head's P(win) - P(loss))."""
        logits, head = self.heads(planes)
        return logits, scalar_value(head)


def scalar_value(head: jax.Array) -> jax.Array:
    """The value in [-1, 1] of value-head outputs ``head`` (``[..., 1]`` or ``[..., 3]``):
    tanh of the scalar head, P(win) - P(loss) of a WDL head."""
    if head.shape[-1] == 1:
        return jnp.tanh(head[..., 0])
    wdl = jax.nn.softmax(head, axis=-1)
    return wdl[..., 0] - wdl[..., 2]


def new_network(config: NetworkConfig | None = None, seed: int = 0) -> Network:
    """A network of ``config`` (default :class:`NetworkConfig`) initialised from ``seed``."""
    return Network(config or NetworkConfig(), jax.random.PRNGKey(seed))


@eqx.filter_jit
def _forward(network: Network, planes: jax.Array) -> tuple[jax.Array, jax.Array]:
    return jax.vmap(network)(planes)


def predict(network: Network, planes: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The network's forward pass: ``(logits float32[n, 36], values float32[n])`` of a batch
    of planes ``float32[n, 6, 6, 13]``.

    One compiled call per batch shape: callers keep their batch sizes few (the search
    always asks about its ``games`` leaves at once, padding finished games)."""
    logits, values = _forward(network, jnp.asarray(planes))
    return np.asarray(logits), np.asarray(values)


@eqx.filter_jit
def _forward_wdl(network: Network, planes: jax.Array) -> jax.Array:
    return jax.nn.softmax(jax.vmap(network.heads)(planes)[1], axis=-1)


def predict_wdl(network: Network, planes: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``float32[n, 3]``: the probabilities of a win, a draw and a loss (:data:`WDL_ORDER`)
    for the side to move of each of a batch of planes, by a ``"wdl"`` network
    (``LearnError`` for a scalar one)."""
    if network.config.value_head != "wdl":
        raise LearnError(f"predict_wdl needs a network with value_head='wdl', this one has {network.config.value_head!r}")
    return np.asarray(_forward_wdl(network, jnp.asarray(planes)))


def count_parameters(network: Network) -> int:
    """Number of trained weights."""
    return sum(int(np.prod(leaf.shape)) for leaf in jax.tree_util.tree_leaves(eqx.filter(network, eqx.is_array)))


#: File names of a saved network: the weights, and the config they need.
WEIGHTS_FILE, CONFIG_FILE = "network.eqx", "network.json"


def save_network(network: Network, directory: str | Path) -> None:
    """Write ``network`` into ``directory`` (created): its weights and its config."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    eqx.tree_serialise_leaves(directory / WEIGHTS_FILE, network)
    (directory / CONFIG_FILE).write_text(json.dumps(network.config.to_json(), indent=1) + "\n")


#: A training run's checkpoint folder, and a supervised run's last network, inside the run's folder.
CHECKPOINT, FINAL_NETWORK = "checkpoint", "network"


def network_in(path: str | Path) -> Path:
    """The folder of the network ``path`` names: a saved network's folder (as
    :func:`save_network` writes it), a training run (its last checkpoint) or a supervised
    run (its last network); ``path`` itself when it holds none of them."""
    folder = Path(path)
    for inside in (folder, folder / CHECKPOINT, folder / FINAL_NETWORK):
        if (inside / CONFIG_FILE).is_file():
            return inside
    return folder


def load_network(directory: str | Path) -> Network:
    """The network ``directory`` names, as ``az:checkpoint=`` takes it (:func:`network_in`):
    saved there by :func:`save_network`, or a training or supervised run's last one
    (``LearnError`` if none is there)."""
    directory = network_in(directory)
    config_path, weights_path = directory / CONFIG_FILE, directory / WEIGHTS_FILE
    if not config_path.is_file() or not weights_path.is_file():
        raise LearnError(f"no network in {str(directory)!r} (it needs {CONFIG_FILE} and {WEIGHTS_FILE})")
    try:
        config = NetworkConfig.from_json(json.loads(config_path.read_text()))
    except (ValueError, TypeError) as exc:
        raise LearnError(f"{config_path}: {exc}") from None
    skeleton = Network(config, jax.random.PRNGKey(0))
    try:
        loaded: Network = eqx.tree_deserialise_leaves(weights_path, skeleton)
    except Exception as exc:  # a truncated or mismatched file: name it, whatever Equinox raised
        raise LearnError(f"{weights_path}: cannot read the weights ({exc})") from None
    return loaded
