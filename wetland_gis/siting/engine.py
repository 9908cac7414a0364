"""The siting engine: from classified impacts to a ranked, allocated replacement plan.

:func:`site` reads the candidate sites and the bank credit listing, places every option
in the context layers, ranks every option for every impact by the siting priority of
Minn. Stat. § 103G.222, subd. 3, reports the tiers that had no opportunity or too little
(subd. 3(d)), allocates the options to the impacts exactly (best tier, then lowest
cost) and, given a DEM, adds depression attributes to the sites. Inputs and outputs are
plain GeoDataFrames, DataFrames and paths; writing files is the caller's job.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.errors import InputError
from wetland_gis.geometry.crs import WORKING_CRS, crs_label
from wetland_gis.io.bank_listing import prepare_banks, read_bank_listing
from wetland_gis.io.candidate_sites import prepare_sites
from wetland_gis.manifest import InputRecord, file_sha256
from wetland_gis.notebook import summary_table
from wetland_gis.parameters import (
    Adjustments,
    ParameterSet,
    as_date,
    default_parameters,
    load_adjustments,
)
from wetland_gis.rules.priority import BANKING_OWN_ORDER
from wetland_gis.siting.allocate import NOISE_SQFT, Allocation, allocate, check_weights, read_yes_no
from wetland_gis.siting.rank import (
    _impact_id_column,
    attribute_options,
    impact_needs,
    rank_options,
    tier_gaps,
)
from wetland_gis.siting.raster import SUITABILITY_CAVEAT, depression_summary
from wetland_gis.units import SQFT_PER_ACRE

#: Said in the manifest of every siting run.
SITING_ASSUMPTIONS = (
    "Siting tiers follow Minn. Stat. § 103G.222, subd. 3(a)(1)-(4); replacement by wetland "
    "banking begins at the bank service area tier (subd. 3(c)); an impact outside a greater "
    "than 80 percent area is never replaced inside one (subd. 3(a)).",
    "Subd. 3(c) reading (column siting_reading of the ranking; docs/siting.md): by default "
    "(banking_own_order) project-specific sites keep the order of subd. 3(a)(1)-(4) and bank "
    "credits their own order starting at clause (3), so a credit in the impact's bank service "
    "area meets the siting priority; neither method outranks the other: between the best site "
    "and the best bank credit the cheaper is chosen, then the nearer. The stricter "
    "single_order ranks every option in one order, a same-BSA credit after tier 1 and 2 sites.",
    "Each impact's ratio, after-the-fact multiplier, credits required and permit route are "
    "those assess decided (columns ratio, atf_multiplier, replace_acres, permit_route); siting "
    "adds only the user's ratio adjustments for the relation to each option.",
    "Where a watershed, bank service area or percentage class is unknown, an option gets the "
    "best tier that can be proved and a verify item; nothing is guessed.",
    "The allocation meets as much of the requirement as the options allow, keeping each "
    "method's own order (a lower level of a method only when its better levels are used up); "
    "then minimises cost (or the user's weights), then distance. Under single_order it "
    "replaces as many impact acres as possible at tier 1 across the project, then at tier 2, "
    "then tier 3, before cost. Each stage is solved exactly (HiGHS MILP).",
    "Whether an opportunity is reasonable, practicable and environmentally beneficial "
    "(subd. 3(d), (e)) is for the Technical Evaluation Panel; the tier gaps say where the "
    "applicant may seek the next level if the TEP agrees.",
    "Credit prices come from the bank listing and site costs from the sites layer; none is "
    "built in. A site's cost is paid once when used; an option without a price counts as "
    "costing nothing in the cost stage and is flagged.",
    "Bank costs include the withdrawal fee of Minn. Stat. § 103G.2242, subd. 14(a)(3).",
)


@dataclass(frozen=True, eq=False)
class SitingResult:
    """Everything a siting run produced, as plain frames.

    Attributes
    ----------
    ranking : pandas.DataFrame
        One row per impact and option, best first (docs/data_schema.md, "ranking").
    tier_gaps : pandas.DataFrame
        Per impact, the tiers that had no opportunity or too little (subd. 3(d)).
    allocation : pandas.DataFrame
        The plan: ``impact_id, option_id, option_kind, tier, credits, cost`` (+ ``acres``,
        ``ratio``, ``fee``).
    unmet : pandas.DataFrame
        ``impact_id, credits_short, reason`` (+ ``acres_short``).
    solution : Allocation
        The allocation object: totals, solver stages, fee rate, weights.
    sites, banks : GeoDataFrame or None
        The options as placed, with ``best_tier`` (best non-excluded tier for any impact)
        and ``allocated_credits``; sites also carry the DEM columns when a DEM was given.
    needs : pandas.DataFrame
        The impacts that need replacement (``impact_id, acres, ratio, replace_acres``...).
    as_of : str
        ISO date of the run's law.
    inputs : tuple of InputRecord
        Files read (for the manifest).
    records : tuple of str
        What was done to the inputs (reprojections, skipped impacts, ...).
    assumptions : tuple of str
        What the run assumed (for the manifest).
    settings : Mapping[str, Any]
        Options of the run (weights, adjustments source, DEM).
    """

    ranking: pd.DataFrame
    tier_gaps: pd.DataFrame
    allocation: pd.DataFrame
    unmet: pd.DataFrame
    solution: Allocation
    sites: gpd.GeoDataFrame | None
    banks: gpd.GeoDataFrame | None
    needs: pd.DataFrame
    as_of: str
    inputs: tuple[InputRecord, ...] = ()
    records: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = SITING_ASSUMPTIONS
    settings: Mapping[str, Any] = field(default_factory=dict)

    @property
    def totals(self) -> Mapping[str, Any]:
        """Return the allocation totals."""
        return self.solution.totals

    def _headline(self) -> list[tuple[str, object]]:
        t = self.totals
        reading = self.settings.get("siting_reading", t.get("siting_reading", ""))

        def credits(key: str) -> str:
            return f"{float(t.get(key, 0.0) or 0.0):,.4f}"

        return [
            ("as of", self.as_of),
            ("reading of subd. 3(c)", reading),
            ("impacts sited", len(self.needs)),
            (
                "options ranked",
                int(self.ranking["option_id"].nunique()) if len(self.ranking) else 0,
            ),
            ("credits required", credits("credits_required")),
            ("credits met", credits("credits_met")),
            ("credits unmet", credits("credits_unmet")),
            ("impacts with credits unmet", len(self.unmet)),
            ("cost (USD)", f"{float(t.get('cost', 0.0) or 0.0):,.2f}"),
        ]

    def __repr__(self) -> str:
        """Say what the run holds, in a line (the frames are attributes).

        A dataclass's own ``repr`` would print the whole ranking; ``==`` is off
        (``eq=False``).
        """
        h = dict(self._headline())
        return (
            f"SitingResult(as of {h['as of']}, {h['reading of subd. 3(c)']}: "
            f"{h['impacts sited']} impacts, {h['options ranked']} options; "
            f"{h['credits met']} of {h['credits required']} credits met, "
            f"{h['credits unmet']} unmet; cost ${h['cost (USD)']})"
        )

    def _repr_html_(self) -> str:
        """Return a small table of the run for a notebook (credits: replacement acres)."""
        return summary_table(
            "SitingResult (credits: replacement acres)",
            self._headline(),
            "ranking, tier_gaps, allocation, unmet, sites, banks: the frames",
        )

    def manifest_records(self) -> dict[str, Any]:
        """Return what a :class:`~wetland_gis.manifest.Manifest` needs from this run.

        Returns
        -------
        dict
            ``inputs`` (InputRecord list), ``records``, ``assumptions``, ``settings``.
        """
        return {
            "inputs": list(self.inputs),
            "records": list(self.records),
            "assumptions": list(self.assumptions),
            "settings": dict(self.settings),
        }


def _read_frame(value: Any, role: str, reader: Any, inputs: list[InputRecord]) -> Any:
    if value is None:
        return None
    if isinstance(value, (str, Path)):
        path = Path(value)
        try:
            frame = reader(path)
        except pd.errors.EmptyDataError as err:
            raise InputError(
                f"the {role} file {path} is empty; give a file with a header "
                "row and the columns of docs/data_schema.md"
            ) from err
        crs = frame.crs.to_string() if getattr(frame, "crs", None) is not None else None
        inputs.append(
            InputRecord(
                role=role, path=str(path), sha256=file_sha256(path), crs=crs, features=len(frame)
            )
        )
        return frame
    inputs.append(
        InputRecord(
            role=role,
            path="<in memory>",
            features=len(value),
            crs=value.crs.to_string() if getattr(value, "crs", None) is not None else None,
        )
    )
    return value


def _read_sites(path: Path) -> gpd.GeoDataFrame:
    from wetland_gis.io.layers import read_layer

    return read_layer(path).gdf


def site(
    impacts: Any,
    sites: gpd.GeoDataFrame | str | Path | None = None,
    banks: pd.DataFrame | str | Path | None = None,
    *,
    context: Any = None,
    adjustments: Adjustments | str | Path | None = None,
    as_of: str | dt.date | None = None,
    dem: str | Path | None = None,
    weights: Mapping[str, float] | None = None,
    params: ParameterSet | None = None,
    id_field: str | None = None,
    time_limit: float | None = None,
    siting_reading: str = BANKING_OWN_ORDER,
    progress_bar: bool = False,
) -> SitingResult:
    """Rank and allocate replacement sites and bank credits for classified impacts.

    Parameters
    ----------
    impacts : GeoDataFrame, path, or an object with an ``impacts`` attribute
        Classified impacts (output of ``assess``; docs/data_schema.md). Only assessed
        impacts with outcome ``replacement_required`` and ``replace_acres > 0`` are sited,
        each at the ratio, multiplier, credits and permit route ``assess`` decided
        (:data:`~wetland_gis.siting.rank.DECISION_FIELDS`); a layer without those columns
        is refused (re-run ``assess``).
    sites : GeoDataFrame or path, optional
        Candidate project-specific sites (polygons; ``site_id, action, circ39,
        credit_ac`` and optional ``cost_usd``).
    banks : DataFrame, GeoDataFrame or path, optional
        Bank credit listing (CSV or GeoPackage; see
        :func:`~wetland_gis.io.bank_listing.read_bank_listing`).
    context : Context or path, optional
        Reference layers (:func:`wetland_gis.context.load_context`) to place the options.
        Without it, only place values already on the options are used.
    adjustments : Adjustments or path, optional
        The user's ratio adjustments and credit table (default: the shipped, empty one).
    as_of : str or date, optional
        Application date for the legal parameters (default today).
    dem : path, optional
        A DEM raster; adds the depression attributes of
        :func:`~wetland_gis.siting.raster.depression_summary` to the sites.
    weights : Mapping[str, float], optional
        Allocation stage-3 weights (default lowest cost); also orders the ranking.
    params : ParameterSet, optional
        Parameter tree (default: shipped).
    id_field : str, optional
        Impact id column.
    siting_reading : {"banking_own_order", "single_order"}, default "banking_own_order"
        The reading of § 103G.222, subd. 3(c) (docs/siting.md); recorded in the ranking
        (column ``siting_reading``) and the manifest settings.
    time_limit : float, optional
        Seconds allowed to each solver call.
    progress_bar : bool, default False
        Show a tqdm bar over the impacts ranked and the allocation's stages, once the
        run has taken :data:`PROGRESS_DELAY_S` seconds.

    Returns
    -------
    SitingResult
        The allocation and the unmet table name the reading and the weights they were
        made under (columns ``siting_reading`` and ``weights``), as do ``settings``.
    """
    day = as_date(as_of).isoformat()
    params = params if params is not None else default_parameters()
    weights_used = check_weights(weights)
    inputs: list[InputRecord] = []
    records: list[str] = []
    impacts = _read_impacts(impacts, inputs)
    adjustments = _read_adjustments(adjustments, inputs)
    context = _read_context(context, params, day, inputs, records)
    site_frame, bank_frame = _read_options(
        sites, banks, impacts, context, params, day, inputs, records
    )
    needs, need_table = _needs(impacts, id_field, records)
    ranking, solution = _rank_and_allocate(
        needs,
        need_table,
        site_frame,
        bank_frame,
        progress_bar,
        adjustments=adjustments,
        as_of=day,
        weights=weights,
        params=params,
        siting_reading=siting_reading,
        time_limit=time_limit,
    )
    # the tier gaps as the allocation settled them: one account of subd. 3(d)
    gaps = tier_gaps(ranking, needs=need_table, as_of=day, plan=solution.plan)
    named = {"siting_reading": siting_reading, "weights": weights_label(weights_used)}
    passed = passed_over(ranking, solution.plan)
    plan = solution.plan.assign(
        passed_over_sites=["; ".join(ids) for ids in passed],  # for people
        passed_over_ids=[json.dumps(ids) if ids else "" for ids in passed],  # for the report
    )
    plan, unmet = plan.assign(**named), solution.unmet.assign(**named)

    site_frame = _summarise(site_frame, ranking, plan)
    bank_frame = _summarise(bank_frame, ranking, plan)
    if dem is not None and site_frame is not None:
        site_frame = _with_depressions(site_frame, dem, inputs, records)
    return SitingResult(
        ranking=ranking,
        tier_gaps=gaps,
        allocation=plan,
        unmet=unmet,
        solution=solution,
        sites=site_frame,
        banks=bank_frame,
        needs=needs,
        as_of=day,
        inputs=tuple(inputs),
        records=tuple(dict.fromkeys(records)),
        assumptions=SITING_ASSUMPTIONS,
        settings={
            "siting_reading": siting_reading,
            "as_of": day,
            "weights": weights_used,
            **_run_settings(adjustments, dem, solution),
        },
    )


def _run_settings(
    adjustments: Adjustments, dem: str | Path | None, solution: Allocation
) -> dict[str, Any]:
    """Return the settings of a run after its reading, date and weights (for the manifest)."""
    return {
        "adjustments": adjustments.source,
        "ratio_adjustments": len(adjustments.ratio),
        "dem": str(dem) if dem is not None else None,
        "fee_rate": solution.fee_rate,
        "solver": [(s.name, s.objective) for s in solution.stages],
        "stages_not_applied": list(solution.totals.get("stages_not_applied", [])),
    }


def _needs(
    impacts: Any, id_field: str | None, records: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Return the impacts that need replacement, and their ``impact_id, acres, ratio``."""
    impacts, id_field = _told_apart(impacts, id_field, records)
    needs = impact_needs(impacts, id_field=id_field)
    skipped = len(impacts) - len(needs)
    if skipped:
        records.append(
            f"{skipped} impact(s) not sited: not assessed, no replacement required, or "
            "replaced by the board (a road project, § 103G.222, subd. 1(m))"
        )
    need_table = pd.DataFrame(
        {"impact_id": needs["impact_id"], "acres": needs["acres"], "ratio": needs["ratio"]}
    )
    return needs, need_table


