"""Restrictions on a new or modified permit: Minn. Stat. § 103G.271, subd. 4a to 5b.

One rule per subdivision, each a public :class:`~wetland_gis.water_use.framework.WaterRule`:
the Mt. Simon-Hinckley aquifer (subd. 4a), bulk transport or sale (4b, 2025 edition only),
once-through systems (5), surface water levels (5a) and large data centers (5b, 2025).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wetland_gis.rules.facts import fmt_number
from wetland_gis.rules.percentage_area import normalise_county
from wetland_gis.water_use.amounts import _gal
from wetland_gis.water_use.editions import cite_subd
from wetland_gis.water_use.facts import (
    _PUBLIC_SUPPLY_HOLDERS,
    _RETURNING_SYSTEMS,
    Appropriation,
    _any_false,
    _unknown,
)
from wetland_gis.water_use.framework import WaterOutcome, _Rec, _RuleCore, _water_rule, fmt_value

#: The verify item of an answer that turns on "the seven-county metropolitan area" (subd. 5a):
#: the area is defined by § 473.121, subd. 2, which is not held here; the tool uses the
#: county list of § 473.121, subd. 4 (``water_use.seven_county_area.counties``).
METROPOLITAN_AREA_CHECK = (
    "Whether the point is in the seven-county metropolitan area as § 473.121, subd. 2 "
    "defines the metropolitan area (not held here): wetland_gis reads it as the seven "
    "counties of § 473.121, subd. 4 (metropolitan county), a county list, not the area's "
    "own definition."
)


def _not_in_edition(rec: _Rec, prefix: str, provision: str) -> bool:
    """Return True, saying so, when the edition has no ``provision`` (``prefix + 'in_force'``)."""
    if rec.value(prefix + "in_force"):
        return False
    rec.because(f"This edition has no {provision}.")
    return True


def county_in_list(county: str, counties: Iterable[str]) -> bool:
    """Return whether ``county`` is one of ``counties``, as the county lists compare names.

    Names are compared as :func:`~wetland_gis.rules.percentage_area.normalise_county` reduces
    them (case, spaces, "County", "Saint" / "St."). The screening of a layer and the rules
    of subd. 4a and 5a answer "is this county listed" with this one function.

    Examples
    --------
    >>> county_in_list("St. Louis County", ["Saint Louis", "Lake"])
    True
    """
    listed = {normalise_county(str(c)) for c in counties}
    return normalise_county(county) in listed


def _in_counties(rec: _Rec, key: str, county: str | None) -> bool | None:
    """Return whether ``county`` is in the county list ``key`` (None: no county given)."""
    if county is None or not str(county).strip():
        return None
    return county_in_list(str(county), rec.value(key))


# --------------------------------------------------------------------------- subd. 4a


def _mt_simon_hinckley(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the Mt. Simon-Hinckley restriction on a new permit (subd. 4a).

    The 2018 edition restricts it in a metropolitan county (§ 473.121, subd. 4) only and
    also ends once-through permits there (4a(b)); the 2025 edition restricts it everywhere.
    """
    key = "water_use.mt_simon_hinckley.metropolitan_county_only"
    metro_only = rec.value(key)
    rec.ref(key)
    if a.source != "groundwater":
        rec.because("A surface water source is not the Mt. Simon-Hinckley aquifer.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.mt_simon_hinckley is False:
        rec.because("The appropriation is not from the Mt. Simon-Hinckley aquifer.")
        return WaterOutcome.NOT_APPLICABLE, None
    in_metro = None  # not asked where 4a applies everywhere
    if metro_only:
        in_metro = _metropolitan_county(a, rec)
        if in_metro is False:
            return WaterOutcome.NOT_APPLICABLE, None
    else:
        rec.because("In this edition subd. 4a applies everywhere in the state.")
    terminated = _once_through_termination(a, rec, in_metro)
    if terminated is not None:
        return terminated, None
    if not a.is_new_or_modified:
        rec.because("Subd. 4a restricts new permits; this is an existing permit.")
        return WaterOutcome.NOT_APPLICABLE, None
    county_unknown = metro_only and in_metro is None
    return _new_permit_conditions(a, rec, a.mt_simon_hinckley is None or county_unknown), None


def _metropolitan_county(a: Appropriation, rec: _Rec) -> bool | None:
    """Return whether the point is in a metropolitan county, where 4a applies (2018 edition).

    None: the county is not known (a verify item asks for it).
    """
    in_metro = _in_counties(rec, "water_use.metropolitan_county.counties", a.county)
    rec.ref("water_use.metropolitan_county.counties")
    if in_metro is False:
        rec.because(
            f"In this edition subd. 4a applies only in a metropolitan county "
            f"(§ 473.121, subd. 4); {a.county} County is not one."
        )
    if in_metro is None:
        rec.check(
            "The county of the point of appropriation (subd. 4a applies in a "
            "metropolitan county in this edition)."
        )
    return in_metro


def _once_through_termination(
    a: Appropriation, rec: _Rec, in_metro: bool | None
) -> WaterOutcome | None:
    """Return the subd. 4a(b) answer for a once-through system (2018), or None if none.

    Permits for once-through systems from the aquifer in a metropolitan county were to be
    terminated; an unknown aquifer or county is a question for a person, not a "does not
    apply".
    """
    terminate_key = "water_use.mt_simon_hinckley.once_through_termination_in_force"
    if a.once_through and rec.value(terminate_key) and in_metro and a.mt_simon_hinckley:
        by = rec.value("water_use.mt_simon_hinckley.once_through_terminated_by")
        rec.ref("water_use.mt_simon_hinckley.once_through_terminated_by")
        rec.because(
            f"Permits for once-through systems from the Mt. Simon-Hinckley aquifer in "
            f"a metropolitan county were to be terminated by {fmt_value(by)} "
            "(subd. 4a(b))."
        )
        return WaterOutcome.TERMINATE
    if (
        a.once_through
        and rec.value(terminate_key)
        and in_metro is not False  # mt_simon_hinckley False is not applicable
        and not (in_metro and a.mt_simon_hinckley)
    ):
        # subd. 4a(b) reaches existing once-through permits too: an unknown aquifer or
        # county is a question for a person, not a "does not apply"
        rec.because(
            "A once-through system: permits drawing from the Mt. Simon-Hinckley "
            "aquifer in a metropolitan county were to be terminated (subd. 4a(b)); "
            "whether this one does is not known."
        )
        rec.check(
            "Whether the well draws from the Mt. Simon-Hinckley aquifer, in a "
            "metropolitan county (§ 473.121, subd. 4)."
        )
        return WaterOutcome.VERIFY
    return None


def _new_permit_conditions(a: Appropriation, rec: _Rec, uncertain: bool) -> WaterOutcome:
    """Return whether a new permit from the aquifer may be issued (subd. 4a's conditions).

    ``uncertain``: whether the well draws from the aquifer, or the county where 4a applies
    only in a metropolitan county, is not known; the answer is then ``verify``.
    """
    if a.permit_action == "modified":
        rec.check("Whether the modification is a new permit for the purposes of subd. 4a.")
    conditions = (a.potable, a.no_feasible_alternative, a.conservation_plan)
    if a.mt_simon_hinckley is None:
        rec.check(
            "Whether the well draws from the Mt. Simon-Hinckley aquifer (no aquifer "
            "layer or column answered it)."
        )
    if _any_false(*conditions):
        missing = [
            name
            for name, v in zip(
                (
                    "potable water use",
                    "no feasible or practical alternative",
                    "a water conservation plan incorporated with the permit",
                ),
                conditions,
                strict=True,
            )
            if v is False
        ]
        rec.because(
            "A new permit from the Mt. Simon-Hinckley aquifer needs potable use, no "
            "feasible or practical alternative and a conservation plan; not met: "
            + ", ".join(missing)
            + "."
        )
        return WaterOutcome.VERIFY if uncertain else WaterOutcome.PROHIBITED
    if _unknown(*conditions):
        rec.because(
            "A new permit from the Mt. Simon-Hinckley aquifer may be issued only for "
            "potable use, with no feasible or practical alternative and a water "
            "conservation plan; not all of these are known."
        )
        rec.check("Potable use, no feasible or practical alternative, conservation plan.")
        return WaterOutcome.VERIFY
    rec.because(
        "Potable use, no feasible or practical alternative and a conservation plan "
        "are all stated: a new permit from the Mt. Simon-Hinckley aquifer may be "
        "issued."
    )
    rec.check("The DNR's finding that there is no feasible or practical alternative.")
    return WaterOutcome.VERIFY if uncertain else WaterOutcome.ALLOWED


mt_simon_hinckley = _water_rule(_mt_simon_hinckley)


# --------------------------------------------------------------------------- subd. 4b


def _bulk_sale(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the bulk transport or sale restriction (subd. 4b, 2025 edition only)."""
    b = "water_use.bulk_sale."
    if _not_in_edition(rec, b, "subd. 4b (bulk transport or sale)"):
        return WaterOutcome.NOT_APPLICABLE, None
    rec.ref(b + "annual_gallons")
    if not a.is_new_or_modified:
        rec.because("Subd. 4b restricts new permits; this is an existing permit.")
        return WaterOutcome.NOT_APPLICABLE, None
    limit = rec.value(b + "annual_gallons")
    if a.annual_gallons is not None and not rec.passes(b + "annual_gallons", a.annual_gallons):
        rec.because(f"{_gal(a.annual_gallons)} a year is not in excess of {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.bulk_sale is False:
        rec.because("The water is not for bulk transport or sale for consumptive use.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.bulk_sale is None:
        rec.because(
            f"Over {_gal(limit)} a year and it is not stated whether the water is for "
            "bulk transport or sale."
        )
        rec.check("Whether the water is for bulk transport or sale for consumptive use (subd. 4b).")
        return WaterOutcome.VERIFY, None
    miles = rec.value(b + "distance_miles")
    if a.destination_miles is None:
        rec.because(
            "Bulk transport or sale, but the destination is not given, so the "
            "distance cannot be measured."
        )
        rec.check("The destination of the water (a point), to measure the geodesic distance.")
        return WaterOutcome.VERIFY, None
    rec.amounts["destination_miles"] = float(a.destination_miles)
    if not rec.passes(b + "distance_miles", a.destination_miles):
        rec.because(
            f"The destination is {fmt_number(round(a.destination_miles, 1))} miles "
            f"from the point of appropriation (geodesic), not more than "
            f"{fmt_number(miles)} miles."
        )
        rec.check("That the water is used at the destination given.")
        return WaterOutcome.ALLOWED, None
    rec.because(
        f"Bulk transport or sale of {_gal(a.annual_gallons or 0)} a year to a location "
        f"{fmt_number(round(a.destination_miles, 1))} miles away (geodesic), more than "
        f"{fmt_number(miles)} miles: a new permit may not be issued unless the public "
        "water supply exception of subd. 4b(b) applies."
    )
    return _public_supply_exception(a, rec, a.destination_miles), None


def _public_supply_exception(a: Appropriation, rec: _Rec, destination_miles: float) -> WaterOutcome:
    """Return whether the public water supply exception of subd. 4b(b) lets a permit issue.

    ``destination_miles``: the geodesic miles to the destination, which stands for the
    communities that will use the water.
    """
    b = "water_use.bulk_sale."
    rec.ref(b + "public_supply_miles")
    holder = a.entity_type in _PUBLIC_SUPPLY_HOLDERS
    within = rec.passes(b + "public_supply_miles", destination_miles)
    conditions = (
        a.public_water_supply,
        a.solely_public_supply,
        a.property_interest,
        a.supply_requirements_met,
    )
    if a.public_water_supply is False or not holder:
        rec.because(
            "The permit is not for a public water supply issued to a local unit of "
            "government, rural water district or Tribal unit of government."
        )
        return WaterOutcome.PROHIBITED
    if not within:
        rec.because(
            f"The communities are more than "
            f"{fmt_value(rec.value(b + 'public_supply_miles'))} miles away: "
            "the exception of subd. 4b(b)(3) does not apply."
        )
        return WaterOutcome.PROHIBITED
    if _any_false(*conditions):
        rec.because("A condition of subd. 4b(b)(1), (2) or (4) is not met.")
        return WaterOutcome.PROHIBITED
    rec.check("Public water supply as defined in § 144.382, subd. 4 (not held here).")
    if _unknown(*conditions):
        rec.because("Within the exception's distance; not every condition of subd. 4b(b) is known.")
        rec.check(
            "Use solely for the public water supply; a property interest at the point "
            "of appropriation; §§ 103G.265, 103G.285 and 103G.287 met."
        )
        return WaterOutcome.VERIFY
    rec.because(
        "The public water supply exception of subd. 4b(b) applies: every condition "
        "is stated and the communities are within its distance."
    )
    return WaterOutcome.ALLOWED


bulk_sale = _water_rule(_bulk_sale)


# --------------------------------------------------------------------------- subd. 5


def _once_through(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the once-through system restrictions (subd. 5(a)-(c))."""
    o = "water_use.once_through."
    if a.once_through is None:
        rec.because("Not a once-through system.")
        rec.cite(cite_subd("5"))
        return WaterOutcome.NOT_APPLICABLE, None
    if a.once_through in _RETURNING_SYSTEMS and a.returns_all_water is not False:
        rec.cite(cite_subd("5(c)"))
        rec.because(
            "A groundwater thermal exchange device or aquifer storage and recovery "
            "system that returns all once-through water to the source aquifer may be "
            "permitted on an annual basis with the approval of the commissioners of "
            "health and the Pollution Control Agency; the fees of subd. 6(a) apply."
        )
        rec.check("The approval of the commissioners of health and the Pollution Control Agency.")
        if a.returns_all_water is None:
            rec.check("That all once-through water is returned to the source aquifer.")
            return WaterOutcome.VERIFY, None
        if a.health_pca_approval is False:
            return WaterOutcome.PROHIBITED, None
        return WaterOutcome.CONDITIONS, None
    if a.once_through == "cooling" and a.source == "groundwater" and a.is_new_or_modified:
        rec.cite(cite_subd("5(a)"))
        if a.increase_volume is True or a.permit_action == "new":
            rec.because(
                "A permit may not be issued to increase the volume of appropriation "
                "from a groundwater source for a once-through cooling system."
            )
            return WaterOutcome.PROHIBITED, None
        if a.increase_volume is None:
            rec.check("Whether the modification increases the volume from groundwater.")
    if a.annual_gallons is None:
        rec.check("The annual amount of the once-through system.")
        return WaterOutcome.VERIFY, None
    rec.ref(o + "termination_gallons")
    limit = rec.value(o + "termination_gallons")
    if rec.passes(o + "termination_gallons", a.annual_gallons):
        preserve = rec.value(o + "nature_preserve_before")
        if a.nature_preserve_discharge is True:
            rec.because(
                f"Over {_gal(limit)} a year, but the discharge is into a public water "
                f"basin within a nature preserve established before "
                f"{fmt_value(preserve)}."
            )
            rec.check("The nature preserve's approval and establishment date.")
            return WaterOutcome.ALLOWED, None
        rec.because(
            f"A once-through system using {_gal(a.annual_gallons)} a year, in excess "
            f"of {_gal(limit)}: the permit must be terminated."
        )
        if a.nature_preserve_discharge is None:
            rec.check(
                f"Whether the discharge is into a public water basin within a nature "
                f"preserve established before {fmt_value(preserve)}."
            )
        return WaterOutcome.TERMINATE, None
    before = rec.value(o + "existing_system_before")
    rec.ref(o + "existing_system_gallons")
    rec.because(
        "Existing once-through systems must not be expanded and must convert to "
        "water efficient alternatives within the design life of existing equipment."
    )
    if a.existing_system is True:
        rec.because(
            f"A system in existence before {fmt_value(before)} may be permitted for "
            f"up to {_gal(rec.value(o + 'existing_system_gallons'))} a year."
        )
        return WaterOutcome.CONDITIONS, None
    rec.because(
        f"Subd. 5(b) provides for a permit only for a system in existence before "
        f"{fmt_value(before)}."
    )
    rec.check(f"Whether the system was in existence before {fmt_value(before)}.")
    return WaterOutcome.VERIFY, None


once_through = _water_rule(_once_through)


# --------------------------------------------------------------------------- subd. 5a, 5b


def _surface_water_levels(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the surface water level maintenance restriction (subd. 5a)."""
    key = "water_use.surface_water_levels.annual_gallons"
    rec.ref(key)
    if a.use != "surface_water_level":
        rec.because("The primary purpose is not maintaining or increasing surface water levels.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.source != "groundwater":
        rec.because("Subd. 5a concerns groundwater; the source is surface water.")
        return WaterOutcome.NOT_APPLICABLE, None
    limit = rec.value(key)
    if a.annual_gallons is None:
        rec.check("The annual amount.")
        return WaterOutcome.VERIFY, None
    if not rec.passes(key, a.annual_gallons):
        rec.because(f"{_gal(a.annual_gallons)} a year is not in excess of {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    in_area = _in_counties(rec, "water_use.seven_county_area.counties", a.county)
    rec.ref("water_use.seven_county_area.counties")
    # subd. 5a speaks of the metropolitan *area*, not of a metropolitan county (4a, 2018):
    # whenever the answer turns on the area, say that the county list stands in for it
    if in_area is not False or a.area_of_concern is not True:
        rec.check(METROPOLITAN_AREA_CHECK)
    if in_area or a.area_of_concern is True:
        where = (
            "in the seven-county metropolitan area"
            if in_area
            else "in an area of concern determined by the commissioner"
        )
        rec.because(
            f"Groundwater in excess of {_gal(limit)} a year to maintain or increase "
            f"surface water levels {where}: existing permits are revoked and new "
            "permits may not be issued."
        )
        if a.nature_preserve_discharge is True:
            rec.because("The subd. 5(b) exception (discharge into a nature preserve) is stated.")
            rec.check("Whether the subd. 5(b) exception applies.")
            return WaterOutcome.VERIFY, None
        return WaterOutcome.PROHIBITED, None
    if in_area is None or a.area_of_concern is None:
        rec.because(
            f"Groundwater in excess of {_gal(limit)} a year to maintain surface water "
            "levels; whether the place is in the seven-county metropolitan area or an "
            "area of concern is not known."
        )
        rec.check("Whether the commissioner has determined the place an area of concern.")
        return WaterOutcome.VERIFY, None
    rec.because("Outside the seven-county metropolitan area and not in an area of concern.")
    return WaterOutcome.NOT_APPLICABLE, None


surface_water_levels = _water_rule(_surface_water_levels)


def _data_center(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the permit conditions for large data center appropriations (subd. 5b, 2025)."""
    d = "water_use.data_center."
    if _not_in_edition(rec, d, "subd. 5b (data centers)"):
        rec.cite(cite_subd("5b"))
        return WaterOutcome.NOT_APPLICABLE, None
    key = d + "annual_gallons"
    rec.ref(key)
    limit = rec.value(key)
    over = a.annual_gallons is None or rec.passes(key, a.annual_gallons)
    if not over:
        rec.because(f"{_gal(a.annual_gallons or 0)} a year does not exceed {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    applicant = a.data_center is True and a.is_new_or_modified
    supplier = a.supplies_data_center is True and a.permit_action == "existing"
    conditions = (
        "the department must ensure that public health, safety and welfare are protected; that "
        "water conservation, efficient use and watershed health measures are reasonably "
        "considered; and that water use conflicts are addressed as prescribed in Minn. R. "
        "6115.0740 (subd. 5b(a)(1)-(3)); the commissioner may require an aquifer test "
        "(subd. 5b(b))."
    )
    if applicant or supplier:
        who = (
            "A data center applicant"
            if applicant
            else "An existing permittee supplying a data center"
        )
        rec.because(f"{who} with more than {_gal(limit)} a year: {conditions}")
        rec.check("Data center as defined in § 216B.02, subd. 11 (not held here).")
        rec.check("That the amount compared is the new or additional consumptive use.")
        return WaterOutcome.CONDITIONS, None
    # the fact the paragraph turns on: for a new or modified permit whether the applicant is
    # a data center, for an existing permit whether it supplies one; unknown is never "no"
    relevant = (
        a.data_center
        if a.is_new_or_modified
        else a.supplies_data_center
        if a.permit_action == "existing"
        else None
    )
    if relevant is None:
        rec.because(
            f"More than {_gal(limit)} a year and it is not stated whether "
            + (
                "the applicant is a data center."
                if a.is_new_or_modified
                else "the permittee intends to provide the water to a data center."
                if a.permit_action == "existing"
                else "a data center is involved (the permit action is not known)."
            )
        )
        rec.check("Whether the applicant is, or supplies, a data center (§ 216B.02, subd. 11).")
        return WaterOutcome.VERIFY, None
    rec.because("No data center is involved.")
    return WaterOutcome.NOT_APPLICABLE, None


data_center = _water_rule(_data_center)


#: The restriction rules, in the order a permit's decisions list them.
_RESTRICTIONS: tuple[tuple[str, _RuleCore], ...] = (
    ("mt_simon_hinckley", _mt_simon_hinckley),
    ("bulk_sale", _bulk_sale),
    ("once_through", _once_through),
    ("surface_water_levels", _surface_water_levels),
    ("data_center", _data_center),
)
