"""Circular 39 wetland types read from attribute text or inferred from Cowardin codes.

The Wetland Conservation Act speaks in Circular 39 types 1-8 (Minn. Stat. § 103G.005,
subd. 17b); GIS layers often carry something else: a type written by hand ("Type 3",
"T3", "III", "type 3/4"), an Eggers & Reed plant community ("shallow marsh",
"shrub-carr"), or only the National Wetlands Inventory Cowardin code ("PEM1C").

:func:`parse_wetland_type` reads a *given* type. :func:`infer_from_cowardin` *infers* one
from a Cowardin code through :data:`COWARDIN_CROSSWALK`, and marks ambiguous inferences
for field verification. :func:`reading_for` prefers the given type and falls back to the
Cowardin code, warning with :class:`~wetland_gis.errors.InferredWetlandTypeWarning`.

Every failure is a :class:`~wetland_gis.errors.WetlandTypeError` naming the value and
the accepted forms, so a caller can mark the row "not assessed" with that reason.

NWI maps have no regulatory status: a wetland delineation decides the type. These
functions screen; they do not decide.
"""

from __future__ import annotations

import csv
import math
import re
import unicodedata
import warnings
from dataclasses import dataclass
from importlib import resources
from numbers import Integral, Real
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from wetland_gis.enums import ASSESSED, ImpactOutcome, StatusCode, WetlandType
from wetland_gis.errors import (
    InferredWetlandTypeWarning,
    ValueParseError,
    WetlandTypeError,
    warn_recorded,
)
from wetland_gis.io.values import is_blank, parse_bool

SOURCES = ("given", "inferred")

ACCEPTED_FORMS = (
    "a Circular 39 type 1-8 written as 3, 3.0, '3', 'Type 3', 'type3', 'T3', 'III' or "
    "'Circular 39 type 3'; a mixed polygon as 'Type 3/4' or '3, 4'; alternatives as "
    "'type 2 or 3'; or a Circular 39 / Eggers & Reed community name such as "
    "'seasonally flooded basin', 'sedge meadow', 'shallow marsh', 'deep marsh', "
    "'shallow open water', 'shrub-carr', 'hardwood swamp', 'white cedar swamp', "
    "'open bog'"
)


@dataclass(frozen=True)
class TypeReading:
    """A Circular 39 type as read or inferred for one polygon.

    Parameters
    ----------
    types : tuple of WetlandType
        One type, or several: the parts of a mixed polygon ("type 3/4", in the order
        written, or dominant class first for a Cowardin mixed code), or the candidate
        types of an ambiguous inference (ascending). Never empty.
    cedar_tamarack : bool or None
        True when the text names a white cedar or tamarack wetland; None when it does
        not say (combine with a ``cedar_tamarack`` column where there is one).
    source : {"given", "inferred"}
        ``"given"`` for a type read from the attributes, ``"inferred"`` for one derived
        from a Cowardin code.
    verify : bool
        True when a person must check the type in the field (ambiguous inference,
        calcareous fen, alternatives given, ...).
    note : str
        Plain-English explanation of how the type was obtained and what to check.
    """

    types: tuple[WetlandType, ...]
    cedar_tamarack: bool | None = None
    source: str = "given"
    verify: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        if not self.types:
            raise ValueError("TypeReading.types must hold at least one WetlandType")
        object.__setattr__(self, "types", tuple(WetlandType(t) for t in self.types))
        if self.source not in SOURCES:
            raise ValueError(f"`source` was {self.source!r} but is expected to be in {SOURCES}")

    @property
    def type(self) -> WetlandType | None:
        """Return the single type, or None when the reading holds several."""
        return self.types[0] if len(self.types) == 1 else None

    @property
    def label(self) -> str:
        """Return the types as written in output files, e.g. ``"3"`` or ``"2/3"``."""
        return "/".join(str(int(t)) for t in self.types)


# --------------------------------------------------------------------------------------
# Given types: numbers, roman numerals and community names
# --------------------------------------------------------------------------------------


class _Community(NamedTuple):
    type: int
    cedar_tamarack: bool | None = None
    verify: bool = False
    note: str = ""


_FEN_NOTE = (
    "calcareous fen: check the DNR list of calcareous fens; a fen may not be filled, "
    "drained or degraded (§ 103G.223) and is not handled as an ordinary type 2"
)


def _data_rows(name: str) -> list[dict[str, str]]:
    """Return the rows of a package data CSV, skipping its ``#`` comment lines."""
    text = (resources.files("wetland_gis") / "data" / name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines))


