"""Geometric classification of impact polygons: the plain values the rules core needs.

:func:`classify_impacts` adds to each assessed impact its exact area, county (and every
county it straddles), metropolitan flag, percentage-area class and where it comes from,
watersheds, bank service area, incorporated status, calcareous fen flag, the public
drainage systems it touches and shoreland split (:mod:`wetland_gis.geometry.shoreland`).
It makes no legal decision: the rules core takes these values.

Every attribute join is by largest overlap (:func:`~wetland_gis.geometry.overlay.largest_overlap`),
so an impact straddling a boundary takes the value of the part that covers most of it,
and a record says which impacts straddle.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.errors import InputError
from wetland_gis.geometry.cleaning import ASSESSED
from wetland_gis.geometry.overlay import (
    all_overlaps,
    check_same_projected_crs,
    covered_share,
    largest_overlap,
)
from wetland_gis.geometry.shoreland import impact_jurisdiction, shoreland_split
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.units import SQFT_PER_ACRE, SQFT_PER_SQM

if TYPE_CHECKING:
    from wetland_gis.context import Context

__all__ = ["GEOMETRIC_COLUMNS", "ASSESSED", "Classification", "classify_impacts"]

GEOMETRIC_COLUMNS = (
    "area_sqft",
    "area_acres",
    "county",
    "counties",
    "metro",
    "pct_class",
    "pct_source",
    "major",
    "major_name",
    "minor",
    "bsa",
    "incorporated",
    "calcareous_fen",
    "drainage_system",
    "sqft_setback",
    "sqft_protection",
    "sqft_outside",
    "zone",
    "nearest_pw",
    "nearest_pw_ft",
)
"""The columns :func:`classify_impacts` adds, in the order of ``docs/data_schema.md``."""

OUTSIDE_COUNTIES = "outside the county layer"
"""How ``counties`` names the part of an impact outside every county."""

_OPTIONAL_JOINS = (
    ("major_watersheds", ("major", "major_name")),
    ("minor_watersheds", ("minor",)),
    ("bank_service_areas", ("bsa",)),
)


@dataclass(frozen=True)
class Classification:
    """Result of :func:`classify_impacts`.

    Attributes
    ----------
    gdf : GeoDataFrame
        The impacts with :data:`GEOMETRIC_COLUMNS` added after their own columns.
    records : tuple of str
        What could not be known or was assumed (missing layers, straddled boundaries,
        the shoreland assumptions), for the run manifest and the report.
    """

    gdf: gpd.GeoDataFrame
    records: tuple[str, ...]


def _label(frame: pd.DataFrame, positions: np.ndarray) -> str:
    col = frame["wg_row"] if "wg_row" in frame else pd.Series(frame.index)
    values = [str(v) for v in col.to_numpy()[positions][:10]]
    more = "" if len(positions) <= 10 else f" and {len(positions) - 10} more"
    return f"{'wg_row' if 'wg_row' in frame else 'index'} {', '.join(values)}{more}"


def _counties_text(parts: pd.DataFrame, n: int, outside_sqft: np.ndarray) -> np.ndarray:
    """Return "Name: 1200.0 sq ft; Name: 300.0 sq ft" where a target has two or more parts.

    A part outside every county (``outside_sqft`` > 0) counts as a part and is listed
    last as "outside the county layer: 50.0 sq ft". Only the targets with two or more
    parts are formatted (a few straddlers among many impacts), without a row loop.
    """
    out = np.full(n, None, dtype=object)
    if len(parts) == 0:
        return out
    pos = parts["target_pos"].to_numpy(dtype=np.int64)
    count = np.bincount(pos, minlength=n) + (outside_sqft > 0)
    keep = count[pos] > 1
    if not keep.any():
        return out
    pos = pos[keep]
    text = (
        parts["NAME"].to_numpy(dtype=object)[keep].astype(str)
        + ": "
        + np.char.mod("%.1f", parts["overlap_sqft"].to_numpy(dtype=float)[keep])
        + " sq ft"
    )
    extra = np.flatnonzero((count > 1) & (outside_sqft > 0))
    pos = np.concatenate([pos, extra])
    text = np.concatenate(
        [text, f"{OUTSIDE_COUNTIES}: " + np.char.mod("%.1f", outside_sqft[extra]) + " sq ft"]
    )
    # parts come ordered by target, the outside part goes last within its target
    order = np.argsort(pos, kind="stable")
    joined = pd.Series(text[order]).groupby(pos[order], sort=False).agg("; ".join)
    out[joined.index.to_numpy()] = joined.to_numpy(dtype=object)
    return out


def _best_of(parts: pd.DataFrame, fields: list[str], n: int) -> pd.DataFrame:
    """Return the :func:`largest_overlap` answer from the rows of :func:`all_overlaps`.

    ``all_overlaps`` orders each target's rows largest overlap first, ties in layer
    order, the rule of ``largest_overlap``: its first row per target is the answer, so
    one index query serves both.
    """
    pos = parts["target_pos"].to_numpy(dtype=np.int64)
    first = np.unique(pos, return_index=True)[1] if len(pos) else np.empty(0, dtype=int)
    out = pd.DataFrame(index=np.arange(n))
    for f in fields:
        col = parts[f].iloc[first]
        col.index = pos[first]
        col = col.reindex(np.arange(n))
        out[f] = np.where(col.notna(), col.to_numpy(dtype=object), None)
    out["n_overlaps"] = np.bincount(pos, minlength=n) if n else np.zeros(0, dtype=int)
    return out


def _empty_column(dtype: str, n: int) -> pd.api.extensions.ExtensionArray | np.ndarray:
    if dtype == "float":
        return np.full(n, np.nan)
    if dtype == "boolean":
        return pd.array([pd.NA] * n, dtype="boolean")
    if dtype == "Int64":
        return pd.array([pd.NA] * n, dtype="Int64")
    return np.full(n, None, dtype=object)


_DTYPES = {
    "area_sqft": "float",
    "area_acres": "float",
    "metro": "boolean",
    "major": "Int64",
    "bsa": "Int64",
    "incorporated": "boolean",
    "calcareous_fen": "boolean",
    "sqft_setback": "float",
    "sqft_protection": "float",
    "sqft_outside": "float",
    "nearest_pw_ft": "float",
}


def classify_impacts(
    impacts: gpd.GeoDataFrame,
    context: Context,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Classification:
    """Add the geometric columns of ``docs/data_schema.md`` to the impacts.

    Parameters
    ----------
    impacts : GeoDataFrame
        Cleaned impact polygons in EPSG:26915, with ``wg_row`` and ``status``. Rows whose
        ``status`` is not ``"assessed"`` pass through with the new columns empty.
    context : Context
        The reference layers (:func:`wetland_gis.context.load_context`).
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the parameters are read for (default today).

    Returns
    -------
    Classification
        ``gdf``: the input columns, then :data:`GEOMETRIC_COLUMNS`:

        - ``area_sqft``, ``area_acres``: exact area (international foot; 43,560 sq ft an acre);
        - ``county``: the county covering most of the impact; ``counties``:
          ``"Wright: 1200.0 sq ft; Hennepin: 300.0 sq ft"`` when it straddles, with
          ``"outside the county layer: 50.0 sq ft"`` when part of it is outside every
          county (recorded), else empty;
        - ``metro``: the county is in the 11-county metropolitan area;
        - ``pct_class``, ``pct_source``: the county's class (source
          ``"county (Minn. R. 8420.0117, subp. 1)"``), or the class and citation of a
          ``percentage_overrides`` feature when that feature covers more of the impact than
          the part outside every override;
        - ``major``, ``major_name``, ``minor``, ``bsa``: largest overlap;
        - ``incorporated``: most of the impact is inside a city;
        - ``calcareous_fen``: the impact intersects a calcareous fen;
        - ``drainage_system``: the ``system_id`` of every public drainage system the
          impact touches (any overlap, distance 0), ``"; "``-joined in id order; ``""``
          when it touches none; empty (None) when the layer was not given (recorded);
        - ``sqft_setback``, ``sqft_protection``, ``sqft_outside``, ``zone``,
          ``nearest_pw``, ``nearest_pw_ft``: see
          :func:`~wetland_gis.geometry.shoreland.shoreland_split`.

        A column fed by a missing optional layer is empty and a record says so.
        ``records``: those notes and the shoreland assumptions.

    Raises
    ------
    InputError
        When the impacts lack ``status`` or are not in the context CRS.
    """
    params = params if params is not None else default_parameters()
    if "status" not in impacts.columns:
        raise InputError(
            "impacts have no 'status' column; read them with the package's input reader, "
            "or add status='assessed' to every row to classify"
        )
    check_same_projected_crs(impacts, context.counties)
    for name in GEOMETRIC_COLUMNS:
        if name in impacts.columns:
            raise InputError(
                f"impacts already have a column {name!r}, which classify_impacts writes; "
                "rename or drop it first"
            )
    records: list[str] = []
    n_all = len(impacts)
    assessed = (impacts["status"] == ASSESSED).to_numpy()
    sub = impacts.loc[assessed]
    n = len(sub)
    cols: dict[str, object] = {}

    # area
    unit_m = check_same_projected_crs(impacts, context.counties)
    area_sqft = shapely.area(np.asarray(sub.geometry.array)) * unit_m**2 * SQFT_PER_SQM
    cols["area_sqft"] = area_sqft
    cols["area_acres"] = area_sqft / SQFT_PER_ACRE

    # county, metro, percentage class
    counties = context.counties
    county_fields = ["NAME", "pct_class", "pct_source", "metro"]
    parts = all_overlaps(sub, counties, county_fields)
    best = _best_of(parts, county_fields, n)
    cols["county"] = best["NAME"].to_numpy(dtype=object)
    in_counties = (
        np.bincount(
            parts["target_pos"].to_numpy(dtype=int), parts["overlap_sqft"].to_numpy(), minlength=n
        )
        if len(parts)
        else np.zeros(n)
    )
    outside_sqft = np.where(
        best["n_overlaps"].to_numpy() > 0, np.round(area_sqft - in_counties, 1), 0.0
    )
    cols["counties"] = _counties_text(parts, n, outside_sqft)
    cols["metro"] = best["metro"].astype("boolean").array
    pct_class = best["pct_class"].to_numpy(dtype=object).copy()
    pct_source = best["pct_source"].to_numpy(dtype=object).copy()
    outside = np.flatnonzero(best["n_overlaps"].to_numpy() == 0)
    if len(outside):
        records.append(
            f"county: {_label(sub, outside)} lie outside every county of the county layer; "
            "county, metro and percentage class are unknown"
        )
    partly = np.flatnonzero(outside_sqft > 0)
    if len(partly):
        records.append(
            f"county: {_label(sub, partly)} lie partly outside every county of the county "
            f"layer (outside Minnesota?); the part outside is listed in 'counties' as "
            f"{OUTSIDE_COUNTIES!r} and is counted in the area and the decisions, though the "
            "WCA applies in Minnesota only: check the location, or clip the impact"
        )
    straddle = np.flatnonzero(best["n_overlaps"].to_numpy() > 1)
    if len(straddle):
        records.append(
            f"county: {_label(sub, straddle)} straddle county lines; each takes the county "
            "covering most of it (all parts are listed in 'counties')"
        )
        keys = parts["NAME"].map(_county_key(counties)).astype(str)
        kinds = keys.groupby(parts["target_pos"].to_numpy()).nunique()
        mixed = kinds.index.to_numpy()[kinds.to_numpy() > 1]
        if len(mixed):
            records.append(
                f"county: {_label(sub, np.asarray(mixed))} straddle counties of different "
                "percentage class or metro status: verify which part governs"
            )
    overrides = context.get("percentage_overrides")
    if overrides is not None and n:
        ov = largest_overlap(sub, overrides, ["pct_class", "citation"])
        covered = np.nan_to_num(covered_share(sub, overrides).to_numpy())
        share = np.nan_to_num(ov["overlap_share"].to_numpy(dtype=float))
        # the override feature covering most of the impact covers more than the rest
        wins = (share > 0) & (share >= 1.0 - covered)
        pct_class[wins] = ov["pct_class"].to_numpy(dtype=object)[wins]
        pct_source[wins] = ov["citation"].to_numpy(dtype=object)[wins]
        partly = (covered > 0) & ~wins
        if partly.any():
            records.append(
                f"percentage_overrides: {_label(sub, np.flatnonzero(partly))} lie partly in a "
                "reclassified area that covers less of them than the rest; the county class "
                "was kept: verify"
            )
    cols["pct_class"] = pct_class
    cols["pct_source"] = pct_source

    # watersheds and bank service areas
    for layer_name, fields in _OPTIONAL_JOINS:
        layer = context.get(layer_name)
        if layer is None:
            for f in fields:
                cols[f] = _empty_column(_DTYPES.get(f, "object"), n)
            records.append(f"{layer_name}: layer not given; {', '.join(fields)} unknown")
            continue
        joined = largest_overlap(sub, layer, list(fields))
        for f in fields:
            values = joined[f]
            cols[f] = (
                values.astype("Int64").array
                if _DTYPES.get(f) == "Int64"
                else values.to_numpy(dtype=object)
            )
        none = np.flatnonzero(joined["n_overlaps"].to_numpy() == 0)
        if len(none):
            records.append(f"{layer_name}: {_label(sub, none)} lie outside every feature")
        many = np.flatnonzero(joined["n_overlaps"].to_numpy() > 1)
        if len(many):
            records.append(
                f"{layer_name}: {_label(sub, many)} straddle feature boundaries; the "
                "feature covering most of each was used"
            )

    # jurisdiction (incorporated, LGU) and calcareous fens
    juris = impact_jurisdiction(sub, context)
    if context.get("incorporated_areas") is None:
        records.append("incorporated_areas: layer not given; incorporated unknown")
    cols["incorporated"] = juris["incorporated"].array
    fens = context.get("calcareous_fens")
    if fens is None:
        cols["calcareous_fen"] = _empty_column("boolean", n)
        records.append("calcareous_fens: layer not given; calcareous_fen unknown")
    else:
        hit = np.zeros(n, dtype=bool)
        if n and len(fens):
            tpos, _ = fens.sindex.query(np.asarray(sub.geometry.array), predicate="intersects")
            hit[tpos] = True
        cols["calcareous_fen"] = pd.array(hit, dtype="boolean")
    cols["drainage_system"] = _drainage_systems(sub, context, records)

    # shoreland
    split = shoreland_split(sub, context, params=params, as_of=as_of, jurisdiction=juris)
    records.extend(split.records)
    for f in ("sqft_setback", "sqft_protection", "sqft_outside", "zone", "nearest_pw"):
        cols[f] = split.frame[f].to_numpy()
    cols["nearest_pw_ft"] = split.frame["nearest_pw_ft"].to_numpy(dtype=float)
    if not np.isnan(cols["sqft_setback"]).all():
        # the three parts sum to the area exactly
        cols["sqft_outside"] = np.maximum(
            area_sqft - cols["sqft_setback"] - cols["sqft_protection"], 0.0
        )

    # assemble: assessed rows get the values, the others stay empty
    out = impacts.copy()
    positions = np.flatnonzero(assessed)
    for name in GEOMETRIC_COLUMNS:
        dtype = _DTYPES.get(name, "object")
        full = pd.Series(_empty_column(dtype, n_all), index=impacts.index)
        values = pd.Series(cols[name], index=sub.index)
        if len(positions):
            full.iloc[positions] = values.to_numpy()
        out[name] = full
    geom = out.geometry.name
    order = [c for c in impacts.columns if c != geom] + list(GEOMETRIC_COLUMNS) + [geom]
    out = out[order]
    return Classification(gpd.GeoDataFrame(out, geometry=geom, crs=impacts.crs), tuple(records))


def _drainage_systems(sub: gpd.GeoDataFrame, context: Context, records: list[str]) -> np.ndarray:
    """Return per impact the ids of the public drainage systems it touches (distance 0).

    ``""`` where it touches none; None for every impact when the layer is absent (recorded).
    """
    n = len(sub)
    systems = context.get("drainage_systems")
    if systems is None:
        records.append(
            "drainage_systems: layer not given; drainage_system unknown (whether an impact is "
            "on a public drainage system, Minn. Stat. § 103G.2241, subd. 2, was not screened)"
        )
        return np.full(n, None, dtype=object)
    out = np.full(n, "", dtype=object)
    if not n or not len(systems):
        return out
    tpos, spos = systems.sindex.query(np.asarray(sub.geometry.array), predicate="intersects")
    if len(tpos):
        ids = systems["system_id"].astype(str).to_numpy()[spos]
        pairs = pd.DataFrame({"t": tpos, "id": ids}).drop_duplicates().sort_values(["t", "id"])
        joined = pairs.groupby("t")["id"].agg("; ".join)
        out[joined.index.to_numpy()] = joined.to_numpy()
    return out


def _county_key(counties: gpd.GeoDataFrame):
    """Return a mapping county name -> (pct_class, metro), to spot mixed straddles."""
    table = dict(
        zip(
            counties["NAME"],
            zip(counties["pct_class"], counties["metro"].astype(object), strict=True),
            strict=True,
        )
    )
    return lambda name: table.get(name)
