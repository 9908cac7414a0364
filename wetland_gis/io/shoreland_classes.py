"""The DNR basin shoreland classification list: a lookup table keyed by DOW number.

The MN DNR publishes "Basin Shoreland Classifications" (a list, not a layer): one row per
public water basin and county or city, with the 8-digit DNR lake/basin id (``dowlknum``,
the key the DNR public waters layers carry), the DNR class and the class the county or
city ordinance gives, which may differ. :func:`read_shoreland_classes` reads such a table
(CSV or a DataFrame) and :meth:`ShorelandClassList.lookup` answers, for one DOW number,
which class texts the list gives. ``wetland_gis.context`` uses it to fill the
``shore_class`` of ``public_water_basins`` rows that have none (``docs/context.md``).

Only a subset (Wright, Crow Wing and Hennepin counties) is shipped in ``sample_data/``;
the DNR licence forbids redistributing the whole list, so users supply it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from wetland_gis.errors import ContextError
from wetland_gis.io.values import is_blank, parse_id
from wetland_gis.manifest import file_sha256

CLASS_SOURCES = ("dnr", "local")
"""Which class of the list is used: the DNR's, or the county/city ordinance's."""

DOW_DIGITS = 8
"""Digits of a DNR lake/basin (DOW) number: county (2), basin (4), sub-basin (2)."""

_REQUIRED = ("dowlknum", "dnr_class")
_OPTIONAL = ("county", "city_name", "basin_name", "county_class", "city_class")
_LOCAL_COLUMNS = ("city_class", "county_class")  # a city row's own class first
_SEPARATORS = re.compile(r"[\s\-_.]+")


def normalise_dow(value: Any) -> str | None:
    """Return a DNR lake/basin (DOW) number as its 8-digit text, or None.

    Integers and floats lose their decimal point, separators (``18-0225-00``) are
    removed and the leading zeros an integer column lost are put back (``1001000`` ->
    ``"01001000"``).

    Parameters
    ----------
    value : object
        A ``pw_id`` or ``dowlknum`` value.

    Returns
    -------
    str or None
        None for a blank value or one that is not a DOW number after normalising.

    Examples
    --------
    >>> normalise_dow(18022500.0), normalise_dow("18-0225-00"), normalise_dow(1001000)
    ('18022500', '18022500', '01001000')
    >>> normalise_dow("SYN-86-0001") is None
    True
    """
    if is_blank(value):
        return None
    text = _SEPARATORS.sub("", str(parse_id(value)))
    if not text.isdigit() or len(text) > DOW_DIGITS:
        return None
    return text.zfill(DOW_DIGITS)


@dataclass(frozen=True, eq=False)
class ShorelandClassList:
    """A basin shoreland classification list, read and keyed by DOW number.

    Attributes
    ----------
    table : DataFrame
        The rows with ``dowlknum`` as 8-digit text, the class columns as read (blank as
        None) and ``row``, the line of the row in the file (header = line 1).
    path : str
        The file, or ``"<DataFrame>"``.
    sha256 : str
        Of the file ("" for a DataFrame).
    """

    table: pd.DataFrame
    path: str
    sha256: str
    _by_dow: dict[str, list[dict[str, Any]]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        by_dow: dict[str, list[dict[str, Any]]] = {}
        for rec in self.table.to_dict("records"):
            by_dow.setdefault(rec["dowlknum"], []).append(rec)
        object.__setattr__(self, "_by_dow", by_dow)  # one pass; each lookup is a dict get

    def lookup(self, dow: str | None, class_source: str) -> list[tuple[str, str, int]]:
        """Return the classes the list gives a basin.

        Parameters
        ----------
        dow : str or None
            The basin's 8-digit DOW number (:func:`normalise_dow`).
        class_source : {"dnr", "local"}
            ``"dnr"``: the ``dnr_class`` column; ``"local"``: on each row the
            ``city_class``, or the ``county_class`` where the row gives no city class.

        Returns
        -------
        list of (class text, column, row)
            One entry per list row with a class, as written; empty when the basin is not
            on the list or its rows give no class of that source.
        """
        out: list[tuple[str, str, int]] = []
        for rec in self._by_dow.get(dow, []) if dow is not None else []:
            columns = ("dnr_class",) if class_source == "dnr" else _LOCAL_COLUMNS
            for col in columns:
                if not is_blank(rec.get(col)):
                    out.append((str(rec[col]).strip(), col, int(rec["row"])))
                    break
        return out

    def has(self, dow: str | None) -> bool:
        """Return whether the list has a row for DOW number ``dow``."""
        return dow is not None and dow in self._by_dow


def read_shoreland_classes(
    source: str | Path | pd.DataFrame | ShorelandClassList,
) -> ShorelandClassList:
    """Read a basin shoreland classification list (CSV, or a DataFrame).

    Parameters
    ----------
    source : str, Path, DataFrame or ShorelandClassList
        Columns (case-insensitive) ``dowlknum`` and ``dnr_class`` required;
        ``county``, ``city_name``, ``basin_name``, ``county_class``, ``city_class``
        optional (``county_class`` or ``city_class`` is needed for ``class_source="local"``).

    Returns
    -------
    ShorelandClassList

    Raises
    ------
    ContextError
        A missing file or column, or a ``dowlknum`` that is not a DOW number (naming
        the file, the line and the fix).
    """
    if isinstance(source, ShorelandClassList):
        return source
    if isinstance(source, pd.DataFrame):
        frame, where, sha = source.copy(), "shoreland class list (given as a DataFrame)", ""
        path = "<DataFrame>"
    else:
        p = Path(source)
        if not p.is_file():
            raise ContextError(
                f"shoreland class list {p} does not exist; give the DNR basin shoreland "
                "classification list as a CSV (docs/context.md)"
            )
        frame = pd.read_csv(p, dtype=str, keep_default_na=False, na_values=[""])
        where, sha, path = f"shoreland class list {p}", file_sha256(p), str(p)
    by_lower = {str(c).strip().lower(): c for c in frame.columns}
    missing = [c for c in _REQUIRED if c not in by_lower]
    if missing:
        raise ContextError(
            f"{where} is missing the column(s) {missing}; it has {list(frame.columns)}. "
            f"The list needs {list(_REQUIRED)} (optional: {list(_OPTIONAL)}); rename the "
            "columns that hold them."
        )
    keep = [c for c in _REQUIRED + _OPTIONAL if c in by_lower]
    frame = frame[[by_lower[c] for c in keep]].set_axis(keep, axis=1)
    for c in _OPTIONAL:
        if c not in frame.columns:
            frame[c] = None
    frame = frame.astype(object).where(frame.notna(), None)
    frame["row"] = range(2, len(frame) + 2)
    dows = frame["dowlknum"].map(normalise_dow)
    bad = dows.isna()
    if bad.any():
        first = frame.loc[bad].iloc[0]
        raise ContextError(
            f"{where}: line {first['row']} has dowlknum {first['dowlknum']!r}, which is not "
            f"an {DOW_DIGITS}-digit DNR lake/basin number ({int(bad.sum())} such line(s)). "
            "Fix or remove those lines."
        )
    frame["dowlknum"] = dows
    return ShorelandClassList(frame.reset_index(drop=True), path, sha)