def _read_impacts(impacts: Any, inputs: list[InputRecord]) -> Any:
    """Return the classified impacts: a frame, the file read, or an assessment's impacts."""
    if hasattr(impacts, "impacts") and not isinstance(impacts, pd.DataFrame):
        impacts = impacts.impacts
    if isinstance(impacts, (str, Path)):
        return _read_frame(impacts, "impacts", _read_sites, inputs)
    inputs.append(InputRecord(role="impacts", path="<in memory>", features=len(impacts)))
    return impacts


def _read_adjustments(
    adjustments: Adjustments | str | Path | None, inputs: list[InputRecord]
) -> Adjustments:
    """Return the user's ratio adjustments (the file read), else the shipped, empty ones."""
    if isinstance(adjustments, (str, Path)):
        inputs.append(
            InputRecord(role="adjustments", path=str(adjustments), sha256=file_sha256(adjustments))
        )
        adjustments = load_adjustments(adjustments)
    return adjustments if adjustments is not None else load_adjustments()


def _read_context(
    context: Any, params: ParameterSet, day: str, inputs: list[InputRecord], records: list[str]
) -> Any:
    """Return the context layers (loaded from a path), recording them or their absence."""
    if isinstance(context, (str, Path)):
        from wetland_gis.context import load_context

        context = load_context(context, params=params, as_of=day)
    if context is not None:
        inputs.extend(context.manifest_inputs())
        records.extend(context.records)
    else:
        records.append(
            "no context layers given: options are placed only by the values they "
            "carry (minor, major, bsa, pct_class)"
        )
    return context


