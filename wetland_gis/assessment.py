"""The assessment of a project in one pass: the request, the result and the default engine.

:func:`wetland_gis.assess` (module :mod:`wetland_gis.assess`) is the one call an analyst
makes; this module holds what it and the partitioned engines (:mod:`wetland_gis.partitioned`)
share, below both: :class:`AssessOptions`, :class:`AssessRequest`, :class:`Assessment` and
:func:`assess_in_memory`, the default engine. It reads the impacts (a path or a
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
    ImpactDecision,
    ProjectDecision,
    decide_projects,
    registry as R,
)
from wetland_gis.rules.engine import CLAUSE_READINGS, ROUTE_PUBLIC_WATERS
from wetland_gis.rules.exempt import ExemptionClaims
from wetland_gis.rules.trace import TRACE_COLUMNS, render_reasons
from wetland_gis.units import FOOT_M, joint_application_area

if TYPE_CHECKING:
    import folium

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


ENGINES = ("default", "chunks", "dask")
"""The engines of :func:`assess` (``engine=``) and of ``wetland-gis assess --engine``."""

DEFAULT_CHUNK_SIZE = 50_000
"""Impacts per partition when none is given (whole projects: a partition may hold more)."""


def check_engine_options(engine: str, chunk_size: int | None, scheduler: str | None) -> None:
    """Refuse engine options that contradict each other or would do nothing.

    Parameters
    ----------
    engine : str
        One of :data:`ENGINES`.
    chunk_size : int or None
        Impacts per partition; ``None`` for the default.
    scheduler : str or None
        A dask scheduler address; only the ``"dask"`` engine uses one.

    Raises
    ------
    InputError
        An unknown engine, a chunk size below 1, or a scheduler without the dask engine.

    Examples
    --------
    >>> check_engine_options("dask", 1000, "tcp://10.0.0.5:8786")
    >>> check_engine_options("chunks", 0, None)
    Traceback (most recent call last):
    ...
    wetland_gis.errors.InputError: chunk_size (--chunk-size) was 0 but must be ...
    """
    if engine not in ENGINES:
        raise InputError(f"`engine` was {engine!r} but is expected to be in {list(ENGINES)}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or chunk_size < 1):
        raise InputError(
            f"chunk_size (--chunk-size) was {chunk_size} but must be a positive number of "
            f"impacts per partition (default {DEFAULT_CHUNK_SIZE}); leave it out for the default"
        )
    if scheduler and engine != "dask":
        raise InputError(
            f"scheduler (--scheduler {scheduler}) is used only by the dask engine, but the "
            f"engine is {engine!r}: add --engine dask (engine='dask'), or leave the scheduler out"
        )


#: The :class:`AssessRequest` fields only the partitioned engines use.
_PARTITION_FIELDS = ("chunk_size", "n_workers", "scheduler_timeout")


@dataclass(frozen=True, kw_only=True)
class AssessRequest:
    """One assessment as asked for: what is read, with what, decided and run how (issue 33).

    :func:`assess` builds it once from its keywords (:meth:`of`) and hands it to the
    engine ``engine`` names (:func:`assess_request`); every engine takes it as it is, so
    the keywords of an assessment are written in one place. Frozen: a partition's request
    is a :func:`dataclasses.replace` of the whole layer's.

    The fields are the keywords of :func:`assess` (see there). ``as_of`` is the
    application date as a date, ``params`` the parameter tree and ``options`` the analyst's
    choices: :meth:`of` fills them (today, the shipped tree, ``AssessOptions()``) when
    they are not given. Engine options that would do nothing are refused when the request
    is made (``chunk_size`` with the default engine, a scheduler without dask, a register
    with the partitioned engines), naming the option and the fix.

    Examples
    --------
    >>> r = AssessRequest.of("impacts.gpkg", as_of="2024-05-01", engine="chunks", chunk_size=500)
    >>> r.as_of, r.engine, r.chunk_size
    (datetime.date(2024, 5, 1), 'chunks', 500)
    >>> AssessRequest.of("impacts.gpkg", chunk_size=500)
    Traceback (most recent call last):
    ...
    wetland_gis.errors.InputError: chunk_size=500 is used by the chunks and dask engines, ...
    """

    impacts: str | Path | gpd.GeoDataFrame
    context: str | Path | Context | None = None
    layer: str | None = None
    as_of: dt.date = field(default_factory=dt.date.today)
    fields: Mapping[str, str] | None = None
    assume_crs: str | None = None
    override_crs: str | None = None
    params: ParameterSet = field(default_factory=default_parameters)
    options: AssessOptions = field(default_factory=AssessOptions)
    shoreland_classes: str | Path | pd.DataFrame | None = None
    class_source: str = "dnr"
    register: Any = None
    row_numbers: Sequence[int] | None = None
    check_memory: bool = True
    engine: str = "default"
    chunk_size: int | None = None
    scheduler: str | None = None
    scheduler_timeout: float | None = None
    n_workers: int | None = None
    progress: Callable[[str], None] | None = None
    progress_bar: bool = True

    def __post_init__(self) -> None:
        check_engine_options(self.engine, self.chunk_size, self.scheduler)
        if self.engine == "default":
            for name in _PARTITION_FIELDS:
                if getattr(self, name) is not None:
                    raise InputError(
                        f"{name}={getattr(self, name)!r} is used by the chunks and dask "
                        "engines, but the engine is 'default' (one pass in memory): pass "
                        "engine='chunks' or engine='dask' (--engine), or leave it out"
                    )
        elif self.register is not None:
            raise InputError(
                "register (--register) works with the default engine and no chunk size for "
                "now; run assess on the project without them to read the register"
            )

    @classmethod
    def of(
        cls, impacts: str | Path | gpd.GeoDataFrame, context: Any = None, **keywords: Any
    ) -> AssessRequest:
        """Return the request of :func:`assess`'s keywords; ``None`` where a default applies.

        ``as_of`` may be an ISO date text (``None``: today), ``params`` and ``options``
        ``None`` (the shipped tree, ``AssessOptions()``); an unknown keyword is a
        ``TypeError`` naming it.
        """
        if "as_of" in keywords:
            keywords["as_of"] = as_date(keywords["as_of"])
        if keywords.get("params") is None:
            keywords["params"] = default_parameters()
        if keywords.get("options") is None:
            keywords["options"] = AssessOptions()
        return cls(impacts=impacts, context=context, **keywords)

    def loaded_context(self) -> Context:
        """Return the context, loaded once (with the shoreland class list) when it is a path."""
        return as_context(
            self.context,
            params=self.params,
            as_of=self.as_of,
            shoreland_classes=self.shoreland_classes,
            class_source=self.class_source,
        )

    def say(self, message: str) -> None:
        """Give ``message`` to :attr:`progress` (nothing without one)."""
        if self.progress is not None:
            self.progress(message)


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


def _warn_field_names(gdf: Any, field_map: FieldMapping, manifest: Manifest) -> None:
    """Warn of (and record) look-alike columns and a layer with no wetland type column."""
    messages = field_name_warnings(gdf.columns, field_map, rows=len(gdf))
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


def assess_in_memory(request: AssessRequest) -> Assessment:
    """Run the default engine: read, classify and decide the whole layer in one pass."""
    t0 = time.perf_counter()
    manifest = _new_manifest(request)
    request.say("reading impacts")
    gdf, source = read_impacts(
        request.impacts, request.layer, request.assume_crs, manifest, request.override_crs
    )
    # work by position: the input's index (possibly repeated, e.g. after pd.concat) is
    # given back on the output
    input_index = gdf.index
    gdf, field_map = _prepare_layer(gdf.reset_index(drop=True), request, source, manifest)
    request.say("loading context")
    ctx = request.loaded_context()
    record_context(ctx, manifest)
    request.say(f"classifying {int((gdf['status'] == ASSESSED).sum())} polygons")
    gdf, straddled = _classify(gdf, ctx, field_map, request, manifest)
    register_steps = None
    if request.register is not None:
        gdf, field_map, register_steps = _fill_from_register(gdf, field_map, request, manifest)
    request.say("applying the rules")
    fens_near = _near_fens(gdf, ctx, request.options)
    gdf, project_rows, decisions, trace = _apply_engine(
        gdf,
        field_map,
        request.params,
        request.as_of,
        request.options,
        manifest,
        fens_near,
        register_steps,
        straddled,
    )
    # the map zones are drawn when first asked for (Assessment.zones), from the
    # assessed polygons as they are now
    # (the rows and the columns it keeps taken at once: no copy of the whole layer)
    zone_columns = [c for c in ("wg_row",) if c in gdf.columns] + [gdf.geometry.name]
    zones = map_zones_later(
        gdf.loc[gdf["status"] == ASSESSED, zone_columns], ctx, request.params, request.as_of
    )
    summary = summary_table(gdf, field_map, straddled)
    gdf.index = input_index
    summary.index = input_index
    done = int((gdf["status"] == ASSESSED).sum())
    request.say(
        f"{len(gdf)} features read, {done} assessed, {len(gdf) - done} not assessed, in "
        f"{time.perf_counter() - t0:.1f} s"
    )
    return Assessment(
        impacts=gdf,
        summary=summary,
        projects=pd.DataFrame(project_rows),
        decisions=decisions,
        zones=zones,
        manifest=manifest,
        context=ctx,
        fields=field_map,
        trace=trace,
        footprint_layers=footprint_layers(request.impacts),
    )


def _new_manifest(request: AssessRequest) -> Manifest:
    """Return the run's manifest: the date, the parameter tree, the settings, the field map."""
    manifest = Manifest(
        command="assess",
        as_of=request.as_of.isoformat(),
        parameters_source=request.params.source,
        parameters_sha256=request.params.sha256,
        settings=request.options.settings(),
    )
    record_field_map(request.fields, manifest)
    return manifest


