"""Run ``wetland-gis`` from the QGIS Processing Toolbox (issue 31, ``docs/qgis.md``).

QGIS's own Python (Debian's ``/usr/bin/python3`` with ``python3-qgis``) does not import
the package: it cannot, without putting a second numpy and GDAL in QGIS's process (the
venv's numpy 2 breaks ``osgeo.gdal_array`` there). Instead the provider builds the
command line from the algorithm's parameters and runs the same ``wetland-gis`` command in
the package's own interpreter (the venv), reading its progress and result from a
machine-readable channel (:mod:`.events`). Nothing is computed in QGIS.

Modules:

* :mod:`.events` (standard library only): the channel, written by the command line
  when ``WETLAND_GIS_EVENTS=json`` and read by the provider;
* :mod:`.command` (standard library only): the algorithms' parameters as plain data and
  the one function turning their values into the command's arguments;
* :mod:`.runner` (standard library only): finds the interpreter, runs the command,
  reports progress, cancels cleanly and turns a failure into its one-line message;
* :mod:`.describe`, :mod:`.run` (the venv side): what the provider asks the package
  (options, choices, field roles), and the entry point the provider runs;
* :mod:`.provider` (QGIS): the ``QgsProcessingProvider`` and its algorithms;
* :mod:`.plugin` (QGIS): what the plugin zip of ``make qgis-plugin`` loads.

This package's ``__init__`` imports nothing, so the command line can read :mod:`.events`
without loading QGIS, and QGIS can load the provider without loading ``wetland_gis``.
"""
