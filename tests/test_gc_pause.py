"""The collector pause of the bulk steps (wetland_gis/_gc.py): not legal logic."""

from __future__ import annotations

import gc
import sys

from wetland_gis._gc import collector_paused


def _in_generation(obj: object, generation: int) -> bool:
    return any(o is obj for o in gc.get_objects(generation=generation))


def test_the_collector_is_paused_in_the_block_and_restored_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_by_the_caller_stays_disabled():
    gc.disable()
    try:
        with collector_paused(promote=True):
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_promote_moves_what_the_block_made_to_the_oldest_generation():
    with collector_paused(promote=True):
        kept = [[i] for i in range(10)]
    assert _in_generation(kept, 2)
    assert gc.get_freeze_count() == 0
    with collector_paused():
        young = [[i] for i in range(10)]
    assert not _in_generation(young, 2)


def test_promote_never_undoes_a_callers_freeze():
    before = [[0]]
    # another thread of the process (the test run's dask cluster, pytest-xdist's channel)
    # may free a frozen object and change the count: hold the interpreter meanwhile
    interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused(promote=True):
            made = [[1]]
        assert gc.get_freeze_count() == frozen
        assert not _in_generation(made, 2)
        assert not _in_generation(before, 2)  # still frozen, not put back
    finally:
        gc.unfreeze()
        sys.setswitchinterval(interval)