def _prepare_layer(
    gdf: gpd.GeoDataFrame, request: AssessRequest, source: str, manifest: Manifest
) -> tuple[gpd.GeoDataFrame, FieldMapping]:
    """Fill the project facts, resolve the columns, clean the polygons, read the types.

    Then, with ``check_memory``, check that the run fits in memory before the work that
    would not (issue 23).
    """
    fields = dict(request.fields or {})
    facts = request.options.project_facts
    if facts is not None:  # the project's facts fill the blank fact cells
        gdf = apply_project_facts(gdf, read_project_facts(facts), fields, manifest)
    field_map = resolve_fields(gdf, **fields)
    _warn_field_names(gdf, field_map, manifest)
    gdf, field_map = _rename_colliding(gdf, field_map, manifest)
    manifest.settings["fields"] = field_map.as_dict()
    manifest.add_records(field_map.notes)
    gdf = clean_and_type(gdf, field_map, source, manifest, request.row_numbers)
    if request.check_memory:
        check_fits(int((gdf["status"] == ASSESSED).sum()), source=str(source))
    return gdf, field_map


def _classify(
    gdf: gpd.GeoDataFrame,
    ctx: Context,
    field_map: FieldMapping,
    request: AssessRequest,
    manifest: Manifest,
) -> tuple[gpd.GeoDataFrame, pd.Series | None]:
    """Classify the polygons from the context; flag overlaps and rows that cannot be placed.

    Returns the classified impacts and the counties each straddles (as data, for the
    joint application's table).
    """
    classified = classify_impacts(gdf, ctx, params=request.params, as_of=request.as_of)
    gdf = classified.gdf
    manifest.add_records(classified.records)
    for notice in classified.missing_context:  # on stderr too, and in the report (issue 30)
        if notice not in manifest.missing_context:
            manifest.missing_context.append(notice)
            warnings.warn(notice, MissingContextWarning, stacklevel=5)
    if request.options.assume_no_public_waters:
        _assume_outside(gdf, manifest)
    overlap_records: list[str] = []
    flag_overlaps(gdf, field_map.impact_id, overlap_records)
    manifest.add_records(overlap_records)
    _mark_unclassifiable(gdf, request.params, request.as_of)
    return gdf, classified.county_names


