"""Rank replacement options for each impact by the siting priority of § 103G.222, subd. 3.

The geometry side of siting: with the bank credit listing and the candidate sites read by
:mod:`wetland_gis.io.bank_listing` and :mod:`wetland_gis.io.candidate_sites`, place
every option in its minor and major watershed, bank service area and percentage-area
class (:func:`attribute_options`), then pair every impact that needs replacement with
every option (:func:`rank_options`). The legal questions - tier, exclusion, fee, eligible
action - are answered by the rules core (:mod:`wetland_gis.rules.priority`,
:func:`~wetland_gis.rules.procedure.bank_fees`); this module only supplies their values.
Each impact's ratio, credits required and permit route are the decision ``assess`` wrote
(:data:`DECISION_FIELDS`), never decided again: only the user's adjustments for the
relation to an option are added (:func:`~wetland_gis.rules.priority.option_ratio`).

:func:`tier_gaps` says, per impact, which higher tiers had no opportunity or too little
(subd. 3(d)), from the ranking alone - before the impacts of a project compete for the
same credits, which :func:`wetland_gis.siting.allocate.allocate` settles.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.enums import ImpactOutcome, Outcome, SitingTier
from wetland_gis.errors import FieldMappingError, InputError, RulesInputError, WetlandTypeError
from wetland_gis.geometry.crs import to_working_crs
from wetland_gis.geometry.overlay import largest_overlap
from wetland_gis.io.values import (
    is_blank,
    normalise_key,
    parse_bool,
    parse_id,
    parse_whole_number,
)
from wetland_gis.io.wetland_types import parse_wetland_type
from wetland_gis.parameters import Adjustments, ParameterSet, as_date, load_adjustments
from wetland_gis.rules.counties import county_classes
from wetland_gis.rules.exempt.project import REPLACEMENT_BY_BOARD
from wetland_gis.rules.priority import (
    BANKING_OWN_ORDER,
    CITE_NEXT_LEVEL,
    SINGLE_ORDER,
    SitingPlace,
    next_tier_condition,
    option_ratio,
    replacement_action_eligibility,
    siting_priority,
    siting_tier,
)
from wetland_gis.rules.procedure import bank_fees
from wetland_gis.rules.spec import question
from wetland_gis.siting.allocate import check_weights, read_yes_no
from wetland_gis.units import FOOT_M

#: Programs whose credits can replace a Wetland Conservation Act impact.
WCA_PROGRAMS = frozenset({"WCA", "both"})
#: Impact id columns tried in order (case-insensitive), then ``wg_row``.
IMPACT_ID_FIELDS = ("impact_id", "id", "fid")

RANKING_COLUMNS = (
    "impact_id",
    "option_id",
    "option_kind",
    "tier",
    "tier_label",
    "excluded",
    "exclusion_reason",
    "in_kind",
    "ratio",
    "credits_needed",
    "credits_available",
    "unit_cost",
    "cost",
    "distance_ft",
    "citations",
    "reasons",
    # beyond the schema
    "impact_acres",
    "verify",
    "priority",
    "siting_reading",
)
TIER_GAP_COLUMNS = (
    "impact_id",
    "method",
    "tier",
    "tier_label",
    "status",
    "options",
    "credits_available",
    "credits_used",
    "acres_available",
    "acres_to_place",
    "short_acres",
    "short_credits",
    "reason",
    "citations",
    "verify",
)

CITE_WCA_PLAN = question("siting_tier").clause("1(a)")
_PLACE_FIELDS = ("minor", "major", "bsa", "pct_class")


def _whole(value: Any) -> int | None:
    """Return a watershed or service area number, or None when blank or not whole."""
    return parse_whole_number(value, errors="coerce")


# --------------------------------------------------------------------------------------
# placing the options
# --------------------------------------------------------------------------------------


def _located(frame: gpd.GeoDataFrame) -> np.ndarray:
    geom = frame.geometry
    return (~(geom.isna() | geom.is_empty)).to_numpy()


def _overlay(
    frame: gpd.GeoDataFrame, layer: gpd.GeoDataFrame | None, fields: list[str]
) -> pd.DataFrame | None:
    ok = _located(frame)
    if layer is None or not ok.any():
        return None
    fields = [f for f in fields if f in layer.columns]
    got = largest_overlap(frame[ok], layer, fields)
    return got.reindex(frame.index)


def attribute_options(
    sites: gpd.GeoDataFrame | None,
    banks: gpd.GeoDataFrame | None,
    context: Any = None,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> tuple[gpd.GeoDataFrame | None, gpd.GeoDataFrame | None]:
    """Add ``minor``, ``major``, ``bsa``, ``pct_class`` (and ``county``) to sites and banks.

    Parameters
    ----------
    sites, banks : GeoDataFrame or None
        From :func:`~wetland_gis.io.candidate_sites.prepare_sites` and
        :func:`~wetland_gis.io.bank_listing.read_bank_listing`.
    context : Context, optional
        The reference layers (:func:`wetland_gis.context.load_context`). Without it only
        the values already on the options are used.
    params : ParameterSet, optional
        For the county lists (banks located only by county name).
    as_of : str or date, optional
        Date the county lists are read for.

    Returns
    -------
    (GeoDataFrame or None, GeoDataFrame or None)
        Copies with the four place columns and ``place_source`` saying where each value
        came from. A value given in the bank listing wins; otherwise the option's
        location is overlaid on the context layer (largest overlap). ``pct_class`` comes
        from the listing, else the ``percentage_overrides`` layer (a reclassified
        watershed or a bank service area classed for replacement, § 103G.005, subd. 10b),
        else the county at the location, else the listing's county name. Unknown values
        stay missing.
    """
    out = []
    for frame in (sites, banks):
        out.append(None if frame is None else _attribute(frame, context, params, as_of))
    return out[0], out[1]


def _attribute(
    frame: gpd.GeoDataFrame, context: Any, params: ParameterSet | None, as_of: str | dt.date | None
) -> gpd.GeoDataFrame:
    frame, _ = to_working_crs(frame, source="options")
    frame = frame.copy()
    n = len(frame)
    src: list[list[str]] = [[] for _ in range(n)]
    get = (lambda name: context.get(name)) if context is not None else (lambda name: None)

    def given(name: str) -> list[Any]:
        return frame[name].tolist() if name in frame else [None] * n

    minor_ov = _overlay(frame, get("minor_watersheds"), ["minor", "major"])
    major_ov = _overlay(frame, get("major_watersheds"), ["major"])
    bsa_ov = _overlay(frame, get("bank_service_areas"), ["bsa"])
    pct_ov = _overlay(frame, get("percentage_overrides"), ["pct_class"])
    county_ov = _overlay(frame, get("counties"), ["NAME", "pct_class"])

    major_layer = None if major_ov is None else major_ov["major"]
    if minor_ov is not None and "major" in minor_ov:
        alt = minor_ov["major"]
        major_layer = alt if major_layer is None else major_layer.where(major_layer.notna(), alt)
    minor = _given_or_layer(
        "minor", given("minor"), _layer_values(minor_ov, "minor", n), "minor_watersheds", src
    )
    major = _given_or_layer(
        "major", given("major"), _layer_values(major_layer, None, n), "major_watersheds", src
    )
    bsa = _given_or_layer(
        "bsa", given("bsa"), _layer_values(bsa_ov, "bsa", n), "bank_service_areas", src
    )
    county = _given_or_layer(
        "county", given("county"), _layer_values(county_ov, "NAME", n), "counties", src
    )
    pct = _pct_classes(
        given("pct_class"),
        _layer_values(pct_ov, "pct_class", n),
        _layer_values(county_ov, "pct_class", n),
        county,
        src,
        params,
        as_of,
    )
    frame["minor"] = [parse_id(v) for v in minor]
    frame["major"] = pd.array([_whole(v) for v in major], dtype="Int64")
    bsa_whole = [_whole(v) for v in bsa]
    all_whole = all(w is not None or is_blank(v) for w, v in zip(bsa_whole, bsa, strict=True))
    frame["bsa"] = (
        pd.array(bsa_whole, dtype="Int64")
        if all_whole
        else [None if is_blank(v) else str(v) for v in bsa]
    )
    frame["county"] = county
    frame["pct_class"] = pct
    frame["place_source"] = ["; ".join(s) for s in src]
    return frame


def _layer_values(found: pd.DataFrame | pd.Series | None, name: str | None, n: int) -> list[Any]:
    """Return a column of an overlay (``None`` each where the layer was not given)."""
    if found is None:
        return [None] * n
    return (found if name is None else found[name]).tolist()


def _given_or_layer(
    name: str, values: list[Any], layer: list[Any], label: str, src: list[list[str]]
) -> list[Any]:
    """Return each option's value: the one given, else the layer's; say where it came from."""
    out = []
    for k, (v, lv) in enumerate(zip(values, layer, strict=True)):
        if not is_blank(v):
            src[k].append(f"{name}: given")
            out.append(v)
        elif not is_blank(lv):
            src[k].append(f"{name}: {label}")
            out.append(lv)
        else:
            out.append(None)
    return out


def _pct_classes(
    given: list[Any],
    overrides: list[Any],
    at_county: list[Any],
    county: list[Any],
    src: list[list[str]],
    params: ParameterSet | None,
    as_of: str | dt.date | None,
) -> list[str | None]:
    """Return each option's percentage-area class: given, override layer, county, county name."""
    pct: list[str | None] = []
    names: dict[Any, Any] = {}
    for k, v in enumerate(given):
        if not is_blank(v):
            pct.append(str(v))
            src[k].append("pct_class: given")
        elif not is_blank(overrides[k]):
            pct.append(str(overrides[k]))
            src[k].append("pct_class: percentage_overrides")
        elif not is_blank(at_county[k]):
            pct.append(str(at_county[k]))
            src[k].append("pct_class: county at location (Minn. R. 8420.0117, subp. 1)")
        elif not is_blank(county[k]):
            if county[k] not in names:
                names[county[k]] = county_classes(county[k], params, as_of)[0]
            cls = names[county[k]]
            pct.append(None if cls is None else str(cls.value))
            if cls is not None:
                src[k].append("pct_class: county named in the listing (Minn. R. 8420.0117)")
        else:
            pct.append(None)
    return pct


