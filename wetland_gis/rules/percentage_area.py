"""Percentage-area class of a county, watershed or bank service area.

Minn. Stat. § 103G.005 defines three classes by the share of presettlement wetland
acreage intact: a "greater than 80 percent area" (subd. 10b, with two extra conditions,
either of which suffices), a "50 to 80 percent area" (subd. 10a), and a "less than 50
percent area" (subd. 10h), which is also the catch-all for any area that is neither of
the others. Minn. R. 8420.0117, subp. 1 classifies every county by name; subp. 2 lets
the board reclassify a county or major watershed, wholly or partly.
"""

from __future__ import annotations

import datetime as dt
import difflib
from decimal import Decimal

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome, PercentageArea
from wetland_gis.errors import ParameterError, RulesInputError
from wetland_gis.names import normalise_county
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.facts import (
    PERCENT,
    Trace,
    check_area,
    class_words,
    exact,
    fmt_number,
    percentage_class_of,
)

#: Parameter keys of the county lists of Minn. R. 8420.0117, subp. 1, by class.
COUNTY_CLASS_KEYS: dict[PercentageArea, str] = {
    PercentageArea.GREATER_THAN_80: "percentage_area.counties.greater_than_80",
    PercentageArea.FROM_50_TO_80: "percentage_area.counties.from_50_to_80",
    PercentageArea.LESS_THAN_50: "percentage_area.counties.less_than_50",
}

_THRESHOLD = "percentage_area.thresholds."
#: The extra conditions of a greater than 80 percent area (subd. 10b), either of which
#: suffices: threshold key (under ``_THRESHOLD``) and what the share is of.
_EXTRA_CONDITIONS = (
    ("greater_than_80_wetland_share", "percent of the land area is wetland"),
    ("greater_than_80_public_land_share", "percent is state or federal land"),
)


def county_index(params: ParameterSet, day: dt.date) -> dict[str, tuple[str, PercentageArea]]:
    """Return ``{normalised name: (name as listed, class)}`` for every listed county.

    Raises
    ------
    ParameterError
        When a county is listed in more than one class.
    """
    index: dict[str, tuple[str, PercentageArea]] = {}
    for pct_class, key in COUNTY_CLASS_KEYS.items():
        for listed in params.value(key, day):
            norm = normalise_county(str(listed))
            if norm in index:
                raise ParameterError(
                    f"county {listed!r} is listed in both {index[norm][1].value} and "
                    f"{pct_class.value} in {params.source}; each county has one class "
                    "(Minn. R. 8420.0117, subp. 1)"
                )
            index[norm] = (str(listed), pct_class)
    return index


def lookup_county(name: str, params: ParameterSet, day: dt.date) -> tuple[str, PercentageArea]:
    """Return ``(county as listed, class)`` or raise a :class:`RulesInputError` with the fix."""
    index = county_index(params, day)
    norm = normalise_county(name)
    if norm in index:
        return index[norm]
    near = difflib.get_close_matches(norm, list(index))
    hint = f" Did you mean {', '.join(repr(index[n][0]) for n in near)}?" if near else ""
    raise RulesInputError(
        f"county {name!r} is not one of the {len(index)} Minnesota counties classified in "
        f"Minn. R. 8420.0117, subp. 1.{hint} Write the county name as listed (case, a "
        "trailing 'County' and 'St.'/'Saint' do not matter); for a place outside these "
        "counties, classify it with percentage_area_from_figures() or pass the class "
        "yourself."
    )