def _read_options(
    sites: gpd.GeoDataFrame | str | Path | None,
    banks: pd.DataFrame | str | Path | None,
    impacts: Any,
    context: Any,
    params: ParameterSet,
    day: str,
    inputs: list[InputRecord],
    records: list[str],
) -> tuple[gpd.GeoDataFrame | None, gpd.GeoDataFrame | None]:
    """Return the candidate sites and the bank listing, checked and placed."""
    site_frame = _read_frame(sites, "sites", _read_sites, inputs)
    for frame, role in ((site_frame, "sites"), (impacts, "impacts")):
        crs = getattr(frame, "crs", None)
        if crs is not None and not crs.equals(WORKING_CRS):
            records.append(f"{role}: reprojected from {crs_label(crs)} to {WORKING_CRS}")
    if site_frame is not None:
        site_frame = prepare_sites(
            site_frame, source=str(sites) if isinstance(sites, (str, Path)) else "sites"
        )
    bank_frame = _read_frame(banks, "banks", read_bank_listing, inputs)
    if bank_frame is not None and "option_id" not in bank_frame:
        bank_frame = prepare_banks(bank_frame, source="banks")
    if bank_frame is not None:
        unlocated = int((bank_frame.geometry.isna() | bank_frame.geometry.is_empty).sum())
        if unlocated:
            records.append(
                f"{unlocated} bank listing row(s) without a location: placed by the "
                "listing's county, major and bsa only; no distance"
            )
    return attribute_options(site_frame, bank_frame, context, params=params, as_of=day)


