"""Speed of the water-use rules (issue 10): screening 2,000 appropriations in one edition
and between the editions (every rule twice)."""

from __future__ import annotations

import pytest

from wetland_gis.water_use.rules import Appropriation, screen

N = 2_000


def _items() -> list[Appropriation]:
    uses = ("municipal", "industrial", "agricultural_irrigation", "golf_course_irrigation")
    return [
        Appropriation(
            f"P{i}",
            entity=f"E{i % 300}",
            entity_type="business",
            use=uses[i % len(uses)],
            annual_gallons=float(i * 750_000),
            gallons_per_day=float(i * 3_000),
            permits_held=1 + i % 7,
            monthly_gallons=tuple(float(i * 50_000 + m * 1_000) for m in range(12)),
            county="Hennepin" if i % 3 else "Olmsted",
            mt_simon_hinckley=bool(i % 5 == 0),
            bulk_sale=False,
            data_center=False,
        )
        for i in range(N)
    ]


@pytest.mark.parametrize("as_of", ["2026-06-01", "2022-06-01"], ids=["2025", "between"])
def test_screen_2000_appropriations(benchmark, as_of):
    items = _items()
    result = benchmark.pedantic(
        screen, args=(items,), kwargs={"as_of": as_of}, rounds=1, iterations=1
    )
    assert len(result.summary) == N
