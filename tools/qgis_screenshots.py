"""Draw the screenshots of docs/qgis.md in QGIS, offscreen (run by QGIS's Python).

Usage (from the repository, after ``make setup``)::

    QT_QPA_PLATFORM=offscreen /usr/bin/python3 tools/qgis_screenshots.py --python .venv/bin/python

It builds the plugin zip into a temporary folder (``tools/qgis_plugin.py``), loads it as
QGIS loads a plugin, opens the dialog of ``wetland_gis:assess`` filled in for the Wright
sample (``docs/img/qgis_assess_dialog.png``), runs it as the dialog's Run button does
(``processing.runAndLoadResults``: the layers are loaded with the styles their GeoPackage
carries) and draws them in a map canvas over the sample's public waters
(``docs/img/qgis_assess_result.png``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"


def main(argv: list[str] | None = None) -> int:
    """Write the two screenshots; print their paths."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="the venv's python (has wetland_gis)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = parser.parse_args(argv)

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
    with zipfile.ZipFile(qgis_plugin.build(work / "plugin.zip", args.python)) as zf:
        zf.extractall(work / "plugins")
    sys.path.insert(0, str(work / "plugins"))
    import wetland_gis_qgis

    plugin = wetland_gis_qgis.classFactory(None)
    plugin.initProcessing()

    project = QgsProject.instance()
    impacts = QgsVectorLayer(
        str(SAMPLE / "projects" / "wright_metro" / "impacts.gpkg"), "wright impacts", "ogr"
    )
    project.addMapLayer(impacts)
    params = {
        "IMPACTS": impacts.id(),
        "CONTEXT": str(SAMPLE / "synthetic_context.gpkg"),
        "AS_OF": "2024-05-01",
        "OUTPUT": str(work / "wright_assessed.gpkg"),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    from processing.gui.AlgorithmDialog import AlgorithmDialog

    algorithm = QgsApplication.processingRegistry().algorithmById("wetland_gis:assess")
    dialog = AlgorithmDialog(algorithm.create(), False, None)  # no QGIS window here
    dialog.setParameters(params)
    dialog.resize(QSize(980, 720))
    dialog.show()
    for _ in range(20):
        app.processEvents()
    shot = args.out / "qgis_assess_dialog.png"
    dialog.grab().save(str(shot))
    print(shot)
    dialog.close()

    processing.runAndLoadResults("wetland_gis:assess", params)
    project.removeMapLayer(impacts.id())
    waters = QgsVectorLayer(
        f"{SAMPLE / 'synthetic_context.gpkg'}|layername=public_water_basins", "public waters", "ogr"
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
    shot = args.out / "qgis_assess_result.png"
    both.save(str(shot))
    print(shot)
    plugin.unload()
    return 0


if __name__ == "__main__":
    sys.exit(main())