def _fill_from_register(
    gdf: gpd.GeoDataFrame, field_map: FieldMapping, request: AssessRequest, manifest: Manifest
) -> tuple[gpd.GeoDataFrame, FieldMapping, Mapping[Hashable, list[tuple]]]:
    """Fill each impact's facts from the LGU's decision register; return its trace steps."""
    from wetland_gis.register import Register
    from wetland_gis.register.fill import fill_from_register

    request.say("reading the decision register")
    register = request.register
    reg = register if isinstance(register, Register) else Register(register)
    gdf, field_map, steps, records = fill_from_register(
        gdf, field_map, reg, request.params, request.as_of
    )
    manifest.settings["register"] = reg.describe()
    manifest.add_records(records)
    return gdf, field_map, steps


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


@collector_paused(promote=True)  # many small acyclic objects (wetland_gis/_gc.py)
def _apply_engine(
    gdf: gpd.GeoDataFrame,
    field_map: FieldMapping,
    params: ParameterSet,
    day: dt.date,
    options: AssessOptions,
    manifest: Manifest,
    fens_near: pd.Series | None = None,
    extra_steps: Mapping[Hashable, list[tuple]] | None = None,
    counties: pd.Series | None = None,
) -> tuple[gpd.GeoDataFrame, list[dict[str, Any]], list[ProjectDecision], pd.DataFrame]:
    """Build the facts, ask :func:`~wetland_gis.rules.decide_projects`, write the columns.

    The rule order lives in the engine; the rows become :class:`ImpactFacts` and
    ``facts.*`` steps in :func:`wetland_gis.io.impact_facts.impact_facts`; the counties
    a straddling impact lies in (``counties``, the classification's ``county_names``)
    go into its ``facts.context`` step as data. The per-impact text columns are rendered
    from the trace for people. The cyclic collector is paused while it runs.
    """
    # copy-on-write (pandas 3): the caller's frame stays as it was, and only the blocks
    # written here are copied, not the whole classified layer (issue 23)
    gdf = gdf.copy(deep=False)
    keys, projects = _row_keys(gdf, field_map, manifest)
    _blank_decision_columns(gdf)
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
        counties=counties.dropna().to_dict() if counties is not None else None,
    )
    row_of = table.row_of
    _warn_oversized(table.oversized, field_map, manifest)
    groups = attach_exemption_facts(table.groups, table.row_of, gdf, field_map.exemption_columns)
    decisions = decide_projects(groups, options.claims, params, day) if groups else []
    trace, trace_columns = _trace_table(table.steps, decisions)
    del table, groups  # the facts are in the decisions and the trace now (issue 23)

    # the columns, rendered from the trace for people
    columns = _ProjectColumns(
        rendered=_render_by_impact(trace_columns),
        sequencing_inputs=_sequencing_inputs(trace_columns),
        row_of=row_of,
        params=params,
        day=day,
        tolerance_percent=options.tolerance_percent,
    )
    del trace_columns
    columns.reasons_not_assessed(gdf)
    by_project = {d.project: d for d in decisions}
    for project, members in _members_of(gdf, projects).items():
        columns.add_project(project, members, by_project.get(project))
    if columns.near_msgs:
        manifest.add_records(columns.near_msgs)
        warnings.warn(TEXT_JOIN.join(columns.near_msgs), ThresholdToleranceWarning, stacklevel=3)
    _write_cells(gdf, columns.cells)
    return gdf, columns.project_rows, decisions, trace


