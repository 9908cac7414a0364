"""Assess a project: read the impact layer, classify every polygon, apply the rules.

:func:`assess` is the one call an analyst makes. It reads the impacts (a path or a
GeoDataFrame), records every repair and reprojection, classifies each polygon from the
context layers (:mod:`wetland_gis.geometry.classify`), then asks the rules core
(:mod:`wetland_gis.rules`) for the project's decisions. Every input row is in the output,
assessed or with the reason it could not be.
"""

from __future__ import annotations

import datetime as dt
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import geopandas as gpd
import numpy as np
import pandas as pd
import pyarrow as pa

from wetland_gis._gc import collector_paused
from wetland_gis.context import Context, as_context
from wetland_gis.context_layers import map_layers
from wetland_gis.enums import (
    ImpactOutcome,
    Outcome,
    ShorelandZone,
    StatusCode,
)
from wetland_gis.errors import (
    FieldNameWarning,
    ImpactExceedsWetlandWarning,
    InputError,
    MissingContextWarning,
    MissingCRSError,
    RulesInputError,
    ThresholdToleranceWarning,
)
from wetland_gis.geometry.classify import GEOMETRIC_COLUMNS, classify_impacts
from wetland_gis.geometry.cleaning import ASSESSED, NOT_ASSESSED, clean_polygons
from wetland_gis.geometry.crs import to_working_crs
from wetland_gis.geometry.overlay import flag_overlaps
from wetland_gis.geometry.shoreland import zones_for_map
from wetland_gis.io.assessed import SOURCE_LAYERS
from wetland_gis.io.exemption_columns import attach_exemption_facts, exemption_text
from wetland_gis.io.field_map import record_field_map
from wetland_gis.io.fields import (
    FieldMapping,
    field_name_warnings,
    resolve_fields,
)
from wetland_gis.io.impact_facts import FactSteps, impact_facts
from wetland_gis.io.joint_application import summary_table
from wetland_gis.io.layers import list_layers, read_layer, warn_if_empty
from wetland_gis.io.project_facts import apply_project_facts, read_project_facts
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.io.trace_json import decisions_table, write_records_json, write_trace_parquet
from wetland_gis.io.trace_store import (
    LARGE_PROJECT_IMPACTS,
    PROJECT_PART_POINTER,
    PROJECT_RULES_SHOWN,
    compact_steps,
)
from wetland_gis.io.values import is_blank
from wetland_gis.io.wetland_types import read_types
from wetland_gis.manifest import InputRecord, Manifest
from wetland_gis.memory import check_fits
from wetland_gis.notebook import summary_table as notebook_table
from wetland_gis.parameters import ParameterSet, as_date, default_parameters
from wetland_gis.rules import (
    Claims,
    ProjectDecision,
    decide_projects,
)
from wetland_gis.rules import registry as R
from wetland_gis.rules.engine import CLAUSE_READINGS, ROUTE_PUBLIC_WATERS
from wetland_gis.rules.exempt import ExemptionClaims
from wetland_gis.rules.trace import TRACE_COLUMNS, render_reasons
from wetland_gis.units import FOOT_M, joint_application_area

if TYPE_CHECKING:
    import folium

__all__ = [
    "AssessOptions",
    "Assessment",
    "assess",
    "map_layers",
    "DECISION_COLUMNS",
    "read_impacts",
    "clean_and_type",
    "record_context",
]

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
    "replacement_by",
    "outcome",
    "counted_sqft",
    "permit_route",
    "ratio",
    "atf_multiplier",
    "replace_acres",
    "replace_acres_if_fails",
    "near_threshold",
    "citations",
    "reasons",
    "verify",
)


MAP_ZONE_PAD_FT = 5280.0
"""How far beyond the impacts the shoreland zones are drawn for the map (a display choice)."""


#: The :class:`AssessOptions` keywords that are claims of the run, and the
#: :class:`~wetland_gis.rules.Claims` field each sets (the one place they are mapped; the
#: order is that of the manifest's ``settings``).
CLAIM_OPTIONS: dict[str, str] = {
    "shoreland_increase": "shoreland_increase",
    "setback_increase": "setback_increase",
    "local_limit_sqft": "local_limit_sqft",
    "cumulative_sqft_since_1992": "prior_sqft_since_1992",
    "other_exemption_claimed": "other_exemption_claimed",
    "exemption_claims": "exemptions",
    "after_the_fact": "after_the_fact",
    "after_the_fact_multiplier": "after_the_fact_multiplier",
    "clause_reading": "clause_reading",
    "owns_whole_wetland": "owns_whole_wetland",
}
#: The manifest's ``settings`` keys, in their order (the claims by their option name).
_SETTINGS = (
    "multi_zone_reading",
    "tolerance_percent",
    "shoreland_increase",
    "setback_increase",
    "local_limit_sqft",
    "cumulative_sqft_since_1992",
    "other_exemption_claimed",
    "exemption_claims",
    "after_the_fact",
    "after_the_fact_multiplier",
    "assume_no_public_waters",
    "clause_reading",
    "owns_whole_wetland",
    "fen_review_ft",
)


