"""The QGIS Processing provider (issue 31): the run events, the command it builds, QGIS runs.

Fast tests (no QGIS) check the machine-readable channel of the command line, that every
parameter of every algorithm gives an argument the command line's own parser reads as
meant, the interpreter look-up, the plugin zip and that the modules QGIS loads import
nothing but the standard library and QGIS. The ``qgis`` tests run the built plugin in
Debian's QGIS (``/usr/bin/python3``, ``QT_QPA_PLATFORM=offscreen``) through
``tests/qgis_provider_driver.py``: ``processing.run("wetland_gis:assess", ...)`` on the
bundled sample and on a shapefile QGIS's own writer wrote, a bad input and a cancel;
``wetland_gis:impacts`` on the county road's construction limits and its output chained into
``assess`` (issue 35), and the chain assess -> site -> map -> report passing each output on.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import shlex
import subprocess
import sys
import zipfile
from contextlib import redirect_stderr
from pathlib import Path

import pandas as pd
import pytest
from qgis_helpers import SYSTEM_PYTHON, rerun_on_the_cli, run_in_qgis_python

from wetland_gis import cli
from wetland_gis.commands import CommandResult, Tally, _fields
from wetland_gis.errors import MissingCRSError
from wetland_gis.io.values import keyed
from wetland_gis.qgis_provider import command, events, runner
from wetland_gis.qgis_provider.describe import describe

ROOT = Path(__file__).resolve().parents[1]
PROVIDER = ROOT / "wetland_gis" / "qgis_provider"

sys.path.insert(0, str(ROOT / "tools"))
import qgis_plugin  # noqa: E402


@pytest.fixture(scope="module")
def described() -> dict:
    return describe()


# ----------------------------------------------------------------- the run events channel


def _guarded(monkeypatch, run, *, events_on: bool = True, strict: bool = False):
    if events_on:
        monkeypatch.setenv(events.EVENTS_ENV, "json")
    else:
        monkeypatch.delenv(events.EVENTS_ENV, raising=False)
    err = io.StringIO()
    with redirect_stderr(err):
        status = cli.run_guarded("assess", run, strict=strict)
    lines = err.getvalue().splitlines()
    return status, lines, [e for e in map(events.parse, lines) if e is not None]


def _result(tmp_path: Path, read: int = 3, not_assessed: int = 0) -> CommandResult:
    tally = Tally("assess", rows_read=read, assessed=read - not_assessed)
    if not_assessed:
        tally.not_assessed = {"wetland type": not_assessed}
    return CommandResult([tmp_path / "out.gpkg", tmp_path / "out_manifest.json"], tally)


def test_a_finished_run_ends_with_a_done_event_naming_its_files_and_tally(
    monkeypatch, tmp_path
) -> None:
    status, lines, said = _guarded(monkeypatch, lambda: _result(tmp_path))
    assert status == 0
    assert [e["event"] for e in said] == ["done"]
    done = said[0]
    assert done["status"] == 0 and done["message"] == ""
    assert done["written"] == [str(tmp_path / "out.gpkg"), str(tmp_path / "out_manifest.json")]
    assert done["tally"]["rows_read"] == 3 and done["tally"]["assessed"] == 3
    assert lines[-1] == events.PREFIX + json.dumps(done)  # last, after the tally lines


def test_strict_with_rows_not_assessed_says_exit_3_in_its_done_event(monkeypatch, tmp_path):
    status, lines, said = _guarded(monkeypatch, lambda: _result(tmp_path, 3, 1), strict=True)
    assert status == said[0]["status"] == cli.EXIT_CODES["not_assessed"]
    assert said[0]["message"] == "wetland-gis assess: --strict: 1 row(s) not assessed; exit 3"
    assert said[0]["message"] in lines  # the line people read, word for word


@pytest.mark.parametrize(
    ("raised", "status"),
    [
        (MissingCRSError("impacts.shp has no CRS; pass --assume-crs EPSG:26915"), 2),
        (KeyboardInterrupt(), 130),
        (FileNotFoundError(2, "No such file or directory", "x.gpkg"), 2),
    ],
    ids=["input-error", "interrupted", "os-error"],
)
def test_a_failed_run_gives_its_one_printed_line_as_the_error_event(
    monkeypatch, raised, status
) -> None:
    def run():
        raise raised

    got, lines, said = _guarded(monkeypatch, run)
    assert got == status
    assert [e["event"] for e in said] == ["error"]
    assert said[0]["status"] == status
    printed = [line for line in lines if events.parse(line) is None]
    assert printed == [said[0]["message"]]  # one line, and the event carries that line


def test_an_internal_error_event_names_the_saved_traceback(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv(cli.TRACEBACK_DIR_ENV, str(tmp_path))

    def run():
        raise ZeroDivisionError("boom")

    status, _, said = _guarded(monkeypatch, run)
    assert status == said[0]["status"] == 1
    assert "internal error (ZeroDivisionError: boom)" in said[0]["message"]
    assert str(tmp_path) in said[0]["message"]


def test_without_the_variable_the_output_has_no_event_line(monkeypatch, tmp_path) -> None:
    _, lines, said = _guarded(monkeypatch, lambda: _result(tmp_path), events_on=False)
    assert said == [] and not any(line.startswith(events.PREFIX) for line in lines)
    assert lines == [
        "wetland-gis assess: 3 row(s) read, 3 assessed, 0 not assessed",
        "wetland-gis assess: replacement required: 0.0000 ac",
    ]


def test_progress_messages_become_numbered_progress_events(monkeypatch) -> None:
    from wetland_gis import commands

    monkeypatch.setenv(events.EVENTS_ENV, "json")
    monkeypatch.setattr(events, "_steps", 0)
    err = io.StringIO()
    with redirect_stderr(err):
        commands._stderr("reading impacts")
        commands._stderr("loading context")
    said = [events.parse(line) for line in err.getvalue().splitlines()]
    assert said == [
        {"event": "progress", "step": 1, "message": "reading impacts"},
        {"event": "progress", "step": 2, "message": "loading context"},
    ]


@pytest.mark.parametrize(
    "line",
    [
        "wetland-gis assess: error: x",
        events.PREFIX + "not json",
        events.PREFIX + '["a list"]',
        events.PREFIX + '{"no": "event"}',
        "  " + events.PREFIX + '{"event": "done"}',
    ],
)
def test_a_line_that_is_not_an_event_is_not_read_as_one(line: str) -> None:
    assert events.parse(line) is None


# ------------------------------------------------- the command built from the parameters


#: A value of each kind, and what the command line's parser must read from it.
SAMPLE_VALUES = {
    "source": ("layer.gpkg", "layer.gpkg"),
    "file": ("in.gpkg", "in.gpkg"),
    "folder": ("ctx_folder", "ctx_folder"),
    "raster": ("dem.tif", "dem.tif"),
    "date": ("2024-05-01", "2024-05-01"),
    "bool": (True, True),
    "number": (12.5, 12.5),
    "text": ("some text", "some text"),
    "crs": ("EPSG:26915", "EPSG:26915"),
    "field": ("lat_eff", "lat_eff"),
    "out_vector": ("out.gpkg", "out.gpkg"),
    "out_file": ("out.html", "out.html"),
    "out_folder": ("out_dir", "out_dir"),
}


def _required(algorithm: command.Algorithm) -> dict:
    values: dict = {}
    for opt in algorithm.options:
        if not opt.optional:
            values[opt.name] = ["a.gpkg"] if opt.kind == "sources" else SAMPLE_VALUES[opt.kind][0]
    return values


def _cases(described_commands: dict | None = None):
    for name, algorithm in command.ALGORITHMS.items():
        for opt in algorithm.options:
            yield pytest.param(name, opt.name, id=f"{name}-{opt.name}")


@pytest.mark.parametrize(("name", "param"), list(_cases()))
def test_every_parameter_gives_the_argument_the_command_line_reads(
    described, name: str, param: str
) -> None:
    """The provider's argument for each parameter is parsed by wetland-gis as meant."""
    algorithm = command.ALGORITHMS[name]
    opt = algorithm.option(param)
    parser_options = described["commands"][name]
    values = _required(algorithm)
    if opt.kind in ("enum", "enums"):
        choices = parser_options[opt.flag]["choices"]
        assert choices, f"{opt.flag} has no choices in the parser"
        value, expected = (choices[-1], choices[-1])
        if opt.kind == "enums":
            value, expected = (choices[:2], choices[:2])
    elif opt.kind == "sources":
        value, expected = (["a.gpkg", "b.gpkg"], None)
    elif opt.kind == "texts":
        value, expected = (["first", "second"], ["first", "second"])
    else:
        value, expected = SAMPLE_VALUES[opt.kind]
    values[opt.name] = value
    argv = command.build_argv(name, values)
    args = cli.build_parser().parse_args(argv)
    assert args.command == name
    if opt.kind == "sources":
        assert getattr(args, parser_options["alternatives"]["dest"]) == value
        return
    if opt.name == "NO_BUILD":
        assert args.alternatives[-1] == command.NO_BUILD
        return
    dest = parser_options[opt.flag or opt.name.lower()]["dest"]
    got = getattr(args, dest)
    if opt.kind == "bool":
        assert got is True
    elif opt.kind == "number":
        assert float(got) == expected
    elif opt.name == "PDF":
        assert got == expected
    elif opt.flag == "--claim":  # a claim named alone is a yes (cli.parse_claim)
        assert got == [(claim, True) for claim in expected], (argv, dest)
    elif opt.flag and "=" in opt.flag:  # a key of --reading NAME=VALUE (issue 33)
        assert got == [(opt.flag.partition("=")[2], expected)], (argv, dest)
    else:
        assert got == expected, (argv, dest)


