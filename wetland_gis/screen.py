"""Screen a whole wetland inventory: each wetland's classification and its de minimis amount.

``wetland-gis screen`` answers, for every polygon of an NWI-style inventory (columns
``attribute`` with the Cowardin code and/or ``circ39_class`` with the Circular 39 type),
"where could a de minimis fill apply, and how large could it be?": the wetland's type
(given, or inferred from the Cowardin code and marked for verification), its county,
percentage-area class, metro status, watersheds and shoreland split (the same
classification as ``assess``), and the de minimis amount of Minn. Stat. § 103G.2241,
subd. 9 that a fill in each zone of the wetland would get
(:func:`wetland_gis.rules.de_minimis_allowance`).

It screens, it does not decide: the amount is that of a fill *in* the wetland, without
the project's other impacts (subd. 9(e)), without the increases of subd. 9(b) and 9(c),
and without the public waters wetland test (§ 103G.005, subd. 15a), which needs the
wetland's whole size as delineated; each row says so in ``verify``. Rows whose type
cannot be read (e.g. a lake's ``L1UBH``) are kept, "not assessed", with the reason.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.context import Context, as_context
from wetland_gis.enums import PercentageArea, ShorelandZone, StatusCode, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.geometry.classify import classify_impacts
from wetland_gis.geometry.cleaning import ASSESSED, NOT_ASSESSED
from wetland_gis.io.field_map import record_field_map
from wetland_gis.io.fields import resolve_fields
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.manifest import Manifest
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import de_minimis_allowance

if TYPE_CHECKING:
    from wetland_gis.assess import AssessRequest

SCREEN_COLUMNS = (
    "dm_setback_sqft",
    "dm_protection_sqft",
    "dm_outside_sqft",
    "de_minimis_sqft",
    "dm_zone",
    "dm_type",
    "dm_citations",
    "verify",
)
"""Columns :func:`screen` adds after the type and geometric columns."""

_ZONES = (
    (ShorelandZone.BUILDING_SETBACK, "sqft_setback", "dm_setback_sqft"),
    (ShorelandZone.PROTECTION, "sqft_protection", "dm_protection_sqft"),
    (ShorelandZone.OUTSIDE, "sqft_outside", "dm_outside_sqft"),
)
CHUNK = 100_000
"""Wetlands classified at a time (a progress step; the order is spatial)."""

_STANDING_VERIFY = (
    "screening amount for a fill in this wetland alone: other impacts of the project "
    "count against it (§ 103G.2241, subd. 9(e)); the subd. 9(b)/(c) increases are not "
    "claimed; whether it is a public waters wetland (§ 103G.005, subd. 15a) is not "
    "screened; a delineation decides the type and boundary"
)


@dataclass
class Screening:
    """Result of :func:`screen`.

    Attributes
    ----------
    wetlands : GeoDataFrame
        One row per input polygon (EPSG:26915): input columns, ``wg_row``, ``status``,
        ``status_reason``, ``repairs``, the type columns, the geometric columns of
        ``docs/data_schema.md`` and :data:`SCREEN_COLUMNS`.
    manifest : Manifest
        Inputs, hashes, parameters, as-of date, repairs and assumptions.
    """

    wetlands: gpd.GeoDataFrame
    manifest: Manifest

    def write(self, out: str | Path, *, overwrite: bool = False) -> list[Path]:
        """Write GeoParquet ``out``, a GeoPackage beside it and the manifest; return the paths.

        Every file is staged and moved into place when all are complete; in an existing
        GeoPackage only the ``wetlands`` layer is replaced (issue 9).

        Parameters
        ----------
        out : str or Path
            The GeoParquet file (``.parquet``); the GeoPackage gets the same stem.
        overwrite : bool
            Replace existing files that an earlier ``screen`` did not write there.

        Returns
        -------
        list of Path
        """
        out = Path(out).with_suffix(".parquet")
        gpkg = out.with_suffix(".gpkg")
        frame = self.wetlands.copy()
        for col in frame.columns:
            if col != frame.geometry.name and frame[col].dtype == object:
                frame[col] = frame[col].map(lambda v: v if v is None else str(v))
        manifest = out.with_name(f"{out.stem}_manifest.json")
        with SafeWriter.for_run("screen", self.manifest, manifest, overwrite=overwrite) as w:
            w.file(lambda staged: self.wetlands.to_parquet(staged), out)
            w.layer(frame, gpkg, layer="wetlands")
            w.manifest(self.manifest, manifest)
        return list(w.written)


def _bar(total: int, desc: str, enabled: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="wetlands", disable=not enabled, leave=False)


#: The keywords of :func:`wetland_gis.assess` that :func:`screen` reads (the fields of
#: :class:`~wetland_gis.assess.AssessRequest` that say what is read and when; the others
#: decide projects, which a screening does not).
SCREEN_KEYWORDS = ("layer", "as_of", "fields", "assume_crs", "override_crs", "params")


def screen(
    wetlands: str | Path | gpd.GeoDataFrame,
    context: str | Path | Context | None = None,
    *,
    progress_bar: bool = True,
    **keywords: Any,
) -> Screening:
    """Classify every wetland of an inventory and give the de minimis amount of each zone.

    Parameters
    ----------
    wetlands : str, Path or GeoDataFrame
        The inventory (shapefile, GeoPackage, GeoJSON, GeoParquet or a frame with a CRS).
    context : str, Path or Context, optional
        Context layers (default: the shipped counties only).
    progress_bar : bool, default True
        tqdm bars on the classification and the amounts.
    **keywords
        ``layer``, ``as_of``, ``assume_crs``, ``override_crs`` and ``params``, as
        :func:`wetland_gis.assess` (:data:`SCREEN_KEYWORDS`); ``fields``: the
        ``wetland_type``, ``cowardin`` and ``cedar_tamarack`` column names (default
        ``circ39_class`` (or ``circ39``, ...) and ``attribute``).

    Returns
    -------
    Screening
        ``de_minimis_sqft`` is the smallest amount over the zones the wetland reaches
        (the one a fill anywhere in it can rely on), ``dm_zone`` that zone; the
        ``dm_*_sqft`` columns give the amount in each zone the wetland reaches.

    Raises
    ------
    TypeError
        For a keyword of :func:`wetland_gis.assess` that a screening does not read.
    """
    from wetland_gis.assess import clean_and_type, read_impacts, record_context

    request = _request(wetlands, context, keywords)
    params, day = request.params, request.as_of
    manifest = Manifest(
        command="screen",
        as_of=day.isoformat(),
        parameters_source=params.source,
        parameters_sha256=params.sha256,
    )
    gdf, source = read_impacts(
        wetlands, request.layer, request.assume_crs, manifest, request.override_crs
    )
    manifest.inputs = [replace(rec, role="wetlands") for rec in manifest.inputs]
    record_field_map(request.fields, manifest)
    index = gdf.index
    gdf = gdf.reset_index(drop=True)
    field_map = resolve_fields(gdf, **dict(request.fields or {}))
    manifest.add_records(field_map.notes)
    gdf = clean_and_type(gdf, field_map, source, manifest)
    ctx = as_context(context, params=params, as_of=day)
    record_context(ctx, manifest)
    out = _classify(gdf, ctx, params, day, manifest, progress_bar)
    _amounts(out, params, day, progress_bar)
    out.index = index
    manifest.add_records(
        [
            f"screened {int((out['status'] == ASSESSED).sum())} of {len(out)} wetlands; "
            + _STANDING_VERIFY
        ]
    )
    return Screening(out, manifest)


def _request(
    wetlands: str | Path | gpd.GeoDataFrame, context: Any, keywords: dict[str, Any]
) -> AssessRequest:
    """Return the request of a screening: the :data:`SCREEN_KEYWORDS` given, the rest default."""
    from wetland_gis.assess import AssessRequest

    unread = sorted(set(keywords) - set(SCREEN_KEYWORDS))
    if unread:
        raise TypeError(
            f"screen() got keyword(s) it does not read: {', '.join(unread)}; a screening "
            f"reads {', '.join(SCREEN_KEYWORDS)} (it decides no project)"
        )
    return AssessRequest.of(wetlands, context, **keywords)


def _classify(
    gdf: gpd.GeoDataFrame,
    ctx: Context,
    params: ParameterSet,
    day: dt.date,
    manifest: Manifest,
    progress_bar: bool,
) -> gpd.GeoDataFrame:
    """Classify in spatial chunks (a progress step each); rows keep their input order.

    A wetland outside the context's counties is not assessed, with the reason.
    """
    order = _spatial_order(gdf)
    pieces = []
    bar = _bar(len(gdf), "classify", progress_bar)
    for start in range(0, max(len(gdf), 1), CHUNK):
        take = order[start : start + CHUNK]
        got = classify_impacts(gdf.iloc[take], ctx, params=params, as_of=day)
        manifest.add_records(got.records)
        pieces.append(got.gdf)
        bar.update(len(take))
    bar.close()
    out = pd.concat(pieces).sort_index() if pieces else gdf
    out = gpd.GeoDataFrame(out, geometry=gdf.geometry.name, crs=gdf.crs)
    unplaced = (out["status"] == ASSESSED) & out[["pct_class", "metro"]].isna().any(axis=1)
    out.loc[unplaced, "status_reason"] = (
        "cannot classify: outside the county layer of the context; check its location"
    )
    out.loc[unplaced, "status_code"] = StatusCode.OUTSIDE_COUNTIES.value
    out.loc[unplaced, "status"] = NOT_ASSESSED
    return out


def _spatial_order(gdf: gpd.GeoDataFrame) -> np.ndarray:
    """Return row positions in Hilbert order of their centres (empty geometries last)."""
    geoms = gdf.geometry
    ok = ~(geoms.isna() | geoms.is_empty).to_numpy()
    key = np.full(len(gdf), np.iinfo(np.int64).max)
    if ok.any():
        key[ok] = geoms[ok].envelope.centroid.hilbert_distance().to_numpy()
    return np.argsort(key, kind="stable")


class _Allowances:
    """The de minimis amount of each (type, zone, class, metro, cedar), asked once each."""

    def __init__(self, params: ParameterSet, day: dt.date) -> None:
        self.params, self.day = params, day
        self.cache: dict[tuple, tuple[float | None, str, str | None]] = {}

    def __call__(
        self, t: int, zone: ShorelandZone, pct: str, metro: bool, cedar: bool
    ) -> tuple[float | None, str, str | None]:
        """Return the amount, its citations and the rules' note when there is none."""
        key = (t, zone, pct, metro, cedar)
        if key not in self.cache:
            try:
                d = de_minimis_allowance(
                    WetlandType(t),
                    zone,
                    PercentageArea(pct),
                    metro,
                    cedar_tamarack=cedar,
                    params=self.params,
                    as_of=self.day,
                )
                self.cache[key] = (float(d.value), "; ".join(d.citations), None)
            except RulesInputError as exc:
                self.cache[key] = (None, "", str(exc))
        return self.cache[key]


