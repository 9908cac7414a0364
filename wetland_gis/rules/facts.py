"""The plain facts of one wetland impact, and the shared vocabulary of the rules core.

:class:`ImpactFacts` is what a geometry step hands the rules: a wetland type, the
square feet of the impact in each shoreland zone, the percentage-area class and the
metropolitan flag, and the flags that take an impact out of the exemptions. It knows
no geometry, so the rules can be tested with hand-written values.

The private helpers below (the decision recorder, input checks, unit constants) are
shared by the rule modules of :mod:`wetland_gis.rules`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import itertools
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any, SupportsFloat, TypeVar

from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactKind, Outcome, PercentageArea, ShorelandZone, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import LIMIT_TESTS, ParameterSet, as_date, default_parameters
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.roads import RoadFacts
from wetland_gis.rules.numbers import exact, exact_sum
from wetland_gis.rules.spec import QUESTIONS, RULE_SPECS, cite
from wetland_gis.units import SQFT_PER_ACRE as _SQFT_PER_ACRE

#: Percent conversion: a share written in percent is divided by this.
PERCENT = 100

#: Square feet in one acre (international foot). A unit conversion, not a legal number.
SQFT_PER_ACRE = int(_SQFT_PER_ACRE)

#: Shoreland zones from the most to the least restrictive de minimis amounts
#: (§ 103G.2241, subd. 9(c), then 9(b), then 9(a)/(d)).
ZONE_ORDER: tuple[ShorelandZone, ...] = (
    ShorelandZone.BUILDING_SETBACK,
    ShorelandZone.PROTECTION,
    ShorelandZone.OUTSIDE,
)

_ZONE_WORDS = {
    ShorelandZone.BUILDING_SETBACK: "within the shoreland building setback zone",
    ShorelandZone.PROTECTION: (
        "within the shoreland wetland protection zone beyond the building setback zone"
    ),
    ShorelandZone.OUTSIDE: "outside the shoreland wetland protection zone",
}

_CLASS_WORDS = {
    PercentageArea.GREATER_THAN_80: "greater than 80 percent area",
    PercentageArea.FROM_50_TO_80: "50 to 80 percent area",
    PercentageArea.LESS_THAN_50: "less than 50 percent area",
}


def _check_exemption_facts(facts: ImpactFacts) -> None:
    """Raise unless ``exemption`` and ``road`` are ExemptionFacts and RoadFacts (or None)."""
    for name, kind in (("exemption", ExemptionFacts), ("road", RoadFacts)):
        value = getattr(facts, name)
        if value is not None and not isinstance(value, kind):
            raise RulesInputError(
                f"{name} of impact {facts.impact_id!r} must be a {kind.__name__} or None, "
                f"got {type(value).__name__}"
            )


@dataclass(frozen=True, kw_only=True)
class ImpactFacts:
    """The plain values the rules need about one impact (one drained or filled area).

    Parameters
    ----------
    impact_id : hashable
        The impact's id, unique within a project.
    wetland_type : WetlandType or int
        Circular 39 type, Minn. Stat. § 103G.005, subd. 17b (an ``int`` 1-8 is converted).
    cedar_tamarack : bool
        Whether the wetland is a white cedar and tamarack wetland (§ 103G.2241, subd. 9).
    sqft_setback, sqft_protection, sqft_outside : float
        Square feet of the impact within the shoreland building setback zone, within the
        shoreland wetland protection zone beyond the setback, and outside the shoreland
        wetland protection zone. Each ``>= 0``; their sum is the impact's area.
    pct_class : PercentageArea or str
        Percentage-area class of the place (§ 103G.005, subd. 10a, 10b, 10h).
    metro : bool
        Whether the impact is in the 11-county metropolitan area (§ 103G.2241, subd. 9(d)).
    calcareous_fen : bool, default False
        A calcareous fen (§ 103G.223): never exempt.
    banked : bool, default False
        A wetland deposited in the wetland bank (Minn. R. 8420.0420, subp. 1): not exempt.
    used_for_replacement_credit : bool, default False
        A wetland already used for replacement credit (Minn. R. 8420.0420, subp. 1).
    public_waters_wetland : bool, default False
        A public waters wetland (§ 103G.005, subd. 15a): not a "wetland" for the de minimis
        exemption (subd. 19(b)), but replaced at the ratios of § 103G.222, subd. 1(f), (g)
        and routed to the DNR public waters work permit (§ 103G.245).
    impact_kind : ImpactKind or str, default "unknown"
        ``fill``, ``drain``, ``excavate`` or ``unknown`` (decided as a drain or fill).
    partial : bool, default False
        A ``drain`` that only partly drains the area (Minn. R. 8420.0522, subp. 2).
    flooded : bool or None, default None
        The area is permanently or semipermanently flooded (for an excavation,
        § 103G.222, subd. 1(a)); ``None`` if unknown.
    wetland_id, owner : str or None
        The wetland and the landowner the impact is in and of (subd. 9(f): impacts of one
        owner on one wetland are summed; different owners are not pooled).
    owns_whole_wetland : bool or None
        Whether the landowner owns the entire wetland (subd. 9(f)(1)); ``None`` if unknown.
    portion_sqft : float or None
        Size of the landowner's portion of the wetland (subd. 9(f)(2)).
    prior_sqft_since_1992 : float or None
        Area of the landowner's portion already drained or filled since the subd. 9(f) date.
    isolated, runoff_retention : bool or None
        The subd. 9(b) and 9(c) increase conditions, about "the wetland".
    bottomland_hardwood : bool or None
        A bottomland hardwood type 1 wetland (pasture exemption, subd. 1(2)).
    land_use : str or None
        ``agricultural``, ``pasture`` or ``nonagricultural`` land (§ 103G.222, subd. 1(f), (g)).
    wetland_acres : float or None
        Size of the whole wetland, in acres.
    incorporated : bool or None
        Whether the wetland lies in an incorporated area.
    partial_share : float or None
        For a ``partial`` drain, the share of the partly drained area counted as the impact,
        "determined by an assessment acceptable to the technical evaluation panel" (Minn. R.
        8420.0522, subp. 2): from the rule's minimum (``replacement.partial_drainage_min_percent``,
        50 percent) to 1. ``None``: not assessed; the minimum is counted and an answer that
        depends on it is conditional.
    water_regime_flooded : bool or None
        What the NWI (Cowardin) water regime says about "permanently or semipermanently
        flooded": evidence, not a determination (the TEP determines, § 103G.2242, subd. 2).
        ``flooded`` is the determination; when it is ``None`` and this says ``False``, an
        excavation in a type 3, 4 or 5 wetland is decided as regulated, conditionally.
    pw_inventory_id : str or None
        The DNR public waters inventory id of the wetland (§ 103G.201): an inventoried
        wetland is a public waters wetland whatever its size (``public_waters_wetland`` is
        then set). Without it, ``public_waters_wetland`` is the size screen of § 103G.005,
        subd. 15a, the fallback.
    below_ohwl : bool or None
        The impact lies on or waterward of the ordinary high water level of a public water:
        filling or excavating there needs a public-waters-work permit (§ 103G.245,
        subd. 1(2)).
    county : str or None
        County of the impact (reported only).
    duration : str or None
        ``permanent`` or ``temporary`` (the joint application table; reported only).
    exemption : ExemptionFacts or None
        The facts of the exemptions of § 103G.2241 other than de minimis
        (:class:`wetland_gis.rules.exempt.ExemptionFacts`); ``None``: none given, and
        step 5 of the engine tries no exemption for the impact.
    road : RoadFacts or None
        The public road project facts of § 103G.222, subd. 1(l), (m)
        (:class:`wetland_gis.rules.exempt.RoadFacts`); the project's, so every impact
        that gives them gives the same.

    Raises
    ------
    RulesInputError
        On a type outside 1-8, a negative or non-finite area, a non-boolean flag or an
        unknown percentage class.

    Examples
    --------
    >>> f = ImpactFacts(impact_id="A", wetland_type=2, cedar_tamarack=False, sqft_setback=0,
    ...                 sqft_protection=0, sqft_outside=9000,
    ...                 pct_class="greater_than_80_percent", metro=False)
    >>> f.area_sqft
    9000.0
    """

    impact_id: Hashable
    wetland_type: WetlandType
    cedar_tamarack: bool
    sqft_setback: float
    sqft_protection: float
    sqft_outside: float
    pct_class: PercentageArea
    metro: bool
    calcareous_fen: bool = False
    banked: bool = False
    used_for_replacement_credit: bool = False
    public_waters_wetland: bool = False
    impact_kind: ImpactKind = ImpactKind.UNKNOWN
    partial: bool = False
    flooded: bool | None = None
    wetland_id: str | None = None
    owner: str | None = None
    owns_whole_wetland: bool | None = None
    portion_sqft: float | None = None
    prior_sqft_since_1992: float | None = None
    isolated: bool | None = None
    runoff_retention: bool | None = None
    bottomland_hardwood: bool | None = None
    land_use: str | None = None
    wetland_acres: float | None = None
    incorporated: bool | None = None
    partial_share: float | None = None
    water_regime_flooded: bool | None = None
    pw_inventory_id: str | None = None
    below_ohwl: bool | None = None
    county: str | None = None
    duration: str | None = None
    exemption: ExemptionFacts | None = None
    road: RoadFacts | None = None

    def __post_init__(self) -> None:
        try:
            hash(self.impact_id)
        except TypeError:
            raise RulesInputError(
                f"impact_id {self.impact_id!r} must be hashable (a string or a number)"
            ) from None
        object.__setattr__(self, "wetland_type", wetland_type_of(self.wetland_type))
        object.__setattr__(self, "pct_class", percentage_class_of(self.pct_class))
        # the fields by kind: the same tuples ImpactFacts.from_columns checks by column
        for name in _AREA_FACTS:
            object.__setattr__(self, name, check_area(getattr(self, name), name))
        for name in _FLAG_FACTS:
            check_flag(getattr(self, name), f"{name} of impact {self.impact_id!r}")
        for name in _OPTIONAL_FLAG_FACTS:
            value = getattr(self, name)
            if value is not None:
                check_flag(value, f"{name} of impact {self.impact_id!r}")
        for name in _OPTIONAL_AREA_FACTS:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(
                    self, name, check_area(value, f"{name} of impact {self.impact_id!r}")
                )
        if self.exemption is not None or self.road is not None:
            _check_exemption_facts(self)
        if not isinstance(self.impact_kind, ImpactKind):
            try:
                object.__setattr__(self, "impact_kind", ImpactKind(self.impact_kind))
            except ValueError:
                allowed = [k.value for k in ImpactKind]
                raise RulesInputError(
                    f"impact_kind {self.impact_kind!r} of impact {self.impact_id!r} is not one "
                    f"of {allowed}"
                ) from None
        if self.pw_inventory_id is not None:
            pw_id = str(self.pw_inventory_id).strip()
            object.__setattr__(self, "pw_inventory_id", pw_id or None)
            if pw_id:
                object.__setattr__(self, "public_waters_wetland", True)
        if self.partial_share is not None:
            share = check_area(self.partial_share, f"partial_share of impact {self.impact_id!r}")
            if not self.partial or not 0 < share <= 1:
                raise RulesInputError(
                    f"partial_share {self.partial_share!r} of impact {self.impact_id!r}: give a "
                    "share from the rule's minimum to 1, and only for a partial drain (Minn. R. "
                    "8420.0522, subp. 2)"
                )
            object.__setattr__(self, "partial_share", share)
        if self.partial and self.impact_kind is not ImpactKind.DRAIN:
            raise RulesInputError(
                f"impact {self.impact_id!r} is marked partial but its kind is "
                f"{self.impact_kind.value!r}: only a drain can be partial (Minn. R. 8420.0522, "
                "subp. 2)"
            )

    @classmethod
    def from_columns(cls, columns: Mapping[str, Sequence[Any]]) -> list[ImpactFacts]:
        """Return one :class:`ImpactFacts` per row of ``columns``, checked by column.

        ``columns`` maps field names to equal-length sequences (an adapter's columns, as
        :func:`wetland_gis.io.impact_facts.impact_facts` builds them). Each column is
        checked once for the values the constructor would keep as they are (a
        :class:`WetlandType`, a finite float ``>= 0``, a ``bool`` ...); the facts are then
        built without checking each object again. Columns that are not all such values
        are given to the constructor row by row, which converts them or raises as it
        always does. Either way the facts are equal to ``ImpactFacts(**row)``.

        Parameters
        ----------
        columns : mapping of str to sequence
            Field name to the values of that field, one per impact.

        Returns
        -------
        list of ImpactFacts
            In row order.

        Raises
        ------
        RulesInputError
            As the constructor does, on the first row it refuses.

        Examples
        --------
        >>> facts = ImpactFacts.from_columns({
        ...     "impact_id": ["A", "B"], "wetland_type": [WetlandType(2), WetlandType(3)],
        ...     "cedar_tamarack": [False, False], "sqft_setback": [0.0, 0.0],
        ...     "sqft_protection": [0.0, 0.0], "sqft_outside": [9000.0, 40.0],
        ...     "pct_class": [PercentageArea.GREATER_THAN_80] * 2, "metro": [False, True]})
        >>> [f.area_sqft for f in facts]
        [9000.0, 40.0]
        """
        checked = _checked_columns(columns) if cls is ImpactFacts else None  # a subclass checks
        if checked is None:
            names = tuple(columns)
            return [
                cls(**dict(zip(names, values, strict=True)))
                for values in zip(*columns.values(), strict=True)
            ]
        fields = tuple(checked)
        new = object.__new__
        out = []
        for values in zip(*checked.values(), strict=True):
            facts = new(cls)
            facts.__dict__.update(zip(fields, values, strict=True))
            out.append(facts)
        return out

    @functools.cached_property
    def area_sqft(self) -> float:
        """Return the impact's whole area in square feet (the sum over the three zones)."""
        return float(self.exact_area)

    @functools.cached_property
    def exact_area(self) -> Decimal:
        """Return the impact's whole area as an exact sum of the three zone figures."""
        return exact_sum((self.sqft_setback, self.sqft_protection, self.sqft_outside))

    def sqft_in(self, zone: ShorelandZone) -> float:
        """Return the square feet of the impact in ``zone``."""
        return {
            ShorelandZone.BUILDING_SETBACK: self.sqft_setback,
            ShorelandZone.PROTECTION: self.sqft_protection,
            ShorelandZone.OUTSIDE: self.sqft_outside,
        }[zone_of(zone)]

    @property
    def zones(self) -> tuple[ShorelandZone, ...]:
        """Return the zones in which the impact has area, most restrictive first."""
        return tuple(z for z in ZONE_ORDER if self.sqft_in(z) > 0)


