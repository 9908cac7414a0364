"""The impact table of the Minnesota joint application (``*_summary.csv``).

Part Four of the Minnesota Local/State/Federal joint application for work in water
resources asks, per aquatic resource: its id, its type, the type of impact, the duration
(permanent or temporary), the size of the impact, the overall size of the resource, the
existing plant community type(s) and the county, major watershed number and bank service
area number. :func:`summary_table` writes those columns as the form wants the text and,
beside the text, the numbers (square feet and acres) a spreadsheet can add up.

No cell is ever the text ``"nan"``: a fact that is not known reads as what it is
(:data:`NOT_GIVEN`, :data:`NOT_DETERMINED`) and a number that is not known is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.io.fields import FieldMapping
from wetland_gis.io.values import is_blank
from wetland_gis.units import SQFT_PER_ACRE, joint_application_area

NOT_GIVEN = "not given"
"""A fact the input layer does not hold (type of impact, plant community)."""

NOT_DETERMINED = "not determined"
"""A fact the tool could not determine (the wetland type of a row not assessed)."""

DURATION_COLUMNS: Sequence[str] = ("duration", "impact_duration", "dur")
"""Input columns read (case-insensitively) for the duration: P/T or permanent/temporary."""

PLANT_COMMUNITY_COLUMNS: Sequence[str] = ("plant_community", "plant_comm", "community")
"""Input columns read (case-insensitively) for the existing plant community type(s)."""

PERMANENT, TEMPORARY = "Permanent", "Temporary"
ASSUMED_PERMANENT = "Permanent (assumed: duration not given)"
"""Duration when the input does not say: never the applicant's more favourable reading."""

_T = TypeVar("_T")


def _column(gdf: pd.DataFrame, names: Sequence[str]) -> str | None:
    lower = {str(c).lower(): str(c) for c in gdf.columns}
    return next((lower[n] for n in names if n in lower), None)


def _blank(value: Any) -> bool:
    """Return True for a blank value, or the text a blank becomes in a CSV round trip."""
    if isinstance(value, str) and value.strip().lower() in {"nan", "none", "<na>"}:
        return True
    return is_blank(value)


def _text(value: Any, missing: str = "") -> str:
    return missing if _blank(value) else str(value).strip()


def _number_text(value: Any) -> str:
    """Return a number as short text (``47``, ``0.4``); blank when missing."""
    if _blank(value):
        return ""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value).strip()
    return f"{number:g}"


def _duration(value: Any) -> str:
    text = _text(value).lower()
    if text in {"p", "perm", "permanent"}:
        return PERMANENT
    if text in {"t", "temp", "temporary"}:
        return TEMPORARY
    return ASSUMED_PERMANENT


def _type_text(value: Any) -> str:
    if _blank(value):
        return NOT_DETERMINED
    text = _number_text(value) if not isinstance(value, str) else value.strip()
    return text if text.lower().startswith("type") else f"Type {text}"


#: Types whose equal values always give equal text (``str(v)``); any other object is
#: told apart by its ``repr`` too (``0.0`` and ``-0.0`` are equal but print apart).
_EXACT_KEYS = frozenset({str, int, bool, type(None)})


def _codes(column: pd.Series, cells: list[Any]) -> np.ndarray:
    """Return a code per cell: cells of one code are of one type and print alike.

    Text, whole-number and boolean columns are coded by value (their missing cells are
    one value of one type); float columns by their bits (``-0.0`` apart from ``0.0``);
    object columns by type and value, and beyond text and whole numbers by ``repr``.
    """
    dtype = column.dtype
    if (
        isinstance(dtype, pd.StringDtype)
        or pd.api.types.is_integer_dtype(dtype)
        or pd.api.types.is_bool_dtype(dtype)
    ):
        return pd.factorize(column, use_na_sentinel=False)[0]
    if dtype.kind == "f" and isinstance(dtype, np.dtype):
        return pd.factorize(column.to_numpy().view(f"i{dtype.itemsize}"))[0]
    keys: dict[tuple[type, Any], int] = {}
    out = np.empty(len(cells), dtype=np.int64)
    for i, value in enumerate(cells):
        cls = value.__class__
        key = (cls, value) if cls in _EXACT_KEYS else (cls, repr(value))
        try:
            out[i] = keys.setdefault(key, len(keys))
        except TypeError:  # an unhashable cell: by its repr alone
            out[i] = keys.setdefault((cls, repr(value)), len(keys))
    return out


def _per_value(func: Callable[..., _T], *columns: pd.Series) -> list[_T]:
    """Return ``[func(*row) for row in zip(*columns)]``, ``func`` called once per distinct row.

    Rows are the same when each cell is of the same type and prints alike
    (:func:`_codes`), so a pure ``func`` gives what one call per row gives.
    """
    cells = [list(column) for column in columns]  # the values a loop over the column gives
    codes = [_codes(column, c) for column, c in zip(columns, cells, strict=True)]
    if not len(cells[0]):
        return []
    rows = (
        codes[0] if len(codes) == 1 else np.unique(np.stack(codes), axis=1, return_inverse=True)[1]
    )
    _, first, inverse = np.unique(rows.ravel(), return_index=True, return_inverse=True)
    results = np.empty(len(first), dtype=object)
    results[:] = [func(*(c[i] for c in cells)) for i in first.tolist()]
    return results[inverse.ravel()].tolist()