def _amounts(out: gpd.GeoDataFrame, params: ParameterSet, day: dt.date, bar: bool) -> None:
    """Add :data:`SCREEN_COLUMNS`: one rules call per distinct (type, zone, class, metro, cedar)."""
    ok = (out["status"] == ASSESSED).to_numpy()
    place = _Place(
        labels=out["wetland_type"].to_numpy(dtype=object),
        pct=out["pct_class"].to_numpy(dtype=object),
        metro=out["metro"].to_numpy(dtype=object),
        cedar=out["cedar_tamarack"].to_numpy(dtype=object),
        # the zones each wetland reaches
        reached=np.column_stack([out[z].fillna(0).to_numpy(dtype=float) > 0 for _, z, _ in _ZONES]),
        allowance=_Allowances(params, day),
        cols={c: np.full(len(out), None, dtype=object) for c in SCREEN_COLUMNS},
    )
    codes, uniq = place.distinct()
    progress = _bar(len(uniq), "de minimis amounts", bar)
    for k in range(len(uniq)):
        rows = np.flatnonzero((codes == k) & ok)
        progress.update(1)
        if len(rows):
            place.screen(rows)
    progress.close()
    cols, labels = place.cols, place.labels
    inferred = (out["type_source"] == "inferred").to_numpy() & ok
    cols["verify"][inferred] = [
        f"wetland type {t} inferred from the Cowardin code: verify in the field; {v}"
        for t, v in zip(labels[inferred], cols["verify"][inferred], strict=True)
    ]
    for c in SCREEN_COLUMNS:
        values = cols[c]
        if c.endswith("_sqft"):
            out[c] = pd.to_numeric(pd.Series(values, index=out.index), errors="coerce")
        else:
            out[c] = values