# --- facts by column (ImpactFacts.from_columns) ------------------------------------------

#: The value of each field of :class:`ImpactFacts` with a default, in field order (the
#: required fields first, as None: every column set gives them).
_FACT_DEFAULTS: dict[str, Any] = {
    f.name: (None if f.default is dataclasses.MISSING else f.default)
    for f in dataclasses.fields(ImpactFacts)
}
_REQUIRED_FACTS = frozenset(
    f.name for f in dataclasses.fields(ImpactFacts) if f.default is dataclasses.MISSING
)
_AREA_FACTS = ("sqft_setback", "sqft_protection", "sqft_outside")
_FLAG_FACTS = (
    "cedar_tamarack",
    "metro",
    "calcareous_fen",
    "banked",
    "used_for_replacement_credit",
    "public_waters_wetland",
    "partial",
)
_OPTIONAL_FLAG_FACTS = (
    "flooded",
    "owns_whole_wetland",
    "isolated",
    "runoff_retention",
    "bottomland_hardwood",
    "incorporated",
    "water_regime_flooded",
    "below_ohwl",
)
_OPTIONAL_AREA_FACTS = ("portion_sqft", "prior_sqft_since_1992", "wetland_acres")
#: Fields the constructor keeps as given (no check, no conversion).
_FREE_FACTS = frozenset({"wetland_id", "owner", "land_use", "county", "duration"})
_CHECKED_FACTS = frozenset(
    {
        "impact_id",
        "wetland_type",
        "pct_class",
        "impact_kind",
        "partial_share",
        "pw_inventory_id",
        *_AREA_FACTS,
        *_FLAG_FACTS,
        *_OPTIONAL_FLAG_FACTS,
        *_OPTIONAL_AREA_FACTS,
    }
)


