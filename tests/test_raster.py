"""Raster site summaries against values computed by hand on a tiny synthetic DEM.

The DEM is 10 x 10 cells of 2 m (4 m² a cell) in EPSG:26915. The site covers rows and
columns 2-7 (36 cells): its boundary ring is at 10 m except one cell at 9.5 m (the
spill), the 4 x 4 interior is at 9 m and its 2 x 2 centre at 8 m. Outside the site the
ground is at 12 m.

By hand: spill 9.5; 12 interior cells 0.5 m deep and 4 centre cells 1.5 m deep, so the
depth sum is 12 m, the storage 12 x 4 = 48 m³, the maximum depth 1.5 m, the mean depth
12 / 16 = 0.75 m over 16 ponded cells (64 m²); mean elevation
(19 x 10 + 9.5 + 12 x 9 + 4 x 8) / 36 = 339.5 / 36.
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pytest
import rasterio
from affine import Affine
from shapely.geometry import box

from wetland_gis.errors import InputError, MissingCRSError
from wetland_gis.siting.raster import (
    CUBIC_METRES_PER_ACRE_FOOT,
    SUITABILITY_CAVEAT,
    categorical_share,
    depression_summary,
)

CRS = "EPSG:26915"
X0, Y0, CELL = 500_000.0, 5_000_000.0, 2.0
NODATA = -9999.0


def bowl() -> np.ndarray:
    z = np.full((10, 10), 12.0)
    z[2:8, 2:8] = 10.0
    z[2, 4] = 9.5
    z[3:7, 3:7] = 9.0
    z[4:6, 4:6] = 8.0
    return z


def write(path: Path, z: np.ndarray, crs: str | None = CRS) -> Path:
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        width=z.shape[1],
        height=z.shape[0],
        count=1,
        dtype="float32",
        crs=crs,
        transform=Affine(CELL, 0, X0, 0, -CELL, Y0),
        nodata=NODATA,
    ) as dst:
        dst.write(z.astype("float32"), 1)
    return path


def cells_box(r0: int, r1: int, c0: int, c1: int):
    """Polygon of rows r0..r1-1 and columns c0..c1-1."""
    return box(X0 + c0 * CELL, Y0 - r1 * CELL, X0 + c1 * CELL, Y0 - r0 * CELL)


@pytest.fixture
def site() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"site_id": ["S"]}, geometry=[cells_box(2, 8, 2, 8)], crs=CRS, index=[5]
    )


def test_bowl_matches_the_hand_computation(tmp_path, site):
    z = bowl()
    z[0, 0] = NODATA  # outside the site: ignored
    out = depression_summary(site, write(tmp_path / "dem.tif", z)).loc[5]
    assert out["dem_cells"] == 36
    assert out["nodata_sh"] == 0.0
    assert out["z_min_m"] == 8.0 and out["z_max_m"] == 10.0
    assert out["z_mean_m"] == pytest.approx(339.5 / 36)
    assert out["spill_m"] == 9.5
    assert out["dmax_m"] == pytest.approx(1.5)
    assert out["dmean_m"] == pytest.approx(0.75)
    assert out["pond_cells"] == 16
    assert out["pond_m2"] == pytest.approx(64.0)
    assert out["store_m3"] == pytest.approx(48.0)
    assert out["store_acft"] == pytest.approx(48.0 / 1233.48183754752)
    assert out["dem_caveat"] == SUITABILITY_CAVEAT
    assert "not a legal decision" in out["dem_caveat"]


def test_acre_foot_is_43560_cubic_feet():
    assert CUBIC_METRES_PER_ACRE_FOOT == pytest.approx(1233.48183754752)


def test_a_nodata_cell_inside_the_site_is_left_out_and_counted(tmp_path, site):
    z = bowl()
    z[4, 4] = NODATA  # a centre cell, 1.5 m deep
    out = depression_summary(site, write(tmp_path / "dem.tif", z)).loc[5]
    assert out["dem_cells"] == 36
    assert out["nodata_sh"] == pytest.approx(1 / 36)
    assert out["store_m3"] == pytest.approx((12 - 1.5) * 4)
    assert out["z_mean_m"] == pytest.approx((339.5 - 8) / 35)
    assert out["pond_cells"] == 15


def test_the_spill_is_the_lowest_valid_boundary_cell(tmp_path, site):
    z = bowl()
    z[2, 4] = NODATA  # the 9.5 m outlet has no data: the rim is 10 m, with a note
    out = depression_summary(site, write(tmp_path / "dem.tif", z)).loc[5]
    assert out["spill_m"] == 10.0
    assert out["store_m3"] == pytest.approx((12 * 1.0 + 4 * 2.0) * 4)
    assert "spill may be lower" in out["dem_note"]


def test_a_flat_site_stores_nothing(tmp_path, site):
    out = depression_summary(site, write(tmp_path / "dem.tif", np.full((10, 10), 5.0))).loc[5]
    assert out["spill_m"] == 5.0
    assert out["store_m3"] == 0.0 and out["dmax_m"] == 0.0 and out["pond_cells"] == 0


def test_a_dem_in_feet(tmp_path, site):
    out = depression_summary(site, write(tmp_path / "dem.tif", bowl()), z_unit_m=0.3048).loc[5]
    assert out["spill_m"] == pytest.approx(9.5 * 0.3048)
    assert out["store_m3"] == pytest.approx(48.0 * 0.3048)


def test_sites_in_another_crs_are_reprojected_to_the_raster(tmp_path, site):
    dem = write(tmp_path / "dem.tif", bowl())
    geographic = site.to_crs("EPSG:4326")
    out = depression_summary(geographic, dem).loc[5]
    assert out["dem_cells"] == 36
    assert out["store_m3"] == pytest.approx(48.0)


def test_sites_outside_or_smaller_than_a_cell(tmp_path):
    dem = write(tmp_path / "dem.tif", bowl())
    sites = gpd.GeoDataFrame(
        geometry=[box(0, 0, 10, 10), box(X0 + 9.2, Y0 - 9.8, X0 + 9.6, Y0 - 9.4)], crs=CRS
    )
    out = depression_summary(sites, dem)
    assert out.loc[0, "dem_cells"] == 0
    assert out.loc[0, "dem_note"] == "outside the raster"
    assert np.isnan(out.loc[0, "store_m3"])
    assert out.loc[1, "dem_cells"] == 1  # cell (row 4, col 4) touched, centre not inside
    assert "touched" in out.loc[1, "dem_note"]
    assert out.loc[1, "z_min_m"] == 8.0


def test_a_site_half_off_the_raster_is_noted(tmp_path):
    dem = write(tmp_path / "dem.tif", bowl())
    sites = gpd.GeoDataFrame(geometry=[box(X0 - 10, Y0 - 4, X0 + 4, Y0)], crs=CRS)
    out = depression_summary(sites, dem).loc[0]
    assert out["dem_cells"] == 4
    assert "beyond the raster" in out["dem_note"]


def test_categorical_share_by_values_and_by_function(tmp_path, site):
    z = bowl()
    z[4, 4] = NODATA
    path = write(tmp_path / "cls.tif", z)
    out = categorical_share(site, path, [8, 9], prefix="low").loc[5]
    assert out["low_cells"] == 36
    assert out["low_in"] == 15  # 12 cells at 9, 3 valid cells at 8
    assert out["low_share"] == pytest.approx(15 / 36)
    assert out["low_valid"] == pytest.approx(15 / 35)
    assert out["low_nodata"] == pytest.approx(1 / 36)
    assert "not a legal decision" in out["low_note"]
    fn = categorical_share(site, path, lambda v: v < 9.75).loc[5]
    assert fn["cls_in"] == 16  # plus the 9.5 m outlet


def test_raster_errors_name_the_fix(tmp_path, site):
    with pytest.raises(InputError, match="does not exist"):
        depression_summary(site, tmp_path / "missing.tif")
    no_crs = write(tmp_path / "nocrs.tif", bowl(), crs=None)
    with pytest.raises(MissingCRSError, match="gdal_edit"):
        depression_summary(site, no_crs)
    with pytest.raises(InputError, match="classes` is empty"):
        categorical_share(site, write(tmp_path / "dem.tif", bowl()), [])
    with pytest.raises(MissingCRSError, match="set_crs"):
        depression_summary(
            gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)]), write(tmp_path / "dem2.tif", bowl())
        )


def _crow_wing_sites() -> gpd.GeoDataFrame:
    """Return a 60 m square around the DEM's lowest cell (429374.3, 5150602.4), then all of it."""
    return gpd.GeoDataFrame(
        {"site_id": ["low", "all"]},
        geometry=[
            box(429344.3, 5150572.4, 429404.3, 5150632.4),
            box(429252.313370022, 5150485.424942633, 429652.313370022, 5150885.424942633),
        ],
        crs=CRS,
    )


