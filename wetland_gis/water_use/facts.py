"""The plain facts of an appropriation, the choices they are read from, and the readings.

:class:`Appropriation` holds the facts of one permit or source of appropriation as plain
values (``None`` = unknown); :class:`FeeReadings` names the readings of the fee schedule
where the statute leaves room. Both check their values when built
(:class:`~wetland_gis.errors.RulesInputError`).
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wetland_gis.errors import RulesInputError
from wetland_gis.rules.facts import check_area, check_choice

#: Month names, January first, as the parameter tree and the input columns write them.
MONTHS: tuple[str, ...] = tuple(name.lower() for name in calendar.month_name[1:])

#: Uses understood (column ``use``).
USES = (
    "domestic",
    "municipal",
    "agricultural_irrigation",
    "golf_course_irrigation",
    "landscape_irrigation",
    "industrial",
    "commercial",
    "dewatering",
    "hydropower",
    "cogeneration",
    "flood_control",
    "stormwater",
    "water_quality_treatment",
    "surface_water_level",
    "other",
)
# subd. 4b(b): "a local unit of government, rural water district ... or Tribal unit of government"
_LOCAL_UNITS = (
    "municipality",
    "city_first_class",
    "county",
    "local_government",
    "rural_water_district",
    "tribal_government",
)
_AGENCY_TYPES = ("state_agency", "federal_agency")
#: Entity types understood (column ``entity_type``).
ENTITY_TYPES = (
    "person",
    "business",
    "nonprofit",
    "school_district",
    *_LOCAL_UNITS,
    *_AGENCY_TYPES,
    "other",
)
#: Sources (column ``source``).
SOURCES = ("groundwater", "surface")
#: What the application is for (column ``permit_action``).
PERMIT_ACTIONS = ("new", "modified", "existing")
#: Kinds of once-through system (column ``once_through``; blank = not once-through).
ONCE_THROUGH_KINDS = ("cooling", "other", "thermal_exchange", "aquifer_storage_recovery")

_AGENCIES = frozenset(_AGENCY_TYPES)
_PUBLIC = frozenset({*_LOCAL_UNITS, *_AGENCY_TYPES, "school_district"})
_PUBLIC_SUPPLY_HOLDERS = frozenset(_LOCAL_UNITS)
_NONPROFIT_RATE = frozenset({"nonprofit", "school_district"})
_RETURNING_SYSTEMS = frozenset({"thermal_exchange", "aquifer_storage_recovery"})
_NEW_OR_MODIFIED = frozenset({"new", "modified"})

#: Readings of a fee amount exactly at a boundary of subd. 6(a) that is in no clause.
#: ``next_clause`` (default): the rate of the clause above the boundary, the higher one, so an
#: unknown is not resolved in the permittee's favour. ``previous_clause``: the rate below.
BOUNDARY_READINGS = ("next_clause", "previous_clause")
#: Readings of the agricultural irrigation minimum of subd. 6(f), default first.
#: ``paragraph_f`` (default): 6(a) applies "except as described in paragraphs (b) to (g)", so in
#: an (f) year the (f) amount is the fee in place of the flat clause (1) fee and the (c)
#: minimum; a rate clause (2)-(11) above it still applies. ``floor``: the (f) amount is only a
#: floor under the clause fee of (a) (which then never changes a fee: clause (1) is flat and
#: above it). ``fee_is_minimum``: in such a year the fee is the (f) amount whatever the amount.
#: docs/water_use.md ("Readings") says why the default gives a smaller fee than ``floor``.
IRRIGATION_MINIMUM_READINGS = ("paragraph_f", "floor", "fee_is_minimum")


@dataclass(frozen=True)
class Appropriation:
    """The plain facts of one permit or source of appropriation.

    ``None`` means unknown for every fact the law leaves to a person; an unknown fact
    is never resolved in the permittee's favour (the decision says what to verify).

    Parameters
    ----------
    permit_id : str
        Permit or source id.
    entity, entity_type : str
        Who holds the permit, and its kind (:data:`ENTITY_TYPES`).
    use : str
        :data:`USES`.
    source : str
        ``groundwater`` or ``surface``.
    annual_gallons, gallons_per_day : float or None
        Amount appropriated in the year, and the largest daily amount.
    monthly_gallons : tuple of 12 floats or None
        Volumes January to December (subd. 6(h) surcharge).
    permits_held : int or None
        Permits the entity holds (subd. 6(d)(2)); hydropower permits do not count.
    permit_action : str
        ``new``, ``modified`` or ``existing`` (:data:`PERMIT_ACTIONS`).
    county : str or None
        County of the point of appropriation (from the county layer).
    mt_simon_hinckley : bool or None
        Whether the appropriation is from the Mt. Simon-Hinckley aquifer.
    destination_miles : float or None
        Geodesic miles from the point of appropriation to the bulk-sale destination.
    once_through : str or None
        Kind of once-through system (:data:`ONCE_THROUGH_KINDS`), ``None`` if not one.
    distribution_system : str or None
        Common distribution system id (surcharge of a municipality with several permits).
    persons_served, irrigation_suspended_days : float or None
        Subd. 1(b)(1) persons; subd. 6(f)(2) longest suspension in the window, days.
    other flags : bool or None
        The facts named in docs/water_use.md ("Input columns").
    """

    permit_id: str
    entity: str = ""
    entity_type: str = "other"
    use: str = "other"
    source: str = "groundwater"
    annual_gallons: float | None = None
    gallons_per_day: float | None = None
    monthly_gallons: tuple[float, ...] | None = None
    permits_held: int | None = None
    permit_action: str = "new"
    county: str | None = None
    mt_simon_hinckley: bool | None = None
    destination_miles: float | None = None
    once_through: str | None = None
    distribution_system: str | None = None
    persons_served: float | None = None
    irrigation_suspended_days: float | None = None
    general_permit: bool = False
    hydro_structure_existing: bool | None = None
    nonconsumptive: bool | None = None
    stormwater_facility: bool | None = None
    local_permit: bool | None = None
    commissioner_requires: bool | None = None
    potable: bool | None = None
    no_feasible_alternative: bool | None = None
    conservation_plan: bool | None = None
    bulk_sale: bool | None = None
    public_water_supply: bool | None = None
    solely_public_supply: bool | None = None
    property_interest: bool | None = None
    supply_requirements_met: bool | None = None
    increase_volume: bool | None = None
    nature_preserve_discharge: bool | None = None
    existing_system: bool | None = None
    returns_all_water: bool | None = None
    health_pca_approval: bool | None = None
    area_of_concern: bool | None = None
    data_center: bool | None = None
    supplies_data_center: bool | None = None
    returns_to_source: bool | None = None

    def __post_init__(self) -> None:
        _check_choice(self.entity_type, ENTITY_TYPES, "entity_type", self.permit_id)
        _check_choice(self.use, USES, "use", self.permit_id)
        _check_choice(self.source, SOURCES, "source", self.permit_id)
        _check_choice(self.permit_action, PERMIT_ACTIONS, "permit_action", self.permit_id)
        if self.once_through is not None:
            _check_choice(self.once_through, ONCE_THROUGH_KINDS, "once_through", self.permit_id)
        for name in (
            "annual_gallons",
            "gallons_per_day",
            "destination_miles",
            "persons_served",
            "irrigation_suspended_days",
        ):
            _check_amount(getattr(self, name), name, self.permit_id)
        if self.monthly_gallons is not None:
            months = tuple(self.monthly_gallons)
            if len(months) != len(MONTHS):
                raise RulesInputError(
                    f"permit {self.permit_id!r}: monthly_gallons needs {len(MONTHS)} volumes "
                    f"(January to December), got {len(months)}"
                )
            for i, v in enumerate(months):
                _check_amount(v, f"monthly_gallons[{MONTHS[i]}]", self.permit_id)
            object.__setattr__(self, "monthly_gallons", months)
        if self.permits_held is not None and (
            isinstance(self.permits_held, bool)
            or int(self.permits_held) != self.permits_held
            or self.permits_held < 1
        ):
            raise RulesInputError(
                f"permit {self.permit_id!r}: permits_held must be a whole number 1 or more, "
                f"got {self.permits_held!r}"
            )

    @property
    def is_new_or_modified(self) -> bool:
        """Whether the application is for a new or modified permit."""
        return self.permit_action in _NEW_OR_MODIFIED

    def facts(self) -> dict[str, Any]:
        """Return the facts as a JSON-ready dict (the ``inputs`` of a decision)."""
        out = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


def _check_choice(value: Any, allowed: Sequence[str], name: str, pid: str) -> None:
    if value not in allowed:
        raise RulesInputError(f"permit {pid!r}: {name} {value!r} is not one of {list(allowed)}")


def _check_amount(value: Any, name: str, pid: str) -> None:
    if value is not None:
        check_area(value, f"permit {pid!r}: {name}")


@dataclass(frozen=True)
class FeeReadings:
    """The named readings the fee computation uses where the statute leaves room.

    Parameters
    ----------
    boundary : str
        :data:`BOUNDARY_READINGS` (default ``next_clause``).
    irrigation_minimum : str
        :data:`IRRIGATION_MINIMUM_READINGS` (default ``paragraph_f``).
    """

    boundary: str = "next_clause"
    irrigation_minimum: str = "paragraph_f"

    def __post_init__(self) -> None:
        check_choice(self.boundary, BOUNDARY_READINGS, "boundary reading")
        check_choice(
            self.irrigation_minimum, IRRIGATION_MINIMUM_READINGS, "irrigation minimum reading"
        )


# --------------------------------------------------------------------------- unknown facts


def _unknown(*values: bool | None) -> bool:
    """Return whether any of the facts is unknown (``None``)."""
    return any(v is None for v in values)


def _all_true(*values: bool | None) -> bool:
    """Return whether every fact is stated true (an unknown one is not)."""
    return all(v is True for v in values)


def _any_false(*values: bool | None) -> bool:
    """Return whether any fact is stated false (an unknown one is not)."""
    return any(v is False for v in values)