def test_the_layers_of_the_cut_are_named_by_input_layer() -> None:
    """Issue 35: the wetlands, existing ground and parcels inside one GeoPackage."""
    argv = command.build_argv(
        "impacts",
        {
            "FOOTPRINT": ("fp.gpkg", "construction_limits"),
            "WETLANDS": ("fp.gpkg", "delineation"),
            "EXISTING": ("fp.gpkg", "existing_road"),
            "OUTPUT": "o.gpkg",
        },
    )
    args = cli.build_parser().parse_args(argv)
    assert args.layer == "construction_limits"
    assert keyed(args.input_layer, "--input-layer") == {
        "wetlands": "delineation",
        "existing": "existing_road",
    }


def test_a_source_in_a_geopackage_names_its_layer() -> None:
    argv = command.build_argv(
        "water-use",
        {"POINTS": ("pts.gpkg", "wells"), "AQUIFER": ("aq.gpkg", "extent"), "OUTPUT": "o.gpkg"},
    )
    args = cli.build_parser().parse_args(argv)
    assert (args.points, args.layer) == ("pts.gpkg", "wells")
    assert (args.aquifer, args.aquifer_layer) == ("aq.gpkg", "extent")


def test_a_source_without_a_layer_option_refuses_a_layer_name() -> None:
    with pytest.raises(ValueError, match="SITES cannot name a layer"):
        command.build_argv(
            "site", {"ASSESSED": "a.gpkg", "SITES": ("s.gpkg", "sites"), "OUTPUT": "d"}
        )


