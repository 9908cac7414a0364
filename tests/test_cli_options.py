"""Options that contradict each other or do nothing are refused with the reason (issue 19).

``--chunk-size 0``, ``--scheduler`` without ``--engine dask``, an unreachable scheduler;
``--chunk-size`` with a GeoPackage output works (the chunks engine, written whole).
"""

from __future__ import annotations

import json
import socket
import time
import warnings
from pathlib import Path

import pytest
from helpers import assess_cli

import wetland_gis as wg
from wetland_gis.commands import read_assessed
from wetland_gis.errors import InputError
from wetland_gis.partitioned import assess_partitioned, check_engine_options

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
CONTEXT = SAMPLE / "synthetic_context.gpkg"
IMPACTS = SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"
AS_OF = "2024-05-01"


def _assess(tmp_path, *extra, out="a.gpkg"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        return assess_cli(IMPACTS, CONTEXT, tmp_path / out, "--as-of", AS_OF, "--quiet", *extra)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("engine", "chunk", "scheduler", "match"),
    [
        pytest.param("chunks", 0, None, "chunk_size .* was 0", id="chunk size 0"),
        pytest.param("chunks", -5, None, "was -5", id="negative chunk size"),
        pytest.param("chunks", 1, None, None, id="chunk size 1 is the smallest"),
        pytest.param("default", None, None, None, id="defaults"),
        pytest.param("chunks", None, "tcp://h:8786", "only by the dask engine", id="sched+chunks"),
        pytest.param("default", None, "tcp://h:8786", "add --engine dask", id="sched+default"),
        pytest.param("dask", 10, "tcp://h:8786", None, id="scheduler with dask"),
        pytest.param("spark", None, None, "engine", id="unknown engine"),
    ],
)
def test_engine_options_are_checked_in_one_place(engine, chunk, scheduler, match):
    if match is None:
        check_engine_options(engine, chunk, scheduler)
    else:
        with pytest.raises(InputError, match=match):
            check_engine_options(engine, chunk, scheduler)


def test_cli_chunk_size_0_is_refused_not_replaced_by_the_default(tmp_path, capsys):
    assert _assess(tmp_path, "--chunk-size", "0") == 2
    err = capsys.readouterr().err
    assert "--chunk-size) was 0 but must be a positive number" in err
    assert not (tmp_path / "a.gpkg").exists()


def test_cli_scheduler_without_dask_engine_is_refused(tmp_path, capsys):
    assert _assess(tmp_path, "--scheduler", "tcp://127.0.0.1:8786") == 2
    assert "used only by the dask engine" in capsys.readouterr().err
    assert not (tmp_path / "a.gpkg").exists()


def test_cli_chunk_size_with_a_geopackage_output_assesses_in_chunks(tmp_path, capsys):
    assert _assess(tmp_path, "--chunk-size", "1") == 0
    manifest = json.loads((tmp_path / "a_manifest.json").read_text("utf-8"))
    assert manifest["settings"]["engine"] == "chunks"
    assert manifest["settings"]["chunk_size"] == 1
    one = read_assessed(tmp_path / "a.gpkg")["impacts"]
    plain = tmp_path / "plain"
    assert _assess(plain) == 0
    same = read_assessed(plain / "a.gpkg")["impacts"]
    assert list(one["outcome"]) == list(same["outcome"])


def test_an_unreachable_scheduler_says_it_did_not_answer(tmp_path):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    start = time.monotonic()
    with (
        warnings.catch_warnings(),
        pytest.raises(InputError, match=f"scheduler at {address} did not answer within 1 s"),
    ):
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        assess_partitioned(
            IMPACTS,
            CONTEXT,
            engine="dask",
            scheduler=address,
            scheduler_timeout=1,
            as_of=AS_OF,
            progress_bar=False,
        )
    assert time.monotonic() - start < 30


def test_cli_unreachable_scheduler_exits_2_naming_the_address(tmp_path, capsys, monkeypatch):
    import wetland_gis.partitioned as partitioned

    monkeypatch.setattr(partitioned, "SCHEDULER_TIMEOUT_S", 1.0)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    assert _assess(tmp_path, "--engine", "dask", "--scheduler", address) == 2
    err = capsys.readouterr().err
    assert f"the dask scheduler at {address} did not answer" in err
    assert "internal error" not in err


def test_cli_exemption_scope_reading_is_recorded_when_not_the_default(tmp_path):
    """Minn. R. 8420.0420, subp. 1 C: ``--reading exemption_scope=...`` sets the open reading
    (``Claims.exemption_scope_reading``); the manifest records a reading only when it is
    not the default."""
    assert _assess(tmp_path, "--reading", "exemption_scope=covered_impacts") == 0
    manifest = json.loads((tmp_path / "a_manifest.json").read_text("utf-8"))
    assert manifest["settings"]["exemption_scope_reading"] == "covered_impacts"
    plain = tmp_path / "plain"
    assert _assess(plain, "--reading", "exemption_scope_reading=whole_project") == 0
    default = json.loads((plain / "a_manifest.json").read_text("utf-8"))
    assert "exemption_scope_reading" not in default["settings"]


def test_cli_unknown_exemption_scope_reading_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        _assess(tmp_path, "--reading", "exemption_scope=every_impact")
    assert stop.value.code == 2
    assert "whole_project" in capsys.readouterr().err
    assert not (tmp_path / "a.gpkg").exists()
