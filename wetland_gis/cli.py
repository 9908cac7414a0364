"""The ``wetland-gis`` command line: a thin layer over the Python API.

Nothing is computed here that the library does not compute: each sub-command parses
its options, calls one public function, writes its outputs and prints where they are,
then a tally of what it read, assessed and decided.

Exit status (:data:`EXIT_CODES`): 0 done; 1 an unexpected internal error (a short
message names the file holding the traceback); 2 an input, parameter or output error
(one line naming the file, layer, row and fix); 3 done, but ``--strict`` was given and
some row was not assessed or the input layer had no features; 130 interrupted (no
output was changed); 143 terminated by SIGTERM (no output was changed: the staging folder
is removed as on an error, :class:`Terminated`).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import re
import signal
import sys
import tempfile
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from wetland_gis._version import __version__
from wetland_gis.errors import WetlandGISError, WetlandGISWarning
from wetland_gis.io.fact_roles import FACT_FIELD_ROLES as FACT_FIELD_ROLES
from wetland_gis.io.field_map import FIELD_ALIASES
from wetland_gis.rules.exempt import CLAIMS
from wetland_gis.rules.kernel import READINGS
from wetland_gis.rules.priority import BANKING_OWN_ORDER, SITING_READINGS
from wetland_gis.water_use.rules import BOUNDARY_READINGS, IRRIGATION_MINIMUM_READINGS, FeeReadings

#: Exit status of ``wetland-gis`` by what happened.
EXIT_CODES = {
    "ok": 0,
    "internal_error": 1,
    "input_error": 2,
    "not_assessed": 3,
    "interrupted": 130,
    "terminated": 143,
}

#: Environment variable naming the folder for saved tracebacks (default: the temp folder).
TRACEBACK_DIR_ENV = "WETLAND_GIS_TRACEBACK_DIR"


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Add the options every writing sub-command has: ``--overwrite`` and ``--strict``."""
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace existing output files that an earlier run of this "
        "command did not write (a GeoPackage is always written into, "
        "keeping its other layers)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit with status 3 when any row was not assessed, or the input layer "
        "has no features (the outputs are still written), for scripted pipelines",
    )


def add_field_options(parser: argparse.ArgumentParser, aliases: dict[str, str]) -> None:
    """Add ``--field ROLE=COLUMN``, ``--field-map FILE`` and the deprecated ``aliases``."""
    parser.add_argument(
        "--field",
        action="append",
        metavar="ROLE=COLUMN",
        help="the layer's column holding a role, e.g. --field impact_kind=impact_kin "
        "(repeatable; `wetland-gis fields` lists the roles and the names read by default)",
    )
    parser.add_argument(
        "--field-map",
        metavar="FILE",
        help="a TOML, YAML or CSV file of role = column (`wetland-gis fields --template "
        "FILE` writes one); --field takes precedence; recorded in the manifest with its hash",
    )
    for role, option in aliases.items():
        parser.add_argument(
            option,
            dest=f"{option[2:].replace('-', '_')}",
            metavar="COLUMN",
            help=f"deprecated: use --field {role}=COLUMN",
        )


def _weights(text: str) -> dict[str, float]:
    """Read ``--weights cost=1,distance=0.5``; the keys and values are checked by ``site``."""
    out: dict[str, float] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not sep or not key.strip() or number != number:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not KEY=NUMBER; write e.g. cost=1,distance=0.5"
            )
        out[key.strip()] = number
    return out


#: Options that several sub-commands add alike (the same flag, help and default), by a
#: name of their own: :func:`_add_shared` adds them where each command lists them.
_SHARED_OPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "context": ("--context", {"help": "context GeoPackage or folder (see docs/data_schema.md)"}),
    "as_of": ("--as-of", {"help": "application date YYYY-MM-DD (default today)"}),
    "parameters": ("--parameters", {"help": "a parameter YAML replacing the shipped wca.yaml"}),
    "adjustments": (
        "--adjustments",
        {"help": "user ratio adjustment table (adjustments.yaml format)"},
    ),
    "html_out": ("--out", {"required": True, "help": "HTML file to write"}),
    "quiet_bar": ("--quiet", {"action": "store_true", "help": "no progress bar"}),
    "quiet": ("--quiet", {"action": "store_true", "help": "no progress messages"}),
}


