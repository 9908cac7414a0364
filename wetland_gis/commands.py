"""File-level steps behind the command line and the demo.

Each function reads the files an earlier step wrote, calls the library, and writes
its own files with a manifest. The command line (:mod:`wetland_gis.cli`) and the demo
(:mod:`wetland_gis.demo`) only call these.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import pandas as pd

from wetland_gis import partitioned
from wetland_gis.assess import (
    DEFAULT_CHUNK_SIZE,
    Assessment,
    AssessOptions,
    AssessRequest,
    assess,
    assess_request,
    check_engine_options,
    map_layers,
)
from wetland_gis.compare import NO_BUILD, compare
from wetland_gis.context import Context, load_context
from wetland_gis.errors import DeprecatedOptionWarning, InputError, ParameterError
from wetland_gis.geometry.cleaning import ASSESSED
from wetland_gis.impacts import NWI_SCREENING_NOTE, DerivedImpacts, impacts
from wetland_gis.io.assessed import (
    SITING_FILES,
    Assessed,
    read_assessed,
    read_siting,
)
from wetland_gis.io.field_map import (
    FIELD_ALIASES,
    field_map_from_options,
    layer_fields_text,
    roles_text,
    template_text,
)
from wetland_gis.io.fields import field_name_warnings, resolve_fields
from wetland_gis.io.layers import read_layer
from wetland_gis.io.safe_write import SafeWriter, refuse_read_only
from wetland_gis.io.trace_store import is_not_tried
from wetland_gis.io.values import keyed
from wetland_gis.labels import label as value_label
from wetland_gis.manifest import InputRecord, Manifest, file_sha256
from wetland_gis.parameters import (
    as_date,
    default_parameters,
    load_adjustments,
    load_parameters,
)
from wetland_gis.partitioned import _NotAssemblable
from wetland_gis.progress import StageBar
from wetland_gis.qgis_provider import events
from wetland_gis.register.cli import hide_register_url, run_register
from wetland_gis.rules.exempt import ExemptionClaims
from wetland_gis.rules.kernel import Claims
from wetland_gis.rules.priority import BANKING_OWN_ORDER
from wetland_gis.screen import run_screen
from wetland_gis.tally import Tally
from wetland_gis.water_use import water_use
from wetland_gis.water_use.rules import FeeReadings

if TYPE_CHECKING:
    from wetland_gis.impacts import DerivedImpacts
    from wetland_gis.siting.engine import SitingResult


def _stderr(msg: str) -> None:

    if events.enabled():  # a program drives the command: a progress event (docs/qgis.md)
        events.emit("progress", message=msg)
        return
    print(f"  {msg}", file=sys.stderr)


def run_assess(
    impacts: str | Path | DerivedImpacts,
    out: str | Path,
    *,
    parameters: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    overwrite: bool = False,
    **keywords: Any,
) -> tuple[Assessment, list[Path]]:
    """Assess an impact layer and write the classified layer, tables and manifest.

    Parameters
    ----------
    impacts : str, Path or DerivedImpacts
        As :func:`wetland_gis.assess`; also the result of :func:`wetland_gis.impacts`
        (``assess --footprint``), assessed with its layers.
    out : str or Path
        The classified layer's file (``.gpkg`` default).
    parameters : str or Path, optional
        A parameter YAML replacing the shipped tree.
    progress : callable, optional
        As :func:`wetland_gis.assess`; a bar over the stages when the run takes more than
        a few seconds (issue 30).
    overwrite : bool, default False
        Replace existing files that an earlier ``assess`` did not write there
        (``--overwrite``). An existing GeoPackage is always written into, keeping its
        other layers.
    **keywords
        The other keywords of :func:`wetland_gis.assess` (``context``, ``layer``,
        ``as_of``, ``fields``, ``assume_crs``, ``options``, ``shoreland_classes``,
        ``class_source``, ``override_crs``, ``register``, ...).

    Returns
    -------
    (Assessment, list of Path)

    Raises
    ------
    OutputError
        When ``out`` is an input, or would replace another file without ``overwrite``;
        checked before the assessment runs.
    """
    derived = impacts if isinstance(impacts, DerivedImpacts) else None
    sources: list[Any] = (
        [i.path for i in derived.manifest.inputs] if derived is not None else [impacts]
    )
    inputs = [*sources, keywords.get("context"), parameters, keywords.get("shoreland_classes")]
    _check_outputs_early("assess", [out], inputs, overwrite=overwrite)
    params = load_parameters(parameters) if parameters else default_parameters()
    # impacts cut from a footprint (issue 35): assessed with the layers they were cut from
    run = derived.assess if derived is not None else partial(assess, impacts)
    # a bar over the stages when the run takes more than a few seconds (issue 30)
    with StageBar(6, "assess", enabled=progress is not None, say=progress) as bar:
        result = run(params=params, progress=bar.stage, **keywords)
        bar.stage("writing the outputs")
        return result, result.write(out, overwrite=overwrite)


def _check_outputs_early(
    command: str, outs: list[Any], inputs: list[Any], *, overwrite: bool = True
) -> None:
    """Refuse an output that is an input, or read-only without ``overwrite``, before any work.

    The writer checks again, with the command's own earlier outputs known.
    """
    writer = SafeWriter(
        command, overwrite=True, inputs=[i for i in inputs if isinstance(i, (str, Path))]
    )
    for out in outs:
        writer._check_target(Path(out))
        if not overwrite:
            refuse_read_only(Path(out))


def run_impacts(
    footprint: str | Path,
    out: str | Path,
    *,
    wetlands: str | Path,
    overwrite: bool = False,
    **kwargs: Any,
) -> tuple[DerivedImpacts, list[Path]]:
    """Cut the impact layer from a footprint and a delineation and write it (issue 35).

    Parameters
    ----------
    footprint, wetlands
        As :func:`wetland_gis.impacts`.
    out : str or Path
        The impact layer (``.gpkg`` default, with the layers it was cut from).
    overwrite : bool, default False
        Replace files an earlier ``impacts`` did not write there.
    **kwargs
        As :func:`wetland_gis.impacts` (``existing``, ``parcels``, ``drainage``,
        ``layers``, ``fields``, ``lateral_effect_ft``, ...).

    Returns
    -------
    (DerivedImpacts, list of Path)
    """
    inputs = [footprint, wetlands, *(kwargs.get(k) for k in ("existing", "parcels", "drainage"))]
    _check_outputs_early("impacts", [out], inputs, overwrite=overwrite)
    derived = impacts(footprint, wetlands, **kwargs)
    return derived, derived.write(out, overwrite=overwrite)


def _crs_keywords(args: argparse.Namespace) -> dict[str, str | None]:
    """Return ``assume_crs`` and ``override_crs``: the CRS options of a command's input layer.

    A command whose parser has no ``--override-crs`` gives ``None`` for it.
    """
    return {
        "assume_crs": args.assume_crs,
        "override_crs": getattr(args, "override_crs", None),
    }


def _layer_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """Return the context, the ``--layer``, the date and the CRS options of a command's input."""
    return {
        "context": args.context,
        "layer": args.layer,
        "as_of": args.as_of,
        **_crs_keywords(args),
    }


