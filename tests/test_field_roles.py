"""Field roles: what a QGIS or ArcGIS shapefile names them, and the command line (issues 30, 33).

A shapefile keeps 10 characters of a field name (``impact_kind`` -> ``impact_kin``): every
role reads that cut, a column that only looks like a role's name is a warning naming the
role and ``--field``, and ``--field ROLE=COLUMN`` / ``--field-map FILE`` reach every role.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import warnings

import geopandas as gpd
import pandas as pd
import pyogrio
import pytest
from hypothesis import example, given, strategies as st
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.cli import build_parser, main
from wetland_gis.commands import _fields
from wetland_gis.errors import (
    DeprecatedOptionWarning,
    FieldMappingError,
    FieldNameWarning,
    WetlandGISWarning,
)
from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
from wetland_gis.io.field_map import (
    FieldMap,
    field_map_from_options,
    load_field_map,
    parse_field_options,
)
from wetland_gis.io.field_names import SHAPEFILE_NAME_LIMIT, looks_like, squash
from wetland_gis.io.fields import (
    DEFAULT_NAMES,
    FieldMapping,
    field_name_warnings,
    field_roles,
    resolve_fields,
)
from wetland_gis.io.layers import SHAPEFILE_FIELD_LIMIT

AS_OF = "2024-05-01"
FT = 0.3048

#: Every (role, name) the layer may use: enumerated from the two role lists themselves,
#: so a new role is in this test without being named here.
_ROLE_NAMES = [
    *((role, name) for role, names in DEFAULT_NAMES.items() for name in names),
    *EXEMPTION_FIELD_ROLES.items(),
]


def _square(sample_data, n=1):
    c = gpd.read_file(sample_data.path("projects/crow_wing/impacts.gpkg")).geometry.iloc[0]
    x, y = c.centroid.x, c.centroid.y
    side = 9000**0.5 * FT
    return [box(x + 120 * k, y, x + 120 * k + side, y + side) for k in range(n)]


def test_the_shapefile_limit_is_the_one_the_writer_uses():
    assert SHAPEFILE_NAME_LIMIT == SHAPEFILE_FIELD_LIMIT == 10


@pytest.mark.parametrize(("role", "name"), _ROLE_NAMES, ids=[f"{r}:{n}" for r, n in _ROLE_NAMES])
def test_every_role_reads_the_shapefile_cut_of_each_of_its_names(role, name):
    cut = name[:SHAPEFILE_NAME_LIMIT]
    # a type column is used only when its values read as Circular 39 types
    frame = pd.DataFrame({cut: ["2"], "other": ["x"]})
    mapping = resolve_fields(frame)
    found = {**mapping.as_dict(), **dict(mapping.exemption_columns)}
    assert found[role] == cut


def test_the_role_catalogue_holds_every_role_with_the_cut_of_every_name():
    roles = field_roles()
    mapping_roles = [f.name for f in dataclasses.fields(FieldMapping)][: len(DEFAULT_NAMES)]
    assert list(roles) == [*mapping_roles, *EXEMPTION_FIELD_ROLES]
    for role, name in _ROLE_NAMES:
        assert name in roles[role].names and name[:10] in roles[role].names


def _every_role_layer(sample_data, path, **values):
    """A shapefile written by GDAL's ESRI Shapefile driver with a column for every role."""
    columns: dict[str, list] = {}
    for role, names in DEFAULT_NAMES.items():
        if role != "wetland_type":
            columns[max(names, key=len)] = [None]  # the longest name: cut by the writer
    for column in EXEMPTION_FIELD_ROLES.values():
        columns.setdefault(column, [None])
    columns["circ39_class"] = ["2"]
    columns.update({k: [v] for k, v in values.items()})
    gdf = gpd.GeoDataFrame(columns, geometry=_square(sample_data), crs="EPSG:26915")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the writer's "truncated" and "laundered" warnings
        pyogrio.write_dataframe(gdf, path, driver="ESRI Shapefile")
    return path