def _add_shared(parser: argparse.ArgumentParser, *names: str) -> None:
    """Add the options ``names`` of :data:`_SHARED_OPTIONS`, in that order."""
    for name in names:
        flag, kwargs = _SHARED_OPTIONS[name]
        parser.add_argument(flag, **kwargs)


def _add_input(
    parser: argparse.ArgumentParser, name: str, help: str, nargs: str | None = None
) -> None:
    """Add the input layer ``name``, with ``--layer``, ``--assume-crs`` and ``--override-crs``."""
    parser.add_argument(name, help=help, nargs=nargs)
    parser.add_argument(
        "--layer", help=f"layer name inside the {name} GeoPackage or File Geodatabase (.gdb)"
    )
    crs = parser.add_mutually_exclusive_group()
    crs.add_argument(
        "--assume-crs",
        metavar="CRS",
        help="CRS of a layer that has none (no .prj), e.g. EPSG:26915; it applies only to "
        "layers without a CRS and is ignored, with a record, for one that has a CRS "
        "(recorded in the manifest)",
    )
    crs.add_argument(
        "--override-crs",
        metavar="CRS",
        help="CRS that replaces the layer's own when its .prj is wrong, e.g. EPSG:26915: "
        "the coordinates are kept and declared to be in it (recorded in the manifest "
        "with the old CRS)",
    )


#: The answers ``--claim NAME=VALUE`` takes, and what each claims (``None``: not claimed).
CLAIM_VALUES: dict[str, bool | None] = {"yes": True, "no": False, "unknown": None}


def parse_claim(text: str) -> tuple[str, bool | None]:
    """Read one ``--claim``: ``NAME`` (yes) or ``NAME=yes|no|unknown``.

    Raises
    ------
    argparse.ArgumentTypeError
        Naming the allowed claims or answers (argparse exits 2 with it).

    Examples
    --------
    >>> parse_claim("corps_404_permit"), parse_claim("corps_404_permit=No")
    (('corps_404_permit', True), ('corps_404_permit', False))
    """
    name, eq, value = str(text).partition("=")
    name = name.strip()
    if name not in CLAIMS:
        raise argparse.ArgumentTypeError(
            f"claim {name!r} is not one of {', '.join(CLAIMS)} (docs/rules.md)"
        )
    answer = value.strip().lower() if eq else "yes"
    if answer not in CLAIM_VALUES:
        raise argparse.ArgumentTypeError(
            f"claim {name}={value!r}: the answer is expected to be one of {', '.join(CLAIM_VALUES)}"
        )
    return name, CLAIM_VALUES[answer]


class _ClaimArgument:
    """The argparse type of ``--claim`` (:func:`parse_claim`).

    Its ``choices`` are the claim names (an ``NAME=answer`` value cannot be an argparse
    choice): the QGIS provider's dialog lists them from here.
    """

    choices: tuple[str, ...] = tuple(CLAIMS)

    def __call__(self, text: str) -> tuple[str, bool | None]:
        return parse_claim(text)


#: The inputs of the cut whose layer ``--input-layer INPUT=LAYER`` names (issue 35).
FOOTPRINT_INPUTS = ("footprint", "wetlands", "existing", "parcels", "drainage")


