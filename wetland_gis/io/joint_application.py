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

import re
from collections.abc import Sequence
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.io.fields import FieldMapping
from wetland_gis.io.values import is_blank
from wetland_gis.units import SQFT_PER_ACRE, joint_application_area

__all__ = [
    "DURATION_COLUMNS",
    "NOT_DETERMINED",
    "NOT_GIVEN",
    "PLANT_COMMUNITY_COLUMNS",
    "county_names",
    "summary_table",
]

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

_COUNTY_PART = re.compile(r"^(?P<name>.+?):\s*[-\d.,]+\s*sq ft$")
_OUTSIDE_COUNTIES = "outside the county layer"


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


def county_names(county: Any, counties: Any) -> list[str]:
    """Return every county an impact lies in, the largest share first.

    Parameters
    ----------
    county : str
        The county covering most of the impact (``county`` column).
    counties : str or None
        The ``counties`` column of the classification: ``"Name: 1200.0 sq ft; Name: 300.0
        sq ft"`` where an impact straddles counties, empty otherwise.

    Returns
    -------
    list of str
        County names; the part outside every county is not a county and is left out.

    Examples
    --------
    >>> county_names("Wright", "Wright: 500.0 sq ft; Hennepin: 20.0 sq ft")
    ['Wright', 'Hennepin']
    >>> county_names("Wright", None)
    ['Wright']
    """
    names: list[str] = []
    if not _blank(county):
        names.append(str(county).strip())
    if not _blank(counties):
        for part in str(counties).split(";"):
            match = _COUNTY_PART.match(part.strip())
            name = match.group("name").strip() if match else part.strip()
            if name and name != _OUTSIDE_COUNTIES and name not in names:
                names.append(name)
    return names


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


def summary_table(gdf: gpd.GeoDataFrame, field_map: FieldMapping) -> pd.DataFrame:
    """Return the impact table in the Minnesota joint application convention.

    Parameters
    ----------
    gdf : GeoDataFrame
        Classified and decided impacts (the columns of ``docs/data_schema.md``).
    field_map : FieldMapping
        Which input columns hold the id, the type of impact and the resource size.

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
    counties_col = gdf["counties"] if "counties" in gdf else pd.Series(None, index=index)

    sqft = pd.to_numeric(gdf["area_sqft"], errors="coerce")
    all_counties = [county_names(c, cs) for c, cs in zip(gdf["county"], counties_col, strict=True)]
    place = []
    for names, major, bsa in zip(all_counties, gdf["major"], gdf["bsa"], strict=True):
        parts = [", ".join(names) if names else NOT_DETERMINED]
        parts.append(f"Major {_number_text(major)}" if not _blank(major) else "Major ?")
        parts.append(f"BSA {_number_text(bsa)}" if not _blank(bsa) else "BSA ?")
        place.append("; ".join(parts))
    reported = [
        _text(r) if not _blank(r) else (joint_application_area(s) if np.isfinite(s) else "")
        for r, s in zip(gdf["area_reported"], sqft, strict=True)
    ]
    return pd.DataFrame(
        {
            "Aquatic resource ID": [_text(i) for i in ids],
            "Resource type": [_type_text(t) for t in gdf["wetland_type"]],
            "Type of impact": [_text(k, NOT_GIVEN) for k in kind],
            "Duration": [_duration(d) for d in duration],
            "Size of impact": reported,
            "Size of impact (sq ft)": sqft.round(0).astype("Int64"),
            "Size of impact (ac)": (sqft / SQFT_PER_ACRE).round(2),
            "Overall size of resource (ac)": pd.to_numeric(size, errors="coerce"),
            "Existing plant community type(s)": [_text(p, NOT_GIVEN) for p in plant],
            "County, Major Watershed #, Bank Service Area #": place,
            "Counties": [", ".join(n) for n in all_counties],
            "Major watershed #": [_number_text(m) for m in gdf["major"]],
            "Bank service area #": [_number_text(b) for b in gdf["bsa"]],
            "Outcome": [_text(o) for o in gdf["outcome"]],
            "Ratio": pd.to_numeric(gdf["ratio"], errors="coerce"),
            "Replacement (ac)": pd.to_numeric(gdf["replace_acres"], errors="coerce").round(2),
            "Status": [_text(s) for s in gdf["status"]],
            "Reason not assessed": [_text(r) for r in gdf["status_reason"]],
            "area_sqft": sqft.round(1),
        },
        index=index,
    )
