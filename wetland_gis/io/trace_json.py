"""The trace table written to files, column by column and a slice of rows at a time.

Beside a GeoParquet output the trace is the Parquet table ``<stem>_decisions.parquet``
(:func:`write_trace_parquet`: the columns of :data:`~wetland_gis.rules.TRACE_COLUMNS`,
``verify``, ``inputs`` and ``parameters`` as JSON text, :data:`ROWS_PER_SLICE` rows a row
group), the same table for ``Assessment.write()``, the streamed path and the partitioned
engines. Beside other outputs ``Assessment.write()`` puts the trace into
``<stem>_decisions.json`` (indented JSON
records, every input's ``verify``, ``inputs`` and ``parameters`` as JSON text) and a
GeoPackage's ``decisions`` table. Building that file as one list of record dicts and one
``json.dumps(..., indent=2)`` (the pure-Python encoder, as ``indent`` is set) held every
record, every text chunk and the whole text at once: 10.3 GiB and 213 s for the 1.4
million steps of 200,000 impacts (issue 23). Here the same text is made a slice of
rows at a time: each column's cells are encoded once by the C encoder
(``json.encoder.encode_basestring`` for text), the records laid out by one template,
and each slice written to the file before the next is made. The bytes are those of
``json.dumps(records, indent=2, ensure_ascii=False, default=str)`` (tested).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from json.encoder import encode_basestring  # the C function where available
from pathlib import Path
from typing import Any

import pandas as pd

from wetland_gis.rules.trace import JSON_COLUMNS, TRACE_COLUMNS, _plain, encode_trace_value

#: Rows encoded at a time (memory: one slice's text, about 0.1 GiB at this size).
ROWS_PER_SLICE = 50_000

_json_text = json.JSONEncoder(ensure_ascii=False, default=str).encode


def _cell_encoder() -> Callable[[Any], str]:
    """Return a function equal to :func:`encode_trace_value`, its encoder made once.

    ``json.dumps`` with arguments builds a ``JSONEncoder`` and a C encoder for every
    call; this builds the C encoder (``json.encoder.c_make_encoder``, as
    ``JSONEncoder.iterencode`` does) once. Without the C module, ``encode_trace_value``.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has the C encoder
        return encode_trace_value
    probe = json.JSONEncoder(ensure_ascii=False, default=_plain, sort_keys=False)
    markers: dict[int, Any] = {}
    iterencode = make(
        markers,
        probe.default,
        encode_basestring,
        None,
        probe.key_separator,
        probe.item_separator,
        False,
        False,
        True,
    )
    join = "".join

    def encode(value: Any) -> str:
        if value.__class__ is str:
            return encode_basestring(value)
        try:
            return join(iterencode(value, 0))
        except BaseException:
            markers.clear()  # as a fresh encoder would be: no object left marked
            raise

    return encode


#: The JSON columns whose cells mostly repeat (a rule's verify items and parameters are
#: the same for most impacts); an ``inputs`` cell is mostly an impact's own, and looking
#: its repeats up cost more than it saved (issue 23).
REPEATING_COLUMNS = frozenset({"verify", "parameters"})


def encode_json_column(values: list[Any], *, repeats: bool = True) -> list[str]:
    """Return each ``verify``/``inputs``/``parameters`` cell as JSON text.

    Equal to ``[encode_trace_value(v) for v in values]``, the encoder made once, and each
    text made once for the cells that repeat (issue 23: 4.8 million cells at 200,000
    impacts, most of them repeats): a list or tuple of str once per distinct list (equal
    strings give equal JSON), a dict once per object (steps share their ``parameters``;
    every cell is alive in ``values`` while it is encoded, so an object's id names it).

    Parameters
    ----------
    values : list
        The column's cells (lists and dicts).
    repeats : bool, default True
        Look the repeats up (:data:`REPEATING_COLUMNS`); False encodes every cell.

    Returns
    -------
    list of str
    """
    encode = _cell_encoder()
    if not repeats:
        return list(map(encode, values))
    texts: dict[tuple[Any, ...], str] = {}  # a list of str -> its text
    objects: dict[int, str] = {}  # a dict's id -> its text
    out: list[str] = []
    append = out.append
    for value in values:
        cls = value.__class__
        if cls is list or cls is tuple:
            key = tuple(value)
            if all(item.__class__ is str for item in key):
                text = texts.get(key)
                if text is None:
                    text = texts[key] = encode(value)
                append(text)
                continue
        elif cls is dict:
            text = objects.get(id(value))
            if text is None:
                text = objects[id(value)] = encode(value)
            append(text)
            continue
        append(encode(value))
    return out


