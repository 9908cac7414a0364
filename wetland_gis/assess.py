"""Assess a project: read the impact layer, classify every polygon, apply the rules.

:func:`assess` is the one call an analyst makes. It reads the impacts (a path or a
GeoDataFrame), records every repair and reprojection, classifies each polygon from the
context layers (:mod:`wetland_gis.geometry.classify`), then asks the rules core
(:mod:`wetland_gis.rules`) for the project's decisions. Every input row is in the output,
assessed or with the reason it could not be.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.context import Context, load_context
from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactOutcome, Outcome, PercentageArea, ShorelandZone, WetlandType
from wetland_gis.errors import (
    MissingCRSError,
    RulesInputError,
    ThresholdToleranceWarning,
)
from wetland_gis.geometry.classify import GEOMETRIC_COLUMNS, classify_impacts
from wetland_gis.geometry.cleaning import ASSESSED, NOT_ASSESSED, clean_polygons
from wetland_gis.geometry.crs import to_working_crs
from wetland_gis.geometry.overlay import flag_overlaps
from wetland_gis.geometry.shoreland import zones_for_map
from wetland_gis.io.fields import FieldMapping, resolve_fields
from wetland_gis.io.layers import read_layer, write_layer
from wetland_gis.io.wetland_types import read_types
from wetland_gis.manifest import InputRecord, Manifest
from wetland_gis.parameters import ParameterSet, as_date, default_parameters
from wetland_gis.rules import (
    ImpactFacts,
    de_minimis,
    de_minimis_allowance,
    exemption_candidates,
    public_comment_required,
    public_waters_wetland,
    replacement_ratio,
    replacement_required,
    sequencing_without_alternatives_analysis,
)
from wetland_gis.units import joint_application_area

__all__ = ["AssessOptions", "Assessment", "assess", "map_layers", "DECISION_COLUMNS"]

SEP = "; "
NO_PROJECT = "(no project)"
"""Project of the rows whose project column is empty."""

#: Columns :func:`assess` adds after the geometric classification.
DECISION_COLUMNS = (
    "area_reported",
    "wetland_type",
    "type_source",
    "type_verify",
    "type_note",
    "cedar_tamarack",
    "public_waters_wetland",
    "de_minimis",
    "de_minimis_sqft",
    "other_exemptions",
    "outcome",
    "ratio",
    "replace_acres",
    "near_threshold",
    "citations",
    "reasons",
    "verify",
)

_ZONE_OF = {z.value: z for z in ShorelandZone}
_ZONE_COLUMNS = (
    (ShorelandZone.BUILDING_SETBACK, "sqft_setback"),
    (ShorelandZone.PROTECTION, "sqft_protection"),
    (ShorelandZone.OUTSIDE, "sqft_outside"),
)

MAP_ZONE_PAD_FT = 5280.0
"""How far beyond the impacts the shoreland zones are drawn for the map (a display choice)."""
_TRUE = {"1", "true", "t", "yes", "y"}


@dataclass(frozen=True)
class AssessOptions:
    """Choices an analyst makes for a run; none of them is a legal number.

    Parameters
    ----------
    multi_zone_reading : {"most_restrictive", "per_zone"}
        How § 103G.2241, subd. 9(e) applies to a project in several zones (docs/rules.md).
    tolerance_percent : float
        Warn when an area is within this percentage of a threshold it is compared with
        (a measurement tolerance, not law; default 1).
    shoreland_increase, setback_increase : bool
        Claim the subd. 9(b) or 9(c) increase (its conditions become verify items).
    local_limit_sqft : float, optional
        A more restrictive local de minimis standard (subd. 9(i)).
    cumulative_sqft_since_1992 : float
        Area of the landowner's portion already drained or filled (subd. 9(f)).
    other_exemption_claimed : bool
        Another § 103G.2241 exemption is claimed on the project (subd. 9(g)).
    after_the_fact, after_the_fact_multiplier
        § 103G.222, subd. 1(n): the LGU's multiplier for an after-the-fact plan.
    assume_no_public_waters : bool
        When the context has no public waters layers, place every impact outside the
        shoreland wetland protection zone (recorded, and a verify item on each row).
        Without it such impacts are not assessed: the zone is never guessed.
    """

    multi_zone_reading: str = "most_restrictive"
    tolerance_percent: float = 1.0
    shoreland_increase: bool = False
    setback_increase: bool = False
    local_limit_sqft: float | None = None
    cumulative_sqft_since_1992: float = 0.0
    other_exemption_claimed: bool = False
    after_the_fact: bool = False
    after_the_fact_multiplier: float = 1.0
    assume_no_public_waters: bool = False


@dataclass
class Assessment:
    """The result of :func:`assess`.

    Attributes
    ----------
    impacts : GeoDataFrame
        One row per input feature (EPSG:26915), input columns first, then the
        classification and decision columns of ``docs/data_schema.md``.
    summary : DataFrame
        The impact table in the joint application convention.
    projects : DataFrame
        One row per project: totals and the project-level decisions.
    decisions : dict
        ``{"projects": {project: [Decision, ...]}, "impacts": {impact_id: [Decision, ...]}}``.
    zones : GeoDataFrame
        Shoreland building setback and protection zones around the waters involved.
    manifest : Manifest
        Inputs, hashes, parameters, as-of date, repairs and assumptions.
    context : Context
        The context layers used.
    """

    impacts: gpd.GeoDataFrame
    summary: pd.DataFrame
    projects: pd.DataFrame
    decisions: dict[str, dict[Hashable, list[Decision]]]
    zones: gpd.GeoDataFrame
    manifest: Manifest
    context: Context
    fields: FieldMapping = field(default_factory=FieldMapping)

    def decisions_json(self) -> dict[str, Any]:
        """Return every decision as JSON-ready dictionaries."""
        return {
            kind: {str(k): [d.to_dict() for d in v] for k, v in items.items()}
            for kind, items in self.decisions.items()
        }

    def write(self, out: str | Path) -> list[Path]:
        """Write the classified layer and, beside it, the tables and the manifest.

        Parameters
        ----------
        out : str or Path
            The classified layer's file: ``.gpkg`` (default; also gets the layers
            ``shoreland_zones``), ``.parquet``, ``.geojson``, ``.csv`` or ``.shp``.

        Returns
        -------
        list of Path
            Every file written.
        """
        out = Path(out)
        if not out.suffix:
            out = out.with_suffix(".gpkg")
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".gpkg" and out.exists():
            out.unlink()
        written = list(write_layer(self.impacts, out, layer="impacts"))
        if out.suffix.lower() == ".gpkg" and len(self.zones):
            written += write_layer(self.zones, out, layer="shoreland_zones")
        stem = out.with_suffix("")
        summary = Path(f"{stem}_summary.csv")
        self.summary.to_csv(summary, index=False)
        projects = Path(f"{stem}_projects.csv")
        self.projects.to_csv(projects, index=False)
        decisions = Path(f"{stem}_decisions.json")
        decisions.write_text(
            json.dumps(self.decisions_json(), indent=2, ensure_ascii=False), "utf-8"
        )
        written += [summary, projects, decisions]
        manifest = Path(f"{stem}_manifest.json")
        self.manifest.outputs = [str(p) for p in dict.fromkeys(written)] + [str(manifest)]
        self.manifest.write(manifest)
        return [*dict.fromkeys(written), manifest]

    def explore(self, **kwargs: Any):
        """Return the interactive TEP map of the assessment (displays inline in Jupyter).

        Parameters
        ----------
        **kwargs
            Passed to :func:`wetland_gis.mapping.tep_map` (e.g. ``basemap="osm"``).

        Returns
        -------
        folium.Map
        """
        from wetland_gis.mapping import tep_map

        kwargs.setdefault("zones", self.zones)
        kwargs.setdefault("context", map_layers(self.context))
        return tep_map(self.impacts, **kwargs)


def map_layers(context: Context) -> dict[str, gpd.GeoDataFrame]:
    """Return the context layers the TEP map draws (those present and not empty).

    Parameters
    ----------
    context : Context
        The context of an assessment.

    Returns
    -------
    dict
        Layer name to GeoDataFrame, for :func:`wetland_gis.mapping.tep_map`.
    """
    from wetland_gis.mapping.symbology import CONTEXT_LAYERS

    return {
        name: layer
        for name in CONTEXT_LAYERS
        if (layer := context.get(name)) is not None and len(layer)
    }


def _read_impacts(
    impacts: str | Path | gpd.GeoDataFrame,
    layer: str | None,
    assume_crs: str | None,
    manifest: Manifest,
) -> tuple[gpd.GeoDataFrame, str]:
    """Read the impact layer, record it in the manifest, return it with its source name."""
    if isinstance(impacts, gpd.GeoDataFrame):
        gdf = impacts.copy()
        source = "<GeoDataFrame>"
        if gdf.crs is None:
            if assume_crs is None:
                raise MissingCRSError(
                    "the impacts GeoDataFrame has no CRS: set it with "
                    "gdf.set_crs('EPSG:26915') if the coordinates are UTM 15N, or pass "
                    "assume_crs='EPSG:xxxx' (recorded in the manifest)"
                )
            gdf = gdf.set_crs(assume_crs)
            manifest.add_records([f"{source}: CRS assumed {assume_crs} (assume_crs)"])
        manifest.add_input(
            InputRecord("impacts", source, None, "", gdf.crs.to_string(), len(gdf))
        )
        return gdf, source
    read = read_layer(impacts, layer, assume_crs=assume_crs)
    manifest.add_records(read.records)
    manifest.add_input(
        InputRecord("impacts", read.source, read.layer, read.sha256, read.crs, len(read.gdf))
    )
    source = read.source + (f" (layer {read.layer})" if read.layer else "")
    return read.gdf, source


def _rename_colliding(
    gdf: gpd.GeoDataFrame, fm: FieldMapping, manifest: Manifest
) -> tuple[gpd.GeoDataFrame, FieldMapping]:
    """Rename input columns that share a name with an output column (``<name>_in``).

    Names are compared without regard to case, as GeoPackage and shapefile fields are
    (an input ``Outcome`` or ``STATUS`` collides too). The field mapping, resolved on
    the input names, is returned with the new names, so a type column named
    ``wetland_type`` is still read.
    """
    taken = set(GEOMETRIC_COLUMNS) | set(DECISION_COLUMNS) | {"status", "status_reason",
                                                              "repairs", "wg_row"}
    in_use = {str(c).lower() for c in gdf.columns}
    renames = {}
    for col in gdf.columns:
        if str(col).lower() in taken and col != gdf.geometry.name:
            new = f"{col}_in"
            while new.lower() in in_use:
                new += "_"
            in_use.add(new.lower())
            renames[col] = new
    if renames:
        manifest.add_records(
            f"input column {old!r} renamed {new!r}: the output has a column of that name"
            for old, new in renames.items()
        )
        gdf = gdf.rename(columns=renames)
        fm = replace(fm, **{role: renames[col] for role, col in fm.as_dict().items()
                            if col in renames})
    return gdf, fm


def _text(value: Any) -> str:
    """Return an id or project value as text; a missing or blank value is ``""``."""
    if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)):
        return ""
    text = str(value)
    return text if text.strip() else ""


def _flag(value: Any) -> bool:
    if value is None or value is pd.NA or (isinstance(value, float) and np.isnan(value)):
        return False
    if isinstance(value, (bool, np.bool_, int, np.integer, float)):
        return bool(value)
    return str(value).strip().lower() in _TRUE


def _number(value: Any) -> float | None:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return None
    return None if np.isnan(out) else out


def _types_of(label: str) -> tuple[WetlandType, ...]:
    return tuple(WetlandType(int(t)) for t in str(label).split("/"))


def _governing_type(
    types: tuple[WetlandType, ...], row: pd.Series, params: ParameterSet, as_of: dt.date
) -> tuple[WetlandType, str | None]:
    """Return the most restrictive of a mixed or ambiguous polygon's types, and why."""
    if len(types) == 1:
        return types[0], None
    touched = [z for z, col in _ZONE_COLUMNS if (row[col] or 0) > 0] or [
        _ZONE_OF.get(row["zone"], ShorelandZone.OUTSIDE)
    ]

    def amount(t: WetlandType, z: ShorelandZone) -> float:
        return de_minimis_allowance(
            t, z, PercentageArea(row["pct_class"]), bool(row["metro"]),
            cedar_tamarack=bool(row["cedar_tamarack"]), params=params, as_of=as_of,
        ).value

    # the smallest amounts in the zones the polygon touches (most restrictive zone first),
    # then in every zone, then the lower type number
    keys = {
        t: (tuple(amount(t, z) for z in touched),
            tuple(amount(t, z) for z, _ in _ZONE_COLUMNS), int(t))
        for t in types
    }
    chosen = min(types, key=keys.__getitem__)
    here = keys[chosen][0][0]
    note = (
        f"the polygon holds types {'/'.join(str(int(t)) for t in types)}; it is held to "
        f"type {int(chosen)}, whose de minimis amounts here are the smallest "
        f"({here:,.0f} sq ft in the {touched[0].value.replace('_', ' ')}); verify the split "
        "of types in the field"
    )
    return chosen, note