class _KeyedArgument:
    """The argparse type of a repeatable ``KEY=VALUE`` option (``--reading``, ``--input-layer``).

    ``keys`` maps each key to its allowed values (empty: any value). The QGIS provider's
    dialog reads them (``--reading=clause_reading`` and its choices).
    """

    def __init__(self, option: str, keys: dict[str, tuple[str, ...]], example: str) -> None:
        self.option, self.keys, self.example = option, keys, example

    def __call__(self, text: str) -> tuple[str, str]:
        key, eq, value = str(text).partition("=")
        key, value = key.strip().lower().replace("-", "_"), value.strip()
        if self.option == "--reading" and key and not key.endswith("_reading"):
            key += "_reading"  # --reading clause=per_clause names the clause_reading
        if not eq or key not in self.keys or not value:
            raise argparse.ArgumentTypeError(
                f"{self.option} {text!r}: expected KEY=VALUE with KEY one of "
                f"{', '.join(self.keys)}, e.g. {self.option} {self.example}"
            )
        allowed = self.keys[key]
        if allowed and value not in allowed:
            raise argparse.ArgumentTypeError(
                f"{self.option} {key}={value!r}: expected one of {', '.join(allowed)} "
                f"(the first is the default; docs/rules.md, Open readings)"
            )
        return key, value


def _add_readings(parser: argparse.ArgumentParser) -> None:
    """Add ``--reading NAME=VALUE`` (every open reading of the rules core) and two aliases."""
    parser.add_argument(
        "--reading",
        action="append",
        type=_KeyedArgument("--reading", dict(READINGS), "exemption_scope=covered_impacts"),
        metavar="NAME=VALUE",
        help="an open reading of the text other than the default (repeatable): "
        + "; ".join(f"{n.removesuffix('_reading')}: {'|'.join(v)}" for n, v in READINGS.items())
        + " (the first is the default; docs/rules.md, Open readings)",
    )
    for name in ("clause_reading", "exemption_scope_reading"):  # before --reading (issue 33)
        parser.add_argument(
            f"--{name.replace('_', '-')}", choices=READINGS[name], help=argparse.SUPPRESS
        )


def _add_footprint_options(parser: argparse.ArgumentParser, *, in_assess: bool) -> None:
    """Add the inputs ``wetland-gis impacts`` cuts the impacts from (issue 35).

    In ``assess`` the footprint is the option ``--footprint``; in ``impacts`` it is the
    positional input (with ``--layer``). The layer inside a GeoPackage or File Geodatabase
    input is named by ``--input-layer INPUT=LAYER``.
    """
    if in_assess:
        parser.add_argument(
            "--footprint",
            help="construction limits (polygons, one row a part): the impacts are cut from "
            "them and --wetlands, then assessed, in one run (docs/footprint.md)",
        )
    parser.add_argument(
        "--wetlands",
        required=not in_assess,
        help="the wetland delineation (wetland_id, circ39 and/or attribute), or NWI polygons "
        "(ATTRIBUTE) for a screening",
    )
    _add_wetlands_source(
        parser,
        "auto (default): NWI when the layer has NWI's columns and no wetland id; every "
        "output of a run on NWI says it is a screening, not a delineation",
    )
    parser.add_argument("--existing", help="already developed ground (polygons): no new impact")
    parser.add_argument(
        "--parcels",
        help="parcels with an owner column (and a parcel id, parcel_id or pin): owner, "
        "portion, whole-wetland ownership",
    )
    parser.add_argument(
        "--drainage",
        help="ditches or tile (lines); each drains the wetland within its lateral effect "
        "distance (a column lateral_effect_ft, lat_eff_ft or effect_ft, or --lateral-effect-ft)",
    )
    _add_input_layer(parser, FOOTPRINT_INPUTS if in_assess else FOOTPRINT_INPUTS[1:])
    parser.add_argument(
        "--lateral-effect-ft",
        type=float,
        metavar="FEET",
        help="lateral effect distance of every drainage line without one of its own; the law "
        "held gives none, so there is no default (recorded in the manifest)",
    )
    if not in_assess:
        parser.add_argument(
            "--lateral-effect-ft-field",
            help="drainage column holding each line's lateral effect distance in feet "
            "(default lateral_effect_ft, lat_eff_ft or effect_ft)",
        )


def _add_wetlands_source(parser: argparse.ArgumentParser, help: str) -> None:
    """Add ``--wetlands-source``: whether the wetland layer is a delineation or NWI."""
    parser.add_argument(
        "--wetlands-source", choices=["auto", "delineation", "nwi"], default="auto", help=help
    )


