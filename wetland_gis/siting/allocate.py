"""Exact project-wide allocation of replacement sites and bank credits.

Every impact's replacement requirement is met at the best siting tier available, then at
the lowest cost, across the whole project, with no credit or site acre used twice. The
model is a mixed-integer linear programme solved *exactly* in lexicographic stages with
:func:`scipy.optimize.milp` (HiGHS).

Model
-----
For impact ``i`` (``a_i`` acres of impact to replace) and a non-excluded option ``o``
(``c_o`` credits available, ratio ``r_io``, tier ``t_io``):

* ``x_io >= 0`` credits of option ``o`` used for impact ``i``;
* ``u_i >= 0`` acres of impact ``i`` left unmet;
* ``y_o`` in {0, 1} for each project-specific site with a cost: the site's whole cost is
  paid once when it is used at all.

Coverage: ``sum_o x_io / r_io + u_i = a_i``. Capacity: ``sum_i x_io <= c_o`` (times
``y_o`` for a costed site). Bank credits cost ``price * credits * (1 + w)``, ``w`` the
withdrawal fee rate (Minn. Stat. § 103G.2242, subd. 14(a)(3), read from the parameters).

Stages, each optimum fixed (within ``tolerance``) before the next:

1. minimise the unmet acres ``sum_i u_i``;
2. for ``k = 1, 2, 3``: maximise the acres of impact replaced at tiers ``<= k`` - so
   "best tier available" means: as many impact acres as possible at tier 1 across the
   project; subject to that, as many as possible at tier 2; then tier 3; the rest at
   tier 4. Acres of impact (``x / r``), not credits, are counted, so a higher ratio does
   not weigh a tier more;
3. minimise the cost, or the user's weighted sum of cost, distance and out-of-kind use.

Stages 1 and 2 are linear programmes (the binary ``y`` is relaxed: it never helps them);
stage 3 is the mixed-integer one. Under the ``banking_own_order`` reading of subd. 3(c)
stage 2 is replaced by binaries that keep each method's own order (one per set of better
options, shared by every impact waiting on it), and a distance stage follows the cost.

Numbers: the model counts square feet of impact and of credit, so that a requirement of
a sub-square-foot impact stays far above the solver's absolute tolerances; each stage's
optimum is held for the next within a slack the solver can honour (:data:`NOISE_SQFT`);
an impact below :data:`RESOLUTION_SQFT` is reported unmet with that reason. Unmet demand
is an answer (``unmet``, with a reason per impact), never an infeasible programme.

Examples
--------
>>> import pandas as pd
>>> ranking = pd.DataFrame({
...     "impact_id": ["A", "A"], "option_id": ["S1", "B1"], "option_kind": ["site", "bank"],
...     "tier": [1, 3], "excluded": [False, False], "ratio": [2.0, 2.0],
...     "credits_needed": [2.0, 2.0], "credits_available": [1.0, 10.0],
...     "unit_cost": [5000.0, 1000.0]})
>>> a = allocate(ranking, as_of="2024-05-01")
>>> a.plan[["option_id", "tier", "credits"]].to_dict("list")
{'option_id': ['S1', 'B1'], 'tier': [1, 3], 'credits': [1.0, 1.0]}
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.optimize import Bounds, LinearConstraint, milp

from wetland_gis.errors import AllocationError
from wetland_gis.io.values import FALSE_SPELLINGS, TRUE_SPELLINGS, is_blank, parse_bool
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.rules.priority import (
    BANKING_OWN_ORDER,
    CITE_BANKING,
    SINGLE_ORDER,
    SITING_READINGS,
)
from wetland_gis.rules.procedure import bank_fees
from wetland_gis.rules.spec import question
from wetland_gis.units import SQFT_PER_ACRE

#: Keys of the user's stage-3 weights and what each multiplies.
WEIGHT_KEYS: Mapping[str, str] = {
    "cost": "USD (bank credits with the withdrawal fee; a site's whole cost once used)",
    "distance": "credits times feet from the impact to the option",
    "out_of_kind": "credits of another Circular 39 type than the impact's",
}
#: Default stage-3 objective: lowest cost.
DEFAULT_WEIGHTS: Mapping[str, float] = {"cost": 1.0, "distance": 0.0, "out_of_kind": 0.0}

PLAN_COLUMNS = ("impact_id", "option_id", "option_kind", "tier", "credits", "cost")
UNMET_COLUMNS = ("impact_id", "credits_required", "credits_met", "credits_short", "reason")
#: The unit of every credit figure of the allocation (plan, unmet, totals).
CREDIT_UNIT = "credits (replacement acres)"

FEE_KEY = "bank_fees.withdrawal_percent"
#: The model counts credits and impact area in square feet (not acres): HiGHS's
#: feasibility tolerances are absolute (1e-7 for a linear programme, 1e-6 for a
#: mixed-integer one), and in acres the requirement of a sub-square-foot impact
#: (0.01 sq ft = 2.3e-7 acres) is below them, "met" with nothing by the solver.
_UNIT = SQFT_PER_ACRE
#: Square feet of credit or impact the solver cannot tell from zero (ten times its
#: mixed-integer feasibility tolerance): credits and unmet area below it are noise, and a
#: later stage may give up at most this much of an earlier stage's optimum.
NOISE_SQFT = 1e-5
#: The smallest requirement (square feet of impact) and the smallest option (square feet of
#: credit) the allocation places: a hundred times the noise. A smaller impact is a sliver
#: or cut left by an edit; it is reported unmet with this reason, never met with nothing.
RESOLUTION_SQFT = 1e-3
_HELD_SQFT = NOISE_SQFT / 10  # a later stage gives up less than the noise of an earlier one
_X_DECIMALS = 9  # plan credits (acres) to 0.00004 sq ft, a few times the noise
_MIP_REL_GAP = 1e-9
#: After a numerical failure against the held optima, they are held this many times looser
#: (a solver setting, not a legal number).
_WIDEN_HELD = 1e3


@dataclass(frozen=True)
class Stage:
    """One solved stage of the lexicographic objective.

    Parameters
    ----------
    name : str
        ``"unmet"``, ``"tier_1"``, ``"tier_2"``, ``"tier_3"``, ``"cost"`` or ``"distance"``.
    objective : float
        The optimum of the stage in its unit: acres unmet (``"unmet"``), acres replaced
        at tiers ``<= k`` (``"tier_k"``), or the weighted cost (``"cost"``).
    status : str
        The solver's message.
    """

    name: str
    objective: float
    status: str


@dataclass(frozen=True)
class Allocation:
    """The project-wide plan.

    Parameters
    ----------
    plan : pandas.DataFrame
        One row per impact and option used: ``impact_id, option_id, option_kind, tier,
        credits, cost``, then ``acres`` (impact acres replaced), ``ratio`` and ``fee``
        (bank withdrawal fee included in ``cost``). A site's whole cost is shared among
        the impacts that use it in proportion to their credits. ``cost`` is NaN where the
        option has no price.
    unmet : pandas.DataFrame
        :data:`UNMET_COLUMNS` (``impact_id, credits_required, credits_met, credits_short,
        reason``) and ``impact_acres_short``, for each impact whose requirement is not
        (fully) met. The three credit columns are in credits (replacement acres) at the
        impact's decided ratio (``needs.ratio``, else its lowest option ratio), so that
        ``credits_met + credits_short == credits_required``; ``impact_acres_short`` is
        the same shortfall in acres of impact.
    totals : Mapping[str, Any]
        In credits (``unit``: :data:`CREDIT_UNIT`): ``credits_required``, ``credits_met``,
        ``credits_unmet`` (met + unmet = required) and ``credits_allocated`` (withdrawn
        from the options; differs from ``credits_met`` only where a ratio adjustment
        changes an option's ratio; ``credits`` is the same figure, kept for older
        readers). In acres of impact: ``acres_required``, ``acres_replaced``,
        ``acres_unmet`` and ``acres_by_tier``. Then cost and fees; options and sites
        used; whether some used option had no price; ``stages_not_applied``.
    stages : tuple of Stage
        The solved stages in order.
    status : str
        ``"optimal"``, or ``"no_options"`` when there was nothing to allocate.
    fee_rate : float
        Withdrawal fee as a fraction of the credit value.
    weights : Mapping[str, float]
        The stage-3 weights used.
    citations : tuple of str
        Rules the allocation applied.
    """

    plan: pd.DataFrame
    unmet: pd.DataFrame
    totals: Mapping[str, Any]
    stages: tuple[Stage, ...]
    status: str
    fee_rate: float
    weights: Mapping[str, float]
    citations: tuple[str, ...] = field(default=())

    def stage(self, name: str) -> Stage:
        """Return the stage called ``name``."""
        for s in self.stages:
            if s.name == name:
                return s
        raise KeyError(f"no stage {name!r}; stages are {[s.name for s in self.stages]}")


def check_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """Return validated stage-3 weights (missing keys are 0; ``None`` means lowest cost).

    Parameters
    ----------
    weights : Mapping[str, float] or None
        Keys from :data:`WEIGHT_KEYS`, finite values ``>= 0``.

    Returns
    -------
    dict

    Raises
    ------
    AllocationError
        On an unknown key or a negative or non-numeric weight.
    """
    if weights is None:
        return dict(DEFAULT_WEIGHTS)
    out = dict.fromkeys(WEIGHT_KEYS, 0.0)
    for key, value in weights.items():
        if key not in WEIGHT_KEYS:
            raise AllocationError(
                f"weight {key!r} is not one of {sorted(WEIGHT_KEYS)}; e.g. "
                "weights={'cost': 1.0, 'distance': 0.5}"
            )
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = float("nan")
        if isinstance(value, bool) or not math.isfinite(number) or number < 0:
            raise AllocationError(f"weight {key!r} must be a finite number >= 0, got {value!r}")
        out[key] = number
    return out


def withdrawal_fee_rate(
    params: ParameterSet | None = None, as_of: str | dt.date | None = None
) -> tuple[float, str]:
    """Return the wetland bank withdrawal fee as a fraction of credit value, and its citation.

    Parameters
    ----------
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the fee is read for (default today).

    Returns
    -------
    (float, str)
    """
    params = params if params is not None else default_parameters()
    return float(params.value(FEE_KEY, as_of)) / 100.0, params.citation(FEE_KEY)


# --------------------------------------------------------------------------------------
# problem assembly
# --------------------------------------------------------------------------------------


@dataclass
class _Problem:
    impacts: list[Any]
    acres: np.ndarray  # a_i
    impact_ratio: np.ndarray  # for credits_short
    option_ids: list[Any]
    option_kind: np.ndarray
    cap: np.ndarray
    price: np.ndarray  # bank price per credit (NaN unknown)
    fixed: np.ndarray  # site fixed cost (NaN unknown)
    pi: np.ndarray  # pair -> impact position
    po: np.ndarray  # pair -> option position
    ratio: np.ndarray
    tier: np.ndarray  # the priority level the stages maximise (``priority``, else the tier)
    distance: np.ndarray
    out_of_kind: np.ndarray
    listed: dict[Any, int]  # impact -> options listed (any)
    excluded_reasons: dict[Any, list[str]]
    label_tier: np.ndarray | None = None  # the statutory tier, reported in the plan
    own_orders: bool = False  # subd. 3(c), banking_own_order: each method in its own order
    below_resolution: np.ndarray | None = None  # impacts too small to place (RESOLUTION_SQFT)


def _label(p: _Problem) -> np.ndarray:
    """Return the statutory tier of each pair (the priority when none was kept)."""
    return p.label_tier if p.label_tier is not None else p.tier


def read_yes_no(col: pd.Series) -> np.ndarray:
    """Return a yes/no ranking column (e.g. ``excluded``) as booleans, read by :func:`parse_bool`.

    A blank is False (as the ranking writes no value for "not excluded"); a value that is
    not a yes/no spelling (``"maybe"``, ``2``) is an :class:`AllocationError` naming the
    row, never guessed: ``bool("no")`` would be True.
    """
    flags = [parse_bool(v, errors="coerce") for v in col]
    for row, (flag, raw) in enumerate(zip(flags, col, strict=True)):
        if flag is None and not is_blank(raw):
            raise AllocationError(
                f"ranking column {col.name!r}, row {row + 1}: {raw!r} is not a yes/no value; "
                f"write one of {list(TRUE_SPELLINGS)} or {list(FALSE_SPELLINGS)}"
            )
    return np.array([flag is True for flag in flags], dtype=bool)


def _num(frame: pd.DataFrame, name: str, default: float = np.nan) -> np.ndarray:
    if name not in frame:
        return np.full(len(frame), default, dtype=float)
    return pd.to_numeric(frame[name], errors="coerce").to_numpy(dtype=float)


def _reading(ranking: pd.DataFrame, siting_reading: str | None) -> str:
    """Return the subd. 3(c) reading: the one given, else the ranking's, else single order."""
    if siting_reading is None and "siting_reading" in ranking and len(ranking):
        found = sorted({str(v) for v in ranking["siting_reading"] if not is_blank(v)})
        if len(found) > 1:
            raise AllocationError(
                f"the ranking mixes siting readings {found}; rank every impact under one "
                "reading of § 103G.222, subd. 3(c)"
            )
        siting_reading = found[0] if found else None
    reading = siting_reading if siting_reading is not None else SINGLE_ORDER
    if reading not in SITING_READINGS:
        raise AllocationError(
            f"siting reading {reading!r} is not one of {list(SITING_READINGS)} (docs/siting.md)"
        )
    return BANKING_OWN_ORDER if reading == BANKING_OWN_ORDER else SINGLE_ORDER


