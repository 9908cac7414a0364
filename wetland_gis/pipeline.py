"""File-level steps behind the command line and the demo.

Each function reads the files an earlier step wrote, calls the library, and writes
its own files with a manifest. The command line (:mod:`wetland_gis.cli`) and the demo
(:mod:`wetland_gis.demo`) only call these.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd

from wetland_gis.assess import Assessment, AssessOptions, assess, map_layers
from wetland_gis.context import Context, load_context
from wetland_gis.errors import InputError
from wetland_gis.io.layers import list_layers, read_layer, write_layer
from wetland_gis.manifest import InputRecord, Manifest, file_sha256
from wetland_gis.parameters import as_date, default_parameters, load_adjustments, load_parameters

__all__ = [
    "run_assess",
    "run_site",
    "run_map",
    "run_report",
    "read_assessed",
    "read_siting",
    "run_command",
    "SITING_FILES",
]

#: The files ``run_site`` writes in its output folder.
SITING_FILES = {
    "ranking": "ranking.csv",
    "allocation": "allocation.csv",
    "unmet": "unmet.csv",
    "tier_gaps": "tier_gaps.csv",
    "layers": "siting.gpkg",
    "manifest": "siting_manifest.json",
}


def _stderr(msg: str) -> None:
    print(f"  {msg}", file=sys.stderr)


def run_assess(
    impacts: str | Path,
    out: str | Path,
    *,
    context: str | Path | Context | None = None,
    layer: str | None = None,
    as_of: str | None = None,
    fields: dict[str, str] | None = None,
    assume_crs: str | None = None,
    parameters: str | Path | None = None,
    options: AssessOptions | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[Assessment, list[Path]]:
    """Assess an impact layer and write the classified layer, tables and manifest.

    Parameters
    ----------
    impacts, context, layer, as_of, fields, assume_crs, options, progress
        As :func:`wetland_gis.assess`.
    out : str or Path
        The classified layer's file (``.gpkg`` default).
    parameters : str or Path, optional
        A parameter YAML replacing the shipped tree.

    Returns
    -------
    (Assessment, list of Path)
    """
    params = load_parameters(parameters) if parameters else default_parameters()
    result = assess(
        impacts,
        context,
        layer=layer,
        as_of=as_of,
        fields=fields,
        assume_crs=assume_crs,
        params=params,
        options=options,
        progress=progress,
    )
    return result, result.write(out)


def read_assessed(path: str | Path) -> dict[str, Any]:
    """Read what ``run_assess`` wrote: the impacts, zones, tables, decisions and manifest.

    Parameters
    ----------
    path : str or Path
        The classified GeoPackage (or other layer file) written by ``assess``.

    Returns
    -------
    dict
        ``impacts`` (GeoDataFrame), ``zones`` (GeoDataFrame or None), ``projects`` and
        ``summary`` (DataFrame or None), ``decisions`` and ``manifest`` (dict or None).
    """
    path = Path(path)
    if not path.exists():
        raise InputError(
            f"{path} does not exist: run `wetland-gis assess IMPACTS --out {path}` first"
        )
    layer = "impacts" if path.suffix.lower() == ".gpkg" else None
    impacts = read_layer(path, layer).gdf
    zones = None
    if path.suffix.lower() == ".gpkg" and "shoreland_zones" in list_layers(path):
        zones = read_layer(path, "shoreland_zones").gdf
    stem = path.with_suffix("")

    def _csv(suffix: str) -> pd.DataFrame | None:
        p = Path(f"{stem}_{suffix}.csv")
        return pd.read_csv(p) if p.exists() else None

    def _json(suffix: str) -> dict[str, Any] | None:
        p = Path(f"{stem}_{suffix}.json")
        return json.loads(p.read_text("utf-8")) if p.exists() else None

    return {
        "impacts": impacts,
        "zones": zones,
        "projects": _csv("projects"),
        "summary": _csv("summary"),
        "decisions": _json("decisions"),
        "manifest": _json("manifest"),
        "path": path,
    }


def run_site(
    assessed: str | Path | Assessment,
    out_dir: str | Path,
    *,
    sites: str | Path | None = None,
    banks: str | Path | None = None,
    context: str | Path | Context | None = None,
    adjustments: str | Path | None = None,
    dem: str | Path | None = None,
    as_of: str | None = None,
):
    """Rank and allocate replacement options; write the ranking, plan, layers, manifest.

    Parameters
    ----------
    assessed : str, Path or Assessment
        The output of ``assess``.
    out_dir : str or Path
        Folder for the files of :data:`SITING_FILES`.
    sites, banks, context, adjustments, dem, as_of
        As :func:`wetland_gis.site`; paths to files.

    Returns
    -------
    (SitingResult, list of Path)
    """
    from wetland_gis.siting import site

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    if isinstance(assessed, Assessment):
        impacts = assessed.impacts
        ctx = context if context is not None else assessed.context
        as_of = as_of or assessed.manifest.as_of
        source = "<Assessment>"
    else:
        read = read_assessed(assessed)
        impacts = read["impacts"]
        ctx = context
        as_of = as_of or (read["manifest"] or {}).get("as_of")
        source = str(assessed)
    day = as_date(as_of)
    if ctx is not None and not isinstance(ctx, Context):
        ctx = load_context(ctx, as_of=day)
    adj = load_adjustments(adjustments)
    result = site(
        impacts, sites, banks, context=ctx, adjustments=adj, as_of=day, dem=dem
    )
    params = default_parameters()
    manifest = Manifest(
        command="site",
        as_of=day.isoformat(),
        parameters_source=params.source,
        parameters_sha256=params.sha256,
        settings={"adjustments": adj.source},
    )
    manifest.add_input(InputRecord("assessed impacts", source, None,
                                   file_sha256(source) if Path(source).is_file() else ""))
    for role, p in (("sites", sites), ("banks", banks), ("dem", dem),
                    ("adjustments", adjustments)):
        if p is not None and not isinstance(p, (gpd.GeoDataFrame, pd.DataFrame)):
            manifest.add_input(InputRecord(role, str(p), None, file_sha256(p)))
    manifest.add_records(getattr(result, "records", []) or [])
    manifest.assumptions.append(
        "Siting tiers follow Minn. Stat. § 103G.222, subd. 3; whether a higher tier offers a "
        "reasonable, practicable and environmentally beneficial opportunity (subd. 3(d), (e)) "
        "is for the TEP to judge."
    )
    written = []
    for key in ("ranking", "allocation", "unmet", "tier_gaps"):
        frame = getattr(result, key, None)
        if frame is not None:
            p = out_dir / SITING_FILES[key]
            pd.DataFrame(frame).to_csv(p, index=False)
            written.append(p)
    layers = out_dir / SITING_FILES["layers"]
    if layers.exists():
        layers.unlink()
    for name in ("sites", "banks"):
        frame = getattr(result, name, None)
        if frame is not None and len(frame):
            written += write_layer(frame, layers, layer=name)
    manifest_path = out_dir / SITING_FILES["manifest"]
    manifest.outputs = [str(p) for p in dict.fromkeys(written)] + [str(manifest_path)]
    manifest.write(manifest_path)
    return result, [*dict.fromkeys(written), manifest_path]


def read_siting(folder: str | Path) -> dict[str, Any]:
    """Read what ``run_site`` wrote in ``folder`` (missing files are ``None``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"{folder} is not a folder written by `wetland-gis site --out-dir`")
    out: dict[str, Any] = {}
    for key in ("ranking", "allocation", "unmet", "tier_gaps"):
        p = folder / SITING_FILES[key]
        out[key] = pd.read_csv(p) if p.exists() and p.stat().st_size > 1 else None
    layers = folder / SITING_FILES["layers"]
    names = list_layers(layers) if layers.exists() else []
    for name in ("sites", "banks"):
        out[name] = read_layer(layers, name).gdf if name in names else None
    return out