def _add_input_layer(parser: argparse.ArgumentParser, inputs: Sequence[str]) -> None:
    """Add ``--input-layer INPUT=LAYER`` for the ``inputs`` of the cut (issue 35)."""
    parser.add_argument(
        "--input-layer",
        action="append",
        type=_KeyedArgument("--input-layer", {k: () for k in inputs}, "wetlands=delineation"),
        metavar="INPUT=LAYER",
        help="the layer to read inside a GeoPackage or File Geodatabase input (repeatable): "
        f"INPUT one of {', '.join(inputs)}",
    )


def _add_assessed(parser: argparse.ArgumentParser, *, siting: bool = True) -> None:
    """Add the assessed GeoPackage a sub-command reads and, with ``siting``, ``--siting``."""
    parser.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    if siting:
        parser.add_argument("--siting", help="output folder of `wetland-gis site`")


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

    for add in (
        _add_assess_parser,
        _add_site_parser,
        _add_map_parser,
        _add_screen_parser,
        _add_report_parser,
        _add_water_use_parser,
        _add_compare_parser,
        _add_fields_parser,
        _add_impacts_parser,
    ):
        add(sub)
    from wetland_gis.register.cli import add_register_parser

    add_register_parser(sub)
    return parser


def _add_assess_parser(sub: Any) -> None:
    """Add ``assess``: classify impact polygons and decide them (one request, an engine)."""
    p = sub.add_parser("assess", help="classify impact polygons and decide exemptions/replacement")
    _add_input(
        p,
        "impacts",
        "impact layer: .shp, folder, .zip, .gpkg, .gdb, .geojson, .parquet (or --footprint and "
        "--wetlands instead: the impacts are cut from them first, issue 35)",
        nargs="?",
    )
    _add_footprint_options(p, in_assess=True)
    _add_shared(p, "context")
    p.add_argument(
        "--out", required=True, help="output file (.gpkg default; .parquet, .geojson, .csv, .shp)"
    )
    p.add_argument(
        "--as-of", help="application date YYYY-MM-DD for the legal parameters (default today)"
    )
    add_field_options(p, FIELD_ALIASES)
    _add_shared(p, "parameters")
    _add_readings(p)
    p.add_argument(
        "--claim",
        action="append",
        type=_ClaimArgument(),
        metavar="CLAIM[=yes|no|unknown]",
        help="claim a fact of another exemption that only a person can confirm, for every "
        "impact that does not give it (repeatable; CLAIM alone means yes, e.g. "
        f"--claim corps_404_permit=no): {', '.join(CLAIMS)} (docs/rules.md)",
    )
    p.add_argument(
        "--project-facts",
        metavar="FILE",
        help="a CSV or YAML of fact columns keyed by project (road, exemption and "
        "landowner facts), filling each impact's blank cells; a cell that disagrees is an "
        "error (docs/data_schema.md, 'Project facts'; template docs/templates/)",
    )
    _add_assess_choices(p)
    _add_engine_options(p)
    p.add_argument(
        "--register",
        help="the LGU's decision register (GeoPackage path or postgresql:// URL): prior "
        "impacts since 1992, banked/credit, valid type determinations (docs/register.md)",
    )
    _add_shared(p, "quiet")
    add_run_options(p)


def _add_assess_choices(parser: argparse.ArgumentParser) -> None:
    """Add the analyst's choices of ``assess``: the local limit, the tolerance, the classes."""
    parser.add_argument(
        "--local-limit-sqft",
        type=float,
        help="a more restrictive local de minimis limit (subd. 9(i))",
    )
    parser.add_argument(
        "--tolerance-percent",
        type=float,
        default=1.0,
        help="warn when an area is within this percent of a threshold (default 1)",
    )
    parser.add_argument(
        "--shoreland-classes",
        metavar="CSV",
        help="the DNR basin shoreland classification list: basins without "
        "shore_class take theirs from it by DOW number (docs/context.md)",
    )
    parser.add_argument(
        "--shoreland-class-source",
        choices=["dnr", "local"],
        default="dnr",
        help="with --shoreland-classes: the DNR class (default) or the county/"
        "city ordinance class where the local ordinance governs",
    )
    parser.add_argument(
        "--assume-no-public-waters",
        action="store_true",
        help="without public waters layers, place impacts outside the shoreland "
        "wetland protection zone (recorded; otherwise they are not assessed)",
    )


