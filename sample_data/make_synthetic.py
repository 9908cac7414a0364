"""Generate the SYNTHETIC sample layers and sample projects of wetland_gis.

Every layer written here is made up. The watersheds, bank service areas,
public waters, city, fen, candidate sites, impacts and wetland banks only look
plausible so that the package can be demonstrated and tested offline; they must
never be used for a real decision. Real users download the DNR, BWSR and NWI
layers from the Minnesota Geospatial Commons.

What is real: the county outlines (US Census 2016 cartographic boundaries,
``mn_counties_cb2016_500k.geojson``) from which the bank service areas are
grouped, and the Crow Wing County lidar DEM and sink rasters on which the Crow
Wing candidate sites are drawn.

Run ``python sample_data/make_synthetic.py`` to rewrite the outputs. The script
uses fixed seeds, reads only files in ``sample_data/``, needs no network and is
idempotent: two runs write identical layers (GeoPackage timestamps are pinned).

Outputs (relative to the output folder)
---------------------------------------
- ``synthetic_context.gpkg``: layers ``major_watersheds``, ``minor_watersheds``,
  ``bank_service_areas``, ``percentage_overrides``, ``public_water_basins``,
  ``public_watercourses``, ``incorporated_areas``, ``lgus``, ``calcareous_fens``
  (EPSG:26915, the contract of ``docs/data_schema.md``).
- ``projects/wright_metro/`` and ``projects/crow_wing/``: ``impacts`` and
  ``candidate_sites`` as shapefile and GeoPackage.
- ``synthetic_bank_credits.csv`` and ``synthetic_bank_credits.gpkg``.
- ``projects/county_road/footprint.gpkg``: by ``make_footprints.py`` (issue 35).
"""

from __future__ import annotations

import importlib.util
import math
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import rasterio
import shapely
import shapely.affinity
from pyproj import Transformer
from rasterio import features
from shapely.geometry import LineString, MultiPoint, MultiPolygon, Point, Polygon
from shapely.ops import nearest_points, polylabel

from wetland_gis.io.bank_listing import BANK_FIELDS

__all__ = [
    "main",
    "BSA_COUNTIES",
    "WRIGHT_CENTER",
    "SEED",
]

HERE = Path(__file__).resolve().parent
CRS = "EPSG:26915"
SEED = 103_222  # after Minn. Stat. § 103G.222; any fixed integer would do
FOOT = 0.3048  # international foot, metres
SQFT_PER_ACRE = 43_560.0
SQM_PER_ACRE = SQFT_PER_ACRE * FOOT * FOOT
GPKG_DATE = "2024-01-01T00:00:00.000Z"  # pinned GeoPackage timestamp (byte-identical reruns)
DBF_DATE = "2024-01-01"  # pinned .dbf header date, for the same reason

COUNTIES_FILE = "mn_counties_cb2016_500k.geojson"
DEM_FILE = "crow_wing_lidar_dem_1m.tif"
SINK_FILE = "crow_wing_lidar_sink_1m.tif"

WARNING = (
    "SYNTHETIC sample data made by sample_data/make_synthetic.py: never use for real decisions."
)

# Synthetic bank service areas: unions of whole real counties, loosely after the
# river basins. NOT the BWSR layer (only "Hennepin County lies in BSA 7" is known).
BSA_COUNTIES: dict[int, tuple[str, ...]] = {
    1: ("Kittson", "Roseau", "Marshall", "Pennington", "Red Lake", "Polk"),
    2: ("Lake of the Woods", "Koochiching", "Beltrami"),
    3: ("Cook", "Lake", "St. Louis", "Carlton"),
    4: (
        "Norman",
        "Mahnomen",
        "Clay",
        "Becker",
        "Wilkin",
        "Otter Tail",
        "Grant",
        "Traverse",
        "Stevens",
    ),
    5: ("Clearwater", "Hubbard", "Cass", "Crow Wing", "Aitkin", "Wadena", "Itasca"),
    6: (
        "Todd",
        "Morrison",
        "Mille Lacs",
        "Kanabec",
        "Pine",
        "Benton",
        "Stearns",
        "Sherburne",
        "Isanti",
        "Chisago",
        "Douglas",
        "Pope",
    ),
    7: ("Wright", "Hennepin", "Anoka", "Ramsey", "Washington", "Dakota", "Scott", "Carver"),
    8: (
        "Big Stone",
        "Lac qui Parle",
        "Swift",
        "Chippewa",
        "Kandiyohi",
        "Yellow Medicine",
        "Renville",
        "Lyon",
        "Redwood",
        "Brown",
        "Nicollet",
        "Sibley",
        "Le Sueur",
        "Blue Earth",
        "Watonwan",
        "Meeker",
        "McLeod",
    ),
    9: (
        "Rice",
        "Goodhue",
        "Wabasha",
        "Winona",
        "Houston",
        "Fillmore",
        "Olmsted",
        "Dodge",
        "Steele",
        "Mower",
        "Freeborn",
        "Waseca",
    ),
    10: (
        "Pipestone",
        "Rock",
        "Nobles",
        "Murray",
        "Cottonwood",
        "Jackson",
        "Martin",
        "Faribault",
        "Lincoln",
    ),
}

# Counties of the less-than-50-percent class (Minn. R. 8420.0117, subp. 1), used only to
# place candidate sites and the override where the intended situation holds. The analyzer
# itself reads this classification from its parameters, not from here.
LESS_THAN_50 = frozenset(
    {
        "Big Stone",
        "Blue Earth",
        "Brown",
        "Carver",
        "Chippewa",
        "Clay",
        "Cottonwood",
        "Dakota",
        "Dodge",
        "Douglas",
        "Faribault",
        "Fillmore",
        "Freeborn",
        "Goodhue",
        "Grant",
        "Hennepin",
        "Houston",
        "Jackson",
        "Kandiyohi",
        "Kittson",
        "Lac qui Parle",
        "Le Sueur",
        "Lincoln",
        "Lyon",
        "Mahnomen",
        "Marshall",
        "Martin",
        "McLeod",
        "Meeker",
        "Mower",
        "Murray",
        "Nicollet",
        "Nobles",
        "Norman",
        "Olmsted",
        "Pennington",
        "Pipestone",
        "Polk",
        "Pope",
        "Ramsey",
        "Red Lake",
        "Redwood",
        "Renville",
        "Rice",
        "Rock",
        "Roseau",
        "Scott",
        "Sibley",
        "Stearns",
        "Steele",
        "Stevens",
        "Swift",
        "Traverse",
        "Wabasha",
        "Waseca",
        "Washington",
        "Watonwan",
        "Wilkin",
        "Winona",
        "Wright",
        "Yellow Medicine",
    }
)

