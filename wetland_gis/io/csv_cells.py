"""CSV a person opens in a spreadsheet: a text cell is never read as a formula.

Every CSV the package writes (``*_summary.csv``, ``*_projects.csv``, ``ranking.csv``,
``allocation.csv``, ``unmet.csv``, ``tier_gaps.csv``, ``*_fees.csv``, ``*_schedules.csv``,
a layer written as ``.csv`` and a shapefile's ``.fieldmap.csv``) goes through
:func:`write_csv`. As OWASP recommends against CSV injection, a text cell (or column name)
that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a single quote
in front (``'=HYPERLINK(...)``), which a spreadsheet shows as text. Numbers stay numbers: a
numeric cell is never touched, and neither is a text cell that is a plain number (``-5``,
``+1.5e3``), which a spreadsheet reads as that number, not as a formula.

The quote is reversible: a text that already begins with quotes before such a character
gets one more, and :func:`restore_frame` (used where the package reads its own CSVs back)
takes one away, so an id survives a round trip exactly.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters with which a spreadsheet may read a cell as a formula (OWASP)."""

_NEEDS_QUOTE = re.compile(r"'*[=+\-@\t\r]")
_QUOTED = re.compile(r"'+[=+\-@\t\r]")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def neutralise(value: Any) -> Any:
    r"""Return a cell value a spreadsheet shows as text, never runs as a formula.

    Parameters
    ----------
    value : object
        A cell. Only a ``str`` can change.

    Returns
    -------
    object
        ``value`` with a ``'`` in front when it is text beginning with one of
        :data:`FORMULA_START` (after any quotes) and is not a plain number; else ``value``.

    Examples
    --------
    >>> neutralise('=HYPERLINK("http://x.test","click")')
    '\'=HYPERLINK("http://x.test","click")'
    >>> neutralise("@SUM(A1)"), neutralise("-5"), neutralise(-5), neutralise("W-1")
    ("'@SUM(A1)", '-5', -5, 'W-1')
    >>> neutralise("'=1+1")  # a quote already there gets one more (undone by restore)
    "''=1+1"
    """
    if not isinstance(value, str) or not _NEEDS_QUOTE.match(value):
        return value
    if _PLAIN_NUMBER.fullmatch(value):
        return value
    return "'" + value


def restore(value: Any) -> Any:
    """Undo :func:`neutralise` on a cell read back from a CSV the package wrote.

    Examples
    --------
    >>> restore("'=1+1"), restore("''=1+1"), restore("'quoted"), restore(3)
    ('=1+1', "'=1+1", "'quoted", 3)
    """
    if isinstance(value, str) and _QUOTED.match(value):
        return value[1:]
    return value


def _hits(series: pd.Series, pattern: re.Pattern[str]) -> pd.Series:
    """Return where a text cell of ``series`` begins with ``pattern`` (other cells: False)."""
    try:
        return series.str.match(pattern.pattern, na=False).astype(bool)
    except AttributeError:  # an object column that holds no text (booleans, None)
        return pd.Series(False, index=series.index)


def _text_columns(frame: pd.DataFrame) -> Iterable[Any]:
    for column in frame.columns:
        dtype = frame[column].dtype
        if pd.api.types.is_object_dtype(dtype) or isinstance(dtype, pd.StringDtype):
            yield column


def spreadsheet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Return a copy of ``frame`` with :func:`neutralise` on every text cell and column name.

    Parameters
    ----------
    frame : DataFrame
        The table to write.

    Returns
    -------
    DataFrame
        Numeric, boolean and date columns are unchanged.
    """
    out = pd.DataFrame(frame).copy()
    for column in _text_columns(out):
        # only the few cells that begin like a formula are looked at one by one
        hit = _hits(out[column], _NEEDS_QUOTE)
        if hit.any():
            out.loc[hit, column] = out.loc[hit, column].map(neutralise)
    out.columns = [neutralise(str(c)) if isinstance(c, str) else c for c in out.columns]
    return out


def restore_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Return ``frame`` (read from a CSV of :func:`write_csv`) with its values as written.

    Parameters
    ----------
    frame : DataFrame
        As ``pandas.read_csv`` read it.

    Returns
    -------
    DataFrame
        :func:`restore` applied to every text cell and column name.
    """
    out = frame.copy()
    for column in _text_columns(out):
        hit = _hits(out[column], _QUOTED)
        if hit.any():
            out.loc[hit, column] = out.loc[hit, column].map(restore)
    out.columns = [restore(c) for c in out.columns]
    return out


def write_csv(frame: pd.DataFrame, path: str | os.PathLike[str], **kwargs: Any) -> Path:
    """Write ``frame`` as UTF-8 CSV (CRLF line ends), no index, after :func:`spreadsheet_safe`.

    Parameters
    ----------
    frame : DataFrame
        The table.
    path : str or path-like
        The file.
    **kwargs
        Passed to :meth:`pandas.DataFrame.to_csv` (``mode``, ``header``).

    Returns
    -------
    pathlib.Path
        ``path``.
    """
    kwargs.setdefault("index", False)
    kwargs.setdefault("encoding", "utf-8")
    # RFC 4180 line ends: a cell holding a bare CR is then quoted, so it cannot end the row
    # early in a spreadsheet (and start a new one with the rest of the cell as a formula)
    kwargs.setdefault("lineterminator", "\r\n")
    spreadsheet_safe(frame).to_csv(path, **kwargs)
    return Path(path)
