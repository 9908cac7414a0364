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
    p.add_argument("--multi-zone-reading", choices=["most_restrictive", "per_zone"],
                   default="most_restrictive",
                   help="how subd. 9(e) applies to a project in several shoreland zones "
                   "(docs/rules.md)")
    p.add_argument("--local-limit-sqft", type=float,
                   help="a more restrictive local de minimis limit (subd. 9(i))")
    p.add_argument("--tolerance-percent", type=float, default=1.0,
                   help="warn when an area is within this percent of a threshold (default 1)")
    p.add_argument("--assume-no-public-waters", action="store_true",
                   help="without public waters layers, place impacts outside the shoreland "
                   "wetland protection zone (recorded; otherwise they are not assessed)")
    p.add_argument("--engine", choices=["default", "chunks", "dask"], default="default",
                   help="default: one pass in memory; chunks: partitions of whole projects "
                   "one after another; dask: one dask task per partition (docs/scale.md)")
    p.add_argument("--chunk-size", type=int,
                   help="impacts per partition of whole projects (default 50000); with "
                   "--engine default and a .parquet --out, stream the chunks to GeoParquet")
    p.add_argument("--scheduler", help="address of a running dask.distributed scheduler, "
                   "e.g. tcp://10.0.0.5:8786 (--engine dask; default: a local cluster)")
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

    sc = sub.add_parser("screen", help="classify every wetland of an inventory layer and "
                        "give the de minimis amount a fill there would get")
    sc.add_argument("wetlands", help="wetland inventory layer (NWI-style polygons with "
                    "`attribute` and/or `circ39_class`)")
    sc.add_argument("--layer", help="layer name inside a GeoPackage")
    sc.add_argument("--context", help="context GeoPackage or folder (see docs/data_schema.md)")
    sc.add_argument("--out", required=True, help="output GeoParquet (.parquet); a GeoPackage "
                    "(.gpkg) of the same name is written beside it")
    sc.add_argument("--as-of", help="application date YYYY-MM-DD (default today)")
    sc.add_argument("--assume-crs", help="CRS for a layer without one (recorded)")
    sc.add_argument("--type-field", help="column holding the Circular 39 type")
    sc.add_argument("--cowardin-field", help="column holding the Cowardin code")
    sc.add_argument("--quiet", action="store_true", help="no progress bars")

    r = sub.add_parser("report", help="write the printable TEP report (HTML)")
    r.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    r.add_argument("--siting", help="output folder of `wetland-gis site`")
    r.add_argument("--map", help="map HTML written by `wetland-gis map`, embedded in the report")
    r.add_argument("--out", required=True, help="HTML file to write")
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