def _rank_and_allocate(
    needs: pd.DataFrame,
    need_table: pd.DataFrame,
    site_frame: gpd.GeoDataFrame | None,
    bank_frame: gpd.GeoDataFrame | None,
    progress_bar: bool,
    *,
    adjustments: Adjustments,
    as_of: str,
    weights: Mapping[str, float] | None,
    params: ParameterSet,
    siting_reading: str,
    time_limit: float | None,
) -> tuple[pd.DataFrame, Allocation]:
    """Rank every option for every impact, then allocate them (one progress bar for both)."""
    bar = _progress(len(needs) + 1, progress_bar)
    try:
        ranking = rank_options(
            needs,
            site_frame,
            bank_frame,
            adjustments=adjustments,
            as_of=as_of,
            weights=weights,
            params=params,
            siting_reading=siting_reading,
            progress=bar.update,
        )
        bar.set_description("site: allocating", refresh=_shown(bar))
        solution = allocate(
            ranking,
            needs=need_table,
            weights=weights,
            params=params,
            as_of=as_of,
            time_limit=time_limit,
            siting_reading=siting_reading,
            progress=lambda stage: bar.set_postfix_str(f"stage {stage}", refresh=_shown(bar)),
        )
        bar.update(1)
    finally:
        bar.close()
    return ranking, solution


