"""Public waters wetlands by the DNR inventory as a context layer (issue 18, item 8).

§ 103G.201: the public waters inventory is the authority; an impact touching an
inventoried wetland is a public waters wetland whatever its size. The size test of
§ 103G.005, subd. 15a is the fallback, and says so in a verify item.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from helpers import CONTEXT
from shapely.geometry import box

import wetland_gis as wg

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing" / "impacts.gpkg"
AS_OF = "2024-05-01"
FT = 0.3048


def _square(sqft: float, x: float, y: float):
    side = (sqft**0.5) * FT
    return box(x, y, x + side, y + side)


@pytest.fixture(scope="module")
def run():
    c = gpd.read_file(CROW_WING).geometry.iloc[0].centroid
    x, y = c.x, c.y
    impacts = gpd.GeoDataFrame(
        {
            "impact_id": ["inv", "out", "big"],
            "circ39": ["3", "3", "3"],
            "wetland_ac": [1.0, 1.0, 40.0],
            "owns_whole_wetland": [True, True, True],
        },
        geometry=[_square(500, x, y), _square(500, x + 60, y), _square(500, x + 120, y)],
        crs="EPSG:26915",
    )
    inventory = gpd.GeoDataFrame(
        {"pw_id": ["18-0999W"]}, geometry=[box(x - 5, y - 5, x + 10, y + 10)], crs="EPSG:26915"
    )
    base = wg.load_context(CONTEXT)
    layers = {name: base.get(name) for name in base.layers}

    def assess(with_inventory: bool):
        extra = {"public_waters_wetlands": inventory} if with_inventory else {}
        ctx = wg.load_context(layers={**layers, **extra})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return wg.assess(impacts, ctx, as_of=AS_OF).impacts.set_index("impact_id")

    return assess


def test_subd_201_an_inventoried_wetland_is_public_waters_whatever_its_size(run):
    rows = run(True)
    assert rows.loc["inv", "pw_wetland"] == "18-0999W"
    assert bool(rows.loc["inv", "public_waters_wetland"]) is True
    assert rows.loc["inv", "permit_route"] == "DNR public waters"
    assert "18-0999W" in rows.loc["inv", "reasons"]
    assert "by its type and size alone" not in (rows.loc["inv", "verify"] or "")


def test_subd_201_a_small_wetland_not_in_the_inventory_stays_in_the_wca(run):
    rows = run(True)
    assert rows.loc["out", "pw_wetland"] == ""
    assert bool(rows.loc["out", "public_waters_wetland"]) is False
    assert rows.loc["out", "permit_route"] == "WCA"


def test_subd_15a_size_alone_is_the_fallback_and_says_so(run):
    rows = run(False)  # without the inventory layer: the size test is the fallback
    assert bool(rows.loc["big", "public_waters_wetland"]) is True  # 40 acres, type 3
    assert "by its type and size alone" in rows.loc["big", "verify"]


def test_subd_201_with_the_layer_an_unlisted_big_basin_is_not_made_public_waters_by_size(run):
    # issue 32, item 18: the inventory is the authority; size decides only without it
    rows = run(True)
    assert rows.loc["big", "pw_wetland"] == ""
    assert bool(rows.loc["big", "public_waters_wetland"]) is False  # 40 acres, type 3
    assert rows.loc["big", "permit_route"] == "WCA"
    assert rows.loc["big", "de_minimis"] is not None  # decided as a WCA wetland
    # the size test's answer is not dropped: a verify item for the DNR names it
    assert "by its type and size it would be a public waters wetland" in rows.loc["big", "verify"]
    assert "§ 103G.201" in rows.loc["big", "citations"]


def test_without_the_layer_the_inventory_is_not_screened(run):
    rows = run(False)
    assert rows["pw_wetland"].isna().all()
    assert rows.loc["inv", "permit_route"] == "WCA"  # 1 acre: not by size
