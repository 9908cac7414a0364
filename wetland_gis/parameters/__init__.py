"""Legal parameters: every number the rules use, with its citation and dated values.

The tree lives in ``wca.yaml`` beside this module. Each leaf is a :class:`Parameter`;
:meth:`ParameterSet.value` answers "the value in force on date D", so every decision can
be made as of an application date.

Examples
--------
>>> from wetland_gis.parameters import default_parameters
>>> p = default_parameters()
>>> p.value("de_minimis.outside_zone.types_1_2_6_7_greater_than_80", "2024-05-01")
10000
>>> p.citation("de_minimis.outside_zone.types_1_2_6_7_greater_than_80")
'Minn. Stat. § 103G.2241, subd. 9(a)(1)'
"""

from __future__ import annotations

import datetime as dt
import hashlib
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from wetland_gis.errors import ParameterError, ParameterNotInForce

__all__ = [
    "Parameter",
    "ParameterSet",
    "Adjustments",
    "RatioAdjustment",
    "load_parameters",
    "default_parameters",
    "load_adjustments",
    "as_date",
    "DEFAULT_PARAMETERS_PATH",
    "DEFAULT_ADJUSTMENTS_PATH",
    "UNITS",
    "COMPARISONS",
    "LIMIT_TESTS",
]

DEFAULT_PARAMETERS_PATH = Path(__file__).with_name("wca.yaml")
DEFAULT_ADJUSTMENTS_PATH = Path(__file__).with_name("adjustments.yaml")

#: The units whose values are numbers, 0 or more (checked when a tree is read).
_NUMBER_UNITS = frozenset({"square_foot", "acre", "foot", "percent", "ratio", "usd", "day", "year"})
UNITS = _NUMBER_UNITS | frozenset(
    {
        "date",
        "county_list",
        "type_list",
        "table",
        # water appropriation, § 103G.271 (water_use.yaml)
        "gallon",
        "gallons_per_day",
        "mile",
        "count",
        "flag",
        "month_list",
    }
)
#: How an amount meets a limit, by the limit's ``comparison``: ``LIMIT_TESTS[c](amount, limit)``.
LIMIT_TESTS: Mapping[str, Callable[[Any, Any], bool]] = MappingProxyType(
    {
        "at_most": operator.le,
        "less_than": operator.lt,
        "at_least": operator.ge,
        "greater_than": operator.gt,
    }
)
COMPARISONS = frozenset(LIMIT_TESTS)
_LEAF_KEYS = {"description", "unit", "reference", "values"}
_OPTIONAL_KEYS = {"comparison", "applies_to"}
RATIO_CONDITIONS = frozenset(
    {
        "in_advance",
        "in_kind",
        "out_of_kind",
        "outside_major_watershed",
        "outside_bank_service_area",
        "same_minor_watershed",
    }
)


def as_date(value: str | dt.date | dt.datetime | None) -> dt.date:
    """Return ``value`` as a :class:`datetime.date` (``None`` means today).

    Parameters
    ----------
    value : str, date, datetime or None
        An ISO date such as ``"2024-05-01"``.

    Returns
    -------
    datetime.date
    """
    if value is None:
        return dt.date.today()
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise ParameterError(
            f"as_of date {value!r} is not an ISO date; write it as YYYY-MM-DD, e.g. 2024-05-01"
        ) from exc


