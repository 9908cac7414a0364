"""Draw the screenshots of docs/qgis.md in QGIS, offscreen (run by QGIS's Python).

Usage (from the repository, after ``make setup``)::

    QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/qgis_screenshots.py --shown-as /opt/wetland_gis

It builds the plugin zip into a temporary folder (``tools/qgis_plugin.py``), loads it as
QGIS loads a plugin, opens the dialog of ``wetland_gis:assess`` filled in for the Wright
sample (``docs/img/qgis_assess_dialog.png``), runs it as the dialog's Run button does
(``processing.runAndLoadResults``: the layers are loaded with the styles their GeoPackage
carries) and draws them in a map canvas over the sample's public waters
(``docs/img/qgis_assess_result.png``); then the dialog of ``wetland_gis:impacts`` filled
in with the county road sample's construction limits, delineation, existing road and
parcels (``docs/img/qgis_impacts_dialog.png``).

The dialogs show paths (the context GeoPackage, the package's Python). ``--shown-as PATH``
runs everything through a symbolic link at ``PATH`` to this checkout (made for the run and
removed after), so that the pictures show that path and nothing of the machine they were
drawn on; what they show is what QGIS showed for a checkout at ``PATH``. The pictures in
docs/img were drawn with ``--shown-as /opt/wetland_gis``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: What must live until the process ends (the QgsApplication).
_ALIVE: list[Any] = []


@contextmanager
def shown_as(path: Path | None) -> Iterator[Path]:
    """Yield the checkout's path as the pictures show it: ``path``, a link made for the run.

    Without ``path``, the checkout itself. An existing ``path`` must already lead to this
    checkout (it is then left as it is).
    """
    if path is None:
        yield ROOT
        return
    path = Path(path).absolute()
    made = not path.exists() and not path.is_symlink()
    if made:
        path.symlink_to(ROOT, target_is_directory=True)
    elif path.resolve() != ROOT:
        raise SystemExit(f"{path} exists and is not this checkout ({ROOT}): choose another path")
    try:
        yield path
    finally:
        if made:
            path.unlink()


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots; print their paths."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--python", help="the venv's python (has wetland_gis; default: the checkout's .venv)"
    )
    parser.add_argument(
        "--shown-as",
        type=Path,
        help="show the checkout at this path: a symbolic link made for the run, removed after",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)
    with shown_as(args.shown_as) as root:
        python = args.python or str(root / ".venv" / "bin" / "python")
        _draw(root, python, args.out)
    # the pictures are written and the link removed: leave without tearing QGIS down,
    # which crashes (exit 139) on Debian's QGIS 3.22 whatever the order of the clean-up
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _draw(root: Path, python: str, out: Path) -> None:
    """Draw the pictures with the checkout at ``root`` and the package's ``python``."""
    sample = root / "sample_data"

    from qgis.core import (
        QgsApplication,
        QgsFillSymbol,
        QgsProject,
        QgsRectangle,
        QgsSingleSymbolRenderer,
        QgsVectorLayer,
    )
    from qgis.gui import QgsMapCanvas
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor, QImage, QPainter

    app = QgsApplication([], True)
    app.initQgis()
    sys.path.append("/usr/share/qgis/python/plugins")
    from processing.core.Processing import Processing

    Processing.initialize()
    import processing

    sys.path.insert(0, str(ROOT / "tools"))
    import qgis_plugin

    work = Path(tempfile.mkdtemp(prefix="wetland-gis-shots-"))
    with zipfile.ZipFile(qgis_plugin.build(work / "plugin.zip", python)) as zf:
        zf.extractall(work / "plugins")
    sys.path.insert(0, str(work / "plugins"))
    import wetland_gis_qgis

    plugin = wetland_gis_qgis.classFactory(None)
    plugin.initProcessing()

    project = QgsProject.instance()
    impacts = QgsVectorLayer(
        str(sample / "projects" / "wright_metro" / "impacts.gpkg"), "wright impacts", "ogr"
    )
    project.addMapLayer(impacts)
    params = {
        "IMPACTS": impacts.id(),
        "CONTEXT": str(sample / "synthetic_context.gpkg"),
        "AS_OF": "2024-05-01",
        "OUTPUT": str(work / "wright_assessed.gpkg"),
    }
    out.mkdir(parents=True, exist_ok=True)
    _dialog(app, "wetland_gis:assess", params, out / "qgis_assess_dialog.png", QSize(1100, 720))

    processing.runAndLoadResults("wetland_gis:assess", params)
    project.removeMapLayer(impacts.id())
    waters = QgsVectorLayer(
        f"{sample / 'synthetic_context.gpkg'}|layername=public_water_basins", "public waters", "ogr"
    )
    waters.setRenderer(
        QgsSingleSymbolRenderer(
            QgsFillSymbol.createSimple({"color": "#a6cee3", "outline_color": "#1f78b4"})
        )
    )
    layers = [layer for layer in project.mapLayers().values() if "wright_assessed" in layer.name()]
    order = sorted(layers, key=lambda layer: not layer.name().endswith("impacts"))
    canvas = QgsMapCanvas()
    canvas.setCanvasColor(QColor("white"))
    canvas.setDestinationCrs(order[0].crs())
    canvas.setLayers([*order, waters])
    canvas.resize(QSize(640, 560))
    canvas.show()
    # the impacts are tens of metres across a project kilometres wide: the whole project,
    # and beside it the detail of W-4 at the edge of the shoreland zones
    whole = QgsRectangle(order[0].extent())
    whole.scale(1.15)
    w4 = next(f for f in order[0].getFeatures() if f["impact_id"] == "W-4")
    detail = w4.geometry().boundingBox()
    detail.scale(5.0)
    images = []
    for extent in (whole, detail):
        canvas.setExtent(extent)
        canvas.refresh()
        for _ in range(20):
            app.processEvents()
        canvas.waitWhileRendering()
        part = work / f"part{len(images)}.png"
        canvas.saveAsImage(str(part))
        images.append(QImage(str(part)))
    both = QImage(images[0].width() * 2 + 10, images[0].height(), QImage.Format_ARGB32)
    both.fill(QColor("white"))
    painter = QPainter(both)
    painter.drawImage(0, 0, images[0])
    painter.drawImage(images[0].width() + 10, 0, images[1])
    painter.setPen(QColor("#888888"))
    painter.drawRect(images[0].width() + 10, 0, images[1].width() - 1, images[1].height() - 1)
    painter.end()
    shot = out / "qgis_assess_result.png"
    both.save(str(shot))
    print(shot)

    # the cut of the county road sample (issue 35): its layers as an analyst has them open
    project.removeAllMapLayers()
    footprint = sample / "projects" / "county_road" / "footprint.gpkg"
    cut = {}
    for name, layer, title in (
        ("FOOTPRINT", "construction_limits", "construction limits"),
        ("WETLANDS", "delineation", "delineation"),
        ("EXISTING", "existing_road", "existing road"),
        ("PARCELS", "parcels", "parcels"),
    ):
        source = QgsVectorLayer(f"{footprint}|layername={layer}", title, "ogr")
        project.addMapLayer(source)
        cut[name] = source.id()
    cut["OUTPUT"] = str(work / "county_road_impacts.gpkg")
    _dialog(app, "wetland_gis:impacts", cut, out / "qgis_impacts_dialog.png", QSize(1100, 820))
    plugin.unload()
    _ALIVE.append(app)  # until the process ends: QGIS crashes when it is collected


def _dialog(app: Any, algorithm_id: str, params: dict[str, Any], shot: Path, size: Any) -> None:
    """Save the picture of an algorithm's dialog filled in with ``params``; print its path."""
    from processing.gui.AlgorithmDialog import AlgorithmDialog
    from qgis.core import QgsApplication

    algorithm = QgsApplication.processingRegistry().algorithmById(algorithm_id)
    dialog = AlgorithmDialog(algorithm.create(), False, None)  # no QGIS window here
    dialog.setParameters(params)
    dialog.show()
    dialog.resize(size)  # after show(), which restores the size of the last dialog
    for _ in range(20):
        app.processEvents()
    dialog.grab().save(str(shot))
    print(shot)
    dialog.close()


if __name__ == "__main__":
    sys.exit(main())
