"""The DNR basin shoreland classification list as a lookup for ``public_water_basins``.

Every DOW number below is a real row of the shipped subset
``sample_data/mn_dnr_basin_shoreland_classes_2019_wright_crowwing_hennepin.csv``
(MN DNR "Basin Shoreland Classifications, updated 9/24/19").
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from helpers import assess_cli
from hypothesis import given, strategies as st
from shapely.geometry import box

from wetland_gis.cli import build_parser
from wetland_gis.context import SHORE_CLASS_FROM_LAYER, load_context
from wetland_gis.errors import ContextError
from wetland_gis.io.shoreland_classes import normalise_dow, read_shoreland_classes

LIST = (
    Path(__file__).resolve().parents[1]
    / "sample_data"
    / "mn_dnr_basin_shoreland_classes_2019_wright_crowwing_hennepin.csv"
)
CRS = "EPSG:26915"
X0, Y0 = 420000.0, 5150000.0


def basins(pw_ids, shore_class=None, **cols) -> gpd.GeoDataFrame:
    n = len(pw_ids)
    data = {"pw_id": list(pw_ids), **cols}
    if shore_class is not None:
        data["shore_class"] = shore_class
    geoms = [box(X0 + 200 * i, Y0, X0 + 200 * i + 100, Y0 + 100) for i in range(n)]
    return gpd.GeoDataFrame(data, geometry=geoms, crs=CRS)


def load(layer, class_source="dnr", classes=LIST):
    return load_context(
        layers={"public_water_basins": layer},
        shoreland_classes=classes,
        class_source=class_source,
        as_of="2024-05-01",
    )


@pytest.fixture(scope="module")
def shipped_list():
    return read_shoreland_classes(LIST)


def test_the_shipped_subset_reads_with_eight_digit_keys(shipped_list):
    table = shipped_list.table
    assert len(table) == 1037
    assert table["dowlknum"].str.fullmatch(r"\d{8}").all()
    # Crow Wing, Hennepin, Wright (and basins they share with neighbouring counties)
    assert {"18", "27", "86"} <= set(table["dowlknum"].str[:2])
    assert len(shipped_list.sha256) == 64


CASES = [
    # id, DOW, class source, expected class, expected shore_class_source
    ("dnr-adney-crow-wing-18022500", "18022500", "dnr", "general_development", "list: dnr_class"),
    (
        "dnr-anderson-hennepin-27006200",
        "27006200",
        "dnr",
        "recreational_development",
        "list: dnr_class",
    ),
    ("dnr-abbey-wright-86021600", "86021600", "dnr", "natural_environment", "list: dnr_class"),
    (
        "dnr-buffalo-two-city-rows-agree-18015200",
        "18015200",
        "dnr",
        "natural_environment",
        "list: dnr_class",
    ),
    (
        "dnr-mallard-pass-wright-86018500",
        "86018500",
        "dnr",
        "recreational_development",
        "list: dnr_class",
    ),
    (
        "local-mallard-pass-city-ordinance-differs-86018500",
        "86018500",
        "local",
        "natural_environment",
        "list: city_class",
    ),
    (
        "local-abbey-county-ordinance-86021600",
        "86021600",
        "local",
        "natural_environment",
        "list: county_class",
    ),
    (
        "local-arlas-pond-no-dnr-class-18064000",
        "18064000",
        "local",
        "general_development",
        "list: city_class",
    ),
]


@pytest.mark.parametrize(
    ("dow", "source", "expected", "how"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_basin_without_a_class_takes_it_from_the_list(dow, source, expected, how):
    ctx = load(basins([dow]), class_source=source)
    row = ctx.public_water_basins.iloc[0]
    assert row["shore_class"] == expected
    assert row["shore_class_source"] == how
    assert any(f"DOW {dow}: shore_class {expected}" in r and "line(s)" in r for r in ctx.records)


def test_local_and_dnr_classes_differ_for_mallard_pass():
    dnr = load(basins(["86018500"]), class_source="dnr").public_water_basins
    local = load(basins(["86018500"]), class_source="local").public_water_basins
    assert dnr["shore_class"].iloc[0] == "recreational_development"
    assert local["shore_class"].iloc[0] == "natural_environment"


@pytest.mark.parametrize(
    "key",
    [18022500, 18022500.0, "18-0225-00", " 18022500 "],
    ids=["int", "float", "dashed", "spaces"],
)
def test_dow_spellings_are_normalised(key):
    ctx = load(basins([key]))
    assert ctx.public_water_basins["shore_class"].iloc[0] == "general_development"


def test_leading_zeros_lost_by_an_integer_column_are_put_back():
    assert normalise_dow(1001000) == "01001000"
    assert normalise_dow("01001000") == "01001000"
    assert normalise_dow("SYN-86-0001") is None
    assert normalise_dow("123456789") is None


@given(st.integers(min_value=0, max_value=99_999_999))
def test_normalised_dow_is_eight_digits_and_round_trips(n):
    text = normalise_dow(n)
    assert text is not None and len(text) == 8 and int(text) == n
    assert normalise_dow(text) == text
    assert normalise_dow(f"{text[:2]}-{text[2:6]}-{text[6:]}") == text


def test_a_dowlknum_column_is_the_key_when_the_layer_has_one():
    layer = basins(["Adney basin"], dowlknum=["18022500"])
    ctx = load(layer)
    assert ctx.public_water_basins["shore_class"].iloc[0] == "general_development"


def test_the_layer_class_wins_and_the_difference_is_recorded():
    # Adney is General Development on the list; the layer says Natural Environment
    layer = basins(["18022500", "27006200"], shore_class=["natural_environment", None])
    ctx = load(layer)
    out = ctx.public_water_basins
    assert list(out["shore_class"]) == ["natural_environment", "recreational_development"]
    assert list(out["shore_class_source"]) == [SHORE_CLASS_FROM_LAYER, "list: dnr_class"]
    assert any(
        "keep the layer's shore_class" in r and "18022500" in r and "list general_development" in r
        for r in ctx.records
    )


def test_without_a_list_every_class_is_from_the_layer():
    ctx = load_context(
        layers={"public_water_basins": basins(["18022500"], shore_class=["GD"])}, as_of="2024-05-01"
    )
    assert ctx.public_water_basins["shore_class_source"].iloc[0] == SHORE_CLASS_FROM_LAYER


ERRORS = [
    ("not-on-the-list-st-louis-69000100", "69000100", "dnr", "DOW 69000100 is not on the list"),
    (
        "dnr-ox-split-class-18028800",
        "18028800",
        "dnr",
        "'General Development/Natural Environment'.*not one of the state classes",
    ),
    ("local-ox-two-city-rows-differ-18028800", "18028800", "local", "several classes"),
    ("dnr-arlas-pond-blank-dnr-class-18064000", "18064000", "dnr", "no row with a DNR class"),
    (
        "local-dog-special-protection-18010700",
        "18010700",
        "local",
        "'Special Protection'.*not one of the state classes",
    ),
    (
        "local-arrowhead-no-local-class-27004500",
        "27004500",
        "local",
        "no row with a county or city class",
    ),
    ("not-a-dow-number", "SYN-86-0001", "dnr", "not an 8-digit DNR lake/basin number"),
]


@pytest.mark.parametrize(
    ("dow", "source", "match"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_a_basin_in_neither_is_an_error_naming_layer_row_and_fix(dow, source, match):
    layer = basins(["18022500", dow])
    with pytest.raises(ContextError, match=match) as err:
        load(layer, class_source=source)
    text = str(err.value)
    assert "public_water_basins" in text and "row 1" in text
    assert LIST.name in text and "Fix: set shore_class in the layer" in text


def test_a_basin_with_a_class_in_the_layer_needs_no_list_row():
    ctx = load(basins(["69000100"], shore_class=["general_development"]))
    assert ctx.public_water_basins["shore_class"].iloc[0] == "general_development"


def test_the_list_is_an_input_of_the_manifest():
    ctx = load(basins(["18022500"]))
    rec = [s for s in ctx.sources if s.layer == "shoreland_classes"]
    assert len(rec) == 1 and rec[0].features == 1037 and len(rec[0].sha256) == 64
    assert "context:shoreland_classes" in {r.role for r in ctx.manifest_inputs()}
    assert any("class source 'dnr'" in r for r in ctx.records)


def test_a_list_without_basins_is_recorded_as_unused():
    ctx = load_context(shoreland_classes=LIST, as_of="2024-05-01")
    assert any("list was not used" in r for r in ctx.records)


def test_an_unknown_class_source_is_an_error():
    with pytest.raises(ContextError, match=r"`class_source` was 'county'.*\['dnr', 'local'\]"):
        load(basins(["18022500"]), class_source="county")


def test_a_list_without_dowlknum_names_the_columns(tmp_path):
    bad = tmp_path / "list.csv"
    pd.DataFrame({"lake": ["18022500"], "dnr_class": ["GD"]}).to_csv(bad, index=False)
    with pytest.raises(ContextError, match=r"list.csv is missing the column\(s\) \['dowlknum'\]"):
        read_shoreland_classes(bad)


def test_a_bad_dow_in_the_list_names_the_line(tmp_path):
    bad = tmp_path / "list.csv"
    pd.DataFrame({"dowlknum": ["18022500", "Lake X"], "dnr_class": ["GD", "NE"]}).to_csv(
        bad, index=False
    )
    with pytest.raises(ContextError, match="line 3 has dowlknum 'Lake X'"):
        read_shoreland_classes(bad)


def test_a_missing_list_file_is_an_error(tmp_path):
    with pytest.raises(ContextError, match="does not exist"):
        read_shoreland_classes(tmp_path / "nope.csv")


def test_the_cli_takes_the_list_and_the_class_source():
    args = build_parser().parse_args(
        [
            "assess",
            "x.gpkg",
            "--out",
            "o.gpkg",
            "--shoreland-classes",
            str(LIST),
            "--shoreland-class-source",
            "local",
        ]
    )
    assert args.shoreland_classes == str(LIST) and args.shoreland_class_source == "local"
    default = build_parser().parse_args(["assess", "x.gpkg", "--out", "o.gpkg"])
    assert default.shoreland_classes is None and default.shoreland_class_source == "dnr"


def _cli_context(tmp_path):
    """A context folder whose basin (real DOW 86018500, Mallard Pass) has no shore_class."""
    ctx = load_context(as_of="2024-05-01")
    p = ctx.counties.set_index("NAME").geometry.loc["Wright"].representative_point()
    folder = tmp_path / "context"
    folder.mkdir()
    lake = box(p.x, p.y, p.x + 300, p.y + 300)
    gpd.GeoDataFrame(
        {"pw_id": ["86-0185-00"], "pw_name": ["Mallard Pass"]}, geometry=[lake], crs=CRS
    ).to_file(folder / "public_water_basins.gpkg")
    impacts = gpd.GeoDataFrame(
        {"impact_id": ["W-1"], "circ39": ["3"]},
        geometry=[box(p.x + 310, p.y, p.x + 320, p.y + 10)],
        crs=CRS,
    )
    impacts.to_file(tmp_path / "impacts.gpkg")
    return folder, tmp_path / "impacts.gpkg"


@pytest.mark.parametrize(
    ("source", "expected", "engine"),
    [
        ("dnr", "recreational_development", "default"),
        ("local", "natural_environment", "default"),
        ("local", "natural_environment", "chunks"),
    ],
)
def test_assess_on_the_command_line_records_the_class_taken_from_the_list(
    tmp_path, source, expected, engine
):
    import json
    import warnings

    from wetland_gis.errors import WetlandGISWarning

    folder, impacts = _cli_context(tmp_path)
    out = tmp_path / "assessed.gpkg"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        code = assess_cli(
            impacts,
            folder,
            out,
            "--as-of",
            "2024-05-01",
            "--shoreland-classes",
            LIST,
            "--shoreland-class-source",
            source,
            "--engine",
            engine,
            "--quiet",
        )
    assert code == 0
    manifest = json.loads((tmp_path / "assessed_manifest.json").read_text())
    assert any(f"DOW 86018500: shore_class {expected}" in r for r in manifest["records"])
    assert any(
        i["role"] == "context:shoreland_classes" and len(i["sha256"]) == 64
        for i in manifest["inputs"]
    )


def test_assess_without_the_list_names_the_missing_shore_class_and_the_list(tmp_path, capsys):

    folder, impacts = _cli_context(tmp_path)
    code = assess_cli(impacts, folder, tmp_path / "o.gpkg", "--quiet")
    err = capsys.readouterr().err
    assert code != 0
    assert "public_water_basins.gpkg" in err and "missing the required field 'shore_class'" in err
    assert "--shoreland-classes CSV" in err
