"""Fuzzing ``wetland_gis.assess`` with generated impact layers (hypothesis).

The properties hold for any layer an analyst could hand over; they are written against
the public API (``wetland_gis.assess`` and the ``outcome`` column) so that they keep
holding when the rules engine is redesigned. ``make test`` runs a few examples of each
(profile ``wetland-bounded``); ``make fuzz`` runs many more (``wetland-fuzz``); see
``tests/fuzz_strategies.py`` and ``docs/decisions.md`` (issue 9).
"""

from __future__ import annotations

import math
import os
import tempfile
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import shapely
from fuzz_strategies import (
    AMOUNTS,
    AS_OF,
    FUZZ,
    INTERIOR,
    NEAR_LAKE,
    WRIGHT_INTERIOR,
    hostile_layers,
    valid_layers,
)
from helpers import CONTEXT, ROOT
from hostile import CANARY, EVALUATED
from hypothesis import assume, event, example, given, note, strategies as st
from shapely import affinity

import wetland_gis as wg
from wetland_gis.commands import run_map, run_report, run_site
from wetland_gis.context import load_context
from wetland_gis.errors import WetlandGISError, WetlandGISWarning

BANKS = ROOT / "sample_data" / "synthetic_bank_credits.csv"
EXEMPT = "de_minimis_exempt"


@pytest.fixture(scope="module")
def ctx():
    return load_context(CONTEXT, as_of=AS_OF)


def _assess(layer, ctx, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        warnings.simplefilter("ignore", RuntimeWarning)  # shapely on NaN/inf coordinates
        return wg.assess(layer, ctx, as_of=AS_OF, **kwargs)


def _outcomes(a) -> dict[str, str]:
    return dict(zip(a.impacts["impact_id"].astype(str), a.impacts["outcome"], strict=True))


def _project_exempt(a) -> dict[str, bool]:
    """Per project: every assessed impact of it is de minimis exempt."""
    rows = a.impacts[a.impacts["status"] == "assessed"]
    return {str(p): bool((g["outcome"] == EXEMPT).all()) for p, g in rows.groupby("project")}


@FUZZ
@given(hostile_layers())
def test_fuzz_every_row_out_once_with_a_status_and_a_reason(ctx, drawn):
    layer, crs = drawn
    note(f"crs={crs} rows={len(layer)}\n{layer.to_wkt().to_string()}")
    try:
        a = _assess(layer, ctx)
    except WetlandGISError as exc:  # the project's own errors only: a clear message
        event(f"error {type(exc).__name__}")
        assert str(exc).strip()
        return
    out = a.impacts
    assert len(out) == len(layer)  # rows in == rows out
    assert list(out["wg_row"]) == list(range(1, len(layer) + 1))
    assert set(out["status"]) <= {"assessed", "not_assessed"}
    bad = (out["status"] == "not_assessed").to_numpy()
    assert out.loc[bad, "status_reason"].astype(str).str.strip().str.len().gt(0).all()
    assert (out.loc[bad, "outcome"] == "not_assessed").all()
    assert (out.loc[~bad, "outcome"] != "not_assessed").all()
    assert out.loc[~bad, "reasons"].astype(str).str.strip().str.len().gt(0).all()
    # zone areas sum to the impact area
    zones = out.loc[~bad, ["sqft_setback", "sqft_protection", "sqft_outside"]].astype(float)
    np.testing.assert_allclose(
        zones.sum(axis=1).to_numpy(), out.loc[~bad, "area_sqft"].astype(float).to_numpy(), atol=0.01
    )
    event(f"{int(bad.sum())} of {len(out)} not assessed")
    # written and read back: every row, one polygon layer
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "out.gpkg"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WetlandGISWarning)
            a.write(path)
        info = pyogrio.read_info(path, layer="impacts")
        assert info["features"] == len(layer)
        assert info["geometry_type"] in ("Polygon", "MultiPolygon")


def _far_from_thresholds(layer) -> bool:
    """No impact and no sum of impacts lies within 0.5 percent of a de minimis amount."""
    areas = layer.geometry.area.to_numpy() / 0.3048**2
    sums = {0.0}
    for a in areas:
        sums |= {s + a for s in sums}
    return all(abs(s - t) > 0.005 * t for s in sums - {0.0} for t in AMOUNTS)


@FUZZ
@given(
    valid_layers(near_thresholds=False),
    st.randoms(use_true_random=False),
    st.sampled_from(["EPSG:4326", "EPSG:3857", "EPSG:26851", "EPSG:2811"]),
)
def test_fuzz_outcomes_do_not_change_when_rows_are_shuffled_or_reprojected(ctx, layer, rnd, crs):
    assume(_far_from_thresholds(layer))
    base = _assess(layer, ctx)
    order = list(range(len(layer)))
    rnd.shuffle(order)
    shuffled = _assess(layer.iloc[order], ctx)
    there = _assess(layer.to_crs(crs), ctx)
    back = _assess(layer.to_crs(crs).to_crs("EPSG:26915"), ctx)
    expected = _outcomes(base)
    for other in (shuffled, there, back):
        assert _outcomes(other) == expected
        np.testing.assert_allclose(
            other.impacts.set_index("impact_id")
            .loc[list(expected), "area_sqft"]
            .to_numpy(dtype=float),
            base.impacts["area_sqft"].to_numpy(dtype=float),
            rtol=1e-6,
        )
    assert _project_exempt(shuffled) == _project_exempt(base)


