"""The law a county's name decides: its percentage-area class and whether it is metropolitan.

Minn. R. 8420.0117, subp. 1 lists every county by percentage-area class and Minn. Stat.
§ 103G.2241, subd. 9(d) names the 11 metropolitan counties; both lists are parameters
(``percentage_area.counties.*``, ``metropolitan_area.counties``). :func:`county_classes`
answers both questions for a county name as a county layer writes it, through the rules
core's :func:`~wetland_gis.rules.percentage_area.county_index` and
:func:`~wetland_gis.rules.metro.in_metropolitan_area`, so the geometry and the rules never
disagree. Plain values only: no geometry library is imported.
"""

from __future__ import annotations

import datetime as dt

from wetland_gis.enums import PercentageArea
from wetland_gis.names import normalise_county
from wetland_gis.parameters import ParameterSet, as_date, default_parameters
from wetland_gis.rules.metro import in_metropolitan_area
from wetland_gis.rules.percentage_area import county_index


def county_classes(
    name: object, params: ParameterSet | None = None, as_of: str | dt.date | None = None
) -> tuple[PercentageArea | None, bool | None]:
    """Return the percentage-area class and the metro flag of a county.

    The class comes from the three county lists of Minn. R. 8420.0117, subp. 1 and the
    flag from the 11-county list of Minn. Stat. § 103G.2241, subd. 9(d), both read from
    the parameters (``percentage_area.counties.*``, ``metropolitan_area.counties``) by
    the rules core's ``county_index`` and ``in_metropolitan_area``, so the geometry and
    the rules never disagree. The name is first matched to the spelling of
    the lists with :func:`wetland_gis.names.normalise_county`.

    Parameters
    ----------
    name : str
        County name as written in the county layer; matched without regard to case,
        full stops, hyphens, a trailing "County" or "Saint"/"St.".
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the lists are read for (default today).

    Returns
    -------
    (PercentageArea or None, bool or None)
        ``(None, None)`` for a name on no list (not a Minnesota county).

    Examples
    --------
    >>> county_classes("Wright", as_of="2024-05-01")
    (<PercentageArea.LESS_THAN_50: 'less_than_50_percent'>, True)
    """
    if not isinstance(name, str) or not name.strip():
        return None, None
    params = params if params is not None else default_parameters()
    day = as_date(as_of)
    found = county_index(params, day).get(normalise_county(name))
    if found is None:
        return None, None  # on no percentage-area list: not a Minnesota county name
    listed, pct = found
    return pct, bool(in_metropolitan_area(listed, params=params, as_of=day).value)