def _encode_named(name: Any, values: list[Any]) -> list[str]:
    """Encode the cells of the JSON column ``name``, repeats looked up where they are many."""
    return encode_json_column(values, repeats=name in REPEATING_COLUMNS)


def decisions_table(trace: pd.DataFrame) -> pd.DataFrame:
    """Return the trace as written to files: ``verify``, ``inputs``, ``parameters`` JSON.

    Parameters
    ----------
    trace : DataFrame
        The trace table (:data:`wetland_gis.rules.TRACE_COLUMNS`).

    Returns
    -------
    DataFrame
        A new frame; ``trace`` is not changed.
    """
    columns = {
        name: _encode_named(name, trace[name].tolist()) if name in JSON_COLUMNS else trace[name]
        for name in trace.columns
    }
    return pd.DataFrame(columns, index=trace.index)


def _token(value: Any) -> str:
    """Return one JSON value as ``json.dumps(..., ensure_ascii=False, default=str)``."""
    cls = value.__class__
    if cls is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if cls is int:
        return int.__repr__(value)
    if cls is float and math.isfinite(value):
        return float.__repr__(value)
    return _json_text(value)


def _cells(series: pd.Series, encode: Callable[[list[Any]], list[str]] | None) -> list[str]:
    """Return a column's cells as JSON tokens (missing cells as ``null``)."""
    if encode is not None:  # encoded before the missing cells are looked for: all text
        return list(map(encode_basestring, encode(series.tolist())))
    values = series.astype(object)
    return list(map(_token, values.where(pd.notna(values), None).tolist()))


def record_texts(
    table: pd.DataFrame, json_columns: tuple[str, ...] = JSON_COLUMNS
) -> Iterator[list[str]]:
    r"""Yield each row's record as :func:`write_records_json` writes it, a slice at a time.

    The file is ``"[\n"``, these texts joined by ``",\n"``, and ``"\n]"``; so the
    records of a table's rows can be made apart (a dask worker's) and put together later.

    Parameters
    ----------
    table : DataFrame
        As :func:`write_records_json`.
    json_columns : tuple of str
        As :func:`write_records_json`.

    Yields
    ------
    list of str
        The records of ``ROWS_PER_SLICE`` rows (fewer in the last slice), indented.
    """
    names = [str(c) for c in table.columns]
    template = (
        "  {\n"
        + ",\n".join(f"    {encode_basestring(n).replace('%', '%%')}: %s" for n in names)
        + "\n  }"
    )
    for start in range(0, len(table), ROWS_PER_SLICE):
        part = table.iloc[start : start + ROWS_PER_SLICE]
        cols = [
            _cells(part[c], partial(_encode_named, c) if c in json_columns else None)
            for c in table.columns
        ]
        yield list(map(template.__mod__, zip(*cols, strict=True)))


def _slices(table: pd.DataFrame, json_columns: tuple[str, ...]) -> Iterator[str]:
    """Yield the records' text, ``ROWS_PER_SLICE`` rows at a time (no brackets)."""
    for texts in record_texts(table, json_columns):
        yield ",\n".join(texts)


def write_records_json(
    table: pd.DataFrame, path: str | Path, *, json_columns: tuple[str, ...] = JSON_COLUMNS
) -> Path:
    """Write a table as indented JSON records, a slice of rows at a time.

    The text is that of ``json.dumps(records, indent=2, ensure_ascii=False,
    default=str)`` where ``records`` are the rows of ``table.astype(object)`` with
    missing cells as ``None`` and each ``json_columns`` cell first encoded by
    :func:`~wetland_gis.rules.trace.encode_trace_value`, without holding the records.

    Parameters
    ----------
    table : DataFrame
        The trace table (or any table of text, numbers and, in ``json_columns``, lists
        and dicts).
    path : str or Path
        The file written (UTF-8).
    json_columns : tuple of str
        The columns of Python lists and dicts, written as JSON text.

    Returns
    -------
    Path
    """
    path = Path(path)
    with path.open("w", encoding="utf-8") as fh:
        if not len(table):
            fh.write("[]")
            return path
        fh.write("[\n")
        for i, text in enumerate(_slices(table, json_columns)):
            if i:
                fh.write(",\n")
            fh.write(text)
        fh.write("\n]")
    return path


