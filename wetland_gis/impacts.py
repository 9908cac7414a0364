"""From the construction limits and the wetland delineation to an impact layer (issue 35).

:func:`impacts` does the step an analyst now does by hand in QGIS before ``assess``: it
reads the project's construction limits (the *footprint*: polygons, one row a part, with
its project, kind of work and duration), the wetland delineation (or, for a screening, the
National Wetlands Inventory), and optionally the already developed ground (``existing``),
the parcels (an owner column) and drainage lines (ditches or tile, with their lateral
effect distance), and writes one impact per footprint part and wetland, carrying the
attributes ``assess`` reads under the names it reads them by (docs/footprint.md).

The geometry is :mod:`wetland_gis.geometry.footprint`; the layers are read by
:func:`wetland_gis.io.layers.read_layer`, reprojected by
:func:`wetland_gis.geometry.crs.to_working_crs` and cleaned by
:func:`wetland_gis.geometry.cleaning.clean_polygons`, every change recorded in the
manifest; the columns are found by the roles of :mod:`wetland_gis.io.fields`. Wetland
types are carried as given: ``assess`` reads them (a Cowardin code is converted there).
"""

from __future__ import annotations

import datetime as dt
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.errors import (
    FieldMappingError,
    InputError,
    MissingCRSError,
    MissingLateralEffectError,
    OverlappingWetlandsError,
    SmallImpactWarning,
)
from wetland_gis.geometry import footprint as fp
from wetland_gis.geometry.cleaning import ASSESSED, clean_polygons, measurable
from wetland_gis.geometry.crs import WORKING_CRS, to_working_crs
from wetland_gis.io.assessed import SOURCE_LAYERS
from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
from wetland_gis.io.fields import DEFAULT_NAMES, FieldMapping, read_text, resolve_fields
from wetland_gis.io.layers import LayerRead, read_layer
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.io.values import is_blank, parse_id, parse_number
from wetland_gis.manifest import InputRecord, Manifest
from wetland_gis.rules.screening import NWI_SCREENING_VERIFY
from wetland_gis.tally import Tally
from wetland_gis.units import FOOT_M, SQFT_PER_ACRE, SQFT_PER_SQM

if TYPE_CHECKING:
    from wetland_gis.assess import Assessment

#: Where the wetlands come from: a delineation, or NWI mapping (a screening).
WETLAND_SOURCES = ("auto", "delineation", "nwi")

NWI_SCREENING_NOTE = NWI_SCREENING_VERIFY
"""What every output of a run on NWI says (manifest, impact column, verify item, report, map)."""

#: Columns only the NWI has (the national schema's WETLAND_TYPE, the Minnesota update's
#: SPCC_DESC and HGM_CODE): with ATTRIBUTE and no wetland id, the layer is taken as NWI.
NWI_ONLY_COLUMNS = frozenset({"wetland_type", "wetland_ty", "spcc_desc", "hgm_code"})

SLIVER_SQFT = 1.0
"""A piece smaller than this is kept and warned about (issue 35; a data check, not law)."""

OVERLAP_TOLERANCE_SQFT = 0.01
"""Two wetlands overlapping by less than this are a floating-point seam, recorded, not an error.

GEOS rounds shared boundaries digitised in different tools; 0.01 sq ft (a square a little
over an inch on a side) is far below what a delineation measures.
"""

#: Default names of the part id column of the footprint and of the drainage lines.
PART_ID_NAMES = ("part_id", "impact_id", "id", "fid")
#: Default names of the lateral effect distance column (feet) of the drainage lines.
LATERAL_EFFECT_NAMES = ("lateral_effect_ft", "lat_eff_ft", "effect_ft")

#: The roles read from the footprint part; from the wetland; the computed ones.
_PART_ROLES = (
    "project",
    "impact_kind",
    "land_use",
    "partial",
    "duration",
    "runoff_retention",
    "partial_share",
    "owner",
    "owns_whole_wetland",
    "portion_sqft",
    "prior_sqft_since_1992",
)
_WETLAND_ROLES = (
    "wetland_type",
    "cowardin",
    "cedar_tamarack",
    "land_use",
    "isolated",
    "owner",
    "owns_whole_wetland",
    "portion_sqft",
    "prior_sqft_since_1992",
    "bottomland_hardwood",
    "banked",
    "used_for_credit",
    "pw_inventory_id",
)
_OWNER_ROLES = ("owner", "owns_whole_wetland", "portion_sqft")

#: The input whose columns usually hold each field role (the QGIS dialog lists that layer's
#: columns for the role): the part's roles the footprint, the wetland's the delineation, the
#: owner the parcels. A column named with ``--field`` is looked for in every input all the
#: same (footprint, drainage, wetlands, parcels, in that order); ``wetland_source`` is
#: written, never read.
ROLE_INPUTS: dict[str, str] = {
    **{role: "wetlands" for role in (*_WETLAND_ROLES, "wetland_id", "wetland_acres")},
    **{role: "footprint" for role in ("impact_id", *_PART_ROLES, *EXEMPTION_FIELD_ROLES)},
    "owner": "parcels",
}


def _output_name(role: str) -> str:
    """Return the first default name of ``role`` of at most 10 characters (a shapefile's)."""
    return next(n for n in DEFAULT_NAMES[role] if len(n) <= 10)


#: Role -> the column the impact layer writes it in: a default name ``assess`` reads.
OUTPUT_NAMES: dict[str, str] = {role: _output_name(role) for role in DEFAULT_NAMES}
OUTPUT_NAMES["wetland_type"] = "circ39"

#: The provenance columns of the impact layer, after the role columns.
PROVENANCE = ("part_id", "part_layer", "part_row", "wetl_rows", "wl_source")
#: The wetland source column (read by ``assess``: field role ``wetland_source``).
SOURCE_COLUMN = "wl_source"


@dataclass
class DerivedImpacts:
    """The result of :func:`impacts`.

    Attributes
    ----------
    impacts : GeoDataFrame
        One row per (footprint part, wetland) with an area, in EPSG:26915: the role columns
        ``assess`` reads (:data:`OUTPUT_NAMES`), the footprint's other columns, then
        :data:`PROVENANCE`. ``impact_id`` is ``"<part id>/<wetland id>"``.
    parts : GeoDataFrame
        Every footprint part and drainage line read, with ``status`` (``impacts``,
        ``no_wetland``, ``all_existing``, ``not_used``), ``reason``, its counts and areas.
    layers : dict of str to GeoDataFrame
        The source layers for the map (:data:`SOURCE_LAYERS`): the footprint parts, the
        existing ground, the wetland polygons reached, the parcels reached, the drainage
        lines, in EPSG:26915.
    manifest : Manifest
        Inputs and their hashes, settings, every reprojection, repair and choice made.
    wetlands_source : str
        ``"delineation"`` or ``"nwi"``.
    """

    impacts: gpd.GeoDataFrame
    parts: gpd.GeoDataFrame
    layers: dict[str, gpd.GeoDataFrame]
    manifest: Manifest
    wetlands_source: str = "delineation"

    @property
    def screening_on_nwi(self) -> bool:
        """Return True when the wetlands are NWI mapping, not a delineation."""
        return self.wetlands_source == "nwi"

    def tally(self) -> Tally:
        """Return the parts read, used and not used, and the impacts, for the command line."""
        parts = self.parts
        status = parts["status"].astype(str) if len(parts) else pd.Series(dtype=str)
        used = status != "not_used"
        tally = Tally(command="impacts", rows_read=len(parts), replacement=False)
        tally.assessed = int(used.sum())
        tally.not_assessed = {
            str(k): int(v) for k, v in parts.loc[~used, "reason"].value_counts().items()
        }
        counts = {f"parts {k}": int(v) for k, v in status[used].value_counts().items()}
        tally.outcomes = {"impacts": len(self.impacts), **counts}
        return tally

    def write(self, out: str | Path, *, overwrite: bool = False) -> list[Path]:
        """Write the impact layer, the source layers, the parts table and the manifest.

        Parameters
        ----------
        out : str or Path
            ``.gpkg`` (default): layer ``impacts`` and the source layers
            (:data:`SOURCE_LAYERS`, for the map); ``.shp``, ``.parquet``, ``.geojson``:
            the impact layer alone. Beside it ``<stem>_parts.csv`` (every part, its status
            and areas) and ``<stem>_manifest.json``.
        overwrite : bool, default False
            Replace files an earlier ``impacts`` did not write there.

        Returns
        -------
        list of Path
        """
        out = Path(out)
        if not out.suffix:
            out = out.with_suffix(".gpkg")
        stem = out.with_suffix("")
        manifest_path = Path(f"{stem}_manifest.json")
        with SafeWriter.for_run("impacts", self.manifest, manifest_path, overwrite=overwrite) as w:
            w.layer(self.impacts, out, layer="impacts", polygons=True)
            if out.suffix.lower() == ".gpkg":
                for name in SOURCE_LAYERS:
                    frame = self.layers.get(name)
                    w.layer(frame if frame is not None and len(frame) else None, out, layer=name)
            w.csv(pd.DataFrame(self.parts.drop(columns="geometry")), f"{stem}_parts.csv")
            w.manifest(self.manifest, manifest_path)
        return list(w.written)

    def assess(self, context: Any = None, **kwargs: Any) -> Assessment:
        """Assess the impacts (:func:`wetland_gis.assess`), keeping the source layers.

        Parameters
        ----------
        context : str, Path or Context, optional
            As :func:`wetland_gis.assess`.
        **kwargs
            As :func:`wetland_gis.assess` (``as_of``, ``options``, ...); ``fields`` is not
            needed: the columns have the names ``assess`` reads.

        Returns
        -------
        Assessment
            With :attr:`~wetland_gis.assess.Assessment.footprint_layers`, and a manifest
            that lists this run's inputs and records as well.
        """
        from wetland_gis.assess import assess

        result = assess(self.impacts, context, **kwargs)
        merge_manifest(result.manifest, self.manifest)
        result.footprint_layers = dict(self.layers)
        return result