@dataclass
class _Place:
    """The inventory's places (rows sharing type, class, metro, cedar and zones reached).

    :meth:`screen` writes a place's :data:`SCREEN_COLUMNS` into ``cols``.
    """

    labels: np.ndarray
    pct: np.ndarray
    metro: np.ndarray
    cedar: np.ndarray
    reached: np.ndarray
    allowance: _Allowances
    cols: dict[str, np.ndarray]

    def distinct(self) -> tuple[np.ndarray, Any]:
        """Return each row's place number and the distinct places."""
        reached = self.reached
        keys = pd.DataFrame(
            {
                "t": self.labels,
                "p": self.pct,
                "m": self.metro,
                "c": self.cedar,
                "z": reached[:, 0] * 4 + reached[:, 1] * 2 + reached[:, 2],
            }
        ).astype(str)
        return pd.factorize(pd.MultiIndex.from_frame(keys))

    def screen(self, rows: np.ndarray) -> None:
        """Write the amounts of the place of ``rows`` (all alike) into :attr:`cols`."""
        r = rows[0]
        types = [int(t) for t in str(self.labels[r]).split("/")]
        best: tuple[float, ShorelandZone, int, str] | None = None
        notes: list[str] = []
        for j, (zone, _, col) in enumerate(_ZONES):
            if not self.reached[r, j]:
                continue
            # a mixed polygon is held, in each zone, to its type with the smallest amount
            found = [(self.allowance(t, zone, *self._where(r)), t) for t in types]
            usable = [(a[0], a[1], t) for a, t in found if a[0] is not None]
            notes += [a[2] for a, _ in found if a[2]]
            if not usable:
                continue
            value, cite, t = min(usable, key=lambda x: (x[0], x[2]))
            self.cols[col][rows] = value
            if best is None or value < best[0]:
                best = (value, zone, t, cite)
        verify = [_STANDING_VERIFY, *dict.fromkeys(notes)]
        if best is not None:
            value, zone, t, cite = best
            self.cols["de_minimis_sqft"][rows] = value
            self.cols["dm_zone"][rows] = zone.value
            self.cols["dm_type"][rows] = str(t)
            self.cols["dm_citations"][rows] = cite
        if len(types) > 1:
            verify.insert(
                0,
                f"the polygon holds types {self.labels[r]}: each zone's amount is "
                "that of the type with the smallest; verify the split in the field",
            )
        self.cols["verify"][rows] = "; ".join(verify)

    def _where(self, r: int) -> tuple[str, bool, bool]:
        """Return the class, metro and cedar-tamarack status of row ``r``."""
        return str(self.pct[r]), bool(self.metro[r]), bool(self.cedar[r])


def run_screen(
    wetlands: str | Path,
    out: str | Path,
    *,
    overwrite: bool = False,
    **keywords: Any,
) -> tuple[Screening, list[Path]]:
    """Screen ``wetlands`` and write GeoParquet, GeoPackage and manifest.

    ``keywords`` are those of :func:`screen` (``context``, ``progress_bar`` and
    :data:`SCREEN_KEYWORDS`); ``overwrite`` as :meth:`Screening.write`. Returns the result
    and the paths written.
    """
    result = screen(wetlands, **keywords)
    return result, result.write(out, overwrite=overwrite)
