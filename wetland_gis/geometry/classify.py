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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.context_layers import (
    ANY_OVERLAP,
    AREA_COLUMNS,
    IMPACT_COLUMNS,
    LARGEST_OVERLAP,
    LAYER_SPECS,
    ContextLayers,
    LayerSpec,
)
from wetland_gis.errors import InputError
from wetland_gis.geometry.cleaning import ASSESSED, note_rows
from wetland_gis.geometry.overlay import (
    all_overlaps,
    check_same_projected_crs,
    covered_share,
    largest_overlap,
)
from wetland_gis.geometry.shoreland import (
    NEAREST_SEARCH_FT,
    impact_jurisdiction,
    shoreland_split,
)
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.units import SQFT_PER_ACRE, SQFT_PER_SQM

GEOMETRIC_COLUMNS: tuple[str, ...] = IMPACT_COLUMNS
"""The columns :func:`classify_impacts` adds: the areas, then each layer's columns in
registry order (:data:`~wetland_gis.context_layers.IMPACT_COLUMNS`)."""

OUTSIDE_COUNTIES = "outside the county layer"
"""How ``counties`` names the part of an impact outside every county."""


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
    missing_context : tuple of str
        The context missing for some impacts that a person must verify (no LGU polygon,
        no public water within the search radius, no fen layer): warned on stderr by
        ``assess`` and listed in the report's verify section (issue 30).
    county_names : Series or None
        The values the ``counties`` text is rendered from, as data: per impact (the index
        of ``gdf``) that straddles counties, the tuple of the counties it lies in, largest
        share first (the part outside every county is not a county); ``None`` for the
        others (their county is ``county``). Read by the joint application's table.
    """

    gdf: gpd.GeoDataFrame
    records: tuple[str, ...]
    missing_context: tuple[str, ...] = ()
    county_names: pd.Series | None = None


def _parts_listed(
    parts: pd.DataFrame, n: int, outside_sqft: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return each target's count of parts, each part's target, and the parts listed.

    A target's parts are listed (in ``counties``) where it has two or more, a part
    outside every county (``outside_sqft`` > 0) counting as one.
    """
    pos = parts["target_pos"].to_numpy(dtype=np.int64) if len(parts) else np.zeros(0, np.int64)
    count = np.bincount(pos, minlength=n) + (outside_sqft > 0)
    return count, pos, count[pos] > 1


def _counties_text(parts: pd.DataFrame, n: int, outside_sqft: np.ndarray) -> np.ndarray:
    """Return "Name: 1200.0 sq ft; Name: 300.0 sq ft" where a target has two or more parts.

    A part outside every county (``outside_sqft`` > 0) counts as a part and is listed
    last as "outside the county layer: 50.0 sq ft". Only the targets with two or more
    parts are formatted (a few straddlers among many impacts), without a row loop.
    """
    out = np.full(n, None, dtype=object)
    count, pos, keep = _parts_listed(parts, n, outside_sqft)
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


def _straddled_counties(parts: pd.DataFrame, n: int, outside_sqft: np.ndarray) -> np.ndarray:
    """Return per target the tuple of its counties where ``counties`` lists its parts.

    The targets :func:`_counties_text` writes a text for (two or more parts, a part
    outside every county counting as one) get the names of their counties in the same
    order, each once; the others get ``None``.
    """
    out = np.full(n, None, dtype=object)
    _, pos, keep = _parts_listed(parts, n, outside_sqft)
    if not keep.any():
        return out
    names: dict[int, dict[str, None]] = {}
    for p, name in zip(
        pos[keep].tolist(), parts["NAME"].to_numpy(dtype=object)[keep].astype(str), strict=True
    ):
        names.setdefault(p, {})[name] = None
    for p, found in names.items():
        out[p] = tuple(found)
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


_DTYPES: dict[str, str] = {
    c.name: c.dtype
    for c in (*AREA_COLUMNS, *(c for spec in LAYER_SPECS.values() for c in spec.columns))
}