@dataclass(frozen=True, init=False)
class AssessOptions:
    """Choices an analyst makes for a run; none of them is a legal number.

    The claims and readings the rules decide with are :attr:`claims` (a
    :class:`~wetland_gis.rules.Claims`, handed to the engine as it is). The keywords
    ``shoreland_increase`` to ``owns_whole_wetland`` below set its fields
    (:data:`CLAIM_OPTIONS`; ``cumulative_sqft_since_1992`` is ``Claims.prior_sqft_since_1992``);
    given with ``claims``, they replace its fields.

    Parameters
    ----------
    multi_zone_reading : {"most_restrictive"}
        How § 103G.2241, subd. 9(e) applies to a project in several zones: the whole
        project is held to the paragraph of the most restrictive zone it touches. The
        ``per_zone`` reading was removed (issue 13): it added the amounts of (a), (b) and
        (c) together, which the text forbids.
    tolerance_percent : float
        Warn when an area is within this percentage of a threshold it is compared with
        (a measurement tolerance, not law; default 1).
    shoreland_increase, setback_increase : bool
        Claim the subd. 9(b) or 9(c) increase (its conditions become verify items).
    local_limit_sqft : float, optional
        A more restrictive local de minimis standard (subd. 9(i)).
    cumulative_sqft_since_1992 : float, optional
        Area of the landowner's portion already drained or filled (subd. 9(f)), used where
        the impact layer has no ``prior_sqft_since_1992`` value; unknown if None.
    other_exemption_claimed : bool
        Another § 103G.2241 exemption is claimed on the project (subd. 9(g)).
    exemption_claims : ExemptionClaims, optional
        The analyst's claims for the other exemptions (an SWCD approval, a Corps permit,
        a finding; :class:`wetland_gis.rules.exempt.ExemptionClaims`): they fill each
        impact's claim a column does not give (docs/rules.md, "Other exemptions").
    after_the_fact, after_the_fact_multiplier
        § 103G.222, subd. 1(n): the LGU's multiplier for an after-the-fact plan.
    assume_no_public_waters : bool
        When the context has no public waters layers, place every impact outside the
        shoreland wetland protection zone (recorded, and a verify item on each row).
        Without it such impacts are not assessed: the zone is never guessed.
    clause_reading : {"one_clause", "per_clause"}
        How the clauses of that one paragraph are totalled (docs/rules.md, "Open
        readings"; default ``one_clause``, the stricter).
    owns_whole_wetland : bool, optional
        Whether the landowner owns the entire wetland, where the layer does not say;
        unknown if None (then an exemption that depends on it is conditional).
    fen_review_ft : float, optional
        Flag impacts within this distance of a calcareous fen for DNR fen review
        (§ 103G.223); a user choice, no default distance.
    claims : Claims, optional
        The claims and readings as a whole (default: ``Claims()``).
    project_facts : str, Path or mapping, optional
        Facts given once per project (a CSV or YAML file keyed by project, or a mapping
        ``project -> {fact: value}``; ``--project-facts``): they fill each impact's blank
        fact cells before the rules run, and a cell that disagrees is an error
        (:mod:`wetland_gis.io.project_facts`, docs/data_schema.md "Project facts").
    """

    multi_zone_reading: str
    tolerance_percent: float
    assume_no_public_waters: bool
    fen_review_ft: float | None
    claims: Claims
    project_facts: str | Path | Mapping[str, Mapping[str, Any]] | None

    def __init__(
        self,
        multi_zone_reading: str = "most_restrictive",
        tolerance_percent: float = 1.0,
        shoreland_increase: bool | None = None,
        setback_increase: bool | None = None,
        local_limit_sqft: float | None = None,
        cumulative_sqft_since_1992: float | None = None,
        other_exemption_claimed: bool | None = None,
        after_the_fact: bool | None = None,
        after_the_fact_multiplier: float | None = None,
        assume_no_public_waters: bool = False,
        clause_reading: str | None = None,
        owns_whole_wetland: bool | None = None,
        fen_review_ft: float | None = None,
        *,
        claims: Claims | None = None,
        exemption_claims: ExemptionClaims | None = None,
        project_facts: str | Path | Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        given = {
            "shoreland_increase": shoreland_increase,
            "setback_increase": setback_increase,
            "local_limit_sqft": local_limit_sqft,
            "cumulative_sqft_since_1992": cumulative_sqft_since_1992,
            "other_exemption_claimed": other_exemption_claimed,
            "exemption_claims": exemption_claims,
            "after_the_fact": after_the_fact,
            "after_the_fact_multiplier": after_the_fact_multiplier,
            "clause_reading": clause_reading,
            "owns_whole_wetland": owns_whole_wetland,
        }
        if multi_zone_reading != "most_restrictive":
            raise RulesInputError(
                f"multi_zone_reading was {multi_zone_reading!r} but is expected to be "
                "'most_restrictive': the per_zone reading was removed because it added the "
                "amounts of § 103G.2241, subd. 9(a), (b) and (c) together, which subd. 9(e) "
                f"forbids; the open reading is clause_reading, one of {list(CLAUSE_READINGS)}"
            )
        if clause_reading is not None and clause_reading not in CLAUSE_READINGS:
            raise RulesInputError(
                f"clause_reading was {clause_reading!r} but is expected to be one of "
                f"{list(CLAUSE_READINGS)}"
            )
        changes: dict[str, Any] = {CLAIM_OPTIONS[k]: v for k, v in given.items() if v is not None}
        built = replace(claims or Claims(), **changes) if changes else (claims or Claims())
        object.__setattr__(self, "multi_zone_reading", multi_zone_reading)
        object.__setattr__(self, "tolerance_percent", tolerance_percent)
        object.__setattr__(self, "assume_no_public_waters", assume_no_public_waters)
        object.__setattr__(self, "fen_review_ft", fen_review_ft)
        object.__setattr__(self, "claims", built)
        object.__setattr__(self, "project_facts", project_facts)

    def settings(self) -> dict[str, Any]:
        """Return the options as the manifest records them (the claims by option name)."""
        claimed = {k: getattr(self.claims, v) for k, v in CLAIM_OPTIONS.items()}
        own = {k: getattr(self, k) for k in _SETTINGS if k not in claimed}
        settings = {k: claimed[k] if k in claimed else own[k] for k in _SETTINGS}
        readings = {
            k: v for k, v in self.claims.readings().items() if k not in CLAIM_OPTIONS.values()
        }
        defaults = Claims().readings()
        # a reading other than its default is recorded too (no key: the default)
        settings.update({k: v for k, v in readings.items() if v != defaults[k]})
        if self.project_facts is not None:  # recorded when given (its hash: the inputs)
            facts = self.project_facts
            settings["project_facts"] = (
                {str(p): dict(v or {}) for p, v in facts.items()}
                if isinstance(facts, Mapping)
                else str(facts)
            )
        return settings


_ZonesSource: TypeAlias = "gpd.GeoDataFrame | Callable[[], gpd.GeoDataFrame]"
"""An :attr:`Assessment.zones` value: the zones, or a function that computes them once."""


def _no_zones() -> gpd.GeoDataFrame:
    """Return an empty zones frame (the default of :attr:`Assessment.zones`)."""
    cols = ["pw_id", "pw_name", "kind", "shore_class", "zone", "inner_ft", "outer_ft"]
    return gpd.GeoDataFrame({c: [] for c in cols}, geometry=[], crs="EPSG:26915")


class _LazyZones:
    """The ``zones`` field of :class:`Assessment`: computed on first use, then kept.

    Drawing the zone polygons costs as much as a third of the classification on a
    statewide layer, and only a map, a report or a GeoPackage (its ``shoreland_zones``
    layer) needs them; a dataclass field whose default is a descriptor is set and read
    through it (``dataclasses``, "Descriptor-typed fields").
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_{name}_source"

    def __get__(self, obj: Any, objtype: type | None = None) -> gpd.GeoDataFrame:
        if obj is None:  # the dataclass asks for the default
            return _no_zones
        value = obj.__dict__[self._slot]
        if not isinstance(value, pd.DataFrame):
            value = value()
            obj.__dict__[self._slot] = value
        return value

    def __set__(self, obj: Any, value: _ZonesSource) -> None:
        obj.__dict__[self._slot] = value


@dataclass(repr=False, eq=False)
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
    decisions : list of ProjectDecision
        The engine's decision per project (:func:`wetland_gis.rules.decide_project`).
    trace : DataFrame
        The decision trace, one row per rule step (columns
        :data:`wetland_gis.rules.TRACE_COLUMNS`; ``verify`` lists, ``inputs`` and
        ``parameters`` dicts). Every text column of ``impacts`` is rendered from it.
    zones : GeoDataFrame
        Shoreland building setback and protection zones around the waters involved;
        computed when first read (a map, a report, a GeoPackage's ``shoreland_zones``
        layer), not by :func:`assess` itself. The constructor takes the frame or a
        function returning it.
    manifest : Manifest
        Inputs, hashes, parameters, as-of date, repairs and assumptions.
    context : Context
        The context layers used.
    """

    impacts: gpd.GeoDataFrame
    summary: pd.DataFrame
    projects: pd.DataFrame
    decisions: list[ProjectDecision]
    manifest: Manifest
    context: Context
    fields: FieldMapping = field(default_factory=FieldMapping)
    trace: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=TRACE_COLUMNS))
    zones: _LazyZones = _LazyZones()
    #: The layers the impacts were cut from (``wetland-gis impacts``, issue 35): footprint,
    #: existing, delineation, parcels, drainage; written into a GeoPackage for the map.
    footprint_layers: dict[str, gpd.GeoDataFrame] = field(default_factory=dict)

    def __repr__(self) -> str:
        """Say what the result holds, without drawing the zones (they are drawn when read).

        A dataclass's own ``repr`` would print every frame and draw the zones; ``==`` is
        off (``eq=False``): two results are compared by their frames
        (``a.impacts.equals(b.impacts)``), never as a whole.

        Examples
        --------
        >>> import geopandas as gpd
        >>> Assessment(impacts=gpd.GeoDataFrame(geometry=[], crs="EPSG:26915"),
        ...            summary=None, projects=None, decisions=[], manifest=None, context=None)
        Assessment(0 impacts, 0 projects, 0 trace steps, zones not drawn yet)
        """
        zones = self.__dict__.get("_zones_source")
        drawn = (
            f"{len(zones)} zone polygons"
            if isinstance(zones, pd.DataFrame)
            else "zones not drawn yet"
        )
        impacts = 0 if self.impacts is None else len(self.impacts)
        return (
            f"Assessment({impacts} impacts, {len(self.decisions)} projects, "
            f"{len(self.trace)} trace steps, {drawn})"
        )

    def _repr_html_(self) -> str:
        """Return a small table of the result for a notebook (the frames are attributes).

        Examples
        --------
        >>> import geopandas as gpd
        >>> a = Assessment(impacts=gpd.GeoDataFrame(geometry=[], crs="EPSG:26915"),
        ...                summary=None, projects=None, decisions=[], manifest=None, context=None)
        >>> "<caption>Assessment</caption>" in a._repr_html_()
        True
        """
        impacts = self.impacts if self.impacts is not None else pd.DataFrame()
        rows: list[tuple[str, object]] = [
            ("as of", getattr(self.manifest, "as_of", "")),
            ("impacts", len(impacts)),
            ("projects", len(self.decisions)),
        ]
        if "outcome" in impacts:
            for outcome, n in impacts["outcome"].astype(str).value_counts().items():
                rows.append((f"outcome {outcome}", int(n)))
        if "replace_acres" in impacts:
            acres = pd.to_numeric(impacts["replace_acres"], errors="coerce").sum()
            rows.append(("replacement required (credits, replacement acres)", f"{acres:,.4f}"))
        rows.append(("trace steps", len(self.trace)))
        return notebook_table(
            "Assessment", rows, "impacts, summary, projects, trace, manifest: the frames"
        )

    def decisions_table(self) -> pd.DataFrame:
        """Return the trace as written to files: ``verify``, ``inputs``, ``parameters`` JSON."""
        return decisions_table(self.trace)

    def decisions_json(self) -> list[dict[str, Any]]:
        """Return the trace as JSON-ready records (the ``*_decisions.json`` file)."""
        table = self.decisions_table().astype(object)
        table = table.where(pd.notna(table), None)
        return table.to_dict("records")

    def write(self, out: str | Path, *, overwrite: bool = False) -> list[Path]:
        """Write the classified layer and, beside it, the tables and the manifest.

        Every file is staged beside its target and moved into place when all are
        complete (:class:`wetland_gis.io.safe_write.SafeWriter`): a failed write leaves
        the previous outputs whole. Into an existing GeoPackage only the layers
        ``impacts`` and ``shoreland_zones`` are replaced; its other layers are kept.

        Parameters
        ----------
        out : str or Path
            The classified layer's file: ``.gpkg`` (default; also gets the layers
            ``shoreland_zones`` and ``decisions``), ``.parquet``, ``.geojson``, ``.csv`` or
            ``.shp``. Beside it ``<stem>_summary.csv``, ``<stem>_projects.csv``, the
            manifest and the trace: ``<stem>_decisions.parquet`` beside a GeoParquet file
            (the table, its list and dict columns as JSON text), else
            ``<stem>_decisions.json``.
        overwrite : bool, default False
            Replace existing files that an earlier ``assess`` did not write there.

        Returns
        -------
        list of Path
            Every file written.

        Raises
        ------
        OutputError
            When an output is an input of the run, or would replace a file that is not
            an earlier output of ``assess`` without ``overwrite``.
        """
        out = Path(out)
        if not out.suffix:
            out = out.with_suffix(".gpkg")
        stem = out.with_suffix("")
        manifest = Path(f"{stem}_manifest.json")
        gpkg = out.suffix.lower() == ".gpkg"
        with SafeWriter.for_run("assess", self.manifest, manifest, overwrite=overwrite) as w:
            w.layer(self.impacts, out, layer="impacts", polygons=True)
            if gpkg:
                zones = self.zones if len(self.zones) else None
                w.layer(zones, out, layer="shoreland_zones", polygons=True)
                # an attribute table (no geometry): the trace, per the decisions contract
                w.layer(self.decisions_table(), out, layer="decisions")
                for name in SOURCE_LAYERS:  # the layers the impacts were cut from (issue 35)
                    frame = self.footprint_layers.get(name)
                    w.layer(frame if frame is not None and len(frame) else None, out, layer=name)
            w.csv(self.summary, f"{stem}_summary.csv")
            projects = (
                self.projects
                if len(self.projects.columns)
                else pd.DataFrame(columns=["project", "impacts", "assessed"])
            )
            w.csv(projects, f"{stem}_projects.csv")
            if out.suffix.lower() == ".parquet":  # the trace as a table beside GeoParquet
                w.file(partial(write_trace_parquet, self.trace), f"{stem}_decisions.parquet")
            else:  # the same text as w.json(self.decisions_json(), ...), a slice at a time
                w.file(partial(write_records_json, self.trace), f"{stem}_decisions.json")
            w.manifest(self.manifest, manifest)
        return list(w.written)

    def report(
        self,
        out: str | Path,
        *,
        siting: Any = None,
        pdf: str | Path | bool | None = None,
        **kwargs: Any,
    ) -> list[Path]:
        """Write the TEP report (HTML) and, with ``pdf``, its PDF with a static map.

        Parameters
        ----------
        out : str or Path
            The HTML file.
        siting : SitingResult, optional
            The result of :func:`wetland_gis.site` on this assessment.
        pdf : str, Path or bool, optional
            Also write the PDF (the ``pdf`` extra): to this path, or beside ``out`` if True.
        **kwargs
            Passed to :func:`wetland_gis.mapping.report.report_assessment`.

        Returns
        -------
        list of Path
        """
        from wetland_gis.mapping.report import report_assessment

        return report_assessment(self, out, siting=siting, pdf=pdf, **kwargs)

    def explore(self, **kwargs: Any) -> folium.Map:
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
        kwargs.setdefault("trace", self.trace)
        kwargs.setdefault("context", map_layers(self.context))
        kwargs.setdefault("project_layers", self.footprint_layers or None)
        return tep_map(self.impacts, **kwargs)


