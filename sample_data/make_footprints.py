"""Generate the SYNTHETIC construction limits and delineation of the county road sample.

Issue 35: ``wetland-gis impacts`` cuts the impact layer from a project's construction limits,
its existing road and its wetland delineation. This script writes those inputs for the
``projects/county_road`` sample, so that ``make demo`` derives that project's impacts this
way. Every feature, owner and value is invented; never use them for a real decision.

The road runs through the two Crow Wing exemption sample impacts (R-1 and R-2 of
``make_synthetic.py``, moved 400 m north of the Crow Wing sample): a county road 24 ft
wide reconstructed to 100 ft construction limits, in three permanent parts, with a
temporary work pad beside it and a staging area on upland. The delineation has three
wetlands: W-A (type 2) where R-1 lies, W-B (a type 3 marsh with a type 2 wet meadow fringe,
two polygons sharing the id) where R-2 lies, W-C (type 6) that the road does not reach.
Three parcels: the county's right of way along the existing road and the two farms on
either side.

Run ``python sample_data/make_footprints.py`` (``make_synthetic.py`` runs it too, after it
rewrites ``projects/county_road``). Seeded (``SEED``), no network, byte-identical reruns
(the GeoPackage timestamp is pinned). Output: ``projects/county_road/footprint.gpkg`` with
the layers ``construction_limits``, ``reduced_limits`` (the reduced-footprint alternative for
``compare``), ``existing_road``, ``delineation`` and ``parcels``
(EPSG:26915), described in ``sample_data/README.md``.
"""

from __future__ import annotations

import math
from pathlib import Path

import geopandas as gpd
import numpy as np
import pyogrio
import shapely
from shapely.geometry import LineString, Polygon

__all__ = ["main", "build", "SEED", "LAYERS"]

HERE = Path(__file__).resolve().parent
CRS = "EPSG:26915"
SEED = 35  # issue 35; any fixed integer would do
FOOT = 0.3048
GPKG_VERSION = "1.2"  # as the other samples (QGIS 3.22 opens it without a warning)
GPKG_DATE = "2024-01-01T00:00:00.000Z"
WARNING = (
    "SYNTHETIC sample data made by sample_data/make_footprints.py: never use for real decisions."
)

#: The centroids of the county road sample impacts R-1 and R-2 (EPSG:26915, 1 m).
R1 = (429_432.0, 5_151_221.0)
R2 = (429_488.0, 5_150_926.0)

ROAD_FACTS = {
    "project": "County road sample",
    "impact": "fill",
    "land_use": "nonagricultural",
    "road_kind": "reconstruction",
    "road_auth": "county",
    "road_serv": "yes",
    "road_std": "yes",
    # § 103G.222, subd. 1(m)(1), (2): the county minimized and reported 45 days before
    # construction (issue 32), as the county_road sample's impacts say
    "road_minim": "yes",
    "road_minor": "no",
    "road_rep_d": "2024-03-01",
    "road_con_d": "2024-04-15",
}

LAYERS = {
    "construction_limits": "SYNTHETIC construction limits of the county road sample: three "
    "permanent fill parts (100 ft wide), a temporary work pad and an upland staging area.",
    "reduced_limits": "SYNTHETIC reduced-footprint alternative: the road rebuilt inside its 66 ft "
    "right of way, no work pad in the wetland.",
    "existing_road": "SYNTHETIC existing road surface (24 ft) of the county road sample.",
    "delineation": "SYNTHETIC wetland delineation of the county road sample (W-A type 2, "
    "W-B type 3 with a type 2 fringe, W-C type 6).",
    "parcels": "SYNTHETIC parcels with invented owners (county right of way, two farms).",
}


def _blob(center: tuple[float, float], area_m2: float, rng: np.random.Generator) -> Polygon:
    """An irregular ellipse of ``area_m2`` square metres about ``center`` (rounded to 1 cm)."""
    t = np.linspace(0.0, 2.0 * math.pi, 40, endpoint=False)
    phase = rng.uniform(0, 2 * math.pi)
    r = 1.0 + 0.08 * (0.6 * np.sin(3 * t + phase) + 0.4 * np.sin(5 * t + 2 * phase))
    a = math.radians(rng.uniform(-30, 30))
    x, y = r * np.cos(t), 0.7 * r * np.sin(t)
    xr, yr = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    unit = Polygon(np.column_stack([xr, yr]))
    k = math.sqrt(area_m2 / unit.area)
    return Polygon(np.round(np.column_stack([center[0] + k * xr, center[1] + k * yr]), 2))


def _round(geom: shapely.Geometry) -> shapely.Geometry:
    return shapely.set_precision(geom, 0.01)