def _with_depressions(
    site_frame: gpd.GeoDataFrame, dem: str | Path, inputs: list[InputRecord], records: list[str]
) -> gpd.GeoDataFrame:
    """Return the sites with the depression attributes of a DEM (a suitability screen)."""
    inputs.append(InputRecord(role="dem", path=str(dem), sha256=file_sha256(dem)))
    summary = depression_summary(site_frame, dem)
    site_frame = site_frame.join(summary)
    records.append(f"DEM {dem}: depression attributes added to the sites ({SUITABILITY_CAVEAT})")
    return site_frame


def passed_over_sites(ranking: pd.DataFrame, plan: pd.DataFrame) -> list[str]:
    """Return :func:`passed_over` as the plan's text: each row's ids ``"; "``-joined.

    Examples
    --------
    >>> passed_over_sites(pd.DataFrame(), pd.DataFrame({"impact_id": ["1"]}))
    ['']
    """
    return ["; ".join(ids) for ids in passed_over(ranking, plan)]


def passed_over(ranking: pd.DataFrame, plan: pd.DataFrame) -> list[list[str]]:
    """Return, per plan row of bank credits, the better-tier sites it was chosen over.

    Under ``banking_own_order`` (§ 103G.222, subd. 3(c)) a bank credit in the impact's
    bank service area (tier 3) is the first level of banking's own order, and between
    the two methods the cheaper is chosen: a plan may take it while a project-specific
    site of tier 1 or 2 for the same impact still has credits the plan did not use. Those
    sites (their ids, best tier first) are what the reading put the credit ahead of; none
    for a site, and always none under ``single_order``, where a bank credit never comes
    before a better-tier site. The plan writes them twice: ``passed_over_sites``, the ids
    ``"; "``-joined for people, and ``passed_over_ids``, a JSON list the report reads (an
    id may hold a ``;``).

    Parameters
    ----------
    ranking : pandas.DataFrame
        The ranking (:func:`~wetland_gis.siting.rank.rank_options`).
    plan : pandas.DataFrame
        The allocation's plan.

    Returns
    -------
    list of list of str
        One list of site ids per plan row.
    """
    if not len(plan) or not len(ranking):
        return [[] for _ in range(len(plan))]
    own = set(ranking.get("siting_reading", pd.Series(dtype=object)).astype(str))
    if own != {BANKING_OWN_ORDER}:
        return [[] for _ in range(len(plan))]
    taken = plan.groupby(plan["option_id"].astype(str))["credits"].sum().to_dict()
    ok = ranking[~read_yes_no(ranking["excluded"]) & (ranking["option_kind"] == "site")]
    used = np.array([float(taken.get(o, 0.0)) for o in ok["option_id"].astype(str)])
    spare = pd.to_numeric(ok["credits_available"], errors="coerce").fillna(0.0) - used
    left = ok[spare.to_numpy() > NOISE_SQFT / SQFT_PER_ACRE]
    sites: dict[Any, list[tuple[int, str]]] = {}
    for imp, option, tier in zip(left["impact_id"], left["option_id"], left["tier"], strict=True):
        if not pd.isna(tier):
            sites.setdefault(imp, []).append((int(tier), str(option)))
    out: list[list[str]] = []
    for imp, kind, tier in zip(plan["impact_id"], plan["option_kind"], plan["tier"], strict=True):
        better = (
            sorted(s for s in sites.get(imp, []) if s[0] < int(tier))
            if kind == "bank" and not pd.isna(tier)
            else []
        )
        out.append([option for _, option in better])
    return out


