"""The decision trace: one row per rule step, kept as columns.

:class:`TraceLog` collects the steps of one or many projects in plain Python lists (one
per column of :data:`TRACE_COLUMNS`), so deciding many projects builds no object per
step. :meth:`TraceLog.frame` returns the table as a pandas DataFrame (pandas is imported
only then); :meth:`TraceLog.records` as dictionaries.

The columns are the trace contract shared by every stage (docs/data_schema.md,
"decisions"): ``project``, ``impact_id`` (``""`` for a project-level step), ``seq`` (order
within the project), ``rule_id`` (a stable dotted id), ``citation``, ``outcome`` (an
:class:`~wetland_gis.enums.Outcome` value), ``value`` (float or None), ``reason`` (plain
English, may hold ``;``), ``verify`` (list of str), ``inputs`` (dict) and ``parameters``
(dict: parameter key to the value used). Texts are written for people; no stage parses
them back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from operator import itemgetter
from typing import Any

#: A reason given as text, or as ``(render, args)``: rendered by ``render(*args)`` only
#: when an output needs the text (deciding many projects formats no number).
Reason = str | tuple
#: A step's citation: one citation, or several kept apart as data (rendered joined by
#: ``"; "`` only at the edge, :meth:`TraceLog.slice`; :meth:`TraceLog.citations` gives them
#: as tuples, never by splitting the text).
Citation = str | tuple[str, ...]

#: The columns of the trace table, in order.
TRACE_COLUMNS = (
    "project",
    "impact_id",
    "seq",
    "rule_id",
    "citation",
    "outcome",
    "value",
    "reason",
    "verify",
    "inputs",
    "parameters",
)
#: The columns a row of :class:`TraceLog` holds (``seq`` is numbered when read).
_ROW = tuple(c for c in TRACE_COLUMNS if c != "seq")
_REASON_AT = _ROW.index("reason")
_CITATION_AT = _ROW.index("citation")
#: Columns holding Python objects, JSON-encoded in files.
JSON_COLUMNS = ("verify", "inputs", "parameters")

_EMPTY: Mapping[str, Any] = {}


def encode_trace_value(value: Any) -> str:
    """Return a ``verify``, ``inputs`` or ``parameters`` cell as JSON text (for files)."""
    return json.dumps(value, ensure_ascii=False, default=_plain, sort_keys=False)


def _plain(value: Any) -> Any:
    if hasattr(value, "value"):
        return value.value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


def number_steps(projects: Iterable[Any]) -> list[int]:
    """Return the ``seq`` column: each step's place within its project (0, 1, ...).

    The steps of a project are together, in order; a new project starts again at 0.

    Examples
    --------
    >>> number_steps(["P", "P", "Q", "Q", "Q"])
    [0, 1, 0, 1, 2]
    """
    seqs: list[int] = []
    last, n = None, 0
    for project in projects:
        n = n + 1 if project == last else 0
        last = project
        seqs.append(n)
    return seqs


def render_reasons(reasons: Iterable[Any]) -> list[str]:
    """Return reasons as text: a ``(render, args)`` reason is rendered by ``render(*args)``.

    Examples
    --------
    >>> render_reasons(["As written.", ("{} sq ft".format, (40,))])
    ['As written.', '40 sq ft']
    """
    return [r if r.__class__ is str else r[0](*r[1]) for r in reasons]


class TraceLog:
    """Columns of trace steps; append with :meth:`add`.

    Examples
    --------
    >>> log = TraceLog()
    >>> log.add(project="P", impact_id="", rule_id="de_minimis.project",
    ...         citation="Minn. Stat. § 103G.2241, subd. 9", outcome="exempt", value=None,
    ...         reason="Every impact is de minimis; none needs a plan.")
    >>> log.frame()["reason"].iloc[0]
    'Every impact is de minimis; none needs a plan.'
    """

    def __init__(self) -> None:
        self.rows: list[tuple] = []
        self._append = self.rows.append

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def columns(self) -> dict[str, list[Any]]:
        """Return every step as lists by column (``seq`` numbered per project)."""
        return self.slice(0, None)

    def slice(self, start: int = 0, stop: int | None = None) -> dict[str, list[Any]]:
        """Return the steps ``start:stop`` as lists by column (reasons not rendered).

        A citation given as several (a tuple) is written as their text joined by ``"; "``.
        """
        names = _ROW
        rows = self.rows[start:stop]
        cols: dict[str, list[Any]] = (
            {c: list(v) for c, v in zip(names, zip(*rows, strict=True), strict=True)}
            if rows
            else {c: [] for c in names}
        )
        cols["citation"] = [c if c.__class__ is str else "; ".join(c) for c in cols["citation"]]
        cols["seq"] = number_steps(cols["project"])
        return {c: cols[c] for c in TRACE_COLUMNS}

    def add(
        self,
        *,
        project: str,
        impact_id: str,
        rule_id: str,
        citation: Citation,
        outcome: str,
        value: float | None,
        reason: Reason,
        verify: Sequence[str] = (),
        inputs: Mapping[str, Any] = _EMPTY,
        parameters: Mapping[str, Any] = _EMPTY,
    ) -> None:
        """Append one step. The steps of a project are added together, in rule order."""
        self._append(
            (
                project,
                impact_id,
                rule_id,
                citation,
                outcome,
                value,
                reason,
                verify,
                inputs,
                parameters,
            )
        )

    def citations(self, start: int = 0, stop: int | None = None) -> list[tuple[str, ...]]:
        """Return the citations of the steps ``start:stop`` as data, one tuple per step.

        Examples
        --------
        >>> log = TraceLog()
        >>> log.add(project="P", impact_id="", rule_id="x", citation=("A; B", "C"),
        ...         outcome="exempt", value=None, reason="")
        >>> log.citations(), log.columns["citation"]
        ([('A; B', 'C')], ['A; B; C'])
        """
        return [
            ((c,) if c else ()) if c.__class__ is str else tuple(c)
            for c in map(itemgetter(_CITATION_AT), self.rows[start:stop])
        ]

    def reasons(self, start: int = 0, stop: int | None = None) -> list[str]:
        """Return the reasons of the steps ``start:stop`` as text (rendered now)."""
        return render_reasons(map(itemgetter(_REASON_AT), self.rows[start:stop]))

    def records(self, start: int = 0, stop: int | None = None) -> Iterator[dict[str, Any]]:
        """Yield the steps ``start:stop`` as dictionaries (lists and dicts copied)."""
        cols = self.slice(start, stop)
        reasons = self.reasons(start, stop)
        for i in range(len(reasons)):
            row = {c: cols[c][i] for c in TRACE_COLUMNS}
            row["reason"] = reasons[i]
            row["verify"] = list(row["verify"])
            row["inputs"] = dict(row["inputs"])
            row["parameters"] = dict(row["parameters"])
            yield row

    def frame(self, start: int = 0, stop: int | None = None) -> Any:
        """Return the steps as a pandas DataFrame with the :data:`TRACE_COLUMNS`.

        ``verify`` holds lists; ``inputs`` and ``parameters`` dicts, which steps may share:
        treat them as read-only.
        """
        import pandas as pd

        return self._frame(pd, start, stop)

    def _frame(self, pd: Any, start: int, stop: int | None) -> Any:
        data = self.slice(start, stop)
        data["reason"] = self.reasons(start, stop)
        data["verify"] = [list(v) for v in data["verify"]]
        for name in ("inputs", "parameters"):
            data[name] = [v if v.__class__ is dict else dict(v) for v in data[name]]
        frame = pd.DataFrame(data, columns=list(TRACE_COLUMNS))
        frame["seq"] = frame["seq"].astype("int64")
        frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype("float64")
        return frame
