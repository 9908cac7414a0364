"""Hypothesis strategies and profiles for the fuzz suite (``tests/test_fuzz_*.py``).

Two profiles, chosen with the environment variable ``WETLAND_GIS_FUZZ``:

``wetland-bounded`` (default; ``make check``, ``make test``, CI)
    a few examples per property, so the fuzz suite adds well under a minute; derandomized
    and without the example database (it inherits ``wetland-tests`` of
    ``tests/conftest.py``): the same examples on every run;
``wetland-fuzz`` (``WETLAND_GIS_FUZZ=long``; ``make fuzz``)
    many more examples (``WETLAND_GIS_FUZZ_EXAMPLES``, default 400 per property), random.

Failing examples of ``make fuzz`` are kept in hypothesis's database (``.hypothesis/``) and
replayed first by the next ``make fuzz`` on the same machine; check and CI never read it,
so every counterexample found goes into the property as an explicit ``@example``.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
from hostile import ALL as HOSTILE_TEXT, TEMPLATE_PAYLOADS
from hypothesis import HealthCheck, settings, strategies as st
from shapely.geometry import (
    GeometryCollection,
    LineString,
    MultiPolygon,
    Point,
    Polygon,
    box,
)

from wetland_gis.parameters import default_parameters

LONG = os.environ.get("WETLAND_GIS_FUZZ", "").strip().lower() in {"1", "long", "yes", "true"}
_COMMON = dict(
    deadline=None,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
settings.register_profile("wetland-bounded", max_examples=8, **_COMMON)
settings.register_profile(
    "wetland-fuzz",
    parent=settings.get_profile("default"),  # random, with the example database
    max_examples=int(os.environ.get("WETLAND_GIS_FUZZ_EXAMPLES", "400")),
    **_COMMON,
)
#: The settings every fuzz property runs with.
FUZZ = settings(settings.get_profile("wetland-fuzz" if LONG else "wetland-bounded"))

AS_OF = "2024-05-01"
FT = 0.3048  # metres in an international foot

# Places in the synthetic context (EPSG:26915 metres). "Interior" places are far from
# water, county lines and the state line for the whole size range drawn below.
WRIGHT_INTERIOR = (423_400.0, 5_001_700.0)  # metro, less than 50 percent, outside the zone
CROW_WING_INTERIOR = (429_400.0, 5_148_000.0)  # greater than 80 percent area
NEAR_LAKE = (429_427.0, 5_150_820.0)  # the Crow Wing sample impact, in the shoreland zones
COUNTY_LINE = (448_331.39, 5_000_404.86)  # on the Wright / Hennepin line
STATE_LINE = (518_745.0, 4_985_679.0)  # on the Minnesota / Wisconsin line
INTERIOR = (WRIGHT_INTERIOR, CROW_WING_INTERIOR)
ANYWHERE = (*INTERIOR, NEAR_LAKE, COUNTY_LINE, STATE_LINE)

#: CRSs a layer is handed over in (geographic, web, state plane in feet, UTM).
CRSS = ("EPSG:26915", "EPSG:4326", "EPSG:3857", "EPSG:26851", "EPSG:26915")

TYPE_VALUES = (
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "Type 3",
    "type 2/3",
    "shallow marsh",
    3,
    2.0,
    "3 ",
    None,
    np.nan,
    "",
    "bogus",
    "9",
    "PEM1C",
)
GOOD_TYPES = ("1", "2", "3", "4", "5", "6", "7", "8")


def _numbers(value: Any) -> Iterable[float]:
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield float(value)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers(v)


def de_minimis_amounts() -> list[float]:
    """Return every de minimis amount (sq ft) of the parameter tree, read from it."""
    params = default_parameters()
    amounts: set[float] = set()
    for key in params:
        if not key.startswith("de_minimis.") or "percent" in key or "type_groups" in key:
            continue
        try:
            value = params.value(key, AS_OF)
        except Exception:  # a key without a value on the date, or not a number
            continue
        amounts |= {v for v in _numbers(value) if v > 1}
    return sorted(amounts)


AMOUNTS = de_minimis_amounts()
#: Relative offsets from a threshold: at it, just under and over, and a little further.
OFFSETS = (0.0, -1e-6, 1e-6, -1e-3, 1e-3, -0.02, 0.02)


@st.composite
def areas_sqft(draw: st.DrawFn, near_thresholds: bool = True) -> float:
    """Draw an impact area in sq ft: at and around a de minimis amount, or anywhere."""
    if near_thresholds and draw(st.booleans()):
        amount = draw(st.sampled_from(AMOUNTS))
        offset = draw(st.sampled_from(OFFSETS))
        sqft = draw(st.sampled_from((amount * (1 + offset), amount + 1, amount - 1)))
        return max(sqft, 0.01)
    return draw(st.floats(min_value=1.0, max_value=60_000.0, allow_nan=False))


def square(x: float, y: float, sqft: float) -> Polygon:
    """Return a square of ``sqft`` square feet with its lower left corner at (x, y)."""
    side = math.sqrt(sqft) * FT
    return box(x, y, x + side, y + side)


@st.composite
def geometries(draw: st.DrawFn, x: float, y: float) -> Any:
    """Draw one impact geometry near (x, y): good, odd or broken."""
    sqft = draw(areas_sqft())
    poly = square(x, y, sqft)
    side = math.sqrt(sqft) * FT
    kind = draw(
        st.sampled_from(
            (
                "square",
                "square",
                "square",
                "holed",
                "multi",
                "sliver",
                "bowtie",
                "none",
                "empty",
                "point",
                "line",
                "collection",
                "tiny",
                "z",
                "absurd",
                "nan",
            )
        )
    )
    if kind == "holed":
        hole = box(x + side / 4, y + side / 4, x + side / 2, y + side / 2)
        return Polygon(poly.exterior.coords, [hole.exterior.coords])
    if kind == "multi":
        return MultiPolygon([poly, square(x + side * 2, y, sqft / 2)])
    if kind == "sliver":
        return Polygon([(x, y), (x + side, y), (x + side, y + 1e-7)])
    if kind == "bowtie":
        return Polygon([(x, y), (x + side, y + side), (x + side, y), (x, y + side)])
    if kind == "none":
        return None
    if kind == "empty":
        return Polygon()
    if kind == "point":
        return Point(x, y)
    if kind == "line":
        return LineString([(x, y), (x + side, y + side)])
    if kind == "collection":
        return GeometryCollection([poly, LineString([(x, y), (x - side, y - side)])])
    if kind == "tiny":
        return square(x, y, 0.01)
    if kind == "absurd":
        return box(1e300, 1e300, 2e300, 2e300)
    if kind == "nan":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # shapely: invalid value
            return Polygon([(x, y), (x + side, y), (float("nan"), y + side)])
    if kind == "z":
        return Polygon([(px, py, 10.0) for px, py in poly.exterior.coords])
    return poly


def _offset(draw: st.DrawFn, anchor: tuple[float, float], spread: float) -> tuple[float, float]:
    dx = draw(st.floats(min_value=-spread, max_value=spread, allow_nan=False))
    dy = draw(st.floats(min_value=-spread, max_value=spread, allow_nan=False))
    return anchor[0] + dx, anchor[1] + dy


_DELIMITERS = ("{{", "}}", "{%", "%}", "{#", "#}", "${", "<%", "%>", "<", ">", "&", "'", '"')


@st.composite
def template_text(draw: st.DrawFn) -> str:
    """Draw text built around template delimiters, or a value of the hostile corpus.

    Includes the payloads of ``tests/hostile.py`` that would create the canary folder if
    any template engine rendered them (issue 19), and text that opens, closes and nests
    Jinja, Django and other engines' delimiters at random.
    """
    if draw(st.booleans()):
        return draw(st.sampled_from(TEMPLATE_PAYLOADS if draw(st.booleans()) else HOSTILE_TEXT))
    parts = draw(
        st.lists(
            st.one_of(st.sampled_from(_DELIMITERS), st.text(max_size=6)), min_size=1, max_size=8
        )
    )
    return "".join(parts)


@st.composite
def hostile_layers(draw: st.DrawFn) -> tuple[gpd.GeoDataFrame, str | None]:
    """Draw an impact layer as analysts hand them over; return it and its CRS (or None)."""
    n = draw(st.integers(min_value=0, max_value=6))
    geoms, ids, types, projects, acres, land, cedar = [], [], [], [], [], [], []
    for k in range(n):
        if k and draw(st.integers(0, 5)) == 0:  # a duplicate of the row before
            geoms.append(geoms[-1])
        else:
            x, y = _offset(draw, draw(st.sampled_from(ANYWHERE)), 150.0)
            geoms.append(draw(geometries(x, y)))
        ids.append(
            draw(st.sampled_from((f"i{k}", f"i{k}", k, float(k), None, "i0")) | template_text())
        )
        types.append(draw(st.sampled_from(TYPE_VALUES)))
        projects.append(draw(st.sampled_from(("P1", "P1", "P2", None)) | template_text()))
        acres.append(draw(st.sampled_from((None, 5.0, 12.5, "ten", "", "3,5", 1e9))))
        land.append(draw(st.sampled_from((None, "agricultural", "urban", 7))))
        cedar.append(draw(st.sampled_from((None, True, "yes", "maybe", 2.5, 0))))
    columns = {
        "impact_id": ids,
        "circ39": types,
        "project": projects,
        "wetland_ac": acres,
        "land_use": land,
        "cedar_tam": cedar,
    }
    dropped = draw(st.sets(st.sampled_from(sorted(columns)), max_size=len(columns)))
    data = {k: pd.Series(v, dtype=object) for k, v in columns.items() if k not in dropped}
    # columns named like the output's, in any case, and odd names
    for name in draw(
        st.sets(
            st.sampled_from(
                ("Outcome", "STATUS", "area_sqft", "County", "reasons", "Étang", "1", "zone")
            ),
            max_size=3,
        )
    ):
        data[name] = pd.Series([draw(st.sampled_from(("x", 1, None)))] * n, dtype=object)
    frame = gpd.GeoDataFrame(
        data, geometry=gpd.GeoSeries(geoms, crs="EPSG:26915"), crs="EPSG:26915"
    )
    if n and draw(st.booleans()):  # a repeated index, as pd.concat of two layers gives
        frame.index = [k % 2 for k in range(n)]
    crs = draw(st.sampled_from((*CRSS, None)))
    if crs is None:
        return frame.set_crs(None, allow_override=True), None
    if crs != "EPSG:26915":
        frame = frame.to_crs(crs)
    return frame, crs


@st.composite
def valid_layers(
    draw: st.DrawFn,
    places: tuple[tuple[float, float], ...] = INTERIOR,
    near_thresholds: bool = True,
    min_rows: int = 1,
) -> gpd.GeoDataFrame:
    """Draw a clean layer (unique ids, valid types, separate squares) in EPSG:26915."""
    n = draw(st.integers(min_value=min_rows, max_value=5))
    geoms, types, projects = [], [], []
    for k in range(n):
        anchor = draw(st.sampled_from(places))
        # one column of squares per row, so that no two impacts overlap
        x, y = (
            anchor[0] + 400.0 * k - 800.0,
            anchor[1] + draw(st.floats(min_value=-100.0, max_value=100.0, allow_nan=False)),
        )
        geoms.append(square(x, y, draw(areas_sqft(near_thresholds=near_thresholds))))
        types.append(draw(st.sampled_from(GOOD_TYPES)))
        projects.append(draw(st.sampled_from(("P1", "P2"))))
    return gpd.GeoDataFrame(
        {"impact_id": [f"i{k}" for k in range(n)], "circ39": types, "project": projects},
        geometry=geoms,
        crs="EPSG:26915",
    )