def build() -> dict[str, gpd.GeoDataFrame]:
    """Return the four layers of ``footprint.gpkg`` (EPSG:26915)."""
    rng = np.random.default_rng(SEED)
    # the centre line: through, 250 m beyond each
    (x1, y1), (x2, y2) = R1, R2
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    start = (x1 - 250 * ux, y1 - 250 * uy)
    end = (x2 + 250 * ux, y2 + 250 * uy)
    centre = LineString([start, end])
    total = centre.length

    def segment(a: float, b: float) -> LineString:
        return shapely.ops.substring(centre, a, b)

    existing = _round(centre.buffer(12 * FOOT, cap_style="flat"))
    # three permanent parts of the 100 ft construction limits, split where no wetland lies
    cuts = [0.0, 150.0, 420.0, total]
    parts = [
        _round(segment(a, b).buffer(50 * FOOT, cap_style="flat"))
        for a, b in zip(cuts, cuts[1:], strict=False)
    ]
    # a temporary work pad east of the road at R-2 (it overlaps the permanent limits) and a
    # staging area on upland west of the road's north end
    nx, ny = -uy, ux  # left-hand normal
    pad_c = (x2 - 22 * nx, y2 - 22 * ny)
    pad = _round(
        shapely.affinity.rotate(
            shapely.box(pad_c[0] - 25, pad_c[1] - 12, pad_c[0] + 25, pad_c[1] + 12),
            math.degrees(math.atan2(uy, ux)),
            origin=pad_c,
        )
    )
    stage_c = (start[0] + 60 * ux + 60 * nx, start[1] + 60 * uy + 60 * ny)
    staging = _round(
        shapely.box(stage_c[0] - 15, stage_c[1] - 15, stage_c[0] + 15, stage_c[1] + 15)
    )
    # the reduced-footprint alternative (sequencing, `compare`): the road rebuilt inside the
    # 66 ft right of way, no work pad in the wetland (the staging area kept)
    narrow = [
        _round(segment(a, b).buffer(33 * FOOT, cap_style="flat"))
        for a, b in zip(cuts, cuts[1:], strict=False)
    ]
    reduced = gpd.GeoDataFrame(
        {
            "part_id": ["CL-1", "CL-2", "CL-3", "ST-1"],
            "duration": ["permanent"] * 3 + ["temporary"],
            "work": [
                "road reconstruction inside the right of way, north",
                "road reconstruction inside the right of way, middle",
                "road reconstruction inside the right of way, south",
                "staging area (upland)",
            ],
            **{k: [v] * 4 for k, v in ROAD_FACTS.items()},
        },
        geometry=[*narrow, staging],
        crs=CRS,
    )
    limits = gpd.GeoDataFrame(
        {
            "part_id": ["CL-1", "CL-2", "CL-3", "TP-1", "ST-1"],
            "duration": ["permanent"] * 3 + ["temporary"] * 2,
            "work": [
                "road reconstruction, north",
                "road reconstruction, middle",
                "road reconstruction, south",
                "temporary work pad",
                "staging area (upland)",
            ],
            **{k: [v] * 5 for k, v in ROAD_FACTS.items()},
        },
        geometry=[*parts, pad, staging],
        crs=CRS,
    )
    sq_m = 43_560.0 * FOOT * FOOT
    w_a = _blob(R1, 0.9 * sq_m, rng)
    marsh = _blob(R2, 1.1 * sq_m, rng)
    fringe = _round(shapely.difference(_blob(R2, 1.6 * sq_m, rng).buffer(2.0), marsh))
    fringe = max(getattr(fringe, "geoms", [fringe]), key=lambda g: g.area)
    w_c_center = (R2[0] + 140 * nx, R2[1] + 140 * ny)
    w_c = _blob(w_c_center, 0.5 * sq_m, rng)
    delineation = gpd.GeoDataFrame(
        {
            "wetland_id": ["W-A", "W-B", "W-B", "W-C"],
            "circ39": ["2", "3", "2", "6"],
            "attribute": ["PEM1B", "PEM1C", "PEM1B", "PSS1C"],
            "community": [
                "fresh (wet) meadow",
                "shallow marsh",
                "fresh (wet) meadow fringe",
                "shrub-carr",
            ],
            "delineator": ["Synthetic Delineation Co. (SYNTHETIC)"] * 4,
        },
        geometry=[w_a, marsh, fringe, w_c],
        crs=CRS,
    )
    row = _round(centre.buffer(33 * FOOT, cap_style="flat"))
    west = _round(shapely.difference(centre.buffer(400, cap_style="flat", single_sided=True), row))
    east = _round(shapely.difference(centre.buffer(-400, cap_style="flat", single_sided=True), row))
    parcels = gpd.GeoDataFrame(
        {
            "parcel_id": ["ROW-1", "P-100", "P-200"],
            "owner": [
                "Crow Wing County (right of way; SYNTHETIC)",
                "Synthetic Farm A",
                "Synthetic Farm B",
            ],
        },
        geometry=[row, west, east],
        crs=CRS,
    )
    return {
        "construction_limits": limits,
        "reduced_limits": reduced,
        "existing_road": gpd.GeoDataFrame(
            {"road": ["CSAH 99 (SYNTHETIC)"]}, geometry=[existing], crs=CRS
        ),
        "delineation": delineation,
        "parcels": parcels,
    }


def main(out_dir: Path = HERE) -> list[Path]:
    """Write ``projects/county_road/footprint.gpkg`` under ``out_dir``; return its path."""
    layers = build()
    path = Path(out_dir) / "projects" / "county_road" / "footprint.gpkg"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    saved = pyogrio.get_gdal_config_option("OGR_CURRENT_DATE")
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": GPKG_DATE})
    try:
        for name, gdf in layers.items():
            pyogrio.write_dataframe(
                gdf,
                path,
                layer=name,
                driver="GPKG",
                dataset_options={} if path.exists() else {"VERSION": GPKG_VERSION},
                layer_options={
                    "DESCRIPTION": f"{LAYERS[name]} {WARNING}",
                    "IDENTIFIER": f"synthetic {name}",
                },
                layer_metadata={
                    "SYNTHETIC": "yes",
                    "GENERATOR": "sample_data/make_footprints.py",
                    "WARNING": WARNING,
                },
            )
    finally:
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": saved})
    return [path]


if __name__ == "__main__":
    for written in main():
        print(written.relative_to(HERE) if written.is_relative_to(HERE) else written)