def _flag(row: dict[str, str], column: str, name: str) -> bool | None:
    try:
        return parse_bool(row[column])
    except ValueParseError as err:
        raise WetlandTypeError(f"wetland_gis/data/{name}: {err}") from err


def _load_communities() -> dict[str, _Community]:
    """Read ``data/community_types.csv`` (see its header for the basis) once."""
    name = "community_types.csv"
    return {
        row["name"]: _Community(
            int(row["type"]),
            cedar_tamarack=_flag(row, "cedar_tamarack", name),
            verify=_flag(row, "verify", name) is True,
            note=row["note"],
        )
        for row in _data_rows(name)
    }


#: Community names (normalised: lower case, no parentheses) -> Circular 39 type, read from
#: ``wetland_gis/data/community_types.csv``. Basis: Shaw & Fredine (1956, rev. 1971)
#: Circular 39 type names, and the Eggers & Reed plant communities of "Wetland Plants and
#: Plant Communities of Minnesota and Wisconsin" as grouped in
#: shared/reference/rules-facts.md ("Wetland type data").
COMMUNITY_TYPES: dict[str, _Community] = _load_communities()

#: Values of the NWI ``WETLAND_TYPE`` field (truncated ``WETLAND_TY`` in shapefiles):
#: broad NWI categories, not Circular 39 types.
NWI_CATEGORIES = frozenset(
    {
        "freshwater emergent wetland",
        "freshwater forested/shrub wetland",
        "freshwater pond",
        "lake",
        "riverine",
        "estuarine and marine wetland",
        "estuarine and marine deepwater",
        "other",
    }
)

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8}
_NUMBER = r"(?:\d+(?:\.0+)?|viii|vii|vi|iv|v|iii|ii|i)"
_TYPE_TOKEN = rf"(?:types?|typ|t)?\s*\.?\s*(?P<num>{_NUMBER})"
_TYPE_RE = re.compile(rf"^{_TYPE_TOKEN}$")
_NAME_THEN_TYPE_RE = re.compile(
    rf"^(?P<name>[a-z][a-z \-]*?)\s*[-:,]?\s*(?:types?|t)\s*(?P<num>{_NUMBER})$"
)
_TYPE_THEN_NAME_RE = re.compile(
    rf"^(?:types?|t)?\s*(?P<num>{_NUMBER})\s*[-:,]?\s*(?P<name>[a-z][a-z \-]*)$"
)
_CIRCULAR_PREFIX_RE = re.compile(r"^(?:circular|circ\.?|c)\s*(?:no\.?\s*)?39\s*[:,\-]?\s*")
_SPLIT_RE = re.compile(r"\s*(?:/|,|;|&|\+|\band\b|\bor\b)\s*")
_OR_RE = re.compile(r"\bor\b")