@dataclass(frozen=True)
class Parameter:
    """One legal parameter: a described, cited, dated value.

    Parameters
    ----------
    key : str
        Dotted path in the tree, e.g. ``"replacement.ratio_nonagricultural"``.
    description, unit, reference : str
        What it is, its unit (one of :data:`UNITS`) and its citation.
    values : tuple of (date, value)
        Dated values, oldest first; each is in force from its date on.
    comparison : str or None
        How an amount is compared with the value when it is a limit (:data:`COMPARISONS`).
    applies_to : Mapping or None
        What the value applies to, as lookup keys (e.g. the zone, type group, percentage
        class and metropolitan flag of a de minimis amount); read by the rules to look an
        amount up instead of choosing it in code.
    """

    key: str
    description: str
    unit: str
    reference: str
    values: tuple[tuple[dt.date, Any], ...]
    comparison: str | None = None
    applies_to: Mapping[str, Any] | None = None

    def value_on(self, as_of: str | dt.date | None = None) -> Any:
        """Return the value in force on ``as_of``.

        Raises
        ------
        ParameterNotInForce
            When ``as_of`` is before the first known value.
        """
        day = as_date(as_of)
        current = None
        found = False
        for start, value in self.values:
            if start <= day:
                current, found = value, True
        if not found:
            first = self.values[0][0].isoformat()
            raise ParameterNotInForce(
                f"parameter {self.key!r} ({self.reference}) has no known value on "
                f"{day.isoformat()}: the earliest recorded value is in force from {first}. "
                "Add the earlier value, with its date, to the parameter file if you know it."
            )
        return current

    def passes(self, amount: float | Decimal, as_of: str | dt.date | None = None) -> bool:
        """Return whether ``amount`` meets this limit under its ``comparison``.

        Parameters
        ----------
        amount : float or Decimal
            The amount compared, in the parameter's unit.
        as_of : str or date, optional
            Date the limit is read for.

        Returns
        -------
        bool
            ``amount <= value`` for ``at_most``, ``amount < value`` for ``less_than``,
            ``amount >= value`` for ``at_least``, ``amount > value`` for ``greater_than``.
        """
        limit = self.value_on(as_of)
        test = LIMIT_TESTS.get(self.comparison or "")
        if test is None:
            raise ParameterError(f"parameter {self.key!r} is not a limit: it has no 'comparison'")
        return test(amount, limit)