def _not_given(value: Any) -> str:
    return _text(value, NOT_GIVEN)


def _reported_text(value: Any) -> str | None:
    """Return the reported size as text; ``None`` when blank (then it is computed)."""
    return None if _blank(value) else _text(value)


def _county_list(county: Any, straddled: Any) -> list[str]:
    """Return ``county`` then each county of ``straddled`` (a tuple of names, or None)."""
    names = [] if _blank(county) else [str(county).strip()]
    if isinstance(straddled, tuple):
        names += [n for n in straddled if n not in names]
    return names


def _place(county: Any, counties: Any, major: Any, bsa: Any) -> tuple[str, str]:
    """Return the form's "County, Major Watershed #, Bank Service Area #" and the counties.

    ``counties`` is the classification's tuple of the straddled counties (data), or None.
    """
    names = _county_list(county, counties)
    parts = [", ".join(names) if names else NOT_DETERMINED]
    parts.append(f"Major {_number_text(major)}" if not _blank(major) else "Major ?")
    parts.append(f"BSA {_number_text(bsa)}" if not _blank(bsa) else "BSA ?")
    return "; ".join(parts), ", ".join(names)


def summary_table(
    gdf: gpd.GeoDataFrame, field_map: FieldMapping, straddled: pd.Series | None = None
) -> pd.DataFrame:
    """Return the impact table in the Minnesota joint application convention.

    Parameters
    ----------
    gdf : GeoDataFrame
        Classified and decided impacts (the columns of ``docs/data_schema.md``).
    field_map : FieldMapping
        Which input columns hold the id, the type of impact and the resource size.
    straddled : Series, optional
        The counties each impact straddles, as data (by the index of ``gdf``: a tuple of
        names, largest share first, or None): the classification's ``county_names``.
        Without it each impact's county is its ``county`` alone: the ``counties`` text of
        ``gdf`` is for people and is never parsed back.

    Returns
    -------
    DataFrame
        One row per input feature, the form's columns first (text as the form wants
        it), then numeric ``(sq ft)`` and ``(ac)`` columns, the counties, the outcome
        and the processing status.

    Notes
    -----
    Sizes follow the joint application: impacts under 0.01 acre in square feet, others
    in acres to 0.01 (:func:`~wetland_gis.units.joint_application_area`). The duration is
    read from a :data:`DURATION_COLUMNS` column; when none is given it reads "Permanent
    (assumed ...)", the reading that does not favour the applicant. The plant community
    is read from a :data:`PLANT_COMMUNITY_COLUMNS` column.
    """
    index = gdf.index
    ids = gdf[field_map.impact_id] if field_map.impact_id else gdf["wg_row"]
    kind = gdf[field_map.impact_kind] if field_map.impact_kind else pd.Series(None, index=index)
    size = gdf[field_map.wetland_acres] if field_map.wetland_acres else pd.Series(None, index=index)
    duration_col = _column(gdf, DURATION_COLUMNS)
    plant_col = _column(gdf, PLANT_COMMUNITY_COLUMNS)
    duration = gdf[duration_col] if duration_col else pd.Series(None, index=index)
    plant = gdf[plant_col] if plant_col else pd.Series(None, index=index)
    counties_col = (
        straddled.reindex(index) if straddled is not None else pd.Series(None, index=index)
    )
    sqft = pd.to_numeric(gdf["area_sqft"], errors="coerce")
    # every text cell is made once per distinct value of its column(s), not once per row
    places = _per_value(_place, gdf["county"], counties_col, gdf["major"], gdf["bsa"])
    reported_text = _per_value(_reported_text, gdf["area_reported"])
    reported = [
        r if r is not None else (joint_application_area(s) if np.isfinite(s) else "")
        for r, s in zip(reported_text, sqft.tolist(), strict=True)
    ]
    return pd.DataFrame(
        {
            "Aquatic resource ID": _per_value(_text, ids),
            "Resource type": _per_value(_type_text, gdf["wetland_type"]),
            "Type of impact": _per_value(_not_given, kind),
            "Duration": _per_value(_duration, duration),
            "Size of impact": reported,
            "Size of impact (sq ft)": sqft.round(0).astype("Int64"),
            "Size of impact (ac)": (sqft / SQFT_PER_ACRE).round(2),
            "Overall size of resource (ac)": pd.to_numeric(size, errors="coerce"),
            "Existing plant community type(s)": _per_value(_not_given, plant),
            "County, Major Watershed #, Bank Service Area #": [p[0] for p in places],
            "Counties": [p[1] for p in places],
            "Major watershed #": _per_value(_number_text, gdf["major"]),
            "Bank service area #": _per_value(_number_text, gdf["bsa"]),
            "Outcome": _per_value(_text, gdf["outcome"]),
            "Ratio": pd.to_numeric(gdf["ratio"], errors="coerce"),
            "Replacement (ac)": pd.to_numeric(gdf["replace_acres"], errors="coerce").round(2),
            "Status": _per_value(_text, gdf["status"]),
            "Reason not assessed": _per_value(_text, gdf["status_reason"]),
            "area_sqft": sqft.round(1),
        },
        index=index,
    )