@FUZZ
@given(valid_layers(places=(*INTERIOR, NEAR_LAKE)), st.data())
def test_fuzz_an_impact_growing_never_makes_its_project_exempt(ctx, layer, data):
    row = data.draw(st.integers(min_value=0, max_value=len(layer) - 1), label="row")
    factor = data.draw(st.floats(min_value=1.001, max_value=3.0), label="area factor")
    grown = layer.copy()
    geom = grown.geometry.iloc[row]
    scale = float(np.sqrt(factor))
    grown.loc[grown.index[row], "geometry"] = affinity.scale(geom, scale, scale, origin="centroid")
    assert shapely.area(grown.geometry.iloc[row]) > shapely.area(geom)
    base = _assess(layer, ctx)
    before = _project_exempt(base)
    after_a = _assess(grown, ctx)
    after = _project_exempt(after_a)
    project = str(layer["project"].iloc[row])
    note(f"project {project}: exempt before {before.get(project)}, after {after.get(project)}")
    if project in before and project in after:
        assert not (after[project] and not before[project])
    # and the impact itself does not become exempt by growing
    base_outcome = _outcomes(base)[str(layer["impact_id"].iloc[row])]
    grown_outcome = _outcomes(after_a)[str(layer["impact_id"].iloc[row])]
    assert not (grown_outcome == EXEMPT and base_outcome != EXEMPT)


def _slivers() -> tuple[gpd.GeoDataFrame, str]:
    """Return degenerate polygons beside a real impact in Wright County (issue 30).

    A zero-width sliver, a 0.01 sq ft square and a 1e-9 sq ft square, as careless edits
    leave them, and a 5,000 sq ft square: ``site`` on what ``assess`` wrote for them
    failed with "allocation stage 'distance' failed: The problem is infeasible".
    """
    x, y = WRIGHT_INTERIOR
    side = math.sqrt(5_000.0) * 0.3048
    geoms = [
        shapely.Polygon([(x, y), (x + side, y), (x + side, y + 1e-7)]),
        shapely.box(x + 100, y, x + 100 + 0.03048, y + 0.03048),
        shapely.box(x + 200, y, x + 200 + 1e-5, y + 1e-5),
        shapely.box(x + 300, y, x + 300 + side, y + side),
    ]
    layer = gpd.GeoDataFrame(
        {"impact_id": ["sliver", "tiny", "speck", "real"], "circ39": "3", "project": "P1"},
        geometry=geoms,
        crs="EPSG:26915",
    )
    return layer, "EPSG:26915"


# geopandas warns that notna() now counts empty geometries (tep_map._drawable); reported
@pytest.mark.filterwarnings("ignore:GeoSeries.notna:UserWarning")
@pytest.mark.slow  # every command (site, map, report) on what assess wrote: make test
@FUZZ
@given(hostile_layers(), st.sampled_from([".gpkg", ".shp", ".geojson", ".parquet", ".csv"]))
@example(drawn=_slivers(), ext=".gpkg")
def test_fuzz_every_command_runs_on_what_assess_wrote(ctx, drawn, ext):
    layer, _ = drawn
    try:
        a = _assess(layer, ctx)
    except WetlandGISError:
        return
    for col in ("outcome", "status"):
        event(f"{col}: " + ", ".join(sorted(set(a.impacts[col].astype(str)))))
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        out = Path(folder) / f"assessed{ext}"
        try:
            a.write(out)
        except WetlandGISError as exc:  # only a format's own limit, said clearly
            event(f"write {ext}: {type(exc).__name__}")
            assert ext in (".shp",), exc
            return
        if ext != ".gpkg":
            assert len(pd.read_csv(out) if ext == ".csv" else wg.read_layer(out).gdf) == len(layer)
            return
        before = Path.cwd()
        os.chdir(folder)  # a template payload that ran would make the canary folder here
        try:
            siting, written = run_site(out, Path(folder) / "siting", banks=BANKS, context=ctx)
            assert written and siting.totals["acres_unmet"] >= 0
            assert run_map(out, Path(folder) / "map.html", siting=Path(folder) / "siting")
            page = run_report(out, Path(folder) / "report.html", siting=Path(folder) / "siting")
        finally:
            os.chdir(before)
        assert not (Path(folder) / CANARY).exists(), "a template payload ran"
        html = page[0].read_text("utf-8")
        assert EVALUATED not in html
        assert EVALUATED not in (Path(folder) / "map.html").read_text("utf-8")
        if not (a.impacts["status"] == "assessed").any():
            assert "no impact could be assessed" in html