def percentage_area_from_figures(
    *,
    presettlement_wetland_acres: float,
    remaining_wetland_acres: float,
    land_area_acres: float,
    wetland_acres: float,
    public_land_acres: float,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Classify an area from its wetland figures (§ 103G.005, subd. 10a, 10b, 10h).

    Parameters
    ----------
    presettlement_wetland_acres : float
        Wetland acreage at statehood in 1858 (§ 103G.005, subd. 14c); ``> 0``.
    remaining_wetland_acres : float
        Presettlement wetland acreage still intact; at most the presettlement acreage.
    land_area_acres : float
        Current total land area; ``> 0``.
    wetland_acres : float
        Current wetland area, for the first extra condition of subd. 10b.
    public_land_acres : float
        Current state or federal land, for the second extra condition of subd. 10b.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is the :class:`PercentageArea`; ``amounts`` holds the three shares in
        percent.

    Notes
    -----
    A greater than 80 percent area needs 80 percent or more intact AND either 10 percent
    or more of the land area in wetland OR 50 percent or more in state or federal land.
    An area with 80 percent or more intact that meets neither extra condition is not a
    50 to 80 percent area either ("less than 80 percent"), so subd. 10h makes it a less
    than 50 percent area. Shares are computed exactly (no float rounding at a threshold).

    Examples
    --------
    >>> d = percentage_area_from_figures(presettlement_wetland_acres=100,
    ...     remaining_wetland_acres=85, land_area_acres=1000, wetland_acres=50,
    ...     public_land_acres=100, as_of="2024-01-01")
    >>> d.value.value
    'less_than_50_percent'
    """
    trace = Trace("percentage_area", params, as_of)
    pre = check_area(presettlement_wetland_acres, "presettlement_wetland_acres", positive=True)
    rem = check_area(remaining_wetland_acres, "remaining_wetland_acres")
    land = check_area(land_area_acres, "land_area_acres", positive=True)
    wet = check_area(wetland_acres, "wetland_acres")
    public = check_area(public_land_acres, "public_land_acres")
    _check_shares(pre, rem, land, wet, public)
    intact = exact(rem) / exact(pre) * PERCENT
    wet_share = exact(wet) / exact(land) * PERCENT
    public_share = exact(public) / exact(land) * PERCENT
    trace.amounts.update(
        intact_percent=float(intact),
        wetland_percent=float(wet_share),
        public_land_percent=float(public_share),
    )
    high = trace.passes(_THRESHOLD + "greater_than_80_intact", intact)
    cond_wet = trace.passes(_THRESHOLD + "greater_than_80_wetland_share", wet_share)
    cond_public = trace.passes(_THRESHOLD + "greater_than_80_public_land_share", public_share)
    mid = trace.passes(_THRESHOLD + "from_50_to_80_intact_min", intact) and trace.passes(
        _THRESHOLD + "from_50_to_80_intact_max", intact
    )
    said = f"{fmt_number(float(intact))} percent of the presettlement wetland acreage is intact"
    if high and (cond_wet or cond_public):
        result = _greater_than_80(trace, said, ((cond_wet, wet_share), (cond_public, public_share)))
    elif mid:
        trace.cite_key(_THRESHOLD + "from_50_to_80_intact_min")
        low = fmt_number(trace.value(_THRESHOLD + "from_50_to_80_intact_min"))
        top = fmt_number(trace.value(_THRESHOLD + "from_50_to_80_intact_max"))
        trace.because(f"{said}: at least {low} but less than {top}, a 50 to 80 percent area.")
        result = PercentageArea.FROM_50_TO_80
    else:
        result = _less_than_50(trace, said, high, wet_share, public_share)
    trace.check(
        "The classification of a county or watershed is made by the board "
        "(Minn. R. 8420.0117; Minn. Stat. § 103G.222, subd. 1(o)); these figures are a screen."
    )
    return trace.decide(Outcome.CLASSIFIED, result)


def _check_shares(pre: float, rem: float, land: float, wet: float, public: float) -> None:
    """Raise :class:`RulesInputError` on a share larger than the whole it is a share of."""
    if rem > pre:
        raise RulesInputError(
            f"remaining_wetland_acres ({rem}) is more than presettlement_wetland_acres ({pre}): "
            "the remaining figure is the presettlement acreage still intact"
        )
    for name, value in (("wetland_acres", wet), ("public_land_acres", public)):
        if value > land:
            raise RulesInputError(
                f"{name} ({value}) is more than land_area_acres ({land}); both are shares of "
                "the current total land area"
            )


def _greater_than_80(
    trace: Trace, said: str, conditions: tuple[tuple[bool, Decimal], ...]
) -> PercentageArea:
    """§ 103G.005, subd. 10b: 80 percent intact and either extra condition."""
    met = []
    for (cond, share), (name, words) in zip(conditions, _EXTRA_CONDITIONS, strict=True):
        if cond:
            key = _THRESHOLD + name
            met.append(
                f"{fmt_number(float(share))} {words} (at least {fmt_number(trace.value(key))})"
            )
            trace.cite(trace.citation(key))
    trace.cite_key(_THRESHOLD + "greater_than_80_intact")
    trace.because(
        f"{said} (at least "
        f"{fmt_number(trace.value(_THRESHOLD + 'greater_than_80_intact'))}) and "
        + " and ".join(met)
        + ": a greater than 80 percent area (either extra condition suffices)."
    )
    return PercentageArea.GREATER_THAN_80


def _less_than_50(
    trace: Trace, said: str, high: bool, wet_share: Decimal, public_share: Decimal
) -> PercentageArea:
    """§ 103G.005, subd. 10h: neither other class (80 percent intact alone included)."""
    trace.cite_clause("10h")
    if high:
        trace.cite_key(_THRESHOLD + "greater_than_80_intact")
        trace.because(
            f"{said}, but neither extra condition of subd. 10b is met "
            f"({fmt_number(float(wet_share))} percent wetland, "
            f"{fmt_number(float(public_share))} percent state or federal land), so it "
            "is not a greater than 80 percent area; nor is it a 50 to 80 percent area "
            "(it is not less than "
            f"{fmt_number(trace.value(_THRESHOLD + 'from_50_to_80_intact_max'))} percent "
            "intact), "
            "so subd. 10h makes it a less than 50 percent area."
        )
    else:
        trace.because(f"{said}: a less than 50 percent area.")
    return PercentageArea.LESS_THAN_50


def percentage_area_of_county(
    county: str,
    *,
    override: PercentageArea | None = None,
    override_citation: str | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the percentage-area class of a county (Minn. R. 8420.0117, subp. 1).

    Parameters
    ----------
    county : str
        County name. Case, whitespace, a trailing "County", "St." and "Saint" are ignored.
    override : PercentageArea, optional
        The class of a major watershed (or part of one) reclassified by the board under
        Minn. R. 8420.0117, subp. 2, where the impact lies in it. It wins over the county.
    override_citation : str, optional
        Where the reclassification comes from (e.g. the board order); cited.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is the :class:`PercentageArea`.

    Raises
    ------
    RulesInputError
        When the county is not one of the 87 listed; the message suggests near names.

    Examples
    --------
    >>> percentage_area_of_county("crow wing county", as_of="2024-01-01").value.value
    'greater_than_80_percent'
    """
    trace = Trace("percentage_area", params, as_of)
    listed, county_class = lookup_county(county, trace.params, trace.day)
    key = COUNTY_CLASS_KEYS[county_class]
    trace.value(key)
    if override is None:
        if override_citation is not None:
            raise RulesInputError(
                "override_citation was given without override; pass the reclassified "
                "PercentageArea as override="
            )
        trace.cite_key(key)
        trace.because(
            f"{listed} County is a {class_words(county_class)} by Minn. R. 8420.0117, subp. 1."
        )
        trace.check(
            "Whether the impact lies in a major watershed (or part of one) that the board "
            "has reclassified (Minn. R. 8420.0117, subp. 2); if so, pass override=."
        )
        return trace.decide(Outcome.CLASSIFIED, county_class)

    result = percentage_class_of(override)
    trace.cite_clause("subp. 2", "1(o)")
    if override_citation:
        trace.cite(str(override_citation))
    trace.because(
        f"{listed} County is a {class_words(county_class)} by Minn. R. 8420.0117, subp. 1, "
        f"but the place lies in an area reclassified as a {class_words(result)} under "
        "subp. 2, and the reclassification wins."
    )
    if not override_citation:
        trace.check("The source of the reclassification (board order) was not given: confirm it.")
    return trace.decide(Outcome.CLASSIFIED, result)