def _normalise(text: str) -> str:
    """Lower-case, unify dashes and spaces, drop parentheses and trailing 'wetland'."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    text = text.replace("_", " ").replace("(", " ").replace(")", " ")
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s*\bwetlands?$", "", text).strip()
    return text


def _type_error(value: Any, reason: str) -> WetlandTypeError:
    return WetlandTypeError(
        f"cannot read wetland type {value!r}: {reason}. Accepted forms: {ACCEPTED_FORMS}."
    )


def _number_to_type(value: Any, num: int) -> WetlandType:
    if 1 <= num <= 8:
        return WetlandType(num)
    if 9 <= num <= 20:
        reason = (
            f"Circular 39 type {num} is a coastal (saline or tidal) type; the Wetland "
            "Conservation Act uses the inland types 1-8"
        )
    else:
        reason = f"{num} is out of range: Circular 39 inland types are 1-8"
    raise _type_error(value, reason)


def _token_number(token: str) -> int:
    if token in _ROMAN:
        return _ROMAN[token]
    return int(float(token))


def _community(name: str) -> _Community | None:
    name = name.strip(" -:,")
    for candidate in (name, name[:-1] if name.endswith("s") else name):
        found = COMMUNITY_TYPES.get(candidate)
        if found is not None:
            return found
    # Plural of "basin or flat" / "basins or flats" and similar.
    singular = " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in name.split())
    return COMMUNITY_TYPES.get(singular)


def _parse_part(value: Any, part: str) -> _Community:
    """Read one part of a (possibly mixed) type text: a number or a community name."""
    match = _TYPE_RE.match(part)
    if match:
        num = _token_number(match["num"])
        return _Community(int(_number_to_type(value, num)))
    found = _community(part)
    if found is not None:
        return found
    for pattern in (_TYPE_THEN_NAME_RE, _NAME_THEN_TYPE_RE):
        match = pattern.match(part)
        if not match:
            continue
        found = _community(match["name"])
        if found is None:
            continue
        num = int(_number_to_type(value, _token_number(match["num"])))
        if num != found.type:
            raise _type_error(
                value,
                f"type {num} contradicts the community {match['name'].strip()!r}, "
                f"which is type {found.type}",
            )
        return found
    raise _type_error(value, f"{part!r} is neither a type number nor a known community name")


def parse_wetland_type(value: Any) -> TypeReading:
    """Read a Circular 39 wetland type given in an attribute.

    Parameters
    ----------
    value : int, float or str
        The attribute value: ``3``, ``3.0``, ``"3"``, ``"Type 3"``, ``"type3"``,
        ``"T3"``, ``"III"``, ``"Circular 39 type 3"``, a mixed polygon ``"Type 3/4"``
        or ``"3, 4"``, alternatives ``"type 2 or 3"``, or a community name
        (``"shallow marsh"``, ``"fresh (wet) meadow"``, ``"white cedar swamp"``, ...).
        Case, spaces, underscores and dashes do not matter.

    Returns
    -------
    TypeReading
        ``source="given"``. ``cedar_tamarack`` is True for white cedar / tamarack
        communities; ``verify`` is True for a calcareous fen and for alternatives.

    Raises
    ------
    WetlandTypeError
        For an empty, unknown or out-of-range value, an NWI category such as
        "Freshwater Emergent Wetland", or a Cowardin code (use
        :func:`infer_from_cowardin`). The message names the value and the accepted forms.

    Examples
    --------
    >>> parse_wetland_type("Type 3/4").label
    '3/4'
    >>> parse_wetland_type("tamarack bog").cedar_tamarack
    True
    """
    if is_blank(value):
        raise _type_error(value, "the value is empty")
    if isinstance(value, bool):
        raise _type_error(value, "a boolean is not a wetland type")
    if isinstance(value, Integral):
        return TypeReading((_number_to_type(value, int(value)),))
    if isinstance(value, Real):
        number = float(value)
        if not math.isfinite(number) or not number.is_integer():
            raise _type_error(value, "a type number must be a whole number 1-8")
        return TypeReading((_number_to_type(value, int(number)),))
    if not isinstance(value, str):
        raise _type_error(value, f"a {type(value).__name__} is not a wetland type")

    text = value.strip()
    if _cowardin_match(text) is not None and not _TYPE_RE.match(_normalise(text)):
        raise _type_error(
            value,
            "this looks like a Cowardin (NWI) code; map it as the Cowardin field so the "
            "type is inferred (and flagged) with infer_from_cowardin",
        )
    norm = _CIRCULAR_PREFIX_RE.sub("", _normalise(text))
    if re.sub(r"\s+", " ", text.lower()) in NWI_CATEGORIES:
        raise _type_error(
            value,
            "this is an NWI wetland category (the NWI WETLAND_TYPE field), not a "
            "Circular 39 type; map the Cowardin code (ATTRIBUTE) to infer a type instead",
        )
    if not norm:
        raise _type_error(value, "no type after the 'Circular 39' prefix")

    whole = _community(norm)
    if whole is not None:
        parts = [whole]
        alternatives = False
    else:
        alternatives = bool(_OR_RE.search(norm))
        pieces = [p for p in _SPLIT_RE.split(norm) if p]
        if not pieces:
            raise _type_error(value, "no type number or community name found")
        parts = [_parse_part(value, piece) for piece in pieces]

    types: list[WetlandType] = []
    for part in parts:
        if WetlandType(part.type) not in types:
            types.append(WetlandType(part.type))
    cedar = True if any(p.cedar_tamarack for p in parts) else None
    notes = [p.note for p in parts if p.note]
    verify = any(p.verify for p in parts)
    if len(types) > 1:
        written = " and ".join(t.label for t in types)
        if alternatives:
            verify = True
            notes.insert(0, f"given as alternatives ({written}): verify which applies")
        else:
            notes.insert(0, f"mixed polygon: {written}")
    return TypeReading(
        tuple(types),
        cedar_tamarack=cedar,
        source="given",
        verify=verify,
        note="; ".join(dict.fromkeys(notes)),
    )


# --------------------------------------------------------------------------------------
# Cowardin codes (Cowardin et al. 1979; FGDC Wetlands Classification Standard 2013)
# --------------------------------------------------------------------------------------

#: Water regime modifiers. A-Z except the tidal letters are nontidal; L-P are saltwater
#: tidal, Q-V freshwater tidal. D, W, Y, Z are 1979 regimes no longer used by NWI.
WATER_REGIMES: dict[str, str] = {
    "A": "temporarily flooded",
    "B": "saturated",
    "C": "seasonally flooded",
    "D": "seasonally flooded/well drained",
    "E": "seasonally flooded/saturated",
    "F": "semipermanently flooded",
    "G": "intermittently exposed",
    "H": "permanently flooded",
    "J": "intermittently flooded",
    "K": "artificially flooded",
    "W": "intermittently flooded/temporary",
    "Y": "saturated/semipermanent/seasonal",
    "Z": "intermittently exposed/permanent",
    "U": "unknown",
    "L": "subtidal",
    "M": "irregularly exposed",
    "N": "regularly flooded",
    "P": "irregularly flooded",
    "Q": "regularly flooded-fresh tidal",
    "R": "seasonally flooded-fresh tidal",
    "S": "temporarily flooded-fresh tidal",
    "T": "semipermanently flooded-fresh tidal",
    "V": "permanently flooded-fresh tidal",
}
_TIDAL_REGIMES = frozenset("LMNPQRSTV")

_CLASSES = {
    "RB": "rock bottom",
    "UB": "unconsolidated bottom",
    "OW": "open water (1979 code)",
    "AB": "aquatic bed",
    "RF": "reef",
    "SB": "streambed",
    "RS": "rocky shore",
    "US": "unconsolidated shore",
    "EM": "emergent",
    "SS": "scrub-shrub",
    "FO": "forested",
    "ML": "moss-lichen",
}

_SYSTEMS = {
    "P": "palustrine",
    "L": "lacustrine",
    "R": "riverine",
    "E": "estuarine",
    "M": "marine",
}

_COWARDIN_RE = re.compile(
    r"^(?P<system>[PLREM])(?P<subsystem>[1-5])?"
    r"(?P<class1>[A-Z]{2})(?P<sub1>\d)?"
    r"(?:/(?P<class2>[A-Z]{2})?(?P<sub2>\d)?)?"
    r"(?P<regime>[A-Z])?(?P<mods>[a-z0-9]*)$"
)
_COWARDIN_UPPER_RE = re.compile(_COWARDIN_RE.pattern.replace("[a-z0-9]", "[A-Z0-9]"))


def _cowardin_match(code: str) -> re.Match[str] | None:
    """Match a Cowardin code, tolerating an all-upper or all-lower case spelling."""
    match = _COWARDIN_RE.match(code)
    if match is None:
        match = _COWARDIN_UPPER_RE.match(code.upper())
    if match is None or match["class1"] not in _CLASSES:
        return None
    if match["class2"] is not None and match["class2"] not in _CLASSES:
        return None
    return match


#: Cowardin water regimes of permanently and semipermanently flooded areas (F, G, H).
FLOODED_REGIMES = frozenset("FGH")


def water_regime_flooded(code: Any) -> bool | None:
    """Return whether a Cowardin code's water regime is permanently or semipermanently flooded.

    What the NWI code says is evidence, not a determination (the TEP determines the
    type, § 103G.2242, subd. 2): the rules read it as ``ImpactFacts.water_regime_flooded``.

    Parameters
    ----------
    code : Any
        A Cowardin code such as ``"PEM1F"``; blank or missing: unknown.

    Returns
    -------
    bool or None
        True for the regimes F, G and H, False for another regime, None when the code is
        blank, not a Cowardin code or has no water regime.

    Examples
    --------
    >>> water_regime_flooded("PUBH"), water_regime_flooded("PEM1C"), water_regime_flooded("")
    (True, False, None)
    """
    if is_blank(code):
        return None
    match = _cowardin_match(str(code).strip())
    if match is None or match["regime"] is None:
        return None
    return match["regime"] in FLOODED_REGIMES


class CowardinRule(NamedTuple):
    """One row of the Cowardin to Circular 39 crosswalk."""

    types: tuple[int, ...]
    verify: bool
    basis: str


def _load_crosswalk() -> dict[tuple[str, str, str], CowardinRule]:
    """Read ``data/cowardin_crosswalk.csv`` (see its header for the basis) once."""
    name = "cowardin_crosswalk.csv"
    return {
        (row["system"], row["class"], row["regime"]): CowardinRule(
            tuple(int(t) for t in row["types"].split("/")),
            _flag(row, "verify", name) is True,
            row["basis"],
        )
        for row in _data_rows(name)
    }


#: Cowardin (system, class, water regime) -> Circular 39 types, for the combinations
#: the crosswalk can answer; any other combination raises WetlandTypeError. Read from
#: ``wetland_gis/data/cowardin_crosswalk.csv``.
#:
#: Basis: the comparison of Circular 39 types with Cowardin classes in Cowardin et al.
#: (1979, appendix), the Circular 39 and Cowardin equivalents given for each community
#: in Eggers & Reed, and Svoboda's note that NWI coded most type 3 marshes "C" and that
#: bottomland hardwoods are type 1, not type 7. Where two types fit, both are listed
#: (ascending) and ``verify`` is True; a person decides. Lacustrine littoral (L2) emergent
#: and aquatic bed/bottom are mapped to deep marsh (4) and open water (5), always to
#: verify, because the lake is likely public waters. Riverine, lacustrine limnetic,
#: estuarine and marine codes, and any tidal water regime, are not inland Circular 39
#: types 1-8 and raise.
COWARDIN_CROSSWALK: dict[tuple[str, str, str], CowardinRule] = _load_crosswalk()

_LAKE_NOTE = (
    "lacustrine littoral (L2): the shallow fringe of a lake, likely public waters; check "
    "the public waters inventory before treating it as a WCA wetland"
)

#: Modifiers that add a note, and whether they call for verification.
_MODIFIER_NOTES: dict[str, tuple[bool, str]] = {
    "b": (
        True,
        "beaver (b): a wetland created solely by a beaver dam may be incidental "
        "(§ 103G.2241, subd. 5)",
    ),
    "d": (True, "partly drained/ditched (d): the type before drainage may differ; check hydrology"),
    "f": (True, "farmed (f): check cropping history and the agricultural exemptions"),
    "h": (False, "diked/impounded (h)"),
    "r": (True, "artificial substrate (r)"),
    "s": (True, "spoil (s)"),
    "x": (
        True,
        "excavated (x): check whether it is a wetland created by excavation in "
        "upland (incidental, § 103G.2241, subd. 5) or a constructed stormwater facility "
        "(§ 103G.005, subd. 8a)",
    ),
    "a": (True, "acid (a): a saturated acid wetland may be a bog (type 8)"),
    "g": (False, "organic soil (g)"),
    "n": (False, "mineral soil (n)"),
    "t": (False, "circumneutral (t)"),
    "i": (False, "alkaline (i)"),
}


def _not_inland(code: str, reason: str) -> WetlandTypeError:
    return WetlandTypeError(
        f"Cowardin code {code!r} is not a Circular 39 palustrine wetland type: {reason}. "
        "Give the Circular 39 type in the type field if this polygon is a regulated "
        "wetland; otherwise record it as not assessed."
    )


def _class_rule(code: str, system_key: str, cls: str, regime: str) -> CowardinRule:
    cls = "UB" if cls == "OW" else cls
    rule = COWARDIN_CROSSWALK.get((system_key, cls, regime))
    if rule is None:
        covered = [r for s, c, r in COWARDIN_CROSSWALK if (s, c) == (system_key, cls)]
        raise WetlandTypeError(
            f"Cowardin code {code!r}: the crosswalk has no Circular 39 type for "
            f"{_SYSTEMS[system_key[0]]} {_CLASSES.get(cls, cls)} with water regime "
            f"{regime} ({WATER_REGIMES[regime]}); give the type in the type field. "
            f"The crosswalk covers {_CLASSES.get(cls, cls)} with water regimes: "
            + (", ".join(covered) if covered else "none")
        )
    return rule


def infer_from_cowardin(code: Any) -> TypeReading:
    """Infer a Circular 39 type from a Cowardin (NWI ``ATTRIBUTE``) code.

    Parameters
    ----------
    code : str
        A Cowardin code such as ``"PEM1C"``, ``"PFO1A"``, ``"PSS1/EM1C"``, ``"PUBHx"``.
        Case is tolerated when the code is all upper or all lower case.

    Returns
    -------
    TypeReading
        ``source="inferred"``; ``types`` holds every candidate type (ascending), or
        for a mixed-class code the dominant class's types first; ``verify`` is True
        for ambiguous inferences (e.g. ``PEM...C``: type 2 or 3), lake fringes, and
        excavated, drained, farmed, beaver or acid codes; ``note`` says why.

    Raises
    ------
    WetlandTypeError
        For an empty or unrecognised code; riverine (R), lacustrine limnetic (L1),
        estuarine (E) or marine (M) codes; tidal water regimes; a missing or unknown
        water regime; or a combination the crosswalk does not cover.

    Notes
    -----
    The crosswalk is :data:`COWARDIN_CROSSWALK`. Special modifiers (after the water
    regime) add notes from ``_MODIFIER_NOTES``. Needle-leaved or broad-leaved
    evergreen subclasses (2, 3, 4) of saturated forest or scrub-shrub add bog (type 8)
    as a candidate. ``cedar_tamarack`` is always None: a Cowardin code cannot say
    whether the trees are white cedar or tamarack.

    Examples
    --------
    >>> reading = infer_from_cowardin("PEM1C")
    >>> reading.label, reading.verify
    ('2/3', True)
    """
    if is_blank(code):
        raise WetlandTypeError("no Cowardin code: the value is empty")
    if not isinstance(code, str):
        raise WetlandTypeError(f"Cowardin code {code!r} is not text")
    code = code.strip()
    match = _cowardin_match(code)
    if match is None:
        raise WetlandTypeError(
            f"{code!r} is not a recognised Cowardin code (expected system, class, water "
            "regime and modifiers, e.g. 'PEM1C', 'PFO1A', 'PSS1/EM1C', 'PUBHx')"
        )
    _check_inland(code, match)
    system, regime = match["system"], match["regime"]
    mods = (match["mods"] or "").lower()
    class1, class2 = match["class1"], match["class2"]
    classes = [class1] + ([class2] if class2 and class2 != class1 else [])
    system_key = "L2" if system == "L" else "P"
    types, verify, notes, mixed = _crosswalk_types(code, system_key, classes, regime)

    woody = bool({"SS", "FO"} & set(classes))
    saturated = regime in {"B", "E", "Y"}
    subclasses = {s for s in (match["sub1"], match["sub2"]) if s}
    if woody and saturated and (subclasses & {"2", "3", "4"} or "a" in mods) and 8 not in types:
        types.append(8)
        verify = True
        notes.append(
            "evergreen/needle-leaved or acid woody cover on saturated soil: may be a bog (type 8)"
        )
    if woody and subclasses & {"2", "4"}:
        notes.append(
            "needle-leaved trees or shrubs: check whether it is a white cedar or tamarack "
            "wetland (§ 103G.2241, subd. 9)"
        )
    if system == "L":
        notes.append(_LAKE_NOTE)
    if "EM" in classes and regime == "B" and "i" in mods:
        verify = True
        notes.append(_FEN_NOTE)
    for mod in dict.fromkeys(mods):
        flag, text = _MODIFIER_NOTES.get(mod, (False, ""))
        if mod == "a" and not (woody and saturated):
            flag, text = False, "acid (a)"
        if text:
            verify = verify or flag
            notes.append(text)
    if not mixed:
        head = f"inferred from Cowardin {code}: " + " or ".join(f"type {t}" for t in types)
    else:
        head = f"inferred from Cowardin {code}: types " + "/".join(str(t) for t in types)
    if verify:
        head += " (verify in the field)"
    return TypeReading(
        tuple(WetlandType(t) for t in types),
        cedar_tamarack=None,
        source="inferred",
        verify=verify,
        note="; ".join([head, *notes]),
    )


def _check_inland(code: str, match: re.Match[str]) -> None:
    """Refuse a Cowardin code that is no inland Circular 39 type, or has no water regime."""
    system, subsystem, regime = match["system"], match["subsystem"], match["regime"]
    if system == "R":
        raise _not_inland(code, "riverine (R) codes are river and stream channels")
    if system in ("E", "M"):
        raise _not_inland(code, f"{_SYSTEMS[system]} ({system}) codes are saline or tidal")
    if system == "L" and subsystem != "2":
        raise _not_inland(code, "lacustrine limnetic (L1) is deepwater lake habitat")
    if system == "P" and subsystem is not None:
        raise WetlandTypeError(
            f"{code!r} is not a recognised Cowardin code: palustrine codes have no subsystem digit"
        )
    if regime is None or regime == "U":
        raise WetlandTypeError(
            f"Cowardin code {code!r} has no known water regime, so no Circular 39 type can "
            "be inferred; give the type in the type field"
        )
    if regime not in WATER_REGIMES:
        raise WetlandTypeError(f"Cowardin code {code!r}: {regime!r} is not a water regime")
    if regime in _TIDAL_REGIMES:
        raise _not_inland(
            code,
            f"water regime {regime} ({WATER_REGIMES[regime]}) is tidal; Circular 39 puts "
            "tidal wetlands in the coastal types 9-20, and Minnesota has none",
        )


def _crosswalk_types(
    code: str, system_key: str, classes: list[str], regime: str
) -> tuple[list[int], bool, list[str], bool]:
    """Return the crosswalk's types of ``classes``, whether to verify, the notes, and mixed.

    The dominant (first) class must be in the crosswalk; a second class that is not is
    noted and left out. One class gives its types ascending; two (mixed) the dominant
    class's types first.
    """
    rules = [_class_rule(code, system_key, classes[0], regime)]
    notes: list[str] = []
    for cls in classes[1:]:
        try:
            rules.append(_class_rule(code, system_key, cls, regime))
        except WetlandTypeError:
            notes.append(f"second class {cls} not in the crosswalk; dominant class used")
    types: list[int] = []
    for rule in rules:
        types.extend(t for t in rule.types if t not in types)
    mixed = len(rules) > 1
    if not mixed:
        types.sort()
    notes.insert(0, "; ".join(rule.basis for rule in rules))
    if mixed:
        notes.insert(0, f"mixed classes {'/'.join(classes)}, dominant first")
    return types, any(rule.verify for rule in rules), notes, mixed


def reading_for(value: Any, cowardin: Any = None) -> TypeReading:
    """Return the wetland type of one polygon: the given type, else one inferred.

    Parameters
    ----------
    value : int, float, str or None
        The given Circular 39 type (see :func:`parse_wetland_type`). Blank or missing
        values fall back to ``cowardin``.
    cowardin : str or None, optional
        The Cowardin code of the polygon (see :func:`infer_from_cowardin`).

    Returns
    -------
    TypeReading
        The given reading (``source="given"``) when ``value`` is not blank; otherwise the
        inferred reading (``source="inferred"``).

    Raises
    ------
    WetlandTypeError
        When a given value cannot be read (a given type is never silently replaced by
        an inference), when the Cowardin code cannot be used, or when both are blank.

    Warns
    -----
    InferredWetlandTypeWarning
        Whenever the type is inferred from the Cowardin code.
    """
    if not is_blank(value):
        return parse_wetland_type(value)
    if is_blank(cowardin):
        raise WetlandTypeError(
            "no wetland type given and no Cowardin code to infer one from; give the "
            f"Circular 39 type as {ACCEPTED_FORMS}"
        )
    reading = infer_from_cowardin(cowardin)
    warnings.warn(
        f"no Circular 39 type given: type {reading.label} inferred from Cowardin code "
        f"{str(cowardin).strip()!r}" + (" (to verify)" if reading.verify else ""),
        InferredWetlandTypeWarning,
        stacklevel=2,
    )
    return reading


# --------------------------------------------------------------------------------------
# A whole layer at once
# --------------------------------------------------------------------------------------

TYPE_COLUMNS = ("wetland_type", "type_source", "type_verify", "type_note", "cedar_tamarack")
"""The columns :func:`read_types` adds."""


def _truthy(value: Any) -> bool:
    """Return True for a flag :func:`parse_bool` reads as true; blank or unreadable is False."""
    return parse_bool(value, errors="coerce") is True


def _codes(values: pd.Series) -> tuple[np.ndarray, list[Any]]:
    """Return (code per row, distinct values) treating every blank as one value."""
    codes, uniques = pd.factorize(values.astype(object), use_na_sentinel=False)
    return codes, list(uniques)


def read_types(
    gdf: pd.DataFrame,
    type_field: str | None,
    cowardin_field: str | None = None,
    cedar_field: str | None = None,
    records: list[str] | None = None,
) -> None:
    """Add the wetland type columns to a layer; rows whose type cannot be read are not assessed.

    Each distinct (given type, Cowardin code) pair is read once with :func:`reading_for`
    and the answers are spread to the rows, so a statewide layer with millions of rows
    and a few hundred distinct codes is read in a fraction of a second.

    Parameters
    ----------
    gdf : DataFrame
        The cleaned layer, with ``status`` and ``status_reason``; changed in place:
        :data:`TYPE_COLUMNS` are added (empty on rows not assessed) and a row whose type
        cannot be read gets ``status`` "not assessed" and the reason.
    type_field, cowardin_field, cedar_field : str, optional
        Columns holding the given Circular 39 type, the Cowardin code and a white cedar /
        tamarack flag.
    records : list of str, optional
        Receives the note on inferred types (for the run manifest).

    Warns
    -----
    InferredWetlandTypeWarning
        Once, with the count, when some types were inferred from Cowardin codes.
    """
    n = len(gdf)
    blank = pd.Series([None] * n, index=gdf.index, dtype=object)
    given = gdf[type_field] if type_field else blank
    cow = gdf[cowardin_field] if cowardin_field else blank
    readings, inverse = _distinct_readings(given, cow)
    assessed = (gdf["status"] == ASSESSED).to_numpy()
    failed = np.array([e is not None for e in readings.error], dtype=bool)
    bad = assessed & failed[inverse]
    if bad.any():
        _not_assessed(gdf, bad, readings.error[inverse][bad], StatusCode.WETLAND_TYPE)
    cedar_col = np.zeros(n, dtype=bool)
    if cedar_field:
        cedar_col, odd = _cedar_flags(gdf, cedar_field, assessed & ~bad)
        bad = bad | odd
    ok = assessed & ~bad
    none = np.array(None, dtype=object)  # None where the row is not assessed
    for name, values in (
        ("wetland_type", readings.label[inverse]),
        ("type_source", readings.source[inverse]),
        ("type_verify", readings.verify[inverse]),
        ("type_note", readings.note[inverse]),
        ("cedar_tamarack", (cedar_col | readings.cedar[inverse]).astype(object)),
    ):
        gdf[name] = np.where(ok, values, none)
    inferred = int((readings.inferred[inverse] & ok).sum())
    if inferred:
        msg = (
            f"{inferred} impact(s) had no Circular 39 type: the type was inferred from the "
            "Cowardin code (type_source = 'inferred'); verify it in the field"
        )
        warn_recorded(msg, InferredWetlandTypeWarning, records, stacklevel=3)


@dataclass(frozen=True, eq=False)
class _Readings:
    """The reading of each distinct (given type, Cowardin code) pair, one array a column.

    ``error`` is the reason a pair cannot be read (None when it can); ``inferred`` says
    whether its type was inferred from the Cowardin code; ``cedar`` whether its text
    names a white cedar or tamarack wetland.
    """

    label: np.ndarray
    source: np.ndarray
    verify: np.ndarray
    note: np.ndarray
    cedar: np.ndarray
    error: np.ndarray
    inferred: np.ndarray


def _distinct_readings(given: pd.Series, cow: pd.Series) -> tuple[_Readings, np.ndarray]:
    """Read each distinct (given, Cowardin) pair once; return the readings and each row's pair."""
    g_codes, g_values = _codes(given)
    c_codes, c_values = _codes(cow)
    pair = g_codes.astype(np.int64) * (len(c_values) + 1) + c_codes
    keys, first, inverse = np.unique(pair, return_index=True, return_inverse=True)
    out = _Readings(
        label=np.full(len(keys), None, dtype=object),
        source=np.full(len(keys), None, dtype=object),
        verify=np.full(len(keys), None, dtype=object),
        note=np.full(len(keys), None, dtype=object),
        cedar=np.zeros(len(keys), dtype=bool),
        error=np.full(len(keys), None, dtype=object),
        inferred=np.zeros(len(keys), dtype=bool),
    )
    for k, row in enumerate(first):
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", InferredWetlandTypeWarning)
                reading = reading_for(g_values[g_codes[row]], c_values[c_codes[row]])
        except WetlandTypeError as exc:
            out.error[k] = f"wetland type: {exc}"
            continue
        out.inferred[k] = any(issubclass(w.category, InferredWetlandTypeWarning) for w in caught)
        out.label[k] = reading.label
        out.source[k] = reading.source
        out.verify[k] = bool(reading.verify or len(reading.types) > 1)
        out.note[k] = reading.note
        out.cedar[k] = bool(reading.cedar_tamarack)
    return out, inverse


