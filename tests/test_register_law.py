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
from register_fixtures import (
    STEP_FIELDS,
    classified_frame,
    decision_record,
    decisions_from_csv,
)

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
    (record,) = decisions_from_csv(
        tmp_path / "past.csv",
        "kind,decision_date,lgu,recorded_by,wetland_id\n"
        "wetland_banking,2019-04-01,Wright SWCD,A. Analyst,W-1\n",
    )
    assert record.citations == [KIND_CITATIONS["wetland_banking"]]
    assert "8420.0755" in record.citations[0]
    assert dt.date(2019, 4, 1) == record.decision_date


# --- items 6 and 14: a boundary or type determination is valid for five years ---------------


def _determination(**kw):
    return decision_record(
        **{
            "kind": "boundary_type_determination",
            "decision_date": dt.date(2024, 3, 1),
            "lgu": "Wright SWCD",
            **kw,
        }
    )


@pytest.mark.parametrize(
    ("decided", "given", "expected"),
    [
        pytest.param(
            dt.date(2024, 3, 1), None, dt.date(2029, 3, 1), id="2a(d): no end date is five years"
        ),
        pytest.param(
            dt.date(2024, 2, 29), None, dt.date(2029, 2, 28), id="2a(d): five years from 29 Feb"
        ),
        pytest.param(
            dt.date(2024, 3, 1),
            dt.date(2029, 3, 1),
            dt.date(2029, 3, 1),
            id="2a(d): exactly five years is accepted",
        ),
        pytest.param(
            dt.date(2024, 3, 1),
            dt.date(2026, 1, 1),
            dt.date(2026, 1, 1),
            id="2a(d): an earlier end the LGU set is kept",
        ),
    ],
)
def test_subd_2a_d_a_determination_made_through_the_api_ends_after_five_years(
    decided, given, expected
):
    assert _determination(decision_date=decided, valid_until=given).valid_until == expected


@pytest.mark.parametrize(
    "given",
    [
        pytest.param(dt.date(2030, 1, 1), id="2a(d): 2030 for a 2024 determination"),
        pytest.param(dt.date(2029, 3, 2), id="2a(d): one day past five years"),
    ],
)
def test_subd_2a_d_an_end_date_after_five_years_is_an_input_error(given):
    from wetland_gis.register import RegisterError

    with pytest.raises(RegisterError, match=r"after 2029-03-01.*subd\. 2a\(d\)"):
        _determination(valid_until=given)


def test_subd_2a_d_an_imported_end_date_after_five_years_names_the_row_and_column(tmp_path):
    from wetland_gis.errors import InputError

    text = (
        "kind,decision_date,lgu,recorded_by,wetland_id,determined_type,valid_until\n"
        "boundary_type_determination,2024-03-01,Wright SWCD,A. Analyst,W-1,3,2024-12-31\n"
        "boundary_type_determination,2024-03-01,Wright SWCD,A. Analyst,W-2,3,2030-01-01\n"
    )
    with pytest.raises(InputError, match=r"row 3, column 'valid_until'.*2029-03-01"):
        decisions_from_csv(tmp_path / "past.csv", text)


def test_an_exemption_decision_keeps_no_validity_of_its_own():
    from wetland_gis.register import DecisionRecord

    rec = DecisionRecord(
        kind="exemption", decision_date=dt.date(2024, 3, 1), lgu="L", recorded_by="R"
    )
    assert rec.valid_until is None  # the law gives no period for an exemption


# --- reading the register before the rules run (fill_from_register) ----------------------


@pytest.fixture(scope="module")
def register(tmp_path_factory):
    """One GeoPackage register for the module (append-only: each test its own wetland)."""
    from wetland_gis.register import Register

    return Register(tmp_path_factory.mktemp("reg") / "register.gpkg").init()


def _fill(register, rows, as_of, **columns):
    """Run the register fill on a one-row classified layer; return (row, step)."""
    from wetland_gis.io.fields import FieldMapping
    from wetland_gis.parameters import default_parameters
    from wetland_gis.register.fill import fill_from_register

    frame = classified_frame(rows, **columns)
    mapping = FieldMapping(
        wetland_id="wetland_id",
        owner="owner" if "owner" in columns else None,
        owns_whole_wetland="owns" if "owns" in columns else None,
    )
    out, _, steps, _ = fill_from_register(
        frame, mapping, register, default_parameters(), dt.date.fromisoformat(as_of)
    )
    (step,) = steps[0]
    return out.iloc[0], dict(zip(STEP_FIELDS, step, strict=True))