def test_crow_wing_lidar_dem_gives_plausible_values(sample_data):
    # the first site lies in a sink
    sites = _crow_wing_sites()
    out = depression_summary(sites, sample_data.dem)
    low = out.loc[0]
    assert low["dem_cells"] == 3600 and low["nodata_sh"] == 0.0
    assert 379.0 < low["z_min_m"] < 380.0
    assert low["z_min_m"] <= low["z_mean_m"] <= low["z_max_m"] < 411.0
    assert low["z_min_m"] < low["spill_m"] <= low["z_max_m"]
    assert 0 < low["dmax_m"] == pytest.approx(low["spill_m"] - low["z_min_m"])
    assert 0 < low["dmean_m"] <= low["dmax_m"]
    assert low["store_m3"] == pytest.approx(low["dmean_m"] * low["pond_m2"])
    whole = out.loc[1]
    assert whole["dem_cells"] == 160_000
    assert 379.0 < whole["z_min_m"] < whole["z_max_m"] < 411.0
    assert whole["store_m3"] > 0


def test_crow_wing_lidar_sink_share(sample_data):
    sites = _crow_wing_sites()
    sink = categorical_share(sites, sample_data.sink, lambda v: v > 0, prefix="sink")
    assert sink.loc[0, "sink_share"] > 0.9  # the lowest cell lies in a mapped sink
    assert sink.loc[1, "sink_share"] == pytest.approx(71_886 / 160_000)  # cells > 0
