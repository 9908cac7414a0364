"""Enumerations of the legal categories the rules core works with.

Enums, not bare strings: a misspelt zone or class fails at once. Each member's
value is the stable string written to output files.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class WetlandType(IntEnum):
    """Circular 39 wetland type, Minn. Stat. § 103G.005, subd. 17b.

    White cedar and tamarack wetlands are not a type of their own: they are a
    flag carried beside the type (§ 103G.2241, subd. 9).
    """

    TYPE_1 = 1
    TYPE_2 = 2
    TYPE_3 = 3
    TYPE_4 = 4
    TYPE_5 = 5
    TYPE_6 = 6
    TYPE_7 = 7
    TYPE_8 = 8

    @property
    def label(self) -> str:
        """Return the type as people write it, e.g. ``"Type 3"``."""
        return f"Type {int(self)}"


class ShorelandZone(str, Enum):
    """Where an impact lies relative to public waters (§ 103G.2241, subd. 9(a)-(c)).

    ``BUILDING_SETBACK`` is the shoreland building setback zone of the local
    shoreland ordinance (subd. 9(c)); ``PROTECTION`` is the shoreland wetland
    protection zone of § 103G.005, subd. 15f, beyond the setback (subd. 9(b));
    ``OUTSIDE`` is outside the shoreland wetland protection zone (subd. 9(a), (d)).
    """

    BUILDING_SETBACK = "building_setback_zone"
    PROTECTION = "shoreland_wetland_protection_zone"
    OUTSIDE = "outside_shoreland_wetland_protection_zone"


class PercentageArea(str, Enum):
    """Presettlement wetland percentage area, § 103G.005, subd. 10a, 10b, 10h."""

    GREATER_THAN_80 = "greater_than_80_percent"
    FROM_50_TO_80 = "50_to_80_percent"
    LESS_THAN_50 = "less_than_50_percent"


class Outcome(str, Enum):
    """Outcome of one decision of the rules core."""

    EXEMPT = "exempt"
    NOT_EXEMPT = "not_exempt"
    ELIGIBLE = "eligible"
    NOT_ELIGIBLE = "not_eligible"
    REQUIRED = "required"
    NOT_REQUIRED = "not_required"
    PROHIBITED = "prohibited"
    OUT_OF_SCOPE = "out_of_scope"
    CLASSIFIED = "classified"
    RANKED = "ranked"
    EXCLUDED = "excluded"
    NOT_ASSESSED = "not_assessed"
    CONDITIONAL = "conditional"
    REGULATED = "regulated"
    NOT_REGULATED = "not_regulated"
    NOT_APPLIED = "not_applied"


class ImpactOutcome(str, Enum):
    """The headline outcome of one impact polygon, as shown on maps and in reports.

    ``DE_MINIMIS_CONDITIONAL`` is exempt only if a fact the data does not give holds (the
    landowner owns the entire wetland, § 103G.2241, subd. 9(f)); the trace names it.
    ``NOT_A_DRAIN_OR_FILL`` is an excavation outside the permanently and semipermanently
    flooded areas of types 3, 4 and 5 (§ 103G.222, subd. 1(a)). ``OUT_OF_WCA_SCOPE`` is
    kept for files written before public waters wetlands were decided as replacement
    required (issue 13); the engine no longer returns it. ``EXEMPT`` and
    ``EXEMPT_CONDITIONAL`` are exempt (or exempt only if an unknown fact holds) under one
    exemption of § 103G.2241 other than de minimis that carries the whole project
    (``ImpactDecision.exemptions`` names it).
    """

    DE_MINIMIS_EXEMPT = "de_minimis_exempt"
    DE_MINIMIS_CONDITIONAL = "de_minimis_conditional"
    EXEMPT = "exempt"
    EXEMPT_CONDITIONAL = "exempt_conditional"
    REPLACEMENT_REQUIRED = "replacement_required"
    PROHIBITED = "prohibited"
    NOT_A_DRAIN_OR_FILL = "not_a_drain_or_fill"
    OUT_OF_WCA_SCOPE = "out_of_wca_scope"
    NOT_ASSESSED = "not_assessed"


class ProjectOutcome(str, Enum):
    """The headline outcome of a project (:func:`wetland_gis.rules.decide_project`).

    ``EXEMPT`` and ``EXEMPT_CONDITIONAL``: one exemption of § 103G.2241 other than de
    minimis carries the project (``ProjectDecision.exemption`` names it).
    """

    DE_MINIMIS_EXEMPT = "de_minimis_exempt"
    DE_MINIMIS_CONDITIONAL = "de_minimis_conditional"
    EXEMPT = "exempt"
    EXEMPT_CONDITIONAL = "exempt_conditional"
    REPLACEMENT_REQUIRED = "replacement_required"
    PROHIBITED = "prohibited"
    NO_DRAIN_OR_FILL = "no_drain_or_fill"


class ImpactKind(str, Enum):
    """What the impact does to the wetland (joint application "type of impact").

    ``UNKNOWN`` is decided as a drain or fill (never resolved in the applicant's
    favour) and says so.
    """

    FILL = "fill"
    DRAIN = "drain"
    EXCAVATE = "excavate"
    UNKNOWN = "unknown"


class SitingTier(IntEnum):
    """Replacement siting priority, § 103G.222, subd. 3(a)(1)-(4). Lower is better."""

    SAME_MINOR_WATERSHED = 1
    SAME_MAJOR_WATERSHED = 2
    SAME_BANK_SERVICE_AREA = 3
    OTHER_BANK_SERVICE_AREA = 4

    @property
    def label(self) -> str:
        """Return a short plain-English label of the tier."""
        return {
            1: "same minor watershed",
            2: "same major watershed",
            3: "same bank service area",
            4: "another bank service area",
        }[int(self)]


class StatusCode(str, Enum):
    """Why a row is or is not assessed: the machine-readable twin of ``status_reason``.

    ``status_reason`` is the sentence a person reads (with the row's values and the fix);
    ``status_code`` is what a tally, a filter in QGIS or another stage groups by, so no
    stage parses the sentence.
    """

    ASSESSED = "assessed"
    EMPTY_GEOMETRY = "empty_geometry"
    NOT_FINITE = "not_finite"
    NOT_POLYGON = "not_polygon"
    INVALID_GEOMETRY = "invalid_geometry"
    WETLAND_TYPE = "wetland_type"
    CEDAR_TAMARACK_FLAG = "cedar_tamarack_flag"
    OUTSIDE_COUNTIES = "outside_counties"
    SHORELAND_ZONE_UNKNOWN = "shoreland_zone_unknown"
    NO_POINT = "no_point"
    NOT_A_POINT = "not_a_point"
    COORDINATE_BLANK = "coordinate_blank"
    COORDINATE_NOT_A_NUMBER = "coordinate_not_a_number"
    COORDINATES_SWAPPED = "coordinates_swapped"
    COORDINATES_OUT_OF_RANGE = "coordinates_out_of_range"
    OUTSIDE_MINNESOTA = "outside_minnesota"
    APPROPRIATION_FACTS = "appropriation_facts"
    OTHER = "other"


#: The ``status`` of a row that may go on to the rules (set by
#: :func:`wetland_gis.geometry.cleaning.clean_polygons`).
ASSESSED = "assessed"
#: The ``status`` of a row that cannot be assessed; ``status_reason`` says why.
NOT_ASSESSED = ImpactOutcome.NOT_ASSESSED.value
