"""A deterministic, Minnesota-sized SYNTHETIC world for the scale benchmark (issue 14).

Real: the 87 county outlines and the state outline of ``sample_data/`` (US Census 2016).
Made up (never for a real decision): 81 major watersheds, about 5,600 minor watersheds,
10 bank service areas (Voronoi cells of seeded random points, clipped to the state),
12,000 public water basins (irregular polygons), 8,000 public watercourses (random
walks), 850 cities and 300 calcareous fens; and N impacts, 5-150 m boxes, 20 to a project,
a third of the projects placed on a basin shore so that impacts cross the zone edges.

``python benchmarks/world.py --n 20000 --out /tmp/world`` writes ``context/<layer>.parquet``
and ``impacts_<N>.parquet``; the same arguments always give the same layers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
CRS = "EPSG:26915"
SEED = 14
PER_PROJECT = 20
COUNTS = {
    "major_watersheds": 81,
    "minor_watersheds": 5_600,
    "bank_service_areas": 10,
    "public_water_basins": 12_000,
    "public_watercourses": 8_000,
    "incorporated_areas": 850,
    "calcareous_fens": 300,
}
BASIN_CLASSES = ("natural_environment", "recreational_development", "general_development")
COURSE_CLASSES = ("remote", "forested", "transition", "agricultural", "urban", "tributary")
TYPES = ("1", "2", "3", "4", "5", "6", "7", "8", "Type 3/4")


def state() -> shapely.Geometry:
    """Return the Minnesota outline in EPSG:26915."""
    gdf = gpd.read_file(SAMPLE / "mn_state_cb2016_500k.geojson").to_crs(CRS)
    return shapely.union_all(gdf.geometry.to_numpy())


def _points_in(shape: shapely.Geometry, n: int, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` uniform random points (x, y) inside ``shape`` (rejection sampling)."""
    x0, y0, x1, y1 = shape.bounds
    shapely.prepare(shape)
    out = np.empty((0, 2))
    while len(out) < n:
        xy = np.column_stack([rng.uniform(x0, x1, 2 * n), rng.uniform(y0, y1, 2 * n)])
        out = np.vstack([out, xy[shapely.contains_xy(shape, xy[:, 0], xy[:, 1])]])
    return out[:n]


def _cells(shape: shapely.Geometry, n: int, rng: np.random.Generator) -> np.ndarray:
    """Return ``n`` Voronoi cells of random points, clipped to ``shape`` (same order)."""
    xy = _points_in(shape, n, rng)
    pts = shapely.points(xy)
    cells = shapely.get_parts(shapely.voronoi_polygons(shapely.multipoints(pts), extend_to=shape))
    # voronoi output order is not the input order: match each cell to its seed point
    tree = shapely.STRtree(cells)
    seed_pos, cell_pos = tree.query(pts, predicate="within")
    ordered = np.empty(n, dtype=object)
    ordered[seed_pos] = cells[cell_pos]
    return shapely.make_valid(shapely.intersection(ordered, shape))