# --------------------------------------------------------------------------------------
# impacts
# --------------------------------------------------------------------------------------


def _impact_id_column(impacts: pd.DataFrame, id_field: str | None) -> str | None:
    lower = {str(c).lower(): c for c in impacts.columns}
    if id_field is not None:
        if id_field.lower() not in lower:
            raise FieldMappingError(
                f"impact id field {id_field!r} is not a column of the "
                f"impacts; they have {list(map(str, impacts.columns))}"
            )
        return lower[id_field.lower()]
    for name in (*IMPACT_ID_FIELDS, "wg_row"):
        if name in lower:
            return lower[name]
    return None


def _types(value: Any) -> frozenset[int] | None:
    if is_blank(value):
        return None
    try:
        return frozenset(int(t) for t in parse_wetland_type(value).types)
    except WetlandTypeError:
        return None


def _truthy(value: Any) -> bool | None:
    """Return a yes/no attribute; None (unknown) when blank or not a yes/no spelling."""
    return parse_bool(value, errors="coerce")


#: The columns ``assess`` writes from each impact's decision that siting reads
#: (docs/data_schema.md, "Classified impacts"). Siting decides none of them again.
DECISION_FIELDS = ("outcome", "ratio", "atf_multiplier", "replace_acres", "permit_route")


