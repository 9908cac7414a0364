"""The optional exemption and road columns of an impact layer (issue 20, docs/data_schema.md).

Each fact of :class:`~wetland_gis.rules.exempt.ExemptionFacts` that the engine does not
already read has a role here, named like the fact, with its default column from
:data:`~wetland_gis.rules.exempt.FACT_COLUMNS`; each road fact of
:class:`~wetland_gis.rules.exempt.RoadFacts` has a role ``road_<fact>`` with its default
column from :data:`~wetland_gis.rules.exempt.roads.ROAD_FACT_COLUMNS`; each is also read
under its first 10 characters (a shapefile's cut, should a default grow longer). A user
names another column with ``fields={role: column}`` or ``--field ROLE=COLUMN``.

A row with none of the columns (or only blank cells) gives no facts, so the engine tries
no exemption for it (its fast path). A row that gives some also takes the exclusions of
Minn. R. 8420.0420, subp. 1 B from the ``calcareous_fen`` column (the context's fen screen),
``banked`` and ``used_for_credit``; one not given stays unknown (every exemption answer is
then at most conditional). The facts the engine and the exemptions share
(wetland type, impact kind, land use, wetland id and size, incorporated area, bottomland
hardwood, calcareous fen, banked, used for credit) are read once, by the existing roles.

This module imports no pandas at import time: the command line reads the roles from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from wetland_gis.errors import FieldMappingError, RulesInputError, ValueParseError
from wetland_gis.io.field_names import closest_column, with_truncations
from wetland_gis.io.values import is_blank, parse_bool, parse_date, parse_number
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.roads import RoadFacts
from wetland_gis.rules.registry import EXEMPTION_RULE_IDS
from wetland_gis.rules.spec import FACTS, RULE_SPECS, Fact, FactType

if TYPE_CHECKING:
    import pandas as pd

    from wetland_gis.rules.facts import ImpactFacts

#: The prefix of the road roles.
ROAD_ROLE_PREFIX = "road_"

#: The exemption and road facts a column of their own gives (the spec's ``exemption`` and
#: ``road`` facts; the facts the engine shares are read by its own roles, io/fields.py).
_OWN_FACTS = tuple(f for f in FACTS.values() if f.group in ("exemption", "road"))

#: Role -> default column of every exemption and road fact column (docs/data_schema.md).
EXEMPTION_FIELD_ROLES: Mapping[str, str] = {f.key: f.column for f in _OWN_FACTS}

#: Role -> the fact it gives, and whether it is a road fact.
_FACT_OF = {f.key: f for f in _OWN_FACTS}


def resolve_exemption_columns(
    columns: Iterable[Any], user_names: Mapping[str, str | None] | None = None
) -> tuple[tuple[str, str], ...]:
    """Return ``(role, column)`` for each exemption or road role found in the layer.

    Parameters
    ----------
    columns : iterable of str
        The layer's column names (matched case-insensitively).
    user_names : mapping, optional
        Columns the user names by role (``None``: the default).

    Raises
    ------
    FieldMappingError
        When a user-named column is not in the layer.
    """
    names = [str(c) for c in columns]
    by_lower: dict[str, str] = {}
    for name in names:
        by_lower.setdefault(name.lower(), name)
    given = dict(user_names or {})
    found: list[tuple[str, str]] = []
    for role, default in EXEMPTION_FIELD_ROLES.items():
        want = given.get(role)
        candidates = (want,) if want is not None else with_truncations((default,))
        column = next((by_lower[c.lower()] for c in candidates if c.lower() in by_lower), None)
        if column is None and want is not None:
            raise FieldMappingError(
                f"the {role.replace('_', ' ')} column {want!r} (exemption fact) is not in the "
                f"layer; available columns: {', '.join(names) or '(none)'}"
                f"{closest_column(want, names)} (role {role!r})"
            )
        if column is not None:
            found.append((role, column))
    return tuple(found)


#: How a cell of each type is named in an error.
_WANT = {
    FactType.FLAG: "yes/no",
    FactType.WHOLE: "a whole number",
    FactType.NUMBER: "a number",
    FactType.DATE: "a date written YYYY-MM-DD",
}


def _read(value: Any, fact: Fact, where: str) -> Any:
    """Return a cell read as ``fact``'s type (None when blank)."""
    if is_blank(value):
        return None
    try:
        if fact.type is FactType.FLAG:
            # an unreadable flag is unknown, as for io/fields.py (read_flag)
            return parse_bool(value, errors="coerce")
        if fact.type is FactType.WHOLE:
            number = parse_number(value, errors="coerce")
            if number is None or number != int(number):
                raise ValueError(value)
            return int(number)
        if fact.type is FactType.DATE:
            return parse_date(value)
        if fact.type is FactType.NUMBER:
            number = parse_number(value, errors="coerce")
            if number is None:
                raise ValueError(value)
            return number
        text = str(value).strip()
        if fact.many:
            return frozenset(p.strip().lower() for p in text.split(",") if p.strip())
        return text.lower()
    except (ValueError, ValueParseError):
        want = _WANT.get(fact.type, "text")
        raise ValueParseError(
            f"{where}: {value!r} is not {want}; fix the cell or leave it empty (not known)"
        ) from None