def _siting_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """Return the replacement inputs of ``site`` and ``compare``: sites, banks, adjustments."""
    return {"sites": args.sites, "banks": args.banks, "adjustments": args.adjustments}


def _footprint_kwargs(args: argparse.Namespace, *, in_assess: bool) -> dict[str, Any]:
    """Return the keywords of :func:`wetland_gis.impacts` given on the command line."""
    fields = dict(_fields(args))  # the part id is the impact_id role (--field impact_id=PART)
    lateral_column = getattr(args, "lateral_effect_ft_field", None)
    if lateral_column:
        fields["lateral_effect_ft"] = str(lateral_column)
    named: dict[str, str | None]
    try:
        named = dict(keyed(getattr(args, "input_layer", None), "--input-layer"))
    except argparse.ArgumentTypeError as err:
        raise InputError(str(err)) from None
    if not in_assess and getattr(args, "layer", None):  # `impacts`: its footprint's --layer
        named["footprint"] = args.layer
    return {
        "existing": args.existing,
        "parcels": args.parcels,
        "drainage": args.drainage,
        "layers": {
            name: named.get(name)
            for name in ("footprint", "wetlands", "existing", "parcels", "drainage")
        },
        "fields": fields,
        "lateral_effect_ft": args.lateral_effect_ft,
        "wetlands_source": args.wetlands_source,
        **_crs_keywords(args),
        "progress": None if args.quiet else _stderr,
    }


def _assessed_file(assessed: Assessed) -> Path:
    """Return the file of an :data:`Assessed`."""
    return Path(assessed["path"] if isinstance(assessed, Mapping) else assessed)


def _read(assessed: Assessed) -> Mapping[str, Any]:
    """Return an :data:`Assessed` as :func:`read_assessed` returns it, reading it if need be."""
    return assessed if isinstance(assessed, Mapping) else read_assessed(assessed)


def run_site(
    assessed: Assessed | Assessment,
    out_dir: str | Path,
    *,
    sites: str | Path | None = None,
    banks: str | Path | None = None,
    context: str | Path | Context | None = None,
    adjustments: str | Path | None = None,
    dem: str | Path | None = None,
    as_of: str | None = None,
    overwrite: bool = False,
    siting_reading: str | None = None,
    weights: Mapping[str, float] | None = None,
    progress_bar: bool = False,
) -> tuple[SitingResult, list[Path]]:
    """Rank and allocate replacement options; write the ranking, plan, layers, manifest.

    Parameters
    ----------
    assessed : str, Path, dict or Assessment
        The output of ``assess``: its file (or that file as :func:`read_assessed` returned
        it), or the assessment in memory.
    out_dir : str or Path
        Folder for the files of :data:`SITING_FILES`.
    sites, banks, context, adjustments, dem, as_of
        As :func:`wetland_gis.site`; paths to files.
    overwrite : bool, default False
        Replace existing files in ``out_dir`` that an earlier ``site`` did not write.
    siting_reading, weights
        As :func:`wetland_gis.site` (``None``: its defaults); recorded in the manifest's
        settings and named in the allocation and unmet tables.
    progress_bar : bool, default False
        A progress bar on a run that takes more than a few seconds.

    Returns
    -------
    (SitingResult, list of Path)
    """
    from wetland_gis.siting import site
    from wetland_gis.siting.allocate import check_weights

    weights_used = check_weights(weights)

    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out-dir {out_dir} is a file; give a folder for the siting outputs")
    file = None if isinstance(assessed, Assessment) else _assessed_file(assessed)
    inputs = [
        p for p in (file, sites, banks, dem, adjustments, context) if isinstance(p, (str, Path))
    ]
    _check_outputs_early(
        "site", [out_dir / name for name in SITING_FILES.values()], inputs, overwrite=overwrite
    )
    impacts, ctx, day, source = _siting_input(assessed, file, context, as_of)
    adj = _siting_adjustments(adjustments)
    result = site(
        impacts,
        sites,
        banks,
        context=ctx,
        adjustments=adj,
        as_of=day,
        dem=dem,
        weights=weights,
        progress_bar=progress_bar,
        siting_reading=siting_reading or BANKING_OWN_ORDER,
    )
    given = {"sites": sites, "banks": banks, "dem": dem, "adjustments": adjustments}
    manifest = _siting_manifest(result, day, adj.source, weights_used, source, given)
    return result, _write_siting(result, out_dir, manifest, inputs, overwrite)


def _siting_input(
    assessed: Assessed | Assessment,
    file: Path | None,
    context: str | Path | Context | None,
    as_of: str | None,
) -> tuple[gpd.GeoDataFrame, Context | None, dt.date, str]:
    """Return the assessed impacts, the context, the date and the source of a siting run.

    The date and the context are the assessment's where none is given.
    """
    ctx: str | Path | Context | None
    if isinstance(assessed, Assessment):
        impacts = assessed.impacts
        ctx = context if context is not None else assessed.context
        as_of = as_of or assessed.manifest.as_of
        source = "<Assessment>"
    else:
        read = _read(assessed)
        impacts = read["impacts"]
        ctx = context
        as_of = as_of or (read["manifest"] or {}).get("as_of")
        source = str(file)
    day = as_date(as_of)
    if ctx is not None and not isinstance(ctx, Context):
        ctx = load_context(ctx, as_of=day)
    return impacts, ctx, day, source