def impact_needs(
    impacts: gpd.GeoDataFrame | pd.DataFrame, *, id_field: str | None = None
) -> pd.DataFrame:
    """Return the impacts that need replacement, with what siting needs of each.

    Parameters
    ----------
    impacts : GeoDataFrame
        Classified impacts (output of ``assess``, docs/data_schema.md): the decision
        columns :data:`DECISION_FIELDS` (``outcome``, ``ratio``, ``atf_multiplier``,
        ``replace_acres``, ``permit_route``), then ``status``, ``pct_class``, ``minor``,
        ``major``, ``bsa`` and ``wetland_type`` (names case-insensitive).
    id_field : str, optional
        Column of the impact id (default: ``impact_id``, ``id``, ``fid``, then ``wg_row``,
        then the row index).

    Returns
    -------
    GeoDataFrame
        One row per assessed impact with ``outcome == "replacement_required"`` and
        ``replace_acres > 0`` that the board does not replace (``replacement_by`` is not
        ``board``, § 103G.222, subd. 1(m)): ``impact_id``, ``acres`` (impact acres counted,
        ``replace_acres / ratio``), ``ratio``, ``atf_multiplier``, ``replace_acres`` (the
        credits required at the decided ratio) and ``permit_route``, all as decided, the
        place columns, ``types`` (set of Circular 39 types or None) and the geometry (if
        any) in EPSG:26915. Nothing of the decision is recomputed: land use, the
        percentage class and the after-the-fact claim reach siting only through the
        decided ratio.

    Raises
    ------
    FieldMappingError
        When a decision column is missing (a file written by an older ``assess``: re-run
        it), a decided ratio or multiplier is not a positive number, or ``id_field`` is
        not a column.
    MissingCRSError
        When the impacts are a GeoDataFrame without a CRS.
    """
    lower = {str(c).lower(): c for c in impacts.columns}
    missing = [c for c in DECISION_FIELDS if c not in lower]
    if missing:
        raise FieldMappingError(
            f"the impacts lack the decision column(s) {missing}: siting reads each impact's "
            "ratio, after-the-fact multiplier, credits required and permit route from the "
            "decision `wetland-gis assess` writes, and never decides them again. Re-run "
            "`wetland-gis assess` on the impact layer (a file written by an older version "
            "lacks them) and site its output (docs/data_schema.md, 'Classified impacts')"
        )
    frame = impacts
    if isinstance(frame, gpd.GeoDataFrame):
        frame, _ = to_working_crs(frame, source="impacts")
    id_col = _impact_id_column(frame, id_field)

    def col(name: str) -> pd.Series:
        if name in lower:
            return frame[lower[name]]
        return pd.Series([None] * len(frame), index=frame.index, dtype=object)

    outcome = col("outcome").astype(str).str.strip().str.lower()
    status = col("status")
    replace = pd.to_numeric(col("replace_acres"), errors="coerce")
    assessed = status.isna() | (status.astype(str).str.lower() == "assessed")
    # § 103G.222, subd. 1(m): the board replaces the wetlands of a road project it covers;
    # assess writes it in replacement_by (optional: a file without it sites every impact)
    by_board = col("replacement_by").astype(str).str.strip().str.lower() == REPLACEMENT_BY_BOARD
    keep = (
        assessed & (outcome == ImpactOutcome.REPLACEMENT_REQUIRED.value) & (replace > 0) & ~by_board
    ).to_numpy()
    sub = frame[keep]
    ratio = pd.to_numeric(col("ratio"), errors="coerce")[keep]
    mult = pd.to_numeric(col("atf_multiplier"), errors="coerce")[keep]
    ids = sub[id_col].tolist() if id_col is not None else sub.index.tolist()
    bad = ~((ratio > 0) & np.isfinite(ratio) & (mult >= 1) & np.isfinite(mult))
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        raise FieldMappingError(
            f"impact {ids[first]!r} needs replacement but its decided ratio "
            f"({col('ratio')[keep].iloc[first]!r}) or after-the-fact multiplier "
            f"({col('atf_multiplier')[keep].iloc[first]!r}) is not a positive number: the "
            "decision columns were edited or the file is not the output of assess; re-run "
            "`wetland-gis assess`"
        )
    route = col("permit_route")[keep]
    out = pd.DataFrame(
        {
            "impact_id": ids,
            "acres": (replace[keep] / ratio).to_numpy(dtype=float),
            "ratio": ratio.to_numpy(dtype=float),
            "atf_multiplier": mult.to_numpy(dtype=float),
            "replace_acres": replace[keep].to_numpy(dtype=float),
            "permit_route": [None if is_blank(v) else str(v) for v in route],
            "minor": [parse_id(v) for v in col("minor")[keep]],
            "major": [_whole(v) for v in col("major")[keep]],
            "bsa": [v if _whole(v) is None else _whole(v) for v in col("bsa")[keep]],
            "pct_class": [None if is_blank(v) else str(v) for v in col("pct_class")[keep]],
            "types": [_types(v) for v in col("wetland_type")[keep]],
        }
    )
    if out["impact_id"].duplicated().any():
        dup = out.loc[out["impact_id"].duplicated(), "impact_id"].tolist()[:5]
        raise FieldMappingError(
            f"impact ids {dup} are repeated; give a unique id field (id_field=...)"
        )
    if isinstance(sub, gpd.GeoDataFrame):
        return gpd.GeoDataFrame(out, geometry=sub.geometry.to_numpy(), crs=sub.crs)
    return out


# --------------------------------------------------------------------------------------
# ranking
# --------------------------------------------------------------------------------------


def _options(sites: gpd.GeoDataFrame | None, banks: gpd.GeoDataFrame | None) -> pd.DataFrame:
    parts = []
    if sites is not None and len(sites):
        credit = sites["credit_ac"].to_numpy(dtype=float)
        total = sites["cost_usd"].to_numpy(dtype=float)
        unit = np.divide(total, credit, out=np.full(len(credit), np.nan), where=credit > 0)
        s = pd.DataFrame(
            {
                "option_id": sites["option_id"].astype(str).to_numpy(),
                "option_kind": "site",
                "credits_available": credit,
                "unit_cost": unit,
                "program": None,
                "action": sites["action"].tolist(),
                "in_advance": (
                    [_truthy(v) is True for v in sites["in_advance"]]
                    if "in_advance" in sites
                    else False
                ),
                "circ39": sites["circ39"].tolist(),
            }
        )
        s["geometry"] = sites.geometry.to_numpy()
        for f in _PLACE_FIELDS:
            s[f] = sites[f].tolist() if f in sites else None
        parts.append(s)
    if banks is not None and len(banks):
        b = pd.DataFrame(
            {
                "option_id": banks["option_id"].astype(str).to_numpy(),
                "option_kind": "bank",
                "credits_available": banks["credits"].to_numpy(dtype=float),
                "unit_cost": banks["price"].to_numpy(dtype=float),
                "program": banks["program"].tolist(),
                "action": None,
                "in_advance": True,
                "circ39": banks["circ39"].tolist(),
            }
        )
        b["geometry"] = banks.geometry.to_numpy()
        for f in _PLACE_FIELDS:
            b[f] = banks[f].tolist() if f in banks else None
        parts.append(b)
    if not parts:
        return pd.DataFrame(
            columns=[
                "option_id",
                "option_kind",
                "credits_available",
                "unit_cost",
                "program",
                "action",
                "in_advance",
                "circ39",
                "geometry",
                *_PLACE_FIELDS,
            ]
        )
    opts = pd.concat(parts, ignore_index=True)
    dup = opts.loc[opts["option_id"].duplicated(), "option_id"].tolist()
    if dup:
        raise InputError(
            f"option ids {dup[:5]} are used by both a site and a bank account (or "
            "twice); rename the site_id so every option has its own id"
        )
    return opts


