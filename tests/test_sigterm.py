"""SIGTERM while a command writes is cleaned up as an error is (issue 30).

By default SIGTERM ends the process at once: the staging folder of the write in progress
(``.wetland-gis-tmp-*``) stayed beside the output until a later run. The command line turns
it into :class:`wetland_gis.cli.Terminated` (a ``KeyboardInterrupt``): the writer discards
its staging folder, the previous output is kept whole, and the exit status is 143.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from wetland_gis.cli import EXIT_CODES, main
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.io.safe_write import STAGING_PREFIX, SafeWriter


def _staging_left(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]


class _Killed(Exception):
    """What SIGTERM raises in this test process when the command line does not handle it."""


def test_sigterm_while_writing_discards_the_staging_and_keeps_the_output(
    tmp_path, monkeypatch, capsys
):
    out = tmp_path / "map.toml"
    out.write_text("# the previous template\n", encoding="utf-8")
    seen: list[list[Path]] = []
    real = SafeWriter.text

    def terminated_while_writing(self, text, path):
        staged = real(self, text, path)
        seen.append(_staging_left(tmp_path))  # the write is under way
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the signal arrives here
        return staged

    def killed(signum, frame):
        raise _Killed  # without the command line's handler: an internal error, not 143

    monkeypatch.setattr(SafeWriter, "text", terminated_while_writing)
    previous = signal.signal(signal.SIGTERM, killed)
    try:
        code = main(["fields", "--template", str(out), "--overwrite"])
        restored = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert seen and seen[0], "the staging folder should exist while writing"
    assert code == EXIT_CODES["terminated"] == 143
    assert "terminated (SIGTERM); no output was changed" in capsys.readouterr().err
    assert out.read_text("utf-8") == "# the previous template\n"
    assert _staging_left(tmp_path) == []
    assert restored is killed  # the caller's handler is put back


_SCRIPT = """
import pathlib, sys, time
from wetland_gis.cli import main
from wetland_gis.io.safe_write import SafeWriter
real = SafeWriter.text
def slow(self, text, path):
    staged = real(self, text, path)
    pathlib.Path(sys.argv[1]).write_text("staged")
    time.sleep(120)
    return staged
SafeWriter.text = slow
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
def test_sigterm_to_a_report_in_a_subprocess_leaves_no_staging(sample_data, tmp_path):
    assessed = tmp_path / "assessed.gpkg"
    report = tmp_path / "report.html"
    impacts = sample_data.path("projects/wright_metro/impacts.gpkg")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        args = ["--context", str(sample_data.context), "--as-of", "2024-05-01", "--quiet"]
        assert main(["assess", str(impacts), "--out", str(assessed), *args]) == 0
        assert main(["report", str(assessed), "--out", str(report)]) == 0
    before = report.read_bytes()
    marker = tmp_path / "writing"
    proc = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT, str(marker), "report", str(assessed), "--out", str(report)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), proc.communicate(timeout=5)
        assert _staging_left(tmp_path), "the report should be staged when the signal comes"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert "terminated (SIGTERM)" in err
    assert _staging_left(tmp_path) == []
    assert report.read_bytes() == before
