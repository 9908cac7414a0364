"""The layer registry (``wetland_gis.context_layers``): one spec per context layer.

Every stage reads the registry: loading and validation, classification, the verify items of
``assess``, the map and the docs. These tests hold the registry to that: each spec is
complete and consistent, each stage follows it, and the layer added through it alone
(``conservation_easements``, a spec entry and nothing else) is read, validated, classified,
carried to the impacts table, verified and drawn. They also hold the one reader and the one
hash: every input's SHA-256 is :func:`wetland_gis.io.checksums.file_sha256`.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from helpers import AS_OF, FT, ROOT
from shapely.geometry import LineString, Point, box

import wetland_gis as wg
from wetland_gis import manifest
from wetland_gis.assess import AssessOptions, map_layers
from wetland_gis.context import load_context, validate_layer
from wetland_gis.context_layers import (
    ANY_OVERLAP,
    COLUMN_DTYPES,
    GEOMETRY_KINDS,
    IMPACT_COLUMNS,
    LARGEST_OVERLAP,
    LAYER_NAMES,
    LAYER_SPECS,
    FieldSpec,
    ImpactColumn,
    LayerSpec,
    layer_spec,
)
from wetland_gis.errors import ContextError, MissingCRSError
from wetland_gis.geometry.classify import CLASSIFIERS, GEOMETRIC_COLUMNS, classify_impacts
from wetland_gis.io.checksums import file_sha256
from wetland_gis.io.layers import read_layer
from wetland_gis.mapping.symbology import CONTEXT_LAYERS

CRS = "EPSG:26915"
EASEMENT_TEXT = "the easement's terms, not the Wetland Conservation Act"

# ------------------------------------------------------------------------ the registry


@pytest.mark.parametrize("name", LAYER_NAMES)
def test_each_spec_is_complete(name):
    spec = LAYER_SPECS[name]
    assert spec.name == name
    assert spec.geometry in GEOMETRY_KINDS
    assert spec.classifier in CLASSIFIERS, f"{name}: no classification rule {spec.classifier!r}"
    assert spec.required, f"{name}: a layer needs at least one required field"
    assert len(set(spec.field_names)) == len(spec.fields)
    assert spec.purpose, f"{name}: say what the layer is for"
    for column in spec.columns:
        assert column.dtype in COLUMN_DTYPES
        if spec.rule is None:  # a generic method reads the field it names
            assert column.field is not None or column.dtype == "boolean", column
        if column.field is not None:
            assert column.field in spec.field_names, f"{name}: {column.field} is not a field"


def test_generic_methods_need_no_rule_of_their_own():
    generic = [s.name for s in LAYER_SPECS.values() if s.rule is None]
    assert {LAYER_SPECS[n].method for n in generic} <= {LARGEST_OVERLAP, ANY_OVERLAP}
    assert {"major_watersheds", "calcareous_fens", "drainage_systems"} <= set(generic)
    assert "conservation_easements" in generic


def test_the_impact_columns_are_the_areas_then_each_layers_in_registry_order():
    assert GEOMETRIC_COLUMNS == IMPACT_COLUMNS
    assert len(set(IMPACT_COLUMNS)) == len(IMPACT_COLUMNS)
    expected = ["area_sqft", "area_acres"] + [
        c.name for s in LAYER_SPECS.values() for c in s.columns
    ]
    assert list(IMPACT_COLUMNS) == expected


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FieldSpec("x", "date"), "type 'date'"),
        (lambda: ImpactColumn("x", "int"), "dtype 'int'"),
        (lambda: LayerSpec("x", "point", (FieldSpec("a", required=True),), ANY_OVERLAP), "point"),
        (lambda: LayerSpec("x", "polygon", (), "nearest"), "method 'nearest'"),
        (
            lambda: LayerSpec(
                "x",
                "polygon",
                (FieldSpec("a", required=True),),
                LARGEST_OVERLAP,
                (ImpactColumn("a", field="a"),),
                verify_note="{ids}",
            ),
            "verify_note needs an any_overlap id column",
        ),
    ],
    ids=["field-type", "column-dtype", "geometry-kind", "method", "verify-note-method"],
)
def test_a_malformed_spec_is_refused_when_written(make, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        make()


def test_an_unknown_layer_name_lists_the_layers():
    with pytest.raises(KeyError, match="drainage_systems"):
        layer_spec("ditches")
    with pytest.raises(ContextError, match="not a context layer"):
        load_context(layers={"ditches": gpd.GeoDataFrame(geometry=[], crs=CRS)})


def test_the_registry_imports_no_geometry_library():
    code = (
        "import sys, wetland_gis.context_layers as c; "
        "bad = [m for m in ('geopandas', 'shapely', 'pandas', 'folium') if m in sys.modules]; "
        "print(bad); assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# ----------------------------------------------------------------- validation by spec


def _one_feature(spec: LayerSpec, drop: str | None = None) -> gpd.GeoDataFrame:
    values = {"str": "x", "id": "7", "int": 7, "float": 1.5, "bool": True}
    row = {}
    for f in spec.fields:
        if not f.required or f.name == drop:
            continue
        row[f.name] = [f.allowed[0] if f.allowed else values[f.type]]
    geom = LineString([(0, 0), (10, 0)]) if spec.geometry == "line" else box(0, 0, 10, 10)
    return gpd.GeoDataFrame(row, geometry=[geom], crs=CRS)


@pytest.mark.parametrize("name", LAYER_NAMES)
def test_a_feature_with_the_required_fields_validates(name):
    out, _ = validate_layer(_one_feature(LAYER_SPECS[name]), name)
    assert len(out) == 1 and str(out.crs) == CRS
    assert set(LAYER_SPECS[name].required) <= set(out.columns)


REQUIRED = [(s.name, f) for s in LAYER_SPECS.values() for f in s.required]


@pytest.mark.parametrize(("name", "field"), REQUIRED, ids=[f"{n}-{f}" for n, f in REQUIRED])
def test_each_missing_required_field_is_named_with_the_fix(name, field):
    with pytest.raises(ContextError, match=f"missing the required field '{field}'.*rename"):
        validate_layer(_one_feature(LAYER_SPECS[name], drop=field), name)


@pytest.mark.parametrize("name", LAYER_NAMES)
def test_points_are_refused_by_every_layer(name):
    layer = _one_feature(LAYER_SPECS[name]).set_geometry([Point(0, 0)], crs=CRS)
    with pytest.raises(ContextError, match=r"must hold .* geometries .*\['Point'\]"):
        validate_layer(layer, name)


def test_a_field_cut_by_a_shapefile_and_in_another_case_is_found():
    layer = gpd.GeoDataFrame(
        {"PW_ID": ["86"], "SHORE_CLAS": ["GD"]}, geometry=[box(0, 0, 1, 1)], crs=CRS
    )
    out, records = validate_layer(layer, "public_water_basins")
    assert out["shore_class"].tolist() == ["general_development"]
    assert any("normalised 1 shore_class" in r for r in records)


def test_bounds_of_a_whole_number_are_checked_in_every_layer_that_has_the_field():
    for name in ("major_watersheds", "minor_watersheds", "percentage_overrides"):
        layer = _one_feature(LAYER_SPECS[name])
        layer["major"] = [82]
        with pytest.raises(ContextError, match="'major' must be 1-81"):
            validate_layer(layer, name)


# ------------------------------------------------------------ one reader, one hash


def _shapefile(folder: Path) -> Path:
    path = folder / "fens.shp"
    gpd.GeoDataFrame({"fen_name": ["A"]}, geometry=[box(0, 0, 9, 9)], crs=CRS).to_file(path)
    return path


def test_one_hash_for_a_shapefile_whatever_reads_it(tmp_path):
    shp = _shapefile(tmp_path)
    digest = file_sha256(shp)
    assert manifest.file_sha256 is file_sha256
    assert read_layer(shp).sha256 == digest
    assert file_sha256(tmp_path) == digest  # a folder holding one shapefile
    ctx = load_context(layers={"calcareous_fens": shp}, as_of=AS_OF)
    (source,) = [s for s in ctx.sources if s.layer == "calcareous_fens"]
    assert source.sha256 == digest


def test_the_shapefile_hash_covers_the_data_sidecars_not_the_spatial_index(tmp_path):
    shp = _shapefile(tmp_path)
    before = file_sha256(shp)
    shp.with_suffix(".qix").write_bytes(b"index QGIS wrote")
    assert file_sha256(shp) == before
    shp.with_suffix(".cpg").write_text("LATIN1", encoding="ascii")
    assert file_sha256(shp) != before


@pytest.mark.parametrize("ext", [".gpkg", ".geojson", ".parquet"])
def test_a_single_file_is_hashed_as_its_bytes_by_every_stage(tmp_path, ext):
    path = tmp_path / f"calcareous_fens{ext}"
    layer = gpd.GeoDataFrame({"fen_name": ["A"]}, geometry=[box(0, 0, 9, 9)], crs=CRS)
    layer.to_parquet(path) if ext == ".parquet" else layer.to_file(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert file_sha256(path) == read_layer(path).sha256 == digest
    ctx = load_context(layers={"calcareous_fens": path}, as_of=AS_OF)
    assert [s.sha256 for s in ctx.sources if s.layer == "calcareous_fens"] == [digest]


def test_the_context_reader_is_the_package_reader(tmp_path):
    broken = tmp_path / "calcareous_fens.gpkg"
    broken.write_bytes(b"not a geopackage")
    with pytest.raises(ContextError, match="context layer 'calcareous_fens': cannot read"):
        load_context(tmp_path, as_of=AS_OF)


def test_a_context_geojson_in_metres_without_crs_member_is_refused(tmp_path):
    path = tmp_path / "calcareous_fens.geojson"
    layer = gpd.GeoDataFrame({"fen_name": ["A"]}, geometry=[box(420000, 5150000, 420009, 5150009)])
    path.write_text(layer.to_json(), encoding="utf-8")  # no crs member
    with pytest.raises(MissingCRSError, match="context layer 'calcareous_fens'.*not degrees"):
        load_context(tmp_path, as_of=AS_OF)
    with pytest.raises(MissingCRSError) as caught:
        load_context(tmp_path, as_of=AS_OF)
    assert "--assume-crs" not in str(caught.value)  # the context has no such option


def test_a_context_geojson_in_degrees_without_crs_member_is_wgs84_recorded(tmp_path):
    path = tmp_path / "calcareous_fens.geojson"
    layer = gpd.GeoDataFrame({"fen_name": ["A"]}, geometry=[box(-94.2, 46.3, -94.1, 46.4)])
    path.write_text(layer.to_json(), encoding="utf-8")
    ctx = load_context(tmp_path, as_of=AS_OF)
    assert ctx.calcareous_fens is not None and str(ctx.calcareous_fens.crs) == CRS
    assert any("calcareous_fens:" in r and "read as WGS 84" in r for r in ctx.records)


def test_a_context_layer_without_crs_gets_the_context_message(tmp_path):
    path = tmp_path / "calcareous_fens.shp"
    gpd.GeoDataFrame({"fen_name": ["A"]}, geometry=[box(0, 0, 9, 9)], crs=CRS).to_file(path)
    path.with_suffix(".prj").unlink()
    with pytest.raises(MissingCRSError, match="context layer 'calcareous_fens'.*Set CRS"):
        load_context(tmp_path, as_of=AS_OF)


# ------------------------------------------------ the layer added by one spec entry


@pytest.fixture(scope="module")
def crow_wing():
    ctx = load_context(as_of=AS_OF)
    p = ctx.counties.set_index("NAME").geometry.loc["Crow Wing"].representative_point()
    return p.x, p.y


def _impacts(*geoms, kind=None):
    n = len(geoms)
    cols = {
        "impact_id": [f"I{i}" for i in range(n)],
        "wetland_type": ["3"] * n,
        "project": ["P"] * n,
    }
    if kind is not None:
        cols["impact_kind"] = [kind] * n
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=CRS)


def _easements(geoms, ids):
    return gpd.GeoDataFrame(
        {"easement_id": ids, "program": ["RIM Reserve"] * len(ids)},
        geometry=list(geoms),
        crs=CRS,
    )


def _square(x, y, side_ft=100.0):
    return box(x, y, x + side_ft * FT, y + side_ft * FT)


EASEMENT_CASES = [
    ("inside", lambda x, y: _square(x - 10, y - 10, 300), "RIM-2"),
    ("edge-distance-0", lambda x, y: _square(x + 100 * FT, y, 50), "RIM-2"),
    ("one-foot-away", lambda x, y: _square(x + 101 * FT, y, 50), ""),
]


@pytest.mark.parametrize(
    ("make", "expected"), [c[1:] for c in EASEMENT_CASES], ids=[c[0] for c in EASEMENT_CASES]
)
def test_conservation_easements_are_classified_by_any_overlap(crow_wing, make, expected):
    x, y = crow_wing
    ctx = load_context(layers={"conservation_easements": _easements([make(x, y)], ["RIM-2"])})
    imp = _impacts(_square(x, y)).assign(wg_row=[0], status=["assessed"])
    out = classify_impacts(imp, ctx, as_of=AS_OF).gdf
    assert out["conservation_easement"].tolist() == [expected]


def test_every_touched_easement_is_listed_once_in_id_order(crow_wing):
    x, y = crow_wing
    layer = _easements([_square(x, y, 40), _square(x, y, 60), _square(x, y, 80)], ["b", "a", "b"])
    ctx = load_context(layers={"conservation_easements": layer})
    imp = _impacts(_square(x, y)).assign(wg_row=[0], status=["assessed"])
    assert classify_impacts(imp, ctx, as_of=AS_OF).gdf["conservation_easement"].tolist() == ["a; b"]


def test_without_the_easement_layer_the_column_is_empty_and_recorded(crow_wing):
    x, y = crow_wing
    imp = _impacts(_square(x, y)).assign(wg_row=[0], status=["assessed"])
    out = classify_impacts(imp, load_context(), as_of=AS_OF)
    assert out.gdf["conservation_easement"].isna().all()
    assert any(
        r.startswith("conservation_easements: layer not given; conservation_easement unknown")
        for r in out.records
    )


def _assess(impacts, layers):
    ctx = load_context(layers=layers, as_of=AS_OF)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        options = AssessOptions(assume_no_public_waters=True)
        return wg.assess(impacts, ctx, as_of=AS_OF, options=options)


@pytest.mark.parametrize("kind", ["fill", "drain", "excavate", None])
def test_an_impact_in_an_easement_must_verify_the_easement_terms(crow_wing, kind):
    x, y = crow_wing
    easements = _easements([_square(x - 10, y - 10, 300)], ["RIM-2"])
    result = _assess(_impacts(_square(x, y), kind=kind), {"conservation_easements": easements})
    row = result.impacts.iloc[0]
    assert row["conservation_easement"] == "RIM-2"
    trace = result.trace
    step = trace[(trace["impact_id"] == "I0") & (trace["rule_id"] == "facts.context")]
    assert len(step) == 1
    (items,) = step["verify"].tolist()
    assert any(EASEMENT_TEXT in item and "RIM-2" in item for item in items)
    assert step["inputs"].iloc[0]["conservation_easement"] == "RIM-2"
    assert EASEMENT_TEXT in row["verify"]


def test_an_impact_outside_every_easement_gets_no_easement_item(crow_wing):
    x, y = crow_wing
    easements = _easements([_square(x + 200 * FT, y, 50)], ["RIM-2"])
    result = _assess(_impacts(_square(x, y)), {"conservation_easements": easements})
    assert result.impacts["conservation_easement"].tolist() == [""]
    assert EASEMENT_TEXT not in str(result.impacts["verify"].iloc[0])


def test_the_map_draws_the_layers_with_a_style_in_stack_order():
    styled = [s for s in LAYER_SPECS.values() if s.map is not None]
    assert list(CONTEXT_LAYERS) == [s.name for s in sorted(styled, key=lambda s: s.map.stack)]
    assert {"drainage_systems", "conservation_easements"} <= set(CONTEXT_LAYERS)


def test_drainage_systems_and_easements_are_drawn_on_the_tep_map(crow_wing):
    x, y = crow_wing
    layers = {
        "conservation_easements": _easements([_square(x - 10, y - 10, 300)], ["RIM-2"]),
        "drainage_systems": gpd.GeoDataFrame(
            {"system_id": ["CD 12"]},
            geometry=[LineString([(x - 10, y + 10), (x + 50, y + 10)])],
            crs=CRS,
        ),
    }
    result = _assess(_impacts(_square(x, y)), layers)
    assert {"conservation_easements", "drainage_systems"} <= set(map_layers(result.context))
    html = result.explore().get_root().render()
    assert "Public drainage systems" in html and "Conservation easements" in html
    assert "RIM-2" in html and "CD 12" in html
    assert "Conservation easement RIM-2" in html and "Public drainage system CD 12" in html


def test_the_popup_lists_the_any_overlap_layers_an_impact_touches():
    from wetland_gis.mapping.popups import decision_chain

    row = {"drainage_system": "CD 12; CD 3", "conservation_easement": "", "outcome": ""}
    steps = dict(decision_chain(row, None))
    assert steps["layers touched"] == "Public drainage system CD 12; CD 3"
    assert "layers touched" not in dict(decision_chain({"drainage_system": None}, None))


# ------------------------------------------------------------------------------- docs


def _docs_table(path: Path, heading: str) -> list[list[str]]:
    text = path.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_the_docs_list_the_layers_of_the_registry_in_its_order():
    rows = _docs_table(ROOT / "docs" / "data_schema.md", "## Context (reference layers)")
    assert [r[0].strip("`") for r in rows] == list(LAYER_NAMES)
    for (_name, geometry, required, optional, _notes), spec in zip(
        rows, LAYER_SPECS.values(), strict=True
    ):
        assert geometry.startswith(spec.geometry), spec.name
        for f in spec.required:
            assert f"`{f}`" in required, f"{spec.name}: required {f} not documented"
        for f in spec.optional:
            assert f"`{f}`" in optional, f"{spec.name}: optional {f} not documented"


def test_the_docs_list_every_impact_column():
    rows = _docs_table(
        ROOT / "docs" / "data_schema.md", "## Classified impacts (output of `assess`)"
    )
    documented = " ".join(r[0] for r in rows)
    missing = [c for c in IMPACT_COLUMNS if f"`{c}`" not in documented]
    assert not missing, f"impact columns not in docs/data_schema.md: {missing}"