def _boundaries(context: str | Path | Context | None) -> dict[str, gpd.GeoDataFrame] | None:
    if context is None:
        return None
    return map_layers(context if isinstance(context, Context) else load_context(context))


def run_map(
    assessed: str | Path,
    out: str | Path,
    *,
    siting: str | Path | None = None,
    context: str | Path | Context | None = None,
    basemap: str = "none",
) -> list[Path]:
    """Write the self-contained TEP map of an assessment (and its siting, if given).

    Returns
    -------
    list of Path
        The HTML file written.
    """
    from wetland_gis.mapping import save_map, tep_map

    read = read_assessed(assessed)
    sit = read_siting(siting) if siting else {}
    m = tep_map(
        read["impacts"],
        zones=read["zones"],
        sites=sit.get("sites"),
        banks=sit.get("banks"),
        allocation=sit.get("allocation"),
        context=_boundaries(context),
        basemap=basemap,
        self_contained=True,
        title=f"TEP review map: {_project_name(read)}",
    )
    return [save_map(m, out, self_contained=True)]


def _project_name(read: dict[str, Any]) -> str:
    projects = read.get("projects")
    if projects is not None and len(projects):
        return ", ".join(str(p) for p in projects["project"])
    return Path(read["path"]).stem


def run_report(
    assessed: str | Path,
    out: str | Path,
    *,
    siting: str | Path | None = None,
    map_html: str | Path | None = None,
) -> list[Path]:
    """Write the printable TEP report of an assessment (and its siting, if given).

    Returns
    -------
    list of Path
        The HTML file written.
    """
    from wetland_gis.mapping import write_report

    read = read_assessed(assessed)
    sit = read_siting(siting) if siting else {}
    summary: dict[str, Any] = {}
    projects = read["projects"]
    if projects is not None:
        for _, row in projects.iterrows():
            for key, value in row.items():
                label = key if len(projects) == 1 else f"{row['project']}: {key}"
                if key in ("citations", "verify") and isinstance(value, str):
                    value = value.split("; ")
                summary[label] = value
    decisions = (read["decisions"] or {}).get("impacts")
    manifest = read["manifest"] or {}
    if siting:
        sm = Path(siting) / SITING_FILES["manifest"]
        if sm.exists():
            manifest = {"assess": manifest, "site": json.loads(sm.read_text("utf-8"))}
    path = write_report(
        out,
        summary,
        read["impacts"],
        decisions=decisions,
        ranking=sit.get("ranking"),
        allocation=sit.get("allocation"),
        unmet=sit.get("unmet"),
        manifest=manifest,
        map_html=map_html,
        title=f"Wetland Conservation Act screening report: {_project_name(read)}",
    )
    return [Path(path)]