def _assemble(
    ranking: pd.DataFrame, needs: pd.DataFrame | None, own_orders: bool = False
) -> _Problem:
    required = ("impact_id", "option_id", "option_kind", "tier", "ratio", "credits_available")
    missing = [c for c in required if c not in ranking]
    if missing:
        raise AllocationError(
            f"the ranking lacks column(s) {missing}; pass the output of rank_options() "
            f"(columns {list(required)} at least)"
        )
    r = ranking.reset_index(drop=True)
    excluded = read_yes_no(r["excluded"]) if "excluded" in r else np.zeros(len(r), bool)
    ratio = _num(r, "ratio")
    needs = _needs_table(r, needs, ratio)
    impacts = needs["impact_id"].tolist()
    acres = np.nan_to_num(_num(needs, "acres"), nan=0.0)
    if (acres < 0).any():
        raise AllocationError("impact acres to replace must be 0 or more")
    iratio = _num(needs, "ratio")
    pos_i = {k: n for n, k in enumerate(impacts)}
    option_ids, kind, cap, unit = _option_table(r)
    pos_o = {k: n for n, k in enumerate(option_ids)}
    listed, reasons = _listed(r, excluded)

    tier = pd.to_numeric(r["tier"], errors="coerce").to_numpy(dtype=float)
    # the siting reading of subd. 3(c) (rank_options): allocate by priority, report the tier
    level = (
        pd.to_numeric(r["priority"], errors="coerce").to_numpy(dtype=float)
        if "priority" in r
        else tier
    )
    known_impact = r["impact_id"].map(pos_i).notna().to_numpy()
    use = (~excluded) & np.isfinite(tier) & np.isfinite(level) & (ratio > 0) & known_impact
    pi = r.loc[use, "impact_id"].map(pos_i).to_numpy(dtype=int)
    po = r.loc[use, "option_id"].map(pos_o).to_numpy(dtype=int)
    # a requirement or an option below the resolution is not placed (see RESOLUTION_SQFT)
    keep = (acres[pi] * _UNIT >= RESOLUTION_SQFT) & (cap[po] * _UNIT >= RESOLUTION_SQFT)
    idx = np.flatnonzero(use)[keep]
    if "in_kind" in r:
        in_kind = r["in_kind"].astype("boolean")
        out_of_kind = (in_kind == False).fillna(False).to_numpy(dtype=bool)  # noqa: E712
    else:
        out_of_kind = np.zeros(len(r), bool)
    if np.isnan(iratio).any():  # impacts without a given ratio: their lowest pair ratio
        low = pd.Series(ratio).groupby(r["impact_id"]).min()
        iratio = np.array(
            [
                iratio[n] if np.isfinite(iratio[n]) else low.get(k, np.nan)
                for n, k in enumerate(impacts)
            ]
        )
    return _Problem(
        impacts=impacts,
        acres=acres,
        impact_ratio=iratio,
        option_ids=option_ids,
        option_kind=kind,
        cap=cap,
        price=np.where(kind == "bank", unit, np.nan),
        fixed=np.where(
            (kind == "site") & (cap == 0), 0.0, np.where(kind == "site", unit * cap, np.nan)
        ),
        pi=pi[keep],
        po=po[keep],
        ratio=ratio[idx],
        tier=level[idx].astype(int),
        label_tier=tier[idx].astype(int),
        distance=np.nan_to_num(_num(r, "distance_ft")[idx], nan=0.0),
        out_of_kind=out_of_kind[idx].astype(float),
        listed=listed,
        excluded_reasons=reasons,
        own_orders=own_orders,
        below_resolution=(acres > 0) & (acres * _UNIT < RESOLUTION_SQFT),
    )


