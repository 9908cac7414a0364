"""Shared test fixtures and the CI rule that a skipped test is a failure.

Tests find their data through the repository, never through a machine path: the
:func:`sample_data` fixture gives the files of ``sample_data/`` (the real files there are
copied unchanged from their sources, two GeoPackages converted to version 1.2 with their
features unchanged; ``sample_data/README.md`` lists their SHA-256).

Under ``CI=true`` (any of ``true``, ``1``, ``yes``, any case) a test that skips - by
``pytest.skip`` in the test or in a fixture, a ``skipif``/``skip`` marker or a module-level
skip - is reported as a failure, so a missing browser, data file or optional library can
never pass silently on CI. An expected failure (``xfail``) is not a skip and is left as it is.

Hypothesis runs without its per-example deadline (the ``wetland-tests`` profile): a
deadline is a timed test, and speed is measured in ``benchmarks/``, not in unit tests; on
a loaded 2-core machine a 200 ms deadline failed examples that passed (issue 23).

``make check``, ``make test`` and CI run hypothesis derandomized (``wetland-tests``:
``derandomize=True``, ``database=None``): every run draws the same examples, after the
explicit ``@example``s, and a local example database cannot change the answer, so a
property fails on every run or on none (issue 30, item 5). ``WETLAND_GIS_FUZZ=long``
(``make fuzz``) loads ``wetland-explore`` instead: random examples, failures kept in and
replayed from ``.hypothesis/``, and every property raised to at least
``WETLAND_GIS_FUZZ_EXAMPLES`` examples (default 400), so
``WETLAND_GIS_FUZZ=long WETLAND_GIS_FUZZ_EXAMPLES=2000 pytest tests/test_shoreland.py``
searches one module hard. A counterexample found that way goes in as an ``@example``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from session_fixtures import (  # noqa: F401  (the session fixtures, for every module)
    XDIST_GROUPS,
    dask_cluster,
    demo_run,
    generated_world,
    sample_context,
    sample_layers_read_once,
)

#: ``WETLAND_GIS_FUZZ=long``: explore (``make fuzz``); otherwise derandomized.
FUZZ_LONG = os.environ.get("WETLAND_GIS_FUZZ", "").strip().lower() in {"1", "long", "yes", "true"}
FUZZ_EXAMPLES = int(os.environ.get("WETLAND_GIS_FUZZ_EXAMPLES", "400"))
settings.register_profile("wetland-tests", deadline=None, derandomize=True, database=None)
settings.register_profile(
    "wetland-explore", parent=settings.get_profile("default"), deadline=None, print_blob=True
)
settings.load_profile("wetland-explore" if FUZZ_LONG else "wetland-tests")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DATA = ROOT / "sample_data"

CI_SKIP_MESSAGE = "CI=true, so a skipped test is a failure (fix the environment or the test)"
_CI_TRUE = frozenset({"true", "1", "yes"})


def ci_active() -> bool:
    """Return True when the ``CI`` environment variable says this is a CI run."""
    return os.environ.get("CI", "").strip().lower() in _CI_TRUE


@dataclass(frozen=True)
class SampleData:
    """Paths of the files shipped in ``sample_data/``.

    Every attribute is an existing file; a missing one fails the test that asks for it
    (the files are part of the repository, so a missing file is a broken checkout).
    """

    root: Path

    def path(self, name: str) -> Path:
        """Return ``sample_data/<name>``, failing the test when it is not there."""
        path = self.root / name
        if not path.is_file():
            pytest.fail(f"{path} is missing: it ships with the repository (sample_data/README.md)")
        return path

    @property
    def counties(self) -> Path:
        """The 87 Minnesota counties (Census 2016, 1:500,000, EPSG:4269)."""
        return self.path("mn_counties_cb2016_500k.geojson")

    @property
    def nwi(self) -> Path:
        """1,556 real NWI polygons of Washington DC (EPSG:5070), for Cowardin parsing."""
        return self.path("nwi_sample_DC_wetlands.gpkg")

    @property
    def dem(self) -> Path:
        """The 400 x 400 m Crow Wing County lidar DEM at 1 m (EPSG:26915)."""
        return self.path("crow_wing_lidar_dem_1m.tif")

    @property
    def sink(self) -> Path:
        """The sink (depression) cells of that DEM."""
        return self.path("crow_wing_lidar_sink_1m.tif")

    @property
    def context(self) -> Path:
        """The SYNTHETIC context layers (``make_synthetic.py``)."""
        return self.path("synthetic_context.gpkg")


@pytest.fixture(scope="session")
def sample_data() -> SampleData:
    """Return the paths of the repository's ``sample_data/`` files."""
    return SampleData(SAMPLE_DATA)


