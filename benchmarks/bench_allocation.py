"""Benchmark: exact allocation of ~200 impacts x 50 options (not run by ``make test``).

Run with::

    .venv/bin/python -m pytest benchmarks/bench_allocation.py -p no:cacheprovider \
        --benchmark-only -o testpaths=benchmarks

The instance is random but seeded: 200 impacts of 0.05-2 acres at ratios 1-2.5, 30 banks
(tier 3 or 4, 0.5-40 credits at $5,000-$20,000) and 20 project-specific sites (tiers 1-4,
0.2-6 credits, a whole cost each), every impact paired with every option (10,000 pairs),
about one pair in ten excluded. Credits fall short of the need, so every stage works.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from wetland_gis.siting.allocate import allocate

N_IMPACTS, N_BANKS, N_SITES = 200, 30, 20


def instance(seed: int = 20240501) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    acres = rng.uniform(0.05, 2.0, N_IMPACTS)
    ratio = rng.choice([1.0, 1.5, 2.0, 2.5], N_IMPACTS)
    kinds = ["bank"] * N_BANKS + ["site"] * N_SITES
    credits = np.concatenate([rng.uniform(0.5, 40, N_BANKS), rng.uniform(0.2, 6, N_SITES)])
    unit = np.concatenate(
        [rng.uniform(5_000, 20_000, N_BANKS), rng.uniform(2_000, 30_000, N_SITES)]
    )
    rows = []
    for i in range(N_IMPACTS):
        for o, kind in enumerate(kinds):
            tier = int(rng.integers(3, 5)) if kind == "bank" else int(rng.integers(1, 5))
            excluded = bool(rng.random() < 0.1)
            rows.append(
                {
                    "impact_id": f"I{i}",
                    "option_id": f"O{o}",
                    "option_kind": kind,
                    "tier": None if excluded else tier,
                    "excluded": excluded,
                    "ratio": ratio[i],
                    "credits_needed": acres[i] * ratio[i],
                    "credits_available": credits[o],
                    "unit_cost": unit[o],
                    "impact_acres": acres[i],
                    "distance_ft": float(rng.uniform(0, 200_000)),
                    "in_kind": bool(rng.random() < 0.5),
                }
            )
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def ranking() -> pd.DataFrame:
    return instance()


def test_allocation_200_impacts_50_options(benchmark, ranking):
    result = benchmark.pedantic(
        allocate, args=(ranking,), kwargs={"as_of": "2024-05-01"}, rounds=3, iterations=1
    )
    assert result.status == "optimal"
    assert [s.name for s in result.stages] == ["unmet", "tier_1", "tier_2", "tier_3", "cost"]
    used = result.plan.groupby("option_id")["credits"].sum()
    cap = ranking.drop_duplicates("option_id").set_index("option_id")["credits_available"]
    assert (used <= cap.loc[used.index] + 1e-6).all()
