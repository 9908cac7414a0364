"""Exact allocation: optimality against brute force, and the invariants of every plan.

Brute force: with integer credits and capacities, and one ratio per impact, the
constraint matrix of the allocation is that of a transportation problem (totally
unimodular), so for any choice of sites an optimal vertex is integral and the
lexicographic optimum over real allocations equals the best over integer allocations.
Enumerating every integer allocation therefore gives the exact optimum to compare with.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import wetland_gis.siting.allocate as allocate_mod
from wetland_gis.siting.allocate import (
    AllocationError,
    allocate,
    check_weights,
    withdrawal_fee_rate,
)

FEE = 0.065


@dataclass
class Instance:
    need: list[int]  # credits needed by impact i (integer)
    ratio: list[float]  # one ratio per impact
    cap: list[int]
    kind: list[str]
    price: list[float]  # bank: per credit; site: whole cost
    pairs: dict[tuple[int, int], int]  # (i, o) -> tier

    def ranking(self) -> pd.DataFrame:
        rows = []
        for (i, o), tier in self.pairs.items():
            site = self.kind[o] == "site"
            unit = (self.price[o] / self.cap[o] if self.cap[o] else 0.0) if site else self.price[o]
            rows.append(
                {
                    "impact_id": f"I{i}",
                    "option_id": f"O{o}",
                    "option_kind": self.kind[o],
                    "tier": tier,
                    "excluded": False,
                    "ratio": self.ratio[i],
                    "credits_needed": float(self.need[i]),
                    "credits_available": float(self.cap[o]),
                    "unit_cost": unit,
                    "impact_acres": self.need[i] / self.ratio[i],
                }
            )
        columns = [
            "impact_id",
            "option_id",
            "option_kind",
            "tier",
            "excluded",
            "ratio",
            "credits_needed",
            "credits_available",
            "unit_cost",
            "impact_acres",
        ]
        return pd.DataFrame(rows, columns=columns)

    def needs(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "impact_id": [f"I{i}" for i in range(len(self.need))],
                "acres": [n / r for n, r in zip(self.need, self.ratio, strict=True)],
                "ratio": self.ratio,
            }
        )

    def alone(self, i: int) -> Instance:
        """Return this instance with impact ``i`` only (renumbered 0), options unchanged."""
        return Instance(
            need=[self.need[i]],
            ratio=[self.ratio[i]],
            cap=list(self.cap),
            kind=list(self.kind),
            price=list(self.price),
            pairs={(0, o): tier for (j, o), tier in self.pairs.items() if j == i},
        )


def brute_force(inst: Instance) -> tuple[float, float, float, float, float]:
    """Return the lexicographic optimum (unmet, -A1, -A<=2, -A<=3, cost) by enumeration."""
    pairs = list(inst.pairs)
    if not pairs:
        return (sum(n / r for n, r in zip(inst.need, inst.ratio, strict=True)), 0, 0, 0, 0)
    ranges = [range(min(inst.cap[o], inst.need[i]) + 1) for i, o in pairs]
    grid = np.array(list(itertools.product(*ranges)), dtype=float)  # (N, P)
    pi = np.array([i for i, _ in pairs])
    po = np.array([o for _, o in pairs])
    ok = np.ones(len(grid), bool)
    for i in range(len(inst.need)):
        ok &= grid[:, pi == i].sum(axis=1) <= inst.need[i]
    for o in range(len(inst.cap)):
        ok &= grid[:, po == o].sum(axis=1) <= inst.cap[o]
    g = grid[ok]
    ratio = np.array([inst.ratio[i] for i in pi])
    acres = g / ratio
    unmet = sum(n / r for n, r in zip(inst.need, inst.ratio, strict=True)) - acres.sum(axis=1)
    tiers = np.array([inst.pairs[p] for p in pairs])
    a_le = [acres[:, tiers <= k].sum(axis=1) for k in (1, 2, 3)]
    cost = np.zeros(len(g))
    for o in range(len(inst.cap)):
        cols = po == o
        if inst.kind[o] == "bank":
            cost += g[:, cols].sum(axis=1) * inst.price[o] * (1 + FEE)
        else:
            cost += np.where(g[:, cols].sum(axis=1) > 0, inst.price[o], 0.0)
    keys = np.column_stack([unmet, -a_le[0], -a_le[1], -a_le[2], cost]).round(9)
    best = min(map(tuple, keys))
    return tuple(float(v) for v in best)


def solved(inst: Instance):
    a = allocate(inst.ranking(), needs=inst.needs(), fee_rate=FEE)
    by = a.totals["acres_by_tier"]
    key = (
        a.totals["acres_unmet"],
        -by[1],
        -(by[1] + by[2]),
        -(by[1] + by[2] + by[3]),
        a.totals["cost"],
    )
    return a, key


def check_invariants(inst: Instance, a) -> None:
    plan = a.plan
    # no option used beyond its credits
    used = plan.groupby("option_id")["credits"].sum() if len(plan) else pd.Series(dtype=float)
    for o, cap in enumerate(inst.cap):
        assert used.get(f"O{o}", 0.0) <= cap + 1e-6
    # every impact's requirement is met or reported unmet, never over-met
    needs = inst.needs().set_index("impact_id")["acres"]
    got = plan.groupby("impact_id")["acres"].sum() if len(plan) else pd.Series(dtype=float)
    short = a.unmet.set_index("impact_id")["impact_acres_short"] if len(a.unmet) else pd.Series()
    for imp, acres in needs.items():
        assert got.get(imp, 0.0) + short.get(imp, 0.0) == pytest.approx(acres, abs=1e-6)
    # only listed pairs are used, at their tier
    for row in plan.itertuples():
        i, o = int(row.impact_id[1:]), int(row.option_id[1:])
        assert inst.pairs[(i, o)] == row.tier


def assert_optimal(inst: Instance):
    """Assert the plan of ``inst`` keeps the invariants and equals the brute-force optimum.

    Return the allocation (so a test checks its plan without solving it again).
    """
    a, key = solved(inst)
    check_invariants(inst, a)
    expect = brute_force(inst)
    assert key == pytest.approx(expect, abs=1e-5), (key, expect)
    return a


# --- hand-made cases ----------------------------------------------------------------------


#: One impact needing one credit and one bank of five credits at $1, tier 3.
ONE_BANK = Instance(need=[1], ratio=[1.0], cap=[5], kind=["bank"], price=[1.0], pairs={(0, 0): 3})
#: One impact needing one credit and two tier 3 banks of five credits, at $1 and $2.
TWO_BANKS = Instance(
    need=[1],
    ratio=[1.0],
    cap=[5, 5],
    kind=["bank", "bank"],
    price=[1.0, 2.0],
    pairs={(0, 0): 3, (0, 1): 3},
)


def test_a_better_tier_wins_over_a_cheaper_one():
    inst = Instance(
        need=[2],
        ratio=[1.0],
        cap=[5, 5],
        kind=["site", "bank"],
        price=[100_000.0, 10.0],
        pairs={(0, 0): 1, (0, 1): 3},
    )
    a = assert_optimal(inst)
    assert list(a.plan["option_id"]) == ["O0"]


def test_competition_for_a_tier_1_site_is_decided_project_wide():
    # O0 is tier 1 for I0 and tier 2 for I1. I0 also has a tier-3 bank; I1 only tier 4.
    # Most acres at tier 1 first: O0 goes to I0.
    inst = Instance(
        need=[2, 2],
        ratio=[1.0, 1.0],
        cap=[2, 10, 10],
        kind=["site", "bank", "bank"],
        price=[0.0, 5.0, 1.0],
        pairs={(0, 0): 1, (0, 1): 3, (1, 0): 2, (1, 2): 4},
    )
    a = assert_optimal(inst)
    assert set(a.plan.loc[a.plan["impact_id"] == "I0", "option_id"]) == {"O0"}
    assert set(a.plan.loc[a.plan["impact_id"] == "I1", "option_id"]) == {"O2"}


def test_a_site_cost_is_paid_once_and_shared():
    # the site costs 12 for 4 credits; the bank 5 a credit. Alone, an impact needing 2
    # credits pays 12 at the site or 10.65 at the bank; together 12 beats 21.3.
    inst = Instance(
        need=[2, 2],
        ratio=[1.0, 1.0],
        cap=[4, 10],
        kind=["site", "bank"],
        price=[12.0, 5.0],
        pairs={(0, 0): 3, (0, 1): 3, (1, 0): 3, (1, 1): 3},
    )
    a = assert_optimal(inst)
    assert set(a.plan["option_id"]) == {"O0"}
    assert a.totals["cost"] == pytest.approx(12.0)
    assert a.plan["cost"].tolist() == pytest.approx([6.0, 6.0])
    a1, _ = solved(inst.alone(0))
    assert set(a1.plan["option_id"]) == {"O1"}
    assert a1.totals["cost"] == pytest.approx(2 * 5 * (1 + FEE))


def test_shortage_is_reported_with_a_reason_and_credits_short_at_the_ratio():
    inst = Instance(
        need=[4, 2],
        ratio=[2.0, 1.0],
        cap=[1, 0],
        kind=["bank", "bank"],
        price=[1.0, 1.0],
        pairs={(0, 0): 3, (1, 1): 3},
    )
    a = assert_optimal(inst)
    unmet = a.unmet.set_index("impact_id")
    assert unmet.loc["I0", "impact_acres_short"] == pytest.approx(1.5)
    assert unmet.loc["I0", "credits_short"] == pytest.approx(3.0)
    assert "do not have enough credits" in unmet.loc["I0", "reason"]
    assert "excluded or has no credits" in unmet.loc["I1", "reason"]


def test_an_impact_with_no_option_is_unmet():
    needs = pd.DataFrame({"impact_id": ["A", "B"], "acres": [1.0, 2.0], "ratio": [2.0, 2.0]})
    ranking = (
        Instance(need=[2], ratio=[2.0], cap=[5], kind=["bank"], price=[1.0], pairs={(0, 0): 3})
        .ranking()
        .replace({"I0": "A"})
    )
    a = allocate(ranking, needs=needs, fee_rate=FEE)
    row = a.unmet.set_index("impact_id").loc["B"]
    assert row["credits_short"] == pytest.approx(4.0)
    assert row["reason"].startswith("no replacement site or bank credit was listed")
    assert a.totals["impacts_fully_met"] == 1


def test_excluded_pairs_are_never_used_and_their_reason_is_carried():
    r = ONE_BANK.ranking()
    r["excluded"] = True
    r["tier"] = pd.NA
    r["exclusion_reason"] = "in a greater than 80 percent area"
    a = allocate(r, fee_rate=FEE)
    assert a.plan.empty and a.status == "no_options"
    assert "greater than 80 percent" in a.unmet["reason"].iloc[0]


def test_competition_brute_force_three_impacts_four_options():
    inst = Instance(
        need=[2, 3, 1],
        ratio=[1.0, 1.0, 2.0],
        cap=[2, 3, 2, 4],
        kind=["site", "site", "bank", "bank"],
        price=[8.0, 3.0, 2.0, 1.0],
        pairs={(0, 0): 1, (0, 2): 3, (1, 0): 2, (1, 1): 1, (1, 3): 4, (2, 1): 2, (2, 2): 3},
    )
    assert_optimal(inst)


def test_weights_can_trade_cost_for_distance():
    r = TWO_BANKS.ranking()
    r["distance_ft"] = [50_000.0, 100.0]
    assert allocate(r, fee_rate=FEE).plan["option_id"].tolist() == ["O0"]
    near = allocate(r, fee_rate=FEE, weights={"cost": 1.0, "distance": 0.001})
    assert near.plan["option_id"].tolist() == ["O1"]


def test_out_of_kind_weight_prefers_in_kind_credits():
    r = TWO_BANKS.ranking()
    r["in_kind"] = [False, True]
    a = allocate(r, fee_rate=FEE, weights={"cost": 1.0, "out_of_kind": 10.0})
    assert a.plan["option_id"].tolist() == ["O1"]


def test_the_withdrawal_fee_comes_from_the_parameters():
    rate, cite = withdrawal_fee_rate(as_of="2024-05-01")
    assert rate == pytest.approx(0.065)
    assert cite == "Minn. Stat. § 103G.2242, subd. 14(a)(3)"


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(AllocationError, match="weight 'price' is not one of"):
        check_weights({"price": 1})
    with pytest.raises(AllocationError, match="finite number >= 0"):
        check_weights({"cost": -1})
    with pytest.raises(AllocationError, match=r"lacks column\(s\) \['ratio'"):
        allocate(
            pd.DataFrame(
                {
                    "impact_id": [],
                    "option_id": [],
                    "option_kind": [],
                    "tier": [],
                    "credits_available": [],
                }
            ),
            fee_rate=FEE,
        )
    r = ONE_BANK.ranking()
    r["option_kind"] = "mitigation"
    with pytest.raises(AllocationError, match="not 'site' or 'bank'"):
        allocate(r, fee_rate=FEE)


def test_a_solver_failure_raises_naming_the_stage(monkeypatch):
    class Failed:
        status, x, message = 1, None, "Time limit reached"

    monkeypatch.setattr(allocate_mod, "milp", lambda *a, **k: Failed())
    r = ONE_BANK.ranking()
    with pytest.raises(AllocationError, match="stage 'unmet' failed: Time limit reached"):
        allocate(r, fee_rate=FEE)


# --- generated instances ------------------------------------------------------------------


@st.composite
def instances(draw) -> Instance:
    n_i = draw(st.integers(1, 3))
    n_o = draw(st.integers(1, 4 if n_i <= 2 else 3))
    need = [draw(st.integers(0, 3)) for _ in range(n_i)]
    ratio = [draw(st.sampled_from([1.0, 2.0])) for _ in range(n_i)]
    cap = [draw(st.integers(0, 4)) for _ in range(n_o)]
    kind = [draw(st.sampled_from(["site", "bank"])) for _ in range(n_o)]
    price = [float(draw(st.integers(0, 20))) for _ in range(n_o)]
    pairs = {}
    for i in range(n_i):
        for o in range(n_o):
            if draw(st.booleans()) or n_i * n_o <= 3:
                pairs[(i, o)] = draw(st.integers(1, 4) if kind[o] == "site" else st.integers(3, 4))
    return Instance(need, ratio, cap, kind, price, pairs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_generated_instances_match_brute_force(inst):
    assert_optimal(inst)


# --- subd. 3(c), banking_own_order: each method in its own order ---------------------------


def own_order_ranking(inst: Instance) -> pd.DataFrame:
    return inst.ranking().assign(siting_reading="banking_own_order")


def keeps_own_orders(inst: Instance, grid: np.ndarray, pairs: list) -> np.ndarray:
    """Rows of ``grid`` where no impact uses a level of a method before its better levels
    of the same method are used up (project-wide)."""
    ok = np.ones(len(grid), bool)
    po = np.array([o for _, o in pairs])
    used_up = {o: grid[:, po == o].sum(axis=1) >= inst.cap[o] for o in range(len(inst.cap))}
    for k, (i, o) in enumerate(pairs):
        for i2, o2 in pairs:
            if (
                i2 == i
                and inst.kind[o2] == inst.kind[o]
                and inst.pairs[(i2, o2)] < inst.pairs[(i, o)]
            ):
                ok &= (grid[:, k] == 0) | used_up[o2]
    return ok


def brute_force_own(inst: Instance) -> tuple[float, float]:
    """Return the lexicographic optimum (unmet, cost) under banking_own_order."""
    pairs = list(inst.pairs)
    total = sum(n / r for n, r in zip(inst.need, inst.ratio, strict=True))
    if not pairs:
        return (total, 0.0)
    ranges = [range(min(inst.cap[o], inst.need[i]) + 1) for i, o in pairs]
    grid = np.array(list(itertools.product(*ranges)), dtype=float)
    pi = np.array([i for i, _ in pairs])
    po = np.array([o for _, o in pairs])
    ok = keeps_own_orders(inst, grid, pairs)
    for i in range(len(inst.need)):
        ok &= grid[:, pi == i].sum(axis=1) <= inst.need[i]
    for o in range(len(inst.cap)):
        ok &= grid[:, po == o].sum(axis=1) <= inst.cap[o]
    g = grid[ok]
    ratio = np.array([inst.ratio[i] for i in pi])
    unmet = total - (g / ratio).sum(axis=1)
    cost = np.zeros(len(g))
    for o in range(len(inst.cap)):
        used = g[:, po == o].sum(axis=1)
        if inst.kind[o] == "bank":
            cost += used * inst.price[o] * (1 + FEE)
        else:
            cost += np.where(used > 0, inst.price[o], 0.0)
    best = min(map(tuple, np.column_stack([unmet, cost]).round(9)))
    return tuple(float(v) for v in best)


def assert_optimal_own(inst: Instance) -> None:
    a = allocate(own_order_ranking(inst), needs=inst.needs(), fee_rate=FEE)
    check_invariants(inst, a)
    plan = a.plan
    pairs = list(inst.pairs)
    x = np.array(
        [
            [
                plan.loc[(plan.impact_id == f"I{i}") & (plan.option_id == f"O{o}"), "credits"].sum()
                for i, o in pairs
            ]
        ]
    )
    assert keeps_own_orders(inst, np.round(x, 6), pairs).all(), plan
    key = (a.totals["acres_unmet"], a.totals["cost"])
    assert key == pytest.approx(brute_force_own(inst), abs=1e-5)
    if inst.pairs:
        assert a.totals["siting_reading"] == "banking_own_order"


@pytest.mark.parametrize(
    ("site_cost", "bank_price", "chosen"),
    [
        pytest.param(50.0, 7_800.0, "S", id="3(c): a $50 tier 2 site before an $8,307 bank"),
        pytest.param(8_307.0, 46.95, "B", id="3(c): a $50 bank before an $8,307 tier 2 site"),
    ],
)
def test_subd_3c_the_applicant_chooses_between_the_methods_by_cost(site_cost, bank_price, chosen):
    ranking = pd.DataFrame(
        {
            "impact_id": ["A", "A"],
            "option_id": ["S", "B"],
            "option_kind": ["site", "bank"],
            "tier": [2, 3],
            "excluded": [False, False],
            "ratio": [2.0, 2.0],
            "credits_available": [1.0, 10.0],
            "unit_cost": [site_cost, bank_price],
            "impact_acres": [0.5, 0.5],
            "siting_reading": "banking_own_order",
        }
    )
    a = allocate(ranking, fee_rate=FEE)
    assert list(a.plan["option_id"]) == [chosen]
    expected = {"S": site_cost, "B": bank_price * (1 + FEE)}[chosen]
    assert a.totals["cost"] == pytest.approx(expected)
    assert "Minn. Stat. § 103G.222, subd. 3(c)" in a.citations
    # the single order of subd. 3(a) always takes the tier 2 site
    single = allocate(ranking.assign(siting_reading="single_order"), fee_rate=FEE)
    assert list(single.plan["option_id"]) == ["S"]


def test_subd_3c_equal_cost_is_settled_by_distance():
    ranking = pd.DataFrame(
        {
            "impact_id": ["A", "A"],
            "option_id": ["FAR", "NEAR"],
            "option_kind": ["bank", "site"],
            "tier": [3, 1],
            "excluded": [False, False],
            "ratio": [1.0, 1.0],
            "credits_available": [1.0, 1.0],
            "unit_cost": [100.0, 100.0 * (1 + FEE)],
            "impact_acres": [1.0, 1.0],
            "distance_ft": [9_000.0, 10.0],
            "siting_reading": "banking_own_order",
        }
    )
    a = allocate(ranking, fee_rate=FEE)
    assert list(a.plan["option_id"]) == ["NEAR"]
    assert [s.name for s in a.stages][-1] == "distance"


def test_subd_3d_a_site_level_opens_only_when_the_better_sites_are_used_up():
    """Tier 1 site short: the rest may go to the cheaper tier 2 site, not forced to the bank."""
    inst = Instance(
        need=[3],
        ratio=[1.0],
        cap=[1, 5, 5],
        kind=["site", "site", "bank"],
        price=[10.0, 20.0, 100.0],
        pairs={(0, 0): 1, (0, 1): 2, (0, 2): 3},
    )
    a = allocate(own_order_ranking(inst), needs=inst.needs(), fee_rate=FEE)
    used = a.plan.set_index("option_id")["credits"]
    assert used.to_dict() == pytest.approx({"O0": 1.0, "O1": 2.0})
    assert_optimal_own(inst)
    # an unbuilt tier 1 site that could serve does not open tier 2 for the same impact
    inst.price[0] = 1_000.0
    b = allocate(own_order_ranking(inst), needs=inst.needs(), fee_rate=FEE)
    assert set(b.plan["option_id"]) == {"O2"}  # the bank: its own order, cheaper than both
    assert_optimal_own(inst)


def test_a_ranking_mixing_readings_is_refused():
    inst = Instance(
        need=[1],
        ratio=[1.0],
        cap=[1, 1],
        kind=["site", "bank"],
        price=[1.0, 1.0],
        pairs={(0, 0): 1, (0, 1): 3},
    )
    r = inst.ranking().assign(siting_reading=["banking_own_order", "single_order"])
    with pytest.raises(AllocationError, match="mixes siting readings"):
        allocate(r, fee_rate=FEE)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_generated_instances_match_brute_force_under_banking_own_order(inst):
    assert_optimal_own(inst)


# --- issue 30: unmet demand is an answer, never an infeasible programme --------------------

SQFT = 43_560.0
#: Impact acres a careless edit leaves: none, NaN, a sliver (2.3e-5 sq ft), 0.01 sq ft,
#: under one square foot (0.44 sq ft), and 1e-9 sq ft.
DEGENERATE_ACRES = (0.0, float("nan"), 5.3e-10, 0.01 / SQFT, 1e-5, 1e-9 / SQFT)


SHORTAGE_COLUMNS = (
    "impact_id",
    "option_id",
    "option_kind",
    "tier",
    "priority",
    "excluded",
    "ratio",
    "credits_available",
    "unit_cost",
    "impact_acres",
    "distance_ft",
    "siting_reading",
)


@dataclass
class Shortage:
    """A project of many impacts and few options: supply far below demand, or none."""

    acres: list[float]
    ratio: list[float]
    kind: list[str]
    cap: list[float]
    price: list[float]  # bank: per credit; site: whole cost
    tier: dict[tuple[int, int], int]  # (impact, option) -> tier; absent: not listed
    distance: list[float]  # per option, feet from impact 0 (impact i: times i + 1)
    reading: str = "banking_own_order"

    def ranking(self) -> pd.DataFrame:
        from wetland_gis.rules.priority import siting_priority

        rows = []
        for (i, o), tier in self.tier.items():
            site = self.kind[o] == "site"
            rows.append(
                {
                    "impact_id": f"I{i}",
                    "option_id": f"O{o}",
                    "option_kind": self.kind[o],
                    "tier": tier,
                    "priority": siting_priority(tier, is_bank=not site, reading=self.reading),
                    "excluded": False,
                    "ratio": self.ratio[i],
                    "credits_available": self.cap[o],
                    "unit_cost": (self.price[o] / self.cap[o] if self.cap[o] else 0.0)
                    if site
                    else self.price[o],
                    "impact_acres": self.acres[i],
                    "distance_ft": self.distance[o] * (i + 1),
                    "siting_reading": self.reading,
                }
            )
        return pd.DataFrame(rows, columns=[*SHORTAGE_COLUMNS])

    def needs(self) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "impact_id": [f"I{i}" for i in range(len(self.acres))],
                "acres": self.acres,
                "ratio": self.ratio,
            }
        )


@st.composite
def shortages(draw) -> Shortage:
    n_i = draw(st.integers(1, 120))
    n_o = draw(st.integers(1, 6))
    acres = draw(
        st.lists(
            st.one_of(st.floats(0.005, 0.3), st.sampled_from(DEGENERATE_ACRES)),
            min_size=n_i,
            max_size=n_i,
        )
    )
    ratio = draw(st.lists(st.sampled_from([1.0, 2.0, 4.0]), min_size=n_i, max_size=n_i))
    kind = draw(st.lists(st.sampled_from(["bank", "bank", "site"]), min_size=n_o, max_size=n_o))
    demand = float(np.nansum(np.array(acres) * np.array(ratio)))
    # supply: none, far below demand, or about it; shared among the options at random
    factor = draw(st.sampled_from([0.0, 0.001, 0.02, 0.3, 1.0, 3.0]))
    shares = np.array(draw(st.lists(st.floats(0.0, 1.0), min_size=n_o, max_size=n_o)))
    shares = shares / shares.sum() if shares.sum() > 0 else np.full(n_o, 1.0 / n_o)
    cap = [float(v) for v in np.round(shares * factor * demand, 6)]
    price = draw(st.lists(st.floats(1_000.0, 70_000.0), min_size=n_o, max_size=n_o))
    distance = draw(st.lists(st.floats(0.0, 400_000.0), min_size=n_o, max_size=n_o))
    tier = {}
    for i in range(n_i):
        for o in range(n_o):
            if draw(st.integers(0, 4)):  # most impacts can use most options
                tier[(i, o)] = draw(st.integers(1, 4) if kind[o] == "site" else st.integers(3, 4))
    reading = draw(st.sampled_from(["banking_own_order", "single_order"]))
    return Shortage(acres, ratio, kind, cap, price, tier, distance, reading)


def check_unmet_is_an_answer(case: Shortage, a) -> None:
    """Every impact is met or in ``unmet`` with a reason; no option over-used; one unit."""
    from wetland_gis.siting.allocate import CREDIT_UNIT, RESOLUTION_SQFT

    assert a.totals["stages_not_applied"] == []
    assert all(s.status.startswith("Optimization terminated successfully") for s in a.stages)
    plan, unmet = a.plan, a.unmet.set_index("impact_id")
    used = plan.groupby("option_id")["credits"].sum() if len(plan) else pd.Series(dtype=float)
    for o, cap in enumerate(case.cap):
        assert used.get(f"O{o}", 0.0) <= cap * (1 + 1e-9) + 1e-9
    got = plan.groupby("impact_id")["acres"].sum() if len(plan) else pd.Series(dtype=float)
    for i, acres in enumerate(case.acres):
        imp, need = f"I{i}", 0.0 if np.isnan(acres) else acres
        short = unmet["impact_acres_short"].get(imp, 0.0)
        assert got.get(imp, 0.0) + short == pytest.approx(need, rel=1e-9, abs=1e-8)
        if imp in unmet.index:
            assert short > 0 and str(unmet.loc[imp, "reason"]).strip()
            assert unmet.loc[imp, "credits_short"] == pytest.approx(short * case.ratio[i])
        if 0 < need * SQFT < RESOLUTION_SQFT:  # a sliver is never met with nothing
            assert short == pytest.approx(need) and "resolution" in unmet.loc[imp, "reason"]
    t = a.totals
    assert t["unit"] == CREDIT_UNIT
    assert t["credits_met"] + t["credits_unmet"] == pytest.approx(t["credits_required"])
    assert t["credits_unmet"] == pytest.approx(float(unmet["credits_short"].sum()))


#: The pipeline of issue 30 in small: a 0.01 sq ft cut beside a real impact, and two banks
#: (tier 3, tier 4). Before the fix the MIP met the cut with nothing (its requirement was
#: below the solver's tolerance in acres) and the distance stage, a linear programme with
#: a finer tolerance, found the held optima infeasible: "stage 'distance' failed".
SLIVER_AND_TWO_BANKS = Shortage(
    acres=[0.01 / SQFT, 0.23],
    ratio=[2.0, 2.0],
    kind=["bank", "bank"],
    cap=[2.5, 8.0],
    price=[13_000.0, 8_200.0],
    tier={(0, 0): 3, (0, 1): 4, (1, 0): 3, (1, 1): 4},
    distance=[1_000.0, 50_000.0],
)
#: What assess wrote for a zero-width sliver, a 0.01 sq ft square, a 1e-9 sq ft square and
#: a 5,000 sq ft square in Wright County, sited on the sample listing's banks.
SLIVERS_ON_THE_SAMPLE_BANKS = Shortage(
    acres=[5.307208e-10 / 2, 4.591368e-07 / 2, 4.941924e-14 / 2, 2.295684e-01 / 2],
    ratio=[2.0] * 4,
    kind=["bank"] * 7,
    cap=[4.2, 2.5, 1.1, 1.8, 6.0, 8.0, 2.2],
    price=[14_500.0, 13_000.0, 62_000.0, 45_000.0, 9_500.0, 8_200.0, 12_500.0],
    tier={(i, o): 3 if o in (0, 1) else 4 for i in range(4) for o in range(7)},
    distance=[20_000.0, 3_000.0, 90_000.0, 110_000.0, 150_000.0, 170_000.0, 250_000.0],
)
#: Found by hypothesis: the cost stage, solved with its held optima loosened, moved 2.3e-8
#: credits of I1 from a tier 3 bank with credits left to a cheaper tier 4 one; the tier gaps
#: then said tier 4 was not open (allocate._restore_priority puts such a sliver back).
COST_STAGE_SLIVER = Shortage(
    acres=[
        0.005,
        0.005,
        0.005,
        0.005,
        0.005,
        0.0,
        0.005,
        0.17298457249925359,
        0.04897605858738961,
        0.005,
        0.005,
        0.2668293468467064,
        0.20976591124036303,
        0.005,
        0.0,
        0.2699713235180151,
        0.29245622374097346,
        0.18,
        0.07832006937136729,
        0.08467743735659514,
        0.08467743735659514,
        0.09697981200390886,
        0.005,
        0.005,
        0.005,
        0.005,
        0.005,
        0.29999999999999993,
        0.005,
    ],
    ratio=[
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        4.0,
        4.0,
        1.0,
        1.0,
        1.0,
        4.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
    ],
    kind=["site", "bank", "bank"],
    cap=[0.386895, 0.386895, 0.386895],
    price=[1000.0, 1000.0, 1000.0],
    tier={
        (0, 1): 3,
        (0, 2): 3,
        (1, 0): 2,
        (1, 1): 4,
        (1, 2): 3,
        (2, 0): 2,
        (2, 1): 3,
        (2, 2): 3,
        (3, 0): 2,
        (3, 1): 3,
        (3, 2): 3,
        (4, 0): 2,
        (4, 1): 3,
        (4, 2): 3,
        (5, 0): 1,
        (5, 1): 3,
        (5, 2): 3,
        (6, 2): 3,
        (7, 0): 1,
        (7, 1): 3,
        (7, 2): 3,
        (8, 1): 3,
        (8, 2): 3,
        (9, 0): 4,
        (9, 1): 3,
        (9, 2): 3,
        (10, 0): 2,
        (10, 1): 3,
        (10, 2): 3,
        (11, 0): 4,
        (11, 1): 3,
        (12, 2): 3,
        (13, 1): 3,
        (13, 2): 3,
        (14, 0): 1,
        (14, 1): 3,
        (14, 2): 3,
        (15, 0): 4,
        (15, 1): 3,
        (15, 2): 4,
        (16, 2): 3,
        (17, 0): 2,
        (17, 1): 4,
        (17, 2): 4,
        (18, 0): 2,
        (18, 1): 3,
        (18, 2): 3,
        (19, 0): 2,
        (19, 1): 3,
        (19, 2): 3,
        (20, 2): 3,
        (21, 0): 2,
        (21, 1): 3,
        (21, 2): 3,
        (22, 1): 3,
        (23, 0): 2,
        (23, 1): 3,
        (23, 2): 3,
        (25, 0): 2,
        (25, 1): 3,
        (25, 2): 3,
        (26, 2): 3,
        (27, 0): 3,
        (27, 1): 3,
        (28, 2): 3,
    },
    distance=[0.0, 0.0, 0.0],
    reading="single_order",
)
NO_SUPPLY = Shortage(
    acres=[0.2, 0.1, 1e-5],
    ratio=[2.0, 1.0, 2.0],
    kind=["bank", "site"],
    cap=[0.0, 0.0],
    price=[9_000.0, 50_000.0],
    tier={(0, 0): 3, (1, 0): 4, (1, 1): 1, (2, 1): 2},
    distance=[100.0, 10.0],
)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(SLIVER_AND_TWO_BANKS, id="issue 30: a 0.01 sq ft cut beside a real impact"),
        pytest.param(SLIVERS_ON_THE_SAMPLE_BANKS, id="issue 30: what assess wrote for slivers"),
        pytest.param(NO_SUPPLY, id="zero supply: every impact unmet, each with its reason"),
    ],
)
def test_unmet_demand_is_an_answer_never_an_infeasible_programme(case):
    a = allocate(case.ranking(), needs=case.needs(), fee_rate=FEE)
    check_unmet_is_an_answer(case, a)


def test_a_cut_below_the_resolution_is_unmet_with_its_reason_not_met_with_nothing():
    a = allocate(
        SLIVERS_ON_THE_SAMPLE_BANKS.ranking(),
        needs=SLIVERS_ON_THE_SAMPLE_BANKS.needs(),
        fee_rate=FEE,
    )
    unmet = a.unmet.set_index("impact_id")
    # the zero-width sliver and the 1e-9 sq ft square: too small to place, said so
    assert set(unmet.index) == {"I0", "I2"}
    assert unmet["reason"].str.contains("below the allocation's resolution").all()
    # the 0.01 sq ft square is placed like any impact, at its ratio
    plan = a.plan.set_index("impact_id")
    assert plan.loc["I1", "credits"] == pytest.approx(4.591368e-07, abs=1e-9)


def test_the_headline_figures_are_in_one_unit_credits():
    """Issue 30: "65.08 acres required; met by 25.80 credits; 19.64 acres unmet" mixed units."""
    case = Shortage(
        acres=[1.0, 0.5],
        ratio=[2.0, 1.0],
        kind=["bank"],
        cap=[1.5],
        price=[1_000.0],
        tier={(0, 0): 3, (1, 0): 3},
        distance=[10.0],
    )
    a = allocate(case.ranking(), needs=case.needs(), fee_rate=FEE)
    t = a.totals
    # required 2 x 1.0 + 1 x 0.5 = 2.5 credits; 1.5 allocated; 1.0 credit unmet
    assert (t["credits_required"], t["credits_met"], t["credits_unmet"]) == pytest.approx(
        (2.5, 1.5, 1.0)
    )
    assert t["credits_allocated"] == pytest.approx(1.5)
    assert float(a.unmet["credits_short"].sum()) == pytest.approx(1.0)
    row = a.unmet.iloc[0]
    assert row["credits_required"] - row["credits_met"] == pytest.approx(row["credits_short"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shortages())
@example(SLIVER_AND_TWO_BANKS)
@example(SLIVERS_ON_THE_SAMPLE_BANKS)
@example(NO_SUPPLY)
@example(COST_STAGE_SLIVER)
def test_generated_shortages_are_answered_with_unmet_demand(case):
    from wetland_gis.siting.rank import tier_gaps

    a = allocate(case.ranking(), needs=case.needs(), fee_rate=FEE)
    check_unmet_is_an_answer(case, a)
    # issue 32: the tier gaps and the plan agree - every level the plan uses is open
    gaps = tier_gaps(case.ranking(), needs=case.needs(), as_of="2024-05-01", plan=a.plan)
    opened = set(zip(gaps["impact_id"], gaps["method"], gaps["tier"], strict=True))
    own = case.reading == "banking_own_order"
    for row in a.plan.itertuples():
        assert (row.impact_id, row.option_kind if own else "any", row.tier) in opened, row
    if case.reading == "banking_own_order" and len(a.plan):
        # each method's own order: a level is used only once its better levels are used up
        used = a.plan.groupby("option_id")["credits"].sum()
        spare = {f"O{o}": c - used.get(f"O{o}", 0.0) for o, c in enumerate(case.cap)}
        for row in a.plan.itertuples():
            i, o = int(row.impact_id[1:]), int(row.option_id[1:])
            for (i2, o2), t2 in case.tier.items():
                if i2 == i and case.kind[o2] == case.kind[o] and t2 < case.tier[(i, o)]:
                    assert spare[f"O{o2}"] <= 1e-6, (row, o2)