def disk_table(trace: pd.DataFrame) -> Any:
    """Return trace rows as the Arrow table of ``*_decisions.parquet``.

    The :func:`decisions_table` (``verify``, ``inputs``, ``parameters`` as JSON text) with
    ``value`` as a float column, without the frame's index.

    Parameters
    ----------
    trace : DataFrame
        Rows of the trace table (:data:`wetland_gis.rules.TRACE_COLUMNS`).

    Returns
    -------
    pyarrow.Table
    """
    import pyarrow as pa

    frame = decisions_table(trace)
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce")
    return pa.Table.from_pandas(frame, preserve_index=False)


def file_schema(table: Any) -> Any:
    """Return the schema a file of such tables is written with (a null column as text).

    A column with no value in the first table is typed null by Arrow; the file takes it
    as text, and later tables are cast to it (:func:`conform`).
    """
    import pyarrow as pa

    return pa.schema(
        [f.with_type(pa.string()) if pa.types.is_null(f.type) else f for f in table.schema],
        metadata=table.schema.metadata,
    )


def conform(table: Any, schema: Any) -> Any:
    """Cast a table to the file's schema (a column empty in one table is typed null)."""
    import pyarrow as pa

    if table.schema.equals(schema):
        return table
    cols = []
    for f in schema:
        if f.name in table.column_names:
            col = table.column(f.name)
        else:
            col = pa.nulls(len(table), f.type)
        if not col.type.equals(f.type):
            col = col.cast(f.type)
        cols.append(col)
    return pa.Table.from_arrays(cols, schema=schema)


def write_tables_parquet(tables: Iterable[Any], path: str | Path) -> Path:
    """Write Arrow tables one after the other as one Parquet file.

    The rows are written :data:`ROWS_PER_SLICE` to a row group, whatever the tables'
    lengths, each group's columns in one chunk: the same rows give the same bytes, however
    they come (one table sliced, or the parts of a partitioned run put together).

    Parameters
    ----------
    tables : iterable of pyarrow.Table
        Tables of the same columns (the first one's schema is the file's).
    path : str or Path
        The file written.

    Returns
    -------
    Path
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    writer = None
    schema = None
    held: list[Any] = []
    rows = 0

    def flush(n: int) -> None:
        nonlocal held, rows
        assert writer is not None and schema is not None
        whole = pa.concat_tables(held)
        writer.write_table(whole.slice(0, n).combine_chunks())
        rest = whole.slice(n)
        held, rows = ([rest] if len(rest) else []), len(rest)

    try:
        for table in tables:
            if writer is None:
                schema = file_schema(table)
                writer = pq.ParquetWriter(path, schema)
            held.append(conform(table, schema))
            rows += len(table)
            while rows >= ROWS_PER_SLICE:
                flush(ROWS_PER_SLICE)
        if writer is None:  # no rows at all: an empty table of the trace's columns
            pd.DataFrame(columns=list(TRACE_COLUMNS)).to_parquet(path)
            return path
        if rows:
            flush(rows)
    finally:
        if writer is not None:
            writer.close()
    return path


def write_trace_parquet(trace: pd.DataFrame, path: str | Path) -> Path:
    """Write the trace table as ``*_decisions.parquet``, a slice of rows at a time.

    Parameters
    ----------
    trace : DataFrame
        The trace table (:data:`wetland_gis.rules.TRACE_COLUMNS`).
    path : str or Path
        The file written.

    Returns
    -------
    Path
    """
    slices = (
        disk_table(trace.iloc[start : start + ROWS_PER_SLICE])
        for start in range(0, len(trace), ROWS_PER_SLICE)
    )
    return write_tables_parquet(slices, path)