def _row_keys(
    gdf: gpd.GeoDataFrame, field_map: FieldMapping, manifest: Manifest
) -> tuple[pd.Series, pd.Series]:
    """Return each row's impact key and project (rows without a project: :data:`NO_PROJECT`).

    A duplicated or missing id (flagged by the cleaning step) is told apart by its row.
    """
    ids = (gdf[field_map.impact_id] if field_map.impact_id else gdf["wg_row"]).map(_text)
    keys = ids + np.where(
        ids.duplicated(keep=False) | (ids == ""), "#" + gdf["wg_row"].astype(str), ""
    )
    if not field_map.project:
        return keys, pd.Series("project", gdf.index)
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
    return keys, projects


def _blank_decision_columns(gdf: gpd.GeoDataFrame) -> None:
    """Add the reported area and the decision columns, empty; every outcome not assessed."""
    area = gdf["area_sqft"].to_numpy(dtype=float, na_value=np.nan)
    gdf["area_reported"] = [
        None if missing else joint_application_area(a)
        for a, missing in zip(area.tolist(), np.isnan(area).tolist(), strict=True)
    ]
    for col in DECISION_COLUMNS[6:]:
        gdf[col] = None
    gdf["outcome"] = ImpactOutcome.NOT_ASSESSED.value


def _warn_oversized(oversized: list[str], field_map: FieldMapping, manifest: Manifest) -> None:
    """Warn of (and record) the impacts larger than the wetland size given for them."""
    if not oversized:
        return
    acres_column = field_map.wetland_acres or "wetland_ac"
    shown = ", ".join(oversized[:10]) + (
        f" and {len(oversized) - 10} more" if len(oversized) > 10 else ""
    )
    msg = (
        f"{len(oversized)} impact(s) larger than the {acres_column} given for their "
        f"wetland ({shown}): check the value and the polygons (a verify item on each)"
    )
    manifest.add_records([msg])
    warnings.warn(msg, ImpactExceedsWetlandWarning, stacklevel=4)


