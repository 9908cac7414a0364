"""Read and check the candidate project-specific replacement sites (a polygon layer).

The sites (docs/data_schema.md, "Candidate replacement sites") are one of the two kinds of
replacement option of :mod:`wetland_gis.siting`; the other, the bank credit listing, is
read by :mod:`wetland_gis.io.bank_listing`.
"""

from __future__ import annotations

from typing import Any

import geopandas as gpd
import numpy as np

from wetland_gis.errors import FieldMappingError, InputError
from wetland_gis.geometry.crs import to_working_crs
from wetland_gis.io.fields import match_columns
from wetland_gis.io.values import is_blank, parse_id, parse_number

#: Columns of the candidate sites layer: required, then optional.
SITE_FIELDS = ("site_id", "action", "circ39", "credit_ac")
SITE_OPTIONAL = ("cost_usd", "in_advance")


def _number(value: Any) -> float | None:
    """Return a site's number, or None when it is blank or not a number."""
    return parse_number(value, errors="coerce")


def prepare_sites(sites: gpd.GeoDataFrame, *, source: str = "sites") -> gpd.GeoDataFrame:
    """Check and normalise the candidate replacement sites.

    Parameters
    ----------
    sites : GeoDataFrame
        Polygons with ``site_id``, ``action``, ``circ39``, ``credit_ac`` and optional
        ``cost_usd`` and ``in_advance`` (names matched case-insensitively).
    source : str
        Name used in messages.

    Returns
    -------
    GeoDataFrame
        In EPSG:26915, with the documented columns normalised (``credit_ac``, ``cost_usd``
        floats, ``cost_usd`` NaN when not given) and ``option_id`` = ``site_id``.

    Raises
    ------
    FieldMappingError
        A documented column is missing.
    InputError
        A site id is blank or repeated, ``credit_ac`` or ``cost_usd`` is not a
        non-negative number, or the layer has no CRS.
    """
    if sites.crs is None:
        raise InputError(f"{source} has no CRS: set it in QGIS (Layer > Set CRS) and save again")
    cols = match_columns(sites.columns, (*SITE_FIELDS, *SITE_OPTIONAL), {})
    missing = [f for f in SITE_FIELDS if f not in cols]
    if missing:
        raise FieldMappingError(
            f"{source}: the candidate sites lack column(s) {missing}; add them, named as in "
            "docs/data_schema.md (action and circ39 may be blank where unknown)"
        )
    out, _ = to_working_crs(sites.reset_index(drop=True), source=source)
    out = out.rename(columns={v: k for k, v in cols.items() if v != k}).copy()
    problems = []
    ids = [parse_id(v) for v in out["site_id"]]
    for n, value in enumerate(ids):
        if value is None:
            problems.append(f"row {n + 1}: site_id is blank")
    dup = sorted({v for v in ids if v is not None and ids.count(v) > 1})
    if dup:
        problems.append(f"site_id {dup} repeated: each site needs its own id")
    for name in ("credit_ac", "cost_usd"):
        if name not in out:
            out[name] = np.nan
            continue
        values = []
        for n, raw in enumerate(out[name]):
            number = _number(raw)
            if (number is None and not (name == "cost_usd" and is_blank(raw))) or (
                number is not None and number < 0
            ):
                problems.append(
                    f"row {n + 1} (site {ids[n]}): {name} {raw!r} is not a non-negative number"
                )
            values.append(np.nan if number is None else number)
        out[name] = np.asarray(values, dtype=float)
    if problems:
        raise InputError(f"{source}: " + "; ".join(problems[:20]))
    out["site_id"] = ids
    out["option_id"] = ids
    return out
