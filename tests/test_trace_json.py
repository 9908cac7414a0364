"""The trace written a slice of rows at a time (issue 23): the same bytes as before.

``*_decisions.json`` was ``json.dumps(records, indent=2, ensure_ascii=False, default=str)``
of the whole trace; :func:`wetland_gis.io.trace_json.write_records_json` makes it by
columns and slices, and must give the very same text for any table of text, numbers,
missing cells and list/dict cells, across slice boundaries.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import pandas as pd
import pytest
from helpers import CONTEXT
from hypothesis import given, settings, strategies as st

import wetland_gis as wg
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.io import trace_json
from wetland_gis.rules.trace import JSON_COLUMNS, TRACE_COLUMNS, encode_trace_value

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing"
AS_OF = "2024-05-01"


def _expected(table: pd.DataFrame) -> str:
    """The text as the writer made it before (the whole table, one ``json.dumps``)."""
    table = table.copy()
    for name in JSON_COLUMNS:
        table[name] = [encode_trace_value(v) for v in table[name]]
    table = table.astype(object)
    table = table.where(pd.notna(table), None)
    return json.dumps(table.to_dict("records"), indent=2, ensure_ascii=False, default=str)


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
scalar = st.one_of(st.none(), text, st.integers(-(10**6), 10**6), st.floats())
cell = st.one_of(
    st.none(),
    text,
    st.floats(),
    st.lists(st.one_of(text, st.floats(allow_nan=False)), max_size=3),
    st.dictionaries(text, st.one_of(st.none(), text, st.integers(), st.floats()), max_size=3),
)


@st.composite
def traces(draw):
    n = draw(st.integers(0, 7))
    data = {}
    for name in TRACE_COLUMNS:
        if name in JSON_COLUMNS:
            data[name] = draw(st.lists(cell, min_size=n, max_size=n))
        elif name == "seq":
            data[name] = draw(st.lists(st.integers(0, 50), min_size=n, max_size=n))
        elif name == "value":
            data[name] = draw(st.lists(st.one_of(st.none(), st.floats()), min_size=n, max_size=n))
        else:
            data[name] = draw(st.lists(st.one_of(st.none(), text), min_size=n, max_size=n))
    frame = pd.DataFrame(data, columns=list(TRACE_COLUMNS))
    frame["seq"] = frame["seq"].astype("int64")
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype("float64")
    return frame


@settings(max_examples=150, deadline=None)
@given(table=traces(), rows=st.integers(1, 4))
def test_same_text_as_one_dumps(table, rows, tmp_path_factory):
    """Any trace, any slice size: byte for byte the text of the whole-table ``dumps``."""
    out = tmp_path_factory.mktemp("j") / "d.json"
    old = trace_json.ROWS_PER_SLICE
    trace_json.ROWS_PER_SLICE = rows
    try:
        trace_json.write_records_json(table, out)
    finally:
        trace_json.ROWS_PER_SLICE = old
    assert out.read_text("utf-8") == _expected(table)


@pytest.mark.parametrize(
    "value, token",
    [(None, "null"), ('a"b\n', '"a\\"b\\n"'), (3, "3"), (0.1, "0.1"), (math.inf, "Infinity")],
    ids=["none", "text-escaped", "int", "float", "infinity"],
)
def test_token_is_json_dumps(value, token):
    assert trace_json._token(value) == token == json.dumps(value, ensure_ascii=False)


def test_shared_cells_same_text():
    """A dict shared by several steps gives the same text in each; equal to per cell."""
    shared = {"a": [1, 2], "b": "x"}
    values = [shared, {"a": 1}, shared, []]
    assert trace_json.encode_json_column(values) == [encode_trace_value(v) for v in values]


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "a", "1", "1.0", "true", "§ 103G.222", 'q"\n']),
)
_CELLS = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.sampled_from(["a", "b", "types"]), inner, max_size=3),
    ),
    max_leaves=8,
)


@given(st.lists(_CELLS, max_size=12), st.lists(st.integers(0, 11), max_size=12))
def test_repeated_cells_encode_as_each_cell_alone(cells, repeats):
    """Issue 23: the texts made once per repeat are those of each cell encoded alone.

    Equal lists of other items (1, 1.0 and True are equal in Python, not in JSON) and
    shared dicts are drawn; a cell repeated is the same object again.
    """
    values = list(cells) + [cells[i % len(cells)] for i in repeats if cells]
    values += [list(v) for v in cells if isinstance(v, (list, tuple))]  # equal, not shared
    want = [encode_trace_value(v) for v in values]
    assert trace_json.encode_json_column(values) == want
    assert trace_json.encode_json_column(values, repeats=False) == want


def test_equal_lists_of_numbers_keep_their_own_text():
    values = [[1], [1.0], [True], ("a",), ["a"]]
    assert trace_json.encode_json_column(values) == ["[1]", "[1.0]", "[true]", '["a"]', '["a"]']


def test_cell_encoder_recovers_after_error():
    """A cell that cannot be encoded raises, and the next cells still encode."""
    loop: list[object] = []
    loop.append(loop)
    with pytest.raises(ValueError):
        trace_json.encode_json_column([{"a": 1}, loop])
    encode = trace_json._cell_encoder()
    with pytest.raises(ValueError):
        encode(loop)
    assert encode({"a": [1]}) == encode_trace_value({"a": [1]})


@pytest.fixture(scope="module")
def crow_wing():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(CROW_WING / "impacts.gpkg", CONTEXT, as_of=AS_OF)


def test_assessment_write_same_bytes_as_decisions_json(crow_wing, tmp_path):
    """``write()``'s ``*_decisions.json`` is the text of ``decisions_json()`` as before."""
    written = crow_wing.write(tmp_path / "a.geojson")
    path = tmp_path / "a_decisions.json"
    assert path in written
    assert len(crow_wing.trace) > 10
    expected = json.dumps(crow_wing.decisions_json(), indent=2, ensure_ascii=False, default=str)
    assert path.read_text("utf-8") == expected
    assert crow_wing.decisions_table().equals(
        crow_wing.trace.assign(
            **{c: [encode_trace_value(v) for v in crow_wing.trace[c]] for c in JSON_COLUMNS}
        )
    )


