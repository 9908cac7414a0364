"""Write the SYNTHETIC water-use sample layer (issue 10) of ``sample_data/water_use/``.

Every row is invented to exercise one branch of Minn. Stat. § 103G.271 (see
``sample_data/README.md``); the places are real points in real counties, the permits, entities
and volumes are not. Run ``python sample_data/water_use/make_water_use.py``: it needs no
network and rewrites ``appropriations.gpkg``, ``appropriations.csv`` and
``synthetic_mt_simon_hinckley.gpkg``.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pandas as pd
import pyogrio
from shapely.geometry import box

HERE = Path(__file__).resolve().parent
GPKG_DATE = "2024-01-01T00:00:00.000Z"  # pinned GeoPackage timestamp (byte-identical reruns)
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _months(base: float, summer: float) -> dict[str, float]:
    """January-April and October-December at ``base``, May-September at ``summer``."""
    out = {f"gal_{m}": base for m in MONTHS}
    for m in ("may", "jun", "jul", "aug", "sep"):
        out[f"gal_{m}"] = summer
    return out


ROWS: list[dict[str, object]] = [
    {
        "permit_id": "WU-01",
        "entity": "Synthetic Lake Cabin Assn",
        "entity_type": "nonprofit",
        "use": "domestic",
        "source": "groundwater",
        "persons_served": 12,
        "annual_gallons": 400000,
        "gallons_per_day": 2500,
        "lon": -94.05,
        "lat": 46.45,
        "why": "1(b)(1): domestic supply for less than 25 persons, no permit",
    },
    {
        "permit_id": "WU-02",
        "entity": "Synthetic Nursery LLC",
        "entity_type": "business",
        "use": "landscape_irrigation",
        "source": "groundwater",
        "annual_gallons": 900000,
        "gallons_per_day": 8000,
        "mt_simon_hinckley": None,
        "lon": -93.95,
        "lat": 45.2,
        "why": "4(a): less than 10,000 gpd and no more than 1,000,000 a year, no permit",
    },
    {
        "permit_id": "WU-03",
        "entity": "Synthetic Nursery LLC",
        "entity_type": "business",
        "use": "landscape_irrigation",
        "source": "groundwater",
        "annual_gallons": 1000000,
        "gallons_per_day": 10000,
        "lon": -93.9,
        "lat": 45.25,
        "aquifer": "Prairie du Chien",
        **_months(50000, 130000),
        "why": "4(a) boundary: exactly 10,000 gpd is not less than 10,000, permit required",
    },
    {
        "permit_id": "WU-04",
        "entity": "Synthetic City of the First Class",
        "entity_type": "city_first_class",
        "use": "municipal",
        "source": "surface",
        "annual_gallons": 35000000000,
        "gallons_per_day": 150000000,
        "permits_held": 1,
        "permit_action": "existing",
        "data_center": False,
        "lon": -93.265,
        "lat": 44.978,
        **_months(2500000000, 3500000000),
        "why": "6(d)(1) first-class city cap; 6(h) summer surcharge by edition",
    },
    {
        "permit_id": "WU-05",
        "entity": "Synthetic Falls",
        "entity_type": "municipality",
        "use": "municipal",
        "source": "groundwater",
        "annual_gallons": 400000000,
        "gallons_per_day": 2000000,
        "permits_held": 2,
        "permit_action": "existing",
        "distribution_system": "SF-1",
        "data_center": False,
        "bulk_sale": False,
        "lon": -93.1,
        "lat": 44.7,
        **_months(25000000, 45000000),
        "why": "fee clause (9)/(10); surcharge summed over distribution system SF-1",
    },
    {
        "permit_id": "WU-06",
        "entity": "Synthetic Falls",
        "entity_type": "municipality",
        "use": "municipal",
        "source": "groundwater",
        "annual_gallons": 200000000,
        "gallons_per_day": 900000,
        "permits_held": 2,
        "permit_action": "new",
        "distribution_system": "SF-1",
        "data_center": False,
        "bulk_sale": False,
        "potable": True,
        "conservation_plan": True,
        "lon": -93.12,
        "lat": 44.72,
        **_months(14000000, 20000000),
        "why": "4a: new well in the synthetic Mt. Simon-Hinckley extent, alternative unknown; "
        "fee boundary at exactly 200,000,000 gallons",
    },
    {
        "permit_id": "WU-07",
        "entity": "Synthetic Water Export Co",
        "entity_type": "business",
        "use": "commercial",
        "source": "groundwater",
        "annual_gallons": 5000000,
        "gallons_per_day": 20000,
        "bulk_sale": True,
        "dest_lon": -87.63,
        "dest_lat": 41.88,
        "aquifer": "surficial sand",
        "lon": -93.7,
        "lat": 46.55,
        "why": "4b: bulk sale over 1,000,000 gallons to a place more than 50 miles away (2025)",
    },
    {
        "permit_id": "WU-08",
        "entity": "Synthetic Rural Water District",
        "entity_type": "rural_water_district",
        "use": "municipal",
        "source": "groundwater",
        "annual_gallons": 60000000,
        "gallons_per_day": 300000,
        "bulk_sale": True,
        "public_water_supply": True,
        "solely_public_supply": True,
        "property_interest": True,
        "supply_requirements_met": True,
        "dest_lon": -95.2,
        "dest_lat": 44.45,
        "aquifer": "Quaternary buried",
        "lon": -94.2,
        "lat": 44.8,
        **_months(4000000, 6400000),
        "why": "4b(b): public water supply exception, communities within 100 miles",
    },
    {
        "permit_id": "WU-09",
        "entity": "Synthetic Foundry Inc",
        "entity_type": "business",
        "use": "industrial",
        "source": "surface",
        "once_through": "cooling",
        "annual_gallons": 6000000,
        "gallons_per_day": 20000,
        "permit_action": "existing",
        "nature_preserve_discharge": False,
        "lon": -92.1,
        "lat": 46.78,
        "why": "5(b): once-through system over 5,000,000 gallons must be terminated; 6(b) fee",
    },
    {
        "permit_id": "WU-10",
        "entity": "Synthetic Lakeshore HOA",
        "entity_type": "nonprofit",
        "use": "surface_water_level",
        "source": "groundwater",
        "annual_gallons": 12000000,
        "gallons_per_day": 60000,
        "aquifer": "Jordan",
        "bulk_sale": False,
        "lon": -92.85,
        "lat": 45.05,
        "why": "5a: groundwater over 10,000,000 gallons to maintain a lake level in the metro",
    },
    {
        "permit_id": "WU-11",
        "entity": "Synthetic Data Campus",
        "entity_type": "business",
        "use": "industrial",
        "source": "groundwater",
        "annual_gallons": 150000000,
        "gallons_per_day": 500000,
        "data_center": True,
        "bulk_sale": False,
        "aquifer": "Jordan",
        "lon": -93.55,
        "lat": 44.65,
        "why": "5b: data center over 100,000,000 gallons (2025 only); fee boundary 150,000,000",
    },
    {
        "permit_id": "WU-12",
        "entity": "Synthetic Farms",
        "entity_type": "business",
        "use": "agricultural_irrigation",
        "source": "groundwater",
        "annual_gallons": 280000000,
        "gallons_per_day": 3000000,
        "permits_held": 1,
        "permit_action": "existing",
        "data_center": False,
        "aquifer": "surficial sand",
        "lon": -94.6,
        "lat": 45.55,
        "why": "6(d)(3): agricultural irrigation cap by edition",
    },
    {
        "permit_id": "WU-13",
        "entity": "Synthetic Farms 2",
        "entity_type": "business",
        "use": "agricultural_irrigation",
        "source": "groundwater",
        "annual_gallons": 0,
        "gallons_per_day": 0,
        "permits_held": 1,
        "permit_action": "existing",
        "aquifer": "surficial sand",
        "lon": -94.7,
        "lat": 45.6,
        "why": "6(f): no appropriation in the year, irrigation minimum by edition",
    },
    {
        "permit_id": "WU-14",
        "entity": "Synthetic Gravel Co",
        "entity_type": "business",
        "use": "dewatering",
        "source": "groundwater",
        "annual_gallons": 75000000,
        "gallons_per_day": 250000,
        "permit_action": "existing",
        "aquifer": "surficial sand",
        "notified_year": 2026,
        "first_unpermitted_year": 2017,
        "unpaid_usd": 450,
        "fee_due_date": "2026-01-15",
        "second_notice_date": "2026-03-01",
        "lon": -94.35,
        "lat": 46.3,
        "why": "6a: past unpermitted years across both editions; 6(e) late penalty",
    },
    {
        "permit_id": "WU-15",
        "entity": "Synthetic State Agency",
        "entity_type": "state_agency",
        "use": "dewatering",
        "source": "groundwater",
        "annual_gallons": 20000000,
        "gallons_per_day": 90000,
        "permit_action": "existing",
        "aquifer": "surficial sand",
        "lon": -93.3,
        "lat": 45.6,
        "why": "6(e): no fee for an agency",
    },
    {
        "permit_id": "WU-16",
        "entity": "Synthetic Golf Club",
        "entity_type": "business",
        "use": "golf_course_irrigation",
        "source": "groundwater",
        "annual_gallons": "lots",
        "lon": -93.4,
        "lat": 45.0,
        "why": "bad input: annual_gallons is not a number, the row is kept as not assessed",
    },
]


#: GeoPackage version of the sample files, as the outputs (QGIS 3.22 / GDAL 3.6 open 1.2
#: without a warning; GDAL 3.8+ writes 1.4 by default).
GPKG_VERSION = "1.2"


def main(out_dir: Path = HERE) -> list[Path]:
    """Write the sample layer (GeoPackage and CSV) and the synthetic aquifer extent."""
    saved = pyogrio.get_gdal_config_option("OGR_CURRENT_DATE")
    pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": GPKG_DATE})
    try:
        return _write(out_dir)
    finally:
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": saved})


def _write(out_dir: Path) -> list[Path]:
    frame = pd.DataFrame(ROWS)
    frame = frame.drop(columns=["mt_simon_hinckley"], errors="ignore")
    for col in frame.columns:
        if frame[col].map(lambda v: isinstance(v, bool)).any():
            frame[col] = frame[col].map(lambda v: "" if pd.isna(v) else str(v).lower())
    frame["annual_gallons"] = frame["annual_gallons"].astype(str)
    csv = out_dir / "appropriations.csv"
    frame.to_csv(csv, index=False)
    gdf = gpd.GeoDataFrame(
        frame.drop(columns=["lon", "lat"]),
        geometry=gpd.points_from_xy(frame["lon"], frame["lat"]),
        crs="EPSG:4326",
    ).to_crs("EPSG:26915")
    gpkg = out_dir / "appropriations.gpkg"
    if gpkg.exists():
        gpkg.unlink()
    gdf.to_file(
        gpkg, layer="appropriations", driver="GPKG", dataset_options={"VERSION": GPKG_VERSION}
    )
    aquifer = gpd.GeoDataFrame(
        {"name": ["SYNTHETIC Mt. Simon-Hinckley extent (invented, not the DNR/MGS map)"]},
        geometry=[box(-93.4, 44.55, -92.9, 44.85)],
        crs="EPSG:4326",
    ).to_crs("EPSG:26915")
    aq = out_dir / "synthetic_mt_simon_hinckley.gpkg"
    if aq.exists():
        aq.unlink()
    aquifer.to_file(
        aq, layer="mt_simon_hinckley", driver="GPKG", dataset_options={"VERSION": GPKG_VERSION}
    )
    return [csv, gpkg, aq]


if __name__ == "__main__":
    for path in main():
        print(path)
