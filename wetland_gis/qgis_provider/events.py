"""The machine-readable channel of ``wetland-gis``: run events as JSON lines on stderr.

A program that drives the command line (the QGIS provider of :mod:`wetland_gis.qgis_provider`)
sets the environment variable :data:`EVENTS_ENV` to ``json``; the command then writes each
progress message, and its end, as one line :data:`PREFIX` followed by a JSON object on
stderr, between its ordinary lines, so that nothing has to be read back from the text
written for people:

``{"event": "progress", "step": 2, "message": "loading context"}``
    A stage of the work began (``step`` counts them from 1).
``{"event": "done", "status": 0, "written": [...], "tally": {...}, "message": ""}``
    The command finished: the files written, the tally (``Tally.to_dict``) and the exit
    status (3 under ``--strict`` with rows not assessed; ``message`` then says why).
``{"event": "error", "status": 2, "message": "wetland-gis assess: error: ..."}``
    The command failed: ``message`` is the one line it printed (exit status 1, 2 or 130).

This module imports only the standard library: QGIS's Python reads it too.

Examples
--------
>>> parse('WETLAND_GIS_EVENT {"event": "progress", "step": 1, "message": "reading"}')
{'event': 'progress', 'step': 1, 'message': 'reading'}
>>> parse("wetland-gis assess: 7 row(s) read") is None
True
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

#: The environment variable asking ``wetland-gis`` for run events (value ``json``).
EVENTS_ENV = "WETLAND_GIS_EVENTS"

#: What begins an event line on stderr (followed by one JSON object).
PREFIX = "WETLAND_GIS_EVENT "

_steps = 0


def enabled() -> bool:
    """Return True when the environment asks for run events (``WETLAND_GIS_EVENTS=json``)."""
    return os.environ.get(EVENTS_ENV, "").strip().lower() == "json"


def emit(event: str, **fields: Any) -> None:
    """Write one run event on stderr when :func:`enabled` (otherwise nothing).

    Parameters
    ----------
    event : str
        ``progress``, ``done`` or ``error``.
    **fields
        Its JSON-serialisable values; a ``progress`` event is numbered (``step``).
    """
    global _steps
    if not enabled():
        return
    record: dict[str, Any] = {"event": event}
    if event == "progress":
        _steps += 1
        record["step"] = _steps
    record.update(fields)
    sys.stderr.write(PREFIX + json.dumps(record, default=str) + "\n")
    sys.stderr.flush()


def parse(line: str) -> dict[str, Any] | None:
    """Return the event of a stderr line, or None for a line written for people."""
    if not line.startswith(PREFIX):
        return None
    try:
        record = json.loads(line[len(PREFIX) :])
    except ValueError:
        return None
    return record if isinstance(record, dict) and "event" in record else None