def _sequencing_inputs(
    trace_columns: Mapping[str, Sequence[Any]],
) -> dict[Hashable, list[Mapping[str, Any]]]:
    """Return the inputs of each project's sequencing steps, from the trace's columns."""
    sequencing_inputs: dict[Hashable, list[Mapping[str, Any]]] = defaultdict(list)
    for project, rule_id, inputs in zip(
        trace_columns["project"], trace_columns["rule_id"], trace_columns["inputs"], strict=True
    ):
        if rule_id == R.PROCEDURE_SEQUENCING:
            sequencing_inputs[project].append(inputs)
    return sequencing_inputs


def _members_of(gdf: gpd.GeoDataFrame, projects: pd.Series) -> dict[str, list[Hashable]]:
    """Return each project's rows in order of first appearance (as ``groupby(sort=False)``).

    Without a DataFrame per project.
    """
    members_of: dict[str, list[Hashable]] = {}
    for idx, project in zip(gdf.index, projects.tolist(), strict=True):
        members_of.setdefault(project, []).append(idx)
    return members_of


#: The per-impact columns copied from an :class:`~wetland_gis.rules.ImpactDecision` as they
#: are decided (column -> attribute).
_DECIDED = {
    "de_minimis_sqft": "allowance_sqft",
    "replacement_by": "replacement_by",
    "ratio": "ratio",
    "atf_multiplier": "multiplier",  # § 103G.222, subd. 1(n), as decided
    "replace_acres": "replace_acres",
    # what a conditional exemption owes if its fact fails (NaN: not conditional)
    "replace_acres_if_fails": "replace_acres_if_fails",
    "counted_sqft": "counted_sqft",
    "permit_route": "route",
}


