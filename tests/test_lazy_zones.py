"""The map zones of an assessment are drawn when first asked for (issue 23).

``assess`` no longer draws the shoreland zone polygons in every run: only a map, a report
or a GeoPackage (its ``shoreland_zones`` layer) reads ``Assessment.zones``, which then
draws them once from the assessed polygons, exactly as before.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import geopandas as gpd
import pandas as pd
import pytest

import wetland_gis as wg
from wetland_gis.geometry.shoreland import zones_for_map
from wetland_gis.partitioned import assess_partitioned

AS_OF = "2024-05-01"
# the module (``wetland_gis.assess`` the attribute is the function)
assess_module = importlib.import_module("wetland_gis.assessment")


@pytest.fixture(scope="module")
def project(sample_data: Any) -> tuple[gpd.GeoDataFrame, Any]:
    impacts = gpd.read_file(sample_data.root / "projects" / "wright_metro" / "impacts.gpkg")
    return impacts, wg.load_context(sample_data.context)


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> gpd.GeoDataFrame:
        calls.append(1)
        return zones_for_map(*args, **kwargs)

    monkeypatch.setattr(assess_module, "zones_for_map", counted)
    return calls


def _assess(impacts: gpd.GeoDataFrame, ctx: Any, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return wg.assess(impacts, ctx, as_of=AS_OF, **kwargs)


def test_assess_draws_no_zones_until_they_are_read(project, monkeypatch):
    impacts, ctx = project
    calls = _counting(monkeypatch)
    a = _assess(impacts, ctx)
    assert calls == []
    zones = a.zones
    assert calls == [1]
    assert a.zones is zones  # drawn once, then kept
    assert calls == [1]
    assessed = a.impacts[a.impacts["status"] == "assessed"]
    eager = zones_for_map(assessed, ctx, as_of=AS_OF, pad_ft=assess_module.MAP_ZONE_PAD_FT)
    assert len(eager) > 0  # the sample project lies near public waters
    assert zones.geometry.geom_equals_exact(eager.geometry, tolerance=0).all()
    assert zones.drop(columns="geometry").equals(eager.drop(columns="geometry"))


def test_a_geopackage_gets_the_zones_a_parquet_file_does_not_draw_them(
    project, monkeypatch, tmp_path
):
    impacts, ctx = project
    calls = _counting(monkeypatch)
    a = _assess(impacts, ctx)
    a.write(tmp_path / "a.parquet")
    assert calls == []
    a.write(tmp_path / "a.gpkg")
    assert calls == [1]
    written = gpd.read_file(tmp_path / "a.gpkg", layer="shoreland_zones")
    assert len(written) == len(a.zones)


def test_the_zones_are_those_of_the_impacts_at_assess_time(project):
    """Changing the result's impacts afterwards does not move the zones."""
    impacts, ctx = project
    a = _assess(impacts, ctx)
    b = _assess(impacts, ctx)
    b.impacts = b.impacts.iloc[:0]
    assert b.zones.geometry.geom_equals_exact(a.zones.geometry, tolerance=0).all()


def test_the_chunks_engine_gives_the_same_zones_when_read(project):
    impacts, ctx = project
    one = _assess(impacts, ctx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parts = assess_partitioned(
            impacts, ctx, engine="chunks", chunk_size=2, as_of=AS_OF, progress_bar=False
        )
    assert parts.zones.geometry.geom_equals_exact(one.zones.geometry, tolerance=0).all()
    assert list(parts.zones["pw_id"]) == list(one.zones["pw_id"])


def test_an_assessment_built_without_zones_has_none():
    a = assess_module.Assessment(
        impacts=gpd.GeoDataFrame(geometry=[], crs="EPSG:26915"),
        summary=None,
        projects=None,
        decisions=[],
        manifest=None,
        context=None,
    )
    assert len(a.zones) == 0
    assert list(a.zones.columns[:2]) == ["pw_id", "pw_name"]


def test_the_repr_says_what_the_result_holds_without_drawing_the_zones(project):
    """Showing a result in Jupyter must not draw the zones (issue 23: only a map needs them)."""
    impacts, ctx = project
    a = _assess(impacts, ctx)
    text = repr(a)
    assert text == (
        f"Assessment({len(a.impacts)} impacts, {len(a.decisions)} projects, "
        f"{len(a.trace)} trace steps, zones not drawn yet)"
    )
    assert not isinstance(a.__dict__["_zones_source"], pd.DataFrame)  # still not drawn
    n = len(a.zones)
    assert repr(a).endswith(f"{n} zone polygons)")


def test_the_notebook_table_is_short_and_does_not_draw_the_zones(project):
    """Issue 30: Jupyter shows `_repr_html_`, a few rows, not the frames or the zones."""
    impacts, ctx = project
    a = _assess(impacts, ctx)
    page = a._repr_html_()
    assert page.startswith("<table><caption>Assessment</caption>")
    assert f'<th style="text-align:left">impacts</th><td>{len(a.impacts)}</td>' in page
    for outcome, n in a.impacts["outcome"].value_counts().items():
        assert f"outcome {outcome}</th><td>{n}</td>" in page
    assert page.count("<tr>") < 20
    assert not isinstance(a.__dict__["_zones_source"], pd.DataFrame)  # still not drawn