def read_impacts(
    impacts: str | Path | gpd.GeoDataFrame,
    layer: str | None,
    assume_crs: str | None,
    manifest: Manifest,
    override_crs: str | None = None,
) -> tuple[gpd.GeoDataFrame, str]:
    """Read the impact layer, record it in the manifest, return it with its source name."""
    if isinstance(impacts, gpd.GeoDataFrame):
        gdf = impacts.copy()
        source = "<GeoDataFrame>"
        if override_crs is not None:
            old = None if gdf.crs is None else gdf.crs.to_string()
            gdf = gdf.set_crs(override_crs, allow_override=True)
            _record_override(manifest, {"layer": source, "old": old, "new": str(override_crs)})
        elif gdf.crs is None:
            if assume_crs is None:
                raise MissingCRSError(
                    "the impacts GeoDataFrame has no CRS: set it with "
                    "gdf.set_crs('EPSG:26915') if the coordinates are UTM 15N, or pass "
                    "assume_crs='EPSG:xxxx' (recorded in the manifest)"
                )
            gdf = gdf.set_crs(assume_crs)
            manifest.add_records([f"{source}: CRS assumed {assume_crs} (assume_crs)"])
        manifest.add_input(InputRecord("impacts", source, None, "", gdf.crs.to_string(), len(gdf)))
        warn_if_empty(gdf, source, manifest)
        return gdf, source
    layer = _impacts_layer_of_footprint_run(impacts, layer, manifest)
    read = read_layer(impacts, layer, assume_crs=assume_crs, override_crs=override_crs)
    manifest.add_records(read.records)
    if read.crs_override is not None:
        _record_override(manifest, read.crs_override)
    manifest.add_input(
        InputRecord("impacts", read.source, read.layer, read.sha256, read.crs, len(read.gdf))
    )
    source = read.source + (f" (layer {read.layer})" if read.layer else "")
    warn_if_empty(read.gdf, source, manifest)
    return read.gdf, source