def merge_manifest(target: Manifest, derived: Manifest) -> None:
    """Add the inputs, records and settings of an ``impacts`` run to an assessment's manifest.

    The derived impact layer (an in-memory frame) is replaced, as an input, by the files
    it was made from.
    """
    target.inputs[:] = [i for i in target.inputs if not (i.role == "impacts" and not i.sha256)]
    for record in derived.inputs:
        target.add_input(record)
    target.add_records(f"impacts: {r}" for r in derived.records)
    target.settings["footprint"] = dict(derived.settings)
    for item in derived.assumptions:
        if item not in target.assumptions:
            target.assumptions.append(item)


# --------------------------------------------------------------------------- reading


@dataclass
class _Layer:
    """One input layer read, in the working CRS."""

    role: str
    gdf: gpd.GeoDataFrame
    source: str
    #: The input row number (from 1) of each row read; None: every row, in order.
    rows: np.ndarray | None = None
    #: How many features the layer holds (more than read when only those near were read).
    total: int | None = None


class _Lines(NamedTuple):
    """The drainage lines read (:meth:`_Run._drainage`)."""

    #: Every row, with ``wg_row``, ``status_reason``, ``lat_eff_ft`` and ``lat_eff_src``.
    gdf: gpd.GeoDataFrame
    mapping: FieldMapping
    ids: np.ndarray
    #: Each line's lateral effect buffer; None on a row that is not a line.
    buffers: np.ndarray


@dataclass(frozen=True, eq=False)
class _Parts:
    """Every part of the project: the footprint rows, then the drainage lines.

    A part not used (a footprint row not assessed, a drainage row that is not a line) has
    no geometry; ``rank`` is 1 for a temporary part, 0 for a permanent or blank one.
    """

    geoms: np.ndarray
    used: np.ndarray
    project: list[str]
    duration: np.ndarray
    rank: np.ndarray
    layer: list[str]
    row: list[int]
    id: list[str]


def _read_input(
    role: str,
    given: str | Path | gpd.GeoDataFrame,
    layer: str | None,
    manifest: Manifest,
    assume_crs: str | None,
    override_crs: str | None,
) -> _Layer:
    """Read one input (a path or a frame), record it, and reproject it (recorded)."""
    if isinstance(given, gpd.GeoDataFrame):
        gdf = given.copy()
        source = f"<{role} GeoDataFrame>"
        if gdf.crs is None:
            if assume_crs is None:
                raise MissingCRSError(
                    f"the {role} GeoDataFrame has no CRS: set it with gdf.set_crs('EPSG:26915') "
                    "if the coordinates are UTM 15N, or pass assume_crs='EPSG:xxxx'"
                )
            gdf = gdf.set_crs(assume_crs)
            manifest.add_records([f"{source}: CRS assumed {assume_crs} (assume_crs)"])
        manifest.add_input(InputRecord(role, source, None, "", gdf.crs.to_string(), len(gdf)))
    else:
        read: LayerRead = read_layer(
            given,
            layer,
            assume_crs=assume_crs,
            override_crs=override_crs if role == "footprint" else None,
        )
        manifest.add_records(read.records)
        if read.crs_override is not None:
            manifest.settings.setdefault("crs_overrides", []).append(dict(read.crs_override))
        manifest.add_input(
            InputRecord(role, read.source, read.layer, read.sha256, read.crs, len(read.gdf))
        )
        gdf = read.gdf
        source = read.source + (f" (layer {read.layer})" if read.layer else "")
    gdf = gdf.reset_index(drop=True)
    gdf, records = to_working_crs(gdf, source=source)
    manifest.add_records(records)
    return _Layer(role, gdf, source)


#: How far beyond the footprint (and the drainage lines' reach) the wetlands are read: a
#: margin for the reprojection of the search area, not a distance of the law.
READ_MARGIN_M = 10.0


def _reach(
    read: Mapping[str, _Layer], fields: Mapping[str, str], lateral_effect_ft: float | None
) -> Any:
    """Return the area the wetlands are read in (EPSG:26915): the footprint and the lines.

    The footprint parts and the drainage lines buffered by the longest lateral effect
    distance any gives, plus :data:`READ_MARGIN_M`; None when there is no geometry.
    """
    geoms = [np.asarray(read["footprint"].gdf.geometry.values, dtype=object)]
    drainage = read.get("drainage")
    if drainage is not None:
        frame = drainage.gdf
        names = [fields["lateral_effect_ft"]] if fields.get("lateral_effect_ft") else []
        column = _find(list(frame.columns), [*names, *LATERAL_EFFECT_NAMES])
        values = [parse_number(v, errors="coerce") for v in frame[column]] if column else []
        feet = max([v for v in values if v is not None and v > 0] + [lateral_effect_ft or 0.0])
        lines = np.asarray(frame.geometry.values, dtype=object)
        geoms.append(shapely.buffer(lines, feet * FOOT_M))
    every = np.concatenate(geoms)
    every = every[~(shapely.is_missing(every) | shapely.is_empty(every)) & measurable(every)]
    every = shapely.make_valid(every)  # an invalid part is repaired, then used: read for it
    if not len(every):
        return None
    return shapely.union_all(shapely.buffer(every, READ_MARGIN_M, quad_segs=2))


def _read_wetlands(
    given: str | Path | gpd.GeoDataFrame,
    layer: str | None,
    manifest: Manifest,
    assume_crs: str | None,
    reach: Any,
    id_name: str | None,
) -> _Layer:
    """Read the wetland polygons within ``reach``, and every polygon sharing their ids.

    A frame is taken whole. From a file only the features intersecting ``reach`` (by the
    layer's spatial index) are read, then, when the layer has a wetland id column, the
    other polygons of those wetlands (a wetland's size is all of its polygons); the
    manifest says how many of how many.
    """
    if isinstance(given, gpd.GeoDataFrame) or reach is None:
        return _read_input("wetlands", given, layer, manifest, assume_crs, None)
    read = read_layer(given, layer, assume_crs=assume_crs, mask=reach, mask_crs=WORKING_CRS)
    gdf, rows = read.gdf, read.rows
    source = read.source + (f" (layer {read.layer})" if read.layer else "")
    gpkg = Path(read.source).suffix.lower() == ".gpkg"
    id_column = _find(list(gdf.columns), [id_name] if id_name else DEFAULT_NAMES["wetland_id"])
    if rows is not None and id_column is not None and len(gdf):
        import pyogrio

        ids = pyogrio.read_dataframe(
            read.source,
            layer=read.layer,
            columns=[id_column],
            read_geometry=False,
            fid_as_index=True,
        )[id_column]
        wanted = set(gdf[id_column].map(parse_id).dropna())
        fids_read = set((rows if gpkg else rows - 1).tolist())
        more = [
            int(f)
            for f, v in zip(ids.index, ids.map(parse_id), strict=True)
            if v in wanted and int(f) not in fids_read
        ]
        if more:
            extra = read_layer(given, layer, assume_crs=assume_crs, fids=more)
            gdf = pd.concat([gdf, extra.gdf], ignore_index=True)
            assert extra.rows is not None
            rows = np.concatenate([rows, extra.rows])
    manifest.add_records(read.records)
    manifest.add_input(
        InputRecord("wetlands", read.source, read.layer, read.sha256, read.crs, read.total)
    )
    if rows is not None:
        manifest.add_records(
            [
                f"{source}: {len(gdf):,} of {read.total:,} polygons read: those within "
                f"{READ_MARGIN_M:g} m of the footprint and the drainage lines' reach, and the "
                "other polygons of their wetlands"
            ]
        )
    gdf = gdf.reset_index(drop=True)
    gdf, records = to_working_crs(gdf, source=source)
    manifest.add_records(records)
    return _Layer("wetlands", gdf, source, rows, read.total)