def _public_waters_wetland(
    types: tuple[WetlandType, ...],
    acres: float | None,
    incorporated: Any,
    params: ParameterSet,
    day: dt.date,
) -> Decision:
    """Decide § 103G.005 subd. 15a; an unknown incorporated status is said, not guessed."""
    if pd.notna(incorporated):
        return public_waters_wetland(types, acres, bool(incorporated), params=params, as_of=day)
    rural = public_waters_wetland(types, acres, False, params=params, as_of=day)
    urban = public_waters_wetland(types, acres, True, params=params, as_of=day)
    if rural.outcome is urban.outcome:
        return rural
    return _with_verify(
        rural,
        "whether the wetland lies in an incorporated area is unknown (no incorporated_areas "
        "layer): it was screened as unincorporated; in a city it would be a public waters "
        "wetland (§ 103G.005, subd. 15a) and outside the WCA",
    )


def _facts(row: pd.Series, wtype: WetlandType, pww: bool) -> ImpactFacts:
    return ImpactFacts(
        impact_id=row["_impact_key"],
        wetland_type=wtype,
        cedar_tamarack=bool(row["cedar_tamarack"]),
        sqft_setback=float(row["sqft_setback"] or 0.0),
        sqft_protection=float(row["sqft_protection"] or 0.0),
        sqft_outside=float(row["sqft_outside"] or 0.0),
        pct_class=PercentageArea(row["pct_class"]),
        metro=bool(row["metro"]),
        calcareous_fen=_flag(row["calcareous_fen"]),
        public_waters_wetland=pww,
    )