def _impacts_layer_of_footprint_run(
    path: str | Path, layer: str | None, manifest: Manifest
) -> str | None:
    """Return ``"impacts"`` for a GeoPackage written by ``wetland-gis impacts`` (issue 35).

    Such a file holds the layer ``impacts`` and the layers it was cut from; without
    ``--layer`` its ``impacts`` layer is read (recorded). Any other file: ``layer``.
    """
    if layer is not None or Path(path).suffix.lower() != ".gpkg" or not Path(path).is_file():
        return layer
    try:
        names = list_layers(path)
    except InputError:
        return layer
    if "impacts" in names and len(names) > 1 and set(names) <= {"impacts", *SOURCE_LAYERS}:
        manifest.add_records(
            [f"{path}: layer 'impacts' read (the impact layer of `wetland-gis impacts`)"]
        )
        return "impacts"
    return layer


def footprint_layers(path: str | Path | gpd.GeoDataFrame) -> dict[str, gpd.GeoDataFrame]:
    """Return the source layers of a GeoPackage written by ``wetland-gis impacts`` (or ``{}``).

    Parameters
    ----------
    path : str, Path or GeoDataFrame
        An impact layer's file (a frame has none).

    Returns
    -------
    dict of str to GeoDataFrame
        The layers of :data:`wetland_gis.io.assessed.SOURCE_LAYERS` the file holds.
    """
    if isinstance(path, gpd.GeoDataFrame) or Path(path).suffix.lower() != ".gpkg":
        return {}
    if not Path(path).is_file():
        return {}
    names = list_layers(path)
    if "impacts" not in names or not set(names) <= {"impacts", *SOURCE_LAYERS}:
        return {}
    return {name: read_layer(path, name).gdf for name in SOURCE_LAYERS if name in names}


def _record_override(manifest: Manifest, override: dict[str, Any]) -> None:
    """Record a CRS replaced by ``override_crs`` (``--override-crs``) in the manifest."""
    manifest.settings.setdefault("crs_overrides", []).append(dict(override))
    manifest.add_records(
        [
            f"{override['layer']}: CRS overridden: {override['old'] or 'no CRS'} replaced by "
            f"{override['new']} (override_crs; the coordinates were kept)"
        ]
    )


def clean_and_type(
    gdf: gpd.GeoDataFrame,
    field_map: FieldMapping,
    source: str,
    manifest: Manifest,
    row_numbers: Sequence[int] | None = None,
) -> gpd.GeoDataFrame:
    """Reproject to the working CRS, clean the polygons, read the wetland types; record each."""
    gdf, crs_records = to_working_crs(gdf, source=source)
    manifest.add_records(crs_records)
    cleaned = clean_polygons(
        gdf, source=source, id_field=field_map.impact_id, row_numbers=row_numbers
    )
    manifest.add_records(cleaned.records)
    type_records: list[str] = []
    read_types(
        cleaned.gdf,
        field_map.wetland_type,
        field_map.cowardin,
        field_map.cedar_tamarack,
        type_records,
    )
    manifest.add_records(type_records)
    return cleaned.gdf


def record_context(ctx: Context, manifest: Manifest) -> None:
    """Add the context's records and input files to the manifest."""
    manifest.add_records(ctx.records)
    for rec in ctx.manifest_inputs():
        manifest.add_input(rec)