def _clean_geometry(
    gdf: gpd.GeoDataFrame, source: str, manifest: Manifest, rows: np.ndarray | None = None
) -> gpd.GeoDataFrame:
    """Clean the geometry of a layer whose ids are not impact ids (wetlands, parcels, ...).

    :func:`~wetland_gis.geometry.cleaning.clean_polygons` on the geometry alone (polygons
    sharing a wetland id are one wetland, not duplicates), its columns added to ``gdf``;
    the repairs recorded.
    """
    geometry = gpd.GeoDataFrame(geometry=gdf.geometry.values, crs=gdf.crs, index=gdf.index)
    cleaned = clean_polygons(geometry, source=source, row_numbers=rows)
    manifest.add_records(cleaned.records)
    out = gdf.copy()
    for column in cleaned.gdf.columns:
        if column == cleaned.gdf.geometry.name:
            out = out.set_geometry(cleaned.gdf.geometry.values)
        else:
            out[column] = cleaned.gdf[column].to_numpy()
    return out


def _find(columns: Sequence[Any], names: Sequence[str]) -> str | None:
    """Return the first column named like one of ``names`` (case-insensitive), or None."""
    lower = {str(c).lower(): str(c) for c in reversed(list(columns))}
    return next((lower[n.lower()] for n in names if n.lower() in lower), None)


def _split_fields(fields: Mapping[str, str], layers: Sequence[_Layer]) -> dict[str, dict[str, str]]:
    """Give each user-named column to the first layer that has it, by role.

    Raises
    ------
    FieldMappingError
        When no input layer has a named column.
    """
    out: dict[str, dict[str, str]] = {layer.role: {} for layer in layers}
    for role, column in fields.items():
        if column is None:
            continue
        holder = next(
            (layer for layer in layers if _find(list(layer.gdf.columns), [column]) is not None),
            None,
        )
        if holder is None:
            listing = "; ".join(
                f"{layer.role}: {', '.join(map(str, layer.gdf.columns))}" for layer in layers
            )
            raise FieldMappingError(
                f"the {role.replace('_', ' ')} column {column!r} is in none of the input layers; "
                f"their columns are {listing}"
            )
        out[holder.role][role] = column
    return out


def _mapping(frame: pd.DataFrame, names: Mapping[str, str], roles: Sequence[str]) -> FieldMapping:
    """Resolve the roles of one layer (only ``roles`` and the exemption facts)."""
    plain = {k: v for k, v in names.items() if k in DEFAULT_NAMES or k in EXEMPTION_FIELD_ROLES}
    mapping = resolve_fields(frame, **plain)
    kept = {role: getattr(mapping, role) for role in DEFAULT_NAMES if role in roles}
    return FieldMapping(**kept, exemption_columns=mapping.exemption_columns, notes=mapping.notes)


def _ids(
    frame: pd.DataFrame, column: str | None, prefix: str, records: list[str], what: str
) -> np.ndarray:
    """Return each row's id as text; a blank or duplicated one is told apart by its row."""
    rows = frame["wg_row"].to_numpy()
    if column is None:
        return np.array([f"{prefix}{r}" for r in rows], dtype=object)
    ids = np.array([parse_id(v) for v in frame[column].tolist()], dtype=object)
    blank = np.array([v is None for v in ids])
    if blank.any():
        ids[blank] = [f"{prefix}{r}" for r in rows[blank]]
        records.append(
            f"{what}: {int(blank.sum())} row(s) without an id in column {column!r} are named by "
            f"their row ({', '.join(ids[blank][:10])})"
        )
    dup = pd.Series(ids).duplicated(keep=False).to_numpy()
    if dup.any():
        ids[dup] = [f"{v}#{r}" for v, r in zip(ids[dup], rows[dup], strict=True)]
        records.append(
            f"{what}: the id in column {column!r} repeats on {int(dup.sum())} row(s); each is "
            f"told apart by its row ({', '.join(ids[dup][:10])})"
        )
    return ids


class _PieceFacts:
    """Where each impact (a piece) takes its facts from: its part and its main wetland.

    A piece's part is a footprint row or a drainage line; its main wetland polygon is the
    one covering most of it. A fact both give is merged (:meth:`merged`); a disagreement
    leaves it unknown and is kept in :attr:`conflicts`.
    """

    def __init__(
        self,
        pieces: fp.Pieces,
        part: np.ndarray,
        impact_ids: list[str],
        fpt: gpd.GeoDataFrame,
        fmap: FieldMapping,
        drain: _Lines | None,
        wl: dict[str, Any],
    ) -> None:
        self.k = len(part)
        self.impact_ids = impact_ids
        self.fpt = fpt
        self.fmap = fmap
        self.drain = drain
        self.wgdf: gpd.GeoDataFrame = wl["gdf"]
        self.wmap: FieldMapping = wl["mapping"]
        self.polygons = pieces.polygons
        wl_geoms = np.asarray(self.wgdf.geometry.values, dtype=object)
        self.main_polygon = (
            _main_polygons(pieces, wl_geoms) if self.k else np.array([], dtype=np.int64)
        )
        n_fp = len(fpt)
        self.is_fp = part < n_fp
        self.fp_pos = np.where(self.is_fp, part, 0)
        self.dr_pos = np.where(self.is_fp, 0, part - n_fp)
        self.conflicts: list[str] = []

    def part_value(self, role: str) -> list[Any]:
        """Return each piece's value of ``role`` in its part's row (None: no column)."""
        fcol = getattr(self.fmap, role, None)
        drain = self.drain
        dcol = getattr(drain.mapping, role, None) if drain is not None else None
        out: list[Any] = []
        for f, a, b in zip(self.is_fp, self.fp_pos, self.dr_pos, strict=True):
            if f:
                out.append(None if fcol is None else self.fpt[fcol].iat[a])
            else:
                out.append(None if dcol is None or drain is None else drain.gdf[dcol].iat[b])
        return out

    def wetland_value(self, role: str) -> list[Any]:
        """Return each piece's value of ``role`` in its main wetland polygon."""
        wcol = getattr(self.wmap, role, None)
        if wcol is None:
            return [None] * self.k
        return self.wgdf[wcol].to_numpy()[self.main_polygon].tolist()

    def mixed_types(self) -> list[Any]:
        """Return each piece's type as given: the distinct values of its polygons, "/"-joined."""
        column = self.wmap.wetland_type
        if column is None:
            return [None] * len(self.polygons)
        values = self.wgdf[column].to_numpy()
        out: list[Any] = []
        for p in self.polygons:
            seen = list(dict.fromkeys(str(v).strip() for v in values[p] if not is_blank(v)))
            out.append("/".join(seen) if seen else None)
        return out

    def merged(self, role: str, a: list[Any], b: list[Any]) -> list[Any]:
        """Return the part's value ``a`` or the wetland's ``b``; unknown where they differ."""
        out = []
        for iid, x, y in zip(self.impact_ids, a, b, strict=True):
            if is_blank(x):
                out.append(None if is_blank(y) else y)
            elif is_blank(y) or str(x).strip().lower() == str(y).strip().lower():
                out.append(x)
            else:  # the two layers disagree: unknown, never chosen
                out.append(None)
                self.conflicts.append(f"{iid}: {role} {x!r} (footprint) and {y!r} (wetlands)")
        return out

    def role(self, role: str) -> list[Any] | None:
        """Return each piece's value of ``role``; None when no layer gives it at all."""
        in_part = role in _PART_ROLES
        in_wet = role in _WETLAND_ROLES
        blank = [None] * self.k
        a = self.part_value(role) if in_part else blank
        b = self.wetland_value(role) if in_wet else blank
        if role == "wetland_type" and self.k:
            b = self.mixed_types()
        values = self.merged(role, a, b) if in_part and in_wet else (a if in_part else b)
        given = (in_part and getattr(self.fmap, role, None) is not None) or (
            in_wet and getattr(self.wmap, role, None) is not None
        )
        return values if given or any(not is_blank(v) for v in values) else None

    def exemption_facts(self) -> dict[str, list[Any]]:
        """Return the exemption and road facts, by column, from whichever layer gives them."""
        drain = self.drain
        ex_part = dict(self.fmap.exemption_columns)
        ex_drain = dict(drain.mapping.exemption_columns) if drain is not None else {}
        ex_wet = dict(self.wmap.exemption_columns)
        out: dict[str, list[Any]] = {}
        for role, default in EXEMPTION_FIELD_ROLES.items():
            if role not in ex_part and role not in ex_wet and role not in ex_drain:
                continue
            a = [
                (self.fpt[ex_part[role]].iat[p] if role in ex_part else None)
                if f
                else (
                    drain.gdf[ex_drain[role]].iat[d]
                    if drain is not None and role in ex_drain
                    else None
                )
                for f, p, d in zip(self.is_fp, self.fp_pos, self.dr_pos, strict=True)
            ]
            b = (
                self.wgdf[ex_wet[role]].to_numpy()[self.main_polygon].tolist()
                if role in ex_wet
                else [None] * self.k
            )
            out[default] = self.merged(role, a, b)
        return out