def siting_place(
    minor: Any = None, major: Any = None, bsa: Any = None, pct_class: Any = None
) -> SitingPlace:
    """Return the :class:`~wetland_gis.rules.priority.SitingPlace` of values read from a file.

    The values are read with :mod:`wetland_gis.io.values` before the rules see them: an id
    keeps its text (``"07001"``) and a number is an id without a decimal point (``7001.0``
    is ``"7001"``); a major watershed and a bank service area are whole numbers (``"18.0"``
    is 18; a bank service area that is not a number is kept as text); NaN, ``pd.NA`` and
    blank text are unknown (None).

    Raises
    ------
    RulesInputError
        On a major watershed that is not a whole number or a percentage class not in
        :class:`~wetland_gis.enums.PercentageArea`.

    Examples
    --------
    >>> siting_place(minor=7001.0, major="18.0", bsa=" 7 ")
    SitingPlace(minor='7001', major=18, bsa=7, pct_class=None)
    """
    whole = parse_whole_number(major, errors="coerce")
    if whole is None and not is_blank(major):
        raise RulesInputError(
            f"major watershed {major!r} is not a whole number; give the DNR major "
            "watershed number 1-81"
        )
    area: int | str | None = parse_whole_number(bsa, errors="coerce")
    if area is None and not is_blank(bsa):
        area = str(bsa).strip()
    return SitingPlace(parse_id(minor), whole, area, None if is_blank(pct_class) else pct_class)


def _place(rec: Mapping[str, Any]) -> tuple[SitingPlace, list[str]]:
    notes: list[str] = []
    pct = rec.get("pct_class")
    try:
        return siting_place(rec.get("minor"), rec.get("major"), rec.get("bsa"), pct), notes
    except RulesInputError as exc:
        notes.append(str(exc))
        return siting_place(rec.get("minor"), None, rec.get("bsa"), None), notes


def rank_options(
    impacts: gpd.GeoDataFrame | pd.DataFrame,
    sites: gpd.GeoDataFrame | None = None,
    banks: gpd.GeoDataFrame | None = None,
    *,
    adjustments: Adjustments | None = None,
    as_of: str | dt.date | None = None,
    weights: Mapping[str, float] | None = None,
    params: ParameterSet | None = None,
    id_field: str | None = None,
    siting_reading: str = BANKING_OWN_ORDER,
    progress: Callable[[int], Any] | None = None,
) -> pd.DataFrame:
    """Rank every replacement option for every impact that needs replacement.

    Parameters
    ----------
    impacts : GeoDataFrame
        Classified impacts (see :func:`impact_needs`), or its output.
    sites : GeoDataFrame, optional
        Candidate sites from :func:`~wetland_gis.io.candidate_sites.prepare_sites`,
        placed by :func:`attribute_options`.
    banks : GeoDataFrame, optional
        Bank listing from :func:`~wetland_gis.io.bank_listing.read_bank_listing`,
        placed by :func:`attribute_options`.
    adjustments : Adjustments, optional
        The user's ratio adjustments (default: :func:`~wetland_gis.parameters.load_adjustments`,
        empty).
    as_of : str or date, optional
        Date the law is applied as of (default today).
    weights : Mapping[str, float], optional
        When given, options of one tier and kind are ordered by a ``score`` (the weights
        of :data:`wetland_gis.siting.allocate.WEIGHT_KEYS` applied to this option alone
        meeting the impact's requirement) instead of by cost.
    params : ParameterSet, optional
        Parameter tree (default: shipped).
    id_field : str, optional
        Impact id column (see :func:`impact_needs`).
    siting_reading : {"banking_own_order", "single_order"}, default "banking_own_order"
        The reading of § 103G.222, subd. 3(c) (:data:`~wetland_gis.rules.priority.SITING_READINGS`,
        docs/siting.md). By default (``banking_own_order``) project-specific sites and bank
        credits are each ranked in their own order (sites by tier 1-4, banks from
        clause (3): tier 3, then 4) and the two lists are interleaved: of the best
        remaining site and the best remaining bank credit, the cheaper comes first, then
        the nearer. ``single_order`` ranks every option in one order of tiers. Written in
        column ``siting_reading``; ``priority`` is the option's level in the order it is
        ranked in (:func:`~wetland_gis.rules.priority.siting_priority`).
    progress : callable, optional
        Called with 1 after each impact is ranked (a progress bar's ``update``).

    Returns
    -------
    pandas.DataFrame
        The "ranking" of docs/data_schema.md (:data:`RANKING_COLUMNS`; plus ``score`` with
        ``weights``): one row per impact and option, ordered by impact (input order), then
        non-excluded before excluded, then (within a method, and for every option under
        ``single_order``) priority, in-kind before unknown before out-of-kind, cost (or
        score), a shared minor/major watershed (the tie-breaker among banks of one tier),
        distance and option id; under ``banking_own_order`` the two methods' lists are
        interleaved as said above. ``ratio`` is the decided ratio of the impact with the
        user's adjustments for the relation. ``cost`` is the cost of the impact's whole
        requirement at the option's unit cost (bank: price times credits plus the
        withdrawal fee, § 103G.2242, subd. 14(a)(3); site: its cost per credit times the
        credits), so options compare on one basis; the allocation charges a site's whole
        cost once.
    """
    day = as_date(as_of).isoformat()
    siting_priority(1, is_bank=False, reading=siting_reading)  # checks the reading
    adjustments = adjustments if adjustments is not None else load_adjustments()
    weights_used = check_weights(weights) if weights is not None else None
    needs = (
        impacts
        if all(c in impacts for c in ("acres", "types", "atf_multiplier", "permit_route"))
        else impact_needs(impacts, id_field=id_field)
    )
    opts = _options(sites, banks)
    relations = _Relations(opts, adjustments, day=day, params=params, reading=siting_reading)
    distances = _Distances(needs, opts)
    rows: list[dict[str, Any]] = []
    for i, imp in enumerate(needs.to_dict("records")):
        if progress is not None and i:
            progress(1)
        rows.extend(relations.rows(i, imp, distances.of(i), weights_used))
    if progress is not None and len(needs):
        progress(1)
    return _ranking_frame(rows, weights_used, siting_reading)


