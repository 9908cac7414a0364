"""Shared tables and strategies for the tests of wetland_gis.rules.exempt."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import strategies as st

from wetland_gis.enums import Outcome
from wetland_gis.rules.exempt import ExemptionFacts, ExemptionResult, RuleFunction
from wetland_gis.rules.exempt.facts import (
    IMPACT_KINDS,
    INCIDENTAL_CAUSES,
    LAND_USES,
    LATER_USES,
)

DAY = "2024-05-01"
SQFT_PER_ACRE = 43_560
#: The subp. 1 B facts all known and clear.
CLEAN: dict[str, Any] = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}


def clean_facts(**values: Any) -> ExemptionFacts:
    """Return ExemptionFacts with the subp. 1 B facts clear (:data:`CLEAN`) and ``values``."""
    return ExemptionFacts(**{**CLEAN, **values})


def facts(**values: Any) -> ExemptionFacts:
    """Return ExemptionFacts from keyword values."""
    return ExemptionFacts(**values)


def run(function: RuleFunction, **values: Any) -> ExemptionResult:
    """Return ``function`` applied to facts built from ``values`` on :data:`DAY`."""
    return function(ExemptionFacts(**values), None, DAY)


def flip_cases(
    paragraph: str,
    function: RuleFunction,
    base: dict[str, Any],
    flips: list[tuple[str, Any]],
    *,
    defining: tuple[str, ...] = (),
) -> list[Any]:
    """Return pytest params on both sides of each condition of one clause.

    ``base`` makes the clause exempt. For each ``(fact, failing value)``: the base is
    exempt, the failing value is not exempt, and ``None`` is conditional naming the fact
    (or not applied, for a fact in ``defining``: the clause's activity is not given).
    """
    cases = [pytest.param(function, base, Outcome.EXEMPT, None, id=f"{paragraph}: all met")]
    for fact, bad in flips:
        cases.append(
            pytest.param(
                function,
                {**base, fact: bad},
                Outcome.NOT_EXEMPT,
                None,
                id=f"{paragraph}: {fact}={bad!r} fails",
            )
        )
        unknown = Outcome.NOT_APPLIED if fact in defining else Outcome.CONDITIONAL
        cases.append(
            pytest.param(
                function,
                {**base, fact: None},
                unknown,
                None if fact in defining else fact,
                id=f"{paragraph}: {fact} unknown is {unknown.value}",
            )
        )
    return cases


def check_case(function: RuleFunction, values: dict[str, Any], want: Outcome, named: Any) -> None:
    """Assert one flip case: the outcome, and the unknown fact named in a verify item."""
    result = run(function, **values)
    assert result.outcome is want, (result.outcome, result.reasons)
    if want is Outcome.NOT_EXEMPT:
        assert result.failed, "a not-exempt answer names the failing condition"
        assert not any(v.startswith("Subd. 11(a)") for v in result.verify)
    if named is not None:
        assert named in result.unknown
        assert any(named in v for v in result.verify), result.verify
    if want in (Outcome.EXEMPT, Outcome.CONDITIONAL):
        assert sum(v.startswith("Subd. 11(a)") for v in result.verify) == 3


def clause(first: Any, base: dict[str, Any]) -> Callable[..., Any]:
    """Return the case builder of one clause, from what each of its cases starts with.

    ``first`` is the clause's function (or rule id) and ``base`` its facts. The builder
    takes the paragraph checked (the case id), the answer and the facts changed, and
    returns ``pytest.param(first, {**base, **changes}, want, id=paragraph)``.
    """

    def case(paragraph: str, want: Any, **changes: Any) -> Any:
        return pytest.param(first, {**base, **changes}, want, id=paragraph)

    return case


def outcome_test(cases: list[Any]) -> Any:
    """Return the test of :func:`clause` cases: each function's outcome on its facts.

    A module assigns it to the name pytest collects (one name a test).
    """

    @pytest.mark.parametrize(("function", "values", "want"), cases)
    def test(function: RuleFunction, values: dict[str, Any], want: Outcome) -> None:
        result = run(function, **values)
        assert result.outcome is want, result.reasons

    return test


_BOOL = st.none() | st.booleans()


def _field_strategy(field: dataclasses.Field[Any]) -> Any:
    name = field.name
    if name == "impact_id":
        return st.just("A")
    if name == "wetland_type":
        return st.none() | st.integers(1, 8)
    if name == "impact_kind":
        return st.none() | st.sampled_from(sorted(IMPACT_KINDS))
    if name == "land_use":
        return st.none() | st.sampled_from(sorted(LAND_USES))
    if name == "created_by":
        return st.none() | st.frozensets(st.sampled_from(sorted(INCIDENTAL_CAUSES)), min_size=1)
    if name.endswith("_sqft"):
        return st.none() | st.integers(0, 300_000).map(float)
    if name == "wetland_acres":
        return st.none() | st.floats(0.01, 50, allow_nan=False)
    if name.startswith("years_"):
        return st.none() | st.integers(0, 10)
    if name == "wetland_existence_years":
        return st.none() | st.integers(0, 60)
    if name == "later_use":
        return st.none() | st.sampled_from(sorted(LATER_USES))
    # a conversion follows the drainage (an earlier one is an input error): around the
    # ten years of subd. 2(b), the anniversary included
    if name == "drainage_date":
        return st.none() | st.dates(dt.date(2004, 1, 1), dt.date(2010, 1, 1))
    if name == "later_use_date":
        return st.none() | st.dates(dt.date(2010, 1, 1), dt.date(2022, 1, 1))
    return _BOOL


#: Any facts of one impact.
FACTS = st.fixed_dictionaries(
    {f.name: _field_strategy(f) for f in dataclasses.fields(ExemptionFacts)}
).map(lambda d: ExemptionFacts(**d))


def both_sides_test(cases: list[Any]) -> Any:
    """Return the test of a module's clauses: each case of :func:`flip_cases` checked.

    A module assigns it to ``test_each_condition_on_both_sides`` (the name pytest collects).
    """

    @pytest.mark.parametrize(("function", "values", "want", "named"), cases)
    def test_each_condition_on_both_sides(
        function: RuleFunction, values: dict[str, Any], want: Outcome, named: Any
    ) -> None:
        check_case(function, values, want, named)

    return test_each_condition_on_both_sides
