"""Impact layers and assess runs shared by the test modules that need geopandas."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import geopandas as gpd
from helpers import AS_OF, CONTEXT, FT, assess_cli
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.errors import WetlandGISWarning

ROOT = Path(__file__).resolve().parents[1]
CROW_WING = ROOT / "sample_data" / "projects" / "crow_wing"


def crow_wing_squares(**columns: list) -> gpd.GeoDataFrame:
    """Return one 9,000 sq ft type 2 square a row in Crow Wing County, with ``columns``.

    9,000 sq ft is under the 10,000 sq ft of § 103G.2241 subd. 9(a)(1); two rows total
    18,000 sq ft, over it.
    """
    c1 = gpd.read_file(CROW_WING / "impacts.gpkg").geometry.iloc[0].centroid
    n = len(next(iter(columns.values())))
    side = 9000**0.5 * FT
    geoms = [box(c1.x + 120 * k, c1.y, c1.x + 120 * k + side, c1.y + side) for k in range(n)]
    return gpd.GeoDataFrame({"circ39": ["2"] * n, **columns, "geometry": geoms}, crs="EPSG:26915")


def assess_quietly(gdf: Any, **kw: Any) -> Any:
    """Return ``wg.assess`` of ``gdf`` on the synthetic context, the package's warnings off."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(gdf, CONTEXT, as_of=AS_OF, **kw)


def assess_cli_quietly(tmp_path: Path, impacts: Path, *extra: str) -> tuple[int, Path]:
    """Run ``assess`` of ``impacts`` into ``tmp_path/out/a.gpkg``, all warnings off.

    No public waters are assumed (``--assume-no-public-waters``); return the exit code and
    the output path.
    """
    out = tmp_path / "out" / "a.gpkg"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = assess_cli(
            impacts, CONTEXT, out, "--as-of", AS_OF, "--quiet", "--assume-no-public-waters", *extra
        )
    return code, out