def _needs_table(r: pd.DataFrame, needs: pd.DataFrame | None, ratio: np.ndarray) -> pd.DataFrame:
    """Return the impacts to place (``needs``, else the ranking's), checked."""
    if needs is None:
        if "impact_acres" in r:
            acres_row = _num(r, "impact_acres")
        elif "credits_needed" in r:
            acres_row = _num(r, "credits_needed") / np.where(ratio > 0, ratio, np.nan)
        else:
            acres_row = np.full(len(r), np.nan)
        tmp = pd.DataFrame({"impact_id": r["impact_id"], "acres": acres_row, "ratio": ratio})
        needs = (
            tmp.groupby("impact_id", sort=False)
            .agg(acres=("acres", "max"), ratio=("ratio", "min"))
            .reset_index()
        )
    for col in ("impact_id", "acres"):
        if col not in needs:
            raise AllocationError(
                f"`needs` must have columns impact_id, acres (and ratio); {col!r} is missing"
            )
    if needs["impact_id"].duplicated().any():
        dup = needs.loc[needs["impact_id"].duplicated(), "impact_id"].tolist()[:5]
        raise AllocationError(f"`needs` lists impact(s) {dup} more than once")
    return needs


def _option_table(r: pd.DataFrame) -> tuple[list[Any], np.ndarray, np.ndarray, np.ndarray]:
    """Return the options (one per id, consistent across impacts): ids, kind, credits, unit cost."""
    opts = r.drop_duplicates("option_id")
    kind = opts["option_kind"].astype(str).str.lower().to_numpy()
    bad = sorted(set(kind) - {"site", "bank"})
    if bad:
        raise AllocationError(f"option_kind {bad} is not 'site' or 'bank'")
    cap = np.nan_to_num(_num(opts, "credits_available"), nan=0.0)
    if (cap < 0).any():
        raise AllocationError("credits_available must be 0 or more")
    return opts["option_id"].tolist(), kind, cap, _num(opts, "unit_cost")


