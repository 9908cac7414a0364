"""Drive the wetland_gis Processing provider in headless QGIS (run by /usr/bin/python3).

Not a test module: ``tests/test_qgis_provider.py`` runs it once in Debian's QGIS Python
with ``QT_QPA_PLATFORM=offscreen`` and reads the one ``RESULT{json}`` line it prints.

    /usr/bin/python3 tests/qgis_provider_driver.py '{"plugins": ..., "sample": ..., "work": ...}'

It installs nothing: the plugin folder is the unzipped ``make qgis-plugin`` zip, loaded as
QGIS loads a plugin (``classFactory``, ``initProcessing``). Each scenario runs
``processing.run`` (or ``runAndLoadResults``) and records what QGIS saw: outputs, the
layers loaded and their styles, the log lines, the error message of a failed run.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from qgis.core import (
    QgsApplication,
    QgsCoordinateReferenceSystem,
    QgsFeature,
    QgsField,
    QgsProcessingException,
    QgsProcessingFeatureSourceDefinition,
    QgsProcessingFeedback,
    QgsProject,
    QgsVectorFileWriter,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QVariant

#: Columns with names longer than a shapefile's 10 characters (the writer cuts them).
LONG_COLUMNS = {
    "owns_whole_wetland": ("yes", QVariant.String),
    "runoff_retention": ("no", QVariant.String),
    "prior_sqft_since_1992": (0.0, QVariant.Double),
}


class Log(QgsProcessingFeedback):
    """A feedback that keeps every line the algorithm gave it."""

    def __init__(self, cancel_at: float | None = None) -> None:
        super().__init__()
        self.lines: list[list[str]] = []
        self.progress: list[float] = []
        self.cancel_at = cancel_at
        self.progressChanged.connect(self._progress)

    def _progress(self, value: float) -> None:
        self.progress.append(value)
        if self.cancel_at is not None and value >= self.cancel_at:
            self.cancel()

    def pushInfo(self, info: str) -> None:  # noqa: N802
        self.lines.append(["info", info])
        super().pushInfo(info)

    def pushWarning(self, warning: str) -> None:  # noqa: N802
        self.lines.append(["warning", warning])
        super().pushWarning(warning)

    def pushCommandInfo(self, info: str) -> None:  # noqa: N802
        self.lines.append(["command", info])
        super().pushCommandInfo(info)

    def reportError(self, error: str, fatalError: bool = False) -> None:  # noqa: N802, N803
        self.lines.append(["error", error])
        super().reportError(error, fatalError)


def _run(alg: Any, params: dict[str, Any], *, load: bool = False, cancel_at: float | None = None):
    import processing

    log = Log(cancel_at)
    out: dict[str, Any] = {"params": {k: str(v) for k, v in params.items()}}
    try:
        run = processing.runAndLoadResults if load else processing.run
        out["outputs"] = run(alg, params, feedback=log)
    except QgsProcessingException as err:
        out["exception"] = str(err)
        out["exception_has_traceback"] = "Traceback" in str(err)
    out["log"] = log.lines
    out["progress"] = log.progress
    out["command"] = next((t for kind, t in log.lines if kind == "command"), None)
    return out


def _layers() -> list[dict[str, Any]]:
    out = []
    for layer in QgsProject.instance().mapLayers().values():
        r = layer.renderer()
        out.append(
            {
                "name": layer.name(),
                "source": layer.source(),
                "count": layer.featureCount(),
                "crs": layer.crs().authid(),
                "renderer": r.type() if r else None,
                "attr": r.classAttribute()
                if r is not None and hasattr(r, "classAttribute")
                else None,
                "categories": len(r.categories())
                if r is not None and hasattr(r, "categories")
                else 0,
                "labels": layer.labelsEnabled(),
                "fields": [f.name() for f in layer.fields()],
            }
        )
    return out


def _cut_then_assess(layers: dict[str, str], base: dict[str, str]) -> Any:
    """Return a model as the graphical modeler saves it: impacts, then assess on its output."""
    from qgis.core import (
        QgsProcessingModelAlgorithm,
        QgsProcessingModelChildAlgorithm,
        QgsProcessingModelChildParameterSource as Source,
        QgsProcessingModelOutput,
    )

    model = QgsProcessingModelAlgorithm("cut then assess", "wetland_gis")
    for child_id, algorithm, sources, output in (
        (
            "cut",
            "impacts",
            {k: Source.fromStaticValue(v) for k, v in layers.items()},
            "impact_layer",
        ),
        (
            "assess",
            "assess",
            {
                "IMPACTS": Source.fromChildOutput("cut", "OUTPUT"),
                **{k: Source.fromStaticValue(v) for k, v in base.items()},
            },
            "assessed",
        ),
    ):
        child = QgsProcessingModelChildAlgorithm(f"wetland_gis:{algorithm}")
        child.setChildId(child_id)
        for name, source in sources.items():
            child.addParameterSources(name, [source])
        kept = QgsProcessingModelOutput(output, output)
        kept.setChildId(child_id)
        kept.setChildOutputName("OUTPUT")
        child.setModelOutputs({output: kept})
        model.addChildAlgorithm(child)
    model.updateDestinationParameters()
    return model


def _parameters(algorithm: Any) -> list[list[Any]]:
    """Return each parameter: name, type, optional, advanced, parent layer (of a field)."""
    return [
        [
            p.name(),
            p.type(),
            bool(p.flags() & p.FlagOptional),
            bool(p.flags() & p.FlagAdvanced),
            p.parentLayerParameterName() if p.type() == "field" else None,
        ]
        for p in algorithm.parameterDefinitions()
    ]


def _sha(path: str) -> str | None:
    p = Path(path)
    return hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None


def _write_shapefile(source: QgsVectorLayer, path: str, crs: bool = True) -> list[str]:
    """Copy ``source`` with the long columns to a shapefile written by QGIS; its fields."""
    geometry = "MultiPolygon" + (f"?crs={source.crs().authid()}" if crs else "")
    mem = QgsVectorLayer(geometry, "copy", "memory")
    fields = [f for f in source.fields() if f.name() != "fid"]
    mem.dataProvider().addAttributes(
        fields + [QgsField(name, kind) for name, (_, kind) in LONG_COLUMNS.items()]
    )
    mem.updateFields()
    features = []
    for feat in source.getFeatures():
        new = QgsFeature(mem.fields())
        new.setGeometry(feat.geometry())
        new.setAttributes(
            [feat[f.name()] for f in fields] + [value for value, _ in LONG_COLUMNS.values()]
        )
        features.append(new)
    mem.dataProvider().addFeatures(features)
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "ESRI Shapefile"
    options.fileEncoding = "UTF-8"
    if not crs:
        mem.setCrs(QgsCoordinateReferenceSystem())
    error = QgsVectorFileWriter.writeAsVectorFormatV3(
        mem, path, QgsProject.instance().transformContext(), options
    )
    if error[0] != QgsVectorFileWriter.NoError:
        raise RuntimeError(f"cannot write {path}: {error}")
    return [f.name() for f in QgsVectorLayer(path, "shp", "ogr").fields()]


def main() -> None:
    spec = json.loads(sys.argv[1])
    app = QgsApplication([], False)
    app.initQgis()
    sys.path.append(spec.get("qgis_plugins", "/usr/share/qgis/python/plugins"))
    from processing.core.Processing import Processing

    Processing.initialize()
    sys.path.insert(0, spec["plugins"])
    import wetland_gis_qgis

    plugin = wetland_gis_qgis.classFactory(None)
    plugin.initProcessing()
    registry = QgsApplication.processingRegistry()
    sample, work = Path(spec["sample"]), Path(spec["work"])
    context = str(sample / "synthetic_context.gpkg")
    wright = str(sample / "projects" / "wright_metro" / "impacts.gpkg")
    result: dict[str, Any] = {
        "provider_error": plugin.provider.error if plugin.provider else "no provider",
        "algorithms": sorted(a.id() for a in plugin.provider.algorithms()),
        "assess_parameters": _parameters(registry.algorithmById("wetland_gis:assess")),
        "impacts_parameters": _parameters(registry.algorithmById("wetland_gis:impacts")),
    }
    scenarios = spec.get("scenarios") or [
        "sample",
        "shapefile",
        "selection",
        "bad",
        "cancel",
        "impacts",
        "chain",
    ]
    base = {"CONTEXT": context, "AS_OF": "2024-05-01"}
    if "sample" in scenarios:
        run = _run(
            "wetland_gis:assess",
            {**base, "IMPACTS": wright, "OUTPUT": str(work / "sample.gpkg")},
            load=True,
        )
        run["layers"] = _layers()
        result["sample"] = run
        QgsProject.instance().removeAllMapLayers()
    if "shapefile" in scenarios:
        shp = str(work / "qgis_written.shp")
        fields = _write_shapefile(QgsVectorLayer(wright, "impacts", "ogr"), shp)
        run = _run("wetland_gis:assess", {**base, "IMPACTS": shp, "OUTPUT": str(work / "shp.gpkg")})
        run["shapefile"], run["shapefile_fields"] = shp, fields
        result["shapefile"] = run
    if "selection" in scenarios:
        layer = QgsVectorLayer(wright, "wright impacts", "ogr")
        QgsProject.instance().addMapLayer(layer)
        layer.selectByIds(sorted(layer.allFeatureIds())[:2])
        source = QgsProcessingFeatureSourceDefinition(layer.id(), True)
        result["selection"] = _run(
            "wetland_gis:assess", {**base, "IMPACTS": source, "OUTPUT": str(work / "sel.gpkg")}
        )
        QgsProject.instance().removeAllMapLayers()
    if "bad" in scenarios:
        shp = str(work / "no_crs.shp")
        _write_shapefile(QgsVectorLayer(wright, "impacts", "ogr"), shp, crs=False)
        for ext in (".prj", ".qpj"):
            Path(shp).with_suffix(ext).unlink(missing_ok=True)
        run = _run("wetland_gis:assess", {**base, "IMPACTS": shp, "OUTPUT": str(work / "bad.gpkg")})
        run["shapefile"] = shp
        result["bad"] = run
    if "cancel" in scenarios:
        out = str(work / "cancel.gpkg")
        first = _run("wetland_gis:assess", {**base, "IMPACTS": wright, "OUTPUT": out})
        before = _sha(out)
        crow = str(sample / "projects" / "crow_wing" / "impacts.gpkg")
        # cancelled at its first progress event (reading the layer): the command stops
        run = _run(
            "wetland_gis:assess",
            {**base, "IMPACTS": crow, "OUTPUT": out, "OVERWRITE": True},
            cancel_at=10.0,
        )
        run["first"] = first.get("outputs")
        run["unchanged"] = before is not None and before == _sha(out)
        run["left"] = sorted(os.listdir(work))
        result["cancel"] = run
    if "impacts" in scenarios:  # issue 35: the county road's construction limits, cut
        footprint = str(sample / "projects" / "county_road" / "footprint.gpkg")
        layers = {
            name: f"{footprint}|layername={layer}"
            for name, layer in (
                ("FOOTPRINT", "construction_limits"),
                ("WETLANDS", "delineation"),
                ("EXISTING", "existing_road"),
                ("PARCELS", "parcels"),
            )
        }
        QgsProject.instance().removeAllMapLayers()
        run = _run("wetland_gis:impacts", {**layers, "OUTPUT": str(work / "cut.gpkg")}, load=True)
        run["layers"] = _layers()
        result["impacts"] = run
        QgsProject.instance().removeAllMapLayers()
        # a model of the graphical modeler: the cut's output is the input of assess
        model = _cut_then_assess(layers, base)
        result["impacts_assess"] = _run(
            model,
            {
                "cut:impact_layer": str(work / "model_cut.gpkg"),
                "assess:assessed": str(work / "model_assessed.gpkg"),
            },
        )
        # a delineation whose wetlands overlap (written by the test)
        result["impacts_bad"] = _run(
            "wetland_gis:impacts",
            {
                "FOOTPRINT": layers["FOOTPRINT"],
                "WETLANDS": spec["overlapping"],
                "OUTPUT": str(work / "overlap.gpkg"),
            },
        )
    if "chain" in scenarios:  # the other algorithms, as the sample project runs them
        crow = sample / "projects" / "crow_wing"
        chain, assessed, siting = (
            work / "chain",
            str(work / "chain" / "a.gpkg"),
            str(work / "chain" / "siting"),
        )
        chain.mkdir()
        # each value named ("ASSESSED", "OUTPUT") is the output of that name of an earlier
        # run, passed on as the graphical modeler passes a child's output to the next
        later = {
            "site": {"ASSESSED": ("assess", "ASSESSED")},
            "map": {"ASSESSED": ("assess", "ASSESSED"), "SITING": ("site", "OUTPUT")},
            "report": {
                "ASSESSED": ("assess", "ASSESSED"),
                "SITING": ("site", "OUTPUT"),
                "MAP": ("map", "OUTPUT"),
            },
        }
        # the county road's alternatives as construction limits, cut by its delineation:
        # the preferred one the layer 'construction_limits' of construction_limits.gpkg, a
        # GeoPackage of two layers (written by the test), the reduced one its other layer
        several = spec["several_layers"]
        road = str(sample / "projects" / "county_road" / "footprint.gpkg")
        runs = {
            "assess": {**base, "IMPACTS": str(crow / "impacts.gpkg"), "OUTPUT": assessed},
            "site": {
                "SITES": str(crow / "candidate_sites.gpkg"),
                "BANKS": str(sample / "synthetic_bank_credits.csv"),
                "CONTEXT": context,
                "OUTPUT": siting,
            },
            "map": {"OUTPUT": str(chain / "map.html")},
            "report": {"OUTPUT": str(chain / "report.html")},
            "compare": {
                **base,
                "ALTERNATIVES": [
                    f"{several}|layername=construction_limits",
                    f"{several}|layername=reduced_limits",
                ],
                "WETLANDS": f"{road}|layername=delineation",
                "EXISTING": f"{road}|layername=existing_road",
                "PARCELS": f"{road}|layername=parcels",
                "NO_BUILD": True,
                "NAMES": "preferred; reduced; no build",
                "OUTPUT": str(chain / "compare"),
            },
            "water-use": {
                "POINTS": str(sample / "water_use" / "appropriations.gpkg"),
                "AQUIFER": str(sample / "water_use" / "synthetic_mt_simon_hinckley.gpkg"),
                "AS_OF": "2026-06-01",
                "OUTPUT": str(chain / "water.gpkg"),
            },
        }
        result["chain"] = {}
        for name, params in runs.items():
            QgsProject.instance().removeAllMapLayers()
            for param, (earlier, output) in later.get(name, {}).items():
                params[param] = (result["chain"][earlier].get("outputs") or {}).get(output)
            run = _run(f"wetland_gis:{name}", params, load=True)
            run["layers"] = _layers()
            result["chain"][name] = run
    print("RESULT" + json.dumps(result, default=str), flush=True)
    plugin.unload()
    app.exitQgis()


if __name__ == "__main__":
    main()