def _kinds(values: Iterable[Any]) -> set[type]:
    return set(map(type, values))


def _areas_kept(values: Sequence[Any], *, optional: bool = False) -> bool:
    """Return whether ``check_area`` keeps every value as it is (finite floats ``>= 0``)."""
    kinds = _kinds(values)
    if not kinds <= ({float, _NONE} if optional else {float}):
        return False
    numbers = [v for v in values if v is not None] if _NONE in kinds else values
    return all(map(math.isfinite, numbers)) and min(numbers, default=0.0) >= 0


_NONE = type(None)


def _checked_columns(columns: Mapping[str, Sequence[Any]]) -> dict[str, Iterable[Any]] | None:
    """Return every field's column, in field order, if ``__post_init__`` keeps each value.

    Fields not in ``columns`` repeat their default. The ``pw_inventory_id`` column is
    normalised (stripped, ``""`` to None) and sets ``public_waters_wetland`` as the
    constructor does. None when the columns differ in length, or a column holds a value
    the constructor would convert or refuse, or names a field this check does not know
    (the exemption and road facts): the caller then constructs row by row.
    """
    names = set(columns)
    if not _REQUIRED_FACTS <= names or not names <= _CHECKED_FACTS | _FREE_FACTS:
        return None
    col = {name: list(values) for name, values in columns.items()}
    n = len(col["impact_id"])
    if any(len(values) != n for values in col.values()):
        return None
    try:
        for _ in map(hash, col["impact_id"]):
            pass
    except TypeError:
        return None
    simple = (
        _kinds(col["wetland_type"]) <= {WetlandType}
        and _kinds(col["pct_class"]) <= {PercentageArea}
        and _kinds(col.get("impact_kind", ())) <= {ImpactKind}
        and all(_areas_kept(col[name]) for name in _AREA_FACTS)
        and all(
            _areas_kept(col[name], optional=True) for name in _OPTIONAL_AREA_FACTS if name in col
        )
        and all(_kinds(col[name]) <= {bool} for name in _FLAG_FACTS if name in col)
        and all(_kinds(col[name]) <= {bool, _NONE} for name in _OPTIONAL_FLAG_FACTS if name in col)
    )
    if not simple:
        return None
    partial = col.get("partial", [False] * n)
    if any(partial):
        kinds = col.get("impact_kind", [ImpactKind.UNKNOWN] * n)
        if any(p and k is not ImpactKind.DRAIN for p, k in zip(partial, kinds, strict=True)):
            return None
    shares = col.get("partial_share", ())
    if not _kinds(shares) <= {_NONE} and not all(
        s is None or (p and s.__class__ is float and 0 < s <= 1)
        for s, p in zip(shares, partial, strict=True)
    ):
        return None
    ids = col.get("pw_inventory_id", ())
    if not _kinds(ids) <= {_NONE}:
        if not _kinds(ids) <= {str, _NONE}:
            return None
        ids = [None if v is None else (v.strip() or None) for v in ids]
        col["pw_inventory_id"] = ids
        pww = col.get("public_waters_wetland", [False] * n)
        col["public_waters_wetland"] = [p or v is not None for p, v in zip(pww, ids, strict=True)]
    return {
        name: col[name] if name in col else itertools.repeat(default, n)
        for name, default in _FACT_DEFAULTS.items()
    }