def _mark_unclassifiable(gdf: gpd.GeoDataFrame, params: ParameterSet, day: dt.date) -> None:
    """Mark assessed rows the context could not classify as not assessed, with the fix."""
    assessed = gdf["status"] == ASSESSED
    missing = gdf[["pct_class", "metro", "area_sqft"]].isna()
    no_place = assessed & missing.any(axis=1)
    for idx in gdf.index[no_place]:
        cols = ", ".join(missing.columns[missing.loc[idx]])
        gdf.loc[idx, "status_reason"] = (
            f"cannot classify: no value for {cols} (the polygon lies outside the county "
            "layer of the context); check its location and CRS"
        )
    no_zone = assessed & ~no_place & gdf["sqft_outside"].isna()
    if no_zone.any():
        basin_ft = params.value("shoreland.protection_zone.basin_distance", day)
        course_ft = params.value("shoreland.protection_zone.watercourse_distance", day)
        gdf.loc[no_zone, "status_reason"] = (
            "shoreland zone unknown: the context has no public_water_basins or "
            "public_watercourses layer, so the shoreland wetland protection zone cannot be "
            "drawn; add the DNR public waters layers, or pass assume_no_public_waters=True "
            f"(--assume-no-public-waters) if no public water basin lies within {basin_ft:,} ft "
            f"and no watercourse within {course_ft:,} ft"
        )
    gdf.loc[no_place | no_zone, "status"] = NOT_ASSESSED