def _warn_field_names(columns: Any, field_map: FieldMapping, manifest: Manifest) -> None:
    """Warn of (and record) each column that looks like a role no column was found for."""
    messages = field_name_warnings(columns, field_map)
    manifest.add_records(messages)
    for msg in messages:
        warnings.warn(msg, FieldNameWarning, stacklevel=3)


def _rename_colliding(
    gdf: gpd.GeoDataFrame, field_map: FieldMapping, manifest: Manifest
) -> tuple[gpd.GeoDataFrame, FieldMapping]:
    """Rename input columns that share a name with an output column (``<name>_in``).

    Names are compared without regard to case, as GeoPackage and shapefile fields are
    (an input ``Outcome`` or ``STATUS`` collides too). The field mapping, resolved on
    the input names, is returned with the new names, so a type column named
    ``wetland_type`` is still read.
    """
    taken = (
        set(GEOMETRIC_COLUMNS)
        | set(DECISION_COLUMNS)
        | {"status", "status_reason", "repairs", "wg_row"}
    )
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
        changes: dict[str, Any] = {
            role: renames[col] for role, col in field_map.as_dict().items() if col in renames
        }
        field_map = replace(field_map, **changes)
    return gdf, field_map


def _text(value: Any) -> str:
    """Return an id or project value as text; a missing or blank value is ``""``."""
    return "" if is_blank(value) else str(value)


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
    gdf.loc[no_place, "status_code"] = StatusCode.OUTSIDE_COUNTIES.value
    gdf.loc[no_zone, "status_code"] = StatusCode.SHORELAND_ZONE_UNKNOWN.value
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
    manifest.add_records(
        [
            f"{int(unknown.sum())} impact(s) placed outside the shoreland wetland protection zone "
            "without public waters layers, as the user asserted (assume_no_public_waters)"
        ]
    )


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
    shoreland_classes: str | Path | pd.DataFrame | None = None,
    class_source: str = "dnr",
    override_crs: str | None = None,
    row_numbers: Sequence[int] | None = None,
    register: Any = None,
    check_memory: bool = True,
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
        It applies only to a layer without a CRS (``--assume-crs``).
    params : ParameterSet, optional
        Legal parameters (default: the shipped, cited tree).
    options : AssessOptions, optional
        The analyst's choices (readings, increases claimed, tolerance).
    progress : callable, optional
        Called with a short message at each step (the CLI prints them).
    shoreland_classes : str, Path or DataFrame, optional
        The DNR basin shoreland classification list; basins without ``shore_class`` take
        theirs from it (:func:`wetland_gis.context.load_context`, ``docs/context.md``).
    class_source : {"dnr", "local"}, default "dnr"
        The list's DNR class, or the county or city ordinance's where it governs.
    override_crs : str, optional
        CRS that replaces the layer's own when its ``.prj`` is wrong (``--override-crs``,
        e.g. ``"EPSG:26915"``): the coordinates are kept and declared to be in it; the
        old and new CRS are in the manifest (``settings["crs_overrides"]``). Not with
        ``assume_crs``.
    row_numbers : sequence of int, optional
        The input row number (``wg_row``) of each row when ``impacts`` is a part of a
        larger layer (the partitioned engines), so that records name the rows of the
        whole layer. Default: the rows' positions.
    register : Register, str or Path, optional
        The LGU's decision register (:class:`wetland_gis.register.Register`, a GeoPackage
        path or a ``postgresql://`` URL): fills each impact's prior area since 1992,
        banked, used-for-credit and determined type before the rules run
        (docs/register.md). The manifest names it by its id, never by its URL.
    check_memory : bool, default True
        Before classifying, estimate the memory the run needs
        (:func:`wetland_gis.memory.check_fits`) and stop with
        :class:`~wetland_gis.errors.InsufficientMemoryError`, naming ``chunk_size=``, when
        it exceeds the memory available; False runs anyway.

    Returns
    -------
    Assessment

    Raises
    ------
    InputError
        When the layer cannot be read, has no CRS, or a named field is missing.
    InsufficientMemoryError
        With ``check_memory``, when the layer would not fit in memory.
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
        settings=options.settings(),
    )
    record_field_map(fields, manifest)
    say("reading impacts")
    gdf, source = read_impacts(impacts, layer, assume_crs, manifest, override_crs)
    # work by position: the input's index (possibly repeated, e.g. after pd.concat) is
    # given back on the output
    input_index = gdf.index
    gdf = gdf.reset_index(drop=True)
    if options.project_facts is not None:  # the project's facts fill the blank fact cells
        gdf = apply_project_facts(
            gdf, read_project_facts(options.project_facts), dict(fields or {}), manifest
        )
    field_map = resolve_fields(gdf, **dict(fields or {}))
    _warn_field_names(gdf.columns, field_map, manifest)
    gdf, field_map = _rename_colliding(gdf, field_map, manifest)
    manifest.settings["fields"] = field_map.as_dict()
    manifest.add_records(field_map.notes)
    gdf = clean_and_type(gdf, field_map, source, manifest, row_numbers)
    if check_memory:  # before the work that would not fit (issue 23)
        check_fits(int((gdf["status"] == ASSESSED).sum()), source=str(source))

    say("loading context")
    ctx = as_context(
        context,
        params=params,
        as_of=day,
        shoreland_classes=shoreland_classes,
        class_source=class_source,
    )
    record_context(ctx, manifest)

    say(f"classifying {int((gdf['status'] == ASSESSED).sum())} polygons")
    classified = classify_impacts(gdf, ctx, params=params, as_of=day)
    gdf = classified.gdf
    manifest.add_records(classified.records)
    for notice in classified.missing_context:  # on stderr too, and in the report (issue 30)
        if notice not in manifest.missing_context:
            manifest.missing_context.append(notice)
            warnings.warn(notice, MissingContextWarning, stacklevel=2)
    if options.assume_no_public_waters:
        _assume_outside(gdf, manifest)
    overlap_records: list[str] = []
    flag_overlaps(gdf, field_map.impact_id, overlap_records)
    manifest.add_records(overlap_records)
    _mark_unclassifiable(gdf, params, day)

    register_steps = None
    if register is not None:
        from wetland_gis.register import Register
        from wetland_gis.register.fill import fill_from_register

        say("reading the decision register")
        reg = register if isinstance(register, Register) else Register(register)
        gdf, field_map, register_steps, register_records = fill_from_register(
            gdf, field_map, reg, params, day
        )
        manifest.settings["register"] = reg.describe()
        manifest.add_records(register_records)

    say("applying the rules")
    fens_near = _near_fens(gdf, ctx, options)
    gdf, project_rows, decisions, trace = _apply_engine(
        gdf, field_map, params, day, options, manifest, fens_near, register_steps
    )

    # the map zones are drawn when first asked for (Assessment.zones), from the
    # assessed polygons as they are now
    # (the rows and the columns it keeps taken at once: no copy of the whole layer)
    zone_columns = [c for c in ("wg_row",) if c in gdf.columns] + [gdf.geometry.name]
    zones = map_zones_later(gdf.loc[gdf["status"] == ASSESSED, zone_columns], ctx, params, day)
    summary = summary_table(gdf, field_map)
    projects = pd.DataFrame(project_rows)
    gdf.index = input_index
    summary.index = input_index
    done = int((gdf["status"] == ASSESSED).sum())
    say(
        f"{len(gdf)} features read, {done} assessed, {len(gdf) - done} not assessed, in "
        f"{time.perf_counter() - t0:.1f} s"
    )
    return Assessment(
        impacts=gdf,
        summary=summary,
        projects=projects,
        decisions=decisions,
        zones=zones,
        manifest=manifest,
        context=ctx,
        fields=field_map,
        trace=trace,
        footprint_layers=footprint_layers(impacts),
    )


