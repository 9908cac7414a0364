"""A warning the run also records (the manifest's records): one helper, ``warn_recorded``.

It points where :func:`warnings.warn` with the same ``stacklevel`` points, so the callers
that moved to it (a staging folder left, an inferred wetland type, the partitions'
warnings) still name the same line of their caller.
"""

from __future__ import annotations

import inspect
import warnings

import pytest

from wetland_gis.errors import InputRepairWarning, warn_recorded

MESSAGE = "2 pair(s) of impact polygons overlap (e.g. W-1 and W-2)"


def _warns(records: list[str] | None, stacklevel: int) -> None:
    warn_recorded(MESSAGE, InputRepairWarning, records, stacklevel=stacklevel)


@pytest.mark.parametrize(
    ("stacklevel", "where"),
    [
        pytest.param(1, "the helper's caller", id="stacklevel 1"),
        pytest.param(2, "its caller", id="stacklevel 2"),
    ],
)
@pytest.mark.parametrize("records", [[], ["an earlier record"], None])
def test_the_warning_is_given_recorded_and_points_as_warnings_warn_does(records, stacklevel, where):
    before = None if records is None else list(records)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        _warns(records, stacklevel)
    (given,) = caught
    assert given.category is InputRepairWarning and str(given.message) == MESSAGE
    expected = _warns.__code__.co_firstlineno + 1 if stacklevel == 1 else line
    assert (given.filename, given.lineno) == (__file__, expected), where
    assert records == (None if before is None else [*before, MESSAGE])