def test_the_context_is_a_geopackage_or_a_folder_not_both() -> None:
    with pytest.raises(ValueError, match="not both"):
        command.build_argv(
            "assess",
            {"IMPACTS": "i.gpkg", "CONTEXT": "c.gpkg", "CONTEXT_FOLDER": "c", "OUTPUT": "o"},
        )


def test_an_unknown_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown parameter"):
        command.build_argv("map", {"ASSESSED": "a.gpkg", "OUTPUT": "m.html", "BASEMAPS": "x"})


def test_empty_values_give_no_argument() -> None:
    argv = command.build_argv(
        "assess",
        {
            "IMPACTS": "i.gpkg",
            "OUTPUT": "o.gpkg",
            "AS_OF": None,
            "CLAIM": [],
            "REGISTER": "",
            "STRICT": False,
            "LOCAL_LIMIT_SQFT": None,
        },
    )
    assert argv == ["assess", "i.gpkg", "--out", "o.gpkg"]


def test_the_alternatives_keep_their_order_and_no_build_comes_last() -> None:
    argv = command.build_argv(
        "compare",
        {
            "ALTERNATIVES": ["preferred.gpkg", "reduced.gpkg"],
            "NO_BUILD": True,
            "NAMES": ["preferred", "reduced", "none"],
            "OUTPUT": "cmp",
        },
    )
    args = cli.build_parser().parse_args(argv)
    assert args.alternatives == ["preferred.gpkg", "reduced.gpkg", "no-build"]
    assert args.names == ["preferred", "reduced", "none"]


def test_every_option_the_provider_names_is_an_option_of_the_command_line(described) -> None:
    for name, algorithm in command.ALGORITHMS.items():
        options = described["commands"][name]
        for opt in algorithm.options:
            if opt.flag:
                assert opt.flag in options, f"{name}: the command line has no {opt.flag}"
                assert opt.flag in opt.label, f"{name}: {opt.name} does not name {opt.flag}"
            if opt.layer_flag:
                assert opt.layer_flag in options, f"{name}: no {opt.layer_flag}"


def test_every_field_role_reads_back_as_that_role_through_the_command_line(described) -> None:
    """The column chosen for each role in QGIS is the column the command reads for it."""
    roles = described["roles"]
    fields = {r["role"]: f"COL_{i}" for i, r in enumerate(roles)}
    flags = {r["role"]: r["flag"] for r in roles if r["flag"]}
    argv = command.build_argv(
        "assess",
        {"IMPACTS": "i.gpkg", "OUTPUT": "o.gpkg"},
        fields=fields,
        role_flags=flags,
        field_flag=described["field_flag"],
    )
    assert dict(_fields(cli.build_parser().parse_args(argv))) == fields


def test_the_roles_are_the_packages_and_the_four_main_ones_come_first(described) -> None:
    from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
    from wetland_gis.io.fact_roles import FACT_FIELD_ROLES
    from wetland_gis.io.fields import DEFAULT_NAMES

    roles = described["roles"]
    names = [r["role"] for r in roles]
    assert names[:4] == ["impact_id", "wetland_type", "cowardin", "project"]
    assert set(names) == {*names[:4], *FACT_FIELD_ROLES, *EXEMPTION_FIELD_ROLES}
    by_role = {r["role"]: r for r in roles}
    assert by_role["impact_id"]["names"] == list(DEFAULT_NAMES["impact_id"])
    assert by_role["impact_id"]["flag"] is None  # --field, not the deprecated --id-field
    assert by_role["duck_blind"]["names"] == [EXEMPTION_FIELD_ROLES["duck_blind"]]
    # every role is reachable through the command line's one --field ROLE=COLUMN
    assert described["field_flag"] == "--field"


def test_every_role_of_the_cut_reads_back_as_that_role_through_the_command_line(described):
    """impacts (issue 35): the column chosen for each role is the one the command reads."""
    roles = described["footprint_roles"]
    fields = {r["role"]: f"COL_{i}" for i, r in enumerate(roles)}
    argv = command.build_argv(
        "impacts",
        {"FOOTPRINT": "f.gpkg", "WETLANDS": "w.gpkg", "OUTPUT": "o.gpkg"},
        fields=fields,
        field_flag=described["field_flag"],
    )
    assert dict(_fields(cli.build_parser().parse_args(argv))) == fields


