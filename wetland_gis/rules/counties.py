"""The law a county's name decides: its percentage-area class and whether it is metropolitan.

Minn. R. 8420.0117, subp. 1 lists every county by percentage-area class and Minn. Stat.
§ 103G.2241, subd. 9(d) names the 11 metropolitan counties; both lists are parameters
(``percentage_area.counties.*``, ``metropolitan_area.counties``). :func:`county_classes`
answers both questions for a county name as a county layer writes it, through the rules
core's :func:`~wetland_gis.rules.percentage_area.percentage_area_of_county` and
:func:`~wetland_gis.rules.metro.in_metropolitan_area`, so the geometry and the rules never
disagree. Plain values only: no geometry library is imported.
"""

from __future__ import annotations

import datetime as dt

from wetland_gis.enums import PercentageArea
from wetland_gis.errors import RulesInputError
from wetland_gis.io.values import normalise_county
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.rules.metro import in_metropolitan_area
from wetland_gis.rules.percentage_area import percentage_area_of_county

__all__ = ["county_classes"]

_COUNTY_LIST_KEYS = (
    "percentage_area.counties.greater_than_80",
    "percentage_area.counties.from_50_to_80",
    "percentage_area.counties.less_than_50",
    "metropolitan_area.counties",
)


def _listed_county(name: str, params: ParameterSet, as_of: str | dt.date | None) -> str | None:
    """Return the county as the parameter lists spell it, or None when it is on no list."""
    key = normalise_county(name)
    for pkey in _COUNTY_LIST_KEYS:
        for listed in params.value(pkey, as_of):
            if normalise_county(str(listed)) == key:
                return str(listed)
    return None


def county_classes(
    name: object, params: ParameterSet | None = None, as_of: str | dt.date | None = None
) -> tuple[PercentageArea | None, bool | None]:
    """Return the percentage-area class and the metro flag of a county.

    The class comes from the three county lists of Minn. R. 8420.0117, subp. 1 and the
    flag from the 11-county list of Minn. Stat. § 103G.2241, subd. 9(d), both read from
    the parameters (``percentage_area.counties.*``, ``metropolitan_area.counties``) by
    the rules core's ``percentage_area_of_county`` and ``in_metropolitan_area``, so the
    geometry and the rules never disagree. The name is first matched to the spelling of
    the lists with :func:`wetland_gis.io.values.normalise_county`.

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
    listed = _listed_county(name, params, as_of)
    if listed is None:
        return None, None  # on no list: not a Minnesota county name
    try:
        pct = percentage_area_of_county(listed, params=params, as_of=as_of).value
        metro = in_metropolitan_area(listed, params=params, as_of=as_of).value
    except RulesInputError:  # on the metro list but not a percentage-area list
        return None, None
    return PercentageArea(pct), bool(metro)