def _assume_outside(gdf: gpd.GeoDataFrame, manifest: Manifest) -> None:
    """Put rows with an unknown shoreland split outside the zone, recorded and flagged."""
    unknown = (gdf["status"] == ASSESSED) & gdf["sqft_outside"].isna() & gdf["area_sqft"].notna()
    if not unknown.any():
        return
    gdf.loc[unknown, "sqft_setback"] = 0.0
    gdf.loc[unknown, "sqft_protection"] = 0.0
    gdf.loc[unknown, "sqft_outside"] = gdf.loc[unknown, "area_sqft"]
    gdf.loc[unknown, "zone"] = ShorelandZone.OUTSIDE.value
    manifest.add_records([
        f"{int(unknown.sum())} impact(s) placed outside the shoreland wetland protection zone "
        "without public waters layers, as the user asserted (assume_no_public_waters)"
    ])


def _near(amount: float, limit: float, tolerance_percent: float) -> bool:
    return limit > 0 and abs(amount - limit) <= limit * tolerance_percent / 100


def assess(
    impacts: str | Path | gpd.GeoDataFrame,
    context: str | Path | Context | None = None,
    *,
    layer: str | None = None,
    as_of: str | dt.date | None = None,
    fields: Mapping[str, str] | None = None,
    assume_crs: str | None = None,
    params: ParameterSet | None = None,
    options: AssessOptions | None = None,
    progress: Callable[[str], None] | None = None,
) -> Assessment:
    """Classify every impact polygon and decide the project's exemptions and replacement.

    Parameters
    ----------
    impacts : str, Path or GeoDataFrame
        The impact layer: shapefile (file, folder or ``.zip``), GeoPackage, GeoJSON,
        GeoParquet, or a GeoDataFrame with a CRS.
    context : str, Path or Context, optional
        The reference layers (``docs/data_schema.md``); default: the shipped counties only.
    layer : str, optional
        Layer name inside a GeoPackage.
    as_of : str or date, optional
        Application date the legal parameters are read for (default today).
    fields : Mapping[str, str], optional
        Column names by role (``impact_id``, ``wetland_type``, ``cowardin``, ``project``,
        ``cedar_tamarack``, ``impact_kind``, ``land_use``, ``wetland_acres``); the
        defaults of :func:`wetland_gis.io.fields.resolve_fields` otherwise.
    assume_crs : str, optional
        CRS for a layer that has none (recorded); without it such a layer is an error.
    params : ParameterSet, optional
        Legal parameters (default: the shipped, cited tree).
    options : AssessOptions, optional
        The analyst's choices (readings, increases claimed, tolerance).
    progress : callable, optional
        Called with a short message at each step (the CLI prints them).

    Returns
    -------
    Assessment

    Raises
    ------
    InputError
        When the layer cannot be read, has no CRS, or a named field is missing.
    """
    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    params = params or default_parameters()
    options = options or AssessOptions()
    day = as_date(as_of)
    manifest = Manifest(
        command="assess",
        as_of=day.isoformat(),
        parameters_source=params.source,
        parameters_sha256=params.sha256,
        settings={k: getattr(options, k) for k in options.__dataclass_fields__},
    )
    say("reading impacts")
    gdf, source = _read_impacts(impacts, layer, assume_crs, manifest)
    if len(gdf) == 0:
        manifest.add_records([f"{source}: the impact layer has no features; nothing to assess"])
    # work by position: the input's index (possibly repeated, e.g. after pd.concat) is
    # given back on the output
    input_index = gdf.index
    gdf = gdf.reset_index(drop=True)
    fm = resolve_fields(gdf, **dict(fields or {}))
    gdf, fm = _rename_colliding(gdf, fm, manifest)
    manifest.settings["fields"] = fm.as_dict()
    manifest.add_records(fm.notes)
    gdf, crs_records = to_working_crs(gdf, source=source)
    manifest.add_records(crs_records)
    cleaned = clean_polygons(gdf, source=source, id_field=fm.impact_id)
    gdf = cleaned.gdf
    manifest.add_records(cleaned.records)
    type_records: list[str] = []
    read_types(gdf, fm.wetland_type, fm.cowardin, fm.cedar_tamarack, type_records)
    manifest.add_records(type_records)

    say("loading context")
    ctx = context if isinstance(context, Context) else load_context(
        context, params=params, as_of=day
    )
    manifest.add_records(ctx.records)
    for rec in ctx.manifest_inputs():
        manifest.add_input(rec)

    say(f"classifying {int((gdf['status'] == ASSESSED).sum())} polygons")
    classified = classify_impacts(gdf, ctx, params=params, as_of=day)
    gdf = classified.gdf
    manifest.add_records(classified.records)
    if options.assume_no_public_waters:
        _assume_outside(gdf, manifest)
    overlap_records: list[str] = []
    flag_overlaps(gdf, fm.impact_id, overlap_records)
    manifest.add_records(overlap_records)
    _mark_unclassifiable(gdf, params, day)

    say("applying the rules")
    gdf, project_rows, decisions = _decide(gdf, fm, params, day, options, manifest)

    zones = zones_for_map(
        gdf[gdf["status"] == ASSESSED], ctx, params=params, as_of=day, pad_ft=MAP_ZONE_PAD_FT
    )
    summary = _summary_table(gdf, fm)
    projects = pd.DataFrame(project_rows)
    gdf.index = input_index
    summary.index = input_index
    say(f"assessed {len(gdf)} features in {time.perf_counter() - t0:.1f} s")
    return Assessment(
        impacts=gdf,
        summary=summary,
        projects=projects,
        decisions=decisions,
        zones=zones,
        manifest=manifest,
        context=ctx,
        fields=fm,
    )