class _Distances:
    """The distance in feet from each impact to every option (NaN where either has none)."""

    def __init__(self, needs: pd.DataFrame, opts: pd.DataFrame) -> None:
        self.n = len(opts)
        self.geo = isinstance(needs, gpd.GeoDataFrame) and len(opts) > 0
        if self.geo:
            self.unit_m = float(needs.crs.axis_info[0].unit_conversion_factor) if needs.crs else 1.0
            ogeom = np.asarray(opts["geometry"].to_numpy(), dtype=object)
            self.valid = ~(shapely.is_missing(ogeom) | shapely.is_empty(ogeom))
            self.options = ogeom[self.valid]
            self.impacts = needs.geometry.to_numpy()

    def of(self, i: int) -> np.ndarray:
        """Return the distances of impact ``i`` (its position) to the options, vectorised."""
        dist = np.full(self.n, np.nan)
        if self.geo:
            igeom = self.impacts[i]
            if igeom is not None and not igeom.is_empty:
                dist[self.valid] = shapely.distance(igeom, self.options) * self.unit_m / FOOT_M
        return dist


@dataclass(frozen=True)
class _Relation:
    """An impact and an option: every column of their ranking row but the amounts.

    It depends only on the impact's place, types, permit route, ratio and multiplier and
    on the option, so it is decided once for all the impacts that share them.
    """

    option_id: Any
    option_kind: str
    is_bank: bool
    tier: int | None
    tier_label: str
    excluded: bool
    exclusion_reason: str
    in_kind: bool | None
    ratio: float
    credits_available: Any
    unit_cost: Any
    citations: tuple[str, ...]
    citation_text: str
    reasons: str
    verify: str
    priority: int | None
    ws: int  # 0 same minor watershed, 1 same major, 2 neither (the banks' tie-breaker)


