"""The facts the exemptions of § 103G.2241 and the road paragraph of § 103G.222 read.

:class:`ExemptionFacts` holds every condition of every clause as an optional value:
``None`` means unknown, and an unknown condition is never resolved in the applicant's
favour (the rule answers ``conditional`` and names the fact). Facts that only a person
can confirm (an approval, a permit, a finding) are **claims** (:data:`CLAIMS`): the
analyst makes them for a project with :class:`ExemptionClaims`, or an impact column
gives them; without the claim the answer is conditional.

:data:`FACT_COLUMNS` gives each fact its default impact-layer column name (ten
characters at most, so a shapefile keeps it); the facts shared with the engine use the
column names the impact layer already has, or that the context layers already write
(``incorporated``, ``calcareous_fen``; docs/data_schema.md). No reader is wired here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import numbers
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from wetland_gis.enums import WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt.model import optional_choice, optional_date, optional_flag
from wetland_gis.rules.spec import exemption_fact

#: Impact kinds (as the engine's ``impact_kind``); ``unknown`` reads as not known.
IMPACT_KINDS = frozenset(exemption_fact("impact_kind").choices)
#: Land uses (as the engine's ``land_use``, § 103G.005, subd. 2a, 14a).
LAND_USES = frozenset(exemption_fact("land_use").choices)
#: The land uses that are agricultural land (§ 103G.005, subd. 2a): pasture is too.
AGRICULTURAL_LAND = frozenset({"agricultural", "pasture"})
#: What may have created an incidental wetland, subd. 5 (1)-(3); ``other`` is anything else
#: (a naturally occurring wetland, or a cause outside the three clauses).
INCIDENTAL_CAUSES = frozenset(exemption_fact("created_by").choices)
#: The uses subd. 2(b)(2) prohibits for drained wetlands: platted lots; planned unit,
#: commercial or industrial developments; development with more than one residential unit
#: per 40 acres (``residential_density``).
PROHIBITED_LATER_USES = frozenset(
    {"platted_lots", "planned_unit", "commercial", "industrial", "residential_density"}
)
#: A later use of drained land (subd. 2(b), last sentence): a prohibited one, or
#: ``agricultural`` / ``other`` (a use clause (2) does not prohibit).
LATER_USES = frozenset(exemption_fact("later_use").choices)
#: Facts that are not impact-layer columns: the id and the areas the rules sum from the
#: impacts (the spec's ``computed`` facts).
MEASURED_FACTS = frozenset(
    {
        "impact_id",
        "impact_sqft",
        "project_sqft",
        "project_type_2_6_drained_sqft",
        "wetland_spoil_sqft",
    }
)
#: Facts of an event after the impact (the later conversion of land drained under subd.
#: 2(b)): none given means no conversion is recorded, not that one is unknown; the rule
#: then names the future event as a verify item. Once one is given the others are needed
#: (unknown: conditional). The one documented exception to "forgetting a fact never makes
#: an answer exempt" (docs/rules.md, "Readings chosen where the text is open").
LATER_EVENT_FACTS = ("later_use", "drainage_date", "later_use_date")


@dataclass(frozen=True, kw_only=True)
class ExemptionFacts:
    """The facts of one impact for the exemption rules; every one optional (None: unknown).

    Each field is a fact of the rule spec (:data:`wetland_gis.rules.spec.FACTS`, found by
    :func:`~wetland_gis.rules.spec.exemption_fact`): its doc line, default column, type and
    whether it is a claim are written there once, and listed in the generated tables of
    ``docs/rules.md`` ("The facts and their default columns") and ``docs/data_schema.md``.
    ``tests/test_rules_spec.py`` fails when a field has no spec entry of its type.

    Parameters
    ----------
    impact_id : hashable, optional
        The impact's id (reported only).
    **facts
        Every other field: one fact of the spec. ``wetland_type`` is a Circular 39 type
        1-8; ``impact_kind``, ``land_use``, ``later_use`` are one of the spec's choices;
        ``created_by`` a set of them; the ``*_date`` facts dates; the ``*_sqft`` and
        ``wetland_acres`` facts numbers; the year counts whole numbers; the rest flags.
        ``project_sqft``, ``project_type_2_6_drained_sqft`` and ``wetland_spoil_sqft`` are
        summed from the impacts by :func:`~wetland_gis.rules.exempt.decide_exemptions` when
        not given.
    """

    impact_id: Hashable | None = None
    wetland_type: int | None = None
    impact_kind: str | None = None
    impact_sqft: float | None = None
    project_sqft: float | None = None
    project_type_2_6_drained_sqft: float | None = None
    wetland_id: str | None = None
    wetland_spoil_sqft: float | None = None
    wetland_acres: float | None = None
    incorporated: bool | None = None
    land_use: str | None = None
    # binding exclusions, Minn. R. 8420.0420, subp. 1 B
    calcareous_fen: bool | None = None
    banked: bool | None = None
    used_for_replacement_credit: bool | None = None
    remainder_newly_qualifies: bool | None = None
    # subd. 1
    years_cropped_before_1991: int | None = None
    pasture_same_use: bool | None = None
    pasture_1991: bool | None = None
    bottomland_hardwood: bool | None = None
    normal_farming: bool | None = None
    soil_water_practice: bool | None = None
    swcd_approved_practice: bool | None = None
    aquaculture: bool | None = None
    buildings: bool | None = None
    corps_404_permit: bool | None = None
    wild_rice: bool | None = None
    swampbuster: bool | None = None
    agricultural_activity: bool | None = None
    # subd. 2
    drainage_benefits: bool | None = None
    system_expenditure: bool | None = None
    system_repaired: bool | None = None
    no_repair_required: bool | None = None
    drained_for_conversion: bool | None = None
    drainage_date: dt.date | None = None
    later_use: str | None = None
    later_use_date: dt.date | None = None
    drainage_maintenance: bool | None = None
    public_drainage_system: bool | None = None
    wetland_existence_years: int | None = None
    years_annual_crops: int | None = None
    years_rotation_or_fallow: int | None = None
    conservation_program: bool | None = None
    met_before_enrollment: bool | None = None
    # subd. 3
    federal_authorization: bool | None = None
    federal_rules_state_approved: bool | None = None
    # subd. 4
    restored_for_conservation: bool | None = None
    contract_right_to_drain: bool | None = None
    restored_by_landowner: bool | None = None
    restored_without_assistance: bool | None = None
    # subd. 5
    created_by: frozenset[str] | None = None
    # subd. 6
    utility_work: bool | None = None
    avoided_minimized: bool | None = None
    utility_operation: bool | None = None
    additional_intrusion: bool | None = None
    sewage_system_repair: bool | None = None
    utility_maintenance: bool | None = None
    emergency: bool | None = None
    utility_bmp: bool | None = None
    lgu_certification: bool | None = None
    # subd. 7
    silviculture_crossing: bool | None = None
    forest_road: bool | None = None
    limits_impact: bool | None = None
    dikes_ditches_tile: bool | None = None
    results_in_drainage: bool | None = None
    filling_avoided: bool | None = None
    # subd. 10
    wildlife_spoil: bool | None = None
    spoil_stabilized: bool | None = None
    no_listed_species_effect: bool | None = None
    swcd_habitat_certified: bool | None = None
    duck_blind: bool | None = None
    # § 103G.2364(b)
    irrigation_boom_fill: bool | None = None
    fill_impedes_drainage: bool | None = None

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or f.name == "impact_id":
                continue
            if f.type == "bool | None":
                optional_flag(value, f.name)
        if self.wetland_type is not None:
            try:
                if isinstance(self.wetland_type, bool):
                    raise ValueError(self.wetland_type)
                wtype = int(WetlandType(self.wetland_type))
            except (TypeError, ValueError):
                raise RulesInputError(
                    f"wetland_type must be a Circular 39 type "
                    f"({', '.join(str(int(t)) for t in WetlandType)}), got {self.wetland_type!r}"
                ) from None
            object.__setattr__(self, "wetland_type", wtype)
        optional_choice(self.impact_kind, IMPACT_KINDS, "impact_kind")
        optional_choice(self.land_use, LAND_USES, "land_use")
        optional_choice(self.later_use, LATER_USES, "later_use")
        for name in ("drainage_date", "later_use_date"):
            object.__setattr__(self, name, optional_date(getattr(self, name), name))
        if self.created_by is not None:
            causes = frozenset(self.created_by)
            bad = causes - INCIDENTAL_CAUSES
            if bad or not causes:
                raise RulesInputError(
                    f"created_by must be a non-empty set of {sorted(INCIDENTAL_CAUSES)}, "
                    f"got {sorted(self.created_by)!r}"
                )
            object.__setattr__(self, "created_by", causes)
        for name in (
            "impact_sqft",
            "project_sqft",
            "project_type_2_6_drained_sqft",
            "wetland_spoil_sqft",
            "wetland_acres",
        ):
            value = getattr(self, name)
            if value is None:
                continue
            number = float(value) if isinstance(value, numbers.Real) else None
            if isinstance(value, bool) or number is None or not 0 <= number < float("inf"):
                raise RulesInputError(f"{name} must be a finite number >= 0, got {value!r}")

    def with_claims(self, claims: ExemptionClaims | None) -> ExemptionFacts:
        """Return the facts with each unknown claim taken from the analyst's ``claims``.

        A fact the impact gives (True or False) is kept: an impact column outranks a
        project-wide claim.
        """
        if claims is None:
            return self
        given = {
            name: getattr(claims, name)
            for name in CLAIMS
            if getattr(self, name) is None and getattr(claims, name) is not None
        }
        return dataclasses.replace(self, **given) if given else self


@dataclass(frozen=True, kw_only=True)
class ExemptionClaims:
    """What the analyst claims for a whole project (each ``None``: not claimed).

    Each field is the claim fact of :class:`ExemptionFacts` of the same name; a claim
    fills the fact of every impact that does not give it (:meth:`ExemptionFacts.with_claims`).
    """

    swcd_approved_practice: bool | None = None
    corps_404_permit: bool | None = None
    swampbuster: bool | None = None
    met_before_enrollment: bool | None = None
    federal_authorization: bool | None = None
    federal_rules_state_approved: bool | None = None
    contract_right_to_drain: bool | None = None
    restored_without_assistance: bool | None = None
    avoided_minimized: bool | None = None
    utility_bmp: bool | None = None
    lgu_certification: bool | None = None
    limits_impact: bool | None = None
    filling_avoided: bool | None = None
    spoil_stabilized: bool | None = None
    no_listed_species_effect: bool | None = None
    swcd_habitat_certified: bool | None = None


#: The facts that only a person can confirm: claims (the spec's claim facts of the
#: exemptions, in the order of :class:`ExemptionFacts`; the fields of ExemptionClaims).
CLAIMS: tuple[str, ...] = tuple(
    f.name
    for f in dataclasses.fields(ExemptionFacts)
    if f.name not in MEASURED_FACTS and exemption_fact(f.name).claim
)

#: Default impact-layer column of each fact (from the spec, :data:`wetland_gis.rules.spec.
#: FACTS`). Facts the impact layer already reads keep their existing default names
#: (docs/data_schema.md).
FACT_COLUMNS: Mapping[str, str] = MappingProxyType(
    {
        f.name: exemption_fact(f.name).column
        for f in dataclasses.fields(ExemptionFacts)
        if f.name not in MEASURED_FACTS
    }
)
