# The README's two commands. Both set up .venv on a fresh machine first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test check lint typecheck bench bench-scale fuzz clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,pdf,scale]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m wetland_gis.demo --out outputs

lint: $(STAMP) typecheck
	$(BIN)/ruff check wetland_gis tests benchmarks sample_data tools
	$(BIN)/ruff format --check wetland_gis tests benchmarks sample_data tools

# mypy over wetland_gis/ (the configuration is [tool.mypy] in pyproject.toml)
typecheck: $(STAMP)
	$(BIN)/mypy

# The fast loop while working: lint, types, the unit tests and doctests, without the
# browser, QGIS, PDF and end-to-end tests and without the notebooks (README: how long it takes).
CHECK_MARKERS := not browser and not qgis and not pdf and not slow and not postgis
# pytest-xdist: one worker per core (2 on the reference machine); the tests that share an
# expensive fixture (the demo run, the dask cluster, PostgreSQL, a module's fixture) run on
# one worker (--dist loadgroup; tests/conftest.py, CONTRIBUTING.md "Rules for tests").
# WORKERS=0 runs in this process (a debugger, print); WORKERS=4 on a bigger machine.
WORKERS ?= auto
XDIST := -n $(WORKERS) --dist loadgroup
check: $(STAMP) lint
	$(BIN)/python -m pytest tests wetland_gis --doctest-modules -q -p no:cacheprovider -m "$(CHECK_MARKERS)" $(XDIST)

# The full run: every marker, then the notebooks. --durations=25 prints the 25 slowest tests
# (where the loop's time goes, issue 33). COVERAGE=1 (what .ci/run does) measures coverage as
# well and fails under [tool.coverage.report] fail_under; it adds about a third to the time
# (README, "How long the loop takes").
COVERAGE ?=
COV_ARGS := $(if $(COVERAGE),--cov --cov-report=term,)
test: $(STAMP) lint
	$(BIN)/python -m pytest tests wetland_gis --doctest-modules $(XDIST) $(COV_ARGS) --durations=25
	$(BIN)/python -m pytest --nbmake notebooks -p no:cacheprovider -o testpaths=notebooks -n $(WORKERS)

# The fuzz suite with many more examples (profile wetland-fuzz; not part of `make test`).
# Random and with the example database (.hypothesis/), unlike check and CI, which are
# derandomized (tests/conftest.py). FUZZ_EXAMPLES=2000 make fuzz for a longer run;
# FUZZ_TESTS=tests/test_shoreland.py make fuzz searches other properties the same way.
FUZZ_EXAMPLES ?= 400
FUZZ_TESTS ?= tests/test_fuzz_*.py
fuzz: $(STAMP)
	WETLAND_GIS_FUZZ=long WETLAND_GIS_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest $(FUZZ_TESTS) -p no:cacheprovider --hypothesis-show-statistics

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks -o testpaths=benchmarks -o python_files="bench_*.py" -p no:cacheprovider --benchmark-only --benchmark-columns=min,mean,max

# issues 14 and 23: the statewide benchmark with the dask and chunks engines (about 8 min; writes the world to outputs/bench_world)
bench-scale: $(STAMP)
	$(BIN)/python benchmarks/scale.py --n 20000 200000 --engines --world outputs/bench_world

clean:
	rm -rf $(VENV) outputs .pytest_cache .mypy_cache

# issue 31: the QGIS plugin zip (Plugins > Manage and Install Plugins > Install from ZIP);
# it records this venv's python, which runs the commands (docs/qgis.md)
.PHONY: qgis-plugin
qgis-plugin: $(STAMP)
	$(BIN)/python tools/qgis_plugin.py --out dist/wetland_gis_qgis.zip
