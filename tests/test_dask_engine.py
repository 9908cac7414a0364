"""The partitioned engines give the results of one ``assess`` call (issue 14, section 4).

The dask engine runs on a ``LocalCluster`` of 2 workers, reached through its scheduler
address as a state-scale cluster would be (``--scheduler tcp://...``).
"""

from __future__ import annotations

import importlib.util
import json
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
from helpers import assess_cli

import wetland_gis as wg
from wetland_gis.errors import InputError
from wetland_gis.partitioned import assess_partitioned, project_partitions, stream_assess

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
CONTEXT = SAMPLE / "synthetic_context.gpkg"
AS_OF = "2024-05-01"


@pytest.fixture(scope="module")
def small_world(generated_world):
    """200 impacts (10 projects) of the benchmark's generated Minnesota, and its context.

    The world is generated once per test run (``generated_world``, tests/session_fixtures.py).
    """
    layers = {name: layer.copy() for name, layer in generated_world.layers.items()}
    return generated_world.impacts.copy(), wg.load_context(layers=layers, as_of=AS_OF)


@pytest.fixture
def cluster(dask_cluster):
    """The test run's one local cluster of 2 workers (``dask_cluster``)."""
    return dask_cluster


def _norm(frame) -> pd.DataFrame:
    df = pd.DataFrame(frame)
    return df.astype(object).where(df.notna(), None)


def _assert_same(a, b) -> None:
    pd.testing.assert_frame_equal(_norm(a.impacts), _norm(b.impacts))
    pd.testing.assert_frame_equal(_norm(a.summary), _norm(b.summary))
    pd.testing.assert_frame_equal(_norm(a.projects), _norm(b.projects))
    assert a.decisions_json() == b.decisions_json()
    assert len(a.zones) == len(b.zones)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        return fn(*args, **kwargs)


def _partitioned_as_one(impacts, ctx, **options):
    """Assert ``assess_partitioned`` with ``options`` gives what one pass gives; return it."""
    one = _quiet(wg.assess, impacts, ctx, as_of=AS_OF)
    many = _quiet(assess_partitioned, impacts, ctx, as_of=AS_OF, progress_bar=False, **options)
    _assert_same(one, many)
    return many


@pytest.mark.slow
@pytest.mark.parametrize("project", ["wright_metro", "crow_wing"])
def test_dask_engine_matches_the_default_engine_on_the_sample_projects(cluster, project):
    impacts = SAMPLE / "projects" / project / "impacts.gpkg"
    many = _partitioned_as_one(
        impacts, CONTEXT, engine="dask", chunk_size=3, scheduler=cluster.scheduler_address
    )
    assert many.manifest.settings["engine"] == "dask"


@pytest.mark.slow
def test_dask_engine_matches_the_default_engine_on_a_generated_world(cluster, small_world):
    impacts, ctx = small_world
    many = _partitioned_as_one(
        impacts, ctx, engine="dask", chunk_size=50, scheduler=cluster.scheduler_address
    )
    assert any("4 partition(s)" in r for r in many.manifest.records)


@pytest.mark.slow
def test_chunks_engine_matches_the_default_engine(small_world):
    impacts, ctx = small_world
    many = _partitioned_as_one(impacts, ctx, engine="chunks", chunk_size=30)
    assert many.manifest.settings["engine"] == "chunks"


@pytest.mark.slow
def test_projects_never_straddle_partitions(small_world):
    impacts, _ = small_world
    part = project_partitions(impacts, "project", 45)
    per_project = pd.Series(part).groupby(impacts["project"].to_numpy()).nunique()
    assert (per_project == 1).all()
    # a partition holds the projects starting in its chunk_size rows: at most chunk_size
    # plus one project (20 impacts) less one row
    sizes = np.bincount(part)
    assert sizes.max() <= 45 + 20 - 1 and sizes.sum() == len(impacts)
    assert len(sizes) == 5  # projects start at rows 0, 20, ... 180: cuts at 45, 90, 135, 180


