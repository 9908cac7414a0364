"""Reading one attribute value: blank, boolean, number, whole number, id, county name, key.

Every reader of user data (impact layers, context layers, bank listings, candidate sites)
answers "is this blank / true / a number / which county" with the functions here, so two
parts of the tool can never disagree on ``"1.0"`` or on ``"Lac-qui-Parle"``. Each parser
returns ``None`` for a blank value (an unknown fact, never a default in the applicant's
favour) and raises :class:`~wetland_gis.errors.ValueParseError` for a value it cannot
read, naming the value and the spellings it accepts; ``errors="coerce"`` returns ``None``
instead, for a caller that reports the row itself.

This module imports only the standard library (and the one normalisation of names and keys,
:mod:`wetland_gis.names`), so every reader can use it without loading pandas, numpy or any
geometry library; the rules core does not: it takes the values parsed here. pandas and
numpy missing values (``pd.NA``, ``pd.NaT``, ``np.nan``, ``np.datetime64("NaT")``) are
still recognised: such a value can only exist once its library has been imported, so it
is looked up in :data:`sys.modules` rather than imported here.

Examples
--------
>>> parse_bool(" Yes "), parse_bool("1.0"), parse_bool(""), parse_bool(0)
(True, True, None, False)
>>> parse_number("12,500"), parse_number("$1,200.50"), parse_number(None)
(12500.0, 1200.5, None)
>>> parse_id(18.0), parse_id("07"), parse_id(" 47-05 ")
('18', '07', '47-05')
>>> normalise_county("Lac-qui-Parle County") == normalise_county("LAC QUI PARLE")
True
>>> normalise_key("Natural Environment"), normalise_key("rec-dev", {"rec_dev": "rd"})
('natural_environment', 'rd')
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import numbers
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Literal

from wetland_gis.errors import ValueParseError
from wetland_gis.names import key_of, normalise_county as normalise_county

TRUE_SPELLINGS = ("true", "t", "yes", "y", "1", "1.0")
"""Text read as True (after stripping and ignoring case); also ``True``, ``1``, ``1.0``."""

FALSE_SPELLINGS = ("false", "f", "no", "n", "0", "0.0")
"""Text read as False (after stripping and ignoring case); also ``False``, ``0``, ``0.0``."""

Errors = Literal["raise", "coerce"]

_TRUE = frozenset(TRUE_SPELLINGS)
_FALSE = frozenset(FALSE_SPELLINGS)


def is_blank(value: Any) -> bool:
    """Return True for an unknown value: None, NaN, pandas NA/NaT, or blank text.

    Parameters
    ----------
    value : object
        One attribute value.

    Returns
    -------
    bool
        True for ``None``, a float NaN (Python or numpy), ``Decimal("NaN")``, ``pd.NA``,
        ``pd.NaT``, ``np.datetime64("NaT")`` and text of only whitespace. ``0``, ``False``
        and ``"0"`` are values, not blanks.

    Examples
    --------
    >>> [is_blank(v) for v in (None, float("nan"), "  ", "0", 0, False)]
    [True, True, True, False, False, False]
    """
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, float):  # numpy float64 is a float too
        return math.isnan(value)
    if isinstance(value, Decimal):
        return value.is_nan()
    pd = sys.modules.get("pandas")
    if pd is not None and (value is pd.NA or value is pd.NaT):
        return True
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(value, np.floating):
            return bool(np.isnan(value))
        if isinstance(value, (np.datetime64, np.timedelta64)):
            return bool(np.isnat(value))
    return False


def _refuse(value: Any, what: str, accepted: str, errors: Errors) -> None:
    if errors == "coerce":
        return None
    if errors != "raise":
        raise ValueError(f"errors must be 'raise' or 'coerce', got {errors!r}")
    raise ValueParseError(f"cannot read {value!r} as {what}; accepted: {accepted}")


def _is_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.bool_)


_BOOL_ACCEPTED = (
    f"True/False, 1/0, or text {list(TRUE_SPELLINGS)} / {list(FALSE_SPELLINGS)} (any case)"
)


def parse_bool(value: Any, *, errors: Errors = "raise") -> bool | None:
    """Return a yes/no attribute as True, False or None (blank: unknown).

    Parameters
    ----------
    value : object
        ``True``/``False`` (Python or numpy), the numbers ``1``/``0`` (also ``1.0``), or
        text in :data:`TRUE_SPELLINGS` / :data:`FALSE_SPELLINGS`, ignoring case and
        surrounding spaces.
    errors : {"raise", "coerce"}, default "raise"
        What to do with any other value: raise, or return None (unknown).

    Returns
    -------
    bool or None
        None for a blank value.

    Raises
    ------
    ValueParseError
        A value that is not one of the accepted spellings (e.g. ``2``, ``"maybe"``,
        ``"x"``), with ``errors="raise"``. It is never guessed to be True or False.

    Examples
    --------
    >>> parse_bool("TRUE"), parse_bool("n"), parse_bool(1.0), parse_bool(None)
    (True, False, True, None)
    >>> parse_bool("maybe", errors="coerce") is None
    True
    """
    if is_blank(value):
        return None
    if _is_bool(value):
        return bool(value)
    if isinstance(value, numbers.Real):
        if value == 1:
            return True
        if value == 0:
            return False
        _refuse(value, "true/false", _BOOL_ACCEPTED, errors)
        return None
    if isinstance(value, str):
        token = value.strip().lower()
        if token in _TRUE:
            return True
        if token in _FALSE:
            return False
    _refuse(value, "true/false", _BOOL_ACCEPTED, errors)
    return None


_NUMBER_ACCEPTED = "a finite number, e.g. 2.5, '2.5', '12,500' or '$1,200.50'"


def parse_number(value: Any, *, errors: Errors = "raise") -> float | None:
    """Return a numeric attribute as a finite float, or None when blank.

    Parameters
    ----------
    value : object
        A number (int, float, numpy number, Decimal) or text of one. Text may have
        surrounding spaces, thousands separators (``"12,500"``) and a leading dollar
        sign (``"$1,200.50"``). Booleans are not numbers.
    errors : {"raise", "coerce"}, default "raise"
        What to do with a value that is not a finite number: raise, or return None.

    Returns
    -------
    float or None
        None for a blank value (None, NaN, pandas NA, blank text).

    Raises
    ------
    ValueParseError
        Text that is not a number, a boolean, infinity, or another type, with
        ``errors="raise"``.

    Examples
    --------
    >>> parse_number(" 2.5 "), parse_number(3), parse_number(float("nan"))
    (2.5, 3.0, None)
    >>> parse_number("ten", errors="coerce") is None
    True
    """
    if is_blank(value):
        return None
    if _is_bool(value):
        _refuse(value, "a number", _NUMBER_ACCEPTED, errors)
        return None
    if isinstance(value, (numbers.Real, Decimal)):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
        text = text[1:].strip() if text.startswith("$") else text
        try:
            number = float(text)
        except ValueError:
            _refuse(value, "a number", _NUMBER_ACCEPTED, errors)
            return None
    else:
        _refuse(value, "a number", _NUMBER_ACCEPTED, errors)
        return None
    if not math.isfinite(number):
        _refuse(value, "a number", _NUMBER_ACCEPTED, errors)
        return None
    return number


def parse_whole_number(value: Any, *, errors: Errors = "raise") -> int | None:
    """Return a whole-number attribute (a watershed or service area number) as an int.

    Parameters
    ----------
    value : object
        ``18``, ``18.0``, ``"18"``, ``"18.0"`` or ``" 18 "`` (numpy numbers too).
    errors : {"raise", "coerce"}, default "raise"
        What to do with a value that is not a whole number: raise, or return None.

    Returns
    -------
    int or None
        None for a blank value.

    Raises
    ------
    ValueParseError
        ``18.5``, ``"18a"``, a boolean and so on, with ``errors="raise"``.

    Examples
    --------
    >>> parse_whole_number("18.0"), parse_whole_number(7), parse_whole_number("")
    (18, 7, None)
    >>> parse_whole_number(18.5, errors="coerce") is None
    True
    """
    accepted = "a whole number such as 18, 18.0 or '18'"
    if is_blank(value):
        return None
    if _is_bool(value) or not isinstance(value, (numbers.Real, Decimal, str)):
        _refuse(value, "a whole number", accepted, errors)
        return None
    try:
        number = float(str(value).strip())
    except ValueError:
        _refuse(value, "a whole number", accepted, errors)
        return None
    if not math.isfinite(number) or number != int(number):
        _refuse(value, "a whole number", accepted, errors)
        return None
    return int(number)


def parse_date(value: Any, *, errors: Errors = "raise") -> dt.date | None:
    """Return a date attribute (a report date, a drainage date) as a :class:`datetime.date`.

    Parameters
    ----------
    value : object
        A date or datetime (a pandas Timestamp, which is one), or text written
        ``YYYY-MM-DD`` (a time after it is ignored: ``"2024-05-01T00:00:00"``).
    errors : {"raise", "coerce"}, default "raise"
        What to do with a value that is not a date: raise, or return None.

    Returns
    -------
    date or None
        None for a blank value.

    Raises
    ------
    ValueParseError
        ``"5/1/2024"``, ``"2024-13-01"``, a number and so on, with ``errors="raise"``.

    Examples
    --------
    >>> parse_date("2024-05-01"), parse_date(" 2024-05-01T08:30 "), parse_date("")
    (datetime.date(2024, 5, 1), datetime.date(2024, 5, 1), None)
    >>> parse_date("5/1/2024", errors="coerce") is None
    True
    """
    accepted = "a date written YYYY-MM-DD"
    if is_blank(value):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str):
        text = str(value) if type(value).__name__ == "datetime64" else None
        if text is None:
            _refuse(value, "a date", accepted, errors)
            return None
        value = text
    try:
        return dt.date.fromisoformat(value.strip()[:10])
    except ValueError:
        _refuse(value, "a date", accepted, errors)
        return None


def parse_id(value: Any) -> str | None:
    """Return an id (a watershed, account or basin id) as text.

    A whole number read from a float column loses its ``.0`` (``18.0`` -> ``"18"``);
    text is kept as written apart from surrounding spaces, so leading zeros stay
    (``"07"``) and ``"47-05"`` is not a number. Any value can be an id, so nothing
    raises.

    Parameters
    ----------
    value : object
        One id value.

    Returns
    -------
    str or None
        None for a blank value.

    Examples
    --------
    >>> parse_id(18.0), parse_id("18.0"), parse_id("07"), parse_id("SYN-86-0001 ")
    ('18', '18', '07', 'SYN-86-0001')
    """
    if is_blank(value):
        return None
    whole = parse_whole_number(value, errors="coerce")
    if whole is not None and not (isinstance(value, str) and value.strip().startswith("0")):
        return str(whole)
    return str(value).strip()


def normalise_key(value: Any, aliases: Mapping[str, str] | None = None) -> str | None:
    """Return a class or type spelling as its snake_case key, e.g. a shoreland class.

    Parameters
    ----------
    value : object
        ``"Natural Environment"``, ``"natural-environment"``, ``"Rec/Dev"``: case and
        surrounding spaces are ignored; runs of spaces, hyphens, dashes and slashes
        become one underscore.
    aliases : Mapping[str, str], optional
        Key -> documented value (e.g. ``{"ne": "natural_environment"}``), applied after
        normalising.

    Returns
    -------
    str or None
        The key (not checked against an allowed set: the caller does that and names the
        allowed values), or None for a blank value.

    Examples
    --------
    >>> normalise_key(" Greater than 80 percent "), normalise_key(None)
    ('greater_than_80_percent', None)
    """
    if is_blank(value):
        return None
    key = key_of(str(value))
    if key is None:
        return None
    return aliases.get(key, key) if aliases else key


def keyed(values: Sequence[tuple[str, str]] | None, option: str) -> dict[str, str]:
    """Return ``{key: value}`` of a repeatable ``KEY=VALUE`` option; one key twice is an error.

    Examples
    --------
    >>> keyed([("wetlands", "delineation")], "--input-layer")
    {'wetlands': 'delineation'}
    """
    out: dict[str, str] = {}
    for key, value in values or ():
        if out.get(key, value) != value:
            raise argparse.ArgumentTypeError(
                f"{option} gives {key} twice ({out[key]!r} and {value!r}); give it once"
            )
        out[key] = value
    return out