@dataclass
class _Job:
    """What the classification rules share: the impacts, the context, the columns built."""

    sub: gpd.GeoDataFrame
    context: ContextLayers
    params: ParameterSet
    as_of: str | dt.date | None
    area_sqft: np.ndarray
    cols: dict[str, object]
    records: list[str]
    jurisdiction: pd.DataFrame | None = None
    missing: list[str] = field(default_factory=list)
    county_names: np.ndarray | None = None

    @property
    def n(self) -> int:
        """Return the number of impacts classified."""
        return len(self.sub)


def classify_impacts(
    impacts: gpd.GeoDataFrame,
    context: ContextLayers,
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
    unit_m = check_same_projected_crs(impacts, context.counties)
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
    area_sqft = shapely.area(np.asarray(sub.geometry.array)) * unit_m**2 * SQFT_PER_SQM
    cols: dict[str, object] = {"area_sqft": area_sqft, "area_acres": area_sqft / SQFT_PER_ACRE}
    job = _Job(sub, context, params, as_of, area_sqft, cols, records)
    done: set[str] = set()
    for spec in LAYER_SPECS.values():
        if spec.rule is not None and spec.rule in done:  # a named rule of several layers
            continue  # runs once, at the first of them
        done.add(spec.classifier)
        CLASSIFIERS[spec.classifier](spec, job)

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
    if job.n and context.get("calcareous_fens") is None:
        job.missing.append(
            "no calcareous_fens layer: whether an impact is in or near a calcareous fen "
            "(§ 103G.223, Minn. R. 8420.0935) was not screened; verify with the DNR"
        )
    straddled = pd.Series(np.full(n_all, None, dtype=object), index=impacts.index)
    if job.county_names is not None and len(positions):
        straddled.iloc[positions] = job.county_names
    return Classification(
        gpd.GeoDataFrame(out, geometry=geom, crs=impacts.crs),
        tuple(records),
        tuple(job.missing),
        county_names=straddled,
    )


def _county_key(counties: gpd.GeoDataFrame) -> Callable[[Any], Any]:
    """Return a mapping county name -> (pct_class, metro), to spot mixed straddles."""
    table = dict(
        zip(
            counties["NAME"],
            zip(counties["pct_class"], counties["metro"].astype(object), strict=True),
            strict=True,
        )
    )
    return lambda name: table.get(name)


# ------------------------------------------------------------------ classification rules


def _not_given(spec: LayerSpec, job: _Job) -> None:
    """Write the spec's columns empty and record that the layer was not given."""
    for column in spec.columns:
        job.cols[column.name] = _empty_column(column.dtype, job.n)
    names = ", ".join(c.name for c in spec.columns)
    note = f" ({spec.unknown_note})" if spec.unknown_note else ""
    job.records.append(f"{spec.name}: layer not given; {names} unknown{note}")


def _rule_largest_overlap(spec: LayerSpec, job: _Job) -> None:
    """Each column takes its field of the feature covering most of the impact."""
    layer = job.context.get(spec.name)
    if layer is None:
        _not_given(spec, job)
        return
    fields = [c.field for c in spec.columns if c.field is not None]
    joined = largest_overlap(job.sub, layer, fields)
    for column in spec.columns:
        values = joined[column.field]
        job.cols[column.name] = (
            values.astype("Int64").array
            if column.dtype == "Int64"
            else values.to_numpy(dtype=object)
        )
    overlaps = joined["n_overlaps"].to_numpy()
    note_rows(
        job.records,
        job.sub,
        np.flatnonzero(overlaps == 0),
        lambda rows: f"{spec.name}: {rows} lie outside every feature",
    )
    note_rows(
        job.records,
        job.sub,
        np.flatnonzero(overlaps > 1),
        lambda rows: (
            f"{spec.name}: {rows} straddle feature boundaries; the "
            "feature covering most of each was used"
        ),
    )


def _rule_any_overlap(spec: LayerSpec, job: _Job) -> None:
    """Mark the impacts touching a feature of the layer (intersects, distance 0).

    A ``boolean`` column says whether; a text column lists the touched features' ids
    (its ``field``), ``"; "``-joined in id order, ``""`` when it touches none.
    """
    layer = job.context.get(spec.name)
    if layer is None:
        _not_given(spec, job)
        return
    n = job.n
    tpos = spos = np.empty(0, dtype=np.int64)
    if n and len(layer):
        tpos, spos = layer.sindex.query(np.asarray(job.sub.geometry.array), predicate="intersects")
    for column in spec.columns:
        if column.dtype == "boolean":
            hit = np.zeros(n, dtype=bool)
            hit[tpos] = True
            job.cols[column.name] = pd.array(hit, dtype="boolean")
            continue
        out = np.full(n, "", dtype=object)
        if len(tpos):
            ids = layer[column.field].astype(str).to_numpy()[spos]
            pairs = pd.DataFrame({"t": tpos, "id": ids}).drop_duplicates().sort_values(["t", "id"])
            joined = pairs.groupby("t")["id"].agg("; ".join)
            out[joined.index.to_numpy()] = joined.to_numpy()
        job.cols[column.name] = out


def _rule_county(spec: LayerSpec, job: _Job) -> None:
    """County (largest overlap), every county straddled, metro flag, percentage class."""
    sub, n, area_sqft, records, cols = job.sub, job.n, job.area_sqft, job.records, job.cols
    counties = job.context.counties
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
    job.county_names = _straddled_counties(parts, n, outside_sqft)
    cols["metro"] = best["metro"].astype("boolean").array
    pct_class = best["pct_class"].to_numpy(dtype=object).copy()
    pct_source = best["pct_source"].to_numpy(dtype=object).copy()
    overlaps = best["n_overlaps"].to_numpy()
    note_rows(
        records,
        sub,
        np.flatnonzero(overlaps == 0),
        lambda rows: (
            f"county: {rows} lie outside every county of the county layer; "
            "county, metro and percentage class are unknown"
        ),
    )
    note_rows(
        records,
        sub,
        np.flatnonzero(outside_sqft > 0),
        lambda rows: (
            f"county: {rows} lie partly outside every county of the county "
            f"layer (outside Minnesota?); the part outside is listed in 'counties' as "
            f"{OUTSIDE_COUNTIES!r} and is counted in the area and the decisions, though the "
            "WCA applies in Minnesota only: check the location, or clip the impact"
        ),
    )
    if note_rows(
        records,
        sub,
        np.flatnonzero(overlaps > 1),
        lambda rows: (
            f"county: {rows} straddle county lines; each takes the county "
            "covering most of it (all parts are listed in 'counties')"
        ),
    ):
        # only the straddlers can mix kinds: their parts alone are looked up
        pos = parts["target_pos"].to_numpy()
        mixed = parts.loc[overlaps[pos] > 1]
        keys = mixed["NAME"].map(_county_key(counties)).astype(str)
        kinds = keys.groupby(mixed["target_pos"].to_numpy()).nunique()
        note_rows(
            records,
            sub,
            kinds.index.to_numpy()[kinds.to_numpy() > 1],
            lambda rows: (
                f"county: {rows} straddle counties of different "
                "percentage class or metro status: verify which part governs"
            ),
        )
    cols["pct_class"] = pct_class
    cols["pct_source"] = pct_source


def _rule_percentage_override(spec: LayerSpec, job: _Job) -> None:
    """Take the class of a reclassified area covering more of the impact than the rest."""
    sub, n, records = job.sub, job.n, job.records
    pct_class = np.asarray(job.cols["pct_class"], dtype=object)
    pct_source = np.asarray(job.cols["pct_source"], dtype=object)
    overrides = job.context.get(spec.name)
    if overrides is not None and n:
        ov = largest_overlap(sub, overrides, ["pct_class", "citation"])
        covered = np.nan_to_num(covered_share(sub, overrides).to_numpy())
        share = np.nan_to_num(ov["overlap_share"].to_numpy(dtype=float))
        # the override feature covering most of the impact covers more than the rest
        wins = (share > 0) & (share >= 1.0 - covered)
        pct_class[wins] = ov["pct_class"].to_numpy(dtype=object)[wins]
        pct_source[wins] = ov["citation"].to_numpy(dtype=object)[wins]
        note_rows(
            records,
            sub,
            np.flatnonzero((covered > 0) & ~wins),
            lambda rows: (
                f"percentage_overrides: {rows} lie partly in a "
                "reclassified area that covers less of them than the rest; the county class "
                "was kept: verify"
            ),
        )
    job.cols["pct_class"] = pct_class
    job.cols["pct_source"] = pct_source


def _rule_jurisdiction(spec: LayerSpec, job: _Job) -> None:
    """Incorporated (most of the impact in a city) and the local government unit."""
    job.jurisdiction = impact_jurisdiction(job.sub, job.context)
    if job.context.get("incorporated_areas") is None:
        job.records.append("incorporated_areas: layer not given; incorporated unknown")
    job.cols["incorporated"] = job.jurisdiction["incorporated"].array


def _rule_shoreland(spec: LayerSpec, job: _Job) -> None:
    """Shoreland split by distance to the public waters (:func:`shoreland_split`)."""
    if job.jurisdiction is None:
        job.jurisdiction = impact_jurisdiction(job.sub, job.context)
    cols = job.cols
    split = shoreland_split(
        job.sub, job.context, params=job.params, as_of=job.as_of, jurisdiction=job.jurisdiction
    )
    job.records.extend(split.records)
    for f in ("sqft_setback", "sqft_protection", "sqft_outside", "zone", "nearest_pw"):
        cols[f] = split.frame[f].to_numpy()
    cols["nearest_pw_ft"] = split.frame["nearest_pw_ft"].to_numpy(dtype=float)
    _missing_shoreland_context(job, split.frame)
    setback = np.asarray(cols["sqft_setback"], dtype=float)
    if not np.isnan(setback).all():
        # the three parts sum to the area exactly
        cols["sqft_outside"] = np.maximum(
            job.area_sqft - setback - np.asarray(cols["sqft_protection"], dtype=float), 0.0
        )


def _missing_shoreland_context(job: _Job, frame: pd.DataFrame) -> None:
    """Note the impacts with no LGU polygon over them, or no public water within a mile."""
    if not job.n:
        return
    if job.context.get("lgus") is None:
        job.missing.append(
            "no lgus layer: no impact has an LGU polygon over it; every public water was "
            "counted as under an approved shoreland ordinance (§ 103G.005, subd. 15f(1)): verify"
        )
    else:
        note_rows(
            job.missing,
            job.sub,
            np.flatnonzero(frame["lgu_name"].isna().to_numpy()),
            lambda rows: (
                f"no LGU polygon over {rows}: their shoreland ordinance is unknown; every "
                "public water was counted as under an approved one (§ 103G.005, subd. "
                "15f(1)): verify"
            ),
        )
    waters = any(job.context.get(n) is not None for n in _WATERS)
    if not waters:
        job.missing.append(
            "no public_water_basins or public_watercourses layer: the shoreland zones and "
            "the nearest public water are unknown; verify with the DNR public waters inventory"
        )
        return
    note_rows(
        job.missing,
        job.sub,
        np.flatnonzero(np.isnan(frame["nearest_pw_ft"].to_numpy(dtype=float))),
        lambda rows: (
            f"no public water within {NEAREST_SEARCH_FT:,.0f} ft (one mile) of {rows}: "
            "screened as outside every shoreland zone; verify against the DNR public "
            "waters inventory"
        ),
    )


_WATERS = ("public_water_basins", "public_watercourses")

CLASSIFIERS: Mapping[str, Callable[[LayerSpec, _Job], None]] = MappingProxyType(
    {
        LARGEST_OVERLAP: _rule_largest_overlap,
        ANY_OVERLAP: _rule_any_overlap,
        "county": _rule_county,
        "percentage_override": _rule_percentage_override,
        "jurisdiction": _rule_jurisdiction,
        "shoreland": _rule_shoreland,
    }
)
"""Classification rules by name (:attr:`~wetland_gis.context_layers.LayerSpec.classifier`)."""
