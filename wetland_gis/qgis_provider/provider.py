"""The ``wetland_gis`` Processing provider: one algorithm per ``wetland-gis`` command.

Loaded into QGIS's own Python (this module imports QGIS and the standard library, and
this sub-package's standard-library modules, never the rest of ``wetland_gis``). Each
algorithm turns its QGIS parameters into plain values, the layers into files (a layer
that is not a plain file, or a selection when "Selected features only" is ticked, is
exported by QGIS's writer to a temporary GeoPackage), builds the command with
:func:`.command.build_argv` and runs it in the package's interpreter
(:func:`.runner.run_command`). The outputs are the command's; the GeoPackages' layers are
loaded into the project with the default style they carry (``layer_styles``).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsFeatureRequest,
    QgsMessageLog,
    QgsProcessing,
    QgsProcessingAlgorithm,
    QgsProcessingContext,
    QgsProcessingException,
    QgsProcessingFeedback,
    QgsProcessingLayerPostProcessorInterface,
    QgsProcessingOutputFile,
    QgsProcessingOutputString,
    QgsProcessingParameterBoolean,
    QgsProcessingParameterCrs,
    QgsProcessingParameterDateTime,
    QgsProcessingParameterDefinition,
    QgsProcessingParameterEnum,
    QgsProcessingParameterFeatureSource,
    QgsProcessingParameterField,
    QgsProcessingParameterFile,
    QgsProcessingParameterFileDestination,
    QgsProcessingParameterFolderDestination,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterNumber,
    QgsProcessingParameterRasterLayer,
    QgsProcessingParameterString,
    QgsProcessingParameterVectorDestination,
    QgsProcessingProvider,
    QgsProcessingUtils,
    QgsProviderRegistry,
    QgsVectorLayer,
)

from . import runner
from .command import ALGORITHMS, Algorithm, Option, build_argv, field_parameter, split_texts

#: The provider's id: its algorithms are ``wetland_gis:assess``, ``wetland_gis:site``, ...
PROVIDER_ID = "wetland_gis"

#: The Processing setting naming the package's interpreter (Options > Processing >
#: Providers > wetland_gis).
PYTHON_SETTING = "WETLAND_GIS_PYTHON"

#: What the command reads as a vector layer file (anything else is exported by QGIS).
_COMPATIBLE = ["gpkg", "shp", "geojson"]

_LOG_TAG = "wetland_gis"

#: Post-processors must outlive the algorithm run that made them (QGIS calls them later).
_KEEP: dict[int, Any] = {}


class _LoadDefaultStyle(QgsProcessingLayerPostProcessorInterface):
    """Load the default style the GeoPackage carries (``layer_styles``) once QGIS opens it."""

    def postProcessLayer(  # noqa: N802 - QGIS's name
        self, layer: Any, context: Any, feedback: Any
    ) -> None:
        """Apply the layer's default style from its GeoPackage."""
        if isinstance(layer, QgsVectorLayer):
            message, ok = layer.loadDefaultStyle()
            if not ok:
                feedback.pushInfo(f"{layer.name()}: no default style: {message}")
            layer.triggerRepaint()


def _setting(name: str) -> str | None:
    """Return a Processing setting (None before Processing is set up, or when empty)."""
    try:
        from processing.core.ProcessingConfig import ProcessingConfig
    except ImportError:  # pragma: no cover - QGIS without the processing plugin
        return None
    value = ProcessingConfig.getSetting(name)
    return str(value) if value else None


