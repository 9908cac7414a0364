"""A pause of Python's cyclic garbage collector around a bulk step (not legal logic).

The rules engine creates many small acyclic objects (trace steps, decisions); the cyclic
collector only slows their creation. ``benchmarks/bench_rules.py`` shows deciding 20
impacts a project takes about twice the CPU with the collector running, so callers that
decide in bulk (``assess``, the benchmark) pause it around the call. The pure rules core
does not touch the collector.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; restore it as it was.

    Examples
    --------
    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