def test_a_qgis_shapefile_gives_every_role_and_an_excavated_wet_meadow_is_no_drain_or_fill(
    sample_data, tmp_path
):
    # § 103G.222, subd. 1(a): excavation is regulated only in permanently and
    # semipermanently flooded areas of type 3, 4 and 5 wetlands; a type 2 wet meadow
    # excavated is not a drain or fill, whatever exemption fact (subd. 1(4)) is given
    path = _every_role_layer(
        sample_data,
        tmp_path / "impacts.shp",
        impact_id="A",
        project="P",
        impact_kind="excavate",
        cedar_tamarack="no",
        sw_prac="yes",
    )
    written = [c for c in pyogrio.read_info(path)["fields"]]
    assert "impact_kin" in written and "cedar_tama" in written and "impact_kind" not in written
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        a = wg.assess(path, sample_data.context, as_of=AS_OF)
    read = a.manifest.settings["fields"]
    assert {role for role, column in read.items() if column is None} == set()
    assert {role for role, _ in a.fields.exemption_columns} == set(EXEMPTION_FIELD_ROLES)
    assert a.impacts["outcome"].item() == "not_a_drain_or_fill"
    step = a.trace[a.trace["rule_id"] == "impact_kind"]
    assert step["citation"].item() == "Minn. Stat. § 103G.222, subd. 1(a)"


@pytest.mark.parametrize(
    ("columns", "role"),
    [
        pytest.param(["impact_k_1"], "impact_kind", id="a numbered cut (GDAL, ArcGIS)"),
        pytest.param(["Impact Kind"], "impact_kind", id="case and a space"),
        pytest.param(["cedar-tamarack"], "cedar_tamarack", id="a dash"),
        pytest.param(["owns_who"], "owns_whole_wetland", id="a shorter cut"),
        pytest.param(["years_annu"], "years_annual_crops", id="the cut of a role's own name"),
        pytest.param(["duck_blinds"], "duck_blind", id="a plural"),
        pytest.param(["impact_kin"], None, id="the 10-character cut is read"),
        pytest.param(["impact_kind", "impact_k_1"], None, id="the role is read already"),
        pytest.param(["notes", "acres", "name", "Shape_Area", "OBJECTID"], None, id="unrelated"),
    ],
)
def test_a_column_that_looks_like_an_unread_role_is_a_warning_naming_it(columns, role):
    names = ["impact_id", "circ39", *columns]
    messages = field_name_warnings(names, resolve_fields(names))
    if role is None:
        assert messages == []
        return
    assert len(messages) == 1
    assert f"role {role!r}" in messages[0]
    assert f"--field {role}=" in messages[0] or f"--field '{role}=" in messages[0]


@pytest.mark.parametrize(
    ("columns", "rows", "warned"),
    [
        pytest.param(["impact_id", "circular39"], 5000, True, id="type column named unlike any"),
        pytest.param(["impact_id"], None, True, id="no type column, rows unknown"),
        pytest.param(["impact_id", "circ39"], 5000, False, id="Circular 39 type read"),
        pytest.param(["impact_id", "attribute"], 5000, False, id="Cowardin code read (NWI)"),
        pytest.param(["impact_id", "circular39"], 0, False, id="an empty layer: nothing to type"),
    ],
)
def test_a_layer_with_rows_and_no_wetland_type_column_is_one_warning(columns, rows, warned):
    # § 103G.005, subd. 17b (the wetland types): without a type or Cowardin
    # column every row is "not assessed", which the run says once with the option to use
    messages = field_name_warnings(columns, resolve_fields(columns), rows=rows)
    missing = [m for m in messages if m.startswith("no column gives the wetland type")]
    assert len(missing) == (1 if warned else 0)
    if warned:
        assert "--field wetland_type=COLUMN" in missing[0] and "circ39" in missing[0]
        assert "impact_id" in missing[0].split("the layer's columns are ")[1]


def test_a_look_alike_type_column_is_not_warned_twice():
    columns = ["impact_id", "circ39_typ"]
    messages = field_name_warnings(columns, resolve_fields(columns), rows=10)
    assert len(messages) == 1 and "role 'wetland_type'" in messages[0]