def test_the_cut_lists_each_roles_columns_from_the_layer_that_holds_it(described) -> None:
    from wetland_gis.impacts import PART_ID_NAMES

    roles = {r["role"]: r for r in described["footprint_roles"]}
    assert set(roles) == {r["role"] for r in described["roles"]} - {"wetland_source"}
    assert roles["impact_id"]["names"] == list(PART_ID_NAMES)  # the part id
    assert roles["impact_id"]["label"] == "part id"
    inputs = {role: r["input"] for role, r in roles.items()}
    assert {inputs[k] for k in ("impact_id", "project", "duration", "road_authority")} == {
        "footprint"
    }
    assert {inputs[k] for k in ("wetland_id", "wetland_type", "cowardin", "isolated")} == {
        "wetlands"
    }
    assert inputs["owner"] == "parcels"
    main = [r["role"] for r in described["footprint_roles"] if r["group"] == "main"]
    assert main == ["impact_id", "project", "wetland_id", "wetland_type", "cowardin", "owner"]
    impacts = command.ALGORITHMS["impacts"]
    assert {impacts.field_parent(i) for i in inputs.values()} == {
        "FOOTPRINT",
        "WETLANDS",
        "PARCELS",
    }
    assert {impacts.option(p).kind for p in ("FOOTPRINT", "WETLANDS", "PARCELS")} == {"source"}


def test_a_field_parameter_and_only_one_names_its_parent_layer() -> None:
    with pytest.raises(ValueError, match="names its parent"):
        command.Option("COLUMN", "field", "Column (--x-field)", "--x-field")
    with pytest.raises(ValueError, match="names its parent"):
        command.Option("LAYER", "source", "Layer (--x)", "--x", parent="OTHER")


@pytest.mark.parametrize(
    ("fields", "flag", "expected"),
    [
        ({"impact_id": "PARCEL"}, None, ["--id-field", "PARCEL"]),
        ({"impact_id": "PARCEL"}, "--field", ["--field", "impact_id=PARCEL"]),
        ({"impact_id": ""}, None, []),
    ],
    ids=["own-option", "field-option", "empty-is-accepted-names"],
)
def test_field_args_is_the_one_place_of_the_field_option_form(fields, flag, expected) -> None:
    assert command.field_args(fields, {"impact_id": "--id-field"}, flag) == expected


def test_a_field_map_file_goes_first_through_the_command_lines_own_option() -> None:
    got = command.field_args({"impact_id": "ID"}, {}, "--field", "map.csv", "--field-map")
    assert got == ["--field-map", "map.csv", "--field", "impact_id=ID"]
    with pytest.raises(ValueError, match="reads no field-map file"):
        command.field_args({}, {}, None, "map.csv", None)


def test_a_role_without_an_option_is_refused() -> None:
    with pytest.raises(ValueError, match="no option for the field role 'nope'"):
        command.field_args({"nope": "X"}, {})


def test_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown kind 'layer'"):
        command.Option("X", "layer", "X")


# ----------------------------------------------------- the interpreter and its environment


def test_the_interpreter_is_the_setting_then_the_environment_then_install_json(
    monkeypatch, tmp_path
) -> None:
    first, second, third = (tmp_path / n for n in ("a", "b", "c"))
    for p in (first, second, third):
        p.write_text("")
    (tmp_path / runner.INSTALL_FILE).write_text(json.dumps({"python": str(third)}))
    monkeypatch.setenv(runner.PYTHON_ENV, str(second))
    assert runner.find_python(str(first), tmp_path)[0] == str(first)
    assert runner.find_python(None, tmp_path)[0] == str(second)
    monkeypatch.delenv(runner.PYTHON_ENV)
    assert runner.find_python("", tmp_path) == (str(third), "the plugin's install.json")