@pytest.mark.slow
def test_streamed_geoparquet_holds_every_row_once(small_world, tmp_path):
    impacts, ctx = small_world
    written = _quiet(
        stream_assess,
        impacts,
        tmp_path / "out.parquet",
        ctx,
        chunk_size=40,
        as_of=AS_OF,
        progress_bar=False,
    )
    out = gpd.read_parquet(written[0])
    one = _quiet(wg.assess, impacts, ctx, as_of=AS_OF)
    assert sorted(out["wg_row"]) == list(range(1, len(impacts) + 1))
    got = out.sort_values("wg_row").reset_index(drop=True)
    assert list(got["outcome"]) == list(one.impacts["outcome"])
    assert np.allclose(got["sqft_setback"], one.impacts["sqft_setback"])
    assert out.crs == one.impacts.crs
    by_name = {p.name: p for p in written}
    assert len(pd.read_csv(by_name["out_projects.csv"])) == impacts["project"].nunique()
    # the trace is streamed too: one assess call's steps, JSON columns as text
    trace = pd.read_parquet(by_name["out_decisions.parquet"])
    assert len(trace) == len(one.trace)
    assert set(trace["impact_id"]) == set(one.trace["impact_id"])
    # encoded as the GeoPackage decisions table and the JSON file encode them
    table = one.decisions_table()
    for name in ("verify", "inputs", "parameters"):
        assert sorted(trace[name]) == sorted(table[name])


@pytest.mark.slow
def test_a_bad_engine_or_chunk_size_is_an_error(small_world):
    impacts, ctx = small_world
    with pytest.raises(InputError, match="engine"):
        assess_partitioned(impacts, ctx, engine="spark")
    with pytest.raises(InputError, match="chunk_size"):
        project_partitions(impacts, "project", 0)


@pytest.mark.slow
def test_cli_streams_chunks_to_geoparquet(tmp_path):

    impacts = SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"
    out = tmp_path / "assessed.parquet"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        code = assess_cli(impacts, CONTEXT, out, "--as-of", AS_OF, "--chunk-size", "2", "--quiet")
    assert code == 0
    got = gpd.read_parquet(out)
    one = _quiet(wg.assess, impacts, CONTEXT, as_of=AS_OF)
    assert sorted(got["outcome"]) == sorted(one.impacts["outcome"])
    assert (tmp_path / "assessed_manifest.json").exists()


def _same_files(a: Path, b: Path) -> None:
    """The files of two runs are the same: the GeoParquet's table, the others' bytes."""
    import pyarrow.parquet as pq

    ta, tb = pq.read_table(a), pq.read_table(b)
    assert ta.schema.remove_metadata() == tb.schema.remove_metadata()
    assert ta.equals(tb)
    for suffix in ("_summary.csv", "_projects.csv", "_decisions.parquet"):
        ours = a.with_name(a.stem + suffix).read_bytes()
        assert ours == b.with_name(b.stem + suffix).read_bytes(), suffix


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["chunks", "dask"])
def test_partitions_written_by_their_tasks_give_the_files_of_one_merged_write(
    cluster, small_world, tmp_path, engine
):
    from wetland_gis.partitioned import assess_partitioned_to_files

    impacts, ctx = small_world
    layer = tmp_path / "impacts.parquet"
    impacts.to_parquet(layer)
    scheduler = cluster.scheduler_address if engine == "dask" else None
    options = {"engine": engine, "chunk_size": 45, "as_of": AS_OF, "progress_bar": False}
    merged = _quiet(assess_partitioned, layer, ctx, scheduler=scheduler, **options)
    merged.write(tmp_path / "merged" / "a.parquet")
    (tmp_path / "parts").mkdir()
    written = _quiet(
        assess_partitioned_to_files,
        layer,
        tmp_path / "parts" / "a.parquet",
        ctx,
        scheduler=scheduler,
        **options,
    )
    assert [p.name for p in written] == [
        "a.parquet",
        "a_summary.csv",
        "a_projects.csv",
        "a_decisions.parquet",
        "a_manifest.json",
    ]
    assert sorted(p.name for p in (tmp_path / "parts").iterdir()) == sorted(
        p.name for p in written
    )  # the parts' staging folder is gone
    _same_files(tmp_path / "parts" / "a.parquet", tmp_path / "merged" / "a.parquet")
    # read back with the dtypes of one assess call's file (the dask frame of the merged
    # path made the input's text columns "string", not "str")
    _quiet(wg.assess, layer, ctx, as_of=AS_OF).write(tmp_path / "one" / "a.parquet")
    one = gpd.read_parquet(tmp_path / "one" / "a.parquet").dtypes
    assert gpd.read_parquet(tmp_path / "parts" / "a.parquet").dtypes.equals(one)
    # the manifest is the merged one's, but for the time and the outputs' names
    import json

    ours = json.loads((tmp_path / "parts" / "a_manifest.json").read_text("utf-8"))
    theirs = json.loads((tmp_path / "merged" / "a_manifest.json").read_text("utf-8"))
    for key in ("settings", "inputs"):
        assert ours[key] == theirs[key], key
    # the merged dask engine took the warnings' examples in the order its tasks ended
    same = (lambda r: r) if engine == "chunks" else (lambda r: [t.split(" (e.g.")[0] for t in r])
    assert same(ours["records"]) == same(theirs["records"])