def run_partitioned(
    args: argparse.Namespace, fields: dict[str, str], options: AssessOptions
) -> list[Path]:
    """Run ``assess --engine chunks|dask`` or ``--chunk-size`` (issue 14, docs/scale.md).

    With ``--engine default`` and ``--chunk-size`` and a ``.parquet`` output the chunks
    are streamed to GeoParquet (memory holds one chunk); otherwise the partitions'
    results are merged and written as ``assess`` writes them.
    """
    from wetland_gis.partitioned import DEFAULT_CHUNK_SIZE, assess_partitioned, stream_assess

    params = load_parameters(args.parameters) if args.parameters else default_parameters()
    chunk = args.chunk_size or DEFAULT_CHUNK_SIZE
    common = {"layer": args.layer, "as_of": args.as_of, "fields": fields,
              "assume_crs": args.assume_crs, "params": params, "options": options,
              "progress_bar": not args.quiet}
    if args.engine == "default" and Path(args.out).suffix.lower() == ".parquet":
        return stream_assess(args.impacts, args.out, args.context, chunk_size=chunk, **common)
    engine = "chunks" if args.engine == "default" else args.engine
    result = assess_partitioned(
        args.impacts, args.context, engine=engine, chunk_size=chunk,
        scheduler=args.scheduler, progress=None if args.quiet else _stderr, **common,
    )
    return result.write(args.out)


def run_command(args: argparse.Namespace) -> list[Path]:
    """Run one parsed ``wetland-gis`` sub-command; return the files written."""
    if args.command == "assess":
        fields = {
            k: v
            for k, v in {
                "impact_id": args.id_field,
                "wetland_type": args.type_field,
                "cowardin": args.cowardin_field,
                "project": args.project_field,
            }.items()
            if v
        }
        options = AssessOptions(
            multi_zone_reading=args.multi_zone_reading,
            tolerance_percent=args.tolerance_percent,
            local_limit_sqft=args.local_limit_sqft,
            assume_no_public_waters=args.assume_no_public_waters,
        )
        engine = getattr(args, "engine", "default")
        if engine != "default" or getattr(args, "chunk_size", None):
            return run_partitioned(args, fields, options)
        _, written = run_assess(
            args.impacts,
            args.out,
            context=args.context,
            layer=args.layer,
            as_of=args.as_of,
            fields=fields,
            assume_crs=args.assume_crs,
            parameters=args.parameters,
            options=options,
            progress=None if args.quiet else _stderr,
        )
        return written
    if args.command == "screen":
        from wetland_gis.screen import run_screen

        fields = {k: v for k, v in {"wetland_type": args.type_field,
                                    "cowardin": args.cowardin_field}.items() if v}
        return run_screen(args.wetlands, args.out, context=args.context, layer=args.layer,
                          as_of=args.as_of, assume_crs=args.assume_crs, fields=fields,
                          progress_bar=not args.quiet)
    if args.command == "site":
        _, written = run_site(
            args.assessed,
            args.out_dir,
            sites=args.sites,
            banks=args.banks,
            context=args.context,
            adjustments=args.adjustments,
            dem=args.dem,
            as_of=args.as_of,
        )
        return written
    if args.command == "map":
        return run_map(args.assessed, args.out, siting=args.siting, context=args.context,
                       basemap=args.basemap)
    if args.command == "report":
        return run_report(args.assessed, args.out, siting=args.siting, map_html=args.map)
    raise InputError(f"unknown command {args.command!r}")  # pragma: no cover
