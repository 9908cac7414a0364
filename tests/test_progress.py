"""A progress bar on assess and report when they run longer than a few seconds (issue 30)."""

from __future__ import annotations

import io
import sys

import pytest

from wetland_gis.progress import STAGE_BAR_DELAY_S, StageBar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_bar_waits_a_few_seconds_then_shows_the_stages(monkeypatch):
    monkeypatch.setattr(sys, "stderr", _Terminal())
    said: list[str] = []
    with StageBar(3, "assess", say=said.append) as bar:
        assert bar._bar is not None and not bar._bar.disable
        assert 1 <= bar._bar.delay == STAGE_BAR_DELAY_S <= 10
        bar.stage("reading impacts")
        bar.stage("applying the rules")
        assert bar._bar.n == 2
    assert said == []  # printed above the bar instead
    assert "reading impacts" in sys.stderr.getvalue()


def test_in_a_log_or_pipe_no_bar_and_the_messages_as_before(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    said: list[str] = []
    with StageBar(2, "report", say=said.append) as bar:
        bar.stage("rendering the report")
        bar.stage("writing the PDF")
        bar.stage("one stage too many")  # never past the end
    assert said == ["rendering the report", "writing the PDF", "one stage too many"]
    assert bar.done == 2 and "\r" not in sys.stderr.getvalue()


@pytest.mark.slow
def test_assess_reports_its_stages_through_the_bar(sample_data, tmp_path):
    from wetland_gis.commands import run_assess

    said: list[str] = []
    run_assess(
        sample_data.path("projects/crow_wing/impacts.gpkg"),
        tmp_path / "a.gpkg",
        context=sample_data.context,
        as_of="2024-05-01",
        progress=said.append,
    )
    assert said[0] == "reading impacts" and said[-1] == "writing the outputs"