def _siting_adjustments(adjustments: str | Path | None) -> Any:
    """Return the user's ratio adjustment tables (:func:`wetland_gis.load_adjustments`)."""
    try:
        return load_adjustments(adjustments)
    except (AttributeError, TypeError) as err:  # YAML that is not a mapping of tables
        raise ParameterError(
            f"cannot read {adjustments} as an adjustments table: it is not in the format of "
            f"wetland_gis/parameters/adjustments.yaml ({err}); start from a copy of that file"
        ) from err


def _siting_manifest(
    result: SitingResult,
    day: dt.date,
    adjustments_source: Any,
    weights_used: Any,
    source: str,
    given: Mapping[str, Any],
) -> Manifest:
    """Return the manifest of a siting run: its settings, inputs, records and assumptions."""
    from wetland_gis.siting.engine import weights_label

    params = default_parameters()
    manifest = Manifest(
        command="site",
        as_of=day.isoformat(),
        parameters_source=params.source,
        parameters_sha256=params.sha256,
        settings={
            "adjustments": adjustments_source,
            "siting_reading": result.settings.get("siting_reading"),
            "weights": weights_label(weights_used),
            "stages_not_applied": result.settings.get("stages_not_applied", []),
        },
    )
    manifest.add_input(
        InputRecord(
            "assessed impacts", source, None, file_sha256(source) if Path(source).is_file() else ""
        )
    )
    for role, p in given.items():
        if p is not None and not isinstance(p, (gpd.GeoDataFrame, pd.DataFrame)):
            manifest.add_input(InputRecord(role, str(p), None, file_sha256(p)))
    manifest.add_records(getattr(result, "records", []) or [])
    if not len(result.needs):
        manifest.add_records(["no impact needs replacement: the ranking and the plan are empty"])
    manifest.assumptions.append(
        "Siting tiers follow Minn. Stat. § 103G.222, subd. 3; whether a higher tier offers a "
        "reasonable, practicable and environmentally beneficial opportunity (subd. 3(d), (e)) "
        "is for the TEP to judge."
    )
    return manifest


def _write_siting(
    result: SitingResult, out_dir: Path, manifest: Manifest, inputs: list[Any], overwrite: bool
) -> list[Path]:
    """Write the files of :data:`SITING_FILES` into ``out_dir``; return them."""
    manifest_path = out_dir / SITING_FILES["manifest"]
    layers = out_dir / SITING_FILES["layers"]
    with SafeWriter(
        "site",
        overwrite=overwrite,
        manifest=manifest_path,
        inputs=[*inputs, *(i.path for i in manifest.inputs)],
    ) as w:
        for key in ("ranking", "allocation", "unmet", "tier_gaps"):
            frame = getattr(result, key, None)
            if frame is not None:
                w.csv(pd.DataFrame(frame), out_dir / SITING_FILES[key])
        for name in ("sites", "banks"):
            frame = getattr(result, name, None)
            usable = frame is not None and len(frame)
            w.layer(frame if usable else None, layers, layer=name, polygons=name == "sites")
        w.manifest(manifest, manifest_path)
    return list(w.written)


def _boundaries(context: str | Path | Context | None) -> dict[str, gpd.GeoDataFrame] | None:
    if context is None:
        return None
    return map_layers(context if isinstance(context, Context) else load_context(context))


def _html_manifest(
    command: str, out: Path, read: Mapping[str, Any], extra: Mapping[str, Any]
) -> tuple[Manifest, Path]:
    """Return the manifest of a map or report page, and its path beside the page."""
    assessed_manifest = read.get("manifest") or {}
    manifest = Manifest(
        command=command,
        as_of=str(assessed_manifest.get("as_of", "")),
        parameters_source=str((assessed_manifest.get("parameters") or {}).get("source", "")),
        parameters_sha256=str((assessed_manifest.get("parameters") or {}).get("sha256", "")),
    )
    path = Path(read["path"])
    manifest.add_input(
        InputRecord(
            "assessed impacts", str(path), None, file_sha256(path), None, len(read["impacts"])
        )
    )
    for role, value in extra.items():
        if isinstance(value, (str, Path)) and Path(value).is_file():
            manifest.add_input(InputRecord(role, str(value), None, file_sha256(value)))
        elif isinstance(value, (str, Path)):
            manifest.add_input(InputRecord(role, str(value)))
    return manifest, out.with_name(f"{out.stem}_{command}_manifest.json")


def run_map(
    assessed: Assessed,
    out: str | Path,
    *,
    siting: str | Path | None = None,
    context: str | Path | Context | None = None,
    basemap: str = "none",
    overwrite: bool = False,
    project: str | None = None,
) -> list[Path]:
    """Write the self-contained TEP map of an assessment (and its siting, if given).

    ``assessed`` is the file ``assess`` wrote (or that file as :func:`read_assessed`
    returned it). The page is staged and moved into place when complete; a manifest
    ``<stem>_map_manifest.json`` is written beside it. With ``project`` (``--project``)
    only that project's impacts, trace and source layers are drawn. The layers the impacts
    were cut from (``wetland-gis impacts``) are drawn as layers a TEP member switches on
    and off.

    Returns
    -------
    list of Path
        The HTML file written (first) and its manifest.
    """
    from wetland_gis.mapping import tep_map
    from wetland_gis.mapping.offline import make_self_contained

    out = Path(out)
    _check_outputs_early("map", [out], [_assessed_file(assessed), siting, context])
    read = _read(assessed)
    if project is not None:  # one project of the layer (issue 35)
        read = one_project(read, project)
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
        title=f"{_screening_prefix(read)}TEP review map: {_project_name(read)}",
        trace=read["trace"],
        siting_reading=_siting_reading(sit.get("ranking")),
        project_layers=read.get("footprint_layers") or None,
    )
    page = make_self_contained(m.get_root().render())
    manifest, manifest_path = _html_manifest(
        "map",
        out,
        read,
        {"siting": siting, "context": context if not isinstance(context, Context) else "<Context>"},
    )
    manifest.settings["basemap"] = basemap
    if project is not None:
        manifest.settings["project"] = project
    with SafeWriter.for_run("map", manifest, manifest_path, overwrite=overwrite) as w:
        w.text(page, out)
        w.manifest(manifest, manifest_path)
    return list(w.written)


