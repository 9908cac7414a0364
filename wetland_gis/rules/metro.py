"""The 11-county metropolitan area of the de minimis exemption (§ 103G.2241, subd. 9(d)).

Not the seven-county metropolitan area of § 103G.005, subd. 10i (local government
units), which leaves out Chisago, Isanti, Sherburne and Wright.
"""

from __future__ import annotations

import datetime as dt

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.facts import Trace
from wetland_gis.rules.percentage_area import lookup_county, normalise_county

#: Parameter key of the county list of § 103G.2241, subd. 9(d).
METRO_KEY = "metropolitan_area.counties"


def in_metropolitan_area(
    county: str,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether a county is in the 11-county metropolitan area.

    Parameters
    ----------
    county : str
        County name; case, whitespace, a trailing "County", "St." and "Saint" are ignored.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is ``True`` or ``False``.

    Raises
    ------
    RulesInputError
        When the county is not one of Minnesota's 87 counties (the message suggests names).

    Notes
    -----
    The list is that of § 103G.2241, subd. 9(d), used only for the de minimis amounts.

    Examples
    --------
    >>> in_metropolitan_area("Wright County", as_of="2024-01-01").value
    True
    """
    trace = Trace("in_metropolitan_area", params, as_of)
    listed, _ = lookup_county(county, trace.params, trace.day)
    metro = {normalise_county(str(c)) for c in trace.value(METRO_KEY)}
    inside = normalise_county(listed) in metro
    trace.cite_key(METRO_KEY)
    if inside:
        trace.because(
            f"{listed} County is one of the counties of the 11-county metropolitan area "
            "listed in § 103G.2241, subd. 9(d)."
        )
    else:
        trace.because(
            f"{listed} County is not in the 11-county metropolitan area of § 103G.2241, subd. 9(d)."
        )
    return trace.decide(Outcome.CLASSIFIED, inside)