# Centre of the Wright County sample project (EPSG:26915), ~20 km inside the county.
WRIGHT_CENTER = (422_000.0, 5_003_000.0)
OVERRIDE_COUNTY = "Polk"  # a less-than-50 county far (~300 km) from the Wright project
SQKM = 1e6
MAJOR_AREA = 2_900 * SQKM  # target area of a synthetic major watershed
MINOR_AREA = 350 * SQKM  # target area of a synthetic minor watershed

OVERRIDE_CITATION = "SYNTHETIC example of a reclassification under Minn. R. 8420.0117, subp. 2"


# --------------------------------------------------------------------------- geometry helpers


def _polygonal(geom: shapely.Geometry) -> Polygon | MultiPolygon:
    """Return the valid polygonal part of ``geom`` (lines and points dropped)."""
    geom = shapely.make_valid(geom)
    parts = [p for p in shapely.get_parts(geom) if p.geom_type == "Polygon" and p.area > 0]
    if not parts:
        return Polygon()
    out = shapely.union_all(parts)
    return out if out.is_valid else shapely.make_valid(out)


def _parts(geom: shapely.Geometry) -> list[Polygon]:
    return [p for p in shapely.get_parts(geom) if p.geom_type == "Polygon"]


def _largest_part(geom: shapely.Geometry) -> Polygon:
    return max(_parts(geom), key=lambda p: p.area)


def _to_multi(geom: shapely.Geometry) -> MultiPolygon:
    return MultiPolygon(_parts(geom))


def _blob(
    center: tuple[float, float],
    area_m2: float,
    *,
    aspect: float = 0.65,
    angle_deg: float = 0.0,
    wobble: float = 0.08,
    phase: float = 0.0,
    n: int = 48,
) -> Polygon:
    """Irregular ellipse of exactly ``area_m2`` square metres (before rounding to 1 cm)."""
    t = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    r = 1.0 + wobble * (0.6 * np.sin(3 * t + phase) + 0.4 * np.sin(5 * t + 2.0 * phase))
    x, y = r * np.cos(t), aspect * r * np.sin(t)
    a = math.radians(angle_deg)
    xr, yr = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    unit = Polygon(np.column_stack([xr, yr]))
    k = math.sqrt(area_m2 / unit.area)
    coords = np.column_stack([center[0] + k * xr, center[1] + k * yr])
    return Polygon(np.round(coords, 2))


def _offset(origin: tuple[float, float], dx: float, dy: float) -> tuple[float, float]:
    return (origin[0] + dx, origin[1] + dy)


def _inner_point(region: shapely.Geometry, hint: tuple[float, float], inset: float) -> Point:
    """Point of ``region`` shrunk by ``inset`` metres that is nearest to ``hint``."""
    inner = region.buffer(-inset)
    if inner.is_empty:
        raise ValueError(f"region too small for an inset of {inset} m")
    return nearest_points(inner, Point(hint))[0]


# --------------------------------------------------------------------------- watersheds


def _seed_points(
    region: shapely.Geometry,
    n: int,
    rng: np.random.Generator,
    anchors: Iterable[tuple[float, float]] = (),
) -> list[Point]:
    """Scatter ``n`` seed points in ``region``, anchors first, at a minimum spacing."""
    shapely.prepare(region)
    pts = [Point(a) for a in anchors if region.contains(Point(a))]
    min_dist = 0.65 * math.sqrt(region.area / n)
    minx, miny, maxx, maxy = region.bounds
    tries = 0
    while len(pts) < n:
        tries += 1
        if tries % 2_000 == 0:
            min_dist *= 0.9
        p = Point(rng.uniform(minx, maxx), rng.uniform(miny, maxy))
        if region.contains(p) and all(p.distance(q) >= min_dist for q in pts):
            pts.append(p)
    return pts


def _voronoi_tiles(region: shapely.Geometry, seeds: Sequence[Point]) -> list[shapely.Geometry]:
    """Voronoi cells of ``seeds`` clipped to ``region``, one tile per seed.

    A clipped cell can fall apart where the region is not convex. Each detached
    piece is handed to the neighbouring tile it shares the longest edge with, so
    tiles stay contiguous where the region is; islands stay with their own cell.
    """
    envelope = region.envelope.buffer(10_000.0)
    cells = shapely.voronoi_polygons(MultiPoint(list(seeds)), extend_to=envelope, ordered=True)
    cores: list[list[Polygon]] = []
    orphans: list[tuple[int, Polygon]] = []
    for i, (cell, seed) in enumerate(zip(shapely.get_parts(cells), seeds, strict=True)):
        parts = _parts(_polygonal(cell.intersection(region)))
        core = next((p for p in parts if p.covers(seed)), max(parts, key=lambda p: p.area))
        cores.append([core])
        orphans.extend((i, p) for p in parts if p is not core)
    for owner, piece in sorted(orphans, key=lambda o: -o[1].area):
        touch = piece.buffer(1.0)
        shared = [sum(touch.intersection(c).area for c in core) for core in cores]
        shared[owner] = 0.0
        best = int(np.argmax(shared))
        cores[best if shared[best] > 0 else owner].append(piece)
    return [_polygonal(shapely.union_all(core)) for core in cores]


