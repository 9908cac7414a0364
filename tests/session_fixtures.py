"""Expensive test set-up built once per test run (session-scoped fixtures, issue 33).

``tests/conftest.py`` imports these fixtures, so every test module can ask for them by name.
Each is built the first time a test asks for it and kept until the run ends; a test must
not change what it is given (copy a frame before changing it). Under ``pytest -n 2``
(``make check``, ``make test``) every worker process has its own session, so the tests of
one fixture are kept on one worker: ``tests/conftest.py`` gives each test that asks for a
fixture of :data:`XDIST_GROUPS` that ``xdist_group``, and ``--dist loadgroup`` sends a
group to one worker (CONTRIBUTING.md, "Rules for tests").

``demo_run``
    ``python -m wetland_gis.demo`` once (every sample project through assess, site, map,
    report and PDF; compare, water-use, screen, register), with what each step returned.
``dask_cluster``
    One ``LocalCluster`` of 2 single-threaded worker processes, reached by its address.
``generated_world``
    The benchmark's generated Minnesota (``benchmarks/world.py``): its context layers and
    200 impacts (10 projects).
``sample_context``
    ``sample_data/synthetic_context.gpkg`` loaded as of 2024-05-01, for tests that assess
    a layer on the sample context and read the outcome (not the manifest's input list).
``sample_layers_read_once`` (every test, by itself)
    Each context layer file of ``sample_data/`` is read from disk once per run: a command
    that loads the sample context (every CLI test) gets a copy of the layer as read, its
    SHA-256 and records, and still validates, reprojects and classifies it itself. A
    third of ``make check`` was these reads (332 loads of the sample context, 53 s of CPU).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # conftest.py imports this module: keep it light (tests/test_ci_skips.py)
    import geopandas as gpd
    import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CONTEXT = ROOT / "sample_data" / "synthetic_context.gpkg"
SAMPLE_AS_OF = "2024-05-01"

XDIST_GROUPS = {
    "demo_run": "demo",
    "dask_cluster": "dask",
    "generated_world": "dask",
    "postgis_server": "postgis",
}
"""The session fixtures whose tests share one worker under ``-n 2``, and their group."""


# ------------------------------------------------------------------------------ the demo


@dataclass
class DemoRun:
    """What one run of the demo wrote and returned.

    Attributes
    ----------
    out : Path
        The demo's ``--out`` folder.
    code : int
        What ``demo.main`` returned.
    stdout : str
        What it printed.
    projects : dict
        ``demo.run_project``'s row of each sample project, by project name.
    assessments, sitings : dict
        The :class:`~wetland_gis.Assessment` and the siting result of each project.
    compare : dict
        ``demo.run_compare_demo``'s table of each project.
    water_use : DataFrame
        ``demo.run_water_use_demo``'s table (outcomes under both editions).
    screen : dict
        ``demo.run_screen_demo``'s counts and files.
    register : DataFrame
        ``demo.run_register_demo``'s annual summary.
    """

    out: Path
    code: int = -1
    stdout: str = ""
    projects: dict[str, dict[str, Any]] = field(default_factory=dict)
    assessments: dict[str, Any] = field(default_factory=dict)
    sitings: dict[str, Any] = field(default_factory=dict)
    compare: dict[str, pd.DataFrame] = field(default_factory=dict)
    water_use: pd.DataFrame | None = None
    screen: dict[str, Any] = field(default_factory=dict)
    register: pd.DataFrame | None = None


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """Run ``python -m wetland_gis.demo --out <tmp>`` once and keep what each step returned.

    The demo's own functions are wrapped while it runs (nothing of it is replaced), so a
    test reads the same objects the demo printed from.
    """
    from wetland_gis import demo

    run = DemoRun(out=tmp_path_factory.mktemp("demo"))
    current: list[str] = []

    def run_project(project: Any, root: Path, out: Path) -> dict[str, Any]:
        current.append(project.name)
        try:
            row = real["run_project"](project, root, out)
        finally:
            current.pop()
        run.projects[project.name] = row
        return row

    def run_assess(*args: Any, **kwargs: Any) -> Any:
        result = real["run_assess"](*args, **kwargs)
        if current:
            run.assessments[current[-1]] = result[0]
        return result

    def run_site(*args: Any, **kwargs: Any) -> Any:
        result = real["run_site"](*args, **kwargs)
        if current:
            run.sitings[current[-1]] = result[0]
        return result

    def run_compare_demo(project: Any, root: Path, out: Path) -> pd.DataFrame:
        run.compare[project.name] = real["run_compare_demo"](project, root, out)
        return run.compare[project.name]

    def run_water_use_demo(root: Path, out: Path) -> pd.DataFrame:
        run.water_use = real["run_water_use_demo"](root, out)
        return run.water_use

    def run_screen_demo(root: Path, out: Path) -> dict[str, Any]:
        run.screen = real["run_screen_demo"](root, out)
        return run.screen

    def run_register_demo(out: Path) -> pd.DataFrame:
        run.register = real["run_register_demo"](out)
        return run.register

    spies = {
        "run_project": run_project,
        "run_assess": run_assess,
        "run_site": run_site,
        "run_compare_demo": run_compare_demo,
        "run_water_use_demo": run_water_use_demo,
        "run_screen_demo": run_screen_demo,
        "run_register_demo": run_register_demo,
    }
    real = {name: getattr(demo, name) for name in spies}
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(printed):
        for name, spy in spies.items():
            mp.setattr(demo, name, spy)
        run.code = demo.main(["--out", str(run.out)])
    run.stdout = printed.getvalue()
    return run


# ------------------------------------------------------------------------------ dask


@pytest.fixture(scope="session")
def dask_cluster() -> Iterator[Any]:
    """One local dask cluster: 2 worker processes of 1 thread, no dashboard."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster


# ------------------------------------------------------------------------------ worlds


@dataclass(frozen=True)
class GeneratedWorld:
    """The benchmark's generated Minnesota: the module, its layers and 200 impacts.

    ``layers`` and ``impacts`` are shared by every test: copy before changing them.
    """

    module: ModuleType
    layers: dict[str, gpd.GeoDataFrame]
    impacts: gpd.GeoDataFrame


@pytest.fixture(scope="session")
def generated_world() -> GeneratedWorld:
    """``benchmarks/world.py``: its context layers and 200 impacts (10 projects)."""
    spec = importlib.util.spec_from_file_location("world", ROOT / "benchmarks" / "world.py")
    assert spec is not None and spec.loader is not None
    world = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(world)
    layers = world.context_layers()
    return GeneratedWorld(world, layers, world.impacts(200, layers["public_water_basins"]))


# ------------------------------------------------------------------------------ context


@pytest.fixture(scope="session")
def sample_context() -> Any:
    """The sample context (``synthetic_context.gpkg``) loaded once, as of 2024-05-01."""
    from wetland_gis.context import load_context

    return load_context(SAMPLE_CONTEXT, as_of=SAMPLE_AS_OF)


SAMPLE_DATA = ROOT / "sample_data"


@pytest.fixture(scope="session", autouse=True)
def sample_layers_read_once() -> Iterator[None]:
    """Read each context layer file under ``sample_data/`` from disk once per test run.

    ``wetland_gis.context._read_file`` (the one reader of a context layer file: the layer,
    its name in the file, its SHA-256 and the reader's records) is wrapped: a file of the
    repository's ``sample_data/`` (keyed by path, size and modification time, so a changed
    file is read again) is read once and each caller gets a deep copy. Any other file is
    read as before.
    """
    from wetland_gis import context as context_module

    real = context_module._read_file
    cache: dict[tuple[Any, ...], tuple[gpd.GeoDataFrame, str | None, str, list[str]]] = {}

    def read_once(
        path: Path, name: str, layer: str | None = None
    ) -> tuple[gpd.GeoDataFrame, str | None, str, list[str]]:
        try:
            resolved = Path(path).resolve()
            stat = resolved.stat()
        except OSError:
            return real(path, name, layer)
        if SAMPLE_DATA not in resolved.parents:
            return real(path, name, layer)
        key = (str(resolved), stat.st_size, stat.st_mtime_ns, name, layer)
        if key not in cache:
            cache[key] = real(path, name, layer)
        gdf, found, sha256, records = cache[key]
        return gdf.copy(deep=True), found, sha256, list(records)

    with pytest.MonkeyPatch.context() as mp:
        # raising=True: if the reader moves, this fails here, saying what to update
        mp.setattr(context_module, "_read_file", read_once, raising=True)
        yield