def map_zones_later(
    assessed: gpd.GeoDataFrame, ctx: Context, params: ParameterSet, day: dt.date
) -> Callable[[], gpd.GeoDataFrame]:
    """Return a function drawing the map zones of ``assessed`` (:func:`zones_for_map`).

    Only the geometry (and ``wg_row``, which names rows in messages) is kept, so the
    function holds little memory, and later changes to the result's impacts do not
    move the zones.
    """
    keep = [c for c in ("wg_row",) if c in assessed.columns] + [assessed.geometry.name]
    return partial(
        zones_for_map,
        gpd.GeoDataFrame(assessed[keep], geometry=assessed.geometry.name, crs=assessed.crs),
        ctx,
        params=params,
        as_of=day,
        pad_ft=MAP_ZONE_PAD_FT,
    )


def _near_fens(gdf: gpd.GeoDataFrame, ctx: Context, options: AssessOptions) -> pd.Series | None:
    """Return, per row, whether the impact lies within ``fen_review_ft`` of a fen."""
    fens = ctx.get("calcareous_fens")
    if options.fen_review_ft is None or fens is None or not len(fens):
        return None
    import shapely

    assessed = gdf[gdf["status"] == ASSESSED]
    tree = shapely.STRtree(fens.to_crs(gdf.crs).geometry.to_numpy())
    # feet to metres (EPSG:26915 is in metres): a unit conversion, not a legal number
    left, _ = tree.query(
        assessed.geometry.to_numpy(), predicate="dwithin", distance=options.fen_review_ft * FOOT_M
    )
    near = pd.Series(False, index=gdf.index)
    near.loc[assessed.index[np.unique(left)]] = True
    return near


def _apply_engine(
    gdf: gpd.GeoDataFrame,
    field_map: FieldMapping,
    params: ParameterSet,
    day: dt.date,
    options: AssessOptions,
    manifest: Manifest,
    fens_near: pd.Series | None = None,
    extra_steps: Mapping[Hashable, list[tuple]] | None = None,
) -> tuple[gpd.GeoDataFrame, list[dict[str, Any]], list[ProjectDecision], pd.DataFrame]:
    """Build the facts, ask :func:`~wetland_gis.rules.decide_projects`, write the columns.

    The rule order lives in the engine; the rows become :class:`ImpactFacts` and
    ``facts.*`` steps in :func:`wetland_gis.io.impact_facts.impact_facts`. The per-impact
    text columns are rendered from the trace for people.
    """
    with collector_paused(promote=True):  # many small acyclic objects (wetland_gis/_gc.py)
        return _decide_layer(gdf, field_map, params, day, options, manifest, fens_near, extra_steps)


