"""The conftest rule: under CI=true every kind of skip fails; elsewhere a skip is a skip.

Each case runs pytest in a subprocess on a small test folder that holds a copy of this
repository's ``tests/conftest.py``, so the hook is tested exactly as it runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ci_active

CONFTEST = Path(__file__).with_name("conftest.py")

CASES = {
    "test_cases.py": """
        import pytest

        @pytest.fixture
        def browser():
            pytest.skip("no browser here")

        def test_skip_in_body():
            pytest.skip("optional library missing")

        @pytest.mark.skipif(True, reason="QGIS not installed")
        def test_skipif_marker():
            pass

        @pytest.mark.skip(reason="always skipped")
        def test_skip_marker():
            pass

        def test_skip_from_fixture(browser):
            pass

        @pytest.mark.xfail(reason="known bug", strict=True)
        def test_expected_failure():
            assert False

        def test_passes():
            assert True
    """,
    "test_module_skip.py": """
        import pytest

        pytest.skip("whole module needs a GPU", allow_module_level=True)

        def test_never_collected():
            pass
    """,
}
SKIPS = 5  # four skipped tests and one skipped module


def run_pytest(folder: Path, ci: str | None) -> tuple[dict[str, int], str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    env.pop("PYTEST_ADDOPTS", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-rA",
            "-q",
            "--continue-on-collection-errors",
            str(folder),
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    summary = proc.stdout.strip().splitlines()[-1]
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (\w+)", summary)}
    return counts, proc.stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ci_skips")
    (root / "conftest.py").write_text(CONFTEST.read_text(encoding="utf-8"), encoding="utf-8")
    shared = CONFTEST.with_name("session_fixtures.py")  # the fixtures conftest.py imports
    (root / shared.name).write_text(shared.read_text(encoding="utf-8"), encoding="utf-8")
    for name, text in CASES.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_under_ci_every_kind_of_skip_is_a_failure(folder):
    counts, out = run_pytest(folder, "true")
    assert counts.get("skipped", 0) == 0, out
    # a skip in the test body fails; one in setup (marker, fixture) or at collection is an
    # error (the skipped module, without --continue-on-collection-errors, stops the run)
    assert counts["failed"] == 1 and counts["errors"] == SKIPS - 1, out
    assert counts["passed"] == 1 and counts["xfailed"] == 1, out
    for reason in (
        "no browser here",
        "optional library missing",
        "QGIS not installed",
        "always skipped",
        "whole module needs a GPU",
    ):
        assert reason in out, reason
    assert "CI=true, so a skipped test is a failure" in out


def test_outside_ci_a_skip_stays_a_skip(folder):
    counts, out = run_pytest(folder, None)
    assert counts.get("failed", 0) == 0 and "error" not in counts, out
    assert counts["skipped"] == SKIPS, out
    assert counts["passed"] == 1 and counts["xfailed"] == 1, out


@pytest.mark.parametrize(
    ("value", "active"),
    [
        ("true", True),
        ("TRUE", True),
        (" True ", True),
        ("1", True),
        ("yes", True),
        (None, False),
        ("", False),
        ("false", False),
        ("0", False),
        ("no", False),
    ],
)
def test_which_values_of_ci_mean_a_ci_run(monkeypatch, value, active):
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    assert ci_active() is active