def _main_polygons(pieces: fp.Pieces, wl_geoms: np.ndarray) -> np.ndarray:
    """Return, per piece, the wetland polygon covering most of it (it gives the attributes)."""
    return np.array(
        [
            p[np.argmax(shapely.area(shapely.intersection(g, wl_geoms[p])))] if len(p) > 1 else p[0]
            for p, g in zip(pieces.polygons, pieces.geometry, strict=True)
        ],
        dtype=np.int64,
    )


def _owner_portions(
    wl_union: np.ndarray,
    pgeoms: np.ndarray,
    owners: np.ndarray,
    known: np.ndarray,
    wi: np.ndarray,
    wj: np.ndarray,
) -> tuple[dict[tuple[int, str], float], dict[int, float]]:
    """Return each wetland's area by owner, and its area on parcels with a known owner.

    ``wi``, ``wj``: the pairs of wetland (a union of its polygons) and parcel that overlap.
    Areas in square metres.
    """
    portion: dict[tuple[int, str], float] = {}
    covered: dict[int, float] = {}
    for w in np.unique(wi):
        sel = wj[wi == w]
        shares: dict[str, list[Any]] = {}
        for p in sel:
            if known[p]:
                shares.setdefault(owners[p], []).append(pgeoms[p])
        for owner, geoms in shares.items():
            portion[(int(w), owner)] = float(
                shapely.area(shapely.intersection(wl_union[w], shapely.union_all(geoms)))
            )
        covered[int(w)] = (
            float(
                shapely.area(
                    shapely.intersection(wl_union[w], shapely.union_all(pgeoms[sel[known[sel]]]))
                )
            )
            if known[sel].any()
            else 0.0
        )
    return portion, covered


def _owns_whole(share: float, covered: float, whole: float) -> str | None:
    """Return whether the owner holds the whole wetland: "yes", "no" or None (unknown).

    ``share`` is the owner's part of the wetland, ``covered`` its part on parcels with a
    known owner and ``whole`` its area; unknown when some of it lies on no such parcel.
    """
    tol = fp.AREA_RTOL * max(whole, 1.0) + 1e-6
    if share >= whole - tol:
        return "yes"
    if covered >= whole - tol:
        return "no"
    return None  # part of the wetland lies outside every parcel with an owner: unknown


# --------------------------------------------------------------------------- main entry