def _decide_layer(
    gdf: gpd.GeoDataFrame,
    field_map: FieldMapping,
    params: ParameterSet,
    day: dt.date,
    options: AssessOptions,
    manifest: Manifest,
    fens_near: pd.Series | None,
    extra_steps: Mapping[Hashable, list[tuple]] | None,
) -> tuple[gpd.GeoDataFrame, list[dict[str, Any]], list[ProjectDecision], pd.DataFrame]:
    """Do the work of :func:`_apply_engine` (with the cyclic collector paused)."""
    # copy-on-write (pandas 3): the caller's frame stays as it was, and only the blocks
    # written here are copied, not the whole classified layer (issue 23)
    gdf = gdf.copy(deep=False)
    ids = (gdf[field_map.impact_id] if field_map.impact_id else gdf["wg_row"]).map(_text)
    # a duplicated or missing id (flagged by the cleaning step) is told apart by its row
    keys = ids + np.where(
        ids.duplicated(keep=False) | (ids == ""), "#" + gdf["wg_row"].astype(str), ""
    )
    if field_map.project:
        projects = gdf[field_map.project].map(_text)
        blank = projects == ""
        if blank.any():
            projects[blank] = NO_PROJECT
            rows = ", ".join(str(r) for r in gdf.loc[blank, "wg_row"].head(10))
            more = f" and {int(blank.sum()) - 10} more" if blank.sum() > 10 else ""
            manifest.add_records(
                [
                    f"{int(blank.sum())} row(s) without a project in column "
                    f"{field_map.project!r} (wg_row "
                    f"{rows}{more}) were decided together as project {NO_PROJECT!r}"
                ]
            )
    else:
        projects = pd.Series("project", gdf.index)
    area = gdf["area_sqft"].to_numpy(dtype=float, na_value=np.nan)
    gdf["area_reported"] = [
        None if missing else joint_application_area(a)
        for a, missing in zip(area.tolist(), np.isnan(area).tolist(), strict=True)
    ]
    for col in DECISION_COLUMNS[6:]:
        gdf[col] = None
    gdf["outcome"] = ImpactOutcome.NOT_ASSESSED.value

    table = impact_facts(
        gdf,
        field_map,
        gdf.index[gdf["status"] == ASSESSED].tolist(),
        dict(zip(gdf.index, keys.tolist(), strict=True)),
        dict(zip(gdf.index, projects.tolist(), strict=True)),
        params,
        day,
        assume_no_public_waters=options.assume_no_public_waters,
        fen_review_ft=options.fen_review_ft,
        fens_near=fens_near,
        extra_steps=extra_steps,
    )
    row_of = table.row_of
    oversized = table.oversized
    if oversized:
        acres_column = field_map.wetland_acres or "wetland_ac"
        shown = ", ".join(oversized[:10]) + (
            f" and {len(oversized) - 10} more" if len(oversized) > 10 else ""
        )
        msg = (
            f"{len(oversized)} impact(s) larger than the {acres_column} given for their "
            f"wetland ({shown}): check the value and the polygons (a verify item on each)"
        )
        manifest.add_records([msg])
        warnings.warn(msg, ImpactExceedsWetlandWarning, stacklevel=3)
    groups = attach_exemption_facts(table.groups, table.row_of, gdf, field_map.exemption_columns)
    claims = options.claims
    decisions = decide_projects(groups, claims, params, day) if groups else []
    trace, trace_columns = _trace_table(table.steps, decisions)
    del table, groups  # the facts are in the decisions and the trace now (issue 23)

    # the columns, rendered from the trace for people
    rendered = _render_by_impact(trace_columns)
    cells: dict[str, dict[Hashable, Any]] = defaultdict(dict)
    near_msgs: list[str] = []
    project_rows: list[dict[str, Any]] = []
    by_project = {d.project: d for d in decisions}
    # each project's rows in order of first appearance (as groupby(sort=False)), without
    # a DataFrame per project; the reasons of the rows not assessed, read once
    members_of: dict[str, list[Hashable]] = {}
    for idx, project in zip(gdf.index, projects.tolist(), strict=True):
        members_of.setdefault(project, []).append(idx)
    not_assessed = (gdf["status"] != ASSESSED).to_numpy()
    status_reasons = dict(
        zip(gdf.index[not_assessed], gdf["status_reason"][not_assessed].tolist(), strict=True)
    )
    # the inputs of each project's sequencing steps, from the trace's columns
    sequencing_inputs: dict[Hashable, list[Mapping[str, Any]]] = defaultdict(list)
    for project, rule_id, inputs in zip(
        trace_columns["project"], trace_columns["rule_id"], trace_columns["inputs"], strict=True
    ):
        if rule_id == R.PROCEDURE_SEQUENCING:
            sequencing_inputs[project].append(inputs)
    del trace_columns
    for project, members in members_of.items():
        decision = by_project.get(project)
        for idx in members:
            if idx in status_reasons:
                cells["reasons"][idx] = status_reasons[idx]
        if decision is None:  # listed all the same: its impacts are in the layer, not assessed
            project_rows.append({"project": project, "impacts": len(members), "assessed": 0})
            continue
        for d in decision.impacts:
            idx = row_of[(project, d.impact_id)]
            text = rendered.get((project, d.impact_id), {})
            cells["public_waters_wetland"][idx] = d.route == ROUTE_PUBLIC_WATERS
            cells["de_minimis"][idx] = None if d.de_minimis is None else d.de_minimis.value
            cells["de_minimis_sqft"][idx] = d.allowance_sqft
            cells["other_exemptions"][idx] = exemption_text(d.exemptions)
            cells["replacement_by"][idx] = d.replacement_by
            cells["outcome"][idx] = d.outcome.value
            cells["ratio"][idx] = d.ratio
            cells["atf_multiplier"][idx] = d.multiplier  # § 103G.222, subd. 1(n), as decided
            cells["replace_acres"][idx] = d.replace_acres
            # what a conditional exemption owes if its fact fails (NaN: not conditional)
            cells["replace_acres_if_fails"][idx] = d.replace_acres_if_fails
            cells["counted_sqft"][idx] = d.counted_sqft
            cells["permit_route"][idx] = d.route
            cells["citations"][idx] = text.get("citations")
            cells["reasons"][idx] = text.get("reasons")
            cells["verify"][idx] = text.get("verify")
        for total in decision.de_minimis_totals:
            if _near(total.total_sqft, total.allowance_sqft, options.tolerance_percent):
                near_msgs.append(
                    f"project {project!r}: total {total.total_sqft:,.1f} sq ft ({total.name}) "
                    f"is within {options.tolerance_percent:g} percent of the "
                    f"{total.allowance_sqft:,.0f} sq ft amount ({', '.join(total.citations)})"
                )
                for iid in total.impact_ids:
                    cells["near_threshold"][row_of[(project, iid)]] = near_msgs[-1]
        totals = decision.totals
        counted = totals["counted_sqft"]
        limits = []
        if totals["public_comment"] is not None:
            limits.append(params.cited("procedure.public_comment_threshold", day))
        if totals["sequencing_on_site"] is not None:
            for inputs in sequencing_inputs.get(project, ()):
                extra, cite = params.cited("procedure.sequencing_allowance", day)
                limits.append((inputs["applicable_amount_sqft"] + extra, cite))
        wca = totals["wca_sqft"]  # the procedure thresholds count WCA wetland only
        for limit, cite in limits:
            if _near(wca, limit, options.tolerance_percent):
                near_msgs.append(
                    f"project {project!r}: total {wca:,.1f} sq ft is within "
                    f"{options.tolerance_percent:g} percent of the {limit:,.0f} sq ft "
                    f"threshold of {cite}"
                )
        project_text = rendered.get((project, ""), {})
        project_rows.append(
            {
                "project": project,
                "impacts": len(members),
                "assessed": len(decision.impacts),
                "outcome": decision.outcome.value,
                "total_sqft": round(totals["total_sqft"], 1),
                "total_reported": joint_application_area(totals["total_sqft"]),
                "counted_sqft": round(counted, 1),
                "public_waters_sqft": round(totals["public_waters_sqft"], 1),
                "not_regulated_sqft": round(totals["not_regulated_sqft"], 1),
                "de_minimis": totals["de_minimis"],
                "exempt_sqft": round(totals["exempt_sqft"], 1),
                "replace_acres": round(totals["replace_acres"], 4),
                # § 103G.2242 subd. 8 and § 103G.222 subd. 1(b), last sentence, concern a
                # replacement plan: without one they do not arise
                "public_comment": totals["public_comment"] or "no_replacement_plan",
                "sequencing_on_site": totals["sequencing_on_site"],
                "citations": project_text.get("citations"),
                "verify": project_text.get("verify"),
                "reasons": project_text.get("reasons"),
            }
        )
    if near_msgs:
        manifest.add_records(near_msgs)
        warnings.warn(TEXT_JOIN.join(near_msgs), ThresholdToleranceWarning, stacklevel=3)
    for name, values in cells.items():
        column = pd.Series(values, dtype=object)
        if name not in gdf:
            gdf[name] = None
        gdf[name] = gdf[name].astype(object)
        gdf.loc[column.index, name] = column
    for name in (
        "ratio",
        "atf_multiplier",
        "replace_acres",
        "replace_acres_if_fails",
        "de_minimis_sqft",
        "counted_sqft",
    ):
        gdf[name] = pd.to_numeric(gdf[name], errors="coerce").astype("float64")
    return gdf, project_rows, decisions, trace


#: The trace columns of text (pandas' string dtype, as inferred from a list of str).
_TRACE_TEXT = frozenset({"project", "impact_id", "rule_id", "citation", "outcome", "reason"})


