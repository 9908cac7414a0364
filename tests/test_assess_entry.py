"""One entry, one request: ``wg.assess(..., engine=)`` builds an ``AssessRequest`` once (issue 33).

Every engine (the default one pass, the chunks and dask partitions, the streamed and the
to-files writers) takes that request; the options of an engine are checked when the
request is made, before any file is read; the command line's ``--engine`` runs through the
same dispatcher. The results of the engines are those of one in-memory pass.
"""

from __future__ import annotations

import dataclasses
import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest

import wetland_gis as wg
from wetland_gis.assess import DEFAULT_CHUNK_SIZE, AssessOptions, AssessRequest
from wetland_gis.errors import InputError
from wetland_gis.partitioned import assess_partitioned_to_files
from wetland_gis.screen import screen

AS_OF = "2024-05-01"
MISSING = "no-such-layer.gpkg"  # never read: the request is refused first


@pytest.fixture
def wright(sample_data) -> Path:
    return sample_data.path("projects/wright_metro/impacts.gpkg")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        return fn(*args, **kwargs)


def _frame(frame) -> pd.DataFrame:
    df = pd.DataFrame(frame)
    return df.astype(object).where(df.notna(), None)


@pytest.mark.parametrize(
    ("keywords", "match"),
    [
        pytest.param(
            {"chunk_size": 5},
            "chunk_size=5 is used by the chunks and dask engines",
            id="a chunk size with the one-pass engine would do nothing",
        ),
        pytest.param(
            {"n_workers": 2},
            "n_workers=2 is used by the chunks and dask engines",
            id="workers with the one-pass engine would do nothing",
        ),
        pytest.param(
            {"engine": "chunks", "scheduler": "tcp://h:8786"},
            "used only by the dask engine",
            id="a scheduler without dask",
        ),
        pytest.param(
            {"engine": "chunks", "chunk_size": 0},
            r"chunk_size \(--chunk-size\) was 0",
            id="chunk size 0",
        ),
        pytest.param({"engine": "spark"}, r"`engine` was 'spark'", id="an unknown engine"),
        pytest.param(
            {"engine": "dask", "register": "register.gpkg"},
            "register .* works with the default engine",
            id="the register with a partitioned engine",
        ),
    ],
)
def test_engine_options_are_refused_at_the_entry_before_any_file_is_read(keywords, match):
    with pytest.raises(InputError, match=match):
        wg.assess(MISSING, as_of=AS_OF, **keywords)


def test_the_request_is_built_once_frozen_and_handed_to_the_engine(monkeypatch, wright):
    from wetland_gis import partitioned

    seen = []
    monkeypatch.setattr(partitioned, "assess_partitions", lambda request: seen.append(request))
    options = AssessOptions(local_limit_sqft=500)
    wg.assess(wright, as_of=AS_OF, options=options, engine="dask", n_workers=3, chunk_size=2)
    (request,) = seen
    assert isinstance(request, AssessRequest)
    assert (request.impacts, request.engine, request.chunk_size) == (wright, "dask", 2)
    assert request.n_workers == 3 and request.options is options
    assert request.as_of.isoformat() == AS_OF and request.params is wg.default_parameters()
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.engine = "chunks"


@pytest.mark.slow
def test_the_chunks_engine_gives_the_one_pass_result_with_the_class_list(sample_data, wright):
    classes = sample_data.path("mn_dnr_basin_shoreland_classes_2019_wright_crowwing_hennepin.csv")
    common = {"as_of": AS_OF, "shoreland_classes": classes}
    one = _quiet(wg.assess, wright, sample_data.context, **common)
    parts = _quiet(
        wg.assess,
        wright,
        sample_data.context,
        engine="chunks",
        chunk_size=2,
        progress_bar=False,
        **common,
    )
    pd.testing.assert_frame_equal(_frame(parts.impacts), _frame(one.impacts))
    pd.testing.assert_frame_equal(_frame(parts.projects), _frame(one.projects))
    assert parts.decisions_json() == one.decisions_json()
    assert parts.manifest.settings["engine"] == "chunks"
    # the class list was read by the engine, once, as the one pass reads it
    assert [i.role for i in parts.manifest.inputs] == [i.role for i in one.manifest.inputs]


@pytest.mark.slow
def test_the_command_line_engine_runs_through_the_dispatcher_of_wg_assess(
    monkeypatch, tmp_path, sample_data, wright
):
    from wetland_gis import commands
    from wetland_gis.cli import main

    seen = []
    real = commands.assess_request
    monkeypatch.setattr(commands, "assess_request", lambda r: seen.append(r) or real(r))
    argv = ["assess", str(wright), "--context", str(sample_data.context), "--as-of", AS_OF]
    argv += ["--out", str(tmp_path / "a.gpkg"), "--chunk-size", "3", "--quiet"]
    assert _quiet(main, argv) == 0
    # --chunk-size with a GeoPackage output: the chunks engine, written whole
    assert [(r.engine, r.chunk_size, r.progress_bar) for r in seen] == [("chunks", 3, False)]
    assert (tmp_path / "a.gpkg").is_file()


def test_the_default_chunk_size_is_recorded_when_none_is_given(sample_data, wright):
    parts = _quiet(wg.assess, wright, sample_data.context, as_of=AS_OF, engine="chunks")
    assert parts.manifest.settings["chunk_size"] == DEFAULT_CHUNK_SIZE


@pytest.mark.slow
def test_a_frame_written_by_the_partitions_is_merged_here(tmp_path, sample_data, wright):
    frame = gpd.read_file(wright)
    out = tmp_path / "a.parquet"
    written = _quiet(
        assess_partitioned_to_files,
        frame,
        out,
        sample_data.context,
        engine="chunks",
        chunk_size=2,
        as_of=AS_OF,
        progress_bar=False,
    )
    assert written[0] == out
    one = _quiet(wg.assess, frame, sample_data.context, as_of=AS_OF)
    assert list(gpd.read_parquet(out)["outcome"]) == list(one.impacts["outcome"])


def test_screen_refuses_a_keyword_of_assess_it_does_not_read(sample_data):
    frame = gpd.GeoDataFrame({"circ39_class": ["2"]}, geometry=[None], crs="EPSG:26915")
    with pytest.raises(TypeError, match="does not read: options; a screening reads layer"):
        screen(frame, sample_data.context, options=AssessOptions(), progress_bar=False)