def _listed(r: pd.DataFrame, excluded: np.ndarray) -> tuple[dict[Any, int], dict[Any, list[str]]]:
    """Return the options listed for each impact, and why those excluded were."""
    listed: dict[Any, int] = {}
    reasons: dict[Any, list[str]] = {}
    for imp, exc, why in zip(
        r["impact_id"],
        excluded,
        r["exclusion_reason"] if "exclusion_reason" in r else [""] * len(r),
        strict=True,
    ):
        listed[imp] = listed.get(imp, 0) + 1
        if exc and isinstance(why, str) and why:
            reasons.setdefault(imp, []).append(why)
    return listed, reasons


# --------------------------------------------------------------------------------------
# solving
# --------------------------------------------------------------------------------------


def _solve_stages(
    p: _Problem,
    weights: Mapping[str, float],
    fee_rate: float,
    tolerance: float,
    time_limit: float | None,
    progress: Callable[[str], Any] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[Stage]]:
    """Solve the lexicographic stages; return credits per pair and acres unmet, in acres.

    The model counts square feet (:data:`_UNIT`), so that every requirement the
    allocation places is far above the solver's absolute tolerances. Each stage's optimum
    ``z`` is held for the later stages as ``c x <= z + slack``: for an area (unmet, tiers)
    the slack is what a tenth of :data:`NOISE_SQFT` is worth in the stage's unit, for
    cost and distance the larger of that and ``tolerance * |z|`` - never finer than the
    solver can honour, never as much as the noise below which a credit or an unmet area
    is reported. Every stage with binaries is a mixed-integer programme, so each stage is
    solved under the tolerance its predecessor's optimum was found with. Should a later
    stage still fail numerically, the held optima are loosened a thousand times, and then
    the earlier stages' plan is kept (the stage is recorded as not applied): unmet demand
    is an answer, never an infeasible programme.
    """
    lay = _layout(p)
    need = p.acres * _UNIT  # square feet of impact
    cap = p.cap * _UNIT  # square feet of credit
    x_ub = np.minimum(cap[p.po], need[p.pi] * p.ratio)
    ub = np.concatenate(
        [x_ub, need, np.ones(lay.n_y), np.ones(lay.n_z), np.array([cap[o] for o in lay.spare])]
    )
    programme = _Programme(
        lay,
        _base_constraints(p, lay, need, cap, x_ub),
        ub,
        np.concatenate([np.zeros(lay.n_p), need, np.zeros(lay.n - lay.n_p - lay.n_i)]),
        tolerance,
        time_limit,
        progress,
    )
    n_p, n_i, n = lay.n_p, lay.n_i, lay.n
    if n_p:
        c = np.zeros(n)
        c[n_p : n_p + n_i] = 1.0
        programme.run("unmet", c, integer=False)
        for k in (1, 2, 3) if not p.own_orders else ():
            better = p.tier <= k
            if better.any() and (~better).any():
                c = np.zeros(n)
                c[:n_p] = np.where(better, -1.0 / p.ratio, 0.0)
                programme.run(f"tier_{k}", c, integer=False)
        programme.run("cost", _cost_objective(p, lay, weights, fee_rate), integer=True)
        if p.own_orders and weights["distance"] == 0:
            # subd. 3(c), banking_own_order: between the methods the cheapest, then the
            # nearest among the cheapest plans (skipped without distances)
            c = np.zeros(n)
            c[:n_p] = p.distance / _UNIT
            programme.run("distance", c, integer=True)
    # credits to the solver's resolution: below NOISE_SQFT they are its tolerances
    x = np.clip(programme.x_best[:n_p], 0.0, None)
    x[x < NOISE_SQFT] = 0.0
    x = _restore_priority(p, x, cap)
    covered = np.bincount(p.pi, weights=x / p.ratio, minlength=n_i) if n_p else np.zeros(n_i)
    u = np.maximum(need - covered, 0.0)
    u[u < NOISE_SQFT] = 0.0
    if p.below_resolution is not None:
        u[p.below_resolution] = need[p.below_resolution]
    return _round_per_option(x / _UNIT, p.po), u / _UNIT, programme.stages


def _restore_priority(p: _Problem, x: np.ndarray, cap: np.ndarray) -> np.ndarray:
    """Return ``x`` with credits a later stage moved below a level that had spare put back.

    The cost and distance stages hold the tier stages' optima within a slack (loosened a
    thousand times when a stage fails numerically): within it a cost stage can move a
    sliver of an impact's credits from a better level with credits left to a cheaper,
    lower one. Subd. 3 opens a lower level only once the better ones are used up, and the
    tier gaps (:func:`~wetland_gis.siting.rank.tier_gaps`) say so: such a sliver is moved
    back to the better option - a bank, or a site the plan builds anyway, so no site is
    built for it - in the option's own method when each method keeps its own order.
    Credits are in square feet (:data:`_UNIT`); ``cap`` per option.
    """
    if not len(x):
        return x
    x = x.copy()
    spare = cap - np.bincount(p.po, weights=x, minlength=len(cap))
    built = np.bincount(p.po, weights=x, minlength=len(cap)) > 0
    usable = (p.option_kind == "bank") | built
    for j in np.flatnonzero(x > 0)[np.argsort(-p.tier[x > 0], kind="stable")]:
        better = np.flatnonzero(
            (p.pi == p.pi[j])
            & (p.tier < p.tier[j])
            & usable[p.po]
            & ((p.option_kind[p.po] == p.option_kind[p.po[j]]) | (not p.own_orders))
        )
        for k in better[np.argsort(p.tier[better], kind="stable")]:
            room = spare[p.po[k]] / p.ratio[k]  # impact square feet the better option covers
            moved = min(x[j] / p.ratio[j], room)
            if moved * p.ratio[k] < NOISE_SQFT:
                continue
            x[j] -= moved * p.ratio[j]
            x[k] += moved * p.ratio[k]
            spare[p.po[k]] -= moved * p.ratio[k]
            spare[p.po[j]] += moved * p.ratio[j]
            if x[j] < NOISE_SQFT:
                x[j] = 0.0
                break
    return x


