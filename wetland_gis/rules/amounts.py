"""The de minimis amounts of § 103G.2241, subd. 9, looked up by what they apply to.

Each amount in the parameter tree (``de_minimis.*``) carries an ``applies_to`` mapping:
the paragraph of subd. 9 it belongs to, the shoreland zone, the type list (a key under
``de_minimis.type_groups``), how it treats white cedar and tamarack wetlands, the
percentage-area classes and the metropolitan flag, and, for the increases of (b) and
(c), the amount it increases and the condition. :class:`AmountTable` turns those entries
into one dictionary, built once per parameter tree and date, so a decision is a lookup,
not an if-ladder.

Selector values
---------------
``zone``
    ``outside``, ``protection`` (beyond the setback) or ``setback``.
``types``
    A type list under ``de_minimis.type_groups`` or ``any``.
``cedar_tamarack``
    ``excluded`` (the paragraph excludes white cedar and tamarack wetlands), ``included``
    (its words cover them when of a listed type) or ``also`` (it names them besides the
    listed types, "or white cedar and tamarack wetland").
``pct_class``
    A list of :class:`~wetland_gis.enums.PercentageArea` values, or ``any``.
``metro``
    ``true``, ``false`` or ``any`` (the 11-county metropolitan area of subd. 9(d)).

Where two amounts cover the same wetland (a white cedar and tamarack type 2 wetland in
the protection zone is a "type 1, 2, 6, or 7 wetland" of (b)(1) and a "white cedar and
tamarack wetland" of (b)(2)), the smaller applies: an overlap is never resolved in the
applicant's favour.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from wetland_gis.enums import PercentageArea, ShorelandZone, WetlandType
from wetland_gis.errors import ParameterError
from wetland_gis.parameters import ParameterSet

#: The ``zone`` selector words of ``applies_to``.
ZONE_SELECTORS = {
    "outside": ShorelandZone.OUTSIDE,
    "protection": ShorelandZone.PROTECTION,
    "setback": ShorelandZone.BUILDING_SETBACK,
}
_CEDAR = ("excluded", "included", "also")
_GROUPS = "de_minimis.type_groups."
#: Type group taking the larger amounts: types 1, 2, 6, 7 that are not white cedar/tamarack.
TYPES_1_2_6_7 = "types_1_2_6_7"
#: Type group taking the smallest amounts: types 3, 4, 5, 8 and white cedar/tamarack wetlands.
TYPES_3_4_5_8_CEDAR = "types_3_4_5_8_cedar"


@dataclass(frozen=True)
class AmountEntry:
    """One de minimis amount and what it applies to.

    Parameters
    ----------
    key : str
        Its parameter key.
    sqft : int or float
        The amount on the date of the table.
    exact : Decimal
        The amount as an exact decimal, for comparisons.
    citation : str
        Its reference, e.g. ``"Minn. Stat. § 103G.2241, subd. 9(a)(1)"``.
    paragraph : str
        The paragraph of subd. 9 (``"a"``, ``"b"``, ``"c"``, ``"d"``).
    zone : ShorelandZone
        The zone it is given for.
    increases : str or None
        For an increase, the key of the amount it increases.
    condition : str or None
        For an increase, the fact that allows it (``runoff_retention`` or
        ``isolated_or_runoff_retention``).
    """

    key: str
    sqft: int | float
    exact: Decimal
    citation: str
    paragraph: str
    zone: ShorelandZone
    increases: str | None = None
    condition: str | None = None

    @property
    def family(self) -> str:
        """Return the paragraph family of subd. 9(e): ``a`` (with (d)), ``b`` or ``c``.

        Subd. 9(d) replaces amounts of (a) outside the protection zone in the
        metropolitan area; (e) names (a), (b) and (c) only, so (d) counts with (a).
        """
        return "a" if self.paragraph == "d" else self.paragraph


def _matches(sel: Any, value: Any) -> bool:
    if sel == "any":
        return True
    if isinstance(sel, list):
        return value in sel
    return sel == value


class AmountTable:
    """Every de minimis amount by (type, cedar, zone, class, metro, increased).

    Parameters
    ----------
    params : ParameterSet
        The parameter tree.
    day : date
        The date the amounts are read for.

    Raises
    ------
    ParameterError
        When an ``applies_to`` selector is malformed.
    """

    def __init__(self, params: ParameterSet, day: dt.date) -> None:
        self.day = day
        entries: list[tuple[AmountEntry, dict[str, Any]]] = []
        for key in params:
            param = params[key]
            sel = param.applies_to
            if not key.startswith("de_minimis.") or sel is None:
                continue
            sel = dict(sel)
            try:
                zone = ZONE_SELECTORS[sel["zone"]]
                paragraph = str(sel["paragraph"])
                cedar = sel.get("cedar_tamarack", "included")
                if cedar not in _CEDAR:
                    raise KeyError("cedar_tamarack")
                types_key = sel.get("types", "any")
                types = (
                    frozenset(int(t) for t in WetlandType)
                    if types_key == "any"
                    else frozenset(int(t) for t in params.value(_GROUPS + types_key, day))
                )
            except (KeyError, TypeError) as exc:
                raise ParameterError(
                    f"parameter {key!r} in {params.source}: applies_to {sel} is missing or has "
                    f"a bad {exc}; it needs paragraph, zone ({sorted(ZONE_SELECTORS)}), types "
                    f"(a list under {_GROUPS[:-1]} or 'any'), cedar_tamarack ({list(_CEDAR)}), "
                    "pct_class and metro"
                ) from None
            value = params.value(key, day)
            entry = AmountEntry(
                key=key,
                sqft=value,
                exact=Decimal(repr(value)),
                citation=param.reference,
                paragraph=paragraph,
                zone=zone,
                increases=sel.get("increases"),
                condition=sel.get("condition"),
            )
            entries.append((entry, {**sel, "_types": types, "_cedar": cedar}))
        self.entries = tuple(e for e, _ in entries)
        self._table: dict[tuple, AmountEntry | None] = {}
        self._several: set[tuple] = set()
        combos = itertools.product(
            WetlandType, (False, True), ShorelandZone, PercentageArea, (False, True), (False, True)
        )
        for wtype, cedar, zone, pct, metro, increased in combos:
            found = [
                (e, s)
                for e, s in entries
                if e.zone is zone
                and _matches(s.get("pct_class", "any"), pct.value)
                and _matches(s.get("metro", "any"), metro)
                and self._covers(s, int(wtype), cedar)
            ]
            base = [e for e, _ in found if e.increases is None]
            if increased:
                ups = {e.increases: e for e, _ in found if e.increases is not None}
                base = [ups.get(e.key, e) for e in base]
            cell = (int(wtype), cedar, zone, pct, metro, increased)
            if len(base) > 1:
                self._several.add(cell)
            self._table[cell] = min(base, key=lambda e: e.exact) if base else None

    @staticmethod
    def _covers(sel: dict[str, Any], wtype: int, cedar: bool) -> bool:
        in_types = wtype in sel["_types"]
        mode = sel["_cedar"]
        if mode == "excluded":
            return in_types and not cedar
        if mode == "also":
            return in_types or cedar
        return in_types

    def lookup(
        self,
        wetland_type: int,
        cedar_tamarack: bool,
        zone: ShorelandZone,
        pct_class: PercentageArea,
        metro: bool,
        increased: bool = False,
    ) -> AmountEntry | None:
        """Return the amount that applies, or ``None`` where no paragraph gives one."""
        return self._table[(int(wetland_type), cedar_tamarack, zone, pct_class, metro, increased)]

    def overlapped(
        self,
        wetland_type: int,
        cedar_tamarack: bool,
        zone: ShorelandZone,
        pct_class: PercentageArea,
        metro: bool,
        increased: bool = False,
    ) -> bool:
        """Return whether several amounts cover the wetland (the smallest was taken)."""
        return (
            int(wetland_type),
            cedar_tamarack,
            zone,
            pct_class,
            metro,
            increased,
        ) in self._several

    def increase_for(self, base_key: str) -> AmountEntry | None:
        """Return the increase entry of the amount ``base_key``, if there is one."""
        for e in self.entries:
            if e.increases == base_key:
                return e
        return None


_CACHE: dict[int, tuple[ParameterSet, dict[dt.date, AmountTable]]] = {}


def type_group(
    wetland_type: WetlandType,
    cedar_tamarack: bool,
    params: ParameterSet,
    day: dt.date,
) -> str:
    """Return the de minimis type group of a wetland (``TYPES_1_2_6_7`` or ``..._CEDAR``).

    White cedar and tamarack wetlands always take the amounts of types 3, 4, 5 and 8
    (subd. 9(a)(4), (b)(2)), whatever their type.
    """
    if cedar_tamarack:
        return TYPES_3_4_5_8_CEDAR
    if int(wetland_type) in params.value(_GROUPS + "types_3_4_5_8", day):
        return TYPES_3_4_5_8_CEDAR
    if int(wetland_type) in params.value(_GROUPS + "types_1_2_6_7", day):
        return TYPES_1_2_6_7
    raise ParameterError(
        f"type {int(wetland_type)} is in neither de minimis type group of {params.source} "
        "(de_minimis.type_groups); every type 1-8 must be in one"
    )


def amount_table(params: ParameterSet, day: dt.date) -> AmountTable:
    """Return the :class:`AmountTable` of ``params`` on ``day`` (built once, then cached)."""
    held = _CACHE.get(id(params))
    if held is None or held[0] is not params:
        held = (params, {})
        _CACHE[id(params)] = held
    tables = held[1]
    if day not in tables:
        tables[day] = AmountTable(params, day)
    return tables[day]