def _add_engine_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--engine``, ``--chunk-size`` and ``--scheduler`` (docs/scale.md)."""
    parser.add_argument(
        "--engine",
        choices=["default", "chunks", "dask"],
        default="default",
        help="default: one pass in memory; chunks: partitions of whole projects "
        "one after another; dask: one dask task per partition (docs/scale.md)",
    )
    parser.add_argument(
        "--chunk-size",
        type=int,
        help="impacts per partition of whole projects, 1 or more (default 50000); with "
        "--engine default and a .parquet --out, stream the chunks to GeoParquet; with "
        "another --out, assess by the chunks engine and write the result whole",
    )
    parser.add_argument(
        "--scheduler",
        help="address of a running dask.distributed scheduler, "
        "e.g. tcp://10.0.0.5:8786 (only with --engine dask; default: a local cluster, "
        "none when the layer makes one partition; a scheduler that does not answer "
        "within 10 s is an error)",
    )


def _add_site_parser(sub: Any) -> None:
    """Add ``site``: rank and allocate replacement sites and bank credits."""
    s = sub.add_parser("site", help="rank and allocate replacement sites and bank credits")
    _add_assessed(s, siting=False)
    s.add_argument("--sites", help="candidate project-specific sites (polygons)")
    s.add_argument("--banks", help="wetland bank credit listing (.csv or .gpkg)")
    s.add_argument("--context", help="context GeoPackage or folder")
    _add_shared(s, "adjustments")
    s.add_argument("--dem", help="a DEM raster for depression depth and storage of the sites")
    s.add_argument("--as-of", help="application date YYYY-MM-DD")
    s.add_argument("--out-dir", required=True, help="folder for the ranking, plan and layers")
    s.add_argument(
        "--siting-reading",
        choices=SITING_READINGS,
        default=BANKING_OWN_ORDER,
        help="§ 103G.222, subd. 3(c): banking_own_order (default: sites and bank credits "
        "each in their own priority order, the cheaper first between them) or single_order "
        "(one order: a bank credit after every tier 1 and 2 site); docs/siting.md",
    )
    s.add_argument(
        "--weights",
        type=_weights,
        metavar="KEY=VALUE[,KEY=VALUE]",
        help="what the allocation minimises after the unmet area, instead of the cost alone: "
        "weights >= 0 of cost (per USD), distance (per credit-foot) and out_of_kind (per "
        "credit of another type), e.g. cost=1,distance=0.5 (a key left out is 0)",
    )
    _add_shared(s, "quiet_bar")
    add_run_options(s)


def _add_map_parser(sub: Any) -> None:
    """Add ``map``: the self-contained TEP map."""
    m = sub.add_parser("map", help="write the self-contained TEP map (HTML)")
    _add_assessed(m)
    m.add_argument("--context", help="context GeoPackage or folder (boundaries on the map)")
    m.add_argument("--basemap", default="none", help="'none' (offline, default) or a tile name")
    m.add_argument("--project", help="draw this project only (its impacts and source layers)")
    _add_shared(m, "html_out")
    add_run_options(m)


def _add_screen_parser(sub: Any) -> None:
    """Add ``screen``: every wetland of an inventory and its de minimis amount."""
    sc = sub.add_parser(
        "screen",
        help="classify every wetland of an inventory layer and "
        "give the de minimis amount a fill there would get",
    )
    _add_input(
        sc,
        "wetlands",
        "wetland inventory layer (NWI-style polygons with `attribute` and/or `circ39_class`)",
    )
    _add_shared(sc, "context")
    sc.add_argument(
        "--out",
        required=True,
        help="output GeoParquet (.parquet); a GeoPackage "
        "(.gpkg) of the same name is written beside it",
    )
    _add_shared(sc, "as_of")
    add_field_options(
        sc, {k: v for k, v in FIELD_ALIASES.items() if k in ("wetland_type", "cowardin")}
    )
    sc.add_argument("--quiet", action="store_true", help="no progress bars")

    add_run_options(sc)


def _add_report_parser(sub: Any) -> None:
    """Add ``report``: the TEP report (HTML, and PDF with ``--pdf``)."""
    r = sub.add_parser("report", help="write the TEP report (HTML, and PDF with --pdf)")
    _add_assessed(r)
    r.add_argument("--map", help="map HTML written by `wetland-gis map`, embedded in the report")
    r.add_argument(
        "--pdf",
        nargs="?",
        const=True,
        default=None,
        metavar="PDF",
        help="also write the PDF with a static map (beside --out, or to PDF); "
        "needs the `pdf` extra",
    )
    r.add_argument("--context", help="context GeoPackage or folder (waters on the PDF map)")
    _add_shared(r, "html_out", "quiet_bar")
    add_run_options(r)


def _add_water_use_parser(sub: Any) -> None:
    """Add ``water-use``: water appropriations under § 103G.271."""
    w = sub.add_parser(
        "water-use",
        help="screen water appropriations under § 103G.271 "
        "(permit, restrictions, processing fee; both editions)",
    )
    _add_input(
        w,
        "points",
        "points of appropriation: .gpkg, .shp, .geojson, or .csv "
        "with lon/lat (columns: docs/water_use.md)",
    )
    w.add_argument("--out", required=True, help="output GeoPackage (tables and map beside it)")
    w.add_argument("--as-of", help="application (fee year) date YYYY-MM-DD (default today)")
    w.add_argument("--aquifer", help="polygons of the Mt. Simon-Hinckley aquifer extent")
    w.add_argument("--aquifer-layer", help="layer name inside the --aquifer GeoPackage")
    w.add_argument(
        "--context",
        help="context GeoPackage or folder with a counties layer "
        "(default: the shipped Minnesota counties)",
    )
    w.add_argument("--parameters", help="a parameter YAML replacing the shipped water_use.yaml")
    w.add_argument(
        "--boundary-reading",
        choices=BOUNDARY_READINGS,
        default=FeeReadings.boundary,
        help="fee at an exact subd. 6(a) boundary (docs/water_use.md)",
    )
    w.add_argument(
        "--irrigation-minimum-reading",
        choices=IRRIGATION_MINIMUM_READINGS,
        default=FeeReadings.irrigation_minimum,
        help="how the subd. 6(f) minimum applies",
    )
    w.add_argument("--map", help="map HTML to write (default <out stem>_map.html)")
    add_run_options(w)


def _add_compare_parser(sub: Any) -> None:
    """Add ``compare``: the alternatives of one project, assessed alike."""
    c = sub.add_parser(
        "compare",
        help="sequencing: assess the alternatives of one project alike and compare them",
    )
    c.add_argument(
        "alternatives",
        nargs="+",
        metavar="ALTERNATIVE",
        help="impact layer of each alternative, the applicant's preferred first; "
        "'no-build' for an alternative with no impact",
    )
    c.add_argument("--layer", help="layer name inside each GeoPackage or File Geodatabase")
    c.add_argument("--assume-crs", help="CRS for a layer that has none (recorded)")
    c.add_argument(
        "--name",
        action="append",
        dest="names",
        metavar="NAME",
        help="the name of each alternative, once per alternative in order (default: file stem)",
    )
    _add_shared(c, "context", "as_of", "parameters")
    _add_readings(c)
    add_field_options(c, {})
    c.add_argument("--sites", help="candidate sites: each alternative is also sited")
    c.add_argument("--banks", help="bank credit listing: each alternative is also sited")
    _add_shared(c, "adjustments")
    c.add_argument("--out", required=True, help="folder for the comparison (table, maps, page)")
    c.add_argument(
        "--wetlands",
        help="with it, each ALTERNATIVE is construction limits (a footprint), cut into impacts "
        "by these wetlands first (issue 35, docs/footprint.md)",
    )
    _add_wetlands_source(c, "auto: NWI when the layer has NWI's columns and no wetland id")
    for name, what in (
        ("existing", "already developed ground (polygons)"),
        ("parcels", "parcels with an owner column"),
        ("drainage", "ditches or tile (lines)"),
    ):
        c.add_argument(f"--{name}", help=f"with --wetlands: {what}, for every alternative")
    _add_input_layer(c, FOOTPRINT_INPUTS[1:])
    c.add_argument(
        "--lateral-effect-ft",
        type=float,
        metavar="FEET",
        help="with --drainage: the lateral effect distance (no default)",
    )
    _add_shared(c, "quiet")
    add_run_options(c)


def _add_fields_parser(sub: Any) -> None:
    """Add ``fields``: the field roles, a layer's columns, a field-map template."""
    f = sub.add_parser(
        "fields",
        help="list every field role and the column names read for it; with a layer, "
        "which column is read for each; write a field-map template",
    )
    f.add_argument(
        "impacts", nargs="?", help="an impact layer: show which of its columns each role reads"
    )
    f.add_argument("--layer", help="layer name inside the impacts GeoPackage or FileGDB")
    add_field_options(f, FIELD_ALIASES)
    f.add_argument(
        "--template",
        metavar="FILE",
        help="write a field-map template (.toml, .yaml or .csv) listing every role, filled "
        "in with the columns found in the layer when one is given",
    )
    f.add_argument("--overwrite", action="store_true", help="replace an existing template")