@dataclass(frozen=True)
class _Layout:
    """Where each variable of the programme sits.

    ``x`` per pair, ``u`` per impact, ``y`` per costed site used (:attr:`y_pos`), ``z``
    per set of better options of the own orders (:func:`_order_sets`), ``s`` per option
    of those sets (:attr:`s_pos`).
    """

    n_p: int
    n_i: int
    used_opts: np.ndarray
    y_pos: dict[Any, int]
    groups: list[tuple[np.ndarray, np.ndarray]]
    spare: list[int]
    n_z: int

    @property
    def n_y(self) -> int:
        """Binary site variables."""
        return len(self.y_pos)

    @property
    def s_pos(self) -> dict[int, int]:
        """Position of each option's spare credit among the ``s`` variables."""
        return {o: k for k, o in enumerate(self.spare)}

    @property
    def z0(self) -> int:
        """First ``z`` variable."""
        return self.n_p + self.n_i + self.n_y

    @property
    def s0(self) -> int:
        """First ``s`` variable."""
        return self.z0 + self.n_z

    @property
    def n(self) -> int:
        """Variables in all."""
        return self.s0 + len(self.spare)


def _layout(p: _Problem) -> _Layout:
    """Return where the variables of the problem ``p`` sit."""
    site_cost = (p.option_kind == "site") & np.nan_to_num(p.fixed, nan=0.0).__gt__(0)
    used_opts = np.unique(p.po)
    y_opts = [o for o in used_opts if site_cost[o]]
    groups = _own_order_groups(p) if p.own_orders else []
    return _Layout(
        n_p=len(p.pi),
        n_i=len(p.impacts),
        used_opts=used_opts,
        y_pos={o: n for n, o in enumerate(y_opts)},
        groups=groups,
        spare=sorted({int(o) for _, better in groups for o in better}),
        n_z=len(_order_sets(groups)[0]),
    )


def _base_constraints(
    p: _Problem, lay: _Layout, need: np.ndarray, cap: np.ndarray, x_ub: np.ndarray
) -> list[LinearConstraint]:
    """Return the rows every stage keeps: coverage, capacity and the own orders."""
    n_p, n_i, n = lay.n_p, lay.n_i, lay.n
    # coverage rows: sum_o x/r + u = a
    rows = [p.pi, np.arange(n_i)]
    cols = [np.arange(n_p), n_p + np.arange(n_i)]
    vals = [1.0 / p.ratio, np.ones(n_i)]
    a_cov = sparse.csr_array(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n_i, n)
    )
    # capacity rows: sum_i x - cap*y <= 0  or  sum_i x <= cap
    opt_row = {o: k for k, o in enumerate(lay.used_opts)}
    r_rows = [np.array([opt_row[o] for o in p.po], dtype=int)]
    r_cols = [np.arange(n_p)]
    r_vals = [np.ones(n_p)]
    ub_cap = np.array([cap[o] for o in lay.used_opts], dtype=float)
    for o, k in lay.y_pos.items():
        r_rows.append(np.array([opt_row[o]]))
        r_cols.append(np.array([n_p + n_i + k]))
        r_vals.append(np.array([-cap[o]]))
        ub_cap[opt_row[o]] = 0.0
    a_cap = sparse.csr_array(
        (np.concatenate(r_vals), (np.concatenate(r_rows), np.concatenate(r_cols))),
        shape=(len(lay.used_opts), n),
    )
    base = [
        LinearConstraint(a_cov, need, need),
        LinearConstraint(a_cap, -np.inf, ub_cap),
    ]
    if lay.groups:
        base.extend(_own_order_constraints(p, lay.groups, lay.s_pos, x_ub, cap, n, lay.z0, lay.s0))
    return base


def _cost_objective(
    p: _Problem, lay: _Layout, weights: Mapping[str, float], fee_rate: float
) -> np.ndarray:
    """Return the cost stage's objective: the user's weights (default lowest cost)."""
    c = np.zeros(lay.n)
    bank_price = np.nan_to_num(np.where(p.option_kind[p.po] == "bank", p.price[p.po], 0.0))
    c[: lay.n_p] = (
        weights["cost"] * bank_price * (1.0 + fee_rate)
        + weights["distance"] * p.distance
        + weights["out_of_kind"] * p.out_of_kind
    ) / _UNIT  # per square foot of credit
    for o, k in lay.y_pos.items():
        c[lay.n_p + lay.n_i + k] = weights["cost"] * p.fixed[o]
    return c