def _write_tasks(dask_scheduler) -> list[str]:
    # the cluster is the test run's (dask_cluster): only this test writes files named remote*
    keys = {str(t.key) for t in dask_scheduler.transition_log}
    return sorted(k for k in keys if k.startswith("wg-write-remote"))


@pytest.mark.slow
def test_the_workers_write_the_summary_and_the_trace_while_the_client_writes_the_impacts(
    cluster, small_world, tmp_path
):
    """The cluster's workers put the summary and the trace together (issue 23): the same bytes."""
    from distributed import Client

    from wetland_gis.partitioned import assess_partitioned_to_files

    impacts, ctx = small_world
    layer = tmp_path / "impacts.parquet"
    impacts.to_parquet(layer)
    options = {"chunk_size": 45, "as_of": AS_OF, "progress_bar": False}
    out = tmp_path / "dask" / "remote.parquet"
    out.parent.mkdir()
    _quiet(
        assess_partitioned_to_files,
        layer,
        out,
        ctx,
        engine="dask",
        scheduler=cluster.scheduler_address,
        **options,
    )
    with Client(cluster.scheduler_address) as client:
        tasks = client.run_on_scheduler(_write_tasks)
    assert tasks == ["wg-write-remote_decisions.parquet", "wg-write-remote_summary.csv"]
    here = tmp_path / "chunks" / "remote.parquet"
    here.parent.mkdir()
    _quiet(assess_partitioned_to_files, layer, here, ctx, engine="chunks", **options)
    _same_files(out, here)
    assert sorted(p.name for p in out.parent.iterdir()) == sorted(
        p.name for p in here.parent.iterdir()
    )  # no staging folder left by the workers' writes


def _profiling() -> bool:
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled"))


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")  # the session's cluster
def test_the_local_cluster_workers_do_not_run_the_dashboards_profiler():
    """Our cluster has no dashboard: its workers sample no stacks (issue 23, ~4 % CPU)."""
    from distributed import Client, LocalCluster

    from wetland_gis.partitioned import _local_cluster

    with _local_cluster(LocalCluster, 2) as cluster, Client(cluster) as client:
        profiling = client.run(_profiling)
        assert len(profiling) == 2
        assert not any(profiling.values())
    assert _profiling()  # set for the cluster's start only, not for this process after


def test_partitions_whose_columns_take_other_types_are_refused():
    import pyarrow as pa

    from wetland_gis.io.geoparquet import _merged_schema, _NotAssemblable

    null = pa.schema([("a", pa.null()), ("b", pa.int64())])
    text = pa.schema([("a", pa.string()), ("b", pa.int64())])
    assert _merged_schema([null, text], pa) == text
    with pytest.raises(_NotAssemblable, match="'b' has the types"):
        _merged_schema([text, pa.schema([("a", pa.string()), ("b", pa.float64())])], pa)


