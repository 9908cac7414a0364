"""Names and keys as every part of the package matches them: one normalisation of each.

The readers of user data (:mod:`wetland_gis.io.values`, the context's county layer) and the
rules core (the county lists of Minn. R. 8420.0117, subp. 1 and of § 103G.2241, subd. 9(d),
:mod:`wetland_gis.rules.percentage_area`; the replacement actions of
:mod:`wetland_gis.rules.priority`) compare county names with :func:`normalise_county` and
spellings of a class or an action with :func:`key_of`, so "Lac-qui-Parle" is never one
county to the map and another to the rules. Text only: deciding what is blank in a user's
file is the readers' job (:func:`wetland_gis.io.values.is_blank`), done before the rules.
This module imports only the standard library and the errors.

Examples
--------
>>> normalise_county("Lac-qui-Parle County") == normalise_county("LAC QUI PARLE")
True
>>> key_of(" Natural-Environment "), key_of("Rec/Dev"), key_of("  ")
('natural_environment', 'rec_dev', None)
"""

from __future__ import annotations

import re
import unicodedata

from wetland_gis.errors import CountyNameError

#: Hyphens, dashes and the minus sign, read as one separator (as :mod:`wetland_gis.io.values`).
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_DASH_RE = re.compile(f"[{_DASHES}]")
_COUNTY_PUNCTUATION_RE = re.compile(rf"[.\-_'\u2019{_DASHES}]")
_KEY_SEPARATOR_RE = re.compile(r"[\s\-/]+")


def normalise_county(name: object) -> str:
    """Return a county name reduced for matching against the county lists.

    Case, surrounding and repeated spaces, full stops, hyphens and dashes, underscores
    and apostrophes, a trailing "County", and "Saint" / "St." / "St" are all made the
    same, so "Lac qui Parle", "Lac-qui-Parle" and "LAC QUI PARLE COUNTY" match, and
    so do "St. Louis", "Saint Louis" and "ST LOUIS COUNTY".

    Parameters
    ----------
    name : str
        A county name as written, e.g. ``" Saint Louis County "``.

    Returns
    -------
    str
        The reduced name, e.g. ``"st louis"``.

    Raises
    ------
    CountyNameError
        When ``name`` is not text (a :class:`~wetland_gis.errors.ValueParseError` to a
        reader of user data, a :class:`~wetland_gis.errors.RulesInputError` to the rules).

    Examples
    --------
    >>> normalise_county("Saint Louis County"), normalise_county("Lac-qui-Parle")
    ('st louis', 'lac qui parle')
    """
    if not isinstance(name, str):
        raise CountyNameError(f"a county must be a name (text), got {name!r}")
    text = unicodedata.normalize("NFKC", name).casefold()
    words = _COUNTY_PUNCTUATION_RE.sub(" ", text).split()
    if len(words) > 1 and words[-1] == "county":
        words = words[:-1]
    return " ".join("st" if w == "saint" else w for w in words)


def key_of(text: str) -> str | None:
    """Return a spelling of a class, type or action as its snake_case key.

    Parameters
    ----------
    text : str
        ``"Natural Environment"``, ``"natural-environment"``, ``"Rec/Dev"``: case and
        surrounding spaces are ignored; runs of spaces, hyphens, dashes and slashes become
        one underscore.

    Returns
    -------
    str or None
        The key, or None for text that is empty or only spaces.
    """
    key = _KEY_SEPARATOR_RE.sub(
        "_", _DASH_RE.sub("-", unicodedata.normalize("NFKC", text).strip().lower())
    )
    return key or None
