"""The "exemptions tried" section of an impact popup, read from the trace (issue 20)."""

from __future__ import annotations

from helpers import fill_fact

from wetland_gis.mapping.exemption_popup import exemption_rows, exemptions_tried_html
from wetland_gis.mapping.popups import impact_popup_html
from wetland_gis.rules import Claims, decide_project
from wetland_gis.rules.exempt import EXEMPTION_RULES, ExemptionFacts

CLEAN = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}


def _decided(exemption):
    f = fill_fact("A", 2, 30_000, exemption=exemption)
    return decide_project([f], Claims(), as_of="2024-05-01")


def test_every_exemption_tried_is_a_row_with_why():
    d = _decided(ExemptionFacts(duck_blind=True, **CLEAN))
    steps = [s for s in d.steps() if s["impact_id"] == "A"]
    rows = exemption_rows(steps)
    tried = [s.label for s in EXEMPTION_RULES if s.kind == "exemption"]
    names = [r[0] for r in rows]
    assert set(tried) <= set(names)
    duck = next(r for r in rows if r[0] == "Duck blinds")
    assert duck[2] == "Exempt" and "subd. 10(2)" in duck[3]


def test_the_popup_shows_the_exemptions_and_escapes_them():
    d = _decided(ExemptionFacts(duck_blind=True, **CLEAN))
    steps = [dict(s) for s in d.steps() if s["impact_id"] == "A"]
    steps[-1]["reason"] = "<script>alert(1)</script>"
    page = impact_popup_html({"outcome": "exempt"}, impact_id="A", steps=steps)
    assert "Exemptions tried" in page and "Duck blinds" in page
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_no_exemption_facts_gives_the_one_not_tried_row():
    d = _decided(None)
    steps = [s for s in d.steps() if s["impact_id"] == "A"]
    rows = exemption_rows(steps)
    assert len(rows) == 1 and rows[0][2] == "Not applied" and "not tried" in rows[0][3]
    assert exemptions_tried_html([]) == ""