def test_an_interpreter_that_is_not_there_is_named_with_the_fix(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv(runner.PYTHON_ENV, raising=False)
    with pytest.raises(runner.CommandFailed, match="does not exist; give the python of the venv"):
        runner.find_python(str(tmp_path / "gone" / "python"), tmp_path)
    with pytest.raises(runner.CommandFailed, match="no Python with wetland_gis is known"):
        runner.find_python(None, tmp_path)


def test_qgis_python_and_gdal_settings_do_not_reach_the_package(monkeypatch) -> None:
    base = {
        "PATH": "/usr/bin",
        "PYTHONPATH": "/usr/share/qgis/python",
        "PYTHONHOME": "C:/OSGeo4W/apps/Python39",
        "GDAL_DATA": "C:/OSGeo4W/share/gdal",
        "PROJ_LIB": "C:/OSGeo4W/share/proj",
        "HOME": "/home/me",
    }
    env = runner.child_env(base)
    assert env == {
        "PATH": "/usr/bin",
        "HOME": "/home/me",
        events.EVENTS_ENV: "json",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONUNBUFFERED": "1",
    }


def test_describe_runs_in_the_packages_interpreter() -> None:
    data = runner.describe(sys.executable)
    assert data["provider_dir"] == str(PROVIDER)
    assert set(command.ALGORITHMS) <= set(data["commands"])


# --------------------------------------------------------------------- the plugin zip


def test_the_plugin_zip_records_the_venv_and_vendors_nothing(tmp_path) -> None:
    from wetland_gis import __version__

    out = qgis_plugin.build(tmp_path / "plugin.zip", "/some/venv/bin/python")
    with zipfile.ZipFile(out) as zf:
        names = sorted(zf.namelist())
        metadata = zf.read("wetland_gis_qgis/metadata.txt").decode()
        record = json.loads(zf.read("wetland_gis_qgis/install.json"))
        init = zf.read("wetland_gis_qgis/__init__.py").decode()
    assert names == [
        f"wetland_gis_qgis/{n}" for n in ("LICENSE", "__init__.py", "install.json", "metadata.txt")
    ]
    meta = dict(line.split("=", 1) for line in metadata.splitlines()[1:] if "=" in line)
    assert meta["qgisMinimumVersion"] == "3.22"
    assert meta["hasProcessingProvider"] == "yes"
    assert meta["version"] == __version__
    assert record == {"python": "/some/venv/bin/python", "provider_dir": str(PROVIDER)}
    assert init == (PROVIDER / "plugin.py").read_text("utf-8")
    assert "def classFactory(" in init


#: The modules QGIS's Python loads: the standard library, QGIS, and one another only.
QGIS_SIDE = ("__init__.py", "events.py", "command.py", "runner.py", "provider.py", "plugin.py")


@pytest.mark.parametrize("module", QGIS_SIDE)
def test_the_modules_qgis_loads_import_only_the_standard_library_and_qgis(module: str) -> None:
    tree = ast.parse((PROVIDER / module).read_text("utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: this sub-package
                continue
            tops = [str(node.module).split(".")[0]]
        else:
            continue
        for top in tops:
            assert top in sys.stdlib_module_names or top in ("qgis", "processing"), (
                f"{module} imports {top}: QGIS's Python does not have it"
            )


# ----------------------------------------------- the command run by the runner (end to end)


class _Feedback:
    def __init__(self, cancel_at_step: int | None = None) -> None:
        self.progress: list[float] = []
        self.info: list[str] = []
        self.cancel_at_step = cancel_at_step

    def isCanceled(self) -> bool:  # noqa: N802
        return self.cancel_at_step is not None and len(self.progress) >= self.cancel_at_step

    def setProgress(self, value: float) -> None:  # noqa: N802
        self.progress.append(value)

    def pushInfo(self, text: str) -> None:  # noqa: N802
        self.info.append(text)


@pytest.mark.slow
def test_the_runner_reports_progress_and_the_files_written(sample_data, tmp_path) -> None:
    out = tmp_path / "a.gpkg"
    impacts = sample_data.path("projects/crow_wing/impacts.gpkg")
    feedback = _Feedback()
    argv = ["assess", str(impacts), "--context", str(sample_data.context), "--out", str(out)]
    steps = command.ALGORITHMS["assess"].steps
    result = runner.run_command(
        sys.executable, [*argv, "--as-of", "2024-05-01"], feedback, steps=steps
    )
    assert result.status == 0 and result.written[0] == str(out)
    assert result.file("_manifest.json") == str(tmp_path / "a_manifest.json")
    assert result.tally["rows_read"] == 2
    assert feedback.progress == sorted(feedback.progress) and feedback.progress[-1] == 100.0
    # every stage assess announces (reading, context, classifying, rules, the tally line,
    # writing) moves the bar once, and the bar never has to stop short: the algorithm's
    # ``steps`` is the count the command gives, then done
    assert len(feedback.progress) == steps + 1 == 7
    assert "loading context" in feedback.info


@pytest.mark.slow
def test_the_runner_raises_the_commands_one_line_message(sample_data, tmp_path) -> None:
    impacts = sample_data.path("projects/crow_wing/impacts.gpkg")
    argv = ["assess", str(impacts), "--out", str(tmp_path / "a.gpkg"), "--as-of", "2024-13-01"]
    err = io.StringIO()
    with redirect_stderr(err):
        status = cli.main(argv)
    printed = err.getvalue().strip().splitlines()[-1]
    with pytest.raises(runner.CommandFailed) as caught:
        runner.run_command(sys.executable, argv, _Feedback())
    assert caught.value.status == status == 2
    assert str(caught.value) == printed
    assert printed.startswith("wetland-gis assess: error: ") and "2024-13-01" in printed


@pytest.mark.slow
def test_a_cancel_interrupts_the_command_and_changes_no_output(sample_data, tmp_path) -> None:
    impacts = sample_data.path("projects/crow_wing/impacts.gpkg")
    out = tmp_path / "a.gpkg"
    argv = ["assess", str(impacts), "--context", str(sample_data.context), "--out", str(out)]
    runner.run_command(sys.executable, argv, _Feedback())
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir()}
    with pytest.raises(runner.CommandFailed) as caught:
        runner.run_command(sys.executable, [*argv, "--overwrite"], _Feedback(cancel_at_step=1))
    assert caught.value.status == cli.EXIT_CODES["interrupted"]
    assert str(caught.value) == "wetland-gis assess: interrupted; no output was changed"
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir()}
    assert after == before  # every output as it was, and no staging folder left


# ------------------------------------------------------------------------- in real QGIS


def _require_qgis() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    ok = SYSTEM_PYTHON.exists() and (
        subprocess.run(
            [str(SYSTEM_PYTHON), "-c", "import qgis.core, processing"],
            capture_output=True,
            env={**env, "QT_QPA_PLATFORM": "offscreen"},
            cwd="/usr/share/qgis/python/plugins",
        ).returncode
        == 0
    )
    if not ok:
        pytest.skip("the QGIS tests need Debian's python3-qgis (apt-get install python3-qgis)")


@pytest.fixture(scope="module")
def in_qgis(tmp_path_factory) -> dict:
    """Run the driver once: every scenario in one QGIS session."""
    _require_qgis()
    folder = tmp_path_factory.mktemp("qgis_provider")
    plugins, work = folder / "plugins", folder / "work"
    work.mkdir()
    zipped = qgis_plugin.build(folder / "wetland_gis_qgis.zip", sys.executable)
    with zipfile.ZipFile(zipped) as zf:
        zf.extractall(plugins)
    spec = {
        "plugins": str(plugins),
        "sample": str(ROOT / "sample_data"),
        "work": str(work),
        **_inputs(folder / "inputs"),
    }
    result = run_in_qgis_python(
        [str(ROOT / "tests" / "qgis_provider_driver.py"), json.dumps(spec)],
        timeout=900,
        drop=(runner.PYTHON_ENV,),  # the interpreter comes from the zip's install.json
        tail=3000,
    )
    return {**result, "work": work}


#: The county road sample's construction limits, existing road, delineation and parcels.
FOOTPRINT = ROOT / "sample_data" / "projects" / "county_road" / "footprint.gpkg"


def _inputs(folder: Path) -> dict[str, str]:
    """Write the inputs the QGIS scenarios need beside the sample's; return them by name.

    ``overlapping``: the county road's delineation with a second wetland, W-Z, drawn 3 m
    east of W-A (they overlap). ``several_layers``: ``construction_limits.gpkg`` holding the
    county road's construction limits as its layer ``construction_limits`` (named like the
    file) and its reduced limits as the layer ``reduced_limits``.
    """
    import geopandas as gpd
    import pyogrio

    folder.mkdir()
    wetlands = gpd.read_file(FOOTPRINT, layer="delineation")
    twin = wetlands[wetlands["wetland_id"] == "W-A"].copy()
    twin["wetland_id"] = "W-Z"
    twin["geometry"] = twin.geometry.translate(3.0, 0.0)
    overlapping = folder / "overlapping.gpkg"
    pd.concat([wetlands, twin], ignore_index=True).to_file(overlapping, layer="delineation")
    several = folder / "construction_limits.gpkg"
    for layer in ("construction_limits", "reduced_limits"):
        pyogrio.write_dataframe(
            pyogrio.read_dataframe(FOOTPRINT, layer=layer), several, layer=layer
        )
    return {"overlapping": str(overlapping), "several_layers": str(several)}


def _frames(path: str | Path) -> dict[str, pd.DataFrame]:
    import pyogrio

    return {
        name: pyogrio.read_dataframe(path, layer=name)
        for name, _ in pyogrio.list_layers(path)
        if name != "layer_styles"
    }


def _completed(run: dict) -> dict:
    """Return ``run`` (one recorded in QGIS), failing with its exception when it raised one."""
    assert "exception" not in run, run.get("exception")
    return run


def _same_as_the_cli(run: dict, tmp_path: Path) -> None:
    """Run the command QGIS ran through the command line, to another file; compare."""

    argv = shlex.split(run["command"])[1:]
    ours = tmp_path / "cli.gpkg"
    argv[argv.index("--out") + 1] = str(ours)
    assert cli.main(argv) == 0
    theirs = _frames(run["outputs"]["OUTPUT"])
    mine = _frames(ours)
    assert set(theirs) == set(mine)
    for name in mine:
        pd.testing.assert_frame_equal(theirs[name], mine[name], check_like=False, obj=name)


@pytest.mark.qgis
def test_qgis_lists_one_algorithm_per_command(in_qgis) -> None:
    assert in_qgis["provider_error"] is None
    assert in_qgis["algorithms"] == sorted(f"wetland_gis:{c}" for c in command.ALGORITHMS)
    params = {
        name: (kind, optional, advanced)
        for name, kind, optional, advanced, _ in in_qgis["assess_parameters"]
    }
    assert params["IMPACTS"] == ("source", False, False)
    assert params["OUTPUT"] == ("vectorDestination", False, False)
    assert params["AS_OF"][0] == "datetime"
    assert params["FIELD_IMPACT_ID"] == ("field", True, False)  # a main role: in view
    assert params["FIELD_DUCK_BLIND"] == ("field", True, True)  # the others: advanced
    assert params["CLAIM"][0] == "enum"
    # the cut (issue 35): each role's column is chosen from the layer that holds it
    cut = {
        name: (kind, advanced, parent)
        for name, kind, _, advanced, parent in in_qgis["impacts_parameters"]
    }
    assert cut["FOOTPRINT"] == cut["WETLANDS"] == ("source", False, None)
    assert cut["FIELD_IMPACT_ID"] == ("field", False, "FOOTPRINT")  # the part id
    assert cut["FIELD_WETLAND_ID"] == ("field", False, "WETLANDS")
    assert cut["FIELD_OWNER"] == ("field", False, "PARCELS")
    assert cut["FIELD_DURATION"] == ("field", True, "FOOTPRINT")
    assert cut["LATERAL_EFFECT_FT_FIELD"] == ("field", True, "DRAINAGE")
    assert "FIELD_WETLAND_SOURCE" not in cut  # written by the cut, never read
    names = [name for name, *_ in in_qgis["impacts_parameters"]]
    assert names.index("PARCELS") < names.index("FIELD_IMPACT_ID")  # after their layers


@pytest.mark.slow
@pytest.mark.qgis
def test_assess_on_the_sample_loads_the_layers_styled_and_equals_the_cli(in_qgis, tmp_path) -> None:
    run = _completed(in_qgis["sample"])
    outputs = run["outputs"]
    assert outputs["OUTPUT"] == outputs["ASSESSED"] == str(in_qgis["work"] / "sample.gpkg")
    manifest = json.loads(Path(outputs["MANIFEST"]).read_text("utf-8"))
    assert manifest["command"] == "assess" and manifest["as_of"] == "2024-05-01"
    assert manifest["inputs"][0]["path"].endswith("wright_metro/impacts.gpkg")  # the file, as is
    tally = json.loads(outputs["TALLY"])
    assert tally["rows_read"] == tally["assessed"] == 7
    assert tally["outcomes"] == {"replacement_required": 6, "prohibited": 1}
    layers = {layer["name"].rsplit(" ", 1)[-1]: layer for layer in run["layers"]}
    assert set(layers) == {"impacts", "shoreland_zones"}
    impacts = layers["impacts"]
    assert impacts["count"] == 7 and impacts["crs"] == "EPSG:26915"
    assert impacts["renderer"] == "categorizedSymbol" and impacts["attr"] == "outcome"
    assert impacts["labels"] is True
    assert {"impact_id", "outcome", "replace_acres", "status"} <= set(impacts["fields"])
    assert layers["shoreland_zones"]["attr"] == "zone"
    assert run["progress"][-1] == 100.0 and len(run["progress"]) >= 5
    assert any(kind == "info" and text == "loading context" for kind, text in run["log"])
    _same_as_the_cli(run, tmp_path)


@pytest.mark.slow
@pytest.mark.qgis
def test_assess_on_a_shapefile_qgis_wrote_reads_its_cut_names(in_qgis, tmp_path) -> None:
    run = _completed(in_qgis["shapefile"])
    # QGIS's writer cut the names to 10 characters
    assert {"owns_whole", "runoff_ret", "prior_sqft"} <= set(run["shapefile_fields"])
    assert run["command"].split()[2] == run["shapefile"]  # the file given as it is
    impacts = _frames(run["outputs"]["OUTPUT"])["impacts"]
    assert len(impacts) == 7
    manifest = json.loads(Path(run["outputs"]["MANIFEST"]).read_text("utf-8"))
    fields = manifest["settings"]["fields"]  # each role found under its cut name
    assert fields["owns_whole_wetland"] == "owns_whole"
    assert fields["runoff_retention"] == "runoff_ret"
    assert fields["prior_sqft_since_1992"] == "prior_sqft"
    _same_as_the_cli(run, tmp_path)


@pytest.mark.slow
@pytest.mark.qgis
def test_assess_on_a_selection_exports_only_the_selected_features(in_qgis) -> None:
    run = _completed(in_qgis["selection"])
    assert json.loads(run["outputs"]["TALLY"])["rows_read"] == 2
    assert len(_frames(run["outputs"]["OUTPUT"])["impacts"]) == 2
    exported = shlex.split(run["command"])[2]
    assert exported.endswith(".gpkg") and "wright_metro" not in exported  # QGIS wrote it
    said = [text for kind, text in run["log"] if "written by QGIS" in text]
    assert said == [
        f"Impact polygons: the layer 'wright impacts' (its selected features) written by "
        f"QGIS to {exported}"
    ]
    manifest = json.loads(Path(run["outputs"]["MANIFEST"]).read_text("utf-8"))
    assert manifest["inputs"][0]["path"] == exported


@pytest.mark.slow
@pytest.mark.qgis
def test_a_bad_input_shows_the_clis_one_line_message_and_no_traceback(in_qgis) -> None:
    run = in_qgis["bad"]
    status, printed = rerun_on_the_cli(run["command"])
    assert status == 2 and "--assume-crs" in printed and run["shapefile"] in printed
    assert run["exception"] == printed
    assert ["error", printed] in run["log"]
    assert run["exception_has_traceback"] is False
    assert not any("Traceback" in text for _, text in run["log"])
    assert not (in_qgis["work"] / "bad.gpkg").exists()


@pytest.mark.slow
@pytest.mark.qgis
def test_cancel_stops_the_run_and_leaves_the_previous_output_whole(in_qgis) -> None:
    run = in_qgis["cancel"]
    assert run["first"] is not None
    assert run["exception"] == "wetland-gis assess: interrupted; no output was changed"
    assert run["unchanged"] is True
    assert not [name for name in run["left"] if name.startswith(".wetland-gis-tmp-")]


@pytest.mark.slow
@pytest.mark.qgis
@pytest.mark.parametrize(
    ("name", "loaded", "written"),
    [
        ("assess", {"impacts": "outcome"}, "a.gpkg"),
        ("site", {"sites": "best_tier", "banks": "best_tier"}, "siting/siting.gpkg"),
        ("map", {}, "map.html"),
        ("report", {}, "report.html"),
        ("compare", {}, "compare/comparison.csv"),
        ("water-use", {"appropriations": "outcome"}, "water.gpkg"),
    ],
)
def test_every_algorithm_runs_the_sample_project_from_the_toolbox(
    in_qgis, name: str, loaded: dict, written: str
) -> None:
    run = _completed(in_qgis["chain"][name])
    assert (in_qgis["work"] / "chain" / written).is_file()
    manifest = json.loads(Path(run["outputs"]["MANIFEST"]).read_text("utf-8"))
    assert manifest["command"] == name
    layers = {layer["name"].rsplit(" ", 1)[-1]: layer for layer in run["layers"]}
    assert {k: layers[k]["attr"] for k in loaded if k in layers} == loaded
    assert all(layers[k]["renderer"] == "categorizedSymbol" for k in loaded)
    if name == "compare":  # the county road's construction limits, cut by its delineation
        table = pd.read_csv(in_qgis["work"] / "chain" / "compare" / "comparison.csv")
        assert list(table["alternative"]) == ["preferred", "reduced", "no build"]
        assert list(table["impacts"]) == [3, 2, 0]
        assert list(table["source"].str.split().str[0]) == ["footprint", "footprint", "no-build"]
    if name in ("site", "map", "report"):  # each given the output of the run before it
        argv = shlex.split(run["command"])
        assert argv[2] == in_qgis["chain"]["assess"]["outputs"]["ASSESSED"]
        if name != "site":
            siting = in_qgis["chain"]["site"]["outputs"]["OUTPUT"]
            assert argv[argv.index("--siting") + 1] == siting


@pytest.mark.slow
@pytest.mark.qgis
def test_a_geopackage_layer_named_like_its_file_beside_others_is_compared(in_qgis) -> None:
    """The layer construction_limits of construction_limits.gpkg (of two) reaches compare alone."""
    run = _completed(in_qgis["chain"]["compare"])
    said = [text for _, text in run["log"] if "written by QGIS" in text]
    assert len(said) == 2  # both layers: each in a GeoPackage of its own
    assert "the layer 'construction_limits' of " in said[0] and "several layers" in said[0]
    exported = shlex.split(run["command"])[2:4]
    manifest = json.loads(Path(run["outputs"]["MANIFEST"]).read_text("utf-8"))
    assert [Path(p).name for p in exported] == ["alternative_1.gpkg", "alternative_2.gpkg"]
    assert manifest["command"] == "compare"


# ------------------------------------------------ from the construction limits (issue 35)


def _cut_argv(out: Path, *, assess: bool = False) -> list[str]:
    """Return the command line of the county road sample's cut (``assess --footprint``)."""
    if assess:
        argv = ["assess", "--footprint", str(FOOTPRINT), "--input-layer"]
        argv += ["footprint=construction_limits"]
    else:
        argv = ["impacts", str(FOOTPRINT), "--layer", "construction_limits"]
    return [
        *argv,
        *("--wetlands", str(FOOTPRINT), "--input-layer", "wetlands=delineation"),
        *("--existing", str(FOOTPRINT), "--input-layer", "existing=existing_road"),
        *("--parcels", str(FOOTPRINT), "--input-layer", "parcels=parcels"),
        *("--out", str(out)),
    ]


@pytest.mark.slow
@pytest.mark.qgis
def test_impacts_cuts_the_county_road_footprint_as_the_cli_does(in_qgis, tmp_path) -> None:
    run = _completed(in_qgis["impacts"])
    assert shlex.split(run["command"])[1:-2] == _cut_argv(tmp_path)[:-2]  # each layer by name
    tally = json.loads(run["outputs"]["TALLY"])
    assert tally["rows_read"] == 5 and tally["outcomes"]["impacts"] == 3
    manifest = json.loads(Path(run["outputs"]["MANIFEST"]).read_text("utf-8"))
    assert manifest["command"] == "impacts"
    layers = {layer["name"].rsplit(" ", 1)[-1]: layer for layer in run["layers"]}
    assert set(layers) == {"impacts", "footprint"}  # the cut, and each part with its status
    assert layers["impacts"]["count"] == 3 and layers["footprint"]["count"] == 5
    assert layers["impacts"]["crs"] == "EPSG:26915"
    assert {"impact_id", "wetland_id", "circ39", "owner", "owns_whole"} <= set(
        layers["impacts"]["fields"]
    )
    assert {"part_id", "status"} <= set(layers["footprint"]["fields"])
    assert run["progress"][-1] == 100.0
    _same_as_the_cli(run, tmp_path)


@pytest.mark.slow
@pytest.mark.qgis
def test_the_cut_chained_into_assess_equals_assess_with_footprint(in_qgis, tmp_path) -> None:
    """A model impacts -> assess (the graphical modeler's) gives ``assess --footprint``'s layers."""
    run = _completed(in_qgis["impacts_assess"])
    results = run["outputs"]["CHILD_RESULTS"]
    commands = [shlex.split(text) for kind, text in run["log"] if kind == "command"]
    assert [argv[1] for argv in commands] == ["impacts", "assess"]
    assert commands[1][2] == results["cut"]["OUTPUT"]  # the cut's output, as the model links it
    ours = tmp_path / "footprint.gpkg"
    argv = [
        *_cut_argv(ours, assess=True),
        "--context",
        str(ROOT / "sample_data" / "synthetic_context.gpkg"),
    ]
    assert cli.main([*argv, "--as-of", "2024-05-01"]) == 0
    theirs, mine = _frames(results["assess"]["ASSESSED"]), _frames(ours)
    assert set(theirs) == set(mine) >= {"impacts", "footprint", "delineation", "parcels"}
    for name in mine:
        pd.testing.assert_frame_equal(theirs[name], mine[name], obj=name)


@pytest.mark.slow
@pytest.mark.qgis
def test_impacts_on_overlapping_wetlands_shows_the_clis_one_line_message(in_qgis) -> None:
    run = in_qgis["impacts_bad"]
    status, printed = rerun_on_the_cli(run["command"])
    assert status == 2 and "W-A" in printed and "W-Z" in printed and "overlap" in printed
    assert run["exception"] == printed
    assert ["error", printed] in run["log"]
    assert run["exception_has_traceback"] is False
    assert not (in_qgis["work"] / "overlap.gpkg").exists()
