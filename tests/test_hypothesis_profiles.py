"""Hypothesis in check and CI is derandomized; ``make fuzz`` explores (issue 30, item 5).

A property that fails only for some seeds lets a change land or not by luck. Check and CI
draw the same examples on every run, after the explicit ``@example``s, and never read a
local example database; ``WETLAND_GIS_FUZZ=long`` draws random examples and raises every
property to the long example count (``tests/conftest.py``).
"""

from __future__ import annotations

from types import SimpleNamespace

import conftest
import pytest
from fuzz_strategies import FUZZ
from hypothesis import given, settings, strategies as st


@pytest.mark.skipif(conftest.FUZZ_LONG, reason="WETLAND_GIS_FUZZ=long explores at random")
def test_check_and_ci_draw_the_same_examples_without_an_example_database():
    for profile in (settings.default, FUZZ):
        assert profile.derandomize is True
        assert profile.database is None
    assert settings.default.deadline is None


@pytest.mark.skipif(conftest.FUZZ_LONG, reason="WETLAND_GIS_FUZZ=long explores at random")
def test_a_property_with_its_own_settings_is_derandomized_too():
    @settings(max_examples=5)
    @given(st.integers())
    def prop(x: int) -> None:
        pass

    own = prop._hypothesis_internal_use_settings
    assert own.derandomize is True and own.database is None and own.max_examples == 5


def test_the_explore_profile_is_random_and_keeps_failures():
    explore = settings.get_profile("wetland-explore")
    assert explore.derandomize is False
    assert explore.database is not None
    assert settings.get_profile("wetland-fuzz").derandomize is False


def test_make_fuzz_raises_every_property_to_the_long_example_count():
    @settings(max_examples=5)
    @given(st.integers())
    def few(x: int) -> None:
        pass

    @settings(max_examples=900)
    @given(st.integers())
    def many(x: int) -> None:
        pass

    def plain() -> None:
        pass

    items = [SimpleNamespace(obj=f) for f in (few, many, plain)]
    conftest.raise_examples(items, 50)
    assert few._hypothesis_internal_use_settings.max_examples == 50
    assert many._hypothesis_internal_use_settings.max_examples == 900
    assert not hasattr(plain, "_hypothesis_internal_use_settings")


def test_only_make_fuzz_raises_the_examples(monkeypatch):
    raised = []
    monkeypatch.setattr(conftest, "raise_examples", lambda items, n: raised.append(n))
    monkeypatch.setattr(conftest, "FUZZ_LONG", False)
    conftest.pytest_collection_modifyitems(None, [])  # type: ignore[arg-type]
    assert raised == []
    monkeypatch.setattr(conftest, "FUZZ_LONG", True)
    monkeypatch.setattr(conftest, "FUZZ_EXAMPLES", 50)
    conftest.pytest_collection_modifyitems(None, [])  # type: ignore[arg-type]
    assert raised == [50]