def make_bank_service_areas(counties: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """Group whole real counties into the synthetic bank service areas."""
    names = set(counties["NAME"])
    listed = [c for group in BSA_COUNTIES.values() for c in group]
    if sorted(listed) != sorted(names):
        raise ValueError("BSA_COUNTIES must list every Minnesota county exactly once")
    rows = []
    for bsa, members in BSA_COUNTIES.items():
        geom = _polygonal(shapely.union_all(counties[counties["NAME"].isin(members)].geometry))
        rows.append(
            {
                "bsa": bsa,
                "bsa_name": f"Synthetic BSA {bsa}",
                "member_counties": ", ".join(sorted(members)),
                "geometry": _to_multi(geom),
            }
        )
    return gpd.GeoDataFrame(rows, crs=CRS)


def make_major_watersheds(
    bsas: gpd.GeoDataFrame, anchors: Sequence[tuple[float, float]]
) -> gpd.GeoDataFrame:
    """Voronoi major watersheds nested in each bank service area, numbered 1..N."""
    rows = []
    for bsa, region in zip(bsas["bsa"], bsas.geometry, strict=True):
        rng = np.random.default_rng([SEED, 1, int(bsa)])
        n = int(np.clip(round(region.area / MAJOR_AREA), 3, 8))
        tiles = _voronoi_tiles(region, _seed_points(region, n, rng, anchors))
        tiles.sort(key=lambda g: (-round(g.centroid.y), round(g.centroid.x)))
        rows.extend({"bsa": int(bsa), "geometry": g} for g in tiles)
    majors = gpd.GeoDataFrame(rows, crs=CRS)
    majors.insert(0, "major", np.arange(1, len(majors) + 1, dtype="int64"))
    majors.insert(1, "major_name", [f"Synthetic major {m}" for m in majors["major"]])
    majors["geometry"] = [_to_multi(g) for g in majors.geometry]
    if len(majors) > 81:
        raise ValueError(f"{len(majors)} majors, but DNR numbers only 81")
    return majors


def make_minor_watersheds(
    majors: gpd.GeoDataFrame, anchors: Sequence[tuple[float, float]]
) -> gpd.GeoDataFrame:
    """Voronoi minor watersheds nested in every major watershed (ids like ``"18-03"``)."""
    rows = []
    for major, region in zip(majors["major"], majors.geometry, strict=True):
        rng = np.random.default_rng([SEED, 2, int(major)])
        n = int(np.clip(round(region.area / MINOR_AREA), 6, 12))
        tiles = _voronoi_tiles(region, _seed_points(region, n, rng, anchors))
        tiles.sort(key=lambda g: (-round(g.centroid.y), round(g.centroid.x)))
        for k, g in enumerate(tiles, start=1):
            rows.append(
                {
                    "minor": f"{major}-{k:02d}",
                    "major": int(major),
                    "minor_name": f"Synthetic minor {major}-{k:02d}",
                    "geometry": _to_multi(g),
                }
            )
    return gpd.GeoDataFrame(rows, crs=CRS)


def _which(layer: gpd.GeoDataFrame, geom: shapely.Geometry, field: str) -> object:
    """Value of ``field`` of the feature of ``layer`` that holds most of ``geom``."""
    if geom.geom_type == "Point":
        hit = layer[layer.geometry.covers(geom)]
        if len(hit) != 1:
            raise AssertionError(f"{geom} lies in {len(hit)} features of the {field} layer")
        return hit[field].iloc[0]
    overlap = layer.geometry.intersection(geom).area
    return layer[field].iloc[int(np.argmax(overlap.to_numpy()))]


# --------------------------------------------------------------------------- Wright project


def wright_features(wright: shapely.Geometry) -> dict[str, object]:
    """Lake, river, city, fen and the seven impacts of the Wright County project.

    All coordinates are offsets in metres from :data:`WRIGHT_CENTER`. The intended
    situations are asserted at the end, so a change that breaks one fails loudly.
    """
    c = WRIGHT_CENTER
    lake = _blob(c, 190 * SQM_PER_ACRE, aspect=0.52, angle_deg=12.0, wobble=0.06, n=96)
    zone_m = 1_000 * FOOT  # shoreland wetland protection zone of a basin (§ 103G.005, subd. 15f)

    # W-5: a strip 3-12 m (about 10-39 ft) outside the OHWL on the south shore.
    south = nearest_points(lake.exterior, Point(_offset(c, 0, -2_000)))[0]
    band = lake.buffer(12.0).difference(lake.buffer(3.0))
    box = shapely.box(south.x - 11, south.y - 40, south.x + 11, south.y + 40)
    w5 = Polygon(np.round(_largest_part(band.intersection(box)).exterior.coords, 2))

    # W-4: straddles the 1,000 ft line east of the lake.
    ray = LineString([c, _offset(c, 5_000, 0)])
    crossing = lake.buffer(zone_m, quad_segs=32).exterior.intersection(ray)
    w4 = _blob((crossing.x, crossing.y), 900.0, aspect=0.6, angle_deg=5.0, phase=0.4)

    fen = _blob(
        _offset(c, -1_500, 1_100), 4.0 * SQM_PER_ACRE, aspect=0.6, angle_deg=-20, phase=1.1, n=64
    )
    river = LineString(
        np.round(
            [
                nearest_points(lake.exterior, Point(_offset(c, -2_000, 0)))[0].coords[0],
                _offset(c, -1_100, 150),
                _offset(c, -1_600, -50),
                _offset(c, -2_200, 200),
                _offset(c, -3_000, 100),
                _offset(c, -3_700, 420),
                _offset(c, -4_600, 330),
                _offset(c, -5_400, 610),
            ],
            2,
        )
    )
    city = _polygonal(
        _blob(
            _offset(c, 1_500, -800), math.pi * 1_300 * 1_000, aspect=0.77, wobble=0.05, n=64
        ).intersection(wright)
    )

    sqft = FOOT * FOOT
    impacts = [
        # id, geometry, circ39, attribute, cedar_tam, impact, land_use, wetland_ac
        (
            "W-1",
            _blob(_offset(c, 1_400, -900), 700 * sqft, aspect=0.6, phase=0.3),
            "2",
            "PEM1B",
            0,
            "fill",
            "nonagricultural",
            0.4,
        ),
        (
            "W-2",
            _blob(
                _offset(c, -600, -1_200), 0.3 * SQM_PER_ACRE, aspect=0.66, angle_deg=30, phase=0.8
            ),
            "Type 3",
            "PEM1C",
            0,
            "fill",
            "nonagricultural",
            2.6,
        ),
        (
            "W-3",
            _blob(_offset(c, 1_900, 600), 3_000 * sqft, aspect=0.62, angle_deg=-15, phase=1.7),
            "T7",
            "PFO1B",
            0,
            "fill",
            "nonagricultural",
            1.8,
        ),
        ("W-4", w4, "type 3/4", "PEM1F", 0, "excavate", "nonagricultural", 5.2),
        ("W-5", w5, "6", "PSS1C", 0, "fill", "nonagricultural", 0.9),
        (
            "W-6",
            _blob(_offset(c, -1_500, 1_100), 800 * sqft, aspect=0.7, phase=2.2),
            "type 2",
            "PEM1B",
            0,
            "drain",
            "nonagricultural",
            round(fen.area / SQM_PER_ACRE, 1),
        ),
        (
            "W-7",
            _blob(_offset(c, 300, -1_500), 8_000 * sqft, aspect=0.55, angle_deg=70, phase=2.9),
            "",
            "PEM1C",
            0,
            "drain",
            "agricultural",
            1.1,
        ),
    ]
    gdf = gpd.GeoDataFrame(
        [
            {
                "impact_id": i,
                "project": "Wright metro sample",
                "circ39": t,
                "attribute": a,
                "cedar_tam": ct,
                "impact": k,
                "land_use": lu,
                "wetland_ac": wa,
                "geometry": g,
            }
            for i, g, t, a, ct, k, lu, wa in impacts
        ],
        crs=CRS,
    )
    gdf["cedar_tam"] = gdf["cedar_tam"].astype("int32")

    # The intended situations, checked here and again in tests/test_sample_data.py.
    geoms = dict(zip(gdf["impact_id"], gdf.geometry, strict=True))
    assert all(wright.contains(g) for g in geoms.values())
    assert not any(g.intersects(lake) for g in geoms.values())
    for name in ("W-1", "W-2", "W-3", "W-6", "W-7"):
        assert geoms[name].distance(lake) > zone_m + 30, name
        assert geoms[name].distance(river) > 300 * FOOT + 30, name
    inside = geoms["W-4"].intersection(lake.buffer(zone_m, quad_segs=32)).area
    assert 0.3 < inside / geoms["W-4"].area < 0.7
    assert lake.buffer(40 * FOOT).contains(geoms["W-5"])
    assert fen.contains(geoms["W-6"])
    return {"lake": lake, "river": river, "city": city, "fen": fen, "impacts": gdf}


def _site(
    site_id: str,
    center: tuple[float, float],
    acres: float,
    action: str,
    circ39: str,
    credit_share: float,
    cost_per_credit: float,
    phase: float,
) -> dict[str, object]:
    geom = _blob(center, acres * SQM_PER_ACRE, aspect=0.7, angle_deg=25 * phase, phase=phase)
    credit = math.floor(credit_share * geom.area / SQM_PER_ACRE * 10) / 10
    return {
        "site_id": site_id,
        "action": action,
        "circ39": circ39,
        "credit_ac": credit,
        "cost_usd": float(round(credit * cost_per_credit, -2)),
        "geometry": geom,
    }


def wright_sites(
    counties: gpd.GeoDataFrame,
    bsas: gpd.GeoDataFrame,
    majors: gpd.GeoDataFrame,
    minors: gpd.GeoDataFrame,
    override: shapely.Geometry,
) -> gpd.GeoDataFrame:
    """Candidate replacement sites of the Wright project, one per siting situation."""
    c = WRIGHT_CENTER
    here = Point(c)
    wright = counties.loc[counties["NAME"] == "Wright"].geometry.iloc[0]
    major = _which(majors, here, "major")
    minor = _which(minors, here, "minor")
    bsa = _which(bsas, here, "bsa")
    low = shapely.union_all(counties.loc[counties["NAME"].isin(LESS_THAN_50)].geometry)
    same_major_other_minor = shapely.union_all(
        minors.loc[(minors["major"] == major) & (minors["minor"] != minor)].geometry
    ).intersection(wright)
    same_bsa_other_major = shapely.union_all(
        majors.loc[(majors["bsa"] == bsa) & (majors["major"] != major)].geometry
    ).intersection(low)
    other_bsa = shapely.union_all(majors.loc[majors["bsa"] != bsa].geometry).intersection(low)
    isanti = counties.loc[counties["NAME"] == "Isanti"].geometry.iloc[0]
    o_pt = polylabel(_largest_part(override), 10.0)

    rows = [
        _site("S-1", _offset(c, 2_600, -2_200), 4.0, "restoration", "3", 0.9, 21_000, 0.2),
        _site(
            "S-2",
            _inner_point(same_major_other_minor, c, 800).coords[0],
            6.0,
            "restoration",
            "2",
            0.85,
            18_000,
            0.9,
        ),
        _site(
            "S-3",
            _inner_point(same_bsa_other_major, c, 800).coords[0],
            2.5,
            "creation",
            "3",
            0.75,
            35_000,
            1.6,
        ),
        _site(
            "S-4",
            _inner_point(other_bsa, c, 800).coords[0],
            8.0,
            "restoration",
            "3",
            0.9,
            12_000,
            2.3,
        ),
        _site("S-5", (o_pt.x, o_pt.y), 9.0, "restoration", "2", 0.9, 6_000, 3.0),
        _site(
            "S-6",
            _inner_point(isanti, c, 1_500).coords[0],
            3.0,
            "restoration",
            "6",
            0.8,
            9_000,
            3.7,
        ),
    ]
    sites = gpd.GeoDataFrame(rows, crs=CRS)
    g = dict(zip(sites["site_id"], sites.geometry, strict=True))
    assert _which(minors, g["S-1"], "minor") == minor
    assert _which(majors, g["S-2"], "major") == major
    assert _which(minors, g["S-2"], "minor") != minor
    assert _which(bsas, g["S-3"], "bsa") == bsa and _which(majors, g["S-3"], "major") != major
    assert _which(bsas, g["S-4"], "bsa") != bsa
    assert override.contains(g["S-5"])
    assert isanti.contains(g["S-6"])
    for geom in g.values():
        assert minors.geometry.covers(geom).sum() == 1  # never straddles a minor boundary
    return sites


def make_override(
    counties: gpd.GeoDataFrame, majors: gpd.GeoDataFrame, minors: gpd.GeoDataFrame
) -> gpd.GeoDataFrame:
    """Part of one major watershed in Polk County, reclassified greater than 80 percent.

    The part is the Polk County share of the minor watershed at the pole of
    inaccessibility of the major watershed that covers most of Polk County.
    """
    polk = counties.loc[counties["NAME"] == OVERRIDE_COUNTY].geometry.iloc[0]
    overlap = majors.geometry.intersection(polk)
    i = int(np.argmax(overlap.area.to_numpy()))
    major = int(majors["major"].iloc[i])
    center = polylabel(_largest_part(overlap.iloc[i]), 10.0)
    minor = _which(minors[minors["major"] == major], center, "minor")
    geom = minors.loc[minors["minor"] == minor].geometry.iloc[0].intersection(polk)
    geom = _largest_part(_polygonal(geom))
    return gpd.GeoDataFrame(
        [
            {
                "pct_class": "greater_than_80_percent",
                "citation": OVERRIDE_CITATION,
                "major": major,
                "override_name": "Synthetic override 1",
                "geometry": _to_multi(geom),
            }
        ],
        crs=CRS,
    )


# --------------------------------------------------------------------------- Crow Wing project


def crow_wing_features(data_dir: Path, crow_wing: shapely.Geometry) -> dict[str, object]:
    """Impacts, a natural environment lake and depression sites on the Crow Wing DEM."""
    with rasterio.open(data_dir / DEM_FILE) as dem:
        b = dem.bounds
    with rasterio.open(data_dir / SINK_FILE) as src:
        sink = src.read(1)
        transform = src.transform
        is_sink = (sink > 0) & (sink != src.nodata)
    x0, y0 = b.left, b.bottom  # offsets below are metres from the DEM's south-west corner
    sqft = FOOT * FOOT
    impacts = gpd.GeoDataFrame(
        [
            {
                "impact_id": "C-1",
                "project": "Crow Wing sample",
                "circ39": "2",
                "attribute": "PEM1B",
                "cedar_tam": 0,
                "impact": "fill",
                "land_use": "nonagricultural",
                "wetland_ac": 0.9,
                "geometry": _blob(
                    (x0 + 175, y0 + 335), 6_000 * sqft, aspect=0.6, angle_deg=20, phase=0.5
                ),
            },
            {
                "impact_id": "C-2",
                "project": "Crow Wing sample",
                "circ39": "Type 3",
                "attribute": "PEM1F",
                "cedar_tam": 0,
                "impact": "fill",
                "land_use": "nonagricultural",
                "wetland_ac": 1.6,
                "geometry": _blob(
                    (x0 + 235, y0 + 40), 0.4 * SQM_PER_ACRE, aspect=0.55, angle_deg=-10, phase=1.3
                ),
            },
        ],
        crs=CRS,
    )
    impacts["cedar_tam"] = impacts["cedar_tam"].astype("int32")

    # Depression bottoms: sink cells below a level, as connected pieces.
    def pieces(level: float) -> list[Polygon]:
        mask = is_sink & (sink <= level)
        shapes = features.shapes(
            mask.astype("uint8"), mask=mask, transform=transform, connectivity=4
        )
        return sorted((shapely.geometry.shape(g) for g, _ in shapes), key=lambda p: -p.area)

    low = pieces(385.0)[:3]  # the three deepest bottoms
    west = next(p for p in pieces(392.0) if not any(p.intersects(q) for q in low))
    plans = [
        ("CW-S1", low[0], "restoration", "3", 0.9, 9_000),
        ("CW-S2", low[1], "restoration", "3", 0.9, 8_000),
        ("CW-S3", west, "creation", "2", 0.75, 11_000),
        ("CW-S4", low[2], "restoration", "2", 0.8, 8_500),
    ]
    rows = []
    for site_id, raw, action, circ39, share, cost in plans:
        geom = _polygonal(raw.buffer(2.0, quad_segs=2).simplify(0.75))
        geom = Polygon(np.round(_largest_part(geom).exterior.coords, 2))
        credit = math.floor(share * geom.area / SQM_PER_ACRE * 100) / 100
        rows.append(
            {
                "site_id": site_id,
                "action": action,
                "circ39": circ39,
                "credit_ac": credit,
                "cost_usd": float(round(credit * cost, -2)),
                "geometry": geom,
            }
        )
    sites = gpd.GeoDataFrame(rows, crs=CRS)

    lake = _blob(
        (b.right + 900.0, b.top - 100.0),
        60 * SQM_PER_ACRE,
        aspect=0.6,
        angle_deg=-25,
        wobble=0.07,
        phase=0.6,
        n=96,
    )
    box = shapely.box(*b)
    assert all(box.buffer(-5).contains(g) for g in impacts.geometry)
    assert all(box.contains(g) for g in sites.geometry)
    assert all(crow_wing.contains(g) for g in [*impacts.geometry, lake])
    assert all(g.distance(lake) >= 1_250 * FOOT for g in impacts.geometry)
    assert not any(s.intersects(i) for s in sites.geometry for i in impacts.geometry)
    return {
        "impacts": impacts,
        "sites": sites,
        "lake": lake,
        "center": ((b.left + b.right) / 2, (b.bottom + b.top) / 2),
    }


# --------------------------------------------------------------------------- bank credits

# name, account, county, where, circ39, credits, price per credit (USD), program, hint (km)
# "where" picks the major: the Wright project's ("wright"), the Crow Wing project's
# ("crow_wing"), any other ("other"), or the greater-than-80 override ("override").
# Prices follow the anecdotal ranges of shared/reference/rules-facts.md: 5,000-15,000
# outside the seven-county metro, 15,000-100,000 inside it. All banks are fictional.
BANKS: tuple[tuple[str, str, str, str, str, float, float, str, tuple[float, float]], ...] = (
    (
        "Synthetic Bank Crow River North",
        "1201-S",
        "Wright",
        "wright",
        "3",
        4.2,
        14_500,
        "WCA",
        (-12.0, 9.0),
    ),
    (
        "Synthetic Bank Wright Meadows",
        "1202-S",
        "Wright",
        "wright",
        "2",
        2.5,
        13_000,
        "both",
        (10.0, -9.0),
    ),
    (
        "Synthetic Bank Minnehaha",
        "1310-S",
        "Hennepin",
        "other",
        "3",
        1.1,
        62_000,
        "both",
        (0.0, 0.0),
    ),
    (
        "Synthetic Bank Carver Prairie",
        "1322-S",
        "Carver",
        "other",
        "2",
        3.0,
        38_000,
        "404",
        (0.0, 0.0),
    ),
    ("Synthetic Bank Rum River", "1335-S", "Anoka", "other", "3", 1.8, 45_000, "WCA", (0.0, 0.0)),
    (
        "Synthetic Bank Meeker Marsh",
        "2140-S",
        "Meeker",
        "other",
        "3",
        6.0,
        9_500,
        "WCA",
        (0.0, 0.0),
    ),
    (
        "Synthetic Bank Sauk Valley",
        "2256-S",
        "Stearns",
        "other",
        "2",
        8.0,
        8_200,
        "both",
        (0.0, 0.0),
    ),
    (
        "Synthetic Bank Cannon Bottoms",
        "3071-S",
        "Rice",
        "other",
        "3",
        2.2,
        12_500,
        "both",
        (0.0, 0.0),
    ),
    (
        "Synthetic Bank Crow Wing Pines",
        "4418-S",
        "Crow Wing",
        "crow_wing",
        "3",
        5.5,
        6_500,
        "WCA",
        (-6.0, 4.0),
    ),
    (
        "Synthetic Bank Rainy Peatland",
        "4502-S",
        "Koochiching",
        "other",
        "2",
        20.0,
        12_200,
        "WCA",
        (0.0, 0.0),
    ),
    (
        "Synthetic Bank Red River Flats",
        "5133-S",
        "Polk",
        "override",
        "2",
        12.0,
        7_000,
        "WCA",
        (3.0, 2.0),
    ),
)


def make_bank_credits(
    counties: gpd.GeoDataFrame,
    bsas: gpd.GeoDataFrame,
    majors: gpd.GeoDataFrame,
    override: shapely.Geometry,
    crow_wing_center: tuple[float, float],
) -> gpd.GeoDataFrame:
    """Fictional wetland bank accounts placed inside their synthetic major and BSA."""
    to_ll = Transformer.from_crs(CRS, "EPSG:4326", always_xy=True)
    from_ll = Transformer.from_crs("EPSG:4326", CRS, always_xy=True)
    wright_major = _which(majors, Point(WRIGHT_CENTER), "major")
    cw_major = _which(majors, Point(crow_wing_center), "major")
    rows = []
    for name, account, county, where, circ39, credits, price, program, hint in BANKS:
        cgeom = counties.loc[counties["NAME"] == county].geometry.iloc[0]
        if where == "override":
            region, anchor = override, polylabel(_largest_part(override), 10.0)
        else:
            if where == "wright":
                keep = majors["major"] == wright_major
            elif where == "crow_wing":
                keep = majors["major"] == cw_major
            else:
                keep = ~majors["major"].isin([wright_major, cw_major])
            region = shapely.union_all(majors.loc[keep].geometry).intersection(cgeom)
            anchor = polylabel(_largest_part(region), 10.0)
        pt = _inner_point(
            region, _offset((anchor.x, anchor.y), 1e3 * hint[0], 1e3 * hint[1]), 1_000.0
        )
        lon, lat = (round(v, 6) for v in to_ll.transform(pt.x, pt.y))
        geom = Point(from_ll.transform(lon, lat))
        assert region.contains(geom), name
        rows.append(
            {
                "bank_name": name,
                "account": account,
                "county": county,
                "major": int(_which(majors, geom, "major")),
                "bsa": int(_which(bsas, geom, "bsa")),
                "circ39": circ39,
                "credits": credits,
                "price": int(price),
                "program": program,
                "lon": lon,
                "lat": lat,
                "geometry": geom,
            }
        )
    return gpd.GeoDataFrame(rows, crs=CRS)


# --------------------------------------------------------------------------- writing

DESCRIPTIONS = {
    "major_watersheds": "SYNTHETIC major watersheds: Voronoi cells of seeded points inside each "
    "synthetic bank service area, numbered 1-N. NOT the DNR Level 4 layer.",
    "minor_watersheds": "SYNTHETIC minor watersheds: Voronoi cells inside each synthetic major "
    "watershed, ids '<major>-<nn>'. NOT the DNR Level 7 layer.",
    "bank_service_areas": "SYNTHETIC bank service areas: unions of whole real counties (US Census "
    "2016 cartographic boundaries). NOT the BWSR layer.",
    "percentage_overrides": "SYNTHETIC example of a Minn. R. 8420.0117, subp. 2 reclassification "
    "of part of one synthetic major watershed. No such reclassification exists.",
    "public_water_basins": "SYNTHETIC public water basins (OHWL polygons) with invented shoreland "
    "classes. NOT the DNR public waters inventory.",
    "public_watercourses": "SYNTHETIC public watercourse with an invented shoreland class. NOT the "
    "DNR public waters inventory.",
    "incorporated_areas": "SYNTHETIC city boundary. NOT a real municipality.",
    "lgus": "SYNTHETIC local government unit records on real county outlines; the shoreland "
    "ordinance flags are invented.",
    "calcareous_fens": "SYNTHETIC calcareous fen. NOT on the DNR list of calcareous fens.",
    "impacts": "SYNTHETIC sample project impacts for wetland_gis demonstrations.",
    "candidate_sites": "SYNTHETIC candidate replacement sites for wetland_gis demonstrations.",
    "bank_credits": "SYNTHETIC wetland bank credit listing: every bank is fictional.",
}


#: GeoPackage version of the sample files, as the outputs (``GPKG_VERSION`` of
#: ``wetland_gis.io.qgis_styles``): GDAL 3.8+ writes 1.4, which QGIS 3.22 / GDAL 3.6 warn about.
GPKG_VERSION = "1.2"


def _write_gpkg(
    gdf: gpd.GeoDataFrame, path: Path, layer: str, description: str | None = None
) -> None:
    pyogrio.write_dataframe(
        gdf,
        path,
        layer=layer,
        driver="GPKG",
        dataset_options={} if path.exists() else {"VERSION": GPKG_VERSION},
        layer_options={
            "DESCRIPTION": f"{description or DESCRIPTIONS[layer]} {WARNING}",
            "IDENTIFIER": f"synthetic {layer}",
        },
        layer_metadata={
            "SYNTHETIC": "yes",
            "GENERATOR": "sample_data/make_synthetic.py",
            "WARNING": WARNING,
        },
    )


def _write_shp(gdf: gpd.GeoDataFrame, path: Path) -> None:
    for sidecar in path.parent.glob(path.stem + ".*"):
        if sidecar.suffix in {".shp", ".shx", ".dbf", ".prj", ".cpg", ".qix", ".qmd"}:
            sidecar.unlink()
    pyogrio.write_dataframe(
        gdf,
        path,
        driver="ESRI Shapefile",
        encoding="UTF-8",
        layer_options={"DBF_DATE_LAST_UPDATE": DBF_DATE},
    )
    if not path.with_suffix(".cpg").exists():
        path.with_suffix(".cpg").write_text("UTF-8")


def _write_project(folder: Path, impacts: gpd.GeoDataFrame, sites: gpd.GeoDataFrame) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, gdf in (("impacts", impacts), ("candidate_sites", sites)):
        too_long = [c for c in gdf.columns if len(c) > 10]
        if too_long:
            raise ValueError(f"shapefile field names longer than 10 characters: {too_long}")
        (folder / f"{name}.gpkg").unlink(missing_ok=True)
        _write_gpkg(gdf, folder / f"{name}.gpkg", name)
        _write_shp(gdf, folder / f"{name}.shp")


#: The alternatives of each sample project for `wetland-gis compare` (issue 20 §3): a reduced
#: footprint (the impacts kept, each shrunk to this share of its area about its centroid) and
#: an alternative that avoids the wetlands entirely (a layer with no features).
ALTERNATIVES = {
    "wright_metro": {"drop": ("W-2", "W-6"), "share": 0.5},
    "crow_wing": {"drop": (), "share": 0.4},
    # issue 20: the exemption sample projects (drop one impact, halve the other)
    "crow_wing_farm": {"drop": ("F-2",), "share": 0.5},
    "county_road": {"drop": ("R-2",), "share": 0.5},
}


def _write_alternatives(
    folder: Path, impacts: gpd.GeoDataFrame, drop: Sequence[str], share: float
) -> None:
    """Write ``alternatives/reduced.gpkg`` and ``alternatives/avoid.gpkg`` of one project."""
    alt = folder / "alternatives"
    alt.mkdir(parents=True, exist_ok=True)
    reduced = impacts[~impacts["impact_id"].isin(drop)].copy()
    factor = share**0.5
    reduced["geometry"] = [
        shapely.affinity.scale(g, xfact=factor, yfact=factor, origin="centroid")
        for g in reduced.geometry
    ]
    kept = ", ".join(reduced["impact_id"])
    dropped = ", ".join(drop) or "none"
    for name, gdf, text in (
        (
            "reduced",
            reduced,
            f"SYNTHETIC reduced-footprint alternative: impacts {kept} kept at "
            f"{share:.0%} of their area, {dropped} avoided.",
        ),
        ("avoid", impacts.iloc[0:0], "SYNTHETIC alternative that avoids every wetland."),
    ):
        (alt / f"{name}.gpkg").unlink(missing_ok=True)
        _write_gpkg(gdf, alt / f"{name}.gpkg", "impacts", description=text)


#: The two sample projects of the other exemptions (issue 20): the Crow Wing impacts moved
#: north by this many metres (still in Crow Wing County, outside the shoreland zones).
EXEMPTION_PROJECT_SHIFT_M = 400.0


def exemption_projects(crow_wing_impacts: gpd.GeoDataFrame) -> dict[str, gpd.GeoDataFrame]:
    """Return the agricultural and the road sample projects (issue 20).

    * ``crow_wing_farm``: two drains of agricultural land planted with annually seeded
      crops in nine and in eight (the limit) of the ten most recent years (§ 103G.2241,
      subd. 2(e)), the subp. 1 B exclusions answered: the project is exempt under one
      exemption, with the ten-year use restriction of Minn. R. 8420.0420, subp. 1 D as a
      verify item.
    * ``county_road``: two fills of a county road reconstruction to meet safety standards
      (§ 103G.222, subd. 1(m)), the county having minimized and reported 45 days before
      construction: replacement required, the board replaces, siting skips it.

    Every column name has at most ten characters (a shapefile keeps it).
    """
    base = crow_wing_impacts[["circ39", "geometry"]].copy()
    base["geometry"] = base.geometry.translate(0.0, EXEMPTION_PROJECT_SHIFT_M)
    n = len(base)
    farm = base.assign(
        impact_id=[f"F-{i + 1}" for i in range(n)],
        project="Crow Wing farm sample",
        impact="drain",
        land_use="agricultural",
        wetland_ac=[0.9, 1.6][:n],
        crop_yr_10=[9, 8][:n],
        rot_yr_10=[0] * n,
        cons_prog=["no"] * n,
        banked=["no"] * n,
        used_for_c=["no"] * n,
        remainder=["no"] * n,
    )
    road = base.assign(
        impact_id=[f"R-{i + 1}" for i in range(n)],
        project="County road sample",
        impact="fill",
        land_use="nonagricultural",
        wetland_ac=[0.9, 1.6][:n],
        road_kind="reconstruction",
        road_auth="county",
        road_serv="yes",
        road_std="yes",
        # § 103G.222, subd. 1(m)(1), (2): the county minimized and reported 45 days before
        # construction (issue 32); dates as text, as QGIS writes them to a shapefile
        road_minim="yes",
        road_minor="no",
        road_rep_d="2024-03-01",
        road_con_d="2024-04-15",
    )
    order = ["impact_id", "project", "circ39", "impact", "land_use", "wetland_ac"]
    return {
        "crow_wing_farm": gpd.GeoDataFrame(
            farm[
                [*order, "crop_yr_10", "rot_yr_10", "cons_prog", "banked", "used_for_c"]
                + ["remainder", "geometry"]
            ],
            crs=crow_wing_impacts.crs,
        ),
        "county_road": gpd.GeoDataFrame(
            road[
                [*order, "road_kind", "road_auth", "road_serv", "road_std", "road_minim"]
                + ["road_minor", "road_rep_d", "road_con_d", "geometry"]
            ],
            crs=crow_wing_impacts.crs,
        ),
    }


def build(data_dir: Path = HERE) -> dict[str, gpd.GeoDataFrame]:
    """Build every synthetic layer in memory.

    Parameters
    ----------
    data_dir : Path
        Folder holding the real inputs (county GeoJSON, Crow Wing DEM and sink).

    Returns
    -------
    dict of str to GeoDataFrame
        Context layers by layer name, plus ``wright_impacts``, ``wright_sites``,
        ``crow_wing_impacts``, ``crow_wing_sites`` and ``bank_credits``.
    """
    counties = gpd.read_file(data_dir / COUNTIES_FILE).to_crs(CRS)
    wright = counties.loc[counties["NAME"] == "Wright"].geometry.iloc[0]
    crow_wing = counties.loc[counties["NAME"] == "Crow Wing"].geometry.iloc[0]
    cw = crow_wing_features(data_dir, crow_wing)
    anchors = [WRIGHT_CENTER, cw["center"]]

    bsas = make_bank_service_areas(counties)
    majors = make_major_watersheds(bsas, anchors)
    minors = make_minor_watersheds(majors, anchors)
    override = make_override(counties, majors, minors)
    wf = wright_features(wright)
    sites = wright_sites(counties, bsas, majors, minors, override.geometry.iloc[0])

    lakes = gpd.GeoDataFrame(
        [
            {
                "pw_id": "SYN-86-0001",
                "pw_name": "Synthetic Lake A",
                "shore_class": "recreational_development",
                "acres": round(wf["lake"].area / SQM_PER_ACRE, 1),
                "sewered": False,
                "setback_ft": np.nan,
                "geometry": wf["lake"],
            },
            {
                "pw_id": "SYN-18-0001",
                "pw_name": "Synthetic Lake B",
                "shore_class": "natural_environment",
                "acres": round(cw["lake"].area / SQM_PER_ACRE, 1),
                "sewered": False,
                "setback_ft": np.nan,
                "geometry": cw["lake"],
            },
        ],
        crs=CRS,
    )
    rivers = gpd.GeoDataFrame(
        [
            {
                "pw_id": "SYN-86-R001",
                "pw_name": "Synthetic River A",
                "shore_class": "agricultural",
                "sewered": False,
                "setback_ft": np.nan,
                "geometry": wf["river"],
            }
        ],
        crs=CRS,
    )
    cities = gpd.GeoDataFrame([{"name": "Synthetic City A", "geometry": wf["city"]}], crs=CRS)
    lgus = gpd.GeoDataFrame(
        [
            {
                "lgu_name": "Synthetic LGU record: Wright County",
                "shoreland_ordinance": True,
                "setback_ft": np.nan,
                "geometry": _to_multi(wright),
            },
            {
                "lgu_name": "Synthetic LGU record: Crow Wing County",
                "shoreland_ordinance": True,
                "setback_ft": np.nan,
                "geometry": _to_multi(crow_wing),
            },
        ],
        crs=CRS,
    )
    fens = gpd.GeoDataFrame([{"fen_name": "Synthetic Fen A", "geometry": wf["fen"]}], crs=CRS)
    banks = make_bank_credits(counties, bsas, majors, override.geometry.iloc[0], cw["center"])

    # Every project feature falls inside a single minor watershed.
    for gdf in (wf["impacts"], cw["impacts"], cw["sites"]):
        assert all(minors.geometry.covers(g).sum() == 1 for g in gdf.geometry)
    return {
        "major_watersheds": majors,
        "minor_watersheds": minors,
        "bank_service_areas": bsas,
        "percentage_overrides": override,
        "public_water_basins": lakes,
        "public_watercourses": rivers,
        "incorporated_areas": cities,
        "lgus": lgus,
        "calcareous_fens": fens,
        "wright_impacts": wf["impacts"],
        "wright_sites": sites,
        "crow_wing_impacts": cw["impacts"],
        "crow_wing_sites": cw["sites"],
        "bank_credits": banks,
    }


CONTEXT_LAYERS = (
    "major_watersheds",
    "minor_watersheds",
    "bank_service_areas",
    "percentage_overrides",
    "public_water_basins",
    "public_watercourses",
    "incorporated_areas",
    "lgus",
    "calcareous_fens",
)
#: The listing's required columns (the package's reader), then the bank's location.
BANK_COLUMNS = [*BANK_FIELDS, "lon", "lat"]


def main(out_dir: Path = HERE, data_dir: Path | None = None) -> list[Path]:
    """Write every synthetic output into ``out_dir``.

    Parameters
    ----------
    out_dir : Path
        Output folder (default: this ``sample_data`` folder). Existing outputs are
        replaced, so reruns are idempotent.
    data_dir : Path, optional
        Folder with the real inputs; default ``sample_data`` next to this script.

    Returns
    -------
    list of Path
        The files written.
    """
    out_dir = Path(out_dir)
    data_dir = HERE if data_dir is None else Path(data_dir)
    layers = build(data_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    saved = pyogrio.get_gdal_config_option("OGR_CURRENT_DATE")
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": GPKG_DATE})
    try:
        context = out_dir / "synthetic_context.gpkg"
        context.unlink(missing_ok=True)
        for name in CONTEXT_LAYERS:
            _write_gpkg(layers[name], context, name)
        projects = out_dir / "projects"
        extra = exemption_projects(layers["crow_wing_impacts"])
        for sub in ("wright_metro", "crow_wing", *extra):
            if (projects / sub).exists():
                shutil.rmtree(projects / sub)
        for sub, gdf in extra.items():  # impacts only: they use the Crow Wing sites
            (projects / sub).mkdir(parents=True)
            _write_gpkg(gdf, projects / sub / "impacts.gpkg", "impacts")
            _write_shp(gdf, projects / sub / "impacts.shp")
            spec = ALTERNATIVES[sub]
            _write_alternatives(projects / sub, gdf, spec["drop"], spec["share"])
        _write_project(projects / "wright_metro", layers["wright_impacts"], layers["wright_sites"])
        _write_project(
            projects / "crow_wing", layers["crow_wing_impacts"], layers["crow_wing_sites"]
        )
        for sub, key in (("wright_metro", "wright_impacts"), ("crow_wing", "crow_wing_impacts")):
            spec = ALTERNATIVES[sub]
            _write_alternatives(projects / sub, layers[key], spec["drop"], spec["share"])
        banks = layers["bank_credits"]
        pd.DataFrame(banks[BANK_COLUMNS]).to_csv(
            out_dir / "synthetic_bank_credits.csv", index=False, lineterminator="\n"
        )
        (out_dir / "synthetic_bank_credits.gpkg").unlink(missing_ok=True)
        _write_gpkg(
            banks[[*BANK_COLUMNS, "geometry"]],
            out_dir / "synthetic_bank_credits.gpkg",
            "bank_credits",
        )
    finally:
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": saved})
    # issue 35: the county road's construction limits and delineation (rmtree'd above)
    spec = importlib.util.spec_from_file_location("make_footprints", HERE / "make_footprints.py")
    assert spec is not None and spec.loader is not None
    footprints = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(footprints)
    footprints.main(out_dir)
    return sorted(
        p
        for p in out_dir.rglob("*")
        if p.is_file() and (p.name.startswith("synthetic_") or "projects" in p.parts)
    )


if __name__ == "__main__":
    for path in main():
        print(path.relative_to(HERE) if path.is_relative_to(HERE) else path)