class ParameterSet(Mapping[str, Parameter]):
    """A validated parameter tree, read-only, keyed by dotted path.

    Parameters
    ----------
    parameters : Mapping[str, Parameter]
        The leaves by key.
    source : str
        Where the tree came from (a path), for the run manifest.
    sha256 : str
        Hash of the source text, for the run manifest.
    """

    def __init__(self, parameters: Mapping[str, Parameter], source: str = "", sha256: str = ""):
        self._parameters = dict(parameters)
        self.source = source
        self.sha256 = sha256
        self._memo: dict[Any, Any] = {}

    def memo(self) -> dict[Any, Any]:
        """Return this tree's memo: values derived from it, kept while it lives.

        The rules engine keeps its rule books (parameters read once per date and claims)
        here, so a cache never outlives, or is confused with, the tree it was read from.
        """
        return self._memo

    def __getitem__(self, key: str) -> Parameter:
        try:
            return self._parameters[key]
        except KeyError:
            near = [k for k in self._parameters if key.split(".")[-1] in k][:5]
            hint = f" Did you mean one of {near}?" if near else ""
            raise ParameterError(f"unknown parameter {key!r} in {self.source}.{hint}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._parameters)

    def __len__(self) -> int:
        return len(self._parameters)

    def value(self, key: str, as_of: str | dt.date | None = None) -> Any:
        """Return the value of ``key`` in force on ``as_of`` (default today)."""
        return self[key].value_on(as_of)

    def citation(self, key: str) -> str:
        """Return the citation of ``key``."""
        return self[key].reference

    def cited(self, key: str, as_of: str | dt.date | None = None) -> tuple[Any, str]:
        """Return ``(value, citation)`` of ``key`` on ``as_of``."""
        return self.value(key, as_of), self.citation(key)

    def with_values(self, overrides: Mapping[str, Any], as_of: str | dt.date) -> ParameterSet:
        """Return a copy in which each key in ``overrides`` has a new value from ``as_of``.

        A local government's more restrictive standard (§ 103G.2241, subd. 9(i)) or a
        newer edition of the law is added this way: as a dated value, not an edit.

        Parameters
        ----------
        overrides : Mapping[str, Any]
            New values by parameter key.
        as_of : str or date
            Date from which the new values are in force.

        Returns
        -------
        ParameterSet
        """
        day = as_date(as_of)
        params = dict(self._parameters)
        for key, value in overrides.items():
            old = self[key]
            values = tuple(v for v in old.values if v[0] != day) + ((day, value),)
            params[key] = Parameter(
                key=old.key,
                description=old.description,
                unit=old.unit,
                reference=old.reference,
                values=tuple(sorted(values, key=lambda v: v[0])),
                comparison=old.comparison,
                applies_to=old.applies_to,
            )
        digest = hashlib.sha256((self.sha256 + repr(sorted(overrides.items()))).encode())
        return ParameterSet(params, source=f"{self.source} + overrides", sha256=digest.hexdigest())

    def snapshot(self, as_of: str | dt.date | None = None) -> dict[str, Any]:
        """Return every key's value on ``as_of`` (keys without a value then are skipped)."""
        out = {}
        for key, param in self._parameters.items():
            try:
                value = param.value_on(as_of)
            except ParameterNotInForce:
                continue
            out[key] = value.isoformat() if isinstance(value, dt.date) else value
        return out


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses duplicate keys instead of keeping the last."""


def _construct_mapping(
    loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False
) -> dict[Any, Any]:
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ParameterError(
                f"duplicate key {key!r} at line {key_node.start_mark.line + 1} of "
                f"{key_node.start_mark.name}: each parameter and date may appear once"
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _read_yaml(path: Path) -> tuple[Any, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ParameterError(f"cannot read parameter file {path}: {exc}") from exc
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - safe loader subclass
    except yaml.YAMLError as exc:
        raise ParameterError(f"parameter file {path} is not valid YAML: {exc}") from exc
    return data, hashlib.sha256(text.encode("utf-8")).hexdigest()


def _leaf(key: str, node: Mapping[str, Any], source: str) -> Parameter:
    missing = _LEAF_KEYS - set(node)
    extra = set(node) - _LEAF_KEYS - _OPTIONAL_KEYS
    if missing or extra:
        raise ParameterError(
            f"parameter {key!r} in {source}: missing {sorted(missing)}, "
            f"unexpected {sorted(extra)}; a parameter needs {sorted(_LEAF_KEYS)} "
            f"and may have {sorted(_OPTIONAL_KEYS)}"
        )
    if node["unit"] not in UNITS:
        raise ParameterError(
            f"parameter {key!r} in {source}: unit {node['unit']!r} is not one of {sorted(UNITS)}"
        )
    comparison = node.get("comparison")
    if comparison is not None and comparison not in COMPARISONS:
        raise ParameterError(
            f"parameter {key!r} in {source}: comparison {comparison!r} is not one of "
            f"{sorted(COMPARISONS)}"
        )
    for field_name in ("description", "reference"):
        if not isinstance(node[field_name], str) or not node[field_name].strip():
            raise ParameterError(f"parameter {key!r} in {source}: {field_name} must be text")
    raw_values = node["values"]
    if not isinstance(raw_values, Mapping) or not raw_values:
        raise ParameterError(
            f"parameter {key!r} in {source}: values must map dates (YYYY-MM-DD) to values"
        )
    values = []
    for start, value in raw_values.items():
        if not isinstance(start, dt.date):
            raise ParameterError(
                f"parameter {key!r} in {source}: {start!r} is not a date; write YYYY-MM-DD"
            )
        if node["unit"] in _NUMBER_UNITS:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ParameterError(
                    f"parameter {key!r} in {source}: value {value!r} on {start} must be a "
                    f"non-negative number in {node['unit']}"
                )
        values.append((start, value))
    values.sort(key=lambda v: v[0])
    applies_to = node.get("applies_to")
    if applies_to is not None and not isinstance(applies_to, Mapping):
        raise ParameterError(
            f"parameter {key!r} in {source}: applies_to must map lookup keys to values"
        )
    return Parameter(
        key=key,
        description=node["description"].strip(),
        unit=node["unit"],
        reference=node["reference"].strip(),
        values=tuple(values),
        comparison=comparison,
        applies_to=MappingProxyType(dict(applies_to)) if applies_to is not None else None,
    )


def _walk(node: Any, prefix: str, source: str, out: dict[str, Parameter]) -> None:
    if not isinstance(node, Mapping):
        raise ParameterError(f"{source}: {prefix or 'the top level'} must be a mapping")
    if "values" in node:
        out[prefix] = _leaf(prefix, node, source)
        return
    for name, child in node.items():
        _walk(child, f"{prefix}.{name}" if prefix else str(name), source, out)


def load_parameters(path: str | Path | None = None) -> ParameterSet:
    """Load and validate a parameter tree.

    Parameters
    ----------
    path : str or Path, optional
        A YAML file in the format of ``wca.yaml``; default the shipped tree.

    Returns
    -------
    ParameterSet

    Raises
    ------
    ParameterError
        On duplicate keys, missing fields, unknown units, non-dates or bad values.
    """
    path = Path(path) if path is not None else DEFAULT_PARAMETERS_PATH
    data, digest = _read_yaml(path)
    out: dict[str, Parameter] = {}
    _walk(data, "", str(path), out)
    return ParameterSet(out, source=str(path), sha256=digest)


@lru_cache(maxsize=1)
def default_parameters() -> ParameterSet:
    """Return the shipped parameter tree (loaded once)."""
    return load_parameters()


@dataclass(frozen=True)
class RatioAdjustment:
    """A user-supplied ratio adjustment (Minn. R. 8420.0522), added to the base ratio."""

    when: str
    add: float
    reference: str


@dataclass(frozen=True)
class Adjustments:
    """The user-editable tables the law leaves to rule (empty by default).

    Parameters
    ----------
    ratio : tuple of RatioAdjustment
        Replacement-ratio adjustments of Minn. R. 8420.0522.
    credit_percentages : Mapping[str, tuple[float, str]]
        Credit percentage and reference by replacement action (Minn. R. 8420.0526).
    source : str
        The file they came from.
    """

    ratio: tuple[RatioAdjustment, ...] = ()
    credit_percentages: Mapping[str, tuple[float, str]] = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        if self.credit_percentages is None:  # an explicit None reads as no table
            object.__setattr__(self, "credit_percentages", {})


def load_adjustments(path: str | Path | None = None) -> Adjustments:
    """Load the user's adjustment tables (default: the shipped, empty file).

    Parameters
    ----------
    path : str or Path, optional
        A YAML file in the format of ``adjustments.yaml``.

    Returns
    -------
    Adjustments

    Raises
    ------
    ParameterError
        On an unknown condition, a non-numeric amount or a missing reference.
    """
    path = Path(path) if path is not None else DEFAULT_ADJUSTMENTS_PATH
    data, _ = _read_yaml(path)
    data = data or {}
    ratio = []
    for i, entry in enumerate(data.get("replacement_ratio_adjustments") or []):
        when, add, ref = entry.get("when"), entry.get("add"), entry.get("reference")
        if when not in RATIO_CONDITIONS:
            raise ParameterError(
                f"{path}: replacement_ratio_adjustments[{i}] condition {when!r} is not one of "
                f"{sorted(RATIO_CONDITIONS)}"
            )
        if isinstance(add, bool) or not isinstance(add, (int, float)):
            raise ParameterError(f"{path}: replacement_ratio_adjustments[{i}].add must be a number")
        if not ref:
            raise ParameterError(
                f"{path}: replacement_ratio_adjustments[{i}] needs a 'reference' saying where "
                "the adjustment comes from (e.g. the rule subpart or the TEP decision)"
            )
        ratio.append(RatioAdjustment(when=when, add=float(add), reference=str(ref)))
    credits = {}
    for action, entry in (data.get("credit_percentages") or {}).items():
        pct, ref = entry.get("percent"), entry.get("reference")
        if isinstance(pct, bool) or not isinstance(pct, (int, float)) or not ref:
            raise ParameterError(
                f"{path}: credit_percentages[{action!r}] needs a numeric 'percent' "
                "and a 'reference'"
            )
        credits[str(action)] = (float(pct), str(ref))
    return Adjustments(ratio=tuple(ratio), credit_percentages=credits, source=str(path))
