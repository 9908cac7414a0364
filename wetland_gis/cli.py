"""The ``wetland-gis`` command line: a thin layer over the Python API.

Nothing is computed here that the library does not compute: each sub-command parses
its options, calls one public function, writes its outputs and prints where they are.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from wetland_gis._version import __version__
from wetland_gis.errors import WetlandGISError, WetlandGISWarning

#: Per-wetland fact columns the command line can name (``--<role>-field``); the roles of
#: :data:`wetland_gis.io.fields.DEFAULT_NAMES` (docs/data_schema.md).
FACT_FIELD_ROLES = (
    "impact_kind", "land_use", "wetland_acres", "partial", "duration", "isolated",
    "runoff_retention", "wetland_id", "owner", "owns_whole_wetland", "portion_sqft",
    "prior_sqft_since_1992", "bottomland_hardwood", "banked", "used_for_credit",
)

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``wetland-gis``."""
    parser = argparse.ArgumentParser(
        prog="wetland-gis",
        description=(
            "Screen wetland impacts under the Minnesota Wetland Conservation Act "
            "(Minn. Stat. ch. 103G). The tool screens and explains; the TEP and the "
            "local government unit decide."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("assess", help="classify impact polygons and decide exemptions/replacement")
    p.add_argument("impacts", help="impact layer: .shp, folder, .zip, .gpkg, .geojson, .parquet")
    p.add_argument("--layer", help="layer name inside a GeoPackage")
    p.add_argument("--context", help="context GeoPackage or folder (see docs/data_schema.md)")
    p.add_argument("--out", required=True, help="output file (.gpkg default; .parquet, .geojson, "
                   ".csv, .shp)")
    p.add_argument("--as-of", help="application date YYYY-MM-DD for the legal parameters "
                   "(default today)")
    p.add_argument("--assume-crs", help="CRS to assume for a layer without one, e.g. EPSG:26915 "
                   "(recorded in the manifest)")
    p.add_argument("--id-field", help="column holding the impact id")
    p.add_argument("--type-field", help="column holding the Circular 39 wetland type")
    p.add_argument("--cowardin-field", help="column holding a Cowardin code (type inferred)")
    p.add_argument("--project-field", help="column grouping impacts into projects")
    p.add_argument("--parameters", help="a parameter YAML replacing the shipped wca.yaml")
    p.add_argument("--clause-reading", choices=["per_clause", "one_clause"],
                   default="per_clause",
                   help="subd. 9(e): how the clauses of the one paragraph a project uses are "
                   "totalled (docs/rules.md)")
    for role in FACT_FIELD_ROLES:
        p.add_argument(f"--{role.replace('_', '-')}-field", dest=f"{role}_field",
                       help=f"column holding the {role.replace('_', ' ')} fact "
                       "(docs/data_schema.md)")
    p.add_argument("--local-limit-sqft", type=float,
                   help="a more restrictive local de minimis limit (subd. 9(i))")
    p.add_argument("--tolerance-percent", type=float, default=1.0,
                   help="warn when an area is within this percent of a threshold (default 1)")
    p.add_argument("--assume-no-public-waters", action="store_true",
                   help="without public waters layers, place impacts outside the shoreland "
                   "wetland protection zone (recorded; otherwise they are not assessed)")
    p.add_argument("--quiet", action="store_true", help="no progress messages")

    s = sub.add_parser("site", help="rank and allocate replacement sites and bank credits")
    s.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    s.add_argument("--sites", help="candidate project-specific sites (polygons)")
    s.add_argument("--banks", help="wetland bank credit listing (.csv or .gpkg)")
    s.add_argument("--context", help="context GeoPackage or folder")
    s.add_argument("--adjustments", help="user ratio adjustment table (adjustments.yaml format)")
    s.add_argument("--dem", help="a DEM raster for depression depth and storage of the sites")
    s.add_argument("--as-of", help="application date YYYY-MM-DD")
    s.add_argument("--out-dir", required=True, help="folder for the ranking, plan and layers")

    m = sub.add_parser("map", help="write the self-contained TEP map (HTML)")
    m.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    m.add_argument("--siting", help="output folder of `wetland-gis site`")
    m.add_argument("--context", help="context GeoPackage or folder (boundaries on the map)")
    m.add_argument("--basemap", default="none", help="'none' (offline, default) or a tile name")
    m.add_argument("--out", required=True, help="HTML file to write")

    r = sub.add_parser("report", help="write the TEP report (HTML, and PDF with --pdf)")
    r.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    r.add_argument("--siting", help="output folder of `wetland-gis site`")
    r.add_argument("--map", help="map HTML written by `wetland-gis map`, embedded in the report")
    r.add_argument("--pdf", nargs="?", const=True, default=None, metavar="PDF",
                   help="also write the PDF with a static map (beside --out, or to PDF); "
                   "needs the `pdf` extra")
    r.add_argument("--context", help="context GeoPackage or folder (waters on the PDF map)")
    r.add_argument("--out", required=True, help="HTML file to write")

    w = sub.add_parser("water-use", help="screen water appropriations under § 103G.271 "
                       "(permit, restrictions, processing fee; both editions)")
    w.add_argument("points", help="points of appropriation: .gpkg, .shp, .geojson, or .csv "
                   "with lon/lat (columns: docs/water_use.md)")
    w.add_argument("--out", required=True, help="output GeoPackage (tables and map beside it)")
    w.add_argument("--as-of", help="application (fee year) date YYYY-MM-DD (default today)")
    w.add_argument("--aquifer", help="polygons of the Mt. Simon-Hinckley aquifer extent")
    w.add_argument("--aquifer-layer", help="layer name inside the --aquifer GeoPackage")
    w.add_argument("--context", help="context GeoPackage or folder with a counties layer "
                   "(default: the shipped Minnesota counties)")
    w.add_argument("--layer", help="layer name inside the points GeoPackage")
    w.add_argument("--assume-crs", help="CRS to assume for a layer without one (recorded)")
    w.add_argument("--parameters", help="a parameter YAML replacing the shipped water_use.yaml")
    w.add_argument("--boundary-reading", choices=["next_clause", "previous_clause"],
                   default="next_clause", help="fee at an exact subd. 6(a) boundary "
                   "(docs/water_use.md)")
    w.add_argument("--irrigation-minimum-reading", choices=["floor", "fee_is_minimum"],
                   default="floor", help="how the subd. 6(f) minimum applies")
    w.add_argument("--map", help="map HTML to write (default <out stem>_map.html)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wetland-gis``; return the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on an input or parameter error (the message says what to fix).
    """
    args = build_parser().parse_args(argv)
    from wetland_gis import pipeline

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WetlandGISWarning)
        try:
            written = pipeline.run_command(args)
        except WetlandGISError as exc:
            print(f"wetland-gis {args.command}: error: {exc}", file=sys.stderr)
            return 2
    for w in caught:
        if issubclass(w.category, WetlandGISWarning):
            print(f"warning: {w.message}", file=sys.stderr)
    for path in written:
        print(Path(path))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