#: The exclusions of Minn. R. 8420.0420, subp. 1 B the impact layer (or the context's fen
#: screen, the ``calcareous_fen`` column assess writes) may give, by their default columns.
_SCREENED = {
    "calcareous_fen": ("calcareous_fen",),
    "banked": ("banked",),
    "used_for_replacement_credit": ("used_for_credit", "used_for_c"),
}


def _screened(row: Any, lower: Mapping[str, Any]) -> dict[str, bool]:
    """Return the exclusions a column gives (a blank or absent one stays unknown)."""
    out: dict[str, bool] = {}
    for fact, names in _SCREENED.items():
        for name in names:
            if name in lower:
                value = parse_bool(row[lower[name]], errors="coerce")
                if value is not None:
                    out[fact] = value
                    break
    return out


def attach_exemption_facts(
    groups: dict[str, list[ImpactFacts]],
    row_of: Mapping[tuple[Hashable, Hashable], Hashable],
    frame: pd.DataFrame,
    columns: tuple[tuple[str, str], ...],
    *,
    source: str = "the impact layer",
) -> dict[str, list[ImpactFacts]]:
    """Return the projects' facts with each impact's exemption and road facts attached.

    Parameters
    ----------
    groups : mapping of project -> list of ImpactFacts
        The engine's facts, by project.
    row_of : mapping of (project, impact id) -> row label
        The row of each impact in ``frame``.
    frame : DataFrame
        The impact layer.
    columns : tuple of (role, column)
        From :func:`resolve_exemption_columns`.
    source : str
        The layer's name, for messages.

    Raises
    ------
    ValueParseError
        On a cell that does not read as its fact (naming the layer, row and column).
    """
    if not columns:
        return groups
    lower = {str(c).lower(): c for c in frame.columns}
    out: dict[str, list[ImpactFacts]] = {}
    for project, facts in groups.items():
        new: list[ImpactFacts] = []
        for f in facts:
            idx = row_of[(project, f.impact_id)]
            row = frame.loc[idx]
            own: dict[str, Any] = {}
            road: dict[str, Any] = {}
            for role, column in columns:
                where = f"{source}, row {row.get('wg_row', idx)}, column {column!r}"
                fact = _FACT_OF[role]
                value = _read(row[column], fact, where)
                if value is not None:
                    (road if fact.group == "road" else own)[fact.name] = value
            if not own and not road:
                new.append(f)
                continue
            if own:
                own.update(_screened(row, lower))
            try:
                exemption = ExemptionFacts(**own) if own else None
                road_facts = RoadFacts(**road) if road else None
            except RulesInputError as exc:
                raise ValueParseError(
                    f"{source}, row {row.get('wg_row', idx)} (impact {f.impact_id!r}): {exc}; "
                    "fix the exemption or road columns (docs/data_schema.md)"
                ) from None
            new.append(dataclasses.replace(f, exemption=exemption, road=road_facts))
        out[project] = new
    return out


def exemption_text(rule_ids: Iterable[str]) -> str | None:
    """Return the exemptions that carry an impact as text for people (label and citation).

    Examples
    --------
    >>> from wetland_gis.rules.exempt import spec_of, wildlife
    >>> exemption_text([spec_of(wildlife.duck_blinds).rule_id])
    'Duck blinds (Minn. Stat. § 103G.2241, subd. 10(2))'
    """
    items = [
        f"{RULE_SPECS[r].label} ({RULE_SPECS[r].citations[0]})" if r in EXEMPTION_RULE_IDS else r
        for r in rule_ids
    ]
    return "\n".join(items) or None