def _not_assessed(gdf: pd.DataFrame, rows: np.ndarray, reason: Any, code: StatusCode) -> None:
    """Mark ``rows`` of ``gdf`` not assessed, with ``reason`` and ``code``."""
    gdf.loc[rows, "status_reason"] = reason
    gdf.loc[rows, "status_code"] = code.value
    gdf.loc[rows, "status"] = ImpactOutcome.NOT_ASSESSED.value


def _cedar_flags(
    gdf: pd.DataFrame, cedar_field: str, candidates: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return each row's white cedar / tamarack flag, and the ``candidates`` it leaves out.

    A flag that cannot be read is never taken as "no" (white cedar and tamarack wetlands
    are held to the smaller amounts): such a candidate row is not assessed, with the fix.
    """
    codes, values = _codes(gdf[cedar_field])
    flag = np.array([_truthy(v) for v in values], dtype=bool)[codes]
    unreadable = np.array(
        [not is_blank(v) and parse_bool(v, errors="coerce") is None for v in values],
        dtype=bool,
    )[codes]
    odd = candidates & unreadable
    if odd.any():
        reasons = [
            f"white cedar / tamarack flag {v!r} in column {cedar_field!r} is not yes or "
            "no: write true or false (or leave it blank when the wetland is neither)"
            for v in gdf.loc[odd, cedar_field]
        ]
        _not_assessed(gdf, odd, reasons, StatusCode.CEDAR_TAMARACK_FLAG)
    return flag, odd
