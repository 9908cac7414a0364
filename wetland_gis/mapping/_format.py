"""Small pure helpers shared by the map and the report: escaping, formatting, lookups.

Every value that reaches HTML goes through :func:`esc` (map) or jinja2 autoescape (report);
every value that reaches a map's script goes through :func:`inert_json` (no template engine
can read a ``{{``, ``{%`` or ``{#`` in it).
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from wetland_gis.errors import MappingInputError as MappingInputError
from wetland_gis.io.values import is_blank, parse_number
from wetland_gis.units import display_number, joint_application_area as joint_application_area

ID_COLUMNS = ("impact_id", "id", "IMPACT_ID", "fid", "wg_row")
"""Columns that may hold the impact id, best first (else the row index is the id)."""

MISSING = "\u2014"
"""What an empty value shows as (an em dash)."""

JOIN_SEPARATOR = "; "
"""How ``reasons``, ``citations`` and ``verify`` are joined in the classified impacts."""


def is_missing(value: Any) -> bool:
    """Return True for a blank value (:func:`~wetland_gis.io.values.is_blank`) or an empty list."""
    if isinstance(value, (list, tuple, set, dict)):
        return len(value) == 0
    return is_blank(value)


def fmt(value: Any, *, digits: int = 2) -> str:
    """Return a value as plain text for a person to read (not escaped).

    Booleans read ``yes``/``no``; floats get thousands separators and lose trailing
    zeros after ``digits`` decimals; integers stay plain (they are often ids); missing
    values are :data:`MISSING`.
    """
    if is_missing(value):
        return MISSING
    if hasattr(value, "item") and not isinstance(value, str):
        try:
            value = value.item()  # numpy scalar -> Python
        except (ValueError, AttributeError):
            pass
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isinf(value):
            return str(value)
        if math.isnan(value):
            return MISSING
        return display_number(value, digits, trim=True)  # the one rounding (issue 30)
    return str(value)  # ints stay plain: they are often ids


def finite_text(value: Any, text: Callable[[float], str]) -> str:
    """Return ``text(number)``, or :data:`MISSING` for a value that is not a finite number.

    The value is read by :func:`~wetland_gis.io.values.parse_number` (``"12,500"`` is a
    number, ``True`` is not), the one reader of a number a person wrote.
    """
    number = parse_number(value, errors="coerce")
    return MISSING if number is None else text(number)


def fmt_sqft(value: Any, *, unit: bool = False) -> str:
    """Return whole square feet with thousands separators (rounded half up, once).

    With ``unit`` the text ends in `` sq ft``; a value that is not a finite number is
    :data:`MISSING` either way.

    Examples
    --------
    >>> fmt_sqft(12499.5), fmt_sqft("435.6", unit=True), fmt_sqft(None, unit=True)
    ('12,500', '436 sq ft', '—')
    """
    text = finite_text(value, lambda number: display_number(number, 0))
    return f"{text} sq ft" if unit and text != MISSING else text


def fmt_acres(value: Any) -> str:
    """Return acres to 0.01 (the joint application convention; rounded half up, once)."""
    return finite_text(value, lambda number: display_number(number, 2))


def fmt_money(value: Any) -> str:
    """Return whole dollars with thousands separators (rounded half up, once)."""
    return finite_text(value, lambda number: "$" + display_number(number, 0))


def as_number(value: Any) -> float | None:
    """Return a cell as a number (:func:`~wetland_gis.io.values.parse_number`), else None."""
    return parse_number(value, errors="coerce")


def esc(value: Any, *, digits: int = 2) -> str:
    """Return :func:`fmt` of a value, HTML-escaped (quotes too)."""
    return html.escape(fmt(value, digits=digits), quote=True)


_TEMPLATE_MARKS = str.maketrans({"{": "\\u007b", "}": "\\u007d", "%": "\\u0025"})
"""``{``, ``}`` and ``%`` as JSON escapes: the characters of every template delimiter."""

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
"""A string literal of :func:`json.dumps` output (quotes and backslashes come escaped)."""


def inert_json(value: Any, **kwargs: Any) -> str:
    r"""Return :func:`json.dumps` of ``value`` with ``{``, ``}`` and ``%`` of strings escaped.

    Inside every string (keys and values) ``{``, ``}`` and ``%`` are written ``\u007b``,
    ``\u007d`` and ``\u0025``: the same JSON (a browser or :func:`json.loads` reads the
    same text), in which no template engine finds a delimiter (``{{``, ``{%``, ``{#``).
    folium and branca compile the script of each map element as a Jinja template again,
    so a value such as ``{{ 7*7 }}`` in a feature property would otherwise be run.
    Structural braces are left as they are: :func:`json.dumps` never writes two of them
    in a row nor one before ``%`` or ``#``.

    Parameters
    ----------
    value : object
        Anything :func:`json.dumps` takes.
    **kwargs
        Passed to :func:`json.dumps` (``sort_keys``, ``default``...).

    Returns
    -------
    str
        The JSON text.

    Examples
    --------
    >>> inert_json({"wg_id": "{{ 7*7 }} 50%"})
    '{"wg_id": "\\u007b\\u007b 7*7 \\u007d\\u007d 50\\u0025"}'
    >>> json.loads(inert_json({"wg_id": "{{ 7*7 }}"}))["wg_id"]
    '{{ 7*7 }}'
    """
    text = json.dumps(value, **kwargs)
    return _JSON_STRING.sub(lambda m: m.group(0).translate(_TEMPLATE_MARKS), text)


def inert_tojson(root: Any) -> None:
    """Make the ``tojson`` filter of every template under a folium/branca element inert.

    Sets Jinja's ``json.dumps_function`` policy (its documented hook for ``tojson``) of the
    environment of each element's template, from ``root`` down (a Figure's header, html and
    script too), to :func:`inert_json`. folium renders each element's script with its
    template and then compiles that script as a template again (``branca.element.Element``),
    so data must reach it with no template delimiter in it; every feature property, legend,
    tooltip and layer name reaches a folium page through ``tojson``. The JSON written is the
    same JSON for a browser, so another folium map in the same process is unchanged.

    Parameters
    ----------
    root : branca.element.Element
        A map or its Figure (``m.get_root()`` is walked).
    """
    seen: set[int] = set()
    stack = [root.get_root() if hasattr(root, "get_root") else root]
    while stack:
        element = stack.pop()
        if id(element) in seen:
            continue
        seen.add(id(element))
        env = getattr(getattr(element, "_template", None), "environment", None)
        if env is not None and env.policies.get("json.dumps_function") is not inert_json:
            env.policies["json.dumps_function"] = inert_json
        stack.extend(getattr(element, "_children", {}).values())
        stack.extend(
            part
            for part in (getattr(element, n, None) for n in ("header", "html", "script"))
            if part is not None and hasattr(part, "_children")
        )


def split_joined(value: Any) -> list[str]:
    """Split a ``; ``-joined text column into its items (empty items dropped).

    Lists and tuples are returned as lists of strings, so a column may also hold
    sequences.

    Examples
    --------
    >>> split_joined("Minn. Stat. § 103G.2241, subd. 9(a)(1); Minn. R. 8420.0420")
    ['Minn. Stat. § 103G.2241, subd. 9(a)(1)', 'Minn. R. 8420.0420']
    """
    if isinstance(value, (list, tuple)):
        items: Iterable[Any] = value
    elif is_missing(value):
        return []
    else:
        items = str(value).split(JOIN_SEPARATOR.strip())
    return [str(i).strip() for i in items if not is_missing(i) and str(i).strip()]


def find_column(columns: Iterable[str], *names: str) -> str | None:
    """Return the first column matching one of ``names``, case-insensitively.

    Parameters
    ----------
    columns : iterable of str
        Column names of a frame.
    *names : str
        Candidate names, best first.

    Returns
    -------
    str or None
        The column's actual spelling, or None when none matches.
    """
    by_lower = _by_lower(tuple(map(str, columns)))
    for name in names:
        if name.lower() in by_lower:
            return by_lower[name.lower()]
    return None


@lru_cache(maxsize=64)
def _by_lower(columns: tuple[str, ...]) -> Mapping[str, str]:
    """Return each lower-cased column name -> its first spelling (built once per column set).

    A popup or report row asks for many columns of rows that share one set of columns.
    """
    by_lower: dict[str, str] = {}
    for c in columns:
        by_lower.setdefault(c.lower(), c)
    return MappingProxyType(by_lower)


def impact_ids(impacts: Any) -> Any:
    """Return the impact id of each row as text (:data:`ID_COLUMNS`, or the index).

    Parameters
    ----------
    impacts : DataFrame
        Impacts of an assessment.

    Returns
    -------
    Series
        The ids as text (:func:`fmt`), on the index of ``impacts``.
    """
    col = find_column(impacts.columns, *ID_COLUMNS)
    values = impacts[col] if col is not None else impacts.index.to_series()
    return values.map(fmt)


def row_value(row: Mapping[str, Any], *names: str) -> Any:
    """Return the value of the first of ``names`` present in ``row`` (case-insensitive)."""
    col = find_column(row.keys(), *names)
    return None if col is None else row[col]


def column_reader(columns: Iterable[str]) -> Callable[..., Any]:
    """Return ``get(row, *names)``: :func:`row_value` for rows of a frame with ``columns``.

    Each set of ``names`` is matched to a column once, not again for every row.

    Examples
    --------
    >>> get = column_reader(["Impact_ID", "outcome"])
    >>> get({"Impact_ID": "I-1", "outcome": "prohibited"}, "impact_id", "id")
    'I-1'
    >>> get({"Impact_ID": "I-1", "outcome": "prohibited"}, "ratio") is None
    True
    """
    columns = list(columns)
    found: dict[tuple[str, ...], str | None] = {}

    def get(row: Mapping[str, Any], *names: str) -> Any:
        if names not in found:
            found[names] = find_column(columns, *names)
        col = found[names]
        return None if col is None else row[col]

    return get