@cache
def _str_dtype() -> Any:
    """Return the dtype pandas infers for a list of str (``str`` in pandas 3), or None."""
    dtype = pd.Series(["a"]).dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        return dtype
    return None


def _text_column(values: list[Any]) -> Any:
    """Return a list of str as the array pandas would infer for it, by one Arrow copy.

    pandas converts a list of Python strings to its Arrow-backed string dtype through an
    object array and a check of every cell; :func:`pyarrow.array` reads the list in one
    pass. Any other list (empty, with a missing value or a value not a str, or a pandas
    without that dtype) is returned as it is, for pandas to infer as before.
    """
    dtype = _str_dtype()
    if dtype is None or not values:
        return values
    try:
        arrow = pa.array(values, type=pa.large_string())
    except (pa.ArrowTypeError, pa.ArrowInvalid):
        return values
    if arrow.null_count:
        return values
    return pd.array(arrow, dtype=dtype)


def _trace_table(
    steps: FactSteps, decisions: list[ProjectDecision]
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Return the run's trace: the screening facts, then the engine's steps, per project.

    Built as columns: the two sources' lists are put in order by one stable sort on
    (project, facts first, position) and the table is made once. The columns (Python
    lists) are returned beside the table, for the text columns to be rendered from them.
    """
    if decisions:
        log = decisions[0].log
        engine: dict[str, list[Any]] = log.columns
        engine["reason"] = render_reasons(engine["reason"])  # the column, not the rows again
        # "not tried" steps stated once per project, conditions as facts and status (issue 30)
        engine = compact_steps(engine)
    else:
        engine = {c: [] for c in TRACE_COLUMNS}
    facts = steps.columns
    n_facts, n_engine = len(steps), len(engine["project"])
    if not n_facts:
        data: dict[str, Any] = engine
    else:
        order = {
            p: i
            for i, p in enumerate(
                dict.fromkeys([*(d.project for d in decisions), *facts["project"]])
            )
        }
        project_code = np.fromiter(
            (order[p] for p in (*facts["project"], *engine["project"])),
            dtype=np.int64,
            count=n_facts + n_engine,
        )
        from_engine = np.repeat(np.array([0, 1], dtype=np.int8), [n_facts, n_engine])
        # lexsort: the last key is the primary; stable on the position
        taken = np.lexsort((from_engine, project_code)).tolist()
        data = {}
        for name in TRACE_COLUMNS:
            if name == "seq":
                continue
            both = facts[name] + engine[name]
            data[name] = [both[i] for i in taken]
        codes = project_code[taken]
        starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
        lengths = np.diff(np.r_[starts, len(codes)])
        data["seq"] = np.arange(len(codes)) - np.repeat(starts, lengths)
    data = dict(data)
    data["verify"] = [v if v.__class__ is list else list(v) for v in data["verify"]]
    for name in ("inputs", "parameters"):
        data[name] = [v if v.__class__ is dict else dict(v) for v in data[name]]
    frame = pd.DataFrame(
        {c: _text_column(data[c]) if c in _TRACE_TEXT else data[c] for c in TRACE_COLUMNS},
        columns=list(TRACE_COLUMNS),
    )
    frame["seq"] = frame["seq"].astype("int64")
    frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype("float64")
    return frame, data


#: How the per-impact text columns join the trace's items (one item a line): for people.
TEXT_JOIN = "\n"


def _render_by_impact(
    trace: pd.DataFrame | Mapping[str, Sequence[Any]],
) -> dict[tuple[Hashable, Hashable], dict[str, str | None]]:
    """Render each impact's ``reasons``, ``citations`` and ``verify`` columns.

    An impact's text holds its own steps, then its project's (de minimis totals, the
    cumulative limit, the project's outcome, procedure). The key ``(project, "")`` holds
    the project-level text alone. Items are joined with :data:`TEXT_JOIN`; the text is
    for people and no stage splits it (they read the trace).

    ``trace`` is the trace table, or its columns as Python lists (as
    :func:`_trace_table` builds them: no column is converted back from the table). A
    project's own part is gathered once and an impact's items are joined with it; the
    joined citations, verify and exemption texts are kept per distinct list of items.
    """

    def column(name: str) -> Sequence[Any]:
        values = trace[name]
        return values.tolist() if isinstance(values, pd.Series) else values

    shown, not_tried = PROJECT_RULES_SHOWN, Outcome.NOT_APPLIED.value
    exemption_ids = R.EXEMPTION_RULE_IDS
    own: dict[tuple[Hashable, Hashable], tuple[list[str], ...]] = {}
    for project, iid, rule, cite, reason, verify, outcome in zip(
        column("project"),
        column("impact_id"),
        column("rule_id"),
        column("citation"),
        column("reason"),
        column("verify"),
        column("outcome"),
        strict=True,
    ):
        if iid == "" and rule not in shown:
            continue
        if rule in exemption_ids and outcome == not_tried:
            continue  # an exemption not tried: in the trace, the popups and the report
        key = (project, iid)
        item = own.get(key)
        if item is None:
            item = own[key] = ([], [], [])
        item[0].append(reason)
        if cite:
            item[1].append(cite)
        if verify:
            item[2].extend(verify)
    join = TEXT_JOIN.join
    fields = ("reasons", "citations", "verify")
    nothing: tuple[list[str], ...] = ([], [], [])
    # a large project's part is stated once (projects table), not on each impact (issue 30)
    sizes: dict[Hashable, int] = defaultdict(int)
    for project, iid in own:
        if iid != "":
            sizes[project] += 1
    pointer: tuple[list[str], ...] = (
        [PROJECT_PART_POINTER["reasons"]],
        [],
        [PROJECT_PART_POINTER["verify"]],
    )
    joined: dict[tuple[tuple[str, ...], tuple[str, ...]], str | None] = {}
    out: dict[tuple[Hashable, Hashable], dict[str, str | None]] = {}
    for (project, iid), item in own.items():
        if iid == "":
            out[(project, iid)] = {
                k: join(dict.fromkeys(v)) or None for k, v in zip(fields, item, strict=True)
            }
            continue
        theirs = own.get((project, ""), nothing)
        if sizes[project] > LARGE_PROJECT_IMPACTS and theirs is not nothing:
            theirs = pointer
        text: dict[str, str | None] = {"reasons": join(dict.fromkeys(item[0] + theirs[0])) or None}
        for k, mine, project_part in zip(fields[1:], item[1:], theirs[1:], strict=True):
            sig = (tuple(mine), tuple(project_part))
            done = joined.get(sig, _UNSET)
            if done is _UNSET:
                done = joined[sig] = join(dict.fromkeys(mine + project_part)) or None
            text[k] = done
        out[(project, iid)] = text
    return out


_UNSET: Any = object()