def one_project(read: Mapping[str, Any], project: str) -> dict[str, Any]:
    """Return what :func:`read_assessed` read, kept to one project (``map --project``).

    The impacts and trace of ``project``; the footprint parts and drainage lines of that
    project, the wetland polygons and parcels its impacts touch.

    Raises
    ------
    InputError
        When no impact belongs to ``project``; the message lists the projects.
    """
    impacts = read["impacts"]
    column = "project" if "project" in impacts else None
    names = (
        [str(p) for p in dict.fromkeys(impacts[column].astype(str))] if column is not None else []
    )
    if project not in names:
        raise InputError(
            f"--project {project!r} is not a project of {read.get('path')}: its projects are "
            f"{', '.join(repr(n) for n in names) or '(none: no project column)'}"
        )
    assert column is not None
    keep = impacts[column].astype(str) == project
    out = dict(read)
    out["impacts"] = impacts[keep]
    trace = read.get("trace")
    if trace is not None:
        out["trace"] = trace[trace["project"].astype(str) == project]
    projects = read.get("projects")
    if projects is not None and "project" in projects:
        out["projects"] = projects[projects["project"].astype(str) == project]
    layers = dict(read.get("footprint_layers") or {})
    chosen = impacts[keep]
    for name, frame in list(layers.items()):
        if "project" in frame:
            layers[name] = frame[frame["project"].astype(str) == project]
        elif len(chosen) and frame.crs is not None:
            touched = frame.geometry.intersects(chosen.to_crs(frame.crs).union_all())
            layers[name] = frame[touched.to_numpy()]
    out["footprint_layers"] = layers
    return out


def footprint_notes(read: Mapping[str, Any]) -> list[str]:
    """Return the report's notes on the layers the impacts were cut from (issue 35).

    One line per layer (what it is, how many features), the parts that gave no impact, and
    the NWI screening note; empty for an impact layer drawn by hand.
    """
    from wetland_gis.mapping.symbology import PROJECT_LAYERS

    layers = read.get("footprint_layers") or {}
    if not layers:
        return []
    notes = [
        "The impacts were cut from the construction limits by `wetland-gis impacts` "
        "(docs/footprint.md); the map draws these layers, each switched on and off in its "
        "layer control: "
        + "; ".join(
            f"{PROJECT_LAYERS[name].title}: {len(frame)} feature(s)"
            for name, frame in layers.items()
            if name in PROJECT_LAYERS
        )
        + "."
    ]
    parts = layers.get("footprint")
    if parts is not None and "status" in parts:
        idle = parts[parts["status"].astype(str) != "impacts"]
        if len(idle):
            notes.append(
                "Footprint parts with no impact: "
                + "; ".join(
                    f"{fmt_id} ({status})"
                    for fmt_id, status in zip(idle["part_id"], idle["status"], strict=True)
                )
                + "."
            )
    if _screening_prefix(read):
        notes.insert(0, NWI_SCREENING_NOTE)
    return notes


def _screening_prefix(read: Mapping[str, Any]) -> str:
    """Return ``"SCREENING ON NWI: "`` when the impacts were cut from NWI (issue 35)."""
    impacts = read["impacts"]
    if "wl_source" in impacts and (impacts["wl_source"].astype(str) == "nwi").any():
        return "SCREENING ON NWI, NOT A DELINEATION: "
    return ""


def _siting_reading(ranking: pd.DataFrame | None) -> str | None:
    """Return the subd. 3(c) reading named in a ranking (``None`` without one)."""
    if ranking is None or "siting_reading" not in ranking or not len(ranking):
        return None
    return ", ".join(str(v) for v in ranking["siting_reading"].dropna().unique()) or None


def _project_name(read: Mapping[str, Any]) -> str:
    projects = read.get("projects")
    if projects is not None and len(projects) and "project" in projects:
        return ", ".join(str(p) for p in projects["project"])
    return Path(read["path"]).stem


def run_report(
    assessed: Assessed,
    out: str | Path,
    *,
    siting: str | Path | None = None,
    map_html: str | Path | None = None,
    pdf: str | Path | bool | None = None,
    context: str | Path | Context | None = None,
    overwrite: bool = False,
    progress_bar: bool = False,
) -> list[Path]:
    """Write the TEP report of an assessment (and its siting, if given); and its PDF.

    Parameters
    ----------
    assessed, siting
        The outputs of ``assess`` (its file, or that file as :func:`read_assessed` returned
        it) and ``site``.
    out : str or Path
        The HTML file.
    map_html : str or Path, optional
        The map written by ``map``: embedded, and linked by its path relative to ``out``.
    pdf : str, Path or bool, optional
        Also write the PDF (with a static map): to this path, or beside ``out`` when True.
    context : str, Path or Context, optional
        Context layers for the static map of the PDF (waters and boundaries).
    progress_bar : bool, default False
        A tqdm bar over the stages (rendering, the PDF) when they take more than a few
        seconds on a terminal (``--quiet`` turns it off).

    The page is staged and moved into place when complete; a manifest
    ``<stem>_report_manifest.json`` is written beside it. A report on a layer of which
    no impact could be assessed says so, with the reasons.

    Returns
    -------
    list of Path
        The HTML file written (first), the PDF when asked for, and the manifest.
    """
    from wetland_gis.mapping.report import map_arguments, render_report, write_pdf

    out = Path(out)
    _check_outputs_early("report", [out], [_assessed_file(assessed), siting, map_html])
    read = _read(assessed)
    sit = read_siting(siting) if siting else {}
    summary = _report_summary(read)
    kwargs: dict[str, Any] = {
        "trace": read["trace"],
        "ranking": sit.get("ranking"),
        "allocation": sit.get("allocation"),
        "unmet": sit.get("unmet"),
        "manifest": _report_source_manifest(read, siting),
        "title": f"{_screening_prefix(read)}Wetland Conservation Act screening report: "
        f"{_project_name(read)}",
        "data_notes": footprint_notes(read),
    }
    bar = StageBar(3 if pdf else 2, "report", enabled=progress_bar)
    bar.stage("rendering the report")
    try:  # the map embedded, and linked by its path relative to the report
        page = render_report(
            summary, read["impacts"], **map_arguments(Path(out), {**kwargs, "map_html": map_html})
        )
    except BaseException:
        bar.close()
        raise
    pdf_path = None
    if pdf:
        pdf_path = Path(out).with_suffix(".pdf") if pdf is True else Path(pdf)
    report_manifest, manifest_path = _html_manifest(
        "report", out, read, {"siting": siting, "map": map_html}
    )
    with (
        bar,
        SafeWriter.for_run("report", report_manifest, manifest_path, overwrite=overwrite) as w,
    ):
        w.text(page, out)
        bar.stage("writing the PDF" if pdf_path is not None else "writing the report")
        if pdf_path is not None:
            layers = {
                "zones": read["zones"],
                "sites": sit.get("sites"),
                "banks": sit.get("banks"),
                "context": _boundaries(context),
            }
            w.file(
                lambda staged: write_pdf(
                    staged, summary, read["impacts"], map_layers=layers, **kwargs
                ),
                pdf_path,
            )
        w.manifest(report_manifest, manifest_path)
    return list(w.written)


