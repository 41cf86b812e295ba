"""The kernel rule: no compiled kernel takes 10 or more parameters; related ones travel in
a record (a ``NamedTuple``), as the search trees and settings do."""

from __future__ import annotations

import ast
from pathlib import Path

import donuts_ai

#: The most parameters a kernel may take.
MOST_PARAMETERS = 9


def _is_kernel(node: ast.FunctionDef) -> bool:
    """Decorated with ``njit`` or ``jit``, called or not (``@njit``, ``@njit(cache=True)``, ``@numba.njit``)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name in ("njit", "jit"):
            return True
    return False


def test_no_kernel_takes_ten_or_more_parameters():
    root = Path(donuts_ai.__file__).parent
    kernels, too_many = 0, []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and _is_kernel(node):
                kernels += 1
                args = node.args
                count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs) + bool(args.vararg) + bool(args.kwarg)
                if count > MOST_PARAMETERS:
                    too_many.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({count})")
    assert kernels > 100, "the scan found too few kernels to be looking at the package"
    assert not too_many, "kernels with more than 9 parameters (bundle them in a record): " + ", ".join(too_many)
