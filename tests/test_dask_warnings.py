"""``--engine dask``: the domain warnings reach the caller and the manifest as with the
default engine, once per kind with counts, and records name the input's rows (issue 19).

The dask engine runs on a ``LocalCluster`` of 2 workers reached by its address, as in
``tests/test_dask_engine.py``.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

import wetland_gis as wg
from wetland_gis.errors import InferredWetlandTypeWarning, InputRepairWarning
from wetland_gis.partitioned import _warn_once, assess_partitioned

ROOT = Path(__file__).resolve().parents[1]
AS_OF = "2024-05-01"
BROKEN = (150, 199)  # positions of rows with no geometry, in two different partitions
BROKEN_ROWS = {p + 1 for p in BROKEN}  # their row numbers, from 1 as QGIS numbers features
COWARDIN_ONLY = (3, 45, 120, 160)  # rows whose type is inferred, in several partitions


@pytest.fixture(scope="module")
def layer(generated_world):
    # the world is generated once per test run (tests/session_fixtures.py): copy, then change
    layers = {name: layer.copy() for name, layer in generated_world.layers.items()}
    impacts = generated_world.impacts.copy()
    impacts["attribute"] = None
    for row in COWARDIN_ONLY:
        impacts.loc[row, "circ39"] = None
        impacts.loc[row, "attribute"] = "PEMC"  # type 3, inferred
    for row in BROKEN:
        impacts.loc[row, "geometry"] = None
    return impacts, wg.load_context(layers=layers, as_of=AS_OF)


@pytest.fixture
def cluster(dask_cluster):
    """The test run's one local cluster of 2 workers (``dask_cluster``)."""
    return dask_cluster


def _run(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    domain = [
        (w.category, str(w.message)) for w in caught if issubclass(w.category, wg.WetlandGISWarning)
    ]
    return result, domain


def _rows_named(records):
    rows = set()
    for r in records:
        for group in re.findall(r"\(rows ([\d, ]+)\)", r):
            rows |= {int(x) for x in group.split(", ")}
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["chunks", "dask"])
def test_partitioned_warnings_are_given_once_per_kind_with_the_counts(layer, cluster, engine):
    impacts, ctx = layer
    one, expected = _run(wg.assess, impacts, ctx, as_of=AS_OF)
    many, got = _run(
        assess_partitioned,
        impacts,
        ctx,
        engine=engine,
        chunk_size=40,
        scheduler=cluster.scheduler_address if engine == "dask" else None,
        as_of=AS_OF,
        progress_bar=False,
    )
    assert len(many.impacts) == len(impacts)
    inferred = [m for c, m in got if c is InferredWetlandTypeWarning]
    assert inferred == [m for c, m in expected if c is InferredWetlandTypeWarning]
    assert inferred[0].startswith(f"{len(COWARDIN_ONLY)} impact(s) had no Circular 39 type")
    # one warning per kind, as the default engine gives
    kinds = [c for c, _ in got]
    assert sorted(k.__name__ for k in kinds) == sorted(c.__name__ for c, _ in expected)
    assert InputRepairWarning in kinds
    # the manifest: the summed warning, not each partition's, and the input's rows
    records = many.manifest.records
    assert inferred[0] in records
    assert not any(re.match(r"^[12] impact\(s\) had no Circular 39 type", r) for r in records)
    assert _rows_named(records) >= BROKEN_ROWS
    assert _rows_named(one.manifest.records) >= BROKEN_ROWS
    assert _rows_named(records) <= _rows_named(one.manifest.records)
    assert "count within their partition" not in " ".join(records)


@pytest.mark.parametrize(
    ("messages", "expected"),
    [
        pytest.param(["a", "a"], ["a"], id="the same message once"),
        pytest.param(["2 x had y", "3 x had y"], ["5 x had y"], id="counts summed"),
        pytest.param(["1 x had y", "1 x had y"], ["2 x had y"], id="equal counts summed"),
        pytest.param(
            ["near W-1 (rows 3)", "near W-9 (rows 80)"],
            [
                "near W-1 (rows 3) (and 1 more warning(s) like it from other partitions: see the "
                "manifest records)"
            ],
            id="one kind, no leading count: the first and how many more",
        ),
        pytest.param(["a", "b"], ["a", "b"], id="two kinds, each once"),
    ],
)
def test_warn_once(messages, expected):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        texts = _warn_once((InputRepairWarning, m) for m in messages)
    assert texts == expected == [str(w.message) for w in caught]