def _report_summary(read: Mapping[str, Any]) -> dict[str, Any]:
    """Return the report's summary: each project's row, its citations and verify items.

    A layer of which no impact could be assessed says so, with the reasons.
    """
    summary: dict[str, Any] = {}
    tally = tally_impacts(read["impacts"])
    if tally.assessed == 0:
        summary["screening"] = tally.nothing_assessed_text()
    projects = read["projects"]
    trace = read["trace"]
    if projects is None or "project" not in projects:
        return summary
    steps_of = _project_steps(trace)
    for _, row in projects.iterrows():
        for key, value in row.items():
            label = key if len(projects) == 1 else f"{row['project']}: {key}"
            if key in ("citations", "verify"):
                if trace is None:
                    continue
                value = steps_of.get(str(row["project"]), {}).get(key, [])
            summary[label] = value
    return summary


def _project_steps(trace: pd.DataFrame | None) -> dict[str, dict[str, list[str]]]:
    """Return each project's citations and verify items, from the trace's project steps.

    Never by splitting rendered text; the steps grouped by project once. An exemption not
    tried on the project's impacts is no citation of its answer.
    """
    steps_of: dict[str, dict[str, list[str]]] = {}
    if trace is None:
        return steps_of
    own = trace[trace["impact_id"] == ""]
    tried = [not is_not_tried(r, o) for r, o in zip(own["rule_id"], own["outcome"], strict=True)]
    own = own.loc[pd.Series(tried, index=own.index, dtype=bool)]  # rows, even if none
    for project, steps in own.groupby(own["project"].astype(str), sort=False):
        steps_of[str(project)] = {
            "citations": list(dict.fromkeys(c for c in steps["citation"] if c)),
            "verify": list(dict.fromkeys(v for items in steps["verify"] for v in items)),
        }
    return steps_of


def _report_source_manifest(read: Mapping[str, Any], siting: str | Path | None) -> Any:
    """Return the manifest the report shows: the assessment's, with the siting run's."""
    manifest = read["manifest"] or {}
    if siting:
        sm = Path(siting) / SITING_FILES["manifest"]
        if sm.exists():
            manifest = {"assess": manifest, "site": json.loads(sm.read_text("utf-8"))}
    return manifest


def run_water_use(
    points: str | Path,
    out: str | Path,
    *,
    layer: str | None = None,
    as_of: str | None = None,
    context: str | Path | Context | None = None,
    aquifer: str | Path | None = None,
    aquifer_layer: str | None = None,
    assume_crs: str | None = None,
    parameters: str | Path | None = None,
    boundary_reading: str = FeeReadings.boundary,
    irrigation_minimum_reading: str = FeeReadings.irrigation_minimum,
    map_html: str | Path | None = None,
    overwrite: bool = False,
    override_crs: str | None = None,
) -> tuple[Any, list[Path]]:
    """Screen water appropriations (§ 103G.271) and write the GeoPackage, tables and map.

    Parameters
    ----------
    points, layer, as_of, context, aquifer, aquifer_layer, assume_crs, parameters, override_crs
        As :func:`wetland_gis.water_use.water_use`.
    out : str or Path
        The GeoPackage to write (see :meth:`WaterUseResult.write`).
    boundary_reading, irrigation_minimum_reading : str
        The named fee readings (docs/water_use.md).
    map_html : str or Path, optional
        The offline map (default ``<stem>_map.html`` beside ``out``).
    overwrite : bool
        Replace existing files that an earlier ``water-use`` did not write there.

    Returns
    -------
    (WaterUseResult, list of Path)
    """
    result = water_use(
        points,
        layer=layer,
        as_of=as_of,
        context=context,
        aquifer=aquifer,
        aquifer_layer=aquifer_layer,
        assume_crs=assume_crs,
        parameters=parameters,
        readings=FeeReadings(
            boundary=boundary_reading, irrigation_minimum=irrigation_minimum_reading
        ),
        override_crs=override_crs,
    )
    target = Path(map_html) if map_html else Path(f"{Path(out).with_suffix('')}_map.html")
    return result, result.write(out, overwrite=overwrite, map_html=target)


# --------------------------------------------------------------------------------------
# The end-of-command tally
# --------------------------------------------------------------------------------------


#: The row label a reason may begin with (``row 3: ``, ``row 3 (line 4 of the CSV): ``).
_ROW_PREFIX = re.compile(r"^row \d+(?: \([^)]*\))?:\s*")


def _reason_kind(reason: str) -> str:
    """Return the kind of a not-assessed reason (its words before a colon or a bracket).

    A leading row label (``row 3: ``) is not part of the kind, so that rows with the
    same reason are counted together.

    Examples
    --------
    >>> _reason_kind("row 3 (line 4 of the CSV): lon is blank: give the longitude")
    'lon is blank'
    """
    text = _ROW_PREFIX.sub("", str(reason).strip())
    for mark in (":", " ("):
        head = text.split(mark, 1)[0].strip()
        if head:
            text = head
    return text or "no reason given"