class _Programme:
    """The lexicographic programme: each stage solved, its optimum held for the next."""

    def __init__(
        self,
        lay: _Layout,
        base: list[LinearConstraint],
        ub: np.ndarray,
        x_start: np.ndarray,
        tolerance: float,
        time_limit: float | None,
        progress: Callable[[str], Any] | None,
    ) -> None:
        self.lay, self.base, self.ub = lay, base, ub
        self.tolerance, self.time_limit, self.progress = tolerance, time_limit, progress
        self.held_rows: list[tuple[np.ndarray, float, float]] = []  # (objective, optimum, slack)
        self.stages: list[Stage] = []
        self.x_best = x_start

    def _solve(self, cs: np.ndarray, integer: bool, widen: float) -> Any:
        lay = self.lay
        integrality = np.zeros(lay.n)
        if integer and lay.n_y:
            integrality[lay.n_p + lay.n_i : lay.z0] = 1
        integrality[lay.z0 : lay.s0] = 1  # the order within each method is law, never relaxed
        rows = [
            LinearConstraint(sparse.csr_array(c.reshape(1, -1)), -np.inf, z + widen * slack)
            for c, z, slack in self.held_rows
        ]
        options: dict[str, Any] = {"mip_rel_gap": _MIP_REL_GAP, "presolve": True}
        if self.time_limit is not None:
            options["time_limit"] = float(self.time_limit)
        return milp(
            cs,
            integrality=integrality,
            bounds=Bounds(np.zeros(lay.n), self.ub),
            constraints=[*self.base, *rows],
            options=options,
        )

    def run(self, name: str, c: np.ndarray, integer: bool) -> None:
        """Solve the stage ``name`` (objective ``c``) and hold its optimum for the next."""
        scale = float(np.max(np.abs(c))) if c.size else 0.0
        if scale <= 0:
            return
        cs = c / scale
        if self.progress is not None:
            self.progress(name)
        res = self._solve(cs, integer, 1.0)
        widened = False
        if (res.status != 0 or res.x is None) and res.status != 1 and self.held_rows:
            # a numerical failure against the held optima: hold them looser
            res, widened = self._solve(cs, integer, _WIDEN_HELD), True
        if res.status != 0 or res.x is None:
            self._not_applied(name, res)
            return
        z = float(cs @ res.x)
        worth = float(np.max(np.abs(cs[: self.lay.n_p + self.lay.n_i]), initial=0.0))  # sq ft
        area = name == "unmet" or name.startswith("tier_")
        # an area is held absolutely: a relative slack on the project's total would show
        # as a shortfall on one impact that the credits could meet
        slack = _HELD_SQFT * worth if area else max(self.tolerance * abs(z), _HELD_SQFT * worth)
        self.held_rows.append((cs, z, slack))
        self.x_best = res.x
        value = z * scale
        if area:
            value = abs(value) / _UNIT  # acres of impact, as documented
        status = str(res.message)
        if widened:
            status += " (earlier optima held within 1,000 times the usual slack)"
        self.stages.append(Stage(name=name, objective=value, status=status))

    def _not_applied(self, name: str, res: Any) -> None:
        """Keep the earlier stages' plan (it meets them); raise when there is none to keep."""
        if res.status == 1 or not self.held_rows:
            raise AllocationError(
                f"allocation stage {name!r} failed: {res.message} (status {res.status}). "
                + (
                    "Raise `time_limit` or simplify the problem."
                    if res.status == 1
                    else "This is a bug if the inputs are valid; please report it with the ranking."
                )
            )
        kept = self.stages[-1].name if self.stages else "unmet"
        self.stages.append(
            Stage(
                name=name,
                objective=float("nan"),
                status=f"not applied: {res.message} (status {res.status}); the plan of "
                f"stage {kept!r} is kept",
            )
        )


def _round_per_option(x: np.ndarray, po: np.ndarray) -> np.ndarray:
    """Return credits rounded to :data:`_X_DECIMALS`, each option's total rounded once.

    The solver's noise is not a plan figure. Rounding each pair alone could put an
    option's total over its credits by up to half a unit per impact; rounding the running
    total of each option and taking the differences keeps every total within half a unit
    of the solver's (cumulative rounding).
    """
    if not len(x):
        return x
    order = np.lexsort((np.arange(len(x)), po))
    xs, key = x[order], po[order]
    start = np.r_[True, key[1:] != key[:-1]]
    group = np.cumsum(start) - 1
    total = np.cumsum(xs)
    before = np.r_[0.0, total[:-1]]
    run = total - (before[start])[group]  # running total within the option
    rounded = np.round(run, _X_DECIMALS)
    prev = np.where(start, 0.0, np.r_[0.0, rounded[:-1]])
    out = np.empty_like(x)
    out[order] = np.maximum(np.round(rounded - prev, _X_DECIMALS), 0.0)
    return out