@pytest.mark.slow
def test_cli_dask_engine_writes_from_the_workers(tmp_path, monkeypatch):
    from wetland_gis import partitioned

    calls = []
    real = partitioned.partitions_to_files
    monkeypatch.setattr(
        partitioned,
        "partitions_to_files",
        lambda request, *a, **k: calls.append(request.engine) or real(request, *a, **k),
    )
    impacts = SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"
    out = tmp_path / "assessed.parquet"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        code = assess_cli(
            impacts,
            CONTEXT,
            out,
            "--as-of",
            AS_OF,
            "--engine",
            "chunks",
            "--chunk-size",
            "2",
            "--quiet",
        )
    assert code == 0 and calls == ["chunks"]
    one = _quiet(wg.assess, impacts, CONTEXT, as_of=AS_OF)
    got = gpd.read_parquet(out)
    assert list(got["outcome"]) == list(one.impacts["outcome"])
    trace = pd.read_parquet(tmp_path / "assessed_decisions.parquet")  # the trace as a table
    assert len(trace) and set(trace["impact_id"]) - {""} <= set(one.impacts["impact_id"])


@pytest.mark.slow
def test_workers_that_do_not_see_the_folder_send_their_results_back(
    cluster, small_world, tmp_path, monkeypatch
):
    from wetland_gis import partitioned

    impacts, ctx = small_world
    layer = tmp_path / "impacts.parquet"
    impacts.to_parquet(layer)
    monkeypatch.setattr(partitioned, "_run_dask_to_parts", lambda *a, **k: None)
    options = {"engine": "dask", "chunk_size": 45, "as_of": AS_OF, "progress_bar": False}
    options["scheduler"] = cluster.scheduler_address
    written = _quiet(
        partitioned.assess_partitioned_to_files, layer, tmp_path / "a.parquet", ctx, **options
    )
    merged = _quiet(assess_partitioned, layer, ctx, **options)
    merged.write(tmp_path / "merged" / "a.parquet")
    assert written[0] == tmp_path / "a.parquet"
    _same_files(tmp_path / "a.parquet", tmp_path / "merged" / "a.parquet")


@pytest.mark.parametrize("rows_per_slice", [2, 1000])
def test_a_partitions_trace_put_together_is_the_file_of_its_sorted_trace(
    tmp_path, monkeypatch, rows_per_slice
):
    # steps of project A apart (A, B, A) and a step of no known project; slices of 2 rows
    from wetland_gis.io import trace_json
    from wetland_gis.partitioned import _assemble_trace, _write_trace_arrow

    monkeypatch.setattr(trace_json, "ROWS_PER_SLICE", rows_per_slice)
    # record batches of 2 rows: project A's 3 steps are read from two batches
    monkeypatch.setattr(importlib.import_module("wetland_gis.partitioned"), "TRACE_BATCH_ROWS", 2)
    trace = pd.DataFrame(
        {
            "project": ["A", "B", "A", "?", "A"],
            "seq": [1, 1, 2, 1, 3],
            "inputs": [{"x": 1}, {}, {"y": [1, 2]}, {}, {"z": "é"}],
            "value": [1.5, None, 2.0, None, 3.0],
        }
    )
    projects = pd.DataFrame({"project": ["B", "A"]})
    groups, columns, batches = _write_trace_arrow(trace, projects, str(tmp_path / "p0.trace"))
    assert [g[0] for g in groups][:2] == ["A", "B"] and columns == list(trace.columns)
    result = {
        "stem": str(tmp_path / "p0"),
        "trace_groups": groups,
        "trace_columns": columns,
        "trace_batches": batches,
    }
    _assemble_trace([result], projects, tmp_path / "out.parquet")
    # as _merge orders the trace: projects as in the projects table, unknown ones last
    expected = trace.iloc[[1, 0, 2, 4, 3]]
    trace_json.write_trace_parquet(expected, tmp_path / "expected.parquet")
    assert (tmp_path / "out.parquet").read_bytes() == (tmp_path / "expected.parquet").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("to_files", [False, True])
