"""The static map of the PDF frames every impact and allocated option, with clear labels.

Checked from the drawn matplotlib artists: each impact's geometry and each allocated site
or bank lies inside the axes limits (with a margin), each has its label, and the labels'
boxes (from the renderer) lie inside the axes and overlap no other label. On the two
sample projects (Wright: a tall frame reaching bank 1202-S; Crow Wing: a cluster with bank
4418-S far away) and on synthetic tall, wide and random extents.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

import geopandas as gpd
import map_fixtures as fx
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from matplotlib.text import Text
from shapely.geometry import Point, box

from wetland_gis.mapping.static_map import static_map

CRS = "EPSG:26915"


def _sample(root: Path, name: str) -> dict[str, Any]:
    from wetland_gis import assess, site
    from wetland_gis.assess import map_layers
    from wetland_gis.demo import AS_OF, SAMPLE_PROJECTS

    project = next(p for p in SAMPLE_PROJECTS if p.name == name)
    a = assess(root / project.impacts, root / project.context, as_of=AS_OF)
    s = site(
        a.impacts,
        root / project.sites,
        root / project.banks,
        context=a.context,
        as_of=AS_OF,
    )
    return {
        "impacts": a.impacts,
        "zones": a.zones,
        "sites": s.sites,
        "banks": s.banks,
        "allocation": s.allocation,
        "context": map_layers(a.context),
    }


@pytest.fixture(scope="module", params=["wright_metro", "crow_wing"])
def sample_project(request: pytest.FixtureRequest, sample_data: Any) -> dict[str, Any]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _sample(sample_data.root.parent, request.param)


def _check_map(layers: dict[str, Any]) -> dict[str, Any]:
    """Draw the map and assert the framing and the labels; return what was checked."""
    fig = static_map(**layers)
    fig.canvas.draw()  # the labels' positions are those drawn
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    impacts = layers["impacts"].to_crs(CRS)
    ids = set(impacts["impact_id"].astype(str))
    allocated = (
        set(layers["allocation"]["option_id"].astype(str)) if "allocation" in layers else set()
    )
    margin = 0.02 * max(x1 - x0, y1 - y0)
    for geom in impacts.geometry:
        minx, miny, maxx, maxy = geom.bounds
        assert x0 + margin < minx and maxx < x1 - margin, (geom.bounds, (x0, x1))
        assert y0 + margin < miny and maxy < y1 - margin, (geom.bounds, (y0, y1))
    options = []
    for key, col in (("sites", "site_id"), ("banks", "account")):
        frame = layers.get(key)
        if frame is None:
            continue
        chosen = frame[frame[col].astype(str).isin(allocated)].to_crs(CRS)
        options += list(chosen[col].astype(str))
        for pt in chosen.geometry.representative_point():
            assert x0 + margin < pt.x < x1 - margin and y0 + margin < pt.y < y1 - margin
    assert set(options) == allocated, "every allocated option is drawn"
    labels = {t.get_text(): t for t in ax.texts if t.get_text().rstrip(" *") in ids | allocated}
    assert ids <= set(labels), f"impacts without a label: {ids - set(labels)}"
    assert {f"{o} *" for o in allocated} <= set(labels)
    frame = ax.get_window_extent(renderer)
    # the text's own box (an Annotation's extent would include its leader line)
    boxes = {text: Text.get_window_extent(t, renderer) for text, t in labels.items()}
    others = [  # the north arrow's letter, the CRS note
        Text.get_window_extent(t, renderer)
        for t in ax.texts
        if t.get_text().strip() and t.get_text() not in labels
    ]
    for text, b in boxes.items():
        assert frame.x0 <= b.x0 and b.x1 <= frame.x1, f"{text} outside the axes"
        assert frame.y0 <= b.y0 and b.y1 <= frame.y1, f"{text} outside the axes"
    for (ta, a), (tb, b) in combinations(boxes.items(), 2):
        assert not a.overlaps(b), f"labels {ta} and {tb} overlap"
    for ta, a in boxes.items():
        assert not any(a.overlaps(o) for o in others), f"label {ta} covers the map's text"
    from matplotlib import pyplot as plt

    plt.close(fig)
    return {"labels": len(boxes)}


@pytest.mark.slow
def test_sample_project_map_frames_every_impact_and_allocated_option(
    sample_project: dict[str, Any],
) -> None:
    assert len(sample_project["allocation"]), "the sample allocates credits"
    checked = _check_map(sample_project)
    assert checked["labels"] >= len(sample_project["impacts"]) + 1


def _line(n: int, dx: float, dy: float) -> gpd.GeoDataFrame:
    """``n`` small impacts along a line, ``(dx, dy)`` apart (a road corridor)."""
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"T-{i}" for i in range(n)],
            "outcome": ["replacement_required"] * n,
        },
        geometry=[
            box(420_000 + i * dx, 5_000_000 + i * dy, 420_030 + i * dx, 5_000_020 + i * dy)
            for i in range(n)
        ],
        crs=CRS,
    )


def _bank(x: float, y: float) -> tuple[gpd.GeoDataFrame, pd.DataFrame]:
    banks = gpd.GeoDataFrame({"account": ["9999-S"]}, geometry=[Point(x, y)], crs=CRS)
    allocation = pd.DataFrame({"impact_id": ["T-0"], "option_id": ["9999-S"], "credits": [1.0]})
    return banks, allocation


@pytest.mark.parametrize(
    ("n", "dx", "dy", "bank"),
    [
        pytest.param(8, 40.0, 1_500.0, (420_100.0, 5_013_000.0), id="tall extent, bank at the top"),
        pytest.param(8, 1_500.0, 40.0, (432_000.0, 4_999_000.0), id="wide extent, bank at the end"),
        pytest.param(12, 3.0, 2.0, (420_000.0, 5_000_400.0), id="a tight cluster"),
        pytest.param(1, 0.0, 0.0, (420_010.0, 5_000_010.0), id="one impact, bank beside it"),
    ],
)
def test_synthetic_extents_are_framed_with_clear_labels(
    n: int, dx: float, dy: float, bank: tuple[float, float]
) -> None:
    banks, allocation = _bank(*bank)
    _check_map({"impacts": _line(n, dx, dy), "banks": banks, "allocation": allocation})


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    points=st.lists(st.tuples(st.floats(0, 20_000), st.floats(0, 20_000)), min_size=1, max_size=9),
    bank=st.tuples(st.floats(-30_000, 30_000), st.floats(-30_000, 30_000)),
)
def test_any_extent_frames_impacts_and_bank(
    points: list[tuple[float, float]], bank: tuple[float, float]
) -> None:
    impacts = gpd.GeoDataFrame(
        {"impact_id": [f"R-{i}" for i in range(len(points))], "outcome": "prohibited"},
        geometry=[box(420_000 + x, 5_000_000 + y, 420_025 + x, 5_000_025 + y) for x, y in points],
        crs=CRS,
    )
    banks, allocation = _bank(420_000 + bank[0], 5_000_000 + bank[1])
    allocation["impact_id"] = "R-0"
    _check_map({"impacts": impacts, "banks": banks, "allocation": allocation})


def test_the_fixture_map_keeps_its_layers() -> None:
    """The fixture project (sites, banks, zones, waters) is framed and labelled as well."""
    layers = {"impacts": fx.impacts(), **fx.map_layers(), "allocation": fx.allocation()}
    drawn = layers["impacts"]
    layers["impacts"] = drawn[drawn.geometry.notna() & ~drawn.geometry.is_empty]
    _check_map(layers)