def _own_order_groups(p: _Problem) -> list[tuple[np.ndarray, np.ndarray]]:
    """Return, per impact, method and level below the method's best, the pairs and options.

    Under the ``banking_own_order`` reading of § 103G.222, subd. 3(c) each method
    (project-specific sites; bank credits) keeps its own priority order: an impact may
    use a level of one method only when every option of a better level of the same
    method is used up (subd. 3(d)). Each item is (pairs at the level, options of the same
    method at better levels for the same impact).
    """
    if not len(p.pi):
        return []
    method = (p.option_kind[p.po] == "bank").astype(int)
    tier = np.asarray(_label(p), dtype=int)
    order = np.lexsort((tier, method, p.pi))  # by impact, method, then tier
    key = p.pi[order] * 2 + method[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    ends = np.r_[starts[1:], len(order)]
    groups = []
    for a, b in zip(starts, ends, strict=True):
        pairs, tiers = order[a:b], tier[order[a:b]]
        cut = np.flatnonzero(np.r_[True, tiers[1:] != tiers[:-1]])  # first pair of each level
        for c, d in zip(cut[1:], np.r_[cut[1:], len(pairs)][1:], strict=True):
            groups.append((pairs[c:d], np.unique(p.po[pairs[:c]])))
    return groups


def _order_sets(groups: list[tuple[np.ndarray, np.ndarray]]) -> tuple[list[np.ndarray], list[int]]:
    """Return the distinct sets of better options of ``groups``, and each group's set.

    "Every better option is used up" is a fact of the project, not of one impact: the
    groups of every impact that waits on the same options share one binary, so the
    programme has one binary per set of options (a few per bank service area) instead
    of one per impact (thousands on a linear project).
    """
    index: dict[tuple[int, ...], int] = {}
    sets: list[np.ndarray] = []
    of_group: list[int] = []
    for _, better in groups:
        key = tuple(int(o) for o in better)
        if key not in index:
            index[key] = len(sets)
            sets.append(np.asarray(key, dtype=int))
        of_group.append(index[key])
    return sets, of_group


def _own_order_constraints(
    p: _Problem,
    groups: list[tuple[np.ndarray, np.ndarray]],
    s_pos: Mapping[int, int],
    x_ub: np.ndarray,
    cap: np.ndarray,
    n: int,
    z0: int,
    s0: int,
) -> list[LinearConstraint]:
    """Return the rows that keep each method's own order (binary ``z`` per set of options).

    ``s_o`` is the spare credit of option ``o`` (``sum_i x_io + s_o = c_o``, whether or
    not a costed site is paid for: an unbuilt better site is not used up). For a set
    ``B`` of better options (:func:`_order_sets`): ``s_o <= c_o (1 - z_B)`` for each
    ``o`` in ``B`` (when ``z_B = 1`` every option of ``B`` is used up), and for each
    group ``g`` waiting on ``B``: ``sum_(pairs at the level) x <= U_g z_B`` (the level is
    used only then).
    """
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for q, o in enumerate(s_pos):  # spare rows, in the order of s_pos
        pairs = np.flatnonzero(p.po == o)
        rows += [q] * (len(pairs) + 1)
        cols += [*pairs.tolist(), s0 + s_pos[o]]
        vals += [1.0] * (len(pairs) + 1)
    spare_cap = np.array([cap[o] for o in s_pos], dtype=float)
    a_spare = sparse.csr_array((vals, (rows, cols)), shape=(len(s_pos), n))
    sets, of_group = _order_sets(groups)
    rows, cols, vals = [], [], []
    upper: list[float] = []
    for b, better in enumerate(sets):
        for o in better.tolist():  # s_o + c_o z_B <= c_o
            r = len(upper)
            rows += [r, r]
            cols += [s0 + s_pos[o], z0 + b]
            vals += [1.0, float(cap[o])]
            upper.append(float(cap[o]))
    for (at, _), b in zip(groups, of_group, strict=True):  # sum x_level - U_g z_B <= 0
        r = len(upper)
        rows += [r] * (len(at) + 1)
        cols += [*at.tolist(), z0 + b]
        vals += [1.0] * len(at) + [-float(x_ub[at].sum())]
        upper.append(0.0)
    a_order = sparse.csr_array((vals, (rows, cols)), shape=(len(upper), n))
    return [
        LinearConstraint(a_spare, spare_cap, spare_cap),
        LinearConstraint(a_order, -np.inf, np.array(upper)),
    ]


def _unmet_reason(p: _Problem, i: int) -> str:
    imp = p.impacts[i]
    mine = p.pi == i
    if p.below_resolution is not None and p.below_resolution[i]:
        return (
            f"the impact counts {p.acres[i] * _UNIT:.3g} sq ft, below the allocation's "
            f"resolution of {RESOLUTION_SQFT:g} sq ft: most likely a sliver or cut left by an "
            "edit; correct or remove the polygon and run assess and site again"
        )
    if not p.listed.get(imp):
        return "no replacement site or bank credit was listed for this impact"
    if not mine.any():
        why = "; ".join(sorted(set(p.excluded_reasons.get(imp, []))))
        return "every listed option is excluded or has no credits" + (f" ({why})" if why else "")
    opts = sorted({p.option_ids[o] for o in p.po[mine]}, key=str)
    return (
        f"the eligible options ({', '.join(map(str, opts))}) do not have enough credits left "
        "once the other impacts of the project are served at their best tiers"
    )


def allocate(
    ranking: pd.DataFrame,
    *,
    needs: pd.DataFrame | None = None,
    weights: Mapping[str, float] | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    fee_rate: float | None = None,
    tolerance: float = 1e-9,
    time_limit: float | None = None,
    siting_reading: str | None = None,
    progress: Callable[[str], Any] | None = None,
) -> Allocation:
    """Allocate options to impacts: best tier first, then lowest cost, project-wide.

    Parameters
    ----------
    ranking : pandas.DataFrame
        Output of :func:`wetland_gis.siting.rank.rank_options` (columns ``impact_id,
        option_id, option_kind, tier, excluded, ratio, credits_available, unit_cost``
        and optionally ``impact_acres``, ``credits_needed``, ``distance_ft``, ``in_kind``,
        ``exclusion_reason``). ``unit_cost`` is the bank price per credit, or the site's
        cost per credit (its whole cost is ``unit_cost * credits_available``).
    needs : pandas.DataFrame, optional
        ``impact_id, acres`` (impact acres to replace) and ``ratio`` (for the credits
        short), one row per impact, including impacts without any option. Default: from
        the ranking (impacts with no row at all are then unknown to the allocation).
    weights : Mapping[str, float], optional
        Stage-3 objective (:data:`WEIGHT_KEYS`); default lowest cost.
    params : ParameterSet, optional
        Parameters for the withdrawal fee (default: shipped).
    as_of : str or date, optional
        Date the fee is read for (default today).
    fee_rate : float, optional
        Withdrawal fee as a fraction, instead of the parameter (for tests).
    tolerance : float, default 1e-9
        Relative slack with which each stage's optimum is fixed for the next stages.
    time_limit : float, optional
        Seconds allowed to each solver call.
    siting_reading : {"banking_own_order", "single_order"}, optional
        The reading of § 103G.222, subd. 3(c) (docs/siting.md). Default: the ranking's
        ``siting_reading`` column, else ``single_order``. Under ``single_order`` stage 2
        maximises the acres replaced at priority (``priority`` column, else tier) 1, then
        1-2, then 1-3. Under ``banking_own_order`` sites and bank credits each keep their
        own order instead - an impact uses a level of one method only when the better
        levels of that method are used up (binary variables; subd. 3(d)) - and between
        the methods the cost stage chooses, then a last stage the nearest (least credits
        times distance) when the weights do not already count distance.
    progress : callable, optional
        Called with each stage's name as it starts (for a progress bar).

    Returns
    -------
    Allocation

    Raises
    ------
    AllocationError
        On malformed input or when a stage cannot be solved to optimality.
    """
    weights = check_weights(weights)
    citations = [
        question("siting_tier").clause("3(a)"),
        question("next_tier_condition").clause("3(d)"),
    ]
    use_rules = fee_rate is None
    if fee_rate is None:
        fee_rate, fee_cite = withdrawal_fee_rate(params, as_of)
        citations.append(fee_cite)
    if not (math.isfinite(fee_rate) and fee_rate >= 0):
        raise AllocationError(f"fee_rate must be a finite number >= 0, got {fee_rate!r}")
    if not (tolerance >= 0):
        raise AllocationError(f"tolerance must be >= 0, got {tolerance!r}")

    reading = _reading(ranking, siting_reading)
    own = reading == BANKING_OWN_ORDER
    if own:
        citations.append(CITE_BANKING)
    p = _assemble(ranking, needs, own_orders=own)
    x, u, stages = _solve_stages(p, weights, fee_rate, tolerance, time_limit, progress)
    fee_of = functools.partial(
        _withdrawal_fee, rate=fee_rate, use_rules=use_rules, params=params, as_of=as_of
    )
    plan, fees = _plan(p, x, fee_of)
    unmet, required, short = _unmet(p, u)
    totals = _totals(p, x, u, plan, len(unmet), required, short)
    totals["bank_fees"] = float(np.sum(fees)) if fees else 0.0
    totals.update(
        fee_rate=fee_rate,
        siting_reading=reading,
        stages_not_applied=[s.name for s in stages if s.status.startswith("not applied")],
    )
    return Allocation(
        plan=plan,
        unmet=unmet,
        totals=totals,
        stages=tuple(stages),
        status="optimal" if len(p.pi) else "no_options",
        fee_rate=float(fee_rate),
        weights=weights,
        citations=tuple(citations),
    )


def _plan(
    p: _Problem, x: np.ndarray, fee_of: Callable[[float], float]
) -> tuple[pd.DataFrame, list[float]]:
    """Return the plan (a row per impact and option used, by impact, tier, credits), and fees.

    A bank's cost includes its withdrawal fee; a site's whole cost is shared among the
    impacts that use it in proportion to their credits.
    """
    used = np.flatnonzero(x > 0)
    site_total = np.bincount(p.po[used], weights=x[used], minlength=len(p.option_ids))
    plan_rows = []
    fees = []
    for k in used:
        o, i = p.po[k], p.pi[k]
        credits = float(x[k])
        if p.option_kind[o] == "bank":
            value = credits * p.price[o]
            fee = fee_of(value)
            cost = value + fee
        else:
            fee = 0.0
            cost = p.fixed[o] * credits / site_total[o] if site_total[o] > 0 else 0.0
        fees.append(fee)
        plan_rows.append(
            {
                "impact_id": p.impacts[i],
                "option_id": p.option_ids[o],
                "option_kind": p.option_kind[o],
                "tier": int(_label(p)[k]),
                "credits": credits,
                "cost": cost,
                "acres": credits / p.ratio[k],
                "ratio": float(p.ratio[k]),
                "fee": fee,
            }
        )
    plan = pd.DataFrame(plan_rows, columns=[*PLAN_COLUMNS, "acres", "ratio", "fee"])
    if len(plan):
        order = {k: n for n, k in enumerate(p.impacts)}
        plan = (
            plan.assign(_order=plan["impact_id"].map(order), _neg=-plan["credits"])
            .sort_values(["_order", "tier", "_neg"], kind="stable")
            .drop(columns=["_order", "_neg"])
            .reset_index(drop=True)
        )
        plan["tier"] = plan["tier"].astype("Int64")
    return plan, fees


def _unmet(p: _Problem, u: np.ndarray) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Return the unmet table, and each impact's credits required and short.

    One unit for the requirement, what met it and what is short: credits (replacement
    acres) at each impact's decided ratio (docs/siting.md, "Units").
    """
    iratio = np.where(np.isfinite(p.impact_ratio), p.impact_ratio, np.nan)
    required = p.acres * iratio
    short = u * iratio
    unmet_rows = []
    for i in np.flatnonzero(u > 0).tolist():
        unmet_rows.append(
            {
                "impact_id": p.impacts[i],
                "credits_required": float(required[i]),
                "credits_met": float(required[i] - short[i]),
                "credits_short": float(short[i]),
                "reason": _unmet_reason(p, i),
                "impact_acres_short": float(u[i]),
            }
        )
    unmet = pd.DataFrame(unmet_rows, columns=[*UNMET_COLUMNS, "impact_acres_short"])
    return unmet, required, short


def _totals(
    p: _Problem,
    x: np.ndarray,
    u: np.ndarray,
    plan: pd.DataFrame,
    n_unmet: int,
    required: np.ndarray,
    short: np.ndarray,
) -> dict[str, Any]:
    """Return the allocation's totals (:attr:`Allocation.totals`), to be completed.

    The bank fees, fee rate, reading and stages not applied are set by :func:`allocate`
    (in that order, after ``cost``'s neighbours: the order the manifest shows).
    """
    used = np.flatnonzero(x > 0)
    by_tier = {t: 0.0 for t in (1, 2, 3, 4)}
    for k in used:
        by_tier[int(_label(p)[k])] += float(x[k] / p.ratio[k])
    sites_used = sorted(
        {p.option_ids[p.po[k]] for k in used if p.option_kind[p.po[k]] == "site"}, key=str
    )
    credits_required = float(np.nansum(required))
    credits_unmet = float(np.nansum(short))
    return {
        "impacts": len(p.impacts),
        "impacts_fully_met": int(len(p.impacts) - n_unmet),
        "unit": CREDIT_UNIT,
        "credits_required": credits_required,
        "credits_met": credits_required - credits_unmet,
        "credits_unmet": credits_unmet,
        "credits_allocated": float(x.sum()),
        "credits": float(x.sum()),
        "acres_required": float(p.acres.sum()),
        "acres_replaced": float(sum(by_tier.values())),
        "acres_unmet": float(u.sum()),
        "acres_by_tier": by_tier,
        "cost": float(plan["cost"].sum(skipna=True)) if len(plan) else 0.0,
        "bank_fees": 0.0,
        "cost_unknown": bool(plan["cost"].isna().any()) if len(plan) else False,
        "options_used": int(len({p.po[k] for k in used})),
        "sites_used": sites_used,
    }


def _withdrawal_fee(
    value: float,
    rate: float,
    use_rules: bool,
    params: ParameterSet | None,
    as_of: str | dt.date | None,
) -> float:
    """Return the withdrawal fee on ``value`` USD of credits (NaN for an unknown price).

    With ``use_rules`` the fee is the one :func:`wetland_gis.rules.procedure.bank_fees`
    decides (Minn. Stat. § 103G.2242, subd. 14(a)(3)); otherwise ``value * rate``.
    """
    if not math.isfinite(value):
        return float("nan")
    if not use_rules:
        return value * rate

    return float(bank_fees(value, "withdrawal", params=params, as_of=as_of).value)
