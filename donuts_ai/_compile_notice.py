"""A first call that compiles says so: one line on stderr once a block has taken more than
:data:`NOTICE_AFTER` seconds and Numba has compiled something in it, ended with the seconds
it took (nothing for a quick block, or one that only loaded kernels from the cache).

Used by the tournaments' pre-flight and by the first :func:`~donuts_ai.solve` and
:func:`~donuts_ai.analyze` of a process: compiling takes seconds to a minute, and silence
for that long reads as a hang.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from numba.core import event as numba_event

#: Seconds a block runs before its notice is printed, if it is compiling.
NOTICE_AFTER = 1.0
#: Seconds between two looks for a compile, once :data:`NOTICE_AFTER` has passed.
POLL_SECONDS = 0.1


class _CompileWatch(numba_event.Listener):
    """Whether Numba compiled anything while it listened (its ``numba:compile`` events;
    loading a kernel from the cache is no compile)."""

    def __init__(self) -> None:
        self.compiled = threading.Event()

    def on_start(self, event: numba_event.Event) -> None:
        self.compiled.set()

    def on_end(self, event: numba_event.Event) -> None:
        pass


@contextmanager
def notice_if_compiling(stream: TextIO | None, notice_text: str) -> Iterator[None]:
    """Print ``notice_text`` on ``stream`` once the block has taken :data:`NOTICE_AFTER`
    seconds and Numba has compiled something in it, then end the line with the seconds
    the block took; nothing for a quick block or one that only loaded cached kernels."""
    if stream is None:
        yield
        return
    watch = _CompileWatch()
    start = time.perf_counter()
    done = threading.Event()
    printed = threading.Event()
    lock = threading.Lock()

    def notice() -> None:
        # Wait out NOTICE_AFTER, then until the first compile, unless the block ends first.
        if done.wait(NOTICE_AFTER):
            return
        while not watch.compiled.wait(POLL_SECONDS):
            if done.is_set():
                return
        with lock:
            if not done.is_set():
                stream.write(notice_text)
                stream.flush()
                printed.set()

    watcher = threading.Thread(target=notice, name="donuts-compile-notice", daemon=True)
    with numba_event.install_listener("numba:compile", watch):
        watcher.start()
        try:
            yield
        finally:
            with lock:
                done.set()
                if printed.is_set():
                    stream.write(f" {time.perf_counter() - start:.1f} s\n")
                    stream.flush()
    watcher.join()
