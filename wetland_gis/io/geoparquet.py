"""GeoParquet written in parts and put together: the impacts of a partitioned run.

:func:`wetland_gis.partitioned.assess_partitioned_to_files` assesses each partition of a
large layer on its own (a worker of the ``chunks`` or ``dask`` engine) and writes its
impacts as GeoArrow record batches (:func:`_arrow`); :func:`_assemble_impacts` puts the
parts together into one GeoParquet file in the input order, with one schema
(:func:`_merged_schema`), the whole layer's ``geo`` metadata (:func:`_geo_metadata`) and the
``pandas`` metadata ``GeoDataFrame.to_parquet`` would give it (:func:`_pandas_metadata`).

A partition's result (``results``) is the mapping its task returns: ``stem`` (its part
files: ``<stem>.arrow``), ``batches`` (record batches per window of output rows), ``geo`` and
``pandas`` (its Arrow schema metadata), ``head`` (its first stored row) and ``n`` (its rows).
pyarrow is imported when a part is written or read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.errors import InputError
from wetland_gis.io.trace_json import conform


def _arrow(chunk: gpd.GeoDataFrame) -> Any:
    """Return the chunk as an Arrow table with the GeoParquet ``geo`` metadata."""
    from geopandas.io.arrow import _geopandas_to_arrow

    return _geopandas_to_arrow(chunk, index=False)


def _merged_schema(schemas: list[Any], pa: Any) -> Any:
    """Return one schema for the partitions' tables: a column null in some takes the others'."""
    fields = []
    for column in schemas[0].names:
        types = {s.field(column).type for s in schemas}
        typed = {t for t in types if not pa.types.is_null(t)}
        if len(typed) > 1:
            raise _NotAssemblable(f"column {column!r} has the types {sorted(map(str, typed))}")
        fields.append(schemas[0].field(column).with_type(typed.pop() if typed else pa.null()))
    if any(s.names != schemas[0].names for s in schemas):
        raise _NotAssemblable("the partitions' impacts have other columns")
    return pa.schema(fields)


class _NotAssemblable(InputError):
    """The partitions' parts cannot be put together as one table (a bug if ever seen)."""


def _geo_metadata(results: list[dict[str, Any]]) -> bytes:
    """Return the GeoParquet ``geo`` metadata of the whole layer from the partitions'."""
    metas = [json.loads(r["geo"]) for r in results]
    geo = metas[0]
    for name, column in geo["columns"].items():
        kinds = {t for m in metas for t in m["columns"][name].get("geometry_types", [])}
        column["geometry_types"] = sorted(kinds)
        boxes = [m["columns"][name]["bbox"] for m in metas if "bbox" in m["columns"][name]]
        if boxes:
            b = np.array(boxes, dtype=float)
            column["bbox"] = [
                *np.nanmin(b[:, :2], axis=0).tolist(),
                *np.nanmax(b[:, 2:], axis=0).tolist(),
            ]
    return json.dumps(geo).encode("utf-8")


def _assemble_impacts(results: list[dict[str, Any]], path: Path) -> None:
    """Write the impacts GeoParquet in the input order, a window of rows at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    readers = [pa.ipc.open_file(pa.OSFile(f"{r['stem']}.arrow", "rb")) for r in results]
    schema = _merged_schema([rd.schema for rd in readers], pa)
    schema = schema.with_metadata(
        {
            b"geo": _geo_metadata(results),
            b"pandas": _pandas_metadata(results, [rd.schema for rd in readers]),
        }
    )
    nexts = [0] * len(results)
    with pq.ParquetWriter(path, schema) as writer:
        for window in range(len(results[0]["batches"])):
            tables = []
            for k, (r, rd) in enumerate(zip(results, readers, strict=True)):
                count = r["batches"][window]
                batches = [rd.get_batch(nexts[k] + j) for j in range(count)]
                nexts[k] += count
                if batches:
                    tables.append(conform(pa.Table.from_batches(batches), schema))
            if not tables:
                continue
            table = pa.concat_tables(tables)
            order = pa.compute.sort_indices(table, sort_keys=[("wg_row", "ascending")])
            writer.write_table(table.take(order))


def _pandas_metadata(results: list[dict[str, Any]], schemas: list[Any]) -> bytes:
    """Return the ``pandas`` metadata ``GeoDataFrame.to_parquet`` gives the whole table.

    A column is described as by the partitions that hold values in it (a column of
    ``None`` is Arrow null in a partition and typed in the others); where those
    describe it by other dtypes, as the dtype of the partitions' first rows
    concatenated as :func:`_merge` concatenates the partitions. The index is the
    whole layer's ``RangeIndex``.
    """
    import pyarrow as pa
    from geopandas.io.arrow import _geopandas_to_arrow

    merged = pd.concat([r["head"] for r in results], ignore_index=True)
    merged = gpd.GeoDataFrame(merged, geometry=results[0]["head"].geometry.name)
    # index=None as to_parquet: a RangeIndex described, not written
    meta = json.loads(_geopandas_to_arrow(merged, index=None).schema.metadata[b"pandas"])
    parts = [json.loads(r["pandas"]) for r in results]
    for i, column in enumerate(meta["columns"]):
        name = column["name"]
        typed = [
            p["columns"][i]
            for p, schema in zip(parts, schemas, strict=True)
            if not pa.types.is_null(schema.field(name).type)
        ]
        if typed and len({d["numpy_type"] for d in typed}) == 1:
            kinds = {d["pandas_type"] for d in typed}
            meta["columns"][i] = dict(
                typed[0], pandas_type=kinds.pop() if len(kinds) == 1 else "mixed"
            )
    n = sum(r["n"] for r in results)
    meta["index_columns"] = [{"kind": "range", "name": None, "start": 0, "stop": n, "step": 1}]
    return json.dumps(meta).encode("utf-8")
