"""Run ``wetland-gis`` in the package's interpreter for QGIS: progress, cancel, errors.

The provider never computes anything in QGIS's process: it runs the command line in the
interpreter that has the package (the venv of ``make setup``), found by
:func:`find_python`, with run events on (:mod:`.events`). :func:`run_command` reports each
progress event to QGIS's feedback, shows the command's other lines in the log, and on
cancel interrupts the command as Ctrl+C does (it discards its staged outputs: no output
is half-written) before it would terminate it. A failure raises :class:`CommandFailed`
whose message is the one line the command printed.

This module imports only the standard library: QGIS's Python runs it.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from . import events

#: Environment variable naming the interpreter that has the package (a venv's python).
PYTHON_ENV = "WETLAND_GIS_PYTHON"

#: The file of the plugin zip recording the interpreter it was built with.
INSTALL_FILE = "install.json"

#: Seconds the command has to stop after the interrupt before it is terminated.
CANCEL_GRACE = 30.0

#: Variables of QGIS's environment that must not reach the package's interpreter: QGIS
#: (OSGeo4W on Windows) points Python, GDAL and PROJ at its own copies, which are not the
#: venv's (its pyogrio, pyproj and rasterio wheels carry their own data).
_CLEARED = (
    "PYTHONPATH",
    "PYTHONHOME",
    "PYTHONSTARTUP",
    "PYTHONEXECUTABLE",
    "VIRTUAL_ENV",
    "GDAL_DATA",
    "GDAL_DRIVER_PATH",
    "PROJ_LIB",
    "PROJ_DATA",
)


class CommandFailed(Exception):
    """The command failed; the message is the one line it printed (file, layer, row, fix).

    Attributes
    ----------
    status : int
        Its exit status (1 internal error, 2 input error, 3 ``--strict``, 130 interrupted;
        -1 when it could not be started).
    """

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Feedback(Protocol):
    """What :func:`run_command` uses of a ``QgsProcessingFeedback``."""

    def isCanceled(self) -> bool:  # noqa: N802 - QGIS's name
        """Return True when the user asked to cancel."""

    def setProgress(self, progress: float) -> None:  # noqa: N802
        """Show ``progress`` (0 to 100)."""

    def pushInfo(self, info: str) -> None:  # noqa: N802
        """Show a line in the log."""


@dataclass
class RunResult:
    """What a finished command said in its ``done`` event.

    Attributes
    ----------
    status : int
        Its exit status (0).
    written : list of str
        The files it wrote.
    tally : dict
        Its tally (rows read, assessed, not assessed by reason, outcomes, ...).
    lines : list of str
        The lines it printed for people (its warnings, notes and tally).
    """

    status: int
    written: list[str] = field(default_factory=list)
    tally: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def file(self, suffix: str) -> str | None:
        """Return the first written file whose name ends with ``suffix`` (or None)."""
        return next((p for p in self.written if p.endswith(suffix)), None)


def child_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return the environment of the package's interpreter, with run events on.

    QGIS's Python, GDAL and PROJ settings are left out (:data:`_CLEARED`); text is UTF-8.
    """
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in _CLEARED}
    env[events.EVENTS_ENV] = "json"
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _recorded_python(plugin_dir: str | os.PathLike[str] | None) -> str | None:
    if plugin_dir is None:
        return None
    try:
        record = json.loads((Path(plugin_dir) / INSTALL_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    python = record.get("python") if isinstance(record, dict) else None
    return str(python) if python else None


def find_python(
    setting: str | None = None, plugin_dir: str | os.PathLike[str] | None = None
) -> tuple[str, str]:
    """Return the interpreter that has the package, and where it was found.

    In order: the provider's setting ("wetland_gis Python" in Settings > Options >
    Processing > Providers), the environment variable :data:`PYTHON_ENV`, the interpreter
    recorded in the plugin's :data:`INSTALL_FILE` by ``make qgis-plugin``.

    Parameters
    ----------
    setting : str, optional
        The provider's setting.
    plugin_dir : path, optional
        The installed plugin's folder.

    Returns
    -------
    (str, str)
        The interpreter and its source (``setting``, ``environment``, ``install.json``).

    Raises
    ------
    CommandFailed
        When none is given, or the one given is not a file.
    """
    for python, source in (
        (setting, "the provider setting 'wetland_gis Python'"),
        (os.environ.get(PYTHON_ENV), f"the environment variable {PYTHON_ENV}"),
        (_recorded_python(plugin_dir), f"the plugin's {INSTALL_FILE}"),
    ):
        if not python:
            continue
        if not Path(python).is_file():
            raise CommandFailed(
                f"wetland_gis: the Python {python} named by {source} does not exist; give "
                f"the python of the venv that has wetland_gis (its .venv/bin/python) in "
                f"Settings > Options > Processing > Providers > wetland_gis, or in {PYTHON_ENV}",
                -1,
            )
        return python, source
    raise CommandFailed(
        "wetland_gis: no Python with wetland_gis is known; give the python of its venv "
        "(.venv/bin/python after `make setup`) in Settings > Options > Processing > "
        f"Providers > wetland_gis, or in the environment variable {PYTHON_ENV}, or install "
        "the plugin zip that `make qgis-plugin` builds (it records it)",
        -1,
    )


def describe(python: str, timeout: float = 120.0) -> dict[str, Any]:
    """Return :func:`wetland_gis.qgis_provider.describe.describe` run in ``python``.

    Raises
    ------
    CommandFailed
        When the interpreter cannot run it (the last line it printed says why).
    """
    try:
        done = subprocess.run(
            [python, "-m", "wetland_gis.qgis_provider.describe"],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=child_env(),
            timeout=timeout,
            **_no_window(),
        )
    except (OSError, subprocess.SubprocessError) as err:
        raise CommandFailed(f"wetland_gis: cannot run {python}: {err}", -1) from err
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise CommandFailed(
            f"wetland_gis: {python} cannot load wetland_gis ({last}); is it the python of "
            "the venv where `make setup` installed the package?",
            done.returncode,
        )
    data = json.loads(done.stdout)
    if not isinstance(data, dict):
        raise CommandFailed(f"wetland_gis: {python} gave no description", -1)
    return data


def _no_window() -> dict[str, Any]:
    """Return the Popen keywords that keep a console window from opening on Windows."""
    if sys.platform == "win32":
        flags = subprocess.CREATE_NEW_PROCESS_GROUP | getattr(subprocess, "CREATE_NO_WINDOW", 0)
        return {"creationflags": flags}
    return {}


def _read_lines(stream: Any, name: str, out: queue.Queue[tuple[str, str | None]]) -> None:
    for line in stream:
        out.put((name, line.rstrip("\r\n")))
    out.put((name, None))


def _interrupt(proc: subprocess.Popen[str]) -> None:
    """Interrupt ``proc`` as Ctrl+C does (its staged outputs are discarded)."""
    try:
        if sys.platform == "win32":
            proc.send_signal(signal.CTRL_BREAK_EVENT)
        else:
            proc.send_signal(signal.SIGINT)
    except OSError:  # already gone
        pass


def _stop(proc: subprocess.Popen[str], grace: float) -> None:
    """Interrupt ``proc``; terminate it after ``grace`` seconds, kill it after 5 more."""
    _interrupt(proc)
    try:
        proc.wait(grace)
        return
    except subprocess.TimeoutExpired:
        pass
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_command(
    python: str,
    argv: Sequence[str],
    feedback: Feedback,
    *,
    steps: int = 1,
    cancel_grace: float = CANCEL_GRACE,
) -> RunResult:
    """Run ``wetland-gis argv`` in ``python``, reporting to ``feedback``; return its result.

    Parameters
    ----------
    python : str
        The interpreter that has the package (:func:`find_python`).
    argv : sequence of str
        The command's arguments (:func:`wetland_gis.qgis_provider.command.build_argv`).
    feedback : Feedback
        QGIS's feedback: each progress event moves its bar (``steps`` events before the
        writing) and shows its message; the command's other lines go to its log
        (warnings with ``pushWarning`` where QGIS has it).
    steps : int
        How many progress events the command gives before writing.
    cancel_grace : float
        Seconds the command has to stop after the interrupt before it is terminated.

    Returns
    -------
    RunResult

    Raises
    ------
    CommandFailed
        When the command fails or is cancelled: the one line it printed (for a cancel:
        ``... interrupted; no output was changed``).
    """
    try:
        proc = subprocess.Popen(
            [python, "-m", "wetland_gis.qgis_provider.run", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=child_env(),
            **_no_window(),
        )
    except OSError as err:
        raise CommandFailed(f"wetland_gis: cannot run {python}: {err}", -1) from err
    lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
    readers = [
        threading.Thread(target=_read_lines, args=(stream, name, lines), daemon=True)
        for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    said: list[str] = []
    last_event: dict[str, Any] | None = None
    open_streams = 2
    canceled = False
    push_warning = getattr(feedback, "pushWarning", feedback.pushInfo)
    while open_streams:
        if not canceled and feedback.isCanceled():
            canceled = True
            feedback.pushInfo("wetland_gis: cancelling: interrupting the command")
            threading.Thread(target=_stop, args=(proc, cancel_grace), daemon=True).start()
        try:
            name, line = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        if line is None:
            open_streams -= 1
            continue
        event = events.parse(line) if name == "stderr" else None
        if event is None:
            if name == "stderr":
                said.append(line)
                (push_warning if line.startswith("warning:") else feedback.pushInfo)(line)
            continue
        last_event = event
        if event["event"] == "progress":
            step = int(event.get("step", 1))
            feedback.setProgress(min(95.0, 100.0 * step / (max(steps, step) + 1)))
            feedback.pushInfo(str(event.get("message", "")))
    for stream in (proc.stdout, proc.stderr):  # both read to their end
        if stream is not None:
            stream.close()
    status = proc.wait()
    done = last_event is not None and last_event["event"] == "done"
    if done and last_event is not None and last_event.get("status") == 0:
        if status != 0:  # its outputs were in place when it said so; only its exit was not
            push_warning(f"wetland-gis {argv[0]}: done, then exited with status {status}")
        feedback.setProgress(100.0)
        return RunResult(
            status,
            [str(p) for p in last_event.get("written") or []],
            dict(last_event.get("tally") or {}),
            said,
        )
    if last_event is not None and last_event.get("message"):
        message = str(last_event["message"])
    elif canceled:
        message = f"wetland-gis {argv[0]}: cancelled; the command was stopped (status {status})"
    else:  # no event: an argument refused by the parser, or a crash; its last line
        last = next((s for s in reversed(said) if s.strip()), "no message")
        if last.startswith(f"wetland-gis {argv[0]}: error: "):  # refused by its parser
            message = last
        else:
            message = f"wetland-gis {argv[0]}: stopped with exit status {status}: {last}"
    raise CommandFailed(message, status)
