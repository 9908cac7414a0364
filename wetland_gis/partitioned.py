"""Assess large impact layers in partitions of whole projects: in chunks, streamed, or on dask.

The rules decide a project as a whole (its impacts' amounts add up), so a partition
always holds whole projects: the projects are ordered by the Hilbert distance of their
centre (so a partition's impacts are close together and meet few context features) and
cut into partitions of about ``chunk_size`` impacts. Each partition is assessed by
:func:`wetland_gis.assess` against the same, once-loaded context; the results are put
back in the input's order, so they are those of one ``assess`` call on the whole layer
(``tests/test_dask_engine.py``): the records name the rows of the whole layer, and the
domain warnings of every partition (a dask worker's too) are given to the caller once
per kind, with their counts summed.

Three ways to run:

- :func:`assess_partitioned` with ``engine="chunks"``: one partition after another in
  this process, with a progress bar;
- ``engine="dask"``: the partitions as a dask-geopandas frame, one task per partition,
  the context scattered to every worker once; on a local cluster, or on a running
  dask.distributed cluster given by ``scheduler="tcp://host:8786"`` (``docs/scale.md``).
  Without a scheduler and with one partition, that partition is assessed here and no
  local cluster is started (:data:`ONE_PARTITION_RECORD` in the manifest);
- :func:`stream_assess`: chunks written to GeoParquet as they are done, so memory holds
  one chunk (plus the context), never the whole state.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path
from types import ModuleType
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.assessment import (
    DEFAULT_CHUNK_SIZE,
    ENGINES as ENGINES,
    NO_PROJECT,
    Assessment,
    AssessRequest,
    _text,
    assess_in_memory,
    check_engine_options as check_engine_options,
    map_zones_later,
    read_impacts,
)
from wetland_gis.context import Context
from wetland_gis.errors import InputError, MissingExtraError, WetlandGISWarning, warn_recorded
from wetland_gis.geometry.cleaning import ASSESSED, polygon_output
from wetland_gis.io.csv_cells import write_csv
from wetland_gis.io.fields import resolve_fields
from wetland_gis.io.geoparquet import _arrow, _assemble_impacts, _NotAssemblable
from wetland_gis.io.safe_write import SafeWriter, Submit, make_staging_folder
from wetland_gis.io.trace_json import (
    ROWS_PER_SLICE,
    conform,
    disk_table,
    file_schema,
    write_tables_parquet,
)
from wetland_gis.io.writers import _storable
from wetland_gis.manifest import Manifest
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.trace import TRACE_COLUMNS

# ENGINES, DEFAULT_CHUNK_SIZE and check_engine_options are those of wetland_gis.assess,
# where every engine's request is checked (AssessRequest); imported here as before

_POS = "_wg_input_pos"


def project_partitions(
    impacts: gpd.GeoDataFrame, project_field: str | None, chunk_size: int
) -> np.ndarray:
    """Return a partition number per row: whole projects, ordered in space, ~``chunk_size`` rows.

    Parameters
    ----------
    impacts : GeoDataFrame
        The impact layer (any CRS; only the order of the projects' centres matters).
    project_field : str, optional
        Column grouping impacts into projects; without one the layer is one project.
    chunk_size : int
        Target number of impacts per partition (a project larger than that is one
        partition of its own).

    Returns
    -------
    numpy.ndarray of int
        Partition numbers 0, 1, ... in Hilbert order of the project centres.
    """
    if chunk_size < 1:
        raise InputError(f"chunk_size was {chunk_size} but must be a positive number of impacts")
    n = len(impacts)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if not project_field:
        return np.zeros(n, dtype=np.int64)
    key = impacts[project_field].astype(object).where(impacts[project_field].notna(), "")
    codes, _ = pd.factorize(key.astype(str).str.strip())
    geoms = impacts.geometry
    ok = ~(geoms.isna() | geoms.is_empty).to_numpy()
    b = np.full((n, 4), np.nan)
    b[ok] = geoms[ok].bounds.to_numpy()
    cx = pd.Series((b[:, 0] + b[:, 2]) / 2).groupby(codes).mean()
    cy = pd.Series((b[:, 1] + b[:, 3]) / 2).groupby(codes).mean()
    centres = gpd.GeoSeries.from_xy(cx.fillna(0.0), cy.fillna(0.0))
    hilbert = centres.hilbert_distance().to_numpy()
    size = np.bincount(codes)
    order = np.lexsort((np.arange(len(size)), hilbert))
    # whole projects, cut where the running count passes a multiple of chunk_size
    start = np.cumsum(size[order]) - size[order]
    part_of_ordered = start // chunk_size
    _, part_of_ordered = np.unique(part_of_ordered, return_inverse=True)
    part = np.empty(len(size), dtype=np.int64)
    part[order] = part_of_ordered
    return part[codes]


#: Seconds to wait for a dask scheduler given by address before saying it did not answer.
SCHEDULER_TIMEOUT_S = 10.0


def _progress(total: int, desc: str, enabled: bool) -> Any:
    from tqdm.auto import tqdm

    # leave=True ends the bar with a newline, so the tally printed next starts on its own
    # line (with leave=False a bar written to a log or pipe ran into it)
    return tqdm(total=total, desc=desc, unit="impacts", disable=not enabled, leave=True)


def _read(
    impacts: str | Path | gpd.GeoDataFrame,
    layer: str | None,
    assume_crs: str | None,
    override_crs: str | None = None,
) -> tuple[gpd.GeoDataFrame, Manifest]:
    manifest = Manifest(command="assess", as_of="")
    gdf, _ = read_impacts(impacts, layer, assume_crs, manifest, override_crs)
    return gdf, manifest


def _parts(
    gdf: gpd.GeoDataFrame, fields: Mapping[str, str] | None, chunk_size: int
) -> list[np.ndarray]:
    """Return the input positions of each partition (whole projects, in Hilbert order)."""
    field_map = resolve_fields(gdf, **dict(fields or {}))
    part = project_partitions(gdf, field_map.project, chunk_size)
    order = np.argsort(part, kind="stable")
    cuts = np.flatnonzero(np.diff(part[order])) + 1
    return np.split(order, cuts) if len(order) else []


def _part(gdf: gpd.GeoDataFrame, pos: np.ndarray) -> gpd.GeoDataFrame:
    """Return the rows at ``pos`` with their input positions (one partition, made when used).

    The partitions are cut one at a time, so the input is not held twice more.
    """
    return gdf.iloc[pos].assign(**{_POS: pos})


#: The ``impacts`` of :func:`_partition_request`: each partition's rows replace it.
_PARTITION = "<partition>"


def _partition_request(request: AssessRequest) -> AssessRequest:
    """Return the request each partition is assessed with, by the default engine.

    The engine read the layer and loaded the context once: a partition's rows and the
    context come with its task (:func:`_assess_part`), so this request has no file to
    read, no CRS to assume or override, no class list (the context has it), no progress
    messages and no engine options. It is small to send to a dask worker.
    """
    return replace(
        request,
        impacts=_PARTITION,
        context=None,
        layer=None,
        assume_crs=None,
        override_crs=None,
        shoreland_classes=None,
        row_numbers=None,
        engine="default",
        chunk_size=None,
        scheduler=None,
        scheduler_timeout=None,
        n_workers=None,
        progress=None,
        progress_bar=False,
    )


def _assess_part(part: gpd.GeoDataFrame, ctx: Context, template: AssessRequest) -> dict[str, Any]:
    """Assess one partition; return its results without the context (light to ship).

    ``template`` is the partition request (:func:`_partition_request`). The records name
    the rows of the whole layer (``row_numbers``); the domain warnings are caught and
    returned, as ``(category, message)``, so that a dask worker's reach the user and
    :func:`_warn_once` can give each kind once for all the partitions.
    """
    pos = part[_POS].to_numpy()
    rows = part.drop(columns=_POS).reset_index(drop=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WetlandGISWarning)
        res = assess_in_memory(replace(template, impacts=rows, context=ctx, row_numbers=pos + 1))
    domain = [
        (w.category, str(w.message)) for w in caught if issubclass(w.category, WetlandGISWarning)
    ]
    for w in caught:  # anything else as it came
        if not issubclass(w.category, WetlandGISWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return {
        "warnings": domain,
        "pos": pos,
        "impacts": res.impacts,
        "summary": res.summary,
        "projects": res.projects,
        "decisions": res.decisions,
        "manifest": res.manifest,
        "fields": res.fields,
        "trace": res.trace,
    }


def _merge(
    results: list[dict[str, Any]],
    input_index: pd.Index,
    ctx: Context,
    params: ParameterSet,
    day: Any,
    source_manifest: Manifest,
) -> Assessment:
    """Put the partitions' results back in the input order as one Assessment."""
    results = sorted(results, key=lambda r: int(r["pos"].min()) if len(r["pos"]) else 0)
    pos = np.concatenate([r["pos"] for r in results])
    order = np.argsort(pos, kind="stable")
    impacts = pd.concat([r["impacts"] for r in results], ignore_index=True).iloc[order]
    impacts["wg_row"] = np.arange(1, len(impacts) + 1, dtype="int64")  # from 1, as QGIS
    impacts.index = input_index
    impacts = gpd.GeoDataFrame(
        impacts, geometry=results[0]["impacts"].geometry.name, crs=results[0]["impacts"].crs
    )
    summary = pd.concat([r["summary"] for r in results], ignore_index=True).iloc[order]
    summary.index = input_index
    # projects in the order they first appear in the input, as one assess call gives them
    first_pos = [int(r["pos"][0]) if len(r["pos"]) else 0 for r in results]
    projects = pd.concat(
        [r["projects"].assign(_first=f) for r, f in zip(results, first_pos, strict=True)],
        ignore_index=True,
    )
    # one ProjectDecision per project: projects never straddle partitions
    decisions = [d for r in results for d in r["decisions"]]
    if len(projects) and "project" in projects:
        firsts = _first_appearance(impacts, results[0]["fields"].project)
        projects["_first"] = projects["project"].map(firsts).fillna(projects["_first"])
        projects = projects.sort_values("_first", kind="stable")
    projects = projects.drop(columns="_first").reset_index(drop=True)
    manifest = results[0]["manifest"]
    _take_source(manifest, source_manifest)
    for r in results[1:]:
        manifest.add_records(r["manifest"].records)
    trace = pd.concat([r["trace"] for r in results], ignore_index=True)
    zones = map_zones_later(impacts[impacts["status"] == ASSESSED], ctx, params, day)
    if len(trace) and len(projects) and "project" in projects:
        # the steps in the order one assess call gives them: projects as they first appear
        rank = {str(p): i for i, p in enumerate(projects["project"])}
        key = trace["project"].astype(str).map(rank).fillna(len(rank))
        trace = trace.iloc[np.argsort(key.to_numpy(), kind="stable")].reset_index(drop=True)
    return Assessment(
        impacts=impacts,
        summary=summary,
        projects=projects,
        decisions=decisions,
        zones=zones,
        manifest=manifest,
        context=ctx,
        fields=results[0]["fields"],
        trace=trace,
    )


def _take_source(manifest: Manifest, source: Manifest) -> None:
    """Give a partition's manifest the whole layer's input, read records and CRS override."""
    manifest.inputs = [*source.inputs, *(i for i in manifest.inputs if i.role != "impacts")]
    manifest.records = [*source.records, *(r for r in manifest.records if r not in source.records)]
    if "crs_overrides" in source.settings:
        manifest.settings["crs_overrides"] = source.settings["crs_overrides"]


def _first_appearance(
    impacts: pd.DataFrame, project_field: str | None, positions: np.ndarray | None = None
) -> dict[str, int]:
    """Return each project's first row: its position in ``impacts`` or in ``positions``."""
    if not project_field:
        return {"project": 0 if positions is None else int(positions.min())}
    names = impacts[project_field].map(_text).replace("", NO_PROJECT)
    at = np.arange(len(names)) if positions is None else positions
    return {k: int(v) for k, v in pd.Series(at).groupby(names.to_numpy(), sort=False).min().items()}


def assess_partitioned(
    impacts: str | Path | gpd.GeoDataFrame,
    context: str | Path | Context | None = None,
    *,
    engine: str = "chunks",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    **keywords: Any,
) -> Assessment:
    """Assess a layer partition by partition (whole projects); same result as :func:`assess`.

    The same as ``wg.assess(impacts, context, engine=engine, chunk_size=chunk_size,
    **keywords)``, the one entry of every engine (``chunk_size`` is left out with
    ``engine="default"``); kept for code written before ``engine=`` was a keyword of
    :func:`wetland_gis.assess`.

    Parameters
    ----------
    impacts, context
        As :func:`wetland_gis.assess`.
    engine : {"chunks", "dask", "default"}
        ``"chunks"``: partitions one after another here; ``"dask"``: one dask task per
        partition; ``"default"``: a single in-memory pass.
    chunk_size : int, default :data:`DEFAULT_CHUNK_SIZE`
        Impacts per partition (whole projects).
    **keywords
        The other keywords of :func:`wetland_gis.assess` (``as_of``, ``fields``,
        ``options``, ``scheduler``, ``scheduler_timeout``, ``n_workers``,
        ``progress_bar``, ...).

    Returns
    -------
    Assessment

    Raises
    ------
    InputError
        For an unknown engine, a chunk size below 1, a scheduler without the dask
        engine (:func:`check_engine_options`), a scheduler that does not answer, and as
        :func:`assess`.
    """
    size = None if engine == "default" else chunk_size
    request = AssessRequest.of(impacts, context, engine=engine, chunk_size=size, **keywords)
    return assess_in_memory(request) if engine == "default" else assess_partitions(request)


def assess_partitions(request: AssessRequest) -> Assessment:
    """Run the chunks or dask engine: partitions of whole projects, merged in input order.

    The engine of :func:`wetland_gis.assess` (``engine="chunks"`` or ``"dask"``): the layer
    is read and the context loaded once, the projects cut into partitions of about
    ``request.chunk_size`` impacts, each partition assessed by the default engine (here,
    or as a dask task), and the results put back in the input's order.

    Parameters
    ----------
    request : AssessRequest
        With ``engine`` ``"chunks"`` or ``"dask"``.

    Returns
    -------
    Assessment
        The result one in-memory pass gives, with the engine in the manifest.
    """
    chunk_size = request.chunk_size or DEFAULT_CHUNK_SIZE
    gdf, source = _read(request.impacts, request.layer, request.assume_crs, request.override_crs)
    request.say("loading context")
    ctx = request.loaded_context()
    template = _partition_request(request)
    if len(gdf) == 0:
        return assess_in_memory(replace(template, impacts=gdf, context=ctx))
    parts = list(_parts(gdf, request.fields, chunk_size))
    engine = request.engine
    request.say(f"{len(gdf)} impacts in {len(parts)} partition(s) of whole projects ({engine})")
    bar = _progress(len(gdf), "assess", request.progress_bar)
    results: list[dict[str, Any]] = []
    here = _one_partition_here(engine, request.scheduler, parts)
    if engine == "chunks" or here:
        for pos in parts:
            results.append(_assess_part(_part(gdf, pos), ctx, template))
            bar.update(len(pos))
    else:
        frames = [_part(gdf, pos) for pos in parts]
        results = _run_dask(
            frames, ctx, template, request.scheduler, request.n_workers, bar, _timeout(request)
        )
        del frames
        # in the partitions' order, as the chunks engine gives them (not as the tasks ended):
        # the warnings given once for all the partitions quote the first partition's example
        rank = {int(pos.min()): i for i, pos in enumerate(parts)}
        results.sort(key=lambda r: rank[int(r["pos"].min())])
    bar.close()
    out = _merge(results, gdf.index, ctx, request.params, request.as_of, source)
    out.manifest.settings["engine"] = engine
    out.manifest.settings["chunk_size"] = chunk_size
    out.manifest.add_records(_engine_records(len(parts), engine, here))
    _record_warnings(out.manifest, [w for r in results for w in dict.fromkeys(r["warnings"])])
    return out


def _timeout(request: AssessRequest) -> float:
    """Return the seconds to wait for the request's scheduler (:data:`SCHEDULER_TIMEOUT_S`)."""
    timeout = request.scheduler_timeout
    return SCHEDULER_TIMEOUT_S if timeout is None else timeout


#: The manifest's record when the dask engine, without a scheduler, had one partition.
ONE_PARTITION_RECORD = (
    "one partition: assessed in this process, no local dask cluster started (a cluster "
    "would add its start-up and nothing to run beside it; the results are the same)"
)


def _engine_records(n_parts: int, engine: str, here: bool) -> list[str]:
    """Return the manifest's records of how the partitions ran (both engines' paths)."""
    done = f"assessed in {n_parts} partition(s) of whole projects by the {engine} engine"
    return [done, ONE_PARTITION_RECORD] if here else [done]


def _one_partition_here(engine: str, scheduler: str | None, parts: list[np.ndarray]) -> bool:
    """Return whether the dask engine runs its one partition here, without a local cluster.

    A local cluster's start-up (its worker processes, the context sent to each) is
    seconds; with one partition there is nothing to run beside it (issue 23: at 20,000
    impacts the dask engine took 5.9 s against 3.9 s for the chunks). A scheduler given
    is always used: the user asked for that cluster.
    """
    return engine == "dask" and not scheduler and len(parts) == 1


def _record_warnings(manifest: Manifest, caught: list[tuple[type[Warning], str]]) -> None:
    """Warn once per kind (:func:`_warn_once`); in the manifest, those for the partitions'."""
    given = {message for _, message in caught}
    manifest.records = [r for r in manifest.records if r not in given]
    manifest.add_records(_warn_once(caught))


_NUMBER = re.compile(r"\d+")
_LEADING_COUNT = re.compile(r"^(\d+)(\D.*)$", re.DOTALL)


def _warn_once(caught: Iterable[tuple[type[Warning], str]]) -> list[str]:
    """Give the partitions' domain warnings once per kind, with counts; return the texts.

    ``caught`` holds each partition's warnings, each once. A kind is a warning class and
    its message with the numbers taken out. Messages of one kind that begin with a count
    (``"3 impact(s) had no Circular 39 type ..."``) are given once with the counts summed;
    messages that are all the same, once; others once, the first, saying how many
    partitions gave one like it.
    """
    kinds: dict[tuple[type[Warning], str], list[str]] = {}
    for category, message in caught:
        kinds.setdefault((category, _NUMBER.sub("#", message)), []).append(message)
    texts: list[str] = []
    for (category, _), messages in kinds.items():
        counts = [_LEADING_COUNT.match(m) for m in messages]
        if all(counts):
            total = sum(int(m.group(1)) for m in counts if m)
            text = f"{total}{counts[0].group(2) if counts[0] else ''}"
        elif len(set(messages)) == 1:
            text = messages[0]
        else:
            text = (
                f"{messages[0]} (and {len(messages) - 1} more warning(s) like it from other "
                "partitions: see the manifest records)"
            )
        warn_recorded(text, category, texts, stacklevel=3)
    return texts


def _run_dask(
    parts: list[gpd.GeoDataFrame],
    ctx: Context,
    template: AssessRequest,
    scheduler: str | None,
    n_workers: int | None,
    bar: Any,
    timeout: float,
) -> list[dict[str, Any]]:
    """Run one task per partition on a dask.distributed cluster; the context goes once."""
    dask, dask_geopandas, distributed = _scale_extra("dask", "dask_geopandas", "distributed")

    # a dask-geopandas frame whose partitions are the project partitions
    frame = pd.concat(parts)
    part_no = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
    frame = frame.set_index(pd.Index(part_no, name="_wg_partition"))
    ddf = dask_geopandas.from_geopandas(frame, npartitions=len(parts), sort=True)
    with _dask_client(distributed, scheduler, n_workers, timeout) as client:
        ctx_future = client.scatter(ctx, broadcast=True)
        tasks = [dask.delayed(_assess_frame)(d, ctx_future, template) for d in ddf.to_delayed()]
        futures = client.compute(tasks)
        results = []
        for fut in distributed.as_completed(futures):
            res = fut.result()
            results.append(res)
            bar.update(len(res["pos"]))
        return results


def _scale_extra(*names: str) -> list[ModuleType]:
    """Import the named modules of the ``scale`` extra; without it, say how to install it."""
    try:
        return [importlib.import_module(name) for name in names]
    except ImportError as exc:
        raise MissingExtraError(
            "--engine dask needs the `scale` extra: `pip install 'wetland_gis[scale]'` "
            f"(dask-geopandas and distributed); {exc}"
        ) from None


@contextmanager
def _dask_client(
    distributed: ModuleType, scheduler: str | None, n_workers: int | None, timeout: float
) -> Iterator[Any]:
    """Yield a client of the cluster at ``scheduler``, else of a local cluster; close both."""
    cluster = None
    if scheduler:
        client = _connect(distributed.Client, scheduler, timeout)
    else:
        cluster = _local_cluster(distributed.LocalCluster, n_workers)
        client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(client: Any, scheduler: str, timeout: float) -> Any:
    """Return a client of the scheduler at ``scheduler``, or say that it did not answer."""
    try:
        return client(scheduler, timeout=timeout)
    except (OSError, TimeoutError) as err:
        raise InputError(
            f"the dask scheduler at {scheduler} did not answer within {timeout:g} s ({err}): "
            "check the address and port (--scheduler tcp://host:8786) and that `dask "
            "scheduler` runs there and is reachable from this machine; or leave --scheduler "
            "out to use a local cluster"
        ) from err


def _assess_frame(part: pd.DataFrame, ctx: Context, template: AssessRequest) -> dict[str, Any]:
    part = gpd.GeoDataFrame(part.reset_index(drop=True))
    return _assess_part(part, ctx, template)


def stream_assess(
    impacts: str | Path | gpd.GeoDataFrame,
    out: str | Path,
    context: str | Path | Context | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    overwrite: bool = False,
    **keywords: Any,
) -> list[Path]:
    """Assess in chunks of whole projects, writing each chunk to GeoParquet as it is done.

    :func:`stream_request` of ``AssessRequest.of(impacts, context, engine="chunks",
    chunk_size=chunk_size, **keywords)``.

    Parameters
    ----------
    impacts, context
        As :func:`wetland_gis.assess`.
    out : str or Path
        The GeoParquet file of the impacts (``.parquet``); see :func:`stream_request`.
    chunk_size, overwrite
        As :func:`assess_partitioned_to_files` (a chunk is a partition).
    **keywords
        The other keywords of :func:`wetland_gis.assess` (``as_of``, ``fields``,
        ``options``, ``progress_bar``, ...).

    Returns
    -------
    list of Path
        The files written.
    """
    request = AssessRequest.of(impacts, context, engine="chunks", chunk_size=chunk_size, **keywords)
    return stream_request(request, out, overwrite=overwrite)


def stream_request(
    request: AssessRequest, out: str | Path, *, overwrite: bool = False
) -> list[Path]:
    """Assess ``request`` in chunks of whole projects, writing each chunk to GeoParquet.

    Memory holds the context, the input layer and one chunk's results, never all the
    results; the impacts file keeps the chunk order (projects in Hilbert order), with
    ``wg_row`` the row's number in the input (from 1). ``wetland-gis assess --chunk-size
    N`` to a ``.parquet`` output.

    Parameters
    ----------
    request : AssessRequest
        With ``engine="chunks"`` (``chunk_size``: impacts per chunk, whole projects).
    out : str or Path
        The GeoParquet file of the impacts (``.parquet``); beside it
        ``<stem>_decisions.parquet`` (the trace table, its list and dict columns as JSON
        text), ``<stem>_projects.csv``, ``<stem>_summary.csv`` and
        ``<stem>_manifest.json``. Every file is staged and moved into place when the
        last chunk is written.
    overwrite : bool
        Replace existing files that an earlier ``assess`` did not write there.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    InputError
        For an ``out`` that is not ``.parquet`` or an engine other than ``"chunks"``.
    """
    out = Path(out)
    if out.suffix.lower() != ".parquet" or request.engine != "chunks":
        raise InputError(
            f"stream_assess writes GeoParquet with the chunks engine: give a .parquet file, "
            f"not {out}, and engine='chunks' (not {request.engine!r})"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    chunk_size = request.chunk_size or DEFAULT_CHUNK_SIZE
    gdf, source = _read(request.impacts, request.layer, request.assume_crs, request.override_crs)
    ctx = request.loaded_context()
    template = _partition_request(request)
    parts = list(_parts(gdf, request.fields, chunk_size))
    if not parts:  # an empty layer
        return assess_in_memory(replace(template, impacts=gdf, context=ctx)).write(
            out, overwrite=overwrite
        )
    stem = out.with_suffix("")
    manifest_path = Path(f"{stem}_manifest.json")
    chunks = _Chunks(gdf, parts, ctx, template, request.progress_bar)
    staged: dict[str, Path] = {}
    with SafeWriter.for_run("assess", source, manifest_path, overwrite=overwrite) as w:
        # each file is staged beside its target; the stream writes all four at once
        for name, target in (
            ("impacts", out),
            ("trace", Path(f"{stem}_decisions.parquet")),
            ("projects", Path(f"{stem}_projects.csv")),
            ("summary", Path(f"{stem}_summary.csv")),
        ):
            w.file(partial(staged.__setitem__, name), target)
        manifest, caught = chunks.stream(staged)
        if not staged["trace"].exists():  # no step at all: an empty trace table
            pd.DataFrame(columns=list(TRACE_COLUMNS)).to_parquet(staged["trace"])
        _take_source(manifest, source)
        _record_warnings(manifest, caught)
        manifest.settings.update({"engine": "stream", "chunk_size": chunk_size})
        w.manifest(manifest, manifest_path)
    return list(w.written)


@dataclass
class _Chunks:
    """The chunks of a streamed run (:func:`stream_request`), assessed and written in turn."""

    gdf: gpd.GeoDataFrame
    parts: list[np.ndarray]
    ctx: Context
    template: AssessRequest
    progress_bar: bool
    writers: dict[str, Any] = field(default_factory=dict)
    schemas: dict[str, Any] = field(default_factory=dict)

    def stream(self, staged: dict[str, Path]) -> tuple[Manifest, list[tuple[type[Warning], str]]]:
        """Assess and write every chunk; return the run's manifest and the warnings caught."""
        manifest: Manifest | None = None
        caught: list[tuple[type[Warning], str]] = []
        bar = _progress(len(self.gdf), "assess", self.progress_bar)
        try:
            for i, pos in enumerate(self.parts):
                res = _assess_part(_part(self.gdf, pos), self.ctx, self.template)
                self._write(res, i, staged)
                caught.extend(dict.fromkeys(res["warnings"]))
                if manifest is None:
                    manifest = res["manifest"]
                else:
                    manifest.add_records(res["manifest"].records)
                bar.update(len(pos))
                del res  # before the next chunk is assessed
        finally:
            for writer in self.writers.values():
                writer.close()
            bar.close()
        assert manifest is not None  # there is a chunk
        return manifest, caught

    def _write(self, res: dict[str, Any], i: int, staged: dict[str, Path]) -> None:
        """Append one chunk's impacts and trace (GeoParquet) and its two tables (CSV)."""
        import pyarrow.parquet as pq

        chunk = res["impacts"]  # not used again: no copy
        chunk["wg_row"] = res["pos"] + 1
        trace = res["trace"]
        tables = {"impacts": _arrow(chunk)}
        if len(trace):
            tables["trace"] = disk_table(trace)
        for name, table in tables.items():
            if name not in self.writers:
                self.schemas[name] = file_schema(table)
                self.writers[name] = pq.ParquetWriter(staged[name], self.schemas[name])
            self.writers[name].write_table(conform(table, self.schemas[name]))
        for name in ("projects", "summary"):  # cells quoted as csv_cells says
            write_csv(res[name], staged[name], mode="w" if i == 0 else "a", header=i == 0)


# --- the engines writing to files: each partition's task writes its parts -----------------

#: Output rows put together at a time when the parts are assembled into the files.
ASSEMBLE_ROWS = 50_000

_PART_TRACE_UNKNOWN = "\x00unknown project"  # trace rows of no project in the projects table
#: Rows of a record batch of a partition's trace part: the client holds one batch per
#: partition while it puts the trace together (a part's projects are read in order).
TRACE_BATCH_ROWS = 4_096


def assess_partitioned_to_files(
    impacts: str | Path,
    out: str | Path,
    context: str | Path | Context | None = None,
    *,
    engine: str = "chunks",
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    overwrite: bool = False,
    **keywords: Any,
) -> list[Path]:
    """Assess a layer file partition by partition and write the files ``Assessment.write`` writes.

    :func:`partitions_to_files` of ``AssessRequest.of(impacts, context, engine=engine,
    chunk_size=chunk_size, **keywords)``.

    Parameters
    ----------
    impacts : str or Path
        The impact layer's file.
    out : str or Path
        The GeoParquet file of the impacts (``.parquet``).
    context
        As :func:`wetland_gis.assess`.
    engine : {"chunks", "dask"}
        As :func:`assess_partitioned`.
    chunk_size : int, default :data:`DEFAULT_CHUNK_SIZE`
        Impacts per partition (whole projects).
    overwrite : bool
        As :func:`stream_request`.
    **keywords
        The other keywords of :func:`wetland_gis.assess` (``as_of``, ``scheduler``,
        ``n_workers``, ``progress_bar``, ...).

    Returns
    -------
    list of Path
        The files written.
    """
    request = AssessRequest.of(impacts, context, engine=engine, chunk_size=chunk_size, **keywords)
    return partitions_to_files(request, out, overwrite=overwrite)


def partitions_to_files(
    request: AssessRequest, out: str | Path, *, overwrite: bool = False
) -> list[Path]:
    """Assess a layer file partition by partition and write the files ``Assessment.write`` writes.

    The same files, rows and order as ``assess_partitions(request).write(out)`` (a
    GeoParquet ``out``; beside it ``_summary.csv``, ``_projects.csv``,
    ``_decisions.parquet`` and ``_manifest.json``), but no process holds every
    partition's results: each partition's task (a dask worker, or the chunk loop) reads
    its rows from the file, assesses them and writes its parts (Arrow record batches,
    pickled tables, the rows of its trace) to a staging folder beside ``out``; this
    process then puts the parts together, :data:`ASSEMBLE_ROWS` output rows at a time, in
    the input order (the trace by the projects' first appearance), and moves the files
    into place (:class:`~wetland_gis.io.safe_write.SafeWriter`). A layer given as a
    GeoDataFrame, or read with an index of its own, is assessed and merged here.

    Parameters
    ----------
    request : AssessRequest
        With ``engine`` ``"chunks"`` or ``"dask"``; its ``impacts`` a layer's file.
    out : str or Path
        The GeoParquet file of the impacts (``.parquet``).
    overwrite : bool
        As :func:`stream_request`.

    Returns
    -------
    list of Path
        The files written.

    Raises
    ------
    InputError
        As :func:`assess_partitions`; also for an ``out`` that is not ``.parquet`` or an
        engine other than ``"chunks"`` and ``"dask"``.
    """
    out = Path(out)
    if out.suffix.lower() != ".parquet" or request.engine not in ("chunks", "dask"):
        raise InputError(
            f"assess_partitioned_to_files writes GeoParquet with the chunks or dask engine: "
            f"give a .parquet file (not {out.name}) and engine 'chunks' or 'dask' "
            f"(not {request.engine!r}); otherwise use assess_partitioned(...).write(out)"
        )
    if isinstance(request.impacts, gpd.GeoDataFrame):  # no file for the tasks to read
        return assess_partitions(request).write(out, overwrite=overwrite)
    gdf, source = _read(request.impacts, request.layer, request.assume_crs, request.override_crs)
    n = len(gdf)
    if n == 0 or not gdf.index.equals(pd.RangeIndex(n)):  # nothing to split, or an index kept
        del gdf
        return assess_partitions(request).write(out, overwrite=overwrite)
    run = _ToFiles(request, out, overwrite, source, n)
    run.parts = list(_parts(gdf, request.fields, run.chunk_size))
    run.here = _one_partition_here(request.engine, request.scheduler, run.parts)
    if request.engine == "chunks" or run.here:
        run.layer = gdf
    del gdf  # with dask, each task reads its own rows
    return run.run()


@dataclass
class _ToFiles:
    """A run of :func:`partitions_to_files`: its partitions, its staging folder, its bar."""

    request: AssessRequest
    out: Path
    overwrite: bool
    source: Manifest
    n: int
    parts: list[np.ndarray] = field(default_factory=list)
    here: bool = False
    layer: gpd.GeoDataFrame | None = None  # the layer, for the partitions run here
    bar: Any = None

    @property
    def chunk_size(self) -> int:
        """Impacts per partition."""
        return self.request.chunk_size or DEFAULT_CHUNK_SIZE

    def run(self) -> list[Path]:
        """Assess the partitions into parts in a staging folder, then put the files together."""
        import shutil

        request, out = self.request, self.out
        request.say("loading context")
        ctx = request.loaded_context()
        request.say(
            f"{self.n} impacts in {len(self.parts)} partition(s) of whole projects "
            f"({request.engine}, to files)"
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        # a staging folder with its owner file: the next run into this folder removes it if
        # this one is killed (io/safe_write.clean_leftover_staging)
        folder = make_staging_folder(out.parent.resolve(), "assess", f"parts-{out.name}-")
        self.bar = _progress(self.n, "assess", request.progress_bar)
        try:
            jobs = [(i, pos, str(folder / f"part{i:05d}")) for i, pos in enumerate(self.parts)]
            if self.layer is not None:
                return self.finish(self._here(jobs, ctx))
            return self._on_dask(jobs, ctx)
        finally:
            self.bar.close()
            shutil.rmtree(folder, ignore_errors=True)

    def _here(self, jobs: list[tuple[int, np.ndarray, str]], ctx: Context) -> list[dict[str, Any]]:
        """Assess the partitions one after another in this process; return their parts."""
        layer = self.layer
        assert layer is not None  # set by partitions_to_files for the partitions run here
        template = _partition_request(self.request)
        results = []
        for i, pos, stem in jobs:
            results.append(_assess_to_parts(layer, pos, ctx, template, stem, self.n, i))
            self.bar.update(len(pos))
        self.layer = None  # not held while the files are put together
        return results

    def _on_dask(self, jobs: list[tuple[int, np.ndarray, str]], ctx: Context) -> list[Path]:
        """Run a dask task per partition; its workers read the rows from the layer's file."""
        request = self.request
        impacts = request.impacts
        assert not isinstance(impacts, gpd.GeoDataFrame)  # a file: partitions_to_files checks
        sha = next((i.sha256 for i in self.source.inputs if i.role == "impacts"), "") or ""
        # absolute paths: a worker's working folder may be another
        read_args: _ReadArgs = (
            str(Path(impacts).resolve()),
            request.layer,
            request.assume_crs,
            request.override_crs,
            sha,
        )
        ran = _run_dask_to_parts(
            jobs,
            read_args,
            ctx,
            _partition_request(request),
            self.n,
            request.scheduler,
            request.n_workers,
            self.bar,
            _timeout(request),
            self.finish,
        )
        if ran is not None:
            return ran
        # the workers do not share this machine's folders
        self.bar.close()
        request.say("the dask workers do not see the layer's folder: results sent back")
        merged = assess_partitions(replace(request, context=ctx, shoreland_classes=None))
        return merged.write(self.out, overwrite=self.overwrite)

    def finish(self, results: list[dict[str, Any]], submit: Submit | None = None) -> list[Path]:
        """Put the parts together (``submit``: the summary and the trace on the workers)."""
        self.bar.close()
        _read_cached.cache_clear()
        return _assemble(
            results,
            self.out,
            self.source,
            self.request.engine,
            self.chunk_size,
            self.overwrite,
            self.here,
            submit,
        )


#: How a task reads the layer: file, layer, assume_crs, override_crs and the file's
#: SHA-256 as the client read it (so a worker of a running cluster never keeps a
#: layer changed since).
_ReadArgs = tuple[str, str | None, str | None, str | None, str]


@lru_cache(maxsize=1)
def _read_cached(
    impacts: str, layer: str | None, assume_crs: str | None, override_crs: str | None, sha256: str
) -> gpd.GeoDataFrame:
    """Read the impact layer once per process (a worker assesses several partitions)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)  # the client gave them already
        return _read(impacts, layer, assume_crs, override_crs)[0]


def _sees(paths: list[str]) -> bool:
    """Return whether every path exists here (on a worker: a folder shared with the client)."""
    import os

    return all(os.path.exists(p) for p in paths)


def _windows(pos: np.ndarray, n: int) -> np.ndarray:
    """Return where each :data:`ASSEMBLE_ROWS` window of output rows starts in ``pos``."""
    edges = np.arange(0, n + ASSEMBLE_ROWS, ASSEMBLE_ROWS)[1:]
    return np.concatenate([[0], np.searchsorted(pos, edges[:-1]), [len(pos)]])


def _assess_to_parts(
    layer: _ReadArgs | gpd.GeoDataFrame,
    pos: np.ndarray,
    ctx: Context,
    template: AssessRequest,
    stem: str,
    n: int,
    part: int,
) -> dict[str, Any]:
    """Assess one partition of ``layer``; write its parts; return what they hold.

    ``layer`` is the layer, or how to read it from its file (:data:`_ReadArgs`, read once
    per worker); ``pos`` (ascending) are the partition's input positions. The impacts go to
    ``<stem>.arrow`` (GeoArrow-WKB record batches, one run of batches per window of
    :data:`ASSEMBLE_ROWS` output rows), the summary to ``<stem>.summary`` (one pickle per
    window), the trace to ``<stem>.trace`` (the rows of ``*_decisions.parquet`` as Arrow
    IPC, each project's steps together) and the projects to ``<stem>.projects``.
    """
    import pickle

    import pyarrow as pa

    rows = _read_cached(*layer) if isinstance(layer, tuple) else layer
    res = _assess_part(_part(rows, pos), ctx, template)
    del res["decisions"]  # the trace holds what the files need
    impacts = res.pop("impacts")
    impacts["wg_row"] = pos + 1  # as _merge numbers the rows of the whole layer
    impacts, _ = polygon_output(impacts)  # as SafeWriter.layer(polygons=True): row by row
    firsts = _first_appearance(impacts, res["fields"].project, pos)
    # as write_frame: a column's dtype follows its values' kinds (_merged_schema refuses
    # partitions whose kinds give other Arrow types)
    stored = _storable(impacts.reset_index(drop=True))
    del impacts
    head = stored.iloc[:1].copy()  # a copy: a view would keep the whole partition
    table = _arrow(stored)
    del stored
    meta = table.schema.metadata
    cuts = _windows(pos, n)
    batches: list[int] = []
    chunk: list[Any] = []
    with pa.OSFile(f"{stem}.arrow", "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        for a, b in zip(cuts[:-1], cuts[1:], strict=True):
            chunk = table.slice(a, b - a).to_batches()
            for batch in chunk:
                writer.write_batch(batch)
            batches.append(len(chunk))
    del table, chunk  # the batches are slices of the table's buffers
    summary_offsets = []
    with open(f"{stem}.summary", "wb") as fh:
        for a, b in zip(cuts[:-1], cuts[1:], strict=True):
            summary_offsets.append(fh.tell())
            pickle.dump(res["summary"].iloc[a:b], fh, protocol=pickle.HIGHEST_PROTOCOL)
    del res["summary"]
    with open(f"{stem}.projects", "wb") as fh:
        pickle.dump(res["projects"], fh, protocol=pickle.HIGHEST_PROTOCOL)
    groups, trace_columns, trace_batches = _write_trace_arrow(
        res.pop("trace"), res["projects"], f"{stem}.trace"
    )
    return {
        "stem": stem,
        "part": part,
        "pos": pos,
        "pos_min": int(pos.min()),
        "pos_first": int(pos[0]),
        "total": n,
        "n": len(pos),
        "geo": meta.get(b"geo"),
        "pandas": meta.get(b"pandas"),
        "head": head,
        "batches": batches,
        "summary_offsets": summary_offsets,
        "trace_groups": groups,
        "trace_columns": trace_columns,
        "trace_batches": trace_batches,
        "trace_sortable": bool(len(res["projects"]) and "project" in res["projects"]),
        "firsts": firsts,
        "manifest": res["manifest"],
        "fields": res["fields"],
        "warnings": res["warnings"],
    }


def _write_trace_arrow(
    trace: pd.DataFrame, projects: pd.DataFrame, path: str
) -> tuple[list[tuple[str, int, int]], list[str], list[int]]:
    """Write a partition's trace as the rows of ``*_decisions.parquet``, project by project.

    The rows (:func:`~wetland_gis.io.trace_json.disk_table`) go to an Arrow IPC file with
    each project's steps together, in record batches of at most :data:`TRACE_BATCH_ROWS`
    rows. Returns ``(key, first row, rows)`` per project, in the order the projects first
    appear in the trace, the trace's columns and the rows of each batch.
    """
    import pyarrow as pa

    if not len(trace):
        return [], [str(c) for c in trace.columns], []
    if len(projects) and "project" in projects and "project" in trace:
        known = set(projects["project"].astype(str))
        keys = trace["project"].astype(str)
        keys = keys.where(keys.isin(known), _PART_TRACE_UNKNOWN).to_numpy()
    else:
        keys = np.full(len(trace), _PART_TRACE_UNKNOWN, dtype=object)
    codes, uniques = pd.factorize(keys)
    order = np.argsort(codes, kind="stable")
    if (order != np.arange(len(order))).any():  # a project's steps apart: put them together
        trace, codes = trace.iloc[order], codes[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    lengths = np.diff(np.r_[starts, len(codes)])
    groups = [
        (str(uniques[codes[a]]), int(a), int(n)) for a, n in zip(starts, lengths, strict=True)
    ]
    batches: list[int] = []
    with pa.OSFile(path, "wb") as sink:
        writer = None
        for start in range(0, len(trace), ROWS_PER_SLICE):
            table = disk_table(trace.iloc[start : start + ROWS_PER_SLICE])
            if writer is None:
                schema = file_schema(table)
                writer = pa.ipc.new_file(sink, schema)
            for batch in conform(table, schema).to_batches(max_chunksize=TRACE_BATCH_ROWS):
                writer.write_batch(batch)
                batches.append(batch.num_rows)
        if writer is not None:
            writer.close()
    return groups, [str(c) for c in trace.columns], batches


def _local_cluster(local_cluster: Any, n_workers: int | None) -> Any:
    """Start the local cluster of ``--engine dask`` without ``--scheduler``.

    One thread a worker (the rules and GEOS hold the GIL in turn), processes, and no
    dashboard; so the workers' statistical profiler, which samples the running task's
    stack every 10 ms for the dashboard only, is off: about 4 % of the CPU of a
    200,000-impact run (``benchmarks/README.md``, issue 23). A cluster of the user's
    (``--scheduler``) is left as it is configured.
    """
    import dask

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return local_cluster(
            n_workers=n_workers or 2, threads_per_worker=1, processes=True, dashboard_address=None
        )


def _run_dask_to_parts(
    jobs: list[tuple[int, np.ndarray, str]],
    read_args: _ReadArgs,
    ctx: Context,
    template: AssessRequest,
    n: int,
    scheduler: str | None,
    n_workers: int | None,
    bar: Any,
    timeout: float,
    finish: Callable[[list[dict[str, Any]], Submit], list[Path]],
) -> list[Path] | None:
    """Run :func:`_assess_to_parts` as one dask task per partition; the context goes once.

    A task gets the file's name and its rows' positions, never the rows: the workers
    read the layer themselves and write their parts; only what the parts hold (offsets,
    the manifest, the warnings) comes back. Then ``finish(results, submit)`` puts the
    files together while the cluster is still there (``submit`` runs a write on a
    worker) and its files are returned. ``None`` when a worker does not see the layer's
    file or the staging folder (a cluster without a folder shared with this machine):
    nothing was assessed.
    """
    (distributed,) = _scale_extra("distributed")
    with _dask_client(distributed, scheduler, n_workers, timeout) as client:
        if not all(client.run(_sees, [read_args[0], str(Path(jobs[0][2]).parent)]).values()):
            return None  # a worker that cannot read the layer or write the parts
        ctx_future = client.scatter(ctx, broadcast=True)
        futures = [
            client.submit(
                _assess_to_parts,
                read_args,
                pos,
                ctx_future,
                template,
                stem,
                n,
                i,
                key=f"wg-part-{i}",
            )
            for i, pos, stem in jobs
        ]
        results = []
        for fut in distributed.as_completed(futures):
            res = fut.result()
            results.append(res)
            bar.update(res["n"])
            fut.release()
        client.run(_read_cached.cache_clear)  # a running cluster keeps no layer

        def submit(write: Callable[[Path], Any], staged: Path) -> Any:
            return client.submit(write, staged, key=f"wg-write-{staged.name}", pure=False)

        return finish(results, submit)


def _assemble(
    results: list[dict[str, Any]],
    out: Path,
    source: Manifest,
    engine: str,
    chunk_size: int,
    overwrite: bool,
    here: bool = False,
    submit: Submit | None = None,
) -> list[Path]:
    """Write the files of ``Assessment.write`` from the partitions' parts (see :func:`_merge`).

    ``here``: the dask engine's one partition ran in this process (:func:`_one_partition_here`).
    ``submit``: how to write the summary and the trace on a dask worker (they are written
    here without it); the files are the same either way.
    """
    results = sorted(results, key=lambda r: r["pos_min"])
    fields = results[0]["fields"]
    projects = _merged_projects(results, fields.project)
    manifest = results[0]["manifest"]
    _take_source(manifest, source)
    for r in results[1:]:
        manifest.add_records(r["manifest"].records)
    manifest.settings["engine"] = engine
    manifest.settings["chunk_size"] = chunk_size
    manifest.add_records(_engine_records(len(results), engine, here))
    # the warnings' examples from the partitions in their order (Hilbert), as the chunks
    # engine gives them (the merged dask engine took them in the order tasks ended)
    by_part = sorted(results, key=lambda r: r["part"])
    _record_warnings(manifest, [w for r in by_part for w in dict.fromkeys(r["warnings"])])
    stem = out.with_suffix("")
    manifest_path = Path(f"{stem}_manifest.json")
    if not len(projects.columns):
        projects = pd.DataFrame(columns=["project", "impacts", "assessed"])
    with SafeWriter.for_run("assess", manifest, manifest_path, overwrite=overwrite) as w:
        # the summary and the trace on the workers (when there are), while this process
        # writes the impacts and the projects: the cluster's cores would otherwise wait
        w.files(
            [
                (partial(_assemble_impacts, results), out, None),
                (partial(_assemble_summary, results), f"{stem}_summary.csv", submit),
                (partial(write_csv, projects), f"{stem}_projects.csv", None),
                (
                    partial(_assemble_trace, results, projects),
                    f"{stem}_decisions.parquet",
                    submit,
                ),
            ]
        )
        w.manifest(manifest, manifest_path)
    return list(w.written)


def _merged_projects(results: list[dict[str, Any]], project_field: str | None) -> pd.DataFrame:
    """Return the projects of all partitions as :func:`_merge` orders them."""
    import pickle

    frames = []
    for r in results:
        with open(f"{r['stem']}.projects", "rb") as fh:
            frames.append(pickle.load(fh).assign(_first=r["pos_first"]))
    projects = pd.concat(frames, ignore_index=True)
    if len(projects) and "project" in projects:
        firsts: dict[str, int] = {}
        for r in results:
            for name, at in r["firsts"].items():
                firsts[name] = min(at, firsts.get(name, at))
        projects["_first"] = projects["project"].map(firsts).fillna(projects["_first"])
        projects = projects.sort_values("_first", kind="stable")
    return projects.drop(columns="_first").reset_index(drop=True)


def _assemble_summary(results: list[dict[str, Any]], path: Path) -> None:
    """Write the summary CSV in the input order, a window of rows at a time."""
    import pickle

    files = [open(f"{r['stem']}.summary", "rb") for r in results]  # noqa: SIM115
    try:
        for window in range(len(results[0]["summary_offsets"])):
            pieces, pos = [], []
            for r, fh in zip(results, files, strict=True):
                fh.seek(r["summary_offsets"][window])
                piece = pickle.load(fh)
                cuts = _windows(r["pos"], int(r["total"]))
                pieces.append(piece)
                pos.append(r["pos"][cuts[window] : cuts[window + 1]])
            frame = pd.concat(pieces, ignore_index=True)
            frame = frame.iloc[np.argsort(np.concatenate(pos), kind="stable")]
            if window and not len(frame):
                continue
            write_csv(frame, path, mode="a" if window else "w", header=not window)
    finally:
        for fh in files:
            fh.close()


def _assemble_trace(results: list[dict[str, Any]], projects: pd.DataFrame, path: Path) -> None:
    """Write ``_decisions.parquet`` from the partitions' rows, projects as they first appear."""
    columns = {tuple(r["trace_columns"]) for r in results if r["trace_groups"]}
    if len(columns) > 1:
        raise _NotAssemblable("the partitions' traces have other columns")
    groups = [(r["stem"], g) for r in results for g in r["trace_groups"]]
    if groups and len(projects) and "project" in projects:
        rank = {str(p): i for i, p in enumerate(projects["project"])}
        key = [rank.get(g[0], len(rank)) for _, g in groups]
        groups = [groups[i] for i in np.argsort(key, kind="stable")]
    parts = {r["stem"]: _TracePart(f"{r['stem']}.trace", r["trace_batches"]) for r in results}
    try:
        write_tables_parquet((parts[stem].rows(start, n) for stem, (_, start, n) in groups), path)
    finally:
        for part in parts.values():
            part.close()


class _TracePart:
    """A partition's trace part, read a record batch at a time as its rows are taken.

    Its projects are taken in the order of their rows, so only the batch being read is
    held (not the whole part, nor a memory map whose pages count as the client's memory).
    """

    def __init__(self, path: str, batches: list[int]) -> None:
        self.path = path
        self.starts = np.r_[0, np.cumsum(batches)].astype(np.int64)
        self.reader: Any = None
        self.at = -1
        self.batch: Any = None

    def _batch(self, k: int) -> Any:
        import pyarrow as pa

        if k != self.at:
            if self.reader is None:
                self.source = pa.OSFile(self.path, "rb")
                self.reader = pa.ipc.open_file(self.source)
            self.batch, self.at = self.reader.get_batch(k), k
        return self.batch

    def rows(self, start: int, n: int) -> Any:
        """Return the part's rows ``start`` to ``start + n`` as a table."""
        import pyarrow as pa

        pieces = []
        stop = start + n
        while start < stop:
            k = int(np.searchsorted(self.starts, start, side="right")) - 1
            first = int(self.starts[k])
            take = min(stop, int(self.starts[k + 1])) - start
            pieces.append(self._batch(k).slice(start - first, take))
            start += take
        return pa.Table.from_batches(pieces)

    def close(self) -> None:
        """Close the part's file."""
        if self.reader is not None:
            self.source.close()
            self.reader = self.batch = None
