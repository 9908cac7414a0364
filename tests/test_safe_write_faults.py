"""A full disk, a folder that cannot be written, a read-only output, a leftover staging folder.

None is "a bug in wetland_gis": each is exit 2 (or a warning) naming the output path,
never the hidden staging folder; no output is changed (issue 19, part 2).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.errors import LeftoverStagingWarning, OutputError
from wetland_gis.io.safe_write import STAGING_PREFIX, SafeWriter, output_error

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
CONTEXT = SAMPLE / "synthetic_context.gpkg"
IMPACTS = SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"
AS_OF = "2024-05-01"


def _assess(out: Path, *extra: str) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        args = ["assess", str(IMPACTS), "--context", str(CONTEXT), "--out", str(out)]
        return main([*args, "--as-of", AS_OF, "--quiet", *extra])


def _staging(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]


@pytest.mark.parametrize(
    ("err", "expected"),
    [
        pytest.param(OSError(errno.ENOSPC, "No space left on device"), "disk is full", id="ENOSPC"),
        pytest.param(OSError(errno.EDQUOT, "Disk quota exceeded"), "disk is full", id="EDQUOT"),
        pytest.param(
            RuntimeError("sqlite3_step() failed: database or disk is full"), "disk is", id="GDAL"
        ),
        pytest.param(
            PermissionError(errno.EACCES, "Permission denied"), "permission denied", id="EACCES"
        ),
        pytest.param(
            OSError(errno.EROFS, "Read-only file system"), "read-only file system", id="EROFS"
        ),
        pytest.param(OSError(errno.ENOENT, "No such file"), None, id="other errors pass"),
        pytest.param(OSError("disk full"), None, id="no errno passes"),
    ],
)
def test_an_os_error_becomes_a_message_naming_the_output(tmp_path, err, expected):
    target = tmp_path / "out.gpkg"
    got = output_error(err, target)
    if expected is None:
        assert got is None
    else:
        assert isinstance(got, OutputError)
        assert str(got).startswith(f"cannot write {target}: ") and expected in str(got)
        assert STAGING_PREFIX not in str(got)


def test_a_full_disk_exits_2_naming_the_output_and_the_free_space(tmp_path, monkeypatch, capsys):
    out = tmp_path / "a.gpkg"
    assert _assess(out) == 0
    before = out.read_bytes()
    capsys.readouterr()

    def full(frame, staged, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(staged))

    monkeypatch.setattr("wetland_gis.io.writers.write_frame", full)
    assert _assess(out) == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}: the disk is full (" in err and " free on the disk of " in err
    assert "this is a bug" not in err and STAGING_PREFIX not in err
    assert out.read_bytes() == before and _staging(tmp_path) == []


def test_a_permission_error_names_the_out_path_not_the_staging_folder(
    tmp_path, monkeypatch, capsys
):
    out = tmp_path / "a.gpkg"

    def denied(prefix=None, dir=None, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", f"{dir}/{prefix}x1y2")

    monkeypatch.setattr("wetland_gis.io.safe_write.tempfile.mkdtemp", denied)
    assert _assess(out) == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}" in err and f"permission denied in {tmp_path}" in err
    assert STAGING_PREFIX not in err and not out.exists()


@pytest.mark.parametrize("mode", [0o444, 0o640], ids=["read-only", "writable"])
def test_a_read_only_output_is_replaced_only_with_overwrite_and_keeps_its_mode(
    tmp_path, mode, capsys
):
    out = tmp_path / "a.gpkg"
    summary = tmp_path / "a_summary.csv"
    assert _assess(out) == 0
    out.chmod(mode)
    before = out.read_bytes()
    code = _assess(out)
    err = capsys.readouterr().err
    if mode & stat.S_IWUSR:  # our own earlier output, writable: replaced as before
        assert code == 0
    else:
        assert code == 2 and f"cannot write {out}: the file is read-only (-r--r--r--)" in err
        assert "--overwrite" in err and out.read_bytes() == before
    assert _assess(out, "--overwrite") == 0
    assert stat.S_IMODE(out.stat().st_mode) == mode  # kept when replaced
    assert stat.S_IMODE(summary.stat().st_mode) & stat.S_IWUSR  # the others untouched


def test_a_read_only_csv_output_is_not_replaced_without_overwrite(tmp_path):
    table = tmp_path / "t.csv"
    with SafeWriter("site") as w:
        w.csv(pd.DataFrame({"a": [1]}), table)
    table.chmod(0o444)
    with pytest.raises(OutputError, match="read-only"), SafeWriter("site") as w:
        w.csv(pd.DataFrame({"a": [2]}), table)
    assert table.read_text().splitlines() == ["a", "1"]
    with SafeWriter("site", overwrite=True) as w:
        w.csv(pd.DataFrame({"a": [2]}), table)
    assert table.read_text().splitlines() == ["a", "2"]
    assert stat.S_IMODE(table.stat().st_mode) == 0o444


def _dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def _leftover(folder: Path, name: str, owner: dict | None) -> Path:
    path = folder / f"{STAGING_PREFIX}{name}"
    path.mkdir()
    (path / "impacts.gpkg").write_bytes(b"half written")
    if owner is not None:
        (path / "owner.json").write_text(json.dumps(owner), "utf-8")
    return path


def test_the_next_run_removes_the_staging_folder_of_an_interrupted_run(tmp_path):
    import socket

    gone = _leftover(tmp_path, "gone", {"host": socket.gethostname(), "pid": _dead_pid()})
    out = tmp_path / "a.gpkg"
    assert _assess(out) == 0
    assert not gone.exists() and _staging(tmp_path) == []
    manifest = json.loads((tmp_path / "a_manifest.json").read_text("utf-8"))
    assert any(f"removed the staging folder {gone}" in r for r in manifest["records"])


@pytest.mark.parametrize(
    "owner",
    [None, {"host": "another-host", "pid": 1}, {"host": "HERE", "pid": "HERE"}],
    ids=["no owner file", "another host", "a run still going"],
)
def test_a_staging_folder_that_may_be_in_use_is_reported_with_its_path(tmp_path, owner):
    import socket

    if owner is not None and owner["host"] == "HERE":  # a live process, not this one
        owner = {"host": socket.gethostname(), "pid": os.getppid()}
    kept = _leftover(tmp_path, "kept", owner)
    with pytest.warns(LeftoverStagingWarning, match=str(kept)), SafeWriter("site") as w:
        w.csv(pd.DataFrame({"a": [1]}), tmp_path / "t.csv")
    assert kept.exists() and (tmp_path / "t.csv").exists()
    assert _staging(tmp_path) == [kept]


def test_the_cli_prints_the_leftover_staging_folder(tmp_path, capsys):
    kept = _leftover(tmp_path, "old", None)
    out = tmp_path / "a.gpkg"
    args = ["assess", str(IMPACTS), "--context", str(CONTEXT), "--out", str(out)]
    assert main([*args, "--as-of", AS_OF, "--quiet"]) == 0
    assert "warning: a staging folder left by an interrupted run" in capsys.readouterr().err
    assert kept.exists()


def test_a_run_killed_mid_write_is_cleaned_by_the_next_run(tmp_path):
    out = tmp_path / "t.csv"
    script = (
        "import os, signal, sys\n"
        "import pandas as pd\n"
        "from wetland_gis.io.safe_write import SafeWriter\n"
        "with SafeWriter('site') as w:\n"
        "    w.csv(pd.DataFrame({'a': [1]}), sys.argv[1])\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode < 0, done.stderr
    assert len(_staging(tmp_path)) == 1 and not out.exists()
    with SafeWriter("site") as w:
        w.csv(pd.DataFrame({"a": [2]}), out)
    assert _staging(tmp_path) == [] and w.records[0].startswith("removed the staging folder")


def test_a_read_only_output_is_refused_before_the_assessment_runs(tmp_path, monkeypatch, capsys):
    out = tmp_path / "a.gpkg"
    assert _assess(out) == 0
    out.chmod(0o444)

    def not_called(*args, **kwargs):
        raise AssertionError("the assessment ran before the output was checked")

    monkeypatch.setattr("wetland_gis.commands.assess", not_called)
    assert _assess(out) == 2
    assert "the file is read-only" in capsys.readouterr().err


# -- several files at once, some written elsewhere (SafeWriter.files, issue 23) --------


def _text(text: str):
    def write(path: Path) -> None:
        path.write_text(text, encoding="utf-8")

    return write


def _in_a_thread(pool, seen: list[Path]):
    def submit(write, staged: Path):
        seen.append(staged)
        return pool.submit(write, staged)

    return submit


def test_files_written_here_and_elsewhere_land_together_in_the_order_given(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    sent: list[Path] = []
    with ThreadPoolExecutor(2) as pool, SafeWriter("test") as w:
        written = w.files(
            [
                (_text("a"), tmp_path / "a.txt", None),
                (_text("b"), tmp_path / "b.txt", _in_a_thread(pool, sent)),
                (_text("c"), tmp_path / "c.txt", None),
                (_text("d"), tmp_path / "d.txt", _in_a_thread(pool, sent)),
            ]
        )
        assert not (tmp_path / "b.txt").exists()  # staged until the commit
    assert [p.name for p in written] == ["a.txt", "b.txt", "c.txt", "d.txt"]
    assert [p.name for p in w.written] == ["a.txt", "b.txt", "c.txt", "d.txt"]
    assert [p.name for p in sent] == ["b.txt", "d.txt"]
    assert all(STAGING_PREFIX in str(p) for p in sent)  # the workers write the staged files
    assert [(tmp_path / f"{n}.txt").read_text("utf-8") for n in "abcd"] == list("abcd")
    assert not _staging(tmp_path)


def test_a_full_disk_on_a_worker_names_the_output_and_keeps_the_old_files(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    (tmp_path / "b.txt").write_text("old", encoding="utf-8")

    def full(path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    with ThreadPoolExecutor(1) as pool, pytest.raises(OutputError) as info:
        with SafeWriter("test", overwrite=True) as w:
            w.files(
                [
                    (_text("a"), tmp_path / "a.txt", None),
                    (full, tmp_path / "b.txt", _in_a_thread(pool, [])),
                ]
            )
    assert "disk is full" in str(info.value)
    assert str(tmp_path / "b.txt") in str(info.value)
    assert STAGING_PREFIX not in str(info.value)  # the user's path, not the staging one
    assert (tmp_path / "b.txt").read_text("utf-8") == "old"
    assert not (tmp_path / "a.txt").exists()  # nothing of the failed run is moved in
    assert not _staging(tmp_path)


def test_a_write_here_that_fails_drops_the_writes_started_elsewhere(tmp_path):
    class Pending:
        cancelled = False

        def result(self):
            raise AssertionError("not waited for: the write here failed first")

        def cancel(self):
            Pending.cancelled = True

    def broken(path: Path) -> None:
        raise ValueError("a bug in a writer")

    with pytest.raises(ValueError, match="a bug in a writer"), SafeWriter("test") as w:
        w.files(
            [
                (_text("b"), tmp_path / "b.txt", lambda write, staged: Pending()),
                (broken, tmp_path / "a.txt", None),
            ]
        )
    assert Pending.cancelled
    assert list(tmp_path.iterdir()) == []