def _blobs(centres: np.ndarray, radii: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Return irregular star-shaped polygons (24 vertices) around ``centres``."""
    k = 24
    ang = np.linspace(0, 2 * np.pi, k, endpoint=False)
    wobble = rng.uniform(0.7, 1.3, (len(centres), k))
    r = radii[:, None] * wobble
    xs = centres[:, :1] + r * np.cos(ang)
    ys = centres[:, 1:] + r * np.sin(ang)
    rings = np.stack([xs, ys], axis=-1)
    rings = np.concatenate([rings, rings[:, :1]], axis=1)
    return shapely.polygons(rings)


def context_layers(seed: int = SEED) -> dict[str, gpd.GeoDataFrame]:
    """Return the synthetic context layers (the counties are the shipped real ones)."""
    rng = np.random.default_rng(seed)
    mn = state()
    out: dict[str, gpd.GeoDataFrame] = {}
    major = _cells(mn, COUNTS["major_watersheds"], rng)
    bsa = _cells(mn, COUNTS["bank_service_areas"], rng)
    bsa_of_major = gpd.GeoDataFrame(geometry=bsa, crs=CRS).sindex.nearest(
        shapely.point_on_surface(major), return_all=False
    )[1]
    out["major_watersheds"] = gpd.GeoDataFrame(
        {
            "major": np.arange(1, len(major) + 1),
            "major_name": [f"Major {i + 1}" for i in range(len(major))],
            "bsa": bsa_of_major + 1,
        },
        geometry=major,
        crs=CRS,
    )
    out["bank_service_areas"] = gpd.GeoDataFrame(
        {"bsa": np.arange(1, len(bsa) + 1), "bsa_name": [f"BSA {i + 1}" for i in range(len(bsa))]},
        geometry=bsa,
        crs=CRS,
    )
    minor = _cells(mn, COUNTS["minor_watersheds"], rng)
    major_of_minor = out["major_watersheds"].sindex.nearest(
        shapely.point_on_surface(minor), return_all=False
    )[1]
    out["minor_watersheds"] = gpd.GeoDataFrame(
        {"minor": [f"{i + 1:05d}" for i in range(len(minor))], "major": major_of_minor + 1},
        geometry=minor,
        crs=CRS,
    )
    nb = COUNTS["public_water_basins"]
    centres = _points_in(mn, nb, rng)
    radii = np.exp(rng.uniform(np.log(60.0), np.log(1500.0), nb))
    basins = _blobs(centres, radii, rng)
    out["public_water_basins"] = gpd.GeoDataFrame(
        {
            "pw_id": [f"{i + 1:06d}P" for i in range(nb)],
            "pw_name": [f"Lake {i + 1}" for i in range(nb)],
            "shore_class": rng.choice(BASIN_CLASSES, nb),
            "sewered": rng.random(nb) < 0.3,
        },
        geometry=basins,
        crs=CRS,
    )
    nc = COUNTS["public_watercourses"]
    start = _points_in(mn, nc, rng)
    steps = 12
    heading = rng.uniform(0, 2 * np.pi, nc)[:, None] + np.cumsum(
        rng.normal(0, 0.4, (nc, steps)), axis=1
    )
    step = rng.uniform(200, 800, (nc, 1))
    xs = start[:, :1] + np.cumsum(step * np.cos(heading), axis=1)
    ys = start[:, 1:] + np.cumsum(step * np.sin(heading), axis=1)
    coords = np.concatenate([start[:, None, :], np.stack([xs, ys], -1)], axis=1)
    out["public_watercourses"] = gpd.GeoDataFrame(
        {
            "pw_id": [f"M-{i + 1:05d}" for i in range(nc)],
            "pw_name": [f"Creek {i + 1}" for i in range(nc)],
            "shore_class": rng.choice(COURSE_CLASSES, nc),
            "sewered": rng.random(nc) < 0.2,
        },
        geometry=shapely.linestrings(coords),
        crs=CRS,
    )
    ni = COUNTS["incorporated_areas"]
    cities = _blobs(_points_in(mn, ni, rng), rng.uniform(800, 5000, ni), rng)
    out["incorporated_areas"] = gpd.GeoDataFrame(
        {"name": [f"City {i + 1}" for i in range(ni)]}, geometry=cities, crs=CRS
    )
    nf = COUNTS["calcareous_fens"]
    fens = _blobs(_points_in(mn, nf, rng), rng.uniform(30, 300, nf), rng)
    out["calcareous_fens"] = gpd.GeoDataFrame(
        {"fen_name": [f"Fen {i + 1}" for i in range(nf)]}, geometry=fens, crs=CRS
    )
    return out


def impacts(n: int, basins: gpd.GeoDataFrame, seed: int = SEED) -> gpd.GeoDataFrame:
    """Return ``n`` impact boxes (5-150 m sides), 20 to a project, sorted by project."""
    rng = np.random.default_rng(seed + n)
    mn = state()
    n_proj = -(-n // PER_PROJECT)
    centre = _points_in(mn, n_proj, rng)
    # a third of the projects sit on a basin shore: their impacts cross the zone edges
    shore = rng.random(n_proj) < 1 / 3
    pick = rng.integers(0, len(basins), int(shore.sum()))
    rings = shapely.get_exterior_ring(basins.geometry.to_numpy()[pick])
    on_ring = shapely.line_interpolate_point(rings, rng.random(len(pick)), normalized=True)
    centre[shore] = shapely.get_coordinates(on_ring)
    proj = np.repeat(np.arange(n_proj), PER_PROJECT)[:n]
    spread = rng.uniform(50, 600, n_proj)[proj]
    cx = centre[proj, 0] + rng.normal(0, 1, n) * spread
    cy = centre[proj, 1] + rng.normal(0, 1, n) * spread
    w = rng.uniform(5, 150, n)
    h = rng.uniform(5, 150, n)
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"I-{i:07d}" for i in range(n)],
            "project": [f"P-{p:06d}" for p in proj],
            "circ39": rng.choice(TYPES, n),
            "land_use": rng.choice(["agricultural", "nonagricultural"], n),
        },
        geometry=shapely.box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2),
        crs=CRS,
    )


def write(out: Path, ns: list[int], seed: int = SEED) -> dict[str, Path]:
    """Write the context folder and one impacts file per N; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    ctx_dir = out / "context"
    paths: dict[str, Path] = {"context": ctx_dir}
    if not (ctx_dir / "public_water_basins.parquet").exists():
        ctx_dir.mkdir(exist_ok=True)
        for name, layer in context_layers(seed).items():
            layer.to_parquet(ctx_dir / f"{name}.parquet")
    basins = gpd.read_parquet(ctx_dir / "public_water_basins.parquet")
    for n in ns:
        p = out / f"impacts_{n}.parquet"
        if not p.exists():
            impacts(n, basins, seed).to_parquet(p)
        paths[f"impacts_{n}"] = p
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[20_000])
    parser.add_argument("--out", type=Path, default=Path("outputs/bench_world"))
    args = parser.parse_args(argv)
    for key, path in write(args.out, args.n).items():
        print(key, path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["context_layers", "impacts", "write", "state"]