def _decide(
    gdf: gpd.GeoDataFrame,
    fm: FieldMapping,
    params: ParameterSet,
    day: dt.date,
    options: AssessOptions,
    manifest: Manifest,
) -> tuple[gpd.GeoDataFrame, list[dict[str, Any]], dict[str, dict[Hashable, list[Decision]]]]:
    """Apply the rules core per project and write the decision columns."""
    gdf = gdf.copy()
    ids = (gdf[fm.impact_id] if fm.impact_id else gdf["wg_row"]).map(_text)
    # a duplicated or missing id (flagged by the cleaning step) is told apart by its row
    gdf["_impact_key"] = ids + np.where(
        ids.duplicated(keep=False) | (ids == ""), "#" + gdf["wg_row"].astype(str), ""
    )
    if fm.project:
        projects = gdf[fm.project].map(_text)
        blank = projects == ""
        if blank.any():
            projects[blank] = NO_PROJECT
            rows = ", ".join(str(r) for r in gdf.loc[blank, "wg_row"].head(10))
            more = f" and {int(blank.sum()) - 10} more" if blank.sum() > 10 else ""
            manifest.add_records([
                f"{int(blank.sum())} row(s) without a project in column {fm.project!r} (wg_row "
                f"{rows}{more}) were decided together as project {NO_PROJECT!r}"
            ])
    else:
        projects = pd.Series("project", gdf.index)
    gdf["area_reported"] = [
        joint_application_area(a) if pd.notna(a) else None for a in gdf["area_sqft"]
    ]
    for col in DECISION_COLUMNS[6:]:
        if col not in gdf:
            gdf[col] = None
    gdf["outcome"] = ImpactOutcome.NOT_ASSESSED.value
    basin_ft, basin_cite = params.cited("shoreland.protection_zone.basin_distance", day)
    course_ft = params.value("shoreland.protection_zone.watercourse_distance", day)
    no_waters_note = (
        f"no public waters layer was used: confirm no public water basin lies within "
        f"{basin_ft:,} ft and no watercourse within {course_ft:,} ft ({basin_cite})"
    )
    by_impact: dict[Hashable, list[Decision]] = {}
    by_project: dict[Hashable, list[Decision]] = {}
    project_rows: list[dict[str, Any]] = []
    near_msgs: list[str] = []
    cells: dict[str, dict[Hashable, Any]] = defaultdict(dict)

    for project, members in gdf.groupby(projects, sort=False):
        facts: list[ImpactFacts] = []
        rows: dict[Hashable, Any] = {}
        for idx, row in members.iterrows():
            if row["status"] != ASSESSED:
                cells["reasons"][idx] = row["status_reason"]
                continue
            key = row["_impact_key"]
            types = _types_of(row["wetland_type"])
            wtype, mixed_note = _governing_type(types, row, params, day)
            acres = _number(row[fm.wetland_acres]) if fm.wetland_acres else None
            pww = _public_waters_wetland(types, acres, row["incorporated"], params, day)
            chain = [pww]
            if mixed_note:
                chain.append(
                    Decision("wetland_type", Outcome.CLASSIFIED, reasons=(mixed_note,),
                             verify=(mixed_note,), as_of=day.isoformat(), value=int(wtype))
                )
            by_impact[key] = chain
            rows[key] = (idx, row, acres)
            facts.append(_facts(row, wtype, pww.outcome is Outcome.OUT_OF_SCOPE))
        if not facts:  # listed all the same: its impacts are in the layer, not assessed
            project_rows.append({"project": project, "impacts": len(members), "assessed": 0})
            continue
        result = de_minimis(
            facts,
            multi_zone_reading=options.multi_zone_reading,
            cumulative_sqft_since_1992=options.cumulative_sqft_since_1992,
            other_exemption_claimed=options.other_exemption_claimed,
            shoreland_increase=options.shoreland_increase,
            setback_increase=options.setback_increase,
            local_limit_sqft=options.local_limit_sqft,
            params=params,
            as_of=day,
        )
        for group in result.groups:
            if _near(group.total_sqft, group.allowance_sqft, options.tolerance_percent):
                near_msgs.append(
                    f"project {project!r}: {group.name} total {group.total_sqft:,.1f} sq ft is "
                    f"within {options.tolerance_percent:g} percent of the "
                    f"{group.allowance_sqft:,.0f} sq ft amount ({', '.join(group.citations)})"
                )
                for iid in group.impact_ids:
                    cells["near_threshold"][rows[iid][0]] = near_msgs[-1]
        in_scope = [f for f in facts if not f.public_waters_wetland]
        total = sum(f.area_sqft for f in in_scope)
        out_of_scope = sum(f.area_sqft for f in facts if f.public_waters_wetland)
        replace_total = 0.0
        exempt_sqft = 0.0
        for f in facts:
            idx, row, acres = rows[f.impact_id]
            chain = by_impact[f.impact_id]
            dm = result.by_impact[f.impact_id]
            chain.append(dm)
            cells["public_waters_wetland"][idx] = f.public_waters_wetland
            cells["de_minimis"][idx] = dm.outcome.value
            cells["de_minimis_sqft"][idx] = dm.value
            others = exemption_candidates(
                f, wetland_acres=acres,
                incorporated=None if pd.isna(row["incorporated"]) else bool(row["incorporated"]),
                project_sqft=total, params=params, as_of=day,
            )
            cells["other_exemptions"][idx] = SEP.join(
                f"{d.question} ({d.citations[0]})" for d in others
            ) or None
            chain.extend(others)
            if dm.outcome is Outcome.OUT_OF_SCOPE:
                outcome = ImpactOutcome.OUT_OF_WCA_SCOPE
            elif dm.outcome is Outcome.PROHIBITED:
                outcome = ImpactOutcome.PROHIBITED
            elif dm.outcome is Outcome.EXEMPT:
                outcome = ImpactOutcome.DE_MINIMIS_EXEMPT
                exempt_sqft += f.area_sqft
            else:
                outcome = ImpactOutcome.REPLACEMENT_REQUIRED
                agricultural = bool(
                    fm.land_use and str(row[fm.land_use]).strip().lower() == "agricultural"
                )
                ratio = replacement_ratio(
                    f.pct_class, agricultural,
                    after_the_fact=options.after_the_fact,
                    after_the_fact_multiplier=options.after_the_fact_multiplier,
                    params=params, as_of=day,
                )
                if not fm.land_use or pd.isna(row[fm.land_use]):
                    ratio = _with_verify(
                        ratio, "land use not given: the impact was treated as on "
                        "nonagricultural land (§ 103G.222, subd. 1(f)); confirm"
                    )
                required = replacement_required(f.area_sqft, ratio, params=params, as_of=day)
                chain += [ratio, required]
                cells["ratio"][idx] = ratio.value
                cells["replace_acres"][idx] = required.value
                replace_total += required.value
            cells["outcome"][idx] = outcome.value
            cells["citations"][idx] = SEP.join(
                dict.fromkeys(c for d in chain for c in d.citations)
            )
            cells["reasons"][idx] = SEP.join(dict.fromkeys(r for d in chain for r in d.reasons))
            verify = [v for d in chain for v in d.verify]
            if row["type_verify"]:
                verify.insert(0, f"wetland type: {row['type_note'] or 'verify in the field'}")
            if options.assume_no_public_waters and pd.isna(row["nearest_pw_ft"]):
                verify.append(no_waters_note)
            if row["nearest_pw_ft"] == 0:
                verify.append(
                    f"the impact lies on or waterward of the ordinary high water level of public "
                    f"water {row['nearest_pw']}: work in public waters needs a DNR "
                    "public-waters-work permit (Minn. Stat. § 103G.245, subd. 1); check DNR "
                    "jurisdiction"
                )
            if pd.isna(row["calcareous_fen"]):
                verify.append(
                    "no calcareous fen layer in the context: check the DNR list of calcareous "
                    "fens (§ 103G.223); the impact was screened as not a fen"
                )
            cells["verify"][idx] = SEP.join(dict.fromkeys(verify)) or None

        project_chain = [result.project]
        needs_plan = replace_total > 0
        comment = None
        if needs_plan:
            comment = public_comment_required(total, params=params, as_of=day)
            project_chain.append(comment)
        applicable = _applicable_a_amount(in_scope, params, day) if needs_plan else None
        sequencing = None
        if applicable is not None:
            sequencing = sequencing_without_alternatives_analysis(
                total, applicable, params=params, as_of=day
            )
            project_chain.append(sequencing)
        limits = []
        if comment is not None:
            limits.append(params.cited("procedure.public_comment_threshold", day))
        if applicable is not None:
            extra, cite = params.cited("procedure.sequencing_allowance", day)
            limits.append((applicable + extra, cite))
        for limit, cite in limits:
            if _near(total, limit, options.tolerance_percent):
                near_msgs.append(
                    f"project {project!r}: total {total:,.1f} sq ft is within "
                    f"{options.tolerance_percent:g} percent of the {limit:,.0f} sq ft "
                    f"threshold of {cite}"
                )
        by_project[project] = project_chain
        project_rows.append(
            {
                "project": project,
                "impacts": len(members),
                "assessed": len(facts),
                "total_sqft": round(total, 1),
                "total_reported": joint_application_area(total),
                "out_of_scope_sqft": round(out_of_scope, 1),
                "de_minimis": result.project.outcome.value,
                "exempt_sqft": round(exempt_sqft, 1),
                "replace_acres": round(replace_total, 4),
                # § 103G.2242 subd. 8 and § 103G.222 subd. 1(b)(6) concern a replacement
                # plan: without one they do not arise
                "public_comment": comment.outcome.value if comment else "no_replacement_plan",
                "sequencing_on_site": sequencing.outcome.value if sequencing else None,
                "citations": SEP.join(
                    dict.fromkeys(c for d in project_chain for c in d.citations)
                ),
                "verify": SEP.join(dict.fromkeys(v for d in project_chain for v in d.verify)),
            }
        )
    if near_msgs:
        manifest.add_records(near_msgs)
        warnings.warn(SEP.join(near_msgs), ThresholdToleranceWarning, stacklevel=3)
    for col, values in cells.items():
        column = pd.Series(values, dtype=object)
        gdf[col] = gdf[col].astype(object)
        gdf.loc[column.index, col] = column
    gdf = gdf.drop(columns="_impact_key")
    for col in ("ratio", "replace_acres", "de_minimis_sqft"):
        gdf[col] = pd.to_numeric(gdf[col], errors="coerce")
    return gdf, project_rows, {"projects": by_project, "impacts": by_impact}