class _Relations:
    """The options of a ranking, and what each is to each kind of impact (decided once)."""

    def __init__(
        self,
        opts: pd.DataFrame,
        adjustments: Adjustments,
        *,
        day: str,
        params: ParameterSet | None,
        reading: str,
    ) -> None:
        self.adjustments, self.day, self.params, self.reading = adjustments, day, params, reading
        self.has_in_advance = any(a.when == "in_advance" for a in adjustments.ratio)
        self.options = opts.to_dict("records")
        self.places = [(*_place(rec), _types(rec["circ39"])) for rec in self.options]
        rule_actions = {k: v[1] for k, v in adjustments.credit_percentages.items()}
        self.actions = {
            k: replacement_action_eligibility(
                normalise_key(rec["action"]),  # NaN or blank: None (unknown)
                self.places[k][0].pct_class,
                rule_actions=rule_actions,
                as_of=day,
            )
            for k, rec in enumerate(self.options)
            if rec["option_kind"] == "site"
        }
        self.tier_cache: dict[tuple, Any] = {}
        self.ratio_cache: dict[tuple, Any] = {}
        self.fee_cache: dict[float, Any] = {}
        self.fee_texts: dict[tuple, str] = {}
        self.of_kind: dict[tuple, list[_Relation]] = {}

    def rows(
        self,
        i: int,
        imp: Mapping[str, Any],
        dist: np.ndarray,
        weights: Mapping[str, float] | None,
    ) -> list[dict[str, Any]]:
        """Return the ranking rows of impact ``imp`` (position ``i``), one per option."""
        acres = float(imp["acres"]) if self.options else float("nan")
        rows = []
        for k, rel in enumerate(self._relations(imp)):
            needed = acres * rel.ratio if math.isfinite(rel.ratio) else float("nan")
            cost, citations = self._cost(rel, needed)
            distance = float(dist[k]) if np.isfinite(dist[k]) else float("nan")
            row = {
                "impact_id": imp["impact_id"],
                "option_id": rel.option_id,
                "option_kind": rel.option_kind,
                "tier": rel.tier,
                "tier_label": rel.tier_label,
                "excluded": rel.excluded,
                "exclusion_reason": rel.exclusion_reason,
                "in_kind": rel.in_kind,
                "ratio": rel.ratio,
                "credits_needed": needed,
                "credits_available": rel.credits_available,
                "unit_cost": rel.unit_cost,
                "cost": cost,
                "distance_ft": distance,
                "citations": citations,
                "reasons": rel.reasons,
                "impact_acres": acres,
                "verify": rel.verify,
                "priority": rel.priority,
                "siting_reading": self.reading,
                "_order": i,
                "_ws": rel.ws,
            }
            if weights is not None:
                credits = needed if math.isfinite(needed) else 0.0
                row["score"] = (
                    weights["cost"] * (cost if math.isfinite(cost) else 0.0)
                    + weights["distance"] * credits * (distance if math.isfinite(distance) else 0.0)
                    + weights["out_of_kind"] * credits * (rel.in_kind is False)
                )
            rows.append(row)
        return rows

    def _relations(self, imp: Mapping[str, Any]) -> list[_Relation]:
        """Return what every option is to ``imp``, decided once per kind of impact."""
        if not self.options:
            return []
        iplace, inotes = _place(imp)
        key = (
            iplace,
            tuple(inotes),
            imp["types"],
            imp["permit_route"],
            float(imp["ratio"]),
            float(imp["atf_multiplier"]),
        )
        try:
            found = self.of_kind.get(key)
        except TypeError:  # an unhashable value in a table of needs given as it is
            return [self._relation(iplace, inotes, imp, k) for k in range(len(self.options))]
        if found is None:
            found = [self._relation(iplace, inotes, imp, k) for k in range(len(self.options))]
            self.of_kind[key] = found
        return found

    def _relation(
        self, iplace: SitingPlace, inotes: list[str], imp: Mapping[str, Any], k: int
    ) -> _Relation:
        """Return what option ``k`` is to an impact: tier, exclusion, kind, ratio, texts."""
        rec = self.options[k]
        oplace, onotes, otypes = self.places[k]
        is_bank = rec["option_kind"] == "bank"
        key = (iplace, oplace, is_bank)
        if key not in self.tier_cache:
            self.tier_cache[key] = siting_tier(iplace, oplace, is_bank=is_bank, as_of=self.day)
        tdec = self.tier_cache[key]
        citations = list(tdec.citations)
        reasons = list(tdec.reasons)
        verify = list(tdec.verify) + inotes + onotes
        if imp["permit_route"] not in (None, "WCA"):
            verify.append(
                f"the impact's permit route, as assessed, is {imp['permit_route']}: confirm "
                "with that authority that this option may provide the replacement it requires"
            )
        exclusion = []
        if tdec.outcome is Outcome.EXCLUDED:
            exclusion.append(tdec.reasons[0])
        if is_bank and rec["program"] not in WCA_PROGRAMS:
            exclusion.append(
                f"credits listed for the {rec['program']} program only: a Wetland "
                "Conservation Act replacement needs WCA credits (program WCA or both)"
            )
            citations.append(CITE_WCA_PLAN)
        if not is_bank:
            adec = self.actions[k]
            citations += list(adec.citations)
            verify += list(adec.verify)
            if adec.outcome is Outcome.NOT_ELIGIBLE:
                exclusion.append(adec.reasons[-1])
            else:
                reasons += list(adec.reasons)
        in_kind, conds = _conditions(
            iplace, oplace, imp["types"], otypes, is_bank or rec["in_advance"] is True, verify
        )
        if is_bank and self.has_in_advance:
            verify.append(
                "bank credits are treated as replacement in advance (deposited "
                "before the withdrawal); confirm the in_advance adjustment "
                "applies to them under Minn. R. 8420.0522"
            )
        ratio, rdec_notes, rcites, rreasons = _ratio(
            imp, conds, self.adjustments, self.day, self.ratio_cache
        )
        citations += rcites
        reasons += rreasons
        verify += rdec_notes
        if not math.isfinite(rec["unit_cost"]):
            verify.append("the option's cost: no price or cost_usd was given")
        excluded = bool(exclusion)
        tier = None if tdec.value is None or excluded else int(tdec.value)
        return _Relation(
            option_id=rec["option_id"],
            option_kind=rec["option_kind"],
            is_bank=is_bank,
            tier=tier,
            tier_label=SitingTier(tier).label if tier else "",
            excluded=excluded,
            exclusion_reason="; ".join(exclusion),
            in_kind=in_kind,
            ratio=ratio,
            credits_available=rec["credits_available"],
            unit_cost=rec["unit_cost"],
            citations=tuple(citations),
            citation_text="; ".join(dict.fromkeys(citations)),
            reasons="; ".join(dict.fromkeys(reasons)),
            verify="; ".join(dict.fromkeys(verify)),
            priority=None
            if tier is None
            else siting_priority(tier, is_bank=is_bank, reading=self.reading),
            ws=0
            if tdec.amounts.get("same_minor_watershed")
            else (1 if tdec.amounts.get("same_major_watershed") else 2),
        )

    def _cost(self, rel: _Relation, needed: float) -> tuple[float, str]:
        """Return the cost of ``needed`` credits of an option, and the row's citations.

        A bank's cost includes the withdrawal fee the rules core decides
        (:func:`~wetland_gis.rules.procedure.bank_fees`, § 103G.2242, subd. 14(a)(3)),
        whose citation the row then adds.
        """
        unit = rel.unit_cost
        if not (math.isfinite(unit) and math.isfinite(needed)):
            return float("nan"), rel.citation_text
        value = needed * unit
        if not rel.is_bank:
            return value, rel.citation_text
        if value not in self.fee_cache:
            self.fee_cache[value] = bank_fees(
                value, "withdrawal", params=self.params, as_of=self.day
            )
        fdec = self.fee_cache[value]
        key = (rel.citations, tuple(fdec.citations))
        if key not in self.fee_texts:
            self.fee_texts[key] = "; ".join(dict.fromkeys([*rel.citations, *fdec.citations]))
        return value + float(fdec.value), self.fee_texts[key]


def _conditions(
    iplace: SitingPlace,
    oplace: SitingPlace,
    itypes: frozenset[int] | None,
    otypes: frozenset[int] | None,
    in_advance: bool,
    verify: list[str],
) -> tuple[bool | None, list[str]]:
    """Return whether an option is in kind, and the relation's ratio adjustment conditions.

    An unknown Circular 39 type leaves in-kind undecided, with a verify item.
    """
    in_kind = None if (itypes is None or otypes is None) else bool(itypes & otypes)
    if in_kind is None:
        verify.append(
            "the Circular 39 type of the "
            + ("impact" if itypes is None else "option")
            + ": unknown, so in-kind or out-of-kind is not decided"
        )
    conds = []
    if in_kind is not None:
        conds.append("in_kind" if in_kind else "out_of_kind")
    if iplace.minor is not None and iplace.minor == oplace.minor:
        conds.append("same_minor_watershed")
    if iplace.major is not None and oplace.major is not None and iplace.major != oplace.major:
        conds.append("outside_major_watershed")
    if iplace.bsa is not None and oplace.bsa is not None and iplace.bsa != oplace.bsa:
        conds.append("outside_bank_service_area")
    if in_advance:
        conds.append("in_advance")
    return in_kind, conds


