"""The register read as a wetland specialist reads it (issue 32, items 6, 8, 13, 14, 15).

* § 103G.2242, subd. 2a(d): a boundary or type determination "is valid for five years
  unless the Technical Evaluation Panel determines that natural or artificial changes ...
  have been sufficient to alter the wetland boundary or type": five years from the decision
  date, always; a later end date is an input error; an expired one is a verify item, never
  used, and the impact layer's type does not silently stand in for it.
* § 103G.2241, subd. 9(f): "the cumulative area drained or filled of the landowner's portion
  since January 1, 1992" is the portion's history, whoever drained or filled it.
* The wetland bank is § 103G.2242 (subd. 3, 12, 14) and Minn. R. 8420.0700 to 8420.0755,
  not § 103G.2243 (local comprehensive wetland plans).

GeoPackage registers in ``tmp_path`` only (the PostGIS back end runs the same code).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from wetland_gis.register.schema import KIND_CITATIONS

ROOT = Path(__file__).resolve().parents[1]


# --- item 15: the bank's citation --------------------------------------------------------


@pytest.mark.parametrize(
    ("paragraph", "cited"),
    [
        pytest.param("§ 103G.2242, subd. 12 (replacement credits)", "12", id="2242-12"),
        pytest.param("§ 103G.2242, subd. 14 (bank fees)", "14", id="2242-14"),
        pytest.param("Minn. R. 8420.0700 to 8420.0755", "Minn. R. 8420.0700", id="8420.0700"),
    ],
)
def test_the_wetland_bank_is_cited_to_section_2242_and_its_rules(paragraph, cited):
    citation = KIND_CITATIONS["wetland_banking"]
    assert "103G.2242" in citation, paragraph
    assert cited in citation, paragraph


def test_section_2243_local_plans_is_not_cited_for_the_bank_anywhere():
    # § 103G.2243 is "local comprehensive wetland protection and management plans"
    assert "2243" not in KIND_CITATIONS["wetland_banking"]
    places = [ROOT / "docs" / "register.md", *sorted((ROOT / "wetland_gis").rglob("*.py"))]
    wrong = [
        str(p.relative_to(ROOT))
        for p in places
        if "§ 103G.2243" in p.read_text(encoding="utf-8")
        and "bank" in p.read_text(encoding="utf-8").split("§ 103G.2243")[0][-300:].lower()
    ]
    assert not wrong, f"§ 103G.2243 cited for the bank in {wrong}"


def test_an_imported_banking_decision_keeps_the_bank_citation(tmp_path):
    from wetland_gis.register.records import read_decisions_csv

    csv = tmp_path / "past.csv"
    csv.write_text(
        "kind,decision_date,lgu,recorded_by,wetland_id\n"
        "wetland_banking,2019-04-01,Wright SWCD,A. Analyst,W-1\n",
        encoding="utf-8",
    )
    (record,) = read_decisions_csv(csv)
    assert record.citations == [KIND_CITATIONS["wetland_banking"]]
    assert "8420.0755" in record.citations[0]
    assert dt.date(2019, 4, 1) == record.decision_date