# --- input checks shared by the rule modules ---------------------------------------------


def wetland_type_of(value: Any) -> WetlandType:
    """Return ``value`` as a :class:`WetlandType` or raise :class:`RulesInputError`."""
    if isinstance(value, WetlandType):
        return value
    if isinstance(value, bool):
        raise RulesInputError(f"wetland type {value!r} is not a Circular 39 type 1-8")
    try:
        return WetlandType(int(value))
    except (TypeError, ValueError):
        allowed = [int(t) for t in WetlandType]
        raise RulesInputError(
            f"wetland type {value!r} is not a Circular 39 type: expected one of {allowed} "
            f"({cite('103G.005', '17b')})"
        ) from None


_E = TypeVar("_E", bound=Enum)


def _member_of(enum: type[_E], value: Any, what: str) -> _E:
    """Return ``value`` as a member of ``enum`` or raise :class:`RulesInputError`."""
    if isinstance(value, enum):
        return value
    try:
        return enum(value)
    except ValueError:
        allowed = [m.value for m in enum]
        raise RulesInputError(
            f"{what} {value!r} is not one of {allowed}; pass a {enum.__name__}"
        ) from None


def percentage_class_of(value: Any) -> PercentageArea:
    """Return ``value`` as a :class:`PercentageArea` or raise :class:`RulesInputError`."""
    return _member_of(PercentageArea, value, "percentage class")