@given(name=st.sampled_from(sorted({n for _, n in _ROLE_NAMES})), k=st.integers(5, 40))
@example(name="impact_kind", k=10)
@example(name="prior_sqft_since_1992", k=9)
@example(name="add_intrus", k=5)
def test_a_cut_of_a_name_is_read_or_looks_like_it(name, k):
    cut = name[:k]
    read = cut in (name, name[:SHAPEFILE_NAME_LIMIT])
    assert read or looks_like(cut, name) or len(squash(cut)) < 5
    assert not looks_like(name, name) and not looks_like(name[:SHAPEFILE_NAME_LIMIT], name)


def test_assess_warns_of_a_look_alike_and_records_it(sample_data):
    gdf = gpd.GeoDataFrame(
        {"impact_id": ["A"], "circ39": ["2"], "Impact Kind": ["excavate"]},
        geometry=_square(sample_data),
        crs="EPSG:26915",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = wg.assess(gdf, sample_data.context, as_of=AS_OF)
    named = [w for w in caught if issubclass(w.category, FieldNameWarning)]
    assert len(named) == 1 and "'Impact Kind'" in str(named[0].message)
    assert str(named[0].message) in a.manifest.records
    b = wg.assess(gdf, sample_data.context, as_of=AS_OF, fields={"impact_kind": "Impact Kind"})
    assert b.impacts["outcome"].item() == "not_a_drain_or_fill"


def test_a_named_column_is_read_under_its_shapefile_cut_with_a_record():
    mapping = resolve_fields(["impact_kin", "duck_blind"], impact_kind="impact_kind_2024")
    assert mapping.impact_kind == "impact_kin"
    assert any("'impact_kind_2024' was read as 'impact_kin'" in n for n in mapping.notes)


# ------------------------------------------------------------------ the command line


def _option_count(command):
    """Return the options ``COMMAND --help`` lists (a hidden deprecated alias is not listed)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sum(a.help != argparse.SUPPRESS for a in sub.choices[command]._actions)


@pytest.mark.parametrize("command", ["assess", "screen", "compare"])
def test_help_has_under_40_options(command):
    assert _option_count(command) < 40


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("--clause-reading", "per_clause"), ("--reading", "clause=per_clause")),
        (
            ("--exemption-scope-reading", "covered_impacts"),
            ("--reading", "exemption_scope=covered_impacts"),
        ),
    ],
    ids=["subd. 9(e)", "Minn. R. 8420.0420, subp. 1 C"],
)
def test_the_old_reading_options_still_work_with_a_deprecation_note(old, new):
    from wetland_gis.commands import _readings
    from wetland_gis.errors import DeprecatedOptionWarning

    head = ["assess", "x.gpkg", "--out", "o.gpkg"]
    with pytest.warns(DeprecatedOptionWarning, match=" ".join(new)):
        before = _readings(build_parser().parse_args([*head, *old]))
    assert before == _readings(build_parser().parse_args([*head, *new]))


def test_a_reading_given_two_ways_that_disagree_is_an_input_error():
    from wetland_gis.commands import _readings
    from wetland_gis.errors import DeprecatedOptionWarning, InputError

    args = build_parser().parse_args(
        ["assess", "x.gpkg", "--out", "o", "--clause-reading", "per_clause"]
        + ["--reading", "clause=one_clause"]
    )
    with pytest.warns(DeprecatedOptionWarning), pytest.raises(InputError, match="disagree"):
        _readings(args)


@pytest.mark.parametrize(("role", "name"), _ROLE_NAMES[:: max(1, len(_ROLE_NAMES) // 40)])
def test_every_role_is_reachable_with_field(role, name):
    args = build_parser().parse_args(["assess", "x.gpkg", "--out", "o", "--field", f"{role}=C"])
    assert dict(_fields(args)) == {role: "C"}


def test_every_role_is_reachable_with_field_all_at_once():
    options = [arg for role in field_roles() for arg in ("--field", f"{role}=c_{role}")]
    args = build_parser().parse_args(["assess", "x.gpkg", "--out", "o", *options])
    assert dict(_fields(args)) == {role: f"c_{role}" for role in field_roles()}


@pytest.mark.parametrize(
    ("option", "match"),
    [
        pytest.param(
            "impact_knd=x",
            "'impact_knd' is not a field role; the closest role is 'impact_kind'",
            id="unknown role: the closest",
        ),
        pytest.param("cedar_tama=x", "closest role is 'cedar_tamarack'", id="a column as role"),
        pytest.param("impact_kind", "expected ROLE=COLUMN", id="no ="),
        pytest.param("impact_kind=", "expected ROLE=COLUMN", id="no column"),
    ],
)
def test_a_bad_field_option_is_an_input_error_naming_it(option, match, tmp_path, capsys):
    with pytest.raises(FieldMappingError, match=match):
        parse_field_options([option])
    assert main(["fields", "--field", option]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err


def test_a_column_not_in_the_layer_exits_2_naming_it_and_the_closest(sample_data, tmp_path, capsys):
    path = _every_role_layer(sample_data, tmp_path / "impacts.shp", impact_id="A")
    code = main(
        ["assess", str(path), "--out", str(tmp_path / "a.gpkg"), "--field", "owner=landownr"]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "'landownr' is not in the layer" in err and "closest column is 'landowner'" in err
    assert "(role 'owner'" in err


def test_one_role_given_two_columns_is_refused():
    with pytest.raises(FieldMappingError, match="two columns"):
        parse_field_options(["owner=a", "owner=b"])
    args = build_parser().parse_args(
        ["assess", "x.gpkg", "--out", "o", "--field", "impact_id=a", "--id-field", "b"]
    )
    with (
        pytest.raises(FieldMappingError, match="two columns"),
        pytest.warns(DeprecatedOptionWarning),
    ):
        _fields(args)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        pytest.param(
            {"options": ["owner=a", "owner=b"]},
            "--field gives the role 'owner' two columns ('a' and 'b'); give it once",
            id="--field twice",
        ),
        pytest.param(
            {"options": ["impact_id=a"], "aliases": {"impact_id": "b"}},
            "the role 'impact_id' is given two columns ('a' by --field and 'b' by its older "
            "option); give it once, with --field",
            id="--field and an alias",
        ),
        pytest.param(
            {"csv": "role,column\nowner,a\nowner,b\n"},
            "field map {path}, line 3: role 'owner' is given twice ('a' and 'b'); give it once",
            id="field map twice",
        ),
    ],
)
def test_a_role_given_two_columns_names_both_and_where(given, message, tmp_path):
    """One rule for every source of a role's column: once, or the same column again."""
    path = tmp_path / "map.csv"
    path.write_text(given.get("csv", "role,column\n"))
    with pytest.raises(FieldMappingError) as raised:
        field_map_from_options(path, given.get("options"), given.get("aliases"))
    assert str(raised.value) == message.format(path=path)
    # the same column given again is no conflict
    same = {"options": ["owner=a", "owner=a"], "aliases": {"owner": "a"}}
    assert dict(field_map_from_options(None, same["options"], same["aliases"])) == {"owner": "a"}


_MAPS = {
    "map.toml": '# a comment\n[fields]\nimpact_kind = "IMPACT KIN"\nowner = "OWNR"\nbanked = ""\n',
    "map.yaml": "fields:\n  impact_kind: IMPACT KIN\n  owner: OWNR\n  banked:\n",
    "map.csv": "role,column,holds\nimpact_kind,IMPACT KIN,x\nowner,OWNR,\nbanked,,\n",
    "top.toml": 'impact_kind = "IMPACT KIN"\nowner = "OWNR"\n',
    "top.yml": "impact_kind: IMPACT KIN\nowner: OWNR\n",
}


@pytest.mark.parametrize("name", list(_MAPS))
def test_a_field_map_file_reads_alike_in_toml_yaml_and_csv(name, tmp_path):
    path = tmp_path / name
    path.write_text(_MAPS[name], encoding="utf-8")
    fm = load_field_map(path)
    assert dict(fm) == {"impact_kind": "IMPACT KIN", "owner": "OWNR"}
    assert fm.source == str(path) and len(fm.sha256 or "") == 64


@pytest.mark.parametrize(
    ("name", "text", "match"),
    [
        pytest.param("m.toml", 'impact_knd = "x"\n', "closest role is 'impact_kind'", id="role"),
        pytest.param("m.toml", "impact_kind = \n", "not valid TOML", id="toml syntax"),
        pytest.param("m.yaml", "impact_kind: [1, 2]\n", "give the column's name", id="a list"),
        pytest.param("m.csv", "a,b\nimpact_kind,x\n", "role and column", id="csv header"),
        pytest.param("m.csv", "role,column\nowner,a\nowner,b\n", "line 3", id="csv twice"),
        pytest.param("m.json", "{}", "unsupported format", id="format"),
    ],
)
def test_a_bad_field_map_is_an_input_error_naming_the_file(name, text, match, tmp_path):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(wg.errors.InputError, match=match):
        load_field_map(path)


def test_assess_records_the_field_map_and_its_hash_and_field_wins(sample_data, tmp_path, capsys):
    path = _every_role_layer(
        sample_data, tmp_path / "impacts.shp", impact_id="A", impact_kind="excavate"
    )
    fmap = tmp_path / "map.toml"
    fmap.write_text('[fields]\nowner = "wetland_id"\nimpact_kind = "impact_kin"\n', "utf-8")
    out = tmp_path / "a.gpkg"
    args = ["assess", str(path), "--context", str(sample_data.context), "--out", str(out)]
    args += ["--as-of", AS_OF, "--quiet", "--field-map", str(fmap), "--field", "owner=landowner"]
    assert main(args) == 0
    manifest = json.loads((tmp_path / "a_manifest.json").read_text("utf-8"))
    (record,) = [i for i in manifest["inputs"] if i["role"] == "field_map"]
    assert record["path"] == str(fmap) and record["sha256"] == load_field_map(fmap).sha256
    assert manifest["settings"]["field_map"]["options"] == {"owner": "landowner"}
    assert manifest["settings"]["fields"]["owner"] == "landowner"


def test_the_old_options_still_work_with_a_deprecation_note(sample_data, tmp_path, capsys):
    gdf = gpd.GeoDataFrame(
        {"parcel": ["A"], "kind_of_type": ["2"]}, geometry=_square(sample_data), crs=26915
    )
    gdf.to_file(tmp_path / "i.gpkg")
    code = main(["fields", str(tmp_path / "i.gpkg"), "--type-field", "kind_of_type"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "wetland_type                  <- kind_of_type" in out
    assert "--type-field is deprecated" in err and "--field wetland_type=COLUMN" in err


def test_fields_lists_every_role_with_every_name_it_reads(capsys):
    assert main(["fields"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line and line[0] != " "}
    for spec in field_roles().values():
        assert spec.role in lines
        for name in spec.names:
            assert name in lines[spec.role]


@pytest.mark.parametrize("suffix", [".toml", ".yaml", ".csv"])
def test_the_template_loads_back_blank_or_filled_from_a_layer(suffix, sample_data, tmp_path):
    blank = tmp_path / f"blank{suffix}"
    assert main(["fields", "--template", str(blank)]) == 0
    assert dict(load_field_map(blank)) == {}
    text = blank.read_text("utf-8")
    assert all(role in text for role in field_roles())
    path = _every_role_layer(sample_data, tmp_path / "impacts.shp", impact_id="A")
    filled = tmp_path / f"filled{suffix}"
    assert main(["fields", str(path), "--template", str(filled)]) == 0
    fm = load_field_map(filled)
    assert fm["impact_kind"] == "impact_kin" and fm["road_authority"] == "road_auth"
    assert len(fm) == len(field_roles())
    assert main(["fields", "--template", str(filled)]) == 2  # an existing file is kept


def test_a_field_map_object_is_a_mapping_for_the_python_api():
    fm = FieldMap({"owner": "OWNR"}, source="m.toml", sha256="0" * 64)
    assert resolve_fields(["OWNR"], **fm).owner == "OWNR"
    assert fm.settings() == {"file": "m.toml", "sha256": "0" * 64}


def test_the_data_schema_names_every_impact_and_road_role(sample_data):
    text = (sample_data.root.parent / "docs" / "data_schema.md").read_text("utf-8")
    for spec in field_roles().values():
        if spec.kind in ("impact", "road"):
            assert f"`{spec.role}`" in text, spec.role
    assert "--field ROLE=COLUMN" in text and "--field-map FILE" in text
    assert not re.findall(r"--[a-z0-9-]+-field\b", text)  # no --<role>-field left