def impacts(
    footprint: str | Path | gpd.GeoDataFrame,
    wetlands: str | Path | gpd.GeoDataFrame,
    *,
    existing: str | Path | gpd.GeoDataFrame | None = None,
    parcels: str | Path | gpd.GeoDataFrame | None = None,
    drainage: str | Path | gpd.GeoDataFrame | None = None,
    layers: Mapping[str, str | None] | None = None,
    fields: Mapping[str, str] | None = None,
    lateral_effect_ft: float | None = None,
    wetlands_source: str = "auto",
    assume_crs: str | None = None,
    override_crs: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> DerivedImpacts:
    """Derive the impact layer from construction limits and a wetland delineation.

    Parameters
    ----------
    footprint : str, Path or GeoDataFrame
        The construction limits: polygons, one row a part, with (optional) columns of
        the roles ``assess`` reads: ``project``, ``impact`` (kind of work: fill, excavate,
        drain, ...), ``duration`` (``permanent``/``temporary``), ``land_use``, the
        exemption and road facts; and a part id (``part_id``, ``impact_id``, ``id``, or
        the GeoPackage ``fid``).
    wetlands : str, Path or GeoDataFrame
        The wetland delineation (``wetland_id``, ``circ39`` and/or Cowardin ``attribute``,
        per-wetland facts), or NWI polygons (``ATTRIBUTE``) for a screening.
    existing : optional
        Already developed ground (an existing road surface, polygons): not a new impact.
    parcels : optional
        Parcels with an ``owner`` column: each impact's landowner, the owner's portion of
        the wetland (``portion_sf``) and whether the owner holds the whole wetland
        (``owns_whole``).
    drainage : optional
        Ditches or tile as lines, with their lateral effect distance in feet (column
        ``lateral_effect_ft``, or ``lateral_effect_ft=`` for lines without one): the
        drained area is the line's buffer within the wetland, kind ``drain``.
    layers : mapping, optional
        The layer to read from each input GeoPackage or File Geodatabase, by input name
        (``footprint``, ``wetlands``, ``existing``, ``parcels``, ``drainage``).
    fields : mapping, optional
        ``{role: column}``: each column is looked for in the footprint, the drainage
        lines, the wetlands and the parcels, in that order; besides the roles of
        :data:`wetland_gis.io.fields.DEFAULT_NAMES` and the exemption facts,
        ``part_id`` and ``lateral_effect_ft``.
    lateral_effect_ft : float, optional
        The lateral effect distance (feet) of every drainage line without a value of its
        own. The law held gives none: there is no default.
    wetlands_source : {"auto", "delineation", "nwi"}
        ``auto``: NWI when the layer has NWI's ``ATTRIBUTE`` and a column only the NWI has
        (:data:`NWI_ONLY_COLUMNS`) and no wetland id column; every output of a run on NWI
        says it is a screening.
    assume_crs : str, optional
        CRS of any input layer that has none (recorded); without it such a layer is an
        error.
    override_crs : str, optional
        CRS replacing the footprint's own when its ``.prj`` is wrong (recorded).
    progress : callable, optional
        Called with a short message at each step.

    Returns
    -------
    DerivedImpacts

    Raises
    ------
    InputError
        A layer that cannot be read, has no CRS, a wetland polygon the footprint reaches
        that cannot be used, an unknown ``wetlands_source``.
    OverlappingWetlandsError
        Two different wetlands overlap (naming both rows and the area).
    MissingLateralEffectError
        A drainage line without a lateral effect distance.
    FieldMappingError
        A named column that no layer has.

    Warns
    -----
    SmallImpactWarning
        When an impact is smaller than :data:`SLIVER_SQFT` (kept).
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    if wetlands_source not in WETLAND_SOURCES:
        raise InputError(
            f"`wetlands_source` was {wetlands_source!r} but is expected to be in "
            f"{list(WETLAND_SOURCES)}"
        )
    if lateral_effect_ft is not None and not (
        np.isfinite(lateral_effect_ft) and lateral_effect_ft > 0
    ):
        raise InputError(
            f"--lateral-effect-ft {lateral_effect_ft!r}: the lateral effect distance is a "
            "number of feet greater than 0"
        )
    layer_of = dict(layers or {})
    manifest = Manifest(command="impacts", as_of=dt.date.today().isoformat())
    manifest.settings.update(
        {
            "lateral_effect_ft": lateral_effect_ft,
            "wetlands_source_asked": wetlands_source,
            "layers": {k: v for k, v in layer_of.items() if v},
            "fields": dict(fields or {}),
        }
    )
    say("reading the footprint and the wetlands")
    given = {
        "footprint": footprint,
        "drainage": drainage,
        "existing": existing,
        "parcels": parcels,
    }
    read = {
        role: _read_input(role, src, layer_of.get(role), manifest, assume_crs, override_crs)
        for role, src in given.items()
        if src is not None
    }
    # the wetlands near the footprint only (a statewide NWI layer is not read whole)
    read["wetlands"] = _read_wetlands(
        wetlands,
        layer_of.get("wetlands"),
        manifest,
        assume_crs,
        _reach(read, dict(fields or {}), lateral_effect_ft),
        (fields or {}).get("wetland_id"),
    )
    read = {
        role: read[role]
        for role in ("footprint", "drainage", "wetlands", "existing", "parcels")
        if role in read
    }
    names = _split_fields(dict(fields or {}), list(read.values()))
    records: list[str] = []
    run = _Run(read, names, lateral_effect_ft, wetlands_source, manifest, records, say)
    result = run.derive()
    manifest.add_records(records)
    say(
        f"{len(result.parts)} part(s) read, {len(result.impacts)} impact(s) in "
        f"{time.perf_counter() - t0:.1f} s"
    )
    return result


class _Run:
    """The work of :func:`impacts`, step by step (one object, so each step reads the last)."""

    def __init__(
        self,
        read: dict[str, _Layer],
        names: dict[str, dict[str, str]],
        lateral_effect_ft: float | None,
        wetlands_source: str,
        manifest: Manifest,
        records: list[str],
        say: Callable[[str], None],
    ) -> None:
        self.read = read
        self.names = names
        self.lateral_effect_ft = lateral_effect_ft
        self.asked_source = wetlands_source
        self.manifest = manifest
        self.records = records
        self.say = say

    # -- the parts ---------------------------------------------------------------------

    def _footprint(self) -> tuple[gpd.GeoDataFrame, FieldMapping, np.ndarray]:
        layer = self.read["footprint"]
        names = self.names["footprint"]
        part_column = names.get("part_id") or names.get("impact_id")
        if part_column is None:
            part_column = _find(list(layer.gdf.columns), PART_ID_NAMES)
        cleaned = clean_polygons(layer.gdf, source=layer.source, id_field=part_column)
        self.manifest.add_records(cleaned.records)
        gdf = cleaned.gdf
        mapping = _mapping(gdf, names, _PART_ROLES)
        ids = _ids(gdf, part_column, "P", self.records, layer.source)
        self.manifest.settings["part_id_column"] = part_column
        return gdf, mapping, ids

    def _drainage(self, footprint_projects: Sequence[str], taken: set[str]) -> _Lines | None:
        """Read the drainage lines: each line's lateral effect buffer is a part, kind drain.

        Raises
        ------
        InputError
            A lateral effect distance that is not a number of feet over 0, or no project
            column where the footprint holds several projects.
        MissingLateralEffectError
            A line without a lateral effect distance.
        """
        layer = self.read.get("drainage")
        if layer is None:
            return None
        names = self.names["drainage"]
        gdf, line = self._lines(layer)
        column = names.get("lateral_effect_ft") or _find(list(gdf.columns), LATERAL_EFFECT_NAMES)
        distance_ft, given = self._lateral_effect(gdf, line, column, layer.source)
        gdf["lat_eff_ft"] = np.where(line, distance_ft, np.nan)
        gdf["lat_eff_src"] = np.where(
            line, np.where(given, f"column {column}", "--lateral-effect-ft"), ""
        )
        mapping = _mapping(gdf, names, _PART_ROLES)
        id_column = names.get("part_id") or _find(list(gdf.columns), PART_ID_NAMES)
        ids = _ids(gdf, id_column, "D", self.records, layer.source)
        clash = np.array([i in taken for i in ids])
        if clash.any():
            ids[clash] = [f"drainage {i}" for i in ids[clash]]
            self.records.append(
                f"{layer.source}: drainage line ids that are also footprint part ids are "
                f"prefixed 'drainage ' ({', '.join(ids[clash][:5])})"
            )
        if mapping.project is None and len(set(footprint_projects)) > 1:
            raise InputError(
                f"{layer.source} has no project column and the footprint holds "
                f"{len(set(footprint_projects))} projects: add a `project` column to the "
                "drainage lines (or name it with --project-field)"
            )
        geoms = np.asarray(gdf.geometry.values, dtype=object)
        buffers = np.full(len(gdf), None, dtype=object)
        buffers[line] = fp.lateral_effect(geoms[line], distance_ft[line] * FOOT_M)
        return _Lines(gdf, mapping, ids, buffers)

    def _lines(self, layer: _Layer) -> tuple[gpd.GeoDataFrame, np.ndarray]:
        """Return the drainage rows (``wg_row``, ``status_reason``, 2D) and which are lines.

        A row that is not a line drains nothing (recorded).
        """
        gdf = layer.gdf.copy()
        gdf["wg_row"] = np.arange(1, len(gdf) + 1)
        geoms = np.asarray(gdf.geometry.values, dtype=object)
        types = shapely.get_type_id(geoms)
        empty = shapely.is_missing(geoms) | shapely.is_empty(geoms)
        line = np.isin(types, (1, 5)) & ~empty
        reason = np.where(
            empty,
            "empty or null geometry",
            np.where(line, "", "expected a line (a ditch or tile), got a polygon or point"),
        )
        gdf["status_reason"] = reason
        if (~line).any():
            self.records.append(
                f"{layer.source}: {int((~line).sum())} row(s) are not lines and drain nothing "
                f"(rows {', '.join(map(str, gdf.loc[~line, 'wg_row'].head(10)))})"
            )
        geoms[line] = shapely.force_2d(geoms[line])
        gdf = gdf.set_geometry(gpd.GeoSeries(geoms, index=gdf.index, crs=gdf.crs))
        return gdf, line

    def _lateral_effect(
        self, gdf: gpd.GeoDataFrame, line: np.ndarray, column: str | None, source: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return each line's lateral effect distance (feet) and whether its row gives it.

        A line without a value of its own takes ``lateral_effect_ft``; how many do is
        recorded in the manifest's settings.
        """
        n = len(gdf)
        raw = gdf[column] if column else [None] * n
        values = [parse_number(v, errors="coerce") for v in raw] if column else [None] * n
        given = np.array([v is not None for v in values])
        distance_ft = np.array(
            [v if v is not None else (self.lateral_effect_ft or np.nan) for v in values], float
        )
        bad_value = line & np.array(
            [
                column is not None and not is_blank(r) and (v is None or not v > 0)
                for r, v in zip(raw, values, strict=True)
            ]
        )
        if bad_value.any():
            rows = gdf.loc[bad_value, "wg_row"].tolist()
            raise InputError(
                f"{source}: the lateral effect distance in column {column!r} is not a "
                f"number of feet greater than 0 on row(s) {', '.join(map(str, rows[:10]))}: "
                "correct it in the layer"
            )
        missing = line & np.isnan(distance_ft)
        if missing.any():
            rows = gdf.loc[missing, "wg_row"].tolist()
            raise MissingLateralEffectError(
                f"{source}: drainage line row(s) {', '.join(map(str, rows[:10]))} have no "
                "lateral effect distance: give it per line in a column "
                f"({' or '.join(LATERAL_EFFECT_NAMES)}, or name yours with "
                "--lateral-effect-ft-field), or for every line with --lateral-effect-ft FEET "
                "(lateral_effect_ft= in Python). The law held gives no distance, so there is "
                "no default: it depends on the soils and the ditch or tile (docs/footprint.md)"
            )
        self.manifest.settings["drainage"] = {
            "lateral_effect_column": column,
            "lateral_effect_ft_option": self.lateral_effect_ft,
            "lines_using_option": int((line & ~given).sum()),
            "lines_using_column": int((line & given).sum()),
        }
        return distance_ft, given

    # -- the wetlands ------------------------------------------------------------------

    def _wetlands(self, reach: np.ndarray) -> dict[str, Any]:
        """Read the wetland polygons the parts reach (and all sharing their wetland id)."""
        layer = self.read["wetlands"]
        raw = layer.gdf
        names = self.names["wetlands"]
        n = len(raw)
        geoms = np.asarray(raw.geometry.values, dtype=object)
        usable = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
        indexed = geoms.copy()
        indexed[~usable] = None
        tree = shapely.STRtree(indexed)
        reach = reach[~(shapely.is_missing(reach) | shapely.is_empty(reach))]
        hit: np.ndarray = (
            np.unique(tree.query(reach, predicate="intersects")[1])
            if len(reach)
            else np.array([], dtype=np.int64)
        )
        mapping = _mapping(raw, names, _WETLAND_ROLES + ("wetland_id", "wetland_acres"))
        id_column = names.get("wetland_id") or mapping.wetland_id
        if id_column is not None:
            all_ids = raw[id_column].map(parse_id)
            touched_ids = set(all_ids.iloc[hit].dropna())
            also = np.flatnonzero(all_ids.isin(touched_ids).to_numpy())
            hit = np.union1d(hit, also)
        hit = np.asarray(hit, dtype=np.int64)
        source = self._source(raw, mapping)
        subset = raw.iloc[hit].copy()
        rows = hit + 1 if layer.rows is None else layer.rows[hit]
        n = layer.total if layer.total is not None else n
        wl = _clean_geometry(subset, layer.source, self.manifest, rows)
        if len(hit) < n:
            self.records.append(
                f"{layer.source}: {len(hit)} of {n} wetland polygons are reached by the "
                "footprint (or share a wetland id with one that is); only those were checked "
                "and used"
            )
        bad = wl["status"] != ASSESSED
        if bad.any():
            first = wl[bad].iloc[0]
            raise InputError(
                f"{layer.source}: wetland polygon row {int(first['wg_row'])}, which the footprint "
                f"reaches, cannot be used: {first['status_reason']}; correct it in the "
                f"delineation ({int(bad.sum())} such row(s))"
            )
        rows = wl["wg_row"].to_numpy()
        if id_column is None:
            ids = np.array([f"R{r}" for r in rows], dtype=object)
            self.records.append(
                f"{layer.source} has no wetland id column (wetland_id, wetland_no): each polygon "
                "is a wetland of its own, named R<row>"
            )
        else:  # the polygons sharing an id are one wetland; a blank id is its row's own
            given = [parse_id(v) for v in wl[id_column].tolist()]
            ids = np.array([g or f"R{r}" for g, r in zip(given, rows, strict=True)], dtype=object)
            if any(g is None for g in given):
                self.records.append(
                    f"{layer.source}: wetland polygon(s) without an id in column {id_column!r} "
                    "are wetlands of their own, named R<row>"
                )
        codes, uniques = pd.factorize(pd.Series(ids))
        return {
            "gdf": wl,
            "mapping": mapping,
            "id_column": id_column,
            "code": np.asarray(codes, dtype=np.int64),
            "names": np.asarray(uniques, dtype=object),
            "source": source,
        }

    def _source(self, raw: pd.DataFrame, mapping: FieldMapping) -> str:
        """Decide whether the wetlands are a delineation or NWI mapping (recorded)."""
        if self.asked_source != "auto":
            self.records.append(f"wetlands source: {self.asked_source} (as given)")
            return self.asked_source
        cols = {str(c).lower() for c in raw.columns}
        marks = sorted(cols & NWI_ONLY_COLUMNS)
        nwi = "attribute" in cols and bool(marks) and mapping.wetland_id is None
        source = "nwi" if nwi else "delineation"
        self.records.append(
            f"wetlands source: nwi (the layer has NWI's ATTRIBUTE and {', '.join(marks)} "
            "columns and no wetland id; --wetlands-source delineation says otherwise)"
            if nwi
            else "wetlands source: delineation (--wetlands-source nwi for NWI mapping)"
        )
        return source

    def _check_overlaps(self, wl: dict[str, Any]) -> None:
        """Refuse a delineation whose wetlands overlap one another (other wetland ids)."""
        gdf = wl["gdf"]
        geoms = np.asarray(gdf.geometry.values, dtype=object)
        i, j = fp.interior_overlaps(geoms, geoms)
        code = wl["code"]
        keep = (i < j) & (code[i] != code[j])
        i, j = i[keep], j[keep]
        if not len(i):
            return
        sqft = shapely.area(shapely.intersection(geoms[i], geoms[j])) * SQFT_PER_SQM
        seams = sqft < OVERLAP_TOLERANCE_SQFT
        if seams.any():
            self.records.append(
                f"{self.read['wetlands'].source}: {int(seams.sum())} pair(s) of wetlands overlap "
                f"by less than {OVERLAP_TOLERANCE_SQFT} sq ft (a floating-point seam), not an error"
            )
        if seams.all():
            return
        rows = gdf["wg_row"].to_numpy()
        names = wl["names"]
        pairs = [
            f"row {rows[a]} (wetland {names[code[a]]}) and row {rows[b]} (wetland "
            f"{names[code[b]]}) overlap by {s:,.1f} sq ft"
            for a, b, s in zip(i[~seams], j[~seams], sqft[~seams], strict=True)
        ]
        more = f" and {len(pairs) - 5} more pair(s)" if len(pairs) > 5 else ""
        raise OverlappingWetlandsError(
            f"{self.read['wetlands'].source}: wetlands overlap one another, so the same ground "
            f"would be two wetlands: {'; '.join(pairs[:5])}{more}. Correct the delineation "
            "(in QGIS: Vector > Geometry Tools > Check Validity, or the Topology Checker's "
            "'must not overlap' rule), or give the polygons of one wetland the same wetland id"
        )

    # -- the run -----------------------------------------------------------------------

    def derive(self) -> DerivedImpacts:
        """Cut the parts by the wetlands; return the impacts, the parts and the layers."""
        fpt, fmap, part_ids = self._footprint()
        fp_used = (fpt["status"] == ASSESSED).to_numpy()
        projects = self._text(fpt, fmap.project)
        drain = self._drainage(list(projects[fp_used]), set(part_ids))
        parts = self._parts(fpt, fmap, part_ids, projects, drain)
        existing = self._existing()

        self.say("cutting the parts by the wetlands")
        idx = np.flatnonzero(parts.used)
        proj_codes = pd.factorize(pd.Series(np.array(parts.project, dtype=object)[idx]))[0]
        net = fp.net_parts(parts.geoms[idx], proj_codes, parts.rank[idx], existing)
        wl = self._wetlands(net.geometry)
        self._check_overlaps(wl)
        wl_geoms = np.asarray(wl["gdf"].geometry.values, dtype=object)
        pieces = fp.cut_by_wetlands(net.geometry, wl_geoms, wl["code"])

        # the wetlands' sizes: every polygon of each wetland id
        groups, unions = fp.union_by_group(wl_geoms, wl["code"])
        wl_union = np.empty(len(wl["names"]), dtype=object)
        wl_union[groups] = unions
        wl_sqft = shapely.area(wl_union) * SQFT_PER_SQM

        frame = self._impact_frame(pieces, idx, parts, fpt, fmap, drain, wl, wl_sqft, wl_union)
        table = self._parts_table(parts, idx, net, pieces, fpt, drain)
        layers = self._source_layers(table, existing, wl, frame)
        self._assumptions(wl["source"])
        return DerivedImpacts(
            impacts=frame,
            parts=table,
            layers=layers,
            manifest=self.manifest,
            wetlands_source=wl["source"],
        )

    def _parts(
        self,
        fpt: gpd.GeoDataFrame,
        fmap: FieldMapping,
        part_ids: np.ndarray,
        projects: np.ndarray,
        drain: _Lines | None,
    ) -> _Parts:
        """Return the parts: the footprint polygons, then the drainage lines' buffers.

        A part not used (a footprint row not assessed, a drainage row that is not a line)
        has no geometry. A drainage line without a project takes the footprint's one.
        """
        fp_used = (fpt["status"] == ASSESSED).to_numpy()
        fp_geoms = np.asarray(fpt.geometry.values, dtype=object)
        fp_geoms[~fp_used] = None
        part_geom = list(fp_geoms)
        part_project = list(projects)
        part_duration = list(self._text(fpt, fmap.duration))
        part_layer = ["footprint"] * len(fpt)
        part_row = fpt["wg_row"].tolist()
        part_id = list(part_ids)
        used = list(fp_used)
        if drain is not None:
            single = next(iter(set(projects[fp_used])), "") if fp_used.any() else ""
            dproj = (
                self._text(drain.gdf, drain.mapping.project)
                if drain.mapping.project
                else np.array([single] * len(drain.gdf), dtype=object)
            )
            part_geom += list(drain.buffers)
            part_project += list(dproj)
            part_duration += list(self._text(drain.gdf, drain.mapping.duration))
            part_layer += ["drainage"] * len(drain.gdf)
            part_row += drain.gdf["wg_row"].tolist()
            part_id += list(drain.ids)
            used += [b is not None for b in drain.buffers]
        used_arr = np.array(used, dtype=bool)
        duration = np.array(part_duration, dtype=object)
        blank_duration = used_arr & np.array([d == "" for d in duration])
        if blank_duration.any():
            self.records.append(
                f"{int(blank_duration.sum())} part(s) without a duration are ranked with the "
                "permanent parts (a temporary part counts only where none of them lies)"
            )
        return _Parts(
            geoms=np.array(part_geom, dtype=object),
            used=used_arr,
            project=part_project,
            duration=duration,
            rank=np.array(
                [1 if str(d).strip().lower().startswith("temp") else 0 for d in duration]
            ),
            layer=part_layer,
            row=part_row,
            id=part_id,
        )

    def _text(self, frame: pd.DataFrame, column: str | None) -> np.ndarray:
        if column is None:
            return np.array([""] * len(frame), dtype=object)
        return np.array([read_text(v) or "" for v in frame[column].tolist()], dtype=object)

    def _existing(self) -> np.ndarray | None:
        layer = self.read.get("existing")
        if layer is None:
            return None
        gdf = _clean_geometry(layer.gdf, layer.source, self.manifest)
        bad = gdf["status"] != ASSESSED
        if bad.any():
            self.records.append(
                f"{layer.source}: {int(bad.sum())} existing feature(s) are not polygons with an "
                "area and were not subtracted (rows "
                f"{', '.join(map(str, gdf.loc[bad, 'wg_row'].head(10)))}): draw the existing "
                "road or building as its surface (a polygon), not a centre line"
            )
        self._existing_gdf = gdf
        return np.asarray(gdf.loc[~bad].geometry.values, dtype=object)

    # -- the attributes ----------------------------------------------------------------

    def _impact_frame(
        self,
        pieces: fp.Pieces,
        idx: np.ndarray,
        parts: _Parts,
        fpt: gpd.GeoDataFrame,
        fmap: FieldMapping,
        drain: _Lines | None,
        wl: dict[str, Any],
        wl_sqft: np.ndarray,
        wl_union: np.ndarray,
    ) -> gpd.GeoDataFrame:
        """Return the impacts: one row a piece, with its facts, the owner and provenance."""
        part = idx[pieces.part]  # position among all parts
        k = len(part)
        wetland_names = wl["names"][pieces.wetland] if k else np.array([], dtype=object)
        ids = [f"{parts.id[p]}/{w}" for p, w in zip(part, wetland_names, strict=True)]
        facts = _PieceFacts(pieces, part, ids, fpt, fmap, drain, wl)
        columns: dict[str, Any] = {"impact_id": ids}
        parcels_given = "parcels" in self.read
        for role in DEFAULT_NAMES:
            if role in ("impact_id", "wetland_acres", "wetland_id"):
                continue
            if parcels_given and role in _OWNER_ROLES:
                continue
            values = facts.role(role)
            if values is not None:
                columns[OUTPUT_NAMES[role]] = values
        if drain is not None:  # a drainage line drains
            kind = columns.get(OUTPUT_NAMES["impact_kind"], [None] * k)
            columns[OUTPUT_NAMES["impact_kind"]] = [
                v if f else "drain" for v, f in zip(kind, facts.is_fp, strict=True)
            ]
        columns.update(facts.exemption_facts())
        if facts.conflicts:
            self.records.append(
                f"{len(facts.conflicts)} fact(s) the footprint and the wetlands give differently "
                f"are left unknown (never chosen): {'; '.join(facts.conflicts[:10])}"
            )
        columns[OUTPUT_NAMES["wetland_id"]] = list(wetland_names)
        delineated = wl_sqft[pieces.wetland] / SQFT_PER_ACRE if k else np.array([])
        columns[OUTPUT_NAMES["wetland_acres"]] = self._wetland_acres(facts, delineated)
        if parcels_given:
            columns.update(self._owners(pieces, wl_union, ids))
        self._footprint_columns(columns, fpt, fmap, facts)
        columns["part_id"] = [parts.id[p] for p in part]
        columns["part_layer"] = [parts.layer[p] for p in part]
        columns["part_row"] = [int(parts.row[p]) for p in part]
        wl_rows = wl["gdf"]["wg_row"].to_numpy()
        columns["wetl_rows"] = ["; ".join(str(r) for r in wl_rows[p]) for p in pieces.polygons]
        columns[SOURCE_COLUMN] = [wl["source"]] * k
        frame = gpd.GeoDataFrame(
            pd.DataFrame(columns, index=pd.RangeIndex(k)),
            geometry=gpd.GeoSeries(pieces.geometry, crs=WORKING_CRS),
            crs=WORKING_CRS,
        )
        self._note_slivers(frame, pieces)
        return frame

    def _wetland_acres(self, facts: _PieceFacts, delineated: np.ndarray) -> list[float]:
        """Return each impact's wetland size in acres: as given, else as delineated.

        The size the wetlands layer gives (over 0) is used; where it differs from the
        area of the wetland's polygons by more than 1 percent that is recorded. The
        delineated size is written to six decimals rounded up: an impact covering the whole
        wetland is then never "larger than the wetland" in ``assess`` by a rounding.
        """
        acres_out = []
        differ = []
        given_acres = facts.wetland_value("wetland_acres")
        for iid, computed, g in zip(facts.impact_ids, delineated, given_acres, strict=True):
            number = parse_number(g, errors="coerce") if not is_blank(g) else None
            if number is not None and number > 0:
                acres_out.append(number)
                if abs(number - computed) > 0.01 * computed:
                    differ.append(f"{iid}: {number:g} ac given, {computed:.4f} ac delineated")
            else:  # rounded up: never below its polygons, so no impact on it is larger
                acres_out.append(math.ceil(float(computed) * 1e6) / 1e6)
        if differ:
            self.records.append(
                "the wetland size given in the wetlands layer is used where it differs from the "
                f"area of the wetland's polygons by more than 1 percent: {'; '.join(differ[:10])}"
            )
        return acres_out

    def _footprint_columns(
        self,
        columns: dict[str, Any],
        fpt: gpd.GeoDataFrame,
        fmap: FieldMapping,
        facts: _PieceFacts,
    ) -> None:
        """Add the footprint's other columns to ``columns``, as they are (blank on drainage).

        A column whose name the impact layer already has is not carried (recorded).
        """
        role_cols = {c for c in fmap.as_dict().values() if c} | set(
            dict(fmap.exemption_columns).values()
        )
        skip = {
            "fid",
            "wg_row",
            "status",
            "status_code",
            "status_reason",
            "repairs",
            "wg_input_wkt",
        }
        skip |= {str(self.manifest.settings.get("part_id_column") or "").lower()}
        taken = {c.lower() for c in columns} | {c.lower() for c in PROVENANCE}
        for column in fpt.columns:
            name = str(column)
            if column == fpt.geometry.name or column in role_cols or name.lower() in skip:
                continue
            if name.lower() in taken:
                self.records.append(
                    f"footprint column {name!r} not carried: the impact layer has one of that name"
                )
                continue
            columns[name] = [
                fpt[column].iat[p] if f else None
                for f, p in zip(facts.is_fp, facts.fp_pos, strict=True)
            ]

    def _note_slivers(self, frame: gpd.GeoDataFrame, pieces: fp.Pieces) -> None:
        """Record and warn about impacts smaller than :data:`SLIVER_SQFT` (kept)."""
        sqft = shapely.area(pieces.geometry) * SQFT_PER_SQM if len(frame) else np.array([])
        small = sqft < SLIVER_SQFT
        if not small.any():
            return
        shown = ", ".join(
            f"{i} ({s:.3g} sq ft)"
            for i, s in zip(frame["impact_id"][small][:10], sqft[small][:10], strict=True)
        )
        msg = (
            f"{int(small.sum())} impact(s) smaller than {SLIVER_SQFT:g} sq ft were kept: "
            f"{shown}; check whether the footprint and the delineation were drawn to each "
            "other's lines (a sliver of a seam) or the impact is real"
        )
        self.records.append(msg)
        # warned at the caller of impacts(): past this, _impact_frame, derive and impacts
        warnings.warn(msg, SmallImpactWarning, stacklevel=5)

    def _owners(
        self, pieces: fp.Pieces, wl_union: np.ndarray, impact_ids: Sequence[str]
    ) -> dict[str, list[Any]]:
        """Return each impact's owner, the owner's portion of the wetland, whole or not."""
        parcels, owners, pins = self._parcels()
        known = np.array([o is not None for o in owners])
        pgeoms = np.asarray(parcels.geometry.values, dtype=object)
        tree = shapely.STRtree(pgeoms)
        k = len(pieces.part)
        owner_col, portion_col, whole_col, parcel_col = (
            OUTPUT_NAMES[role]
            for role in ("owner", "portion_sqft", "owns_whole_wetland", "parcel_id")
        )
        columns = (owner_col, portion_col, whole_col) + ((parcel_col,) if pins is not None else ())
        out: dict[str, list[Any]] = {c: [None] * k for c in columns}
        self._parcels_reached: set[int] = set()
        if not k:
            return out
        i, j = fp.interior_overlaps(pieces.geometry, pgeoms, tree)
        areas = shapely.area(shapely.intersection(pieces.geometry[i], pgeoms[j]))
        wi, wj = fp.interior_overlaps(wl_union, pgeoms, tree)
        self._parcels_reached = set(int(v) for v in np.r_[j, wj])
        portion, covered = _owner_portions(wl_union, pgeoms, owners, known, wi, wj)
        straddle: list[str] = []
        outside: list[int] = []
        for piece in range(k):
            sel = i == piece
            by_owner: dict[str, float] = {}
            largest: dict[str, tuple[float, int]] = {}  # each owner's parcel most under it
            for p, a in zip(j[sel], areas[sel], strict=True):
                if known[p]:
                    by_owner[owners[p]] = by_owner.get(owners[p], 0.0) + float(a)
                    largest[owners[p]] = max(largest.get(owners[p], (-1.0, -1)), (float(a), p))
            if not by_owner:
                outside.append(piece)
                continue
            owner = max(by_owner, key=lambda o: (by_owner[o], o))
            if len(by_owner) > 1:
                straddle.append(
                    f"{impact_ids[piece]} lies on the parcels of {len(by_owner)} owners ("
                    + ", ".join(f"{o}: {a * SQFT_PER_SQM:,.0f} sq ft" for o, a in by_owner.items())
                    + f"); its owner is taken as {owner}"
                )
            w = int(pieces.wetland[piece])
            share = portion.get((w, owner), 0.0)
            out[owner_col][piece] = owner
            if pins is not None:  # the parcel of the register's portion (subd. 9(f))
                out[parcel_col][piece] = pins[largest[owner][1]]
            out[portion_col][piece] = round(share * SQFT_PER_SQM, 1)
            whole = float(shapely.area(wl_union[w]))
            out[whole_col][piece] = _owns_whole(share, covered.get(w, 0.0), whole)
        self._note_owners(straddle, outside, out)
        self._parcels_gdf = parcels
        return out

    def _parcels(self) -> tuple[gpd.GeoDataFrame, np.ndarray, np.ndarray | None]:
        """Return the usable parcels, each one's owner (None: unknown, recorded) and parcel id.

        The parcel ids (``parcel_id``, ``pin``; ``None`` without such a column) give each
        impact the parcel of its landowner's portion that it lies most on, which the
        register reads for subd. 9(f).

        Raises
        ------
        FieldMappingError
            When the parcels have no owner column.
        """
        layer = self.read["parcels"]
        names = self.names["parcels"]
        mapping = resolve_fields(
            layer.gdf, **{k: v for k, v in names.items() if k in ("owner", "parcel_id")}
        )
        if mapping.owner is None:
            raise FieldMappingError(
                f"{layer.source} has no owner column (owner, landowner): name it with "
                "--field owner=COLUMN"
            )
        cleaned = _clean_geometry(layer.gdf, layer.source, self.manifest)
        parcels = cleaned[cleaned["status"] == ASSESSED]
        owners = np.array([read_text(v) for v in parcels[mapping.owner]], dtype=object)
        unknown = int(sum(o is None for o in owners))
        if unknown:
            self.records.append(
                f"{layer.source}: {unknown} parcel(s) without an owner in column "
                f"{mapping.owner!r}: their land's owner is unknown"
            )
        pins = (
            None
            if mapping.parcel_id is None
            else np.array([read_text(v) for v in parcels[mapping.parcel_id]], dtype=object)
        )
        return parcels, owners, pins

    def _note_owners(
        self, straddle: list[str], outside: list[int], out: Mapping[str, list[Any]]
    ) -> None:
        """Record the impacts on several owners' land, on none, and of unknown wholeness."""
        if straddle:
            self.records.append(
                "impacts on the land of more than one owner take the owner of the larger share "
                "(subd. 9(f) then pools them under that owner, the stricter reading; split the "
                "part along the parcel line to decide each owner's share alone): "
                + "; ".join(straddle[:10])
            )
        if outside:
            self.records.append(
                f"{len(outside)} impact(s) lie on no parcel with an owner: owner, portion and "
                "whole-wetland ownership unknown"
            )
        owner, whole = out[OUTPUT_NAMES["owner"]], out[OUTPUT_NAMES["owns_whole_wetland"]]
        unknown_whole = [p for p in range(len(owner)) if owner[p] is not None and whole[p] is None]
        if unknown_whole:
            self.records.append(
                f"{len(unknown_whole)} impact(s): part of their wetland lies outside every parcel "
                "with an owner, so whether the owner holds the whole wetland is unknown"
            )

    # -- the tally and the layers for the map ------------------------------------------

    def _parts_table(
        self,
        parts: _Parts,
        idx: np.ndarray,
        net: fp.NetParts,
        pieces: fp.Pieces,
        fpt: gpd.GeoDataFrame,
        drain: _Lines | None,
    ) -> gpd.GeoDataFrame:
        """Return every part with its status, reason, count of impacts and areas."""
        geoms, used = parts.geoms, parts.used
        n = len(geoms)
        n_fp = len(fpt)
        count = np.bincount(idx[pieces.part], minlength=n) if len(pieces.part) else np.zeros(n, int)
        wet_sqm = (
            np.bincount(idx[pieces.part], weights=shapely.area(pieces.geometry), minlength=n)
            if len(pieces.part)
            else np.zeros(n)
        )
        net_sqm = np.zeros(n)
        net_sqm[idx] = shapely.area(net.geometry)
        existing_sqm = np.zeros(n)
        existing_sqm[idx] = net.existing_sqm
        overlap_sqm = np.zeros(n)
        for a, _b, s in net.overlaps:
            overlap_sqm[idx[a]] += s
        reasons = list(fpt["status_reason"]) + (
            list(drain.gdf["status_reason"]) if drain is not None else []
        )
        status = []
        why = []
        for p in range(n):
            if not used[p]:
                status.append("not_used")
                why.append(str(reasons[p]) or "not usable")
            elif count[p]:
                status.append("impacts")
                why.append("")
            elif net_sqm[p] == 0 and existing_sqm[p] > 0:
                status.append("all_existing")
                why.append("lies entirely on existing developed ground")
            elif net_sqm[p] == 0:
                status.append("counted_by_other_parts")
                why.append("lies entirely under earlier or permanent parts of its project")
            else:
                status.append("no_wetland")
                why.append("touches no wetland")
        original = [g for g in geoms]
        if drain is not None:  # the drainage rows keep their line
            original[n_fp:] = list(drain.gdf.geometry.values)
        return gpd.GeoDataFrame(
            {
                "part_id": parts.id,
                "part_layer": parts.layer,
                "part_row": [int(r) for r in parts.row],
                "project": parts.project,
                "duration": list(parts.duration),
                "status": status,
                "reason": why,
                "impacts": count.astype(int),
                "wetland_sqft": np.round(wet_sqm * SQFT_PER_SQM, 2),
                "net_sqft": np.round(net_sqm * SQFT_PER_SQM, 2),
                "existing_sqft": np.round(existing_sqm * SQFT_PER_SQM, 2),
                "overlap_sqft": np.round(overlap_sqm * SQFT_PER_SQM, 2),
            },
            geometry=gpd.GeoSeries(np.array(original, dtype=object), crs=WORKING_CRS),
            crs=WORKING_CRS,
        )

    def _source_layers(
        self,
        parts: gpd.GeoDataFrame,
        existing: np.ndarray | None,
        wl: dict[str, Any],
        frame: gpd.GeoDataFrame,
    ) -> dict[str, gpd.GeoDataFrame]:
        out: dict[str, gpd.GeoDataFrame] = {}
        footprint = parts[parts["part_layer"] == "footprint"]
        fpt_geoms = self.read["footprint"].gdf.geometry.values
        out["footprint"] = gpd.GeoDataFrame(
            footprint.drop(columns="geometry"),
            geometry=gpd.GeoSeries(
                np.asarray(fpt_geoms, dtype=object), index=footprint.index, crs=WORKING_CRS
            ),
            crs=WORKING_CRS,
        )
        drainage = parts[parts["part_layer"] == "drainage"]
        if len(drainage):
            out["drainage"] = drainage.copy()
        if existing is not None:
            gdf = self._existing_gdf
            out["existing"] = gpd.GeoDataFrame(
                {
                    "wg_row": gdf["wg_row"],
                    "status": gdf["status"],
                    "status_reason": gdf["status_reason"],
                },
                geometry=gdf.geometry,
                crs=WORKING_CRS,
            )
        wgdf = wl["gdf"]
        wmap: FieldMapping = wl["mapping"]
        keep = {"wg_row": wgdf["wg_row"], "wetland_id": wl["names"][wl["code"]]}
        for role in ("wetland_type", "cowardin"):
            column = getattr(wmap, role)
            if column is not None:
                keep[OUTPUT_NAMES[role]] = wgdf[column].map(
                    lambda v: None if is_blank(v) else str(v)
                )
        keep["repairs"] = wgdf["repairs"]
        keep[SOURCE_COLUMN] = wl["source"]
        out["delineation"] = gpd.GeoDataFrame(keep, geometry=wgdf.geometry, crs=WORKING_CRS)
        if "parcels" in self.read and hasattr(self, "_parcels_gdf"):
            p = self._parcels_gdf
            reached = sorted(getattr(self, "_parcels_reached", set()))
            sub = p.iloc[reached]
            owner_col = resolve_fields(p).owner
            out["parcels"] = gpd.GeoDataFrame(
                {"wg_row": sub["wg_row"], "owner": sub[owner_col] if owner_col else None},
                geometry=sub.geometry,
                crs=WORKING_CRS,
            )
        return out

    def _assumptions(self, source: str) -> None:
        manifest = self.manifest
        manifest.settings["wetlands_source"] = source
        manifest.assumptions.append(
            "Impacts were cut from the construction limits: each footprint part minus the "
            "existing ground and the earlier or permanent parts of its project, intersected "
            "with each wetland (docs/footprint.md); the analyst checks the footprint and the "
            "delineation, not the cutting."
        )
        if source == "nwi":
            manifest.assumptions.insert(0, NWI_SCREENING_NOTE)
            manifest.add_records([NWI_SCREENING_NOTE])
