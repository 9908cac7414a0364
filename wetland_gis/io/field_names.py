"""How a column name a GIS program wrote relates to the names a field role accepts.

A shapefile (DBF) keeps 10 characters of a field name: QGIS and ArcGIS both write
``impact_kind`` as ``impact_kin`` and ``cedar_tamarack`` as ``cedar_tama``, and a second
name that would cut to the same 10 characters gets a number (``impact_k_1``, GDAL's
ESRI Shapefile driver). Every role therefore accepts each of its names and that name's
first 10 characters (:func:`with_truncations`); a column that only *looks like* a role's
name (:func:`looks_like`: another case or separator, a shorter cut, a numbered cut) is
not read, and the caller warns, naming the role and the option that maps it.

This module imports nothing: the command line and the exemption columns read it.

Examples
--------
>>> with_truncations(("impact_kind", "impact"))
('impact_kind', 'impact_kin', 'impact')
>>> looks_like("impact_k_1", "impact_kind"), looks_like("Impact Kind", "impact_kind")
(True, True)
>>> looks_like("impact_kin", "impact_kind")  # accepted as is: not a look-alike
False
>>> looks_like("years_annu", "years_annual_crops", read=False)  # a role's own name
True
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

#: Characters of a field name a shapefile keeps (QGIS, ArcGIS and GDAL cut alike).
SHAPEFILE_NAME_LIMIT = 10

#: The shortest cut of a name (without separators) taken for a look-alike.
_SHORTEST = 5
#: A name cut and numbered to stay unique (``impact_k_1``, ``impact_k10``).
_NUMBERED = re.compile(r"^(?P<stem>.+?)_?\d{1,2}$")
_SEPARATORS = re.compile(r"[\s_\-.]+")


def with_truncations(names: Iterable[str]) -> tuple[str, ...]:
    """Return ``names``, each followed by its first 10 characters when it is longer.

    Parameters
    ----------
    names : iterable of str
        The names a role accepts, in order of preference.

    Returns
    -------
    tuple of str
        The names and their shapefile cuts, in order, each once.
    """
    out: dict[str, None] = {}
    for name in names:
        out[name] = None
        out[name[:SHAPEFILE_NAME_LIMIT]] = None
    return tuple(out)


def squash(name: str) -> str:
    """Return ``name`` in lower case without spaces, underscores, dashes or dots.

    Examples
    --------
    >>> squash(" Impact-Kind "), squash("IMPACT_KIND")
    ('impactkind', 'impactkind')
    """
    return _SEPARATORS.sub("", str(name).strip().lower())


def looks_like(column: str, name: str, *, read: bool = True) -> bool:
    """Return whether ``column`` looks like ``name`` without being one of its accepted forms.

    A look-alike differs from ``name`` only in case or separators (``Impact Kind``,
    ``ImpactKind``), is a cut of it of 5 characters or more (``impact_k``), a numbered cut
    (``impact_k_1``, the second of two names cut to the same 10 characters), or ``name``
    with up to three more characters (``duck_blinds``, ``impact_kind2``). ``name``
    itself and its 10-character cut are not look-alikes: they are read.

    Parameters
    ----------
    column : str
        The layer's column name.
    name : str
        A name a role accepts, or the role's name.
    read : bool, default True
        Whether ``name`` and its 10-character cut are read as the role (a column name a
        role accepts); False for a role's own name that is not one of its column names
        (``years_annual_crops``, read from ``crop_yr_10``), which then looks like it too.

    Returns
    -------
    bool
    """
    col = str(column).strip().lower()
    want = str(name).strip().lower()
    if col in (want, want[:SHAPEFILE_NAME_LIMIT]):
        return not read
    c, n = squash(col), squash(want)
    if not c or not n:
        return False
    if c == n:
        return True
    stems = [c]
    numbered = _NUMBERED.match(col)
    if numbered and not n[-1].isdigit():
        stems.append(squash(numbered.group("stem")))
    for stem in stems:
        if len(stem) >= _SHORTEST and n.startswith(stem):
            return True
    return len(n) >= _SHORTEST + 1 and c.startswith(n) and len(c) - len(n) <= 3


def closest_column(name: str, columns: Iterable[str]) -> str:
    """Return ``"; the closest is 'X'"`` naming the column most like ``name``, or ``""``.

    Examples
    --------
    >>> closest_column("impact_kind", ["impact_kin", "owner"])
    "; the closest column is 'impact_kin'"
    """
    by_lower = {str(c).lower(): str(c) for c in columns}
    close = difflib.get_close_matches(str(name).lower(), list(by_lower), n=1, cutoff=0.6)
    return f"; the closest column is {by_lower[close[0]]!r}" if close else ""