@dataclass
class _ProjectColumns:
    """The decision columns and project rows of a layer, written one project at a time.

    ``cells`` holds each column's values by row; ``near_msgs`` the totals within the
    tolerance of an amount or threshold they are compared with, in project order.
    """

    rendered: Mapping[tuple[Hashable, Hashable], Mapping[str, Any]]
    sequencing_inputs: Mapping[Hashable, list[Mapping[str, Any]]]
    row_of: Mapping[tuple[Hashable, Hashable], Hashable]
    params: ParameterSet
    day: dt.date
    tolerance_percent: float
    cells: dict[str, dict[Hashable, Any]] = field(default_factory=lambda: defaultdict(dict))
    near_msgs: list[str] = field(default_factory=list)
    project_rows: list[dict[str, Any]] = field(default_factory=list)

    def reasons_not_assessed(self, gdf: gpd.GeoDataFrame) -> None:
        """Give each row not assessed its status reason as its ``reasons``."""
        not_assessed = (gdf["status"] != ASSESSED).to_numpy()
        self.cells["reasons"].update(
            zip(gdf.index[not_assessed], gdf["status_reason"][not_assessed].tolist(), strict=True)
        )

    def add_project(
        self, project: str, members: list[Hashable], decision: ProjectDecision | None
    ) -> None:
        """Write one project's impact cells, near-threshold messages and project row."""
        if decision is None:  # listed all the same: its impacts are in the layer, not assessed
            self.project_rows.append({"project": project, "impacts": len(members), "assessed": 0})
            return
        for d in decision.impacts:
            self._impact(project, d)
        self._near_de_minimis(project, decision)
        self._near_procedure(project, decision)
        self.project_rows.append(self._project_row(project, len(members), decision))

    def _impact(self, project: str, d: ImpactDecision) -> None:
        """Write the columns of one decided impact."""
        idx = self.row_of[(project, d.impact_id)]
        text = self.rendered.get((project, d.impact_id), {})
        cells = self.cells
        cells["public_waters_wetland"][idx] = d.route == ROUTE_PUBLIC_WATERS
        cells["de_minimis"][idx] = None if d.de_minimis is None else d.de_minimis.value
        cells["other_exemptions"][idx] = exemption_text(d.exemptions)
        cells["outcome"][idx] = d.outcome.value
        for column, attribute in _DECIDED.items():
            cells[column][idx] = getattr(d, attribute)
        for column in ("citations", "reasons", "verify"):
            cells[column][idx] = text.get(column)

    def _near_de_minimis(self, project: str, decision: ProjectDecision) -> None:
        """Note each de minimis total within the tolerance of its amount (on its impacts)."""
        tolerance = self.tolerance_percent
        for total in decision.de_minimis_totals:
            if _near(total.total_sqft, total.allowance_sqft, tolerance):
                self.near_msgs.append(
                    f"project {project!r}: total {total.total_sqft:,.1f} sq ft ({total.name}) "
                    f"is within {tolerance:g} percent of the "
                    f"{total.allowance_sqft:,.0f} sq ft amount ({', '.join(total.citations)})"
                )
                for iid in total.impact_ids:
                    self.cells["near_threshold"][self.row_of[(project, iid)]] = self.near_msgs[-1]

    def _near_procedure(self, project: str, decision: ProjectDecision) -> None:
        """Note a WCA total within the tolerance of a procedure threshold it is held to."""
        totals = decision.totals
        limits = []
        if totals["public_comment"] is not None:
            limits.append(self.params.cited("procedure.public_comment_threshold", self.day))
        if totals["sequencing_on_site"] is not None:
            for inputs in self.sequencing_inputs.get(project, ()):
                extra, cite = self.params.cited("procedure.sequencing_allowance", self.day)
                limits.append((inputs["applicable_amount_sqft"] + extra, cite))
        wca = totals["wca_sqft"]  # the procedure thresholds count WCA wetland only
        for limit, cite in limits:
            if _near(wca, limit, self.tolerance_percent):
                self.near_msgs.append(
                    f"project {project!r}: total {wca:,.1f} sq ft is within "
                    f"{self.tolerance_percent:g} percent of the {limit:,.0f} sq ft "
                    f"threshold of {cite}"
                )

    def _project_row(self, project: str, n: int, decision: ProjectDecision) -> dict[str, Any]:
        """Return the row of the projects table of a decided project."""
        totals = decision.totals
        project_text = self.rendered.get((project, ""), {})
        return {
            "project": project,
            "impacts": n,
            "assessed": len(decision.impacts),
            "outcome": decision.outcome.value,
            "total_sqft": round(totals["total_sqft"], 1),
            "total_reported": joint_application_area(totals["total_sqft"]),
            "counted_sqft": round(totals["counted_sqft"], 1),
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


#: The decision columns of numbers (float64; a missing value is NaN).
_NUMBER_COLUMNS = (
    "ratio",
    "atf_multiplier",
    "replace_acres",
    "replace_acres_if_fails",
    "de_minimis_sqft",
    "counted_sqft",
)


def _write_cells(gdf: gpd.GeoDataFrame, cells: Mapping[str, Mapping[Hashable, Any]]) -> None:
    """Write the decision columns' values into ``gdf``; the number columns as float64."""
    for name, values in cells.items():
        column = pd.Series(values, dtype=object)
        if name not in gdf:
            gdf[name] = None
        gdf[name] = gdf[name].astype(object)
        gdf.loc[column.index, name] = column
    for name in _NUMBER_COLUMNS:
        gdf[name] = pd.to_numeric(gdf[name], errors="coerce").astype("float64")


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
