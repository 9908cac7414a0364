"""The rules of the test suite itself (issue 33, CONTRIBUTING.md "Rules for tests").

These read the tests collected in this run: under ``make check`` a test that runs the demo,
starts the dask cluster or needs PostgreSQL without its marker is collected, and fails
here; under ``make test`` every test is collected and checked.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from session_fixtures import XDIST_GROUPS

#: The markers a test of each shared fixture carries (``make check`` leaves them out).
REQUIRED_MARKERS = {
    "demo_run": {"slow", "pdf"},  # every command on every sample project; the demo's PDFs
    "dask_cluster": {"slow"},
    "generated_world": {"slow"},
    "postgis_server": {"postgis"},
}


def _marks(item: pytest.Item) -> set[str]:
    return {m.name for m in item.iter_markers()}


def _groups(item: pytest.Item) -> list[str]:
    return [str(m.args[0]) for m in item.iter_markers("xdist_group")]


def test_the_tests_of_a_shared_fixture_carry_its_markers(request: pytest.FixtureRequest):
    missing = []
    for item in request.session.items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, needed in REQUIRED_MARKERS.items():
            if fixture in names and not needed <= _marks(item):
                missing.append(f"{item.nodeid}: {sorted(needed - _marks(item))} ({fixture})")
    assert missing == []


def test_the_postgis_register_is_marked_postgis(request: pytest.FixtureRequest):
    unmarked = [
        item.nodeid
        for item in request.session.items
        if getattr(item, "callspec", None) is not None
        and item.callspec.params.get("register_url") == "postgis"
        and "postgis" not in _marks(item)
    ]
    assert unmarked == []


def test_the_tests_of_a_shared_fixture_share_one_worker(request: pytest.FixtureRequest):
    wrong = []
    for item in request.session.items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture in names & set(XDIST_GROUPS):
            if XDIST_GROUPS[fixture] not in _groups(item):
                wrong.append(f"{item.nodeid}: not in group {XDIST_GROUPS[fixture]!r}")
    assert wrong == []


def test_a_module_fixture_keeps_its_tests_on_one_worker():
    """A test of a module-scoped fixture joins its module's group (tests/conftest.py)."""
    import conftest

    class Item:
        nodeid = "tests/test_x.py::test_y[a]"
        fixturenames = ("tmp_path", "shared")

        class _fixtureinfo:  # noqa: N801  (pytest's attribute)
            name2fixturedefs = {
                "tmp_path": [type("D", (), {"scope": "function"})()],
                "shared": [type("D", (), {"scope": "module"})()],
            }

    assert conftest._xdist_group(Item()) == "tests/test_x.py"
    Item.fixturenames = ("tmp_path",)
    assert conftest._xdist_group(Item()) is None
    Item.fixturenames = ("shared", "dask_cluster")
    assert conftest._xdist_group(Item()) == "dask"


#: The end of both test files: a test of group "g" (``test_g<n>``) and six plain tests.
_GROUP_AND_PLAIN = """
        @pytest.mark.xdist_group("g")
        def test_g{n}():
            pass

        @pytest.mark.parametrize("i", range(6))
        def test_plain(i):
            pass
"""

GROUPED = {
    "test_one.py": """
        import pytest

        @pytest.fixture(scope="module")
        def shared():
            return object()

        def test_a(shared):
            pass

        def test_b(shared):
            pass

    """
    + _GROUP_AND_PLAIN.format(n=1),
    "test_two.py": """
        import pytest

    """
    + _GROUP_AND_PLAIN.format(n=2),
}


@pytest.mark.slow  # two worker processes
def test_loadgroup_keeps_each_group_on_one_worker(tmp_path: Path):
    """pytest-xdist's loadgroup groups as tests/conftest.py marks (pytest 9.2 broke it)."""
    here = Path(__file__).parent
    for name in ("conftest.py", "session_fixtures.py"):
        (tmp_path / name).write_text((here / name).read_text(encoding="utf-8"), encoding="utf-8")
    for name, text in GROUPED.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_ADDOPTS")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-n", "2"]
        + ["--dist", "loadgroup", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = dict(
        (test, worker)
        for worker, test in re.findall(r"\[(gw\d)\] \[ *\d+%\] PASSED (\S+)", done.stdout)
    )
    assert ran["test_one.py::test_a@test_one.py"] == ran["test_one.py::test_b@test_one.py"]
    assert ran["test_one.py::test_g1@g"] == ran["test_two.py::test_g2@g"]
    assert len(ran) == 16, done.stdout[-3000:]