# ------------------------------------------------------------------ CI: a skip is a failure


def _fail_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    """Turn a skipped ``report`` into a failed one that says why it was skipped."""
    reason = report.longrepr
    if isinstance(reason, tuple) and len(reason) == 3:  # (path, line, "Skipped: ...")
        path, line, message = reason
        where = f"{path}:{line + 1 if isinstance(line, int) else line}: "
        reason = f"{where}{message}"
    report.outcome = "failed"
    report.longrepr = f"{CI_SKIP_MESSAGE}\n{reason}"


def pytest_configure(config: pytest.Config) -> None:
    """Make the package's warnings errors in tests, except the partial-context one.

    Set here, not in ``pyproject.toml``: an ini filter naming a class is resolved before
    pytest-cov starts, which imports ``wetland_gis`` unmeasured (its ``__init__`` and
    ``errors`` then read as never run).
    """
    config.addinivalue_line("filterwarnings", "error::wetland_gis.errors.WetlandGISWarning")
    # the sample contexts cover only parts of the test layers (no LGU or public water near
    # many test impacts): tests/test_missing_context.py checks this warning where it is due
    config.addinivalue_line("filterwarnings", "ignore::wetland_gis.errors.MissingContextWarning")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Under CI, report a skip of any phase (marker, fixture, test body) as a failure."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and ci_active() and not hasattr(report, "wasxfail"):
        _fail_skip(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    """Under CI, report a module skipped at collection (``allow_module_level``) as failed."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and ci_active():
        _fail_skip(report)


# ------------------------------------------------ -n 2: tests of one fixture on one worker


def _xdist_group(item: pytest.Item) -> str | None:
    """Return the worker group of ``item``: its shared session fixture's, else its module's.

    A test asking for a fixture of :data:`session_fixtures.XDIST_GROUPS` joins that group;
    a test asking for a module-scoped fixture joins the group of its module, so the
    fixture is built once, on one worker. An ``xdist_group`` mark of the test wins.
    """
    names = getattr(item, "fixturenames", ())
    for name in names:
        if name in XDIST_GROUPS:
            return XDIST_GROUPS[name]
    info = getattr(item, "_fixtureinfo", None)
    defs = getattr(info, "name2fixturedefs", {})
    if any(d.scope in ("module", "package") for name in names for d in defs.get(name, ())):
        return item.nodeid.split("::", 1)[0]
    return None


def _group_names(item: pytest.Item) -> list[str]:
    return [str(m.args[0]) for m in item.iter_markers("xdist_group") if m.args]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group the tests that share an expensive fixture; under ``make fuzz``, explore long.

    Under ``WETLAND_GIS_FUZZ=long``, give every property at least ``FUZZ_EXAMPLES``
    examples: a property's own ``@settings(max_examples=...)`` wins over any profile, so
    the long run raises it on the test itself (hypothesis reads it when the test runs).
    """
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = _xdist_group(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))
    # a pytest-xdist worker of `--dist loadgroup` (it sets `loadgroup` and `dist = "no"`)
    if config is not None and getattr(config.option, "loadgroup", False):
        # the longest units first (a shared session fixture's group is one worker's share
        # of minutes): a worker never waits at the end for one that took the demo last
        shared = set(XDIST_GROUPS.values())
        items.sort(key=lambda item: not (shared & set(_group_names(item))))
    if FUZZ_LONG:
        raise_examples(items, FUZZ_EXAMPLES)


def raise_examples(items: list[Any], examples: int) -> None:
    """Give each hypothesis test among ``items`` at least ``examples`` examples."""
    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if not getattr(test, "is_hypothesis_test", False) or current is None:
            continue
        if current.max_examples < examples:
            test._hypothesis_internal_use_settings = settings(current, max_examples=examples)