#: Seconds a siting run takes before its progress bar shows (a short run shows none).
PROGRESS_DELAY_S = 3.0


def _progress(total: int, enabled: bool) -> Any:
    """Return a tqdm bar over ``total`` steps (the impacts ranked, then the allocation)."""
    from tqdm.auto import tqdm

    return tqdm(
        total=total,
        desc="site: ranking",
        unit="impact",
        delay=PROGRESS_DELAY_S,
        disable=not enabled,
        leave=True,
    )


def _shown(bar: Any) -> bool:
    """Return whether ``bar`` is past its delay (a refresh before it would show it early)."""
    import time

    return not bar.disable and time.time() - bar.start_t >= PROGRESS_DELAY_S


def weights_label(weights: Mapping[str, float]) -> str:
    """Return the allocation weights as written in the outputs, e.g. ``"cost=1, distance=0.5"``.

    >>> weights_label({"cost": 1.0, "distance": 0.5, "out_of_kind": 0.0})
    'cost=1, distance=0.5, out_of_kind=0'
    """
    return ", ".join(f"{key}={value:g}" for key, value in weights.items())


SITE_KEY = "wg_site_key"
"""Column added to impacts whose ids repeat or are blank, so siting can tell them apart."""


def _told_apart(impacts: Any, id_field: str | None, records: list[str]) -> tuple[Any, str | None]:
    """Give impacts with a repeated or blank id a key ``<id>#<wg_row>``, as ``assess`` does.

    ``assess`` keeps and decides every row, duplicate ids included (flagged in ``repairs``),
    and keys their decisions ``<id>#<wg_row>``; siting uses the same keys so that no impact
    is refused or merged with another.
    """
    if not isinstance(impacts, pd.DataFrame) or not len(impacts):
        return impacts, id_field
    lower = {str(c).lower(): c for c in impacts.columns}
    column = _impact_id_column(impacts, id_field)
    if column is None or "wg_row" not in lower:
        return impacts, id_field
    ids = impacts[column].map(
        lambda v: (
            ""
            if v is None or (pd.api.types.is_scalar(v) and pd.isna(v)) or not str(v).strip()
            else str(v)
        )
    )
    clash = ids.duplicated(keep=False) | (ids == "")
    if not clash.any():
        return impacts, id_field
    rows = impacts[lower["wg_row"]].astype(str)
    keyed = impacts.copy()
    keyed[SITE_KEY] = ids.where(~clash, ids + "#" + rows)
    records.append(
        f"{int(clash.sum())} impact(s) with a repeated or blank id in column {column!r} are "
        f"sited as <id>#<wg_row> (e.g. {keyed.loc[clash, SITE_KEY].iloc[0]!r}), the keys of "
        "their decisions"
    )
    return keyed, SITE_KEY


def _summarise(
    frame: gpd.GeoDataFrame | None, ranking: pd.DataFrame, plan: pd.DataFrame
) -> gpd.GeoDataFrame | None:
    if frame is None:
        return None
    frame = frame.copy()
    ids = frame["option_id"].astype(str)
    ok = ranking[~read_yes_no(ranking["excluded"])] if len(ranking) else ranking
    best = (
        ok.groupby(ok["option_id"].astype(str))["tier"].min()
        if len(ok)
        else pd.Series(dtype="Int64")
    )
    used = (
        plan.groupby(plan["option_id"].astype(str))["credits"].sum()
        if len(plan)
        else pd.Series(dtype=float)
    )
    frame["best_tier"] = pd.array([best.get(i, pd.NA) for i in ids], dtype="Int64")
    frame["allocated_credits"] = np.array([float(used.get(i, 0.0)) for i in ids])
    return frame
