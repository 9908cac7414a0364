"""Time ``assess._apply_engine`` alone on one captured input, with step timers.

The decision stage (facts from the classified layer, the engine, the trace table, the
per-impact text columns, the project rows) is timed on the same input for two checkouts::

    python benchmarks/world.py --n 200000 --out outputs/bench_world
    # once, with the baseline checkout on PYTHONPATH: classify and capture the stage's input
    python benchmarks/engine_stage.py capture outputs/bench_world/impacts_200000.parquet \\
        outputs/bench_world/context outputs/engine_in.pkl
    # then with each checkout: time it (and optionally save its outputs to compare)
    python benchmarks/engine_stage.py time outputs/engine_in.pkl [outputs/engine_out.pkl]

Each line gives wall and CPU seconds of ``_apply_engine`` and of its steps
``decide_projects``, ``_trace_table`` and ``_render_by_impact``.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import time
import warnings
from typing import Any

A = importlib.import_module("wetland_gis.assess")


def _timed(name: str, store: dict[str, tuple[float, float]]) -> None:
    orig = getattr(A, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t, c = time.perf_counter(), time.process_time()
        try:
            return orig(*args, **kwargs)
        finally:
            w0, c0 = store.get(name, (0.0, 0.0))
            store[name] = (
                round(w0 + time.perf_counter() - t, 2),
                round(c0 + time.process_time() - c, 2),
            )

    setattr(A, name, wrapper)


def _install(store: dict[str, tuple[float, float]]) -> None:
    for name in ("_trace_table", "_render_by_impact", "decide_projects"):
        if hasattr(A, name):
            _timed(name, store)


def capture(impacts: str, context: str, out: str) -> None:
    """Run ``assess`` on the world and pickle the input of its decision stage."""
    import geopandas as gpd

    import wetland_gis as wg

    orig = A._apply_engine

    def cap(*args: Any, **kwargs: Any) -> Any:
        gdf, field_map, _params, day, _options, _manifest, fens, extra = args
        with open(out, "wb") as fh:
            pickle.dump((gdf, field_map, day, fens, extra), fh, protocol=5)
        return orig(*args, **kwargs)

    A._apply_engine = cap
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wg.assess(gpd.read_parquet(impacts), wg.load_context(context), as_of="2024-05-01")


def run(path: str, out: str | None = None) -> None:
    """Time the decision stage on the captured input; optionally pickle its outputs."""
    from wetland_gis.manifest import Manifest
    from wetland_gis.parameters import default_parameters

    with open(path, "rb") as fh:
        gdf, field_map, day, fens, extra = pickle.load(fh)
    manifest = Manifest(command="assess", as_of=str(day))
    args = (gdf, field_map, default_parameters(), day, A.AssessOptions(), manifest, fens, extra)
    store: dict[str, tuple[float, float]] = {}
    _install(store)
    t, c = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = A._apply_engine(*args)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    print(f"_apply_engine: {wall:.2f} s wall, {cpu:.2f} s CPU; steps (wall, CPU): {store}")
    if out:
        with open(out, "wb") as fh:
            pickle.dump((result[0].drop(columns="geometry"), result[1], result[3]), fh)


if __name__ == "__main__":
    if sys.argv[1] == "capture":
        capture(*sys.argv[2:5])
    else:
        run(*sys.argv[2:4])