@pytest.mark.parametrize(
    ("as_of", "used"),
    [
        pytest.param("2029-03-01", True, id="2a(d): valid on its last day"),
        pytest.param("2029-03-02", False, id="2a(d): expired the day after five years"),
        pytest.param("2035-06-01", False, id="2a(d): long expired"),
    ],
)
def test_subd_2a_d_a_determination_is_used_for_five_years_then_becomes_a_verify_item(
    register, as_of, used
):
    wetland = f"D-{as_of}"
    register.add(_determination(wetland_id=wetland, determined_type="3"))
    row, step = _fill(register, 1, as_of, wetland_id=[wetland], owner=["X"])
    verify = " ".join(step["verify"])
    if used:
        assert row["wetland_type"] == "3" and row["type_source"] == "register determination"
        assert "valid until 2029-03-01" in verify
    else:  # never silently used, and the layer's type does not silently stand in
        assert row["wetland_type"] == "2"
        assert bool(row["type_verify"]) is True
        assert "expired on 2029-03-01" in row["type_note"]
        assert "expired on 2029-03-01" in verify and "not a determination" in verify
        assert step["inputs"]["expired_determination"]["type"] == "3"


def test_subd_2a_d_the_tep_exception_is_a_verify_item_on_every_reused_determination(register):
    register.add(_determination(wetland_id="D-tep", determined_type="2"))
    row, step = _fill(register, 1, "2025-05-01", wetland_id=["D-tep"], owner=["X"])
    assert row["wetland_type"] == "2"  # the same type as the layer's: used all the same
    assert any(
        "Technical Evaluation Panel determines that natural or artificial changes" in v
        and "2a(d)" in v
        for v in step["verify"]
    )


def test_subd_2a_d_a_stored_end_after_five_years_is_cut_to_five_years(register):
    rec = _determination(wetland_id="D-stored", determined_type="3")
    object.__setattr__(rec, "valid_until", dt.date(2031, 1, 1))  # as an older version stored it
    register.add(rec)
    row, step = _fill(register, 1, "2030-06-01", wetland_id=["D-stored"], owner=["X"])
    assert row["wetland_type"] == "2" and bool(row["type_verify"]) is True
    assert any("after the five years" in v for v in step["verify"])


# --- items 8 and 13: subd. 9(f) reads the landowner's portion, not the applicant ------------


def _fill_impact(landowner, area=2000.0, date=dt.date(2003, 6, 1), wetland="P-1"):
    from wetland_gis.register import ImpactRecord

    return ImpactRecord(
        impact_id=f"{landowner}-{area:g}",
        landowner=landowner,
        wetland_id=wetland,
        area_sqft=area,
        impact_date=date,
        impact_kind="fill",
    )


@pytest.mark.parametrize(
    ("owner", "owns", "prior", "other_named"),
    [
        pytest.param(
            "X", None, 2300.0, True, id="9(f): a previous owner's fill of the portion counts"
        ),
        pytest.param("X", "yes", 2300.0, False, id="9(f): the whole wetland: every fill counts"),
        pytest.param(None, None, 2300.0, True, id="9(f): no owner: the wetland's history"),
    ],
)
def test_subd_9f_the_portions_history_counts_whoever_drained_or_filled_it(
    register, owner, owns, prior, other_named
):
    from wetland_gis.register import DecisionRecord

    wetland = f"P-{owner}-{owns}"
    register.add(
        DecisionRecord(
            kind="exemption",
            decision_date=dt.date(2003, 6, 1),
            lgu="Wright SWCD",
            recorded_by="A. Analyst",
            impacts=[
                _fill_impact("Previous owner", 2000.0, wetland=wetland),
                _fill_impact("X", 300.0, wetland=wetland),
                _fill_impact("Previous owner", 999.0, dt.date(1990, 1, 1), wetland=wetland),
            ],
        )
    )
    columns = {"wetland_id": [wetland], "owner": [owner]}
    if owns is not None:
        columns["owns"] = [owns]
    row, step = _fill(register, 1, "2024-05-01", **columns)
    assert row["register_prior_sqft_since_1992"] == prior  # the 1990 fill is before 1992
    said = " ".join(step["verify"])
    assert ("Previous owner" in said) is other_named