def tally_impacts(impacts: pd.DataFrame, command: str = "assess") -> Tally:
    """Count the rows of a classified impact layer by status, reason and outcome.

    Parameters
    ----------
    impacts : DataFrame
        The ``impacts`` of an assessment (read back or in memory).
    command : str
        The command the tally is for.

    Returns
    -------
    Tally
    """
    tally = Tally(command=command, rows_read=len(impacts), replacement=command != "water-use")
    if not len(impacts) or "status" not in impacts:
        return tally
    status = impacts["status"].astype(str)
    done = status == ASSESSED
    tally.assessed = int(done.sum())
    if "status_code" in impacts:
        # the code, not the sentence: no stage parses status_reason
        kinds = impacts.loc[~done, "status_code"].fillna("other").map(value_label).value_counts()
    else:  # a file written before the status_code column: the reason's first words
        reasons = (
            impacts.loc[~done, "status_reason"]
            if "status_reason" in impacts
            else pd.Series("", index=impacts.index[~done])
        )
        kinds = reasons.fillna("").map(_reason_kind).value_counts(sort=True)
    tally.not_assessed = {str(k): int(v) for k, v in kinds.items()}
    if "outcome" in impacts:
        counts = impacts["outcome"].astype(str).value_counts(sort=True)
        tally.outcomes = {str(k): int(v) for k, v in counts.items()}
    if "replace_acres" in impacts:
        acres = pd.to_numeric(impacts["replace_acres"], errors="coerce").fillna(0.0)
        tally.replacement_acres = float(acres.sum())
    return tally


@dataclass
class NoRowsTally:
    """The tally of a command that reads no rows (``fields``): nothing to print."""

    not_assessed_rows: int = 0
    rows_read: int = 0

    def lines(self) -> list[str]:
        """Return no line."""
        return []

    def to_dict(self) -> dict[str, Any]:
        """Return the tally as a JSON-ready dictionary (the rows read: none)."""
        return {"rows_read": self.rows_read}


@dataclass
class CommandResult:
    """What a command wrote and its tally (printed by the command line)."""

    written: list[Path]
    tally: Tally | NoRowsTally


def _siting_tally(result: Any, tally: Tally) -> Tally:
    """Add the siting totals of ``result`` to the tally of the impacts it sited."""
    totals = dict(getattr(result, "totals", {}) or {})
    tally.siting = {
        key: float(totals.get(key, 0.0) or 0.0)
        for key in ("credits_required", "credits_met", "credits_unmet", "credits_allocated")
    }
    tally.siting["cost_usd"] = float(totals.get("cost", 0.0) or 0.0)
    return tally


def run_partitioned(
    args: argparse.Namespace, request: AssessRequest, overwrite: bool = False
) -> CommandResult:
    """Run ``assess --engine chunks|dask`` or ``--chunk-size`` (issue 14, docs/scale.md).

    ``request`` is the run's request (:func:`_assess_request`), with the chunks engine for
    ``--engine default --chunk-size N``. With ``--engine default`` and ``--chunk-size`` and a
    ``.parquet`` output the chunks are streamed to GeoParquet (memory holds one chunk); with
    ``--engine chunks|dask`` and a ``.parquet`` output the partitions write their parts;
    otherwise the partitions' results are merged (:func:`wetland_gis.assess.assess_request`,
    as ``wg.assess(..., engine=)``) and written as ``assess`` writes them.
    """
    parquet = Path(args.out).suffix.lower() == ".parquet"
    if args.engine == "default" and parquet:
        written = partitioned.stream_request(request, args.out, overwrite=overwrite)
        # the tally from the streamed file's status columns (never the whole layer at once)
        return CommandResult(written, _tally_of_file(written[0]))
    if args.engine != "default" and parquet:
        files = _partitioned_to_files(args, request, overwrite)
        if files is not None:
            return CommandResult(files, _tally_of_file(files[0]))
    if args.engine == "default" and not args.quiet:
        _stderr(
            f"--chunk-size {request.chunk_size} with a {Path(args.out).suffix or 'GeoPackage'} "
            "output: assessed by the chunks engine and written whole (only a .parquet output "
            "is streamed chunk by chunk)"
        )
    result = assess_request(request)
    return CommandResult(
        result.write(args.out, overwrite=overwrite), tally_impacts(result.impacts, "assess")
    )


def _partitioned_to_files(
    args: argparse.Namespace, request: AssessRequest, overwrite: bool
) -> list[Path] | None:
    """Run ``--engine chunks|dask`` to a GeoParquet file, the partitions writing their parts.

    Returns the files written, or ``None`` when the parts could not be put together
    as one table (then the caller merges the partitions in memory, as before).
    """
    try:
        return partitioned.partitions_to_files(request, args.out, overwrite=overwrite)  # patchable
    except _NotAssemblable as err:
        if not args.quiet:
            _stderr(f"the partitions' parts could not be put together ({err}): merging in memory")
        return None


def _tally_of_file(path: Path) -> Tally:
    """Return the tally of an impacts GeoParquet file from its status columns only."""
    import pyarrow.parquet as pq

    names = pq.read_schema(path).names
    cols = [
        c
        for c in ("status", "status_code", "status_reason", "outcome", "replace_acres")
        if c in names
    ]
    return tally_impacts(pq.read_table(path, columns=cols).to_pandas(), "assess")


def _fields(args: argparse.Namespace) -> Any:
    """Return the column of each field role named on the command line, as a ``FieldMap``.

    ``--field-map FILE``, then ``--field ROLE=COLUMN`` (which takes precedence), then the
    deprecated ``--id-field`` style aliases (each with a warning naming its ``--field``).
    """
    aliases: dict[str, str | None] = {}
    for role, option in FIELD_ALIASES.items():
        column = getattr(args, option[2:].replace("-", "_"), None)
        if column is not None:
            warnings.warn(
                f"{option} is deprecated and will be removed: use --field {role}=COLUMN",
                DeprecatedOptionWarning,
                stacklevel=2,
            )
            aliases[role] = column
    return field_map_from_options(
        getattr(args, "field_map", None), getattr(args, "field", None), aliases
    )


