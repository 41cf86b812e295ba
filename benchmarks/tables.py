"""The published tables: the blocks of ``benchmarks/RESULTS.md`` and the docs generated from
committed records.

A published table sits between two comments naming its record(s), and :func:`regenerate`
(``python -m benchmarks.tables``; ``--check`` to only compare) writes its body from them
(:mod:`~donuts_ai.bench.tables`)::

    <!-- record: benchmarks/records/bench-quick.json -->
    ...generated...
    <!-- end record -->

    <!-- compare: benchmarks/records/0.3.0.json benchmarks/records/0.5.0.json -->
    ...generated...
    <!-- end compare -->

A record block also gives the ratios its benchmark derives from the record's stored
times (:func:`~donuts_ai.bench.tables.derived_ratios`, and the interop benchmark's
:func:`benchmarks.interop.search_ratios`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.compare import CHECKOUT
from benchmarks.interop import search_ratios
from donuts_ai.bench import record
from donuts_ai.bench.tables import comparison_markdown, derived_ratios, record_markdown

#: A published block: its kind, its record paths, its body.
BLOCK = re.compile(r"(<!-- (record|compare): ([^>]+?) -->\n)(.*?)(<!-- end \2 -->)", re.S)


def render_block(kind: str, paths: Sequence[str], root: Path) -> str:
    """The body of one published block (see the module doc), paths relative to ``root``."""
    suites = [record.load(root / p) for p in paths]
    if kind == "record":
        if len(suites) != 1:
            raise record.SpeedRecordError(f"a record block names one record, got {len(paths)}: {' '.join(paths)}")
        return record_markdown(suites[0], derived_ratios(suites[0]) + search_ratios(suites[0])) + "\n"
    if len(suites) != 2:
        raise record.SpeedRecordError(f"a compare block names two records, got {len(paths)}: {' '.join(paths)}")
    names = [label_of(suite, Path(p).name.removesuffix(".gz").removesuffix(".json")) for suite, p in zip(suites, paths, strict=True)]
    return comparison_markdown(suites[0], suites[1], names[0], names[1]) + "\n"


def label_of(suite: Any, fallback: str) -> str:
    """A record's name in a table: its version and short commit where it knows them."""
    versions = [str(v) for v in record.metadata_values(suite, "donuts_ai_version")]
    commits = [str(c)[:7] for c in record.metadata_values(suite, "git_commit")]
    parts = [*versions[:1], *(f"`{c}`" for c in commits[:1])]
    return " ".join(parts) if parts else fallback


def regenerate(page: Path, root: Path, check: bool = False) -> bool:
    """Rewrite the blocks of ``page`` from their records (paths relative to ``root``);
    with ``check``, write nothing. True when the page already held what its records say."""
    text = page.read_text()

    def body(match: re.Match[str]) -> str:
        kind, paths = match.group(2), match.group(3).split()
        return f"{match.group(1)}\n{render_block(kind, paths, root)}\n{match.group(5)}"

    new = BLOCK.sub(body, text)
    if new != text and not check:
        page.write_text(new)
    return new == text


#: The pages whose tables are generated from records, relative to the checkout.
PAGES = ("benchmarks/RESULTS.md", "docs/howto/speed.md", "docs/howto/environments.md")


def main(argv: list[str] | None = None, prog: str = "python -m benchmarks.tables") -> int:
    """Regenerate the published tables from their records (``--check``: exit 1 and name the
    pages whose tables differ from their records, writing nothing)."""
    parser = argparse.ArgumentParser(prog=prog, description=main.__doc__.splitlines()[0] if main.__doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a page is out of date")
    parser.add_argument("pages", nargs="*", default=list(PAGES), help=f"pages (default: {' '.join(PAGES)})")
    args = parser.parse_args(argv)
    stale = []
    try:
        for page in args.pages:
            if not regenerate(CHECKOUT / page, CHECKOUT, check=args.check):
                stale.append(page)
    except (OSError, record.SpeedRecordError) as exc:
        parser.exit(2, f"{prog}: error: {exc}\n")
    for page in stale:
        print(f"{page}: {'out of date with its records' if args.check else 'regenerated'}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