def test_empty_trace_is_empty_list(tmp_path):
    out = trace_json.write_records_json(
        pd.DataFrame(columns=list(TRACE_COLUMNS)), tmp_path / "e.json"
    )
    assert out.read_text("utf-8") == "[]"


def test_a_geoparquet_output_has_its_trace_as_a_parquet_table(crow_wing, tmp_path):
    """Beside GeoParquet the trace is ``*_decisions.parquet``: the same rows, JSON cells as text."""
    written = crow_wing.write(tmp_path / "a.parquet")
    path = tmp_path / "a_decisions.parquet"
    assert path in written
    assert not (tmp_path / "a_decisions.json").exists()
    back = pd.read_parquet(path)
    assert list(back.columns) == list(TRACE_COLUMNS)
    expected = crow_wing.decisions_table()
    for name in TRACE_COLUMNS:
        if name == "value":
            assert back[name].astype(float).equals(expected[name].astype(float)), name
        else:
            assert list(back[name]) == list(expected[name]), name
    # and the commands read it back as the trace (map, report)
    from wetland_gis.commands import read_assessed

    trace = read_assessed(tmp_path / "a.parquet")["trace"]
    assert trace is not None and len(trace) == len(crow_wing.trace)
    assert trace["inputs"].tolist() == crow_wing.trace["inputs"].tolist()


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=130), max_size=6))
def test_the_parquet_trace_has_the_same_bytes_however_its_rows_come(tmp_path_factory, cuts):
    """The rows cut anywhere and written as parts give the file of the whole table."""
    import pyarrow as pa

    frame = pd.DataFrame(
        {
            "project": [f"P{i // 7}" for i in range(130)],
            "impact_id": [f"I{i}" for i in range(130)],
            "seq": list(range(130)),
            "value": [float(i) if i % 3 else None for i in range(130)],
            "reason": ["a reason; with é" * (i % 4) for i in range(130)],
        }
    )
    table = pa.Table.from_pandas(frame, preserve_index=False)
    folder = tmp_path_factory.mktemp("parts")
    edges = sorted({0, 130, *cuts})
    parts = [table.slice(a, b - a) for a, b in zip(edges[:-1], edges[1:], strict=True)]
    old = trace_json.ROWS_PER_SLICE
    trace_json.ROWS_PER_SLICE = 40  # several row groups
    try:
        whole = trace_json.write_tables_parquet([table], folder / "whole.parquet")
        cut = trace_json.write_tables_parquet(parts, folder / "cut.parquet")
    finally:
        trace_json.ROWS_PER_SLICE = old
    assert whole.read_bytes() == cut.read_bytes()
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(whole).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [40, 40, 40, 10]


def test_an_empty_trace_is_an_empty_parquet_table_of_the_trace_columns(tmp_path):
    out = trace_json.write_trace_parquet(
        pd.DataFrame(columns=list(TRACE_COLUMNS)), tmp_path / "e.parquet"
    )
    back = pd.read_parquet(out)
    assert list(back.columns) == list(TRACE_COLUMNS) and len(back) == 0
