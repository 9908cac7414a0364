"""``write_frame``'s storable columns (issue 23): the fast path changes no value.

A column whose values are all text, numbers or booleans is no longer mapped through
``_plain``; the values written must be those the map gave, and the caller's frame must
stay as it was (the copy is shallow under copy-on-write).
"""

from __future__ import annotations

import enum

import pandas as pd
import pytest

from wetland_gis.io import writers as layers


class _Kind(enum.Enum):
    FILL = "fill"


@pytest.mark.parametrize(
    "values",
    [
        ["a", None, "b"],
        [True, False, None],
        [1, 2, None],
        [1, 2.5, None],
        [_Kind.FILL, "x", None],
        [["a", "b"], {"k": 1}, None],
        [None, None],
    ],
    ids=["text", "bool", "int", "int-float", "enum", "list-dict", "all-missing"],
)
def test_plain_column_as_the_map_gave(values):
    series = pd.Series(values, dtype=object)
    mapped = series.map(layers._plain, na_action="ignore")
    got = layers._plain_column(series)
    assert got.astype(object).where(got.notna(), None).tolist() == (
        mapped.astype(object).where(mapped.notna(), None).tolist()
    )


def test_storable_leaves_the_callers_frame():
    frame = pd.DataFrame({"a": pd.Series([_Kind.FILL, None], dtype=object), "b": [1.0, 2.0]})
    before = frame.copy()
    out = layers._storable(frame)
    out.loc[0, "b"] = 9.0
    assert out["a"].tolist()[0] == "fill"
    assert frame.equals(before)
