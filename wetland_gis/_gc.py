"""A pause of Python's cyclic garbage collector around a bulk step (not legal logic).

The rules engine creates many small acyclic objects (trace steps, decisions); the cyclic
collector only slows their creation. ``benchmarks/bench_rules.py`` shows deciding 20
impacts a project takes about twice the CPU with the collector running, so callers that
decide in bulk (``assess``, the benchmark) pause it around the call. The pure rules core
does not touch the collector.

With ``promote``, the objects made during the pause go straight to the oldest generation
when it ends (:func:`gc.freeze` then :func:`gc.unfreeze`), instead of being traversed by
the first young collection, then again on their way through the middle one, and then by
the full collections their arrival sets off: ``assess`` keeps most of what its decision
stage makes (the trace, the decisions), and at 50,000 impacts those traversals cost about
2 s of CPU over a streamed run (``benchmarks/README.md``, "Issue 23, decision stage").
Objects that become garbage by reference counting are freed at once as always; cyclic
garbage made during the pause waits for the next full collection.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused(*, promote: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; restore it as it was.

    Parameters
    ----------
    promote : bool, default False
        When the block ends, move every tracked object to the oldest generation without
        a collection (for a block that makes many objects which outlive it). Skipped when
        objects are already frozen (:func:`gc.get_freeze_count`), so a caller's own
        :func:`gc.freeze` is never undone.

    Examples
    --------
    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> with collector_paused(promote=True):
    ...     kept = [[i] for i in range(1000)]
    >>> gc.isenabled(), gc.get_freeze_count()
    (True, 0)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if promote and not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