def zone_of(value: Any) -> ShorelandZone:
    """Return ``value`` as a :class:`ShorelandZone` or raise :class:`RulesInputError`."""
    return _member_of(ShorelandZone, value, "shoreland zone")


def check_area(value: Any, name: str, *, positive: bool = False) -> float:
    """Return ``value`` as a finite float ``>= 0`` (``> 0`` if ``positive``) or raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise RulesInputError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0 or (positive and number == 0):
        need = "greater than 0" if positive else "0 or more"
        raise RulesInputError(f"{name} must be a finite number {need}, got {value!r}")
    return number


def check_flag(value: Any, name: str) -> bool:
    """Return ``value`` if it is a ``bool``, else raise :class:`RulesInputError`."""
    if not isinstance(value, bool):
        raise RulesInputError(f"{name} must be True or False, got {value!r}")
    return value


def check_choice(value: Any, allowed: Iterable[Any], name: str) -> None:
    """Raise :class:`RulesInputError` naming ``allowed`` unless ``value`` is one of them."""
    options = list(allowed)
    if value not in options:
        raise RulesInputError(f"{name} was {value!r} but is expected to be one of {options}")


def check_impacts(impacts: Iterable[Any], project: str | None = None) -> None:
    """Raise :class:`RulesInputError` unless each impact is an ImpactFacts with its own id.

    ``project`` (when given) is named in the message about a repeated id.
    """
    where = "" if project is None else f" in project {project!r}"
    seen: set[Hashable] = set()
    for f in impacts:
        if not isinstance(f, ImpactFacts):
            raise RulesInputError(f"impacts must be ImpactFacts, got {type(f).__name__}")
        if f.impact_id in seen:
            raise RulesInputError(
                f"impact_id {f.impact_id!r} appears twice{where}; each impact of a project "
                "needs its own id"
            )
        seen.add(f.impact_id)


AMOUNT_STEP_SQFT = 10


def fmt_sqft(value: float) -> str:
    """Return an area for a reason in whole square feet (the joint-application convention).

    A fractional area that would round to a multiple of ten square feet (where every
    amount of the law lies: 20, 100, 10,000 ...) keeps one decimal, so a reason never
    reads "10,000 sq ft is over the amount of 10,000 sq ft".

    Examples
    --------
    >>> fmt_sqft(6003.2681), fmt_sqft(10000.4), fmt_sqft(10000.0), fmt_sqft(19.96)
    ('6,003 sq ft', '10,000.4 sq ft', '10,000 sq ft', '20.0 sq ft')
    """
    whole = round(float(value))
    if whole != float(value) and whole % AMOUNT_STEP_SQFT == 0:
        return f"{float(value):,.1f} sq ft"
    return f"{whole:,} sq ft"


def fmt_number(value: SupportsFloat) -> str:
    """Return a number with thousands separators and no trailing zeros."""
    text = f"{float(value):,.4f}".rstrip("0").rstrip(".")
    return text


def zone_words(zone: ShorelandZone) -> str:
    """Return the zone in the words of the statute."""
    return _ZONE_WORDS[zone]


def class_words(pct_class: PercentageArea) -> str:
    """Return the percentage class in the words of the statute."""
    return _CLASS_WORDS[pct_class]


# --- the decision recorder --------------------------------------------------------------


class Trace:
    """Collect what one decision used and why, then build the :class:`Decision`.

    Parameters
    ----------
    question : str
        The legal question, named like the function answering it: a question of the rule
        spec (:data:`wetland_gis.rules.spec.QUESTIONS`), whose entry gives the citations the
        answer writes (:meth:`cite_clause`), or the id of another rule of the spec (a
        water-use rule's recorder passes ``water_use.fee``).
    params : ParameterSet or None
        The parameter tree (default: the shipped one).
    as_of : str, date or None
        Date the parameters are read for (default: today).

    Raises
    ------
    RulesInputError
        When the question has no entry in the rule spec (a new question is written there
        first, with its label, citations and parameter keys).
    """

    def __init__(
        self, question: str, params: ParameterSet | None, as_of: str | dt.date | None
    ) -> None:
        rule = QUESTIONS.get(question) or RULE_SPECS.get(question)
        if rule is None:
            raise RulesInputError(
                f"question {question!r} has no entry in the rule spec: add it to "
                "wetland_gis/rules/spec.py with _question(...) (label, citations, parameter "
                f"keys), or give a rule id of the spec; known questions: {sorted(QUESTIONS)}"
            )
        self.rule = rule
        self.question = question
        self.params = params if params is not None else default_parameters()
        self.day = as_date(as_of)
        self.amounts: dict[str, float] = {}
        self.citations: list[str] = []
        self.reasons: list[str] = []
        self.verify: list[str] = []
        self.used: dict[str, Any] = {}

    def value(self, key: str) -> Any:
        """Return the value of parameter ``key`` on the decision date, recording it."""
        value = self.params.value(key, self.day)
        self.used[key] = _plain(value)
        return value

    def passes(self, key: str, amount: float | Decimal) -> bool:
        """Return whether ``amount`` meets limit ``key`` under its comparison, recording it.

        Both sides are compared exactly, as written (see :func:`exact`), so a limit such as
        2.5 acres or 6.5 percent is never compared through a binary approximation.
        """
        limit = exact(self.value(key))
        param = self.params[key]
        test = LIMIT_TESTS.get(param.comparison or "")
        if test is None:
            return param.passes(amount, self.day)  # raises: the parameter is not a limit
        return test(exact(amount), limit)

    def decide_limit(
        self, key: str, amount: float | Decimal, *, within: str, beyond: str
    ) -> Decision:
        """Return the decision of an eligibility limit: ``amount`` against limit ``key``.

        Parameters
        ----------
        key : str
            The limit's parameter key (its comparison says whether the limit itself passes).
        amount : float or Decimal
            The amount tested, in the limit's unit.
        within : str
            The reason recorded when ``amount`` passes the limit.
        beyond : str
            The reason recorded when it does not.

        Returns
        -------
        Decision
            ``ELIGIBLE`` (value True) when ``amount`` passes, else ``NOT_ELIGIBLE`` (False).
        """
        if self.passes(key, amount):
            self.because(within)
            return self.decide(Outcome.ELIGIBLE, True)
        self.because(beyond)
        return self.decide(Outcome.NOT_ELIGIBLE, False)

    def comparison(self, key: str) -> str | None:
        """Return the comparison (``at_most``, ``less_than``, ...) of parameter ``key``."""
        return self.params[key].comparison

    def citation(self, key: str) -> str:
        """Return the citation of parameter ``key``."""
        return self.params.citation(key)

    def cite(self, *citations: str) -> None:
        """Record rules that fired, by citation text."""
        self.citations.extend(citations)

    def cite_clause(self, *keys: str) -> None:
        """Record rules that fired, by the keyed sub-citations of the question's spec entry."""
        self.citations.extend(self.rule.clause(k) for k in keys)

    def cite_key(self, *keys: str) -> None:
        """Record rules that fired, by the citation of their parameter."""
        self.citations.extend(self.params.citation(k) for k in keys)

    def because(self, *reasons: str) -> None:
        """Record plain-English reasons, one sentence each."""
        self.reasons.extend(reasons)

    def check(self, *items: Iterable[str] | str) -> None:
        """Record what a person must still verify."""
        for item in items:
            if isinstance(item, str):
                self.verify.append(item)
            else:
                self.verify.extend(item)

    def decide(self, outcome: Enum, value: Any = None) -> Decision:
        """Return the immutable :class:`Decision`."""
        return Decision(
            question=self.question,
            outcome=outcome,
            amounts=dict(self.amounts),
            citations=tuple(self.citations),
            reasons=tuple(self.reasons),
            parameters=dict(self.used),
            verify=tuple(self.verify),
            as_of=self.day.isoformat(),
            value=value,
        )


def _plain(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    return value