def test_dask_engine_with_one_partition_starts_no_local_cluster(
    small_world, tmp_path, monkeypatch, to_files
):
    """Issue 23: one partition runs here (a local cluster only adds its start-up)."""
    import distributed

    from wetland_gis import partitioned

    def no_cluster(*a, **k):
        raise AssertionError("a local cluster was started for one partition")

    monkeypatch.setattr(distributed, "LocalCluster", no_cluster)
    impacts, ctx = small_world
    layer = tmp_path / "impacts.parquet"
    impacts.to_parquet(layer)
    options = {"chunk_size": len(impacts) + 1, "as_of": AS_OF, "progress_bar": False}
    if to_files:
        _quiet(
            partitioned.assess_partitioned_to_files,
            layer,
            tmp_path / "dask" / "a.parquet",
            ctx,
            engine="dask",
            **options,
        )
        _quiet(
            partitioned.assess_partitioned_to_files,
            layer,
            tmp_path / "chunks" / "a.parquet",
            ctx,
            engine="chunks",
            **options,
        )
        records = json.loads((tmp_path / "dask" / "a_manifest.json").read_text())["records"]
        assert partitioned.ONE_PARTITION_RECORD in records
        _same_files(tmp_path / "dask" / "a.parquet", tmp_path / "chunks" / "a.parquet")
    else:
        got = _quiet(assess_partitioned, layer, ctx, engine="dask", **options)
        want = _quiet(assess_partitioned, layer, ctx, engine="chunks", **options)
        assert partitioned.ONE_PARTITION_RECORD in got.manifest.records
        assert got.impacts.equals(want.impacts) and got.trace.equals(want.trace)
    # two partitions: the cluster is asked for (and refused here)
    options["chunk_size"] = max(1, len(impacts) // 2)
    with pytest.raises(AssertionError, match="local cluster was started"):
        _quiet(assess_partitioned, layer, ctx, engine="dask", **options)


@pytest.mark.slow
def test_the_parts_of_a_killed_engine_run_are_removed_by_the_next_run(tmp_path):
    """A run killed after its tasks wrote their parts (``os._exit``: no ``finally``) left
    its parts folder; the next run into the folder removes it (its process is gone) and
    says so in the manifest; a run's own parts folder warns of nothing."""
    import os
    import subprocess
    import sys

    from wetland_gis import partitioned
    from wetland_gis.errors import LeftoverStagingWarning

    out = tmp_path / "out" / "a.parquet"
    impacts = SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"
    args = f"{str(impacts)!r}, {str(out)!r}, {str(CONTEXT)!r}"
    script = (
        "import os, warnings\n"
        "from wetland_gis import partitioned\n"
        "warnings.simplefilter('ignore')\n"
        "partitioned._assemble = lambda *a, **k: os._exit(9)  # killed before assembling\n"
        f"partitioned.assess_partitioned_to_files({args}, engine='chunks', chunk_size=2, "
        f"as_of={AS_OF!r}, progress_bar=False)\n"
    )
    killed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=False)
    assert killed.returncode == 9
    left = [p for p in out.parent.iterdir() if p.is_dir()]
    assert len(left) == 1 and any(left[0].glob("part*.arrow")), left
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        warnings.simplefilter("error", LeftoverStagingWarning)  # nothing of its own to warn of
        partitioned.assess_partitioned_to_files(
            impacts, out, CONTEXT, engine="chunks", chunk_size=2, as_of=AS_OF, progress_bar=False
        )
    assert sorted(os.listdir(out.parent)) == sorted(
        ["a.parquet", "a_summary.csv", "a_projects.csv", "a_decisions.parquet", "a_manifest.json"]
    )
    records = json.loads((out.parent / "a_manifest.json").read_text())["records"]
    assert any(f"removed the staging folder {left[0]}" in r for r in records)


@pytest.mark.slow
def test_the_dask_engine_records_the_warnings_in_the_order_of_the_partitions(
    cluster, small_world, monkeypatch
):
    import distributed

    impacts, ctx = small_world
    # the tasks end in the reverse of the partitions' order
    monkeypatch.setattr(distributed, "as_completed", lambda futures: reversed(list(futures)))
    options = {"chunk_size": 45, "as_of": AS_OF, "progress_bar": False}
    address = cluster.scheduler_address
    dask = _quiet(wg.assess, impacts, ctx, engine="dask", scheduler=address, **options)
    chunks = _quiet(wg.assess, impacts, ctx, engine="chunks", **options)

    def records(a):
        return [r for r in a.manifest.records if "partition(s) of whole projects by" not in r]

    # a warning given once for all the partitions, with the first partition's example
    assert any("pair(s) of impact polygons overlap (e.g." in r for r in records(chunks))
    assert records(dask) == records(chunks)