def _ranking_frame(
    rows: list[dict[str, Any]], weights: Mapping[str, float] | None, reading: str
) -> pd.DataFrame:
    """Return the ranking rows as the ranking, in its order (see :func:`rank_options`)."""
    columns = [*RANKING_COLUMNS] + (["score"] if weights is not None else [])
    if not rows:
        return pd.DataFrame(columns=columns)
    out = pd.DataFrame(rows)
    out["_kind"] = out["in_kind"].map({True: 0, False: 2}).fillna(1)
    out["_tier"] = out["priority"].fillna(9)
    order_by = [
        "_order",
        "excluded",
        "_tier",
        "_kind",
        "score" if weights is not None else "cost",
        "_ws",
        "distance_ft",
        "option_id",
    ]
    out = out.sort_values(order_by, kind="stable", na_position="last").reset_index(drop=True)
    if reading == BANKING_OWN_ORDER:
        out = _merge_methods(out, "score" if weights is not None else "cost")
    out["tier"] = pd.array(out["tier"].tolist(), dtype="Int64")
    out["priority"] = pd.array(out["priority"].tolist(), dtype="Int64")
    out["in_kind"] = pd.array(out["in_kind"].tolist(), dtype="boolean")
    return out[columns]


def _merge_methods(out: pd.DataFrame, value: str) -> pd.DataFrame:
    """Interleave each impact's sites and banks, each kept in its own order (subd. 3(c)).

    ``out`` is sorted by impact, excluded, then each method's own order. Per impact the
    best remaining project-specific site and the best remaining bank credit are compared
    and the cheaper (``value``: cost or score) comes first, then the nearer, then the
    option id; a missing value compares last; on equal keys the site first. Excluded rows
    follow, as sorted.

    Vectorised: merging two lists by comparing their heads gives the order of a stable
    sort by each element's running maximum key within its own list (an element cannot
    come before a worse one above it in its list), sites before banks on equal keys.
    """
    cost = pd.to_numeric(out[value], errors="coerce").to_numpy(dtype=float)
    dist = pd.to_numeric(out["distance_ft"], errors="coerce").to_numpy(dtype=float)
    key = pd.DataFrame(
        {
            "cost_missing": ~np.isfinite(cost),
            "cost": np.where(np.isfinite(cost), cost, 0.0),
            "dist_missing": ~np.isfinite(dist),
            "dist": np.where(np.isfinite(dist), dist, 0.0),
            "option": out["option_id"].astype(str).to_numpy(),
        }
    )
    rank = key.groupby(list(key.columns), sort=True).ngroup().to_numpy()
    excluded = out["excluded"].astype(bool).to_numpy()
    bank = (out["option_kind"].astype(str) == "bank").to_numpy()
    head = pd.Series(rank).groupby([out["_order"].to_numpy(), excluded, bank]).cummax().to_numpy()
    frame = pd.DataFrame(
        {
            "impact": out["_order"].to_numpy(),
            "excluded": excluded,
            "head": np.where(excluded, 0, head),
            "bank": np.where(excluded, False, bank),
            "position": np.arange(len(out)),
        }
    )
    order = frame.sort_values(list(frame.columns), kind="stable").index.to_numpy()
    return out.iloc[order].reset_index(drop=True)


def _ratio(
    imp: Mapping[str, Any],
    conds: list[str],
    adjustments: Adjustments,
    day: str,
    cache: dict[tuple, Any],
) -> tuple[float, list[str], list[str], list[str]]:
    """Return (ratio, verify, citations, reasons) of one impact-option relation.

    The impact's ratio is the decided one (``assess``); only the user's adjustments for
    the relation are added (:func:`~wetland_gis.rules.priority.option_ratio`).
    """
    key = (float(imp["ratio"]), float(imp["atf_multiplier"]), tuple(sorted(conds)))
    if key not in cache:
        cache[key] = option_ratio(
            key[0],
            after_the_fact_multiplier=key[1],
            adjustments=adjustments,
            conditions=key[2],
            as_of=day,
        )
    dec = cache[key]
    reasons = list(dec.reasons) if adjustments.ratio else []
    return float(dec.value), list(dec.verify), list(dec.citations), reasons


# --------------------------------------------------------------------------------------
# tier gaps, subd. 3(d)
# --------------------------------------------------------------------------------------