def _add_impacts_parser(sub: Any) -> None:
    """Add ``impacts``: cut the impact layer from the construction limits."""
    i = sub.add_parser(
        "impacts",
        help="cut the impact layer from the construction limits and the wetland delineation "
        "(docs/footprint.md)",
    )
    _add_input(
        i,
        "footprint",
        "construction limits: polygons, one row a part (project, impact, duration, ...): "
        ".shp, folder, .zip, .gpkg, .gdb, .geojson, .parquet",
    )
    _add_footprint_options(i, in_assess=False)
    i.add_argument("--out", required=True, help="the impact layer (.gpkg default; .shp, .parquet)")
    add_field_options(i, {})
    _add_shared(i, "quiet")
    add_run_options(i)


def _save_traceback(command: str) -> Path | None:
    """Write the current exception's traceback to a file; return its path."""
    folder = Path(os.environ.get(TRACEBACK_DIR_ENV) or tempfile.gettempdir())
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    path = folder / f"wetland-gis-{command}-{stamp}-{os.getpid()}.traceback.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"wetland-gis {__version__} {command}\nargv: {sys.argv!r}\n\n" + traceback.format_exc(),
            encoding="utf-8",
        )
    except OSError:
        return None
    return path


# control characters (an ANSI escape could recolour or rewrite the terminal) and the bidi
# controls (U+202E shows "exe.txt" as "txt.exe"): a value in a message shows as its escape
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _printable(text: Any) -> str:
    r"""Return ``text`` for the terminal: each control character as its escape (``\x1b``)."""
    return _UNPRINTABLE.sub(lambda m: repr(m.group(0))[1:-1], str(text))