class WetlandGISAlgorithm(QgsProcessingAlgorithm):
    """One ``wetland-gis`` command as a Processing algorithm.

    Parameters
    ----------
    spec : Algorithm
        The command and its parameters (:data:`.command.ALGORITHMS`).
    provider : WetlandGISProvider
        The provider (its interpreter and the command line's description).
    """

    def __init__(self, spec: Algorithm, provider: WetlandGISProvider) -> None:
        super().__init__()
        self.spec = spec
        self._provider = provider

    # -- identity ---------------------------------------------------------------------

    def name(self) -> str:
        """Return the command (``assess``): the id is ``wetland_gis:assess``."""
        return self.spec.command

    def displayName(self) -> str:  # noqa: N802
        """Return the title shown in the toolbox."""
        return self.spec.title

    def group(self) -> str:
        """Return the toolbox group (one: the Wetland Conservation Act)."""
        return "Wetland Conservation Act (Minn. Stat. ch. 103G)"

    def groupId(self) -> str:  # noqa: N802
        """Return the toolbox group's id."""
        return "wca"

    def shortHelpString(self) -> str:  # noqa: N802
        """Return the help shown beside the dialog."""
        parts = [
            self.spec.summary,
            f"It runs `wetland-gis {self.spec.command}` in the package's Python "
            f"({self._provider.python or 'not found'}); the log shows the command.",
            "A screening: the TEP and the local government unit decide.",
        ]
        if self._provider.error:
            parts.append(f"Not ready: {self._provider.error}")
        return "\n\n".join(parts)

    def createInstance(self) -> WetlandGISAlgorithm:  # noqa: N802
        """Return a new instance (QGIS runs each execution on its own)."""
        return WetlandGISAlgorithm(self.spec, self._provider)

    # -- parameters -------------------------------------------------------------------

    def initAlgorithm(self, config: Any = None) -> None:  # noqa: N802
        """Add the parameters of the command (choices and defaults from its parser)."""
        options = self._provider.options(self.spec.command)
        # the field parameters come after the last layer whose columns they list
        parents = {parent for _, parent in self.spec.field_parents} if self.spec.fields else set()
        last_parent = [opt.name for opt in self.spec.options if opt.name in parents][-1:]
        for opt in self.spec.options:
            if opt.kind in ("out_vector", "out_file", "out_folder"):
                continue
            definition = self._parameter(opt, options.get(opt.flag or "", {}))
            if definition is not None:
                self.addParameter(definition)
            if [opt.name] == last_parent:
                self._add_fields()
        for opt in self.spec.options:  # outputs last, as QGIS's own algorithms have them
            if opt.kind in ("out_vector", "out_file", "out_folder"):
                self.addParameter(self._parameter(opt, options.get(opt.flag or "", {})))
        self.addOutput(QgsProcessingOutputFile("MANIFEST", "Manifest (JSON)"))
        self.addOutput(QgsProcessingOutputString("TALLY", "Tally (JSON)"))
        if self.spec.command == "assess":
            self.addOutput(QgsProcessingOutputFile("ASSESSED", "Assessed GeoPackage"))

    def _parameter(self, opt: Option, parsed: dict[str, Any]) -> Any:
        """Return the QGIS parameter of ``opt`` (None when the command line lacks it)."""
        if opt.flag and not parsed and self._provider.described:
            QgsMessageLog.logMessage(
                f"{self.spec.command}: the command line has no {opt.flag}: {opt.name} left out",
                _LOG_TAG,
                Qgis.Warning,
            )
            return None
        default = opt.default if opt.default is not None else parsed.get("default")
        kind, name, label, optional = opt.kind, opt.name, opt.label, opt.optional
        p: Any
        if kind == "source":
            p = QgsProcessingParameterFeatureSource(
                name, label, [QgsProcessing.TypeVectorAnyGeometry], None, optional
            )
        elif kind == "sources":
            p = QgsProcessingParameterMultipleLayers(
                name, label, QgsProcessing.TypeVectorAnyGeometry, None, optional
            )
        elif kind in ("file", "folder"):
            behavior = (
                QgsProcessingParameterFile.Folder
                if kind == "folder"
                else QgsProcessingParameterFile.File
            )
            p = QgsProcessingParameterFile(
                name, label, behavior, "", None, optional, opt.filter if kind == "file" else ""
            )
        elif kind == "raster":
            p = QgsProcessingParameterRasterLayer(name, label, None, optional)
        elif kind == "date":
            p = QgsProcessingParameterDateTime(
                name, label, QgsProcessingParameterDateTime.Date, None, optional
            )
        elif kind == "bool":
            p = QgsProcessingParameterBoolean(name, label, bool(default), optional)
        elif kind == "number":
            p = QgsProcessingParameterNumber(
                name, label, QgsProcessingParameterNumber.Double, default, optional, 0.0
            )
        elif kind in ("enum", "enums"):
            choices = list(parsed.get("choices") or [])
            if not choices:
                return None
            p = QgsProcessingParameterEnum(
                name,
                label,
                choices,
                kind == "enums",
                default if kind == "enum" else None,
                optional,
                True,  # values are the choices themselves: "per_clause", not 1
            )
        elif kind in ("text", "texts"):
            p = QgsProcessingParameterString(name, label, default, False, optional)
        elif kind == "crs":
            p = QgsProcessingParameterCrs(name, label, None, optional)
        elif kind == "field":
            p = QgsProcessingParameterField(
                name, label, None, opt.parent, QgsProcessingParameterField.Any, False, optional
            )
        elif kind == "out_vector":
            p = QgsProcessingParameterVectorDestination(
                name, label, QgsProcessing.TypeVectorAnyGeometry, None, optional
            )
        elif kind == "out_file":
            p = QgsProcessingParameterFileDestination(
                name, label, opt.filter, None, optional, not optional
            )
        elif kind == "out_folder":
            p = QgsProcessingParameterFolderDestination(name, label, None, optional)
        else:  # pragma: no cover - command.KINDS is closed
            raise ValueError(kind)
        if opt.advanced:
            p.setFlags(p.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
        help_text = parsed.get("help") or ""
        if help_text:
            p.setHelp(help_text)
        return p

    def _roles(self) -> list[dict[str, Any]]:
        """Return the field roles that have a field parameter (those with a parent layer)."""
        if not self.spec.fields:
            return []
        return [
            role
            for role in self._provider.roles(self.spec.command)
            if self.spec.field_parent(role.get("input")) is not None
        ]

    def _add_fields(self) -> None:
        """Add a field parameter per field role the command reads (empty: accepted names)."""
        field_flag = self._provider.field_flag(self.spec.command)
        for role in self._roles():
            names = ", ".join(role["names"])
            parent = self.spec.field_parent(role.get("input"))
            flag = role["flag"] or f"{field_flag} {role['role']}=COLUMN"
            p = QgsProcessingParameterField(
                field_parameter(role["role"]),
                f"{role['label'][:1].upper()}{role['label'][1:]} column [empty: {names}] ({flag})",
                None,
                parent,
                QgsProcessingParameterField.Any,
                False,
                True,
            )
            if role["group"] != "main":
                p.setFlags(p.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
            where = ""
            if len(self.spec.field_parents) > 1:  # the command looks in every input
                where = (
                    f", listed from the columns of {parent} (the command looks for a column "
                    "named here in each input layer, in the order of docs/footprint.md)"
                )
            p.setHelp(
                f"The column holding the {role['label']}{where}; left empty, the command takes "
                f"the first of {names} that the layer has (case-insensitive; "
                "docs/data_schema.md)."
            )
            self.addParameter(p)
        map_flag = self._provider.field_map_flag(self.spec.command)
        if map_flag:  # the command line reads a field-map file
            p = QgsProcessingParameterFile(
                "FIELD_MAP",
                f"Field-map file, instead of the columns above ({map_flag})",
                QgsProcessingParameterFile.File,
                "",
                None,
                True,
            )
            p.setFlags(p.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
            self.addParameter(p)

    def _field_map(self, parameters: dict[str, Any], context: Any) -> str | None:
        """Return the field-map file given (None when none, or the command reads none)."""
        if not self.spec.fields or self.parameterDefinition("FIELD_MAP") is None:
            return None
        return self.parameterAsFile(parameters, "FIELD_MAP", context) or None

    # -- running ----------------------------------------------------------------------

    def processAlgorithm(  # noqa: N802
        self, parameters: dict[str, Any], context: Any, feedback: Any
    ) -> dict[str, Any]:
        """Run the command on the parameters' files; return its outputs."""
        if feedback is None:
            feedback = QgsProcessingFeedback()
        python = self._provider.interpreter()
        # QGIS must hand every feature over as it is: the command repairs invalid
        # geometries itself and records each repair (an invalid one is never dropped here)
        context.setInvalidGeometryCheck(QgsFeatureRequest.GeometryNoCheck)
        values: dict[str, Any] = {}
        for opt in self.spec.options:
            value = self._value(opt, parameters, context, feedback)
            if value is not None:
                values[opt.name] = value
        fields = {}
        roles = self._roles()
        for role in roles:
            chosen = self.parameterAsFields(parameters, field_parameter(role["role"]), context)
            if chosen:
                fields[role["role"]] = chosen[0]
        try:
            argv = build_argv(
                self.spec.command,
                values,
                fields=fields,
                role_flags={r["role"]: r["flag"] for r in roles if r["flag"]},
                field_flag=self._provider.field_flag(self.spec.command),
                field_map=self._field_map(parameters, context),
                field_map_flag=self._provider.field_map_flag(self.spec.command),
            )
        except ValueError as err:
            raise QgsProcessingException(f"wetland-gis {self.spec.command}: {err}") from err
        feedback.pushCommandInfo("wetland-gis " + " ".join(shlex.quote(a) for a in argv))
        try:
            result = runner.run_command(python, argv, feedback, steps=self.spec.steps)
        except runner.CommandFailed as err:
            feedback.reportError(str(err), True)
            raise QgsProcessingException(str(err)) from err
        return self._outputs(values, result, context)

    def _value(self, opt: Option, parameters: dict[str, Any], context: Any, feedback: Any) -> Any:
        """Return the plain value of ``opt`` (a path, text, number, flag) or None."""
        kind, name = opt.kind, opt.name
        given = parameters.get(name)
        if kind in ("out_vector", "out_file", "out_folder"):
            if kind == "out_vector":
                path = self.parameterAsOutputLayer(parameters, name, context)
                match = re.match(r"^ogr:dbname='([^']+)'", path or "")
                return match.group(1) if match else path or None
            return self.parameterAsFileOutput(parameters, name, context) or None
        if given is None or given == "":
            return None
        if kind == "source":
            return self._source(opt, parameters, context, feedback)
        if kind == "sources":
            layers = self.parameterAsLayerList(parameters, name, context)
            paths: list[str] = []
            for layer in layers:
                stem = f"alternative_{len(paths) + 1}"
                path = QgsProcessingUtils.convertToCompatibleFormat(
                    layer, False, stem, _COMPATIBLE, "gpkg", context, feedback
                )
                if _exported(path):
                    feedback.pushInfo(f"{opt.label}: {layer.name()!r} written by QGIS to {path}")
                else:  # a GeoPackage layer named like its file, beside other layers
                    path = _one_layer_file(path, layer, opt.label, stem, context, feedback)
                paths.append(path)
            return paths
        if kind in ("file", "folder"):
            return self.parameterAsFile(parameters, name, context) or None
        if kind == "raster":
            layer = self.parameterAsRasterLayer(parameters, name, context)
            if layer is None:
                return None
            path = (
                QgsProviderRegistry.instance()
                .decodeUri(layer.providerType(), layer.source())
                .get("path")
            )
            if not path or not Path(path).is_file():
                raise QgsProcessingException(
                    f"{opt.label}: {layer.name()} is not a raster file; save it as a GeoTIFF "
                    "(Export > Save As) and give that file"
                )
            return path
        if kind == "date":
            day = self.parameterAsDateTime(parameters, name, context)
            return day.date().toString("yyyy-MM-dd") if day.isValid() else None
        if kind == "bool":
            return self.parameterAsBoolean(parameters, name, context) or None
        if kind == "number":
            return self.parameterAsDouble(parameters, name, context)
        if kind == "enum":
            return self.parameterAsEnumString(parameters, name, context) or None
        if kind == "enums":
            return list(self.parameterAsEnumStrings(parameters, name, context)) or None
        if kind == "text":
            return self.parameterAsString(parameters, name, context) or None
        if kind == "texts":
            return split_texts(self.parameterAsString(parameters, name, context)) or None
        if kind == "crs":
            crs = self.parameterAsCrs(parameters, name, context)
            if not crs.isValid():
                return None
            return crs.authid() or crs.toWkt()
        if kind == "field":
            chosen = self.parameterAsFields(parameters, name, context)
            return chosen[0] if chosen else None
        raise ValueError(kind)  # pragma: no cover

    def _source(self, opt: Option, parameters: dict[str, Any], context: Any, feedback: Any) -> Any:
        """Return the file of a vector layer, and its layer name when the command takes one.

        A plain GeoPackage, shapefile or GeoJSON file is given as it is; any other layer,
        a filtered one, or a selection ("Selected features only") is exported by QGIS.
        """
        path, layer = self.parameterAsCompatibleSourceLayerPathAndLayerName(
            parameters, opt.name, context, _COMPATIBLE, "gpkg", feedback
        )
        if not path:
            return None
        if _exported(path):  # the manifest names this file: the log says what it holds
            source = self.parameterAsSource(parameters, opt.name, context)
            feedback.pushInfo(
                f"{opt.label}: the layer {source.sourceName() if source else ''!r} "
                f"({'its selected features' if _selection(parameters.get(opt.name)) else 'all'}"
                f") written by QGIS to {path}"
            )
        if not path.lower().endswith(".gpkg"):
            return path
        if opt.layer_flag:
            return (path, layer or None)
        if _exported(path):
            return path
        uri = f"{path}|layername={layer}" if layer else path
        source = QgsVectorLayer(uri, layer or Path(path).stem, "ogr")
        return _one_layer_file(path, source, opt.label, opt.name.lower(), context, feedback)

    def _outputs(self, values: dict[str, Any], result: runner.RunResult, context: Any) -> Any:
        """Return the outputs and register the GeoPackage layers to load, styled."""
        out = values.get("OUTPUT")
        outputs: dict[str, Any] = {
            "OUTPUT": out,
            "MANIFEST": result.file("manifest.json"),
            "TALLY": json.dumps(result.tally),
        }
        if self.spec.command == "assess":
            outputs["ASSESSED"] = out
        for opt in self.spec.options:  # an optional file not named: the one written, if any
            if opt.kind == "out_file" and opt.name != "OUTPUT":
                suffix = "." + opt.filter.rsplit("*.", 1)[-1].rstrip(")").lower()
                written = [p for p in result.written if p != out and p.lower().endswith(suffix)]
                outputs[opt.name] = values.get(opt.name) or (written[0] if written else None)
        gpkg = None
        if self.spec.loads and out:
            gpkg = out if str(out).lower().endswith(".gpkg") else None
            if self.spec.command == "site":
                gpkg = result.file("siting.gpkg")
        if gpkg:
            _load_styled(context, str(out), gpkg, self.spec.loads)
        return outputs


def _exported(path: str) -> bool:
    """Return whether ``path`` is a file QGIS wrote in its Processing temporary folder."""
    return str(Path(path).resolve()).startswith(
        str(Path(QgsProcessingUtils.tempFolder()).resolve())
    )


def _one_layer_file(
    path: str, layer: Any, what: str, stem: str, context: Any, feedback: Any
) -> str:
    """Return the file that holds ``layer`` alone: ``path``, or a GeoPackage QGIS writes.

    A command given a GeoPackage's path without a layer option reads its one layer, and
    refuses one of several layers ("several layers"): QGIS keeps a GeoPackage layer named
    like its file as a plain path, so such a layer is written by QGIS's writer to a
    GeoPackage of its own, and the log says so (the manifest names that file).
    """
    if not path.lower().endswith(".gpkg") or len(_layer_names(path)) <= 1:
        return path
    # no format given as compatible: QGIS writes the layer to a GeoPackage of its own
    written = QgsProcessingUtils.convertToCompatibleFormat(
        layer, False, stem, [], "gpkg", context, feedback
    )
    feedback.pushInfo(
        f"{what}: the layer {layer.name()!r} of {path} (a GeoPackage of several layers, "
        f"which the command reads only by name) written by QGIS to {written}"
    )
    return written


def _selection(value: Any) -> bool:
    """Return whether a feature-source value asks for the selected features only."""
    return bool(getattr(value, "selectedFeaturesOnly", False))


def _layer_names(path: str) -> set[str]:
    """Return the names of the layers of a GeoPackage (empty when QGIS cannot open it)."""
    layer = QgsVectorLayer(path, "layers", "ogr")
    if not layer.isValid():
        return set()
    # each sub-layer reads "index!!::!!name!!::!!count!!::!!geometry type!!::!!..."
    return {part.split("!!::!!")[1] for part in layer.dataProvider().subLayers()}


def _load_styled(context: Any, out: str, gpkg: str, names: tuple[str, ...]) -> None:
    """Load the layers ``names`` of ``gpkg`` when QGIS loads ``out``, with their styles.

    For the assessed GeoPackage QGIS would load only its first layer, unstyled; each
    named layer that is there is loaded instead, with the default style it carries.
    A run that is not to load its output (``processing.run``, or "Open output file"
    unticked) loads nothing, except a siting folder's layers in the project's run.
    """
    loading = context.willLoadLayerOnCompletion(out)
    if loading:
        details = context.layerToLoadOnCompletionDetails(out)
        project = details.project
        pending = dict(context.layersToLoadOnCompletion())
        pending.pop(out, None)
        context.setLayersToLoadOnCompletion(pending)
    elif out != gpkg and context.project() is not None:  # a folder output (site)
        project = context.project()
    else:
        return
    have = _layer_names(gpkg)
    stem = Path(gpkg).stem
    for name in names:
        if name not in have:
            continue
        processor = _LoadDefaultStyle()
        _KEEP[id(processor)] = processor
        details = QgsProcessingContext.LayerDetails(f"{stem} {name}", project, name)
        details.setPostProcessor(processor)
        context.addLayerToLoadOnCompletion(f"{gpkg}|layername={name}", details)


class WetlandGISProvider(QgsProcessingProvider):
    """The ``wetland_gis`` provider: one algorithm per command (``wetland_gis:assess``, ...).

    Parameters
    ----------
    plugin_dir : path, optional
        The installed plugin's folder (its ``install.json`` records the interpreter).
    """

    def __init__(self, plugin_dir: str | None = None) -> None:
        super().__init__()
        self.plugin_dir = plugin_dir
        self.python: str | None = None
        self.error: str | None = None
        self._described: dict[str, Any] = {}

    # -- identity ---------------------------------------------------------------------

    def id(self) -> str:
        """Return ``wetland_gis``."""
        return PROVIDER_ID

    def name(self) -> str:
        """Return the name shown in the toolbox."""
        return "wetland_gis"

    def longName(self) -> str:  # noqa: N802
        """Return the name with the package's version."""
        version = self._described.get("version")
        return f"wetland_gis {version}" if version else "wetland_gis"

    def icon(self) -> Any:
        """Return the toolbox icon."""
        return QgsApplication.getThemeIcon("/providerQgis.svg")

    def supportsNonFileBasedOutput(self) -> bool:  # noqa: N802
        """Return False: the command writes files (a temporary output is a file too)."""
        return False

    def supportedOutputVectorLayerExtensions(self) -> list[str]:  # noqa: N802
        """Return ``gpkg``: the command's GeoPackage carries its layers' styles."""
        return ["gpkg"]

    def defaultVectorFileExtension(self, hasGeometry: bool = True) -> str:  # noqa: N802, N803
        """Return ``gpkg``."""
        return "gpkg"

    # -- set-up -----------------------------------------------------------------------

    def load(self) -> bool:
        """Add the provider's setting (the interpreter) and load the algorithms."""
        try:
            from processing.core.ProcessingConfig import ProcessingConfig, Setting
        except ImportError:  # pragma: no cover
            return super().load()
        ProcessingConfig.settingIcons[self.name()] = self.icon()
        ProcessingConfig.addSetting(
            Setting(
                self.name(),
                PYTHON_SETTING,
                "wetland_gis Python (the python of the venv that has wetland_gis)",
                "",
                valuetype=Setting.FILE,
            )
        )
        ProcessingConfig.readSettings()
        self.refreshAlgorithms()
        return True

    def unload(self) -> None:
        """Remove the provider's setting."""
        try:
            from processing.core.ProcessingConfig import ProcessingConfig
        except ImportError:  # pragma: no cover
            return
        ProcessingConfig.removeSetting(PYTHON_SETTING)

    def loadAlgorithms(self) -> None:  # noqa: N802
        """Ask the package for its options and add one algorithm per command."""
        try:
            self.python, _ = runner.find_python(_setting(PYTHON_SETTING), self.plugin_dir)
            self._described = runner.describe(self.python)
            self.error = None
        except runner.CommandFailed as err:
            self._described = {}
            self.error = str(err)
            QgsMessageLog.logMessage(self.error, _LOG_TAG, Qgis.Critical)
        for spec in ALGORITHMS.values():
            self.addAlgorithm(WetlandGISAlgorithm(spec, self))

    # -- what the algorithms read -----------------------------------------------------

    @property
    def described(self) -> bool:
        """Whether the package answered (its options are known)."""
        return bool(self._described)

    def options(self, command: str) -> dict[str, Any]:
        """Return the command line's options of ``command`` by flag (empty if unknown)."""
        return dict((self._described.get("commands") or {}).get(command) or {})

    def roles(self, command: str = "assess") -> list[dict[str, Any]]:
        """Return the field roles ``command`` reads (empty if unknown).

        ``assess``'s are those of the impact layer; ``impacts``'s those of its inputs,
        each with the ``input`` whose columns usually hold it.
        """
        key = "footprint_roles" if command == "impacts" else "roles"
        return list(self._described.get(key) or [])

    def field_map_flag(self, command: str = "assess") -> str | None:
        """Return the ``--field-map`` option of ``command``, when it has one."""
        flag = self._described.get("field_map_flag")
        return str(flag) if flag and flag in self.options(command) else None

    def field_flag(self, command: str = "assess") -> str | None:
        """Return the ``--field`` option of ``command``, when it has one."""
        flag = self._described.get("field_flag")
        return str(flag) if flag and flag in self.options(command) else None

    def interpreter(self) -> str:
        """Return the package's interpreter, or raise the message saying how to give it."""
        try:  # the setting may have changed since the provider was loaded
            python, _ = runner.find_python(_setting(PYTHON_SETTING), self.plugin_dir)
        except runner.CommandFailed as err:
            raise QgsProcessingException(str(err)) from err
        if self.error and python == self.python:
            raise QgsProcessingException(self.error)
        return python
