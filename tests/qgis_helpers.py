"""Running Debian's Python with QGIS from the tests (tests/test_qgis*.py)."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

from wetland_gis import cli

#: Debian's Python, the one python3-qgis is installed for.
SYSTEM_PYTHON = Path("/usr/bin/python3")


def run_in_qgis_python(
    args: list[str], *, timeout: float, drop: tuple[str, ...] = (), tail: int = 2000
) -> Any:
    """Run :data:`SYSTEM_PYTHON` with ``args``, offscreen; return the JSON it prints.

    The child gets this environment without the virtual environment's ``PYTHON*`` and
    ``VIRTUAL_ENV`` variables (and without ``drop``); it prints one line ``RESULT<json>``.
    Without that line the test fails showing the last ``tail`` characters of its stderr.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    for name in drop:
        env.pop(name, None)
    env["QT_QPA_PLATFORM"] = "offscreen"
    done = subprocess.run(
        [str(SYSTEM_PYTHON), *args], capture_output=True, text=True, env=env, timeout=timeout
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT")), None)
    assert line is not None, done.stderr[-tail:]
    return json.loads(line[len("RESULT") :])


def rerun_on_the_cli(command: str) -> tuple[int, str]:
    """Run a command line QGIS recorded (``wetland-gis ...``) through ``cli.main`` here.

    Return its exit status and the last line it printed on stderr.
    """
    err = io.StringIO()
    with redirect_stderr(err):
        status = cli.main(shlex.split(command)[1:])
    return status, err.getvalue().strip().splitlines()[-1]