def tier_gaps(
    ranking: pd.DataFrame,
    *,
    needs: pd.DataFrame | None = None,
    as_of: str | dt.date | None = None,
    plan: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Say per impact which higher levels had no opportunity or too little (subd. 3(d)).

    The walk down the levels is the rules core's (:func:`~wetland_gis.rules.priority.
    next_tier_condition`), in the order of the ranking's reading of subd. 3(c): under
    ``banking_own_order`` once for the project-specific sites (tiers 1-4) and once for
    the bank credits (their own order, from tier 3), each method alone, as the
    allocation keeps them; under ``single_order`` once over every option (method
    ``any``).

    Parameters
    ----------
    ranking : pandas.DataFrame
        Output of :func:`rank_options`.
    needs : pandas.DataFrame, optional
        ``impact_id, acres, ratio`` of every impact (:func:`impact_needs`), so that an
        impact without any option is reported too. Default: the impacts of the ranking.
    as_of : str or date, optional
        Date of the decisions.
    plan : pandas.DataFrame, optional
        The allocation (:attr:`wetland_gis.siting.allocate.Allocation.plan`). With it the
        credits an option offers an impact are those the plan gives the impact plus those
        it leaves unused: what other impacts of the project took is not available, as
        the allocation settled it. Every level the plan uses for an impact is then a
        level this table opens for it (one account of subd. 3(d) for both outputs).
        Without it each impact is looked at alone.

    Returns
    -------
    pandas.DataFrame
        :data:`TIER_GAP_COLUMNS`: one row per impact, method and tier, from the method's
        first level down to the tier at which the requirement is met (or tier 4).
        ``status`` is ``no_opportunity``, ``short`` or ``sufficient``; ``credits_used``
        what the plan gives the impact there; ``acres_to_place`` is what is still to
        place when the tier is reached, ``short_acres`` what remains after it,
        ``short_credits`` the same in credits at the impact's lowest ratio.
    """
    day = as_date(as_of).isoformat()
    excluded = read_yes_no(ranking["excluded"]) if len(ranking) else np.zeros(0, bool)
    usable = ranking[~excluded] if len(ranking) else ranking
    readings = (
        sorted({str(v) for v in ranking["siting_reading"] if not is_blank(v)})
        if "siting_reading" in ranking
        else []
    )
    own = (readings or [SINGLE_ORDER])[0] == BANKING_OWN_ORDER
    if needs is None:
        needs = (
            ranking.groupby("impact_id", sort=False)
            .agg(acres=("impact_acres", "max"), ratio=("ratio", "min"))
            .reset_index()
            if len(ranking)
            else pd.DataFrame(columns=["impact_id", "acres", "ratio"])
        )
    low_ratio = ranking.groupby("impact_id")["ratio"].min() if len(ranking) else pd.Series()
    stats = _tier_stats(usable, own, plan) if len(usable) else {}
    rows = []
    for rec in needs.to_dict("records"):
        imp = rec["impact_id"]
        acres = float(rec["acres"]) if math.isfinite(float(rec["acres"])) else 0.0
        ratio = low_ratio.get(imp, rec.get("ratio", float("nan")))
        for method in ("site", "bank") if own else ("any",):
            rows.extend(_walk_tiers(imp, method, acres, ratio, stats, day))
    out = pd.DataFrame(rows, columns=list(TIER_GAP_COLUMNS))
    out.attrs["citation"] = CITE_NEXT_LEVEL
    return out


def _tier_stats(
    usable: pd.DataFrame, own: bool, plan: pd.DataFrame | None
) -> dict[tuple[Any, str, int], tuple[int, float, float, float]]:
    """Return per impact, method and tier: options, credits, acres and credits the plan used.

    With ``plan`` the credits an option offers an impact are those the plan gives it plus
    those no impact took.
    """
    u = pd.DataFrame(
        {
            "impact_id": usable["impact_id"].to_numpy(),
            "option_id": usable["option_id"].astype(str).to_numpy(),
            "method": usable["option_kind"].astype(str).to_numpy() if own else "any",
            "tier": pd.to_numeric(usable["tier"], errors="coerce").to_numpy(dtype=float),
            "credits": pd.to_numeric(usable["credits_available"], errors="coerce")
            .fillna(0.0)
            .to_numpy(dtype=float),
            "ratio": pd.to_numeric(usable["ratio"], errors="coerce").to_numpy(dtype=float),
        }
    )
    u["used"] = 0.0
    if plan is not None and len(plan):
        key = [plan["impact_id"], plan["option_id"].astype(str)]
        mine = plan.groupby(key)["credits"].sum()
        taken = plan.groupby(plan["option_id"].astype(str))["credits"].sum().to_dict()
        u["used"] = [
            float(mine.get((i, o), 0.0))
            for i, o in zip(u["impact_id"], u["option_id"], strict=True)
        ]
        # this impact's credits, and what no impact took
        gone = np.array([float(taken.get(o, 0.0)) for o in u["option_id"]])
        u["credits"] = u["used"] + np.clip(u["credits"].to_numpy() - gone, 0.0, None)
    u = u[np.isfinite(u["tier"])]
    u["acres"] = np.where(u["ratio"] > 0, u["credits"] / u["ratio"].where(u["ratio"] > 0), 0.0)
    agg = u.groupby(["impact_id", "method", "tier"], sort=False).agg(
        n=("credits", "size"),
        credits=("credits", "sum"),
        acres=("acres", "sum"),
        used=("used", "sum"),
    )
    return {
        (k[0], k[1], int(k[2])): (int(v.n), float(v.credits), float(v.acres), float(v.used))
        for k, v in zip(agg.index, agg.itertuples(), strict=True)
    }


def _walk_tiers(
    imp: Any,
    method: str,
    acres: float,
    ratio: Any,
    stats: Mapping[tuple[Any, str, int], tuple[int, float, float, float]],
    day: str,
) -> list[dict[str, Any]]:
    """Return one impact's tier gap rows of one method, from its first level down.

    The walk is the rules core's (:func:`~wetland_gis.rules.priority.next_tier_condition`);
    banking's own order begins at clause (3) (subd. 3(c)): its walk shows 3 and 4.
    """
    first = int(SitingTier.SAME_BANK_SERVICE_AREA) if method == "bank" else 1
    counts: dict[int, int] = {}
    credits: dict[int, float] = {}
    avail: dict[int, float] = {}
    used: dict[int, float] = {}
    for t in SitingTier:
        counts[int(t)], credits[int(t)], avail[int(t)], used[int(t)] = stats.get(
            (imp, method, int(t)), (0, 0.0, 0.0, 0.0)
        )
    dec = next_tier_condition(acres, avail, options=counts, as_of=day)
    remaining = acres
    reason_iter = iter(dec.reasons)
    rows = []
    for t in SitingTier:
        if int(t) > int(dec.value):
            break
        reason = next(reason_iter, "")
        short = float(dec.amounts.get(f"tier_{int(t)}_short_acres", 0.0))
        if int(t) >= first:
            status = (
                "no_opportunity"
                if counts[int(t)] == 0
                else "short"
                if short > 1e-9
                else "sufficient"
            )
            rows.append(
                {
                    "impact_id": imp,
                    "method": method,
                    "tier": int(t),
                    "tier_label": t.label,
                    "status": status,
                    "options": counts[int(t)],
                    "credits_available": credits[int(t)],
                    "credits_used": used[int(t)],
                    "acres_available": avail[int(t)],
                    "acres_to_place": remaining,
                    "short_acres": short,
                    "short_credits": short * float(ratio)
                    if ratio is not None and math.isfinite(float(ratio))
                    else float("nan"),
                    "reason": _METHOD_WORDS[method] + reason,
                    "citations": "; ".join(dec.citations),
                    "verify": "; ".join(v for v in dec.verify if f"tier {int(t)}" in v),
                }
            )
        remaining = short
    return rows


#: How each method's walk is named in the reasons of the tier gaps.
_METHOD_WORDS = {
    "site": "Project-specific sites, in their own order (subd. 3(a), (c)): ",
    "bank": "Bank credits, in banking's own order from clause (3) (subd. 3(c)): ",
    "any": "",
}
