"""Lazy imports: the package, the CLI's --help and the rules core load no heavy library.

Each check runs in a fresh interpreter (a subprocess), since this test process has
already imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

import wetland_gis

#: Geometry, raster, mapping and optimisation libraries.
HEAVY = (
    "geopandas",
    "shapely",
    "pyproj",
    "pyogrio",
    "fiona",
    "rasterio",
    "folium",
    "branca",
    "jinja2",
    "scipy",
    "matplotlib",
)


def loaded_after(code: str) -> set[str]:
    """Return the top-level modules loaded by running ``code`` in a fresh interpreter."""
    script = textwrap.dedent(code) + textwrap.dedent("""
        import json, sys
        print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})))
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    ("statement", "forbidden"),
    [
        ("import wetland_gis", HEAVY + ("pandas", "numpy", "yaml")),
        ("import wetland_gis.cli", HEAVY + ("pandas", "numpy")),
        ("import wetland_gis.rules", HEAVY),
        ("import wetland_gis.water_use.rules", HEAVY),
        ("import wetland_gis.io.values", HEAVY + ("pandas", "numpy")),
        ("from wetland_gis import WetlandType, Outcome, WetlandGISError", HEAVY),
    ],
    ids=["package", "cli", "rules core", "water-use rules", "value parser", "enums and errors"],
)
def test_importing_loads_no_heavy_library(statement, forbidden):
    loaded = loaded_after(statement)
    assert "wetland_gis" in loaded
    assert not loaded & set(forbidden), sorted(loaded & set(forbidden))


def test_cli_version_and_help_answer_without_heavy_libraries():
    for flag in ("--version", "--help"):
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys\nfrom wetland_gis.cli import main\n"
                f"try:\n    main([{flag!r}])\nexcept SystemExit:\n    pass\n"
                "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                f"{HEAVY!r}))",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert proc.stdout.strip().splitlines()[-1] == "[]", (flag, proc.stdout)
        assert "wetland-gis" in proc.stdout


def test_every_public_name_resolves_and_is_listed_by_dir():
    assert len(wetland_gis.__all__) == len(set(wetland_gis.__all__))
    for name in wetland_gis.__all__:
        assert getattr(wetland_gis, name) is not None, name
        assert name in dir(wetland_gis), name
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        _ = wetland_gis.no_such_name


def test_assess_is_the_function_even_after_its_module_is_imported():
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
            import wetland_gis.assess
            import wetland_gis.commands
            import wetland_gis
            from wetland_gis import assess
            print(callable(wetland_gis.assess), wetland_gis.assess is assess,
                  assess.__module__, type(wetland_gis.rules).__name__)
        """),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert loaded.stdout.split() == ["True", "True", "wetland_gis.assess", "module"]


def test_star_import_gives_the_public_api():
    namespace: dict[str, object] = {}
    exec("from wetland_gis import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(wetland_gis.__all__)


@pytest.mark.parametrize("package", ["wetland_gis", "wetland_gis.io"])
def test_all_lists_exactly_the_lazy_names(package):
    import importlib

    module = importlib.import_module(package)
    assert set(module.__all__) - {"__version__"} == set(module._LAZY)


def test_the_qgis_styles_colour_water_use_points_without_importing_water_use():
    """Colours are presentation: io/qgis_styles and the water-use map read one palette
    (wetland_gis/palette.py), and io never imports the water-use package (issue 33)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent("""
            import sys
            import geopandas as gpd
            from shapely.geometry import Point
            from wetland_gis.io.qgis_styles import layer_style
            points = gpd.GeoDataFrame(
                {"permit_id": ["P-1"], "outcome": ["prohibited"]},
                geometry=[Point(480000, 5000000)], crs="EPSG:26915",
            )
            style = layer_style("appropriations", points)
            print(style.categories[0].value, style.categories[0].color)
            print(sorted(m for m in sys.modules if m.startswith("wetland_gis.water_use")))
        """),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    first, loaded = proc.stdout.strip().splitlines()[-2:]
    assert first == "prohibited #c0392b"
    assert loaded == "[]"


def test_the_water_use_map_and_the_qgis_style_share_one_palette():
    from wetland_gis.palette import WATER_USE_OUTCOME_COLORS
    from wetland_gis.water_use.rules import WaterOutcome
    from wetland_gis.water_use.screening import OUTCOME_COLORS

    assert OUTCOME_COLORS is WATER_USE_OUTCOME_COLORS
    assert set(WATER_USE_OUTCOME_COLORS) <= {o.value for o in WaterOutcome}
    assert len(set(WATER_USE_OUTCOME_COLORS.values())) == len(WATER_USE_OUTCOME_COLORS)


def test_the_water_use_facade_lists_and_resolves_the_screening_names():
    """``wetland_gis.water_use`` is a lazy facade (``_lazy.lazy_exports``) over its screening
    module: ``dir`` lists every public name, each is the screening module's own object."""
    import importlib

    water_use = importlib.import_module("wetland_gis.water_use")
    screening = importlib.import_module("wetland_gis.water_use.screening")
    assert set(water_use.__all__) <= set(dir(water_use))
    for name in water_use.__all__:
        assert getattr(water_use, name) is getattr(screening, name), name
    with pytest.raises(AttributeError, match="'wetland_gis.water_use' has no attribute 'nope'"):
        _ = water_use.nope