def _one_line(text: Any) -> str:
    return _printable(" ".join(str(text).split()))


def _failed(status: str, line: str) -> int:
    """Print the one ``line`` of a failed run (and its run event); return exit ``status``."""
    from wetland_gis.qgis_provider import events

    print(line, file=sys.stderr)
    events.emit("error", status=EXIT_CODES[status], message=line)
    return EXIT_CODES[status]


def _done(result: Any, status: str, message: str) -> int:
    """Return the exit status ``status`` of a finished run, with its ``done`` run event."""
    from wetland_gis.qgis_provider import events

    events.emit(
        "done",
        status=EXIT_CODES[status],
        written=[str(p) for p in result.written],
        tally=result.tally.to_dict(),
        message=message,
    )
    return EXIT_CODES[status]


class Terminated(KeyboardInterrupt):
    """Raised in the main thread by SIGTERM while a command runs (:func:`terminate_as_interrupt`).

    A ``KeyboardInterrupt``, so every stage unwinds as on Ctrl-C: the writers discard their
    staging folders (``.wetland-gis-tmp-*``) and the previous outputs stay as they were.
    """


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while the block runs (main thread only).

    By default SIGTERM ends the process at once, leaving the staging folder of a write in
    progress until a later run removes it; raised as an exception, it is cleaned up as an
    error is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _raise(signum: int, frame: Any) -> None:
        raise Terminated(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_guarded(command: str, run: Callable[[], Any], *, strict: bool = False) -> int:
    """Run a command's work, print its outputs, warnings and tally; return the exit status.

    Reusable by every sub-command: ``run`` returns a
    :class:`wetland_gis.commands.CommandResult` (files written and a tally).

    Parameters
    ----------
    command : str
        The sub-command's name (for messages).
    run : callable
        Does the work; takes no argument.
    strict : bool, default False
        Return 3 when the tally has a row not assessed.

    Returns
    -------
    int
        See :data:`EXIT_CODES`.
    """
    prefix = f"wetland-gis {command}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WetlandGISWarning)
        try:
            result = run()
        except WetlandGISError as exc:
            return _failed("input_error", f"{prefix}: error: {_one_line(exc)}")
        except Terminated:
            return _failed("terminated", f"{prefix}: terminated (SIGTERM); no output was changed")
        except KeyboardInterrupt:
            return _failed("interrupted", f"{prefix}: interrupted; no output was changed")
        except OSError as exc:  # a file that cannot be read or written: say which
            where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
            line = (
                f"{prefix}: error: cannot use{where}: {exc.strerror or exc}; check the "
                "path, its permissions and the free disk space"
            )
            return _failed("input_error", line)
        except Exception as exc:  # a defect: short message, traceback kept in a file
            saved = _save_traceback(command)
            where = f"the traceback is saved in {saved}" if saved else "no traceback saved"
            line = (
                f"{prefix}: internal error ({type(exc).__name__}: "
                f"{_one_line(exc)[:200]}); this is a bug in wetland_gis, not in your "
                f"data; {where}; please report it with that file"
            )
            return _failed("internal_error", line)
    shown: set[tuple[type, str]] = set()
    for w in caught:  # each warning once, however many stages or partitions gave it
        key = (w.category, str(w.message))
        if issubclass(w.category, WetlandGISWarning) and key not in shown:
            shown.add(key)
            print(f"warning: {_printable(w.message)}", file=sys.stderr)
    for path in result.written:
        print(_printable(Path(path)))
    tally = result.tally
    for line in tally.lines():
        print(f"{prefix}: {_printable(line)}", file=sys.stderr)
    if strict and tally.not_assessed_rows:
        line = f"{prefix}: --strict: {tally.not_assessed_rows} row(s) not assessed; exit 3"
        print(line, file=sys.stderr)
        return _done(result, "not_assessed", line)
    if strict and not tally.rows_read:
        line = f"{prefix}: --strict: the input layer has no features; exit 3"
        print(line, file=sys.stderr)
        return _done(result, "not_assessed", line)
    return _done(result, "ok", "")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wetland-gis``; return the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 1 on an internal error (traceback saved to a file), 2 on an input,
        parameter or output error (the message says what to fix), 3 with ``--strict``
        when a row was not assessed (:data:`EXIT_CODES`).
    """
    args = build_parser().parse_args(argv)

    def run() -> Any:
        from wetland_gis import commands

        return commands.run_command(args)

    with terminate_as_interrupt():
        try:
            return run_guarded(args.command, run, strict=bool(getattr(args, "strict", False)))
        except Terminated:  # after the work (printing the tally): nothing left to undo
            print(f"wetland-gis {args.command}: terminated (SIGTERM)", file=sys.stderr)
            return EXIT_CODES["terminated"]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
