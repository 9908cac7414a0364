"""Short renderings of result objects for notebooks (``_repr_html_``).

A result's frames can hold thousands of rows; Jupyter shows an object by its
``_repr_html_``, so each result gives a small table of what it holds instead of its
frames. Every value is escaped (:func:`html.escape`): an impact id or a project name is
data, never markup.
"""

from __future__ import annotations

import html
from collections.abc import Sequence


def summary_table(title: str, rows: Sequence[tuple[str, object]], note: str = "") -> str:
    """Return a small HTML table: a caption and one ``label | value`` row per item.

    Parameters
    ----------
    title : str
        The caption, e.g. ``"SitingResult"``.
    rows : sequence of (str, object)
        Labels and values, rendered with ``str`` and escaped.
    note : str, optional
        A line under the table (escaped), e.g. where the full frames are.

    Returns
    -------
    str

    Examples
    --------
    >>> summary_table("Result", [("impacts", 2), ("project", "<b>P1</b>")])
    '<table><caption>Result</caption><tr><th style="text-align:left">impacts</th><td>2</td></tr><tr><th style="text-align:left">project</th><td>&lt;b&gt;P1&lt;/b&gt;</td></tr></table>'
    """  # noqa: E501
    body = "".join(
        f'<tr><th style="text-align:left">{html.escape(str(label))}</th>'
        f"<td>{html.escape(str(value))}</td></tr>"
        for label, value in rows
    )
    tail = f"<p>{html.escape(note)}</p>" if note else ""
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>{tail}"