def _with_verify(decision: Decision, item: str) -> Decision:
    return replace(decision, verify=(*decision.verify, item))


def _applicable_a_amount(
    facts: list[ImpactFacts], params: ParameterSet, day: dt.date
) -> float | None:
    """Return the subd. 9(a) amount for the project's main type group outside the zone.

    § 103G.222, subd. 1(b)(6) measures the on-site sequencing allowance from "the
    applicable amount in section 103G.2241, subdivision 9, paragraph (a)". The amount of
    the type that covers most of the project's area is used; ``None`` when the project
    mixes places of different classes (left to the LGU).
    """
    places = {(f.pct_class, f.metro) for f in facts}
    if len(places) != 1:
        return None
    by_type: dict[tuple[WetlandType, bool], float] = {}
    for f in facts:
        key = (f.wetland_type, f.cedar_tamarack)
        by_type[key] = by_type.get(key, 0.0) + f.area_sqft
    (wtype, cedar), _ = max(by_type.items(), key=lambda kv: kv[1])
    pct, metro = places.pop()
    try:
        return de_minimis_allowance(
            wtype, ShorelandZone.OUTSIDE, pct, metro, cedar_tamarack=cedar,
            params=params, as_of=day,
        ).value
    except RulesInputError:
        return None


def _summary_table(gdf: gpd.GeoDataFrame, fm: FieldMapping) -> pd.DataFrame:
    """Return the impact table in the Minnesota joint application convention."""
    ids = gdf[fm.impact_id] if fm.impact_id else gdf["wg_row"]
    kind = gdf[fm.impact_kind] if fm.impact_kind else pd.Series(None, index=gdf.index)
    size = gdf[fm.wetland_acres] if fm.wetland_acres else pd.Series(None, index=gdf.index)
    place = [
        SEP.join(str(v) for v in (c, f"Major {m}" if pd.notna(m) else None,
                                  f"BSA {b}" if pd.notna(b) else None) if v and pd.notna(v))
        for c, m, b in zip(gdf["county"], gdf["major"], gdf["bsa"], strict=True)
    ]
    return pd.DataFrame(
        {
            "Aquatic resource ID": ids.astype(str),
            "Resource type": [f"Type {t}" if t else "" for t in gdf["wetland_type"]],
            "Type of impact": kind,
            "Size of impact": gdf["area_reported"],
            "Overall size of resource (ac)": size,
            "County, Major Watershed #, Bank Service Area #": place,
            "Outcome": gdf["outcome"],
            "Ratio": gdf["ratio"],
            "Replacement (ac)": gdf["replace_acres"].round(2),
            "Status": gdf["status"],
            "Reason not assessed": gdf["status_reason"],
            "area_sqft": gdf["area_sqft"].round(1),
        }
    )
