"""Readers of what earlier commands wrote: the ``assess`` output and the ``site`` folder.

``map``, ``report``, ``site`` and the register read the files ``assess`` and ``site`` wrote
with these (one reader each), never by hand: :func:`read_assessed` (the impacts, zones,
tables, decisions and manifest of an ``assess`` output) and :func:`read_siting` (the tables
and layers of a ``site --out-dir`` folder, :data:`SITING_FILES`).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.errors import InputError
from wetland_gis.geometry.polygons import WKT_IN_COLUMN, measurable
from wetland_gis.io.csv_cells import restore_frame
from wetland_gis.io.layers import list_layers, read_layer
from wetland_gis.rules.trace import JSON_COLUMNS, TRACE_COLUMNS

#: The layers written beside ``impacts`` in the output GeoPackage of ``impacts`` (and of
#: ``assess`` run on construction limits, issue 35), drawn by the map.
SOURCE_LAYERS = ("footprint", "existing", "delineation", "parcels", "drainage")

#: The files ``run_site`` writes in its output folder.
SITING_FILES = {
    "ranking": "ranking.csv",
    "allocation": "allocation.csv",
    "unmet": "unmet.csv",
    "tier_gaps": "tier_gaps.csv",
    "layers": "siting.gpkg",
    "manifest": "siting_manifest.json",
}


#: What ``assess`` wrote: its file, or that file as :func:`read_assessed` returned it
#: (a caller that needs it too reads it once).
Assessed = str | Path | Mapping[str, Any]


def read_assessed(path: str | Path, *, trace: bool = True) -> dict[str, Any]:
    """Read what ``run_assess`` wrote: the impacts, zones, tables, decisions and manifest.

    Parameters
    ----------
    path : str or Path
        The classified GeoPackage (or other layer file) written by ``assess``.
    trace : bool, default True
        Read the decisions table; ``site`` does not need it (``trace`` is then None).

    Returns
    -------
    dict
        ``impacts`` (GeoDataFrame), ``zones`` (GeoDataFrame or None), ``projects`` and
        ``summary`` (DataFrame or None), ``trace`` (the ``decisions`` table: DataFrame of
        :data:`wetland_gis.rules.TRACE_COLUMNS` with ``verify`` lists and ``inputs``,
        ``parameters`` dicts, or None), ``manifest`` (dict or None) and
        ``footprint_layers`` (the layers the impacts were cut from, by name; issue 35).
    """
    path = Path(path)
    if not path.exists():
        raise InputError(
            f"{path} does not exist: run `wetland-gis assess IMPACTS --out {path}` first"
        )
    # a GeoPackage holds the impacts, zones and decisions as layers; its list is read once
    layers = list_layers(path) if path.suffix.lower() == ".gpkg" else None
    layer = "impacts" if layers is not None else None
    if layers is not None and "impacts" not in layers:
        raise InputError(
            f"{path} has no layer 'impacts': it is not an output of `wetland-gis assess`; run "
            f"`wetland-gis assess IMPACTS --out {path}` first"
        )
    impacts = read_layer(path, layer).gdf
    if WKT_IN_COLUMN in impacts:  # geometries that are not polygons were written as WKT
        impacts = _restore_non_polygons(impacts)
    zones = None
    if layers is not None and "shoreland_zones" in layers:
        zones = read_layer(path, "shoreland_zones").gdf
    stem = path.with_suffix("")

    def _csv(suffix: str) -> pd.DataFrame | None:
        return read_csv_table(Path(f"{stem}_{suffix}.csv"))

    def _json(suffix: str) -> dict[str, Any] | None:
        p = Path(f"{stem}_{suffix}.json")
        if not p.exists():
            return None
        try:
            return json.loads(p.read_text("utf-8"))
        except ValueError as err:
            raise InputError(
                f"cannot read {p}: not valid JSON ({err}); run `wetland-gis "
                f"assess` again to rewrite it"
            ) from err

    # the layers the impacts were cut from (`wetland-gis impacts`, issue 35), for the map
    sources = {n: read_layer(path, n).gdf for n in SOURCE_LAYERS if n in (layers or ())}
    return {
        "impacts": impacts,
        "footprint_layers": sources,
        "zones": zones,
        "projects": _csv("projects"),
        "summary": _csv("summary"),
        "trace": _read_trace(path, stem, layers) if trace else None,
        "manifest": _json("manifest"),
        "path": path,
    }


def _read_trace(path: Path, stem: Path, layers: list[str] | None) -> pd.DataFrame | None:
    """Read the trace of an ``assess`` output.

    The GeoPackage ``decisions`` table, else ``*_decisions.parquet`` (beside a GeoParquet
    file), else ``*_decisions.json``. ``layers`` are the layers of a GeoPackage ``path``
    (``None`` for another format).
    """
    table = None
    if layers is not None and "decisions" in layers:
        import pyogrio

        table = pyogrio.read_dataframe(path, layer="decisions", read_geometry=False)
    elif (pq_path := Path(f"{stem}_decisions.parquet")).exists():
        table = pd.read_parquet(pq_path)
    else:
        p = Path(f"{stem}_decisions.json")
        if p.exists():
            records = json.loads(p.read_text("utf-8"))
            if isinstance(records, list):
                table = pd.DataFrame(records)
    if table is None or not set(TRACE_COLUMNS) <= set(table.columns):
        return None
    table = table[list(TRACE_COLUMNS)].copy()
    for name in JSON_COLUMNS:
        table[name] = [json.loads(v) if isinstance(v, str) else v for v in table[name]]
    table["impact_id"] = table["impact_id"].fillna("").astype(str)
    return table


def read_csv_table(path: Path) -> pd.DataFrame | None:
    """Read a table written by a command; an empty file is an empty table."""
    if not path.exists():
        return None
    try:
        # the cells as written: write_csv quoted those that begin like a formula
        return restore_frame(pd.read_csv(path))
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (pd.errors.ParserError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read {path} as a CSV table: {err}") from err


def _restore_non_polygons(impacts: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Give rows written with a null geometry and their WKT their geometry back (for maps)."""
    wkt = impacts[WKT_IN_COLUMN]
    restore = (
        impacts.geometry.isna().to_numpy()
        & wkt.notna().to_numpy()
        & (wkt.astype(str).str.len() > 0).to_numpy()
    )
    if not restore.any():
        return impacts
    impacts = impacts.copy()
    geoms = np.asarray(impacts.geometry.values, dtype=object)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NaN in the WKT
        back = shapely.from_wkt(wkt[restore].astype(str).to_numpy(), on_invalid="ignore")
        if impacts.crs is not None:  # only what a map can draw: finite once in lon/lat
            lonlat = gpd.GeoSeries(back, crs=impacts.crs).to_crs("EPSG:4326").to_numpy()
            back[~measurable(back) | ~measurable(lonlat)] = None
    geoms[restore] = back
    impacts[impacts.geometry.name] = gpd.GeoSeries(geoms, index=impacts.index, crs=impacts.crs)
    return impacts


def read_siting(folder: str | Path) -> dict[str, Any]:
    """Read what ``run_site`` wrote in ``folder`` (missing files are ``None``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder written by `wetland-gis site --out-dir`")
    out: dict[str, Any] = {}
    for key in ("ranking", "allocation", "unmet", "tier_gaps"):
        p = folder / SITING_FILES[key]
        table = read_csv_table(p)
        out[key] = table if table is not None and len(table.columns) else None
    layers = folder / SITING_FILES["layers"]
    names = list_layers(layers) if layers.exists() and layers.stat().st_size else []
    for name in ("sites", "banks"):
        out[name] = read_layer(layers, name).gdf if name in names else None
    return out
