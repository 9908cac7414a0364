"""An in-memory assess that would not fit says so before it starts (issue 23)."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import geopandas as gpd
import pytest

import wetland_gis as wg
from wetland_gis import memory
from wetland_gis.errors import InsufficientMemoryError, WetlandGISError

assess_module = importlib.import_module("wetland_gis.assessment")
AS_OF = "2024-05-01"


@pytest.fixture(scope="module")
def project(sample_data: Any) -> tuple[gpd.GeoDataFrame, Any]:
    impacts = gpd.read_file(sample_data.root / "projects" / "wright_metro" / "impacts.gpkg")
    return impacts, wg.load_context(sample_data.context)


def _available(monkeypatch: pytest.MonkeyPatch, n_bytes: int | None) -> None:
    monkeypatch.setattr(memory, "available_bytes", lambda: n_bytes)


@pytest.mark.parametrize(
    ("n", "spare", "fits"),
    [
        (1_000, 0, True),  # exactly the estimate available
        (1_000, -1, False),  # one byte short
        (200_000, 10**12, True),
        (0, 0, True),  # an empty layer needs nothing
    ],
    ids=["exactly-the-estimate", "one-byte-short", "plenty", "empty-layer"],
)
def test_check_fits_at_the_boundary(monkeypatch, n, spare, fits):
    need = n * memory.ASSESS_BYTES_PER_IMPACT
    _available(monkeypatch, max(need + spare, 0))
    if fits:
        memory.check_fits(n)
    else:
        with pytest.raises(InsufficientMemoryError, match="chunk_size="):
            memory.check_fits(n)


def test_unknown_available_memory_skips_the_check(monkeypatch):
    _available(monkeypatch, None)
    memory.check_fits(10**9)


def test_the_error_is_a_package_error_and_a_memory_error():
    assert issubclass(InsufficientMemoryError, WetlandGISError)
    assert issubclass(InsufficientMemoryError, MemoryError)


def test_the_message_names_the_layer_the_estimate_and_a_chunk_size(monkeypatch):
    _available(monkeypatch, 2**30)  # 1 GiB
    with pytest.raises(InsufficientMemoryError) as err:
        memory.check_fits(1_000_000, source="statewide.gpkg")
    text = str(err.value)
    assert text.startswith("statewide.gpkg: 1,000,000 impacts")
    assert "--chunk-size" in text
    # a chunk that fits in half of what is available, in whole thousands
    chunk = int(2**30 * 0.5 / memory.ASSESS_BYTES_PER_IMPACT) // 1000 * 1000
    assert f"chunk_size={chunk}" in text
    assert chunk * memory.ASSESS_BYTES_PER_IMPACT <= 2**30


def test_available_bytes_reads_meminfo(monkeypatch, tmp_path):
    fake = tmp_path / "meminfo"
    fake.write_text("MemTotal:  8000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n")
    monkeypatch.setattr(memory, "_MEMINFO", fake)
    assert memory.available_bytes() == 2048 * 1024


def test_assess_stops_before_classifying_when_it_would_not_fit(project, monkeypatch):
    impacts, ctx = project
    _available(monkeypatch, 1)  # one byte
    classified: list[int] = []
    monkeypatch.setattr(assess_module, "classify_impacts", lambda *a, **k: classified.append(1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the sample's own domain warnings
        with pytest.raises(InsufficientMemoryError, match="chunk_size="):
            wg.assess(impacts, ctx, as_of=AS_OF)
    assert classified == []


def test_assess_runs_when_it_fits_or_when_told_to_try(project, monkeypatch):
    impacts, ctx = project
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _available(monkeypatch, len(impacts) * memory.ASSESS_BYTES_PER_IMPACT)
        a = wg.assess(impacts, ctx, as_of=AS_OF)
        _available(monkeypatch, 1)
        b = wg.assess(impacts, ctx, as_of=AS_OF, check_memory=False)
    assert len(a.impacts) == len(b.impacts) == len(impacts)
    assert list(a.impacts["outcome"]) == list(b.impacts["outcome"])