def run_fields(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis fields``: list the roles, or how a layer's columns map; a template.

    Without a layer, every role with the column names read for it is printed. With one
    (``impacts``, ``--layer``), the column each role reads there (after ``--field`` and
    ``--field-map``) and the look-alike warnings. ``--template FILE`` writes a field-map
    template, filled in with the layer's columns when a layer is given.
    """
    fields = _fields(args)
    found = None
    if args.impacts is None:
        text = roles_text()
    else:
        read = read_layer(args.impacts, args.layer, require_crs=False)
        field_map = resolve_fields(read.gdf, **dict(fields))
        columns = [str(c) for c in read.gdf.columns if c != read.gdf.geometry.name]
        said = field_name_warnings(columns, field_map, rows=len(read.gdf))
        text = layer_fields_text(columns, field_map, said)
        found = {**field_map.as_dict(), **dict(field_map.exemption_columns)}
    written: list[Path] = []
    if args.template:
        template = template_text(args.template, found)
        inputs = [p for p in (args.impacts, getattr(args, "field_map", None)) if p]
        with SafeWriter("fields", overwrite=args.overwrite, inputs=inputs) as w:
            w.text(template, args.template)
        written = list(w.written)
    else:
        sys.stdout.write(text)
    return CommandResult(written, NoRowsTally())


def _check_footprint_options(args: argparse.Namespace) -> None:
    """Refuse ``assess`` options that contradict ``--footprint`` (or lack it)."""
    footprint = getattr(args, "footprint", None)
    if footprint and args.impacts:
        raise InputError(
            f"assess was given both an impact layer ({args.impacts}) and --footprint "
            f"{footprint}: give the impact layer, or --footprint and --wetlands to cut it"
        )
    if not footprint and not args.impacts:
        raise InputError(
            "assess needs an impact layer, or --footprint FOOTPRINT --wetlands DELINEATION to "
            "cut the impacts from the construction limits first"
        )
    if footprint and not args.wetlands:
        raise InputError(
            f"--footprint {footprint} needs --wetlands DELINEATION (or NWI polygons for a "
            "screening): the impacts are the footprint within the wetlands"
        )
    if not footprint:
        given = [
            f"--{name.replace('_', '-')}"
            for name in ("wetlands", "existing", "parcels", "drainage", "lateral_effect_ft")
            if getattr(args, name, None) is not None
        ]
        if given:
            raise InputError(
                f"{', '.join(given)} only work with --footprint (the construction limits the "
                "impacts are cut from); give --footprint, or leave them out"
            )
        return
    engine = getattr(args, "engine", "default")
    if engine != "default" or getattr(args, "chunk_size", None) is not None:
        raise InputError(
            "--footprint works with --engine default and no --chunk-size for now: cut the "
            "impacts with `wetland-gis impacts` first, then assess that layer with the engine"
        )


def _readings(args: argparse.Namespace) -> dict[str, Any]:
    """Return the open readings given as ``--reading NAME=VALUE`` (and the two old options).

    ``--clause-reading`` and ``--exemption-scope-reading`` still work, with a
    :class:`~wetland_gis.errors.DeprecatedOptionWarning` naming their ``--reading``.
    """
    try:
        readings = keyed(getattr(args, "reading", None), "--reading")
    except argparse.ArgumentTypeError as err:
        raise InputError(str(err)) from None
    for name in ("clause_reading", "exemption_scope_reading"):
        value = getattr(args, name, None)
        if value is None:
            continue
        option = f"--{name.replace('_', '-')}"
        short = name.removesuffix("_reading")
        warnings.warn(
            f"{option} is deprecated and will be removed: use --reading {short}={value}",
            DeprecatedOptionWarning,
            stacklevel=2,
        )
        if readings.setdefault(name, value) != value:
            raise InputError(f"{option} {value} and --reading {short}={readings[name]} disagree")
    return readings


def _reading_claims(args: argparse.Namespace) -> Claims:
    """Return the open readings given on the command line as Claims (the rest default).

    The other claims are given as :class:`AssessOptions` keywords and replace its fields.
    """
    readings: dict[str, Any] = dict(_readings(args))
    return Claims(**readings)


def _options(args: argparse.Namespace, **choices: Any) -> AssessOptions:
    """Return the analyst's options: the open readings given on the command line, and ``choices``.

    ``choices`` are the other :class:`AssessOptions` keywords (``assess``: the tolerance,
    the local limit, the claims, ...); the readings are read once (their deprecation
    warnings too).
    """
    claims = _reading_claims(args)
    return AssessOptions(clause_reading=claims.clause_reading, claims=claims, **choices)


def _exemption_claims(args: argparse.Namespace) -> Any:
    """Return the ``--claim`` claims as ExemptionClaims (``None`` when none is made).

    Each ``--claim`` is ``(name, True | False | None)`` (``cli.parse_claim``); one claim
    answered two ways is an error.
    """
    claimed = getattr(args, "claim", None)
    if not claimed:
        return None

    answers: dict[str, bool | None] = {}
    for item in claimed:
        name, value = (item, True) if isinstance(item, str) else item
        if name in answers and answers[name] is not value:
            raise InputError(
                f"--claim {name} is given as both {answers[name]} and {value}: give it once "
                "(yes, no or unknown)"
            )
        answers[name] = value
    return ExemptionClaims(**answers)


def run_command(args: argparse.Namespace) -> CommandResult:
    """Run one parsed ``wetland-gis`` sub-command; return the files written and the tally."""
    run = _COMMANDS.get(args.command)
    if run is None:  # pragma: no cover
        raise InputError(f"unknown command {args.command!r}")
    return run(args)


def _overwrite(args: argparse.Namespace) -> bool:
    """Return whether ``--overwrite`` was given."""
    return bool(getattr(args, "overwrite", False))


def _progress_messages(args: argparse.Namespace) -> Callable[[str], None] | None:
    """Return where the progress messages go: stderr, or nowhere with ``--quiet``."""
    return None if getattr(args, "quiet", False) else _stderr


def _run_register(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis register ...`` (:mod:`wetland_gis.register.cli`)."""
    return run_register(args)  # type: ignore[return-value]  # same written/tally protocol


def _run_impacts(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis impacts``: cut the impact layer from the construction limits."""
    derived, written = run_impacts(
        args.footprint,
        args.out,
        wetlands=args.wetlands,
        overwrite=_overwrite(args),
        **_footprint_kwargs(args, in_assess=False),
    )
    return CommandResult(written, derived.tally())


def _assess_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """Return the keywords of :func:`wetland_gis.assess` given on ``assess``'s command line."""
    return {
        **_layer_keywords(args),
        "fields": _fields(args),
        "options": _options(
            args,
            tolerance_percent=args.tolerance_percent,
            local_limit_sqft=args.local_limit_sqft,
            assume_no_public_waters=args.assume_no_public_waters,
            exemption_claims=_exemption_claims(args),
            project_facts=getattr(args, "project_facts", None),
        ),
        "shoreland_classes": getattr(args, "shoreland_classes", None),
        "class_source": getattr(args, "shoreland_class_source", None) or "dnr",
        "register": getattr(args, "register", None),
    }


def _assess_request(args: argparse.Namespace, keywords: dict[str, Any]) -> AssessRequest:
    """Return the request of ``assess --engine chunks|dask`` or ``--chunk-size`` (one, built here).

    ``--engine default --chunk-size N`` runs the chunks engine (streamed to a ``.parquet``).
    """
    params = load_parameters(args.parameters) if args.parameters else default_parameters()
    return AssessRequest.of(
        args.impacts,
        params=params,
        engine="chunks" if args.engine == "default" else args.engine,
        chunk_size=DEFAULT_CHUNK_SIZE if args.chunk_size is None else args.chunk_size,
        scheduler=args.scheduler,
        progress=_progress_messages(args),
        progress_bar=not args.quiet,
        **keywords,
    )


def _run_assess(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis assess``: the request of its options, by the engine it names."""
    _check_footprint_options(args)
    if getattr(args, "register", None):
        hide_register_url(args)
    keywords = _assess_keywords(args)
    engine = getattr(args, "engine", "default")
    chunk_size = getattr(args, "chunk_size", None)
    check_engine_options(engine, chunk_size, getattr(args, "scheduler", None))
    if engine != "default" or chunk_size is not None:
        return run_partitioned(args, _assess_request(args, keywords), _overwrite(args))
    source: Any = args.impacts
    footprint = getattr(args, "footprint", None)
    if footprint:  # issue 35: the impacts cut from the footprint first, in this run
        _check_outputs_early("assess", [args.out], [footprint, args.wetlands], overwrite=True)
        source = impacts(footprint, args.wetlands, **_footprint_kwargs(args, in_assess=True))
        keywords.update(layer=None, fields=None)  # the cut layer, with its own column names
    assessment, written = run_assess(
        source,
        args.out,
        parameters=args.parameters,
        progress=_progress_messages(args),
        overwrite=_overwrite(args),
        **keywords,
    )
    return CommandResult(written, tally_impacts(assessment.impacts, "assess"))


def _run_screen(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis screen``: every wetland of an inventory and its de minimis amount."""
    screening, written = run_screen(
        args.wetlands,
        args.out,
        fields=_fields(args),
        progress_bar=not args.quiet,
        overwrite=_overwrite(args),
        **_layer_keywords(args),
    )
    return CommandResult(written, tally_impacts(screening.wetlands, "screen"))


def _read_with_tally(args: argparse.Namespace) -> tuple[dict[str, Any], Tally]:
    """Read the assessed file of ``site``, ``map`` or ``report`` once: for it and its tally."""
    read = read_assessed(args.assessed, trace=args.command != "site")
    return read, tally_impacts(read["impacts"], args.command)


def _run_site(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis site``: rank and allocate the replacement of an assessment."""
    read, tally = _read_with_tally(args)
    siting, written = run_site(
        read,
        args.out_dir,
        **_siting_keywords(args),
        context=args.context,
        dem=args.dem,
        as_of=args.as_of,
        overwrite=_overwrite(args),
        siting_reading=args.siting_reading,
        weights=args.weights,
        # a bar in a terminal; a log or a pipe gets the tally only (docs/siting.md)
        progress_bar=not args.quiet and sys.stderr.isatty(),
    )
    return CommandResult(written, _siting_tally(siting, tally))


def _run_on_assessed(
    args: argparse.Namespace, run: Callable[..., list[Path]], **keywords: Any
) -> CommandResult:
    """Run ``map`` or ``report`` (``run``): an assessment, its siting and context to ``--out``."""
    read, tally = _read_with_tally(args)
    written = run(
        read,
        args.out,
        siting=args.siting,
        context=args.context,
        overwrite=_overwrite(args),
        **keywords,
    )
    return CommandResult(written, tally)


def _run_map(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis map``: the self-contained TEP map of an assessment."""
    return _run_on_assessed(
        args, run_map, basemap=args.basemap, project=getattr(args, "project", None)
    )


def _run_report(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis report``: the TEP report of an assessment, and its PDF."""
    return _run_on_assessed(
        args,
        run_report,
        map_html=args.map,
        pdf=args.pdf or None,
        progress_bar=not getattr(args, "quiet", False),
    )


def _run_compare(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis compare``: the alternatives of one project, assessed alike."""
    alternatives: list[Any] = list(args.alternatives)
    if getattr(args, "wetlands", None):  # the alternatives are construction limits
        kwargs = _footprint_kwargs(args, in_assess=False)
        alternatives = [
            a if a == NO_BUILD else impacts(a, args.wetlands, **kwargs) for a in alternatives
        ]
    comparison = compare(
        alternatives,
        names=args.names,
        params=load_parameters(args.parameters) if args.parameters else None,
        options=_options(args),
        fields=_fields(args),
        **_layer_keywords(args),
        **_siting_keywords(args),
    )
    written = comparison.write(args.out, overwrite=_overwrite(args))
    # the tally of the preferred alternative; comparison.csv holds every alternative's
    preferred = comparison.alternatives[0].assessment.impacts
    return CommandResult(written, tally_impacts(preferred, "compare"))


def _run_water_use(args: argparse.Namespace) -> CommandResult:
    """Run ``wetland-gis water-use``: water appropriations under § 103G.271."""
    result, written = run_water_use(
        args.points,
        args.out,
        aquifer=args.aquifer,
        aquifer_layer=args.aquifer_layer,
        parameters=args.parameters,
        boundary_reading=args.boundary_reading,
        irrigation_minimum_reading=args.irrigation_minimum_reading,
        map_html=args.map,
        overwrite=_overwrite(args),
        **_layer_keywords(args),
    )
    return CommandResult(written, tally_impacts(result.points, "water-use"))


#: Each sub-command's step (:func:`run_command`).
_COMMANDS: dict[str, Callable[[argparse.Namespace], CommandResult]] = {
    "register": _run_register,
    "impacts": _run_impacts,
    "assess": _run_assess,
    "fields": run_fields,
    "screen": _run_screen,
    "site": _run_site,
    "map": _run_map,
    "report": _run_report,
    "compare": _run_compare,
    "water-use": _run_water_use,
}
