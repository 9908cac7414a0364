"""Map the attribute columns of an impacts layer to the meanings wetland_gis needs.

Column names are matched case-insensitively (docs/data_schema.md, "Impacts (input)").
A name given by the user must exist; otherwise the default names below are tried in
order. Nothing is renamed: :class:`FieldMapping` only says which column holds what.

Every role also accepts the first 10 characters of each of its names, as a shapefile
written by QGIS or ArcGIS keeps them (``impact_kind`` -> ``impact_kin``,
:func:`wetland_gis.io.field_names.with_truncations`); :func:`field_name_warnings` names
each column that only looks like the name of a role no column was found for.

The NWI ``WETLAND_TYPE`` field (``WETLAND_TY`` in a shapefile) holds NWI categories such
as "Freshwater Emergent Wetland", not Circular 39 types, yet its name matches the
default type names ``WETLAND_TY`` and ``wetland_type``. Such a column is therefore used
as the type field only when its values can be checked (a DataFrame is passed) and they
read as Circular 39 types: it is skipped, with a note, when any value is an NWI
category or when no value parses. Given only column names, ``WETLAND_TY`` is not used
(the type is then inferred from the Cowardin code), while ``wetland_type`` is.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from wetland_gis.errors import FieldMappingError, WetlandTypeError
from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES, resolve_exemption_columns
from wetland_gis.io.field_names import (
    SHAPEFILE_NAME_LIMIT,
    closest_column,
    looks_like,
    squash,
    with_truncations,
)
from wetland_gis.io.values import is_blank, parse_bool, parse_number
from wetland_gis.io.wetland_types import NWI_CATEGORIES, parse_wetland_type
from wetland_gis.rules.spec import FACTS
from wetland_gis.units import SQFT_PER_ACRE

#: The roles of the impact layer (the spec's ``layer`` and ``wetland`` facts).
_LAYER_FACTS = tuple(f for f in FACTS.values() if f.group in ("layer", "wetland"))

#: Default column names per role, in order of preference (matched case-insensitively), from
#: the one rule spec (:data:`wetland_gis.rules.spec.FACTS`).
DEFAULT_NAMES: dict[str, tuple[str, ...]] = {f.key: f.columns for f in _LAYER_FACTS}

#: Plain-English name of each role, used in messages.
ROLE_LABELS: dict[str, str] = {f.key: f.label for f in _LAYER_FACTS}


def read_flag(value: Any) -> bool | None:
    """Read a yes/no attribute: ``True``, ``False``, or ``None`` when blank or unreadable.

    :func:`wetland_gis.io.values.parse_bool` with ``errors="coerce"``: a spelling it does
    not accept is unknown, which the rules never resolve in the applicant's favour.

    Examples
    --------
    >>> read_flag("Yes"), read_flag("0.0"), read_flag(""), read_flag(None), read_flag("2")
    (True, False, None, None, None)
    """
    return parse_bool(value, errors="coerce")


def read_number(value: Any) -> float | None:
    """Read a number attribute; ``None`` when blank or not a finite number.

    :func:`wetland_gis.io.values.parse_number` with ``errors="coerce"``.

    Examples
    --------
    >>> read_number("1,200.5"), read_number(""), read_number("n/a")
    (1200.5, None, None)
    """
    return parse_number(value, errors="coerce")


def read_text(value: Any) -> str | None:
    """Read a text attribute; ``None`` when blank or missing.

    Examples
    --------
    >>> read_text("  Smith "), read_text("   "), read_text(float("nan"))
    ('Smith', None, None)
    """
    return None if is_blank(value) else str(value).strip()


def match_columns(
    columns: Iterable[Any], wanted: Iterable[str], aliases: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    """Return {documented name: column in the frame}, matched case-insensitively.

    Parameters
    ----------
    columns : iterable
        The frame's column names.
    wanted : iterable of str
        The documented names, in order.
    aliases : Mapping[str, tuple of str]
        Other accepted spellings of a documented name (lower case).

    Returns
    -------
    dict
        Documented name -> the frame's column, for each name found.

    Examples
    --------
    >>> match_columns(["Bank", "CREDITS"], ["bank_name", "credits"], {"bank_name": ("bank",)})
    {'bank_name': 'Bank', 'credits': 'CREDITS'}
    """
    lower = {str(c).strip().lower(): c for c in columns}
    out = {}
    for name in wanted:
        for candidate in (name, *aliases.get(name, ())):
            if candidate in lower:
                out[name] = lower[candidate]
                break
    return out


#: Type-field names that may hold NWI categories instead of Circular 39 types.
_CHECK_VALUES = frozenset({"wetland_ty", "wetland_type"})
#: Type-field names used only when their values can be checked.
_NEEDS_VALUES = frozenset({"wetland_ty"})


@dataclass(frozen=True)
class FieldRole:
    """One field role: what a column holds, and the column names read for it by default.

    Parameters
    ----------
    role : str
        The role's name (``fields={role: column}``, ``--field ROLE=COLUMN``).
    label : str
        What the column holds, for people.
    names : tuple of str
        The column names read when the user names none, in order of preference
        (case-insensitive), each followed by its 10-character shapefile cut.
    kind : {"impact", "exemption", "road"}
        An impact-layer role of :data:`DEFAULT_NAMES`, an exemption fact or a road fact
        (:data:`wetland_gis.io.exemption_columns.EXEMPTION_FIELD_ROLES`).
    """

    role: str
    label: str
    names: tuple[str, ...]
    kind: str


def field_roles() -> dict[str, FieldRole]:
    """Return every field role, in the order ``wetland-gis fields`` lists them.

    Returns
    -------
    dict
        Role name -> :class:`FieldRole`: the impact-layer roles of :data:`DEFAULT_NAMES`,
        then the exemption and road facts.

    Examples
    --------
    >>> roles = field_roles()
    >>> roles["impact_kind"].names
    ('impact_kind', 'impact_kin', 'impact', 'activity')
    >>> roles["road_authority"].names, roles["road_authority"].kind
    (('road_auth',), 'road')
    """
    out = {
        role: FieldRole(role, ROLE_LABELS[role], with_truncations(names), "impact")
        for role, names in DEFAULT_NAMES.items()
    }
    for fact in FACTS.values():
        if fact.group not in ("exemption", "road"):
            continue
        words = fact.key.replace("_", " ")
        if fact.group == "road":
            label, kind = f"{words} (road fact, § 103G.222, subd. 1(l), (m))", "road"
        elif fact.claim:
            label, kind = f"{words} (exemption claim, § 103G.2241)", "exemption"
        else:
            label, kind = f"{words} (exemption fact, § 103G.2241)", "exemption"
        out[fact.key] = FieldRole(fact.key, label, with_truncations((fact.column,)), kind)
    return out


def closest_role(name: str, roles: Mapping[str, FieldRole] | None = None) -> str | None:
    """Return the role ``name`` most likely means (by role name or column name), or None.

    Examples
    --------
    >>> closest_role("impact_kin"), closest_role("cedar-tamarack"), closest_role("zzz")
    ('impact_kind', 'cedar_tamarack', None)
    """
    roles = field_roles() if roles is None else roles
    key = str(name).strip().lower().replace("-", "_")
    spellings: dict[str, str] = {}
    for spec in roles.values():
        for spelling in (spec.role, *spec.names):
            spellings.setdefault(spelling.lower(), spec.role)
    if key in spellings:
        return spellings[key]
    close = difflib.get_close_matches(key, list(spellings), n=1, cutoff=0.6)
    return spellings[close[0]] if close else None


def check_roles(names: Iterable[str], *, where: str = "the field mapping") -> None:
    """Raise :class:`~wetland_gis.errors.FieldMappingError` on a name that is not a role.

    Parameters
    ----------
    names : iterable of str
        The roles given (``--field ROLE=COLUMN``, a field-map file, ``fields=``).
    where : str
        Where they were given, for the message.

    Raises
    ------
    FieldMappingError
        Naming the unknown role, the closest role and ``wetland-gis fields``.
    """
    roles = field_roles()
    for name in names:
        if name in roles:
            continue
        near = closest_role(name, roles)
        hint = f"the closest role is {near!r}; " if near else ""
        raise FieldMappingError(
            f"{where}: {name!r} is not a field role; {hint}`wetland-gis fields` lists every "
            "role with the column names it reads"
        )


def field_name_warnings(
    columns: Iterable[Any], field_map: FieldMapping, *, rows: int | None = None
) -> list[str]:
    """Return a warning for each column that looks like a role no column was found for.

    A column that is read for no role but looks like a name of such a role (another case
    or separator, a shorter or numbered shapefile cut: :func:`wetland_gis.io.field_names.
    looks_like`) is probably that role: the warning names the role and how to map it.

    Parameters
    ----------
    columns : iterable
        The layer's column names.
    field_map : FieldMapping
        What :func:`resolve_fields` found.
    rows : int or None
        How many features the layer has; when it has some (or it is not known) and no
        column gives a wetland type, one more message says so (every row would be "not
        assessed").

    Returns
    -------
    list of str
        One message per such column, in column order, then the missing wetland type.

    Examples
    --------
    >>> columns = ["impact_id", "Impact Kind", "geometry"]
    >>> field_name_warnings(columns, resolve_fields(columns))[0][:70]
    "column 'Impact Kind' is not read, but it looks like the impact kind ro"
    """
    roles = field_roles()
    mapped = {k for k, v in field_map.as_dict().items() if v is not None}
    mapped |= {role for role, _ in field_map.exemption_columns}
    used = {str(v).lower() for v in field_map.as_dict().values() if v is not None}
    used |= {column.lower() for _, column in field_map.exemption_columns}
    accepted = {n.lower() for spec in roles.values() for n in spec.names}
    open_roles = [spec for spec in roles.values() if spec.role not in mapped]
    out = []
    named: set[str] = set()  # the roles a look-alike column was named for
    for column in (str(c) for c in columns):
        low = column.strip().lower()
        if low in used or low in accepted or low == "geometry":
            continue
        matches = [
            spec
            for spec in open_roles
            if looks_like(column, spec.role, read=spec.role in spec.names)
            or any(looks_like(column, n) for n in spec.names)
        ]
        if not matches:
            continue
        matches.sort(key=lambda spec: -_likeness(low, spec))
        match, others = matches[0], matches[1:]
        named.add(match.role)
        also = f" (or {', '.join(repr(m.role) for m in others[:3])})" if others else ""
        option = shlex.quote(f"{match.role}={column}")
        out.append(
            f"column {column!r} is not read, but it looks like the {match.label} role "
            f"{match.role!r}{also}, read from a column named {', '.join(match.names)}; if it "
            f"holds that, map it with --field {option} (Python: "
            f"fields={{{match.role!r}: {column!r}}})"
        )
    return out + (_no_type_column(columns, mapped | named) if rows != 0 else [])


def _no_type_column(columns: Iterable[Any], covered: set[str]) -> list[str]:
    """Return a warning when no column gives any row a wetland type.

    ``covered``: the roles a column is read for or was named for in a look-alike warning.

    Without a Circular 39 type or a Cowardin code column every row is "not assessed"; the
    run says once which roles are missing and how to map one, rather than leaving the
    analyst to read it from thousands of rows (a column named unlike any accepted name,
    ``circular39``, is otherwise silent).
    """
    if {"wetland_type", "cowardin"} & covered:
        return []
    roles = field_roles()
    names = ", ".join((*roles["wetland_type"].names, *roles["cowardin"].names))
    others = [str(c) for c in columns if str(c).lower() != "geometry"]
    return [
        f"no column gives the wetland type: none is named {names}, so every row will be "
        f"'not assessed'; if a column holds the Circular 39 type, map it with --field "
        f"wetland_type=COLUMN (or --field cowardin=COLUMN for a Cowardin code); the "
        f"layer's columns are {', '.join(others)}"
    ]


def _likeness(column: str, spec: FieldRole) -> float:
    """Return how alike ``column`` is to the closest name of ``spec`` (0 to 1)."""
    return max(
        difflib.SequenceMatcher(None, squash(column), squash(n)).ratio()
        for n in (spec.role, *spec.names)
    )


@dataclass(frozen=True)
class FieldMapping:
    """Which column holds each attribute wetland_gis reads; None when there is none.

    Parameters
    ----------
    impact_id, wetland_type, cowardin, project, cedar_tamarack, impact_kind, land_use, \
wetland_acres : str or None
        The actual column name (as spelt in the layer) for each role.
    partial, duration, isolated, runoff_retention, wetland_id, owner, owns_whole_wetland, \
portion_sqft, prior_sqft_since_1992, bottomland_hardwood, banked, used_for_credit, \
partial_share, pw_inventory_id, wetland_source : str or None
        The optional per-wetland fact columns (docs/data_schema.md, issue 13; the wetland
        source, issue 35).
    exemption_columns : tuple of (str, str)
        ``(role, column)`` of each exemption or road fact column found
        (:mod:`wetland_gis.io.exemption_columns`, issue 20).
    notes : tuple of str
        Why a candidate column was skipped, e.g. an NWI ``WETLAND_TY`` field.
    """

    impact_id: str | None = None
    wetland_type: str | None = None
    cowardin: str | None = None
    project: str | None = None
    cedar_tamarack: str | None = None
    impact_kind: str | None = None
    land_use: str | None = None
    wetland_acres: str | None = None
    partial: str | None = None
    duration: str | None = None
    isolated: str | None = None
    runoff_retention: str | None = None
    wetland_id: str | None = None
    owner: str | None = None
    parcel_id: str | None = None
    owns_whole_wetland: str | None = None
    portion_sqft: str | None = None
    prior_sqft_since_1992: str | None = None
    bottomland_hardwood: str | None = None
    banked: str | None = None
    used_for_credit: str | None = None
    partial_share: str | None = None
    pw_inventory_id: str | None = None
    wetland_source: str | None = None
    exemption_columns: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, str | None]:
        """Return ``{role: column}`` for every role (without the notes)."""
        return {name: getattr(self, name) for name in DEFAULT_NAMES}


def _type_column_problem(name: str, values: pd.Series) -> str | None:
    """Return why ``values`` are not Circular 39 types, or None when they are."""
    present = [v for v in values.dropna().unique() if not (isinstance(v, str) and not v.strip())]
    if not present:
        return f"column {name!r} is empty"
    nwi = sorted({str(v) for v in present if str(v).strip().lower() in NWI_CATEGORIES})
    if nwi:
        return (
            f"column {name!r} holds NWI wetland categories (e.g. {nwi[0]!r}), not Circular "
            "39 types; the type is inferred from the Cowardin code instead"
        )
    for value in present:
        try:
            parse_wetland_type(value)
        except WetlandTypeError:
            continue
        return None
    return f"column {name!r}: no value reads as a Circular 39 type (e.g. {present[0]!r})"


def resolve_fields(columns: Iterable[Any] | pd.DataFrame, **user_names: str | None) -> FieldMapping:
    """Find the columns holding the impact id, wetland type, Cowardin code, etc.

    Parameters
    ----------
    columns : iterable of str, or DataFrame
        The layer's column names, or the layer itself. With a DataFrame, a type column
        named ``WETLAND_TY`` / ``wetland_type`` is used only if its values read as
        Circular 39 types (see the module notes).
    **user_names : str or None
        Column names chosen by the user, by role: ``impact_id``, ``wetland_type``,
        ``cowardin``, ``project``, ``cedar_tamarack``, ``impact_kind``, ``land_use``,
        ``wetland_acres`` and the per-wetland facts of :data:`DEFAULT_NAMES`. None means
        "use the defaults". Matched case-insensitively.

    Returns
    -------
    FieldMapping
        The actual column names (None where no column was found) and notes.

    Raises
    ------
    FieldMappingError
        When a user-given column is not in the layer; the message lists the columns.
    TypeError
        When a keyword is not one of the roles above.

    Examples
    --------
    >>> resolve_fields(["IMPACT_ID", "ATTRIBUTE", "geometry"]).cowardin
    'ATTRIBUTE'
    """
    exemption_names = {k: v for k, v in user_names.items() if k in EXEMPTION_FIELD_ROLES}
    user_names = {k: v for k, v in user_names.items() if k not in EXEMPTION_FIELD_ROLES}
    unknown = sorted(set(user_names) - set(DEFAULT_NAMES))
    if unknown:
        near = {u: closest_role(u) for u in unknown}
        hint = "; ".join(f"{u!r}: did you mean {n!r}?" for u, n in near.items() if n)
        raise TypeError(
            f"unknown field role(s) {unknown}; expected some of {list(DEFAULT_NAMES)} or an "
            f"exemption fact role{' (' + hint + ')' if hint else ''}"
        )
    frame = columns if isinstance(columns, pd.DataFrame) else None
    names = [str(c) for c in (frame.columns if frame is not None else columns)]
    by_lower: dict[str, list[str]] = {}
    for name in names:
        by_lower.setdefault(name.lower(), []).append(name)

    def find(candidate: str) -> str | None:
        found = by_lower.get(candidate.lower())
        if not found:
            return None
        return candidate if candidate in found else found[0]

    chosen: dict[str, str | None] = {}
    notes: list[str] = []

    def find_given(role: str, given: str) -> str | None:
        """Find a user-named column, or its 10-character cut (the layer is a shapefile)."""
        column = find(given)
        cut = given[:SHAPEFILE_NAME_LIMIT]
        if column is None and cut != given and find(cut) is not None:
            column = find(cut)
            notes.append(
                f"the {role} column {given!r} was read as {column!r}, its first "
                f"{SHAPEFILE_NAME_LIMIT} characters (a shapefile keeps no more)"
            )
        return column

    exemption_names = {
        k: (find_given(k, str(v)) or v) if v is not None else None
        for k, v in exemption_names.items()
    }
    for role, defaults in DEFAULT_NAMES.items():
        given = user_names.get(role)
        if given is not None:
            column = find_given(role, str(given))
            if column is None:
                raise FieldMappingError(
                    f"the {ROLE_LABELS[role]} column {given!r} is not in the layer; available "
                    f"columns: {', '.join(names) or '(none)'}{closest_column(given, names)} "
                    f"(role {role!r}; `wetland-gis fields LAYER` shows what each role reads)"
                )
            chosen[role] = column
            continue
        chosen[role] = None
        for candidate in with_truncations(defaults):
            column = find(candidate)
            if column is None:
                continue
            if role == "wetland_type" and column.lower() in _CHECK_VALUES:
                if frame is None:
                    if column.lower() in _NEEDS_VALUES:
                        notes.append(
                            f"column {column!r} not used as the wetland type: it is the NWI "
                            "WETLAND_TYPE field name and its values were not checked"
                        )
                        continue
                else:
                    problem = _type_column_problem(column, frame[column])
                    if problem is not None:
                        notes.append(f"{problem} (not used as the wetland type)")
                        continue
            chosen[role] = column
            break
    return FieldMapping(
        **chosen,
        exemption_columns=resolve_exemption_columns(names, exemption_names),
        notes=tuple(notes),
    )


def impact_exceeds_wetland(
    impact_sqft: float, wetland_acres: float | None, *, column: str = "wetland_ac"
) -> str | None:
    """Return the verify item of an impact larger than the size given for its wetland.

    A data check on the ``wetland_acres`` role (column ``wetland_ac``): an impact cannot
    be larger than the whole wetland it lies in, so either the polygon or the size is
    wrong, and the size decides rules that read it.

    Parameters
    ----------
    impact_sqft : float
        The impact's wetland area, square feet.
    wetland_acres : float or None
        The whole wetland's size as given (None: not given, nothing to check).
    column : str
        The layer's column, for the message.

    Returns
    -------
    str or None
        The verify item, or None when the impact is not larger (exactly equal is not).

    Examples
    --------
    >>> impact_exceeds_wetland(43_560.0, 1.0) is None
    True
    >>> impact_exceeds_wetland(43_561.0, 1.0)[:60]
    'wetland size: the impact (43,561 sq ft, 1.0000 ac) is larger'
    """
    if wetland_acres is None or not impact_sqft > wetland_acres * SQFT_PER_ACRE:
        return None
    return (
        f"wetland size: the impact ({impact_sqft:,.0f} sq ft, {impact_sqft / SQFT_PER_ACRE:.4f} "
        f"ac) is larger than the {column} given for its wetland ({wetland_acres:g} ac): check "
        f"the {column} value and the impact polygon; rules that read the wetland's size used "
        "the value given"
    )
