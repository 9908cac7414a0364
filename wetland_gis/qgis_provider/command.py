"""The QGIS algorithms' parameters as plain data, and the one function building the command.

Each algorithm of the provider is one ``wetland-gis`` command; each of its parameters is
an :class:`Option`: a QGIS parameter (its name, kind and label) bound to one option of the
command line (its flag, or a positional argument). The provider (:mod:`.provider`) makes
the QGIS parameters from these and turns their values into plain values (paths, text,
numbers); :func:`build_argv` turns those into the command's arguments. The choices and
defaults of an option, and its help text, are not repeated here: the provider reads them
from the command line's own parser (:mod:`.describe`), so the two cannot drift apart.

The column of each field role goes through :func:`field_args` alone, so that the form of
the option naming a column is decided in one place.

This module imports only the standard library: QGIS's Python reads it.

Examples
--------
>>> build_argv("map", {"ASSESSED": "a.gpkg", "OUTPUT": "map.html", "OVERWRITE": True})
['map', 'a.gpkg', '--overwrite', '--out', 'map.html']
>>> field_args({"impact_id": "PARCEL"}, {"impact_id": "--id-field"})
['--id-field', 'PARCEL']
>>> field_args({"impact_id": "PARCEL"}, {}, field_flag="--field")
['--field', 'impact_id=PARCEL']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

#: The kinds of parameter, as the provider makes them in QGIS.
KINDS = (
    "source",  # a vector layer QGIS has open (QgsProcessingParameterFeatureSource): its file
    "sources",  # vector layers (QgsProcessingParameterMultipleLayers): their files
    "file",  # a file (QgsProcessingParameterFile)
    "folder",  # a folder (QgsProcessingParameterFile, folder behaviour)
    "raster",  # a raster layer (QgsProcessingParameterRasterLayer): its file
    "date",  # a date (QgsProcessingParameterDateTime, date only): YYYY-MM-DD
    "bool",  # a check box: the flag alone when ticked
    "number",  # a number (QgsProcessingParameterNumber, double)
    "enum",  # one of the option's choices (QgsProcessingParameterEnum)
    "enums",  # several of them: the flag repeated
    "text",  # text (QgsProcessingParameterString); "texts": the flag repeated, ';'-separated
    "texts",
    "crs",  # a CRS (QgsProcessingParameterCrs): its authority id
    "field",  # a column of the layer of another parameter (QgsProcessingParameterField)
    "out_vector",  # the output GeoPackage (QgsProcessingParameterVectorDestination)
    "out_file",  # an output file (QgsProcessingParameterFileDestination)
    "out_folder",  # an output folder (QgsProcessingParameterFolderDestination)
)

#: The alternative of ``compare`` with no impact.
NO_BUILD = "no-build"


@dataclass(frozen=True)
class Option:
    """One parameter of an algorithm and the command-line option it gives.

    Attributes
    ----------
    name : str
        The QGIS parameter name (``processing.run(..., {name: value})``).
    kind : str
        One of :data:`KINDS`.
    label : str
        What the dialog shows (with the option's flag in brackets, so that a message
        naming the flag names the parameter too).
    flag : str or None
        The option (``--as-of``); ``None`` for the command's positional argument.
    layer_flag : str or None
        For a ``source``: the option naming the layer inside its GeoPackage (``--layer``);
        without one, a layer the command could not pick is exported to a file of its own.
    optional : bool
        Whether the parameter may be left empty.
    advanced : bool
        Shown under "Advanced parameters".
    filter : str
        For files: the file dialog's filter (``GeoPackage (*.gpkg)``).
    default : Any
        A default of the provider's own (else the command line's default, or none).
    parent : str or None
        For a ``field``: the parameter whose layer's columns it lists (``DRAINAGE``).
    """

    name: str
    kind: str
    label: str
    flag: str | None = None
    layer_flag: str | None = None
    optional: bool = True
    advanced: bool = False
    filter: str = ""
    default: Any = None
    parent: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if (self.kind == "field") != (self.parent is not None):
            raise ValueError(f"{self.name}: a field parameter, and only one, names its parent")


@dataclass(frozen=True)
class Algorithm:
    """One algorithm of the provider: a ``wetland-gis`` command and its parameters.

    Attributes
    ----------
    command : str
        The sub-command (``assess``) and the algorithm's id (``wetland_gis:assess``).
    title : str
        The name shown in the toolbox.
    summary : str
        The first lines of the algorithm's help.
    options : tuple of Option
        Its parameters, in the dialog's order.
    fields : bool
        Whether it has a field parameter per field role the command reads.
    field_parents : tuple of (str, str)
        With ``fields``: the parameter whose layer's columns each role's field parameter
        lists, by the input the package reads the role from (the ``input`` of the roles
        :mod:`.describe` gives; ``""``: every role). A role whose input is not here gets
        no field parameter (a field-map file still names it).
    loads : tuple of str
        The layers of its output GeoPackage loaded into the project (styled).
    steps : int
        How many progress events a run gives before writing (for the progress bar).
    """

    command: str
    title: str
    summary: str
    options: tuple[Option, ...]
    fields: bool = False
    field_parents: tuple[tuple[str, str], ...] = (("", "IMPACTS"),)
    loads: tuple[str, ...] = ()
    steps: int = 1

    def option(self, name: str) -> Option:
        """Return the option named ``name``."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def field_parent(self, role_input: str | None) -> str | None:
        """Return the parameter whose columns lists the field of a role read from ``role_input``.

        Examples
        --------
        >>> ALGORITHMS["assess"].field_parent("wetlands")
        'IMPACTS'
        >>> ALGORITHMS["impacts"].field_parent("wetlands")
        'WETLANDS'
        >>> ALGORITHMS["impacts"].field_parent(None) is None
        True
        """
        parents = dict(self.field_parents)
        if "" in parents:
            return parents[""]
        return parents.get(role_input) if role_input else None


_GPKG = "GeoPackage (*.gpkg *.GPKG)"
_YAML = "YAML (*.yaml *.yml)"
_CONTEXT = (
    Option("CONTEXT", "file", "Context layers: GeoPackage (--context)", "--context", filter=_GPKG),
    Option(
        "CONTEXT_FOLDER",
        "folder",
        "Context layers: folder, instead of a GeoPackage (--context)",
        "--context",
    ),
)
_AS_OF = Option("AS_OF", "date", "Application date (--as-of; empty: today)", "--as-of")
_ASSESSED = Option(
    "ASSESSED",
    "file",
    "Assessed GeoPackage (the output of 'Assess impacts')",
    optional=False,
    filter=_GPKG,
)
_SITING = Option(
    "SITING", "folder", "Siting folder (the output of 'Site replacement') (--siting)", "--siting"
)
_PARAMETERS = Option(
    "PARAMETERS",
    "file",
    "Parameter YAML replacing the shipped one (--parameters)",
    "--parameters",
    advanced=True,
    filter=_YAML,
)
_CLAUSE = Option(
    "CLAUSE_READING",
    "enum",
    "Subd. 9(e) reading (--reading=clause_reading)",
    "--reading=clause_reading",
    advanced=True,
)
_SCOPE = Option(
    "EXEMPTION_SCOPE_READING",
    "enum",
    "Minn. R. 8420.0420, subp. 1 C reading (--reading=exemption_scope_reading)",
    "--reading=exemption_scope_reading",
    advanced=True,
)
_UNIT = Option(
    "EXEMPTION_UNIT_READING",
    "enum",
    "Subd. 11(b): the clauses of one subdivision (--reading=exemption_unit_reading)",
    "--reading=exemption_unit_reading",
    advanced=True,
)
_CUMULATIVE = Option(
    "CUMULATIVE_LIMIT_READING",
    "enum",
    "Subd. 9(f): a cumulative area exactly at the limit (--reading=cumulative_limit_reading)",
    "--reading=cumulative_limit_reading",
    advanced=True,
)
_ASSUME_CRS = Option(
    "ASSUME_CRS",
    "crs",
    "CRS of an input layer that has none (--assume-crs)",
    "--assume-crs",
    advanced=True,
)
_OVERRIDE_CRS = Option(
    "OVERRIDE_CRS",
    "crs",
    "CRS replacing a wrong .prj of the input layer (--override-crs)",
    "--override-crs",
    advanced=True,
)
_BANKS = Option(
    "BANKS",
    "file",
    "Wetland bank credit listing (--banks)",
    "--banks",
    filter="Bank listing (*.csv *.gpkg)",
)
_ADJUSTMENTS = Option(
    "ADJUSTMENTS",
    "file",
    "Ratio adjustment table (--adjustments)",
    "--adjustments",
    advanced=True,
    filter=_YAML,
)
_STRICT = Option(
    "STRICT",
    "bool",
    "Fail when a row is not assessed or the layer is empty (--strict)",
    "--strict",
    advanced=True,
    default=False,
)
_WETLANDS = Option(
    "WETLANDS",
    "source",
    "Wetland delineation, or NWI polygons for a screening (--wetlands)",
    "--wetlands",
    layer_flag="--input-layer=wetlands",
    optional=False,
)
_WETLANDS_SOURCE = Option(
    "WETLANDS_SOURCE",
    "enum",
    "Wetland layer: a delineation or NWI (--wetlands-source)",
    "--wetlands-source",
    advanced=True,
)
#: The inputs the impacts are cut from beside the construction limits and the wetlands
#: (issue 35): of ``impacts``, and of ``compare`` given the wetlands.
_FOOTPRINT_INPUTS = (
    Option(
        "EXISTING",
        "source",
        "Existing developed ground, no new impact, e.g. the road (--existing)",
        "--existing",
        layer_flag="--input-layer=existing",
    ),
    Option(
        "DRAINAGE",
        "source",
        "Ditches or tile: lines (--drainage)",
        "--drainage",
        layer_flag="--input-layer=drainage",
    ),
    Option(
        "LATERAL_EFFECT_FT",
        "number",
        "Lateral effect distance, feet, of lines without one (--lateral-effect-ft)",
        "--lateral-effect-ft",
    ),
    Option(
        "PARCELS",
        "source",
        "Parcels with an owner column (--parcels)",
        "--parcels",
        layer_flag="--input-layer=parcels",
    ),
)
_OVERWRITE = Option(
    "OVERWRITE",
    "bool",
    "Replace existing outputs that wetland_gis did not write there (--overwrite)",
    "--overwrite",
    default=False,
)

#: The provider's algorithms, by command.
ALGORITHMS: dict[str, Algorithm] = {
    a.command: a
    for a in (
        Algorithm(
            "assess",
            "Assess impacts",
            "Classify impact polygons and decide de minimis, the other exemptions of "
            "§ 103G.2241, the replacement ratio and the credits required (Minn. Stat. "
            "ch. 103G), each step with its statute paragraph.",
            (
                Option(
                    "IMPACTS",
                    "source",
                    "Impact polygons",
                    layer_flag="--layer",
                    optional=False,
                ),
                *_CONTEXT,
                _AS_OF,
                Option("CLAIM", "enums", "Claims a person confirms (--claim)", "--claim"),
                Option(
                    "SHORELAND_CLASSES",
                    "file",
                    "DNR basin shoreland classification list (--shoreland-classes)",
                    "--shoreland-classes",
                    filter="CSV (*.csv)",
                ),
                Option(
                    "SHORELAND_CLASS_SOURCE",
                    "enum",
                    "Shoreland class source (--shoreland-class-source)",
                    "--shoreland-class-source",
                    advanced=True,
                ),
                Option(
                    "ASSUME_NO_PUBLIC_WATERS",
                    "bool",
                    "No public waters near the project (--assume-no-public-waters)",
                    "--assume-no-public-waters",
                    default=False,
                ),
                Option(
                    "LOCAL_LIMIT_SQFT",
                    "number",
                    "Local de minimis limit, sq ft, subd. 9(i) (--local-limit-sqft)",
                    "--local-limit-sqft",
                    advanced=True,
                ),
                Option(
                    "TOLERANCE_PERCENT",
                    "number",
                    "Warn within this percent of a threshold (--tolerance-percent)",
                    "--tolerance-percent",
                    advanced=True,
                ),
                _CLAUSE,
                _SCOPE,
                _UNIT,
                _CUMULATIVE,
                _PARAMETERS,
                _ASSUME_CRS,
                _OVERRIDE_CRS,
                Option(
                    "REGISTER",
                    "text",
                    "Decision register: GeoPackage path or postgresql:// URL (--register)",
                    "--register",
                    advanced=True,
                ),
                _STRICT,
                _OVERWRITE,
                Option("OUTPUT", "out_vector", "Assessed impacts (--out)", "--out", optional=False),
            ),
            fields=True,
            loads=("impacts", "shoreland_zones"),
            steps=6,
        ),
        Algorithm(
            "impacts",
            "Cut impacts from construction limits",
            "Cut the impact polygons from the construction limits and the wetland delineation "
            "(or NWI polygons, a screening): each part within each wetland, less the existing "
            "ground, a temporary part only where no permanent part lies, with the columns "
            "'Assess impacts' reads (docs/footprint.md). Its output is the impact layer of "
            "'Assess impacts'.",
            (
                Option(
                    "FOOTPRINT",
                    "source",
                    "Construction limits: polygons, one row a part",
                    layer_flag="--layer",
                    optional=False,
                ),
                _WETLANDS,
                *_FOOTPRINT_INPUTS,
                Option(
                    "LATERAL_EFFECT_FT_FIELD",
                    "field",
                    "Drainage column of each line's lateral effect distance, feet "
                    "(--lateral-effect-ft-field)",
                    "--lateral-effect-ft-field",
                    advanced=True,
                    parent="DRAINAGE",
                ),
                _WETLANDS_SOURCE,
                _ASSUME_CRS,
                _OVERRIDE_CRS,
                _STRICT,
                _OVERWRITE,
                Option("OUTPUT", "out_vector", "Impact layer (--out)", "--out", optional=False),
            ),
            fields=True,
            field_parents=(
                ("footprint", "FOOTPRINT"),
                ("wetlands", "WETLANDS"),
                ("parcels", "PARCELS"),
            ),
            loads=("impacts", "footprint"),
            steps=3,
        ),
        Algorithm(
            "site",
            "Site replacement",
            "Rank candidate replacement sites and bank credits by the siting priority of "
            "§ 103G.222, subd. 3, and allocate credits to the impacts that need replacement.",
            (
                _ASSESSED,
                Option("SITES", "source", "Candidate replacement sites (--sites)", "--sites"),
                _BANKS,
                *_CONTEXT,
                Option("DEM", "raster", "DEM of the sites (--dem)", "--dem", advanced=True),
                _ADJUSTMENTS,
                _AS_OF,
                _STRICT,
                _OVERWRITE,
                Option(
                    "OUTPUT",
                    "out_folder",
                    "Siting folder (--out-dir)",
                    "--out-dir",
                    optional=False,
                ),
            ),
            loads=("sites", "banks"),
        ),
        Algorithm(
            "map",
            "TEP map",
            "Write the self-contained TEP review map (HTML, works offline).",
            (
                _ASSESSED,
                _SITING,
                *_CONTEXT,
                Option(
                    "BASEMAP",
                    "text",
                    "Basemap: none (offline) or a tile name (--basemap)",
                    "--basemap",
                    advanced=True,
                ),
                _OVERWRITE,
                Option(
                    "OUTPUT",
                    "out_file",
                    "TEP map (--out)",
                    "--out",
                    optional=False,
                    filter="HTML (*.html)",
                ),
            ),
        ),
        Algorithm(
            "report",
            "TEP report",
            "Write the TEP report (HTML) and, when a PDF is asked for, its PDF.",
            (
                _ASSESSED,
                _SITING,
                Option(
                    "MAP",
                    "file",
                    "TEP map to embed (--map)",
                    "--map",
                    filter="HTML (*.html)",
                ),
                *_CONTEXT,
                _OVERWRITE,
                Option(
                    "OUTPUT",
                    "out_file",
                    "TEP report (--out)",
                    "--out",
                    optional=False,
                    filter="HTML (*.html)",
                ),
                Option(
                    "PDF", "out_file", "PDF of the report (--pdf)", "--pdf", filter="PDF (*.pdf)"
                ),
            ),
        ),
        Algorithm(
            "compare",
            "Compare alternatives",
            "Sequencing (§ 103G.222, subd. 1(b); Minn. R. 8420.0520): assess each "
            "alternative of one project alike, the applicant's preferred one first, and "
            "compare them.",
            (
                Option(
                    "ALTERNATIVES",
                    "sources",
                    "Impact layer of each alternative, the preferred first (with --wetlands: "
                    "its construction limits)",
                    optional=False,
                ),
                Option(
                    "NO_BUILD",
                    "bool",
                    "Add the no-build alternative (no impact)",
                    default=False,
                ),
                Option(
                    "NAMES",
                    "texts",
                    "Names of the alternatives, in order, separated by ';' (--name)",
                    "--name",
                ),
                replace(
                    _WETLANDS,
                    label="With it, each alternative is construction limits: the wetland "
                    "delineation or NWI polygons (--wetlands)",
                    optional=True,
                ),
                *_FOOTPRINT_INPUTS,
                _WETLANDS_SOURCE,
                *_CONTEXT,
                _AS_OF,
                Option("SITES", "source", "Candidate replacement sites (--sites)", "--sites"),
                _BANKS,
                _ADJUSTMENTS,
                _PARAMETERS,
                _CLAUSE,
                _SCOPE,
                _UNIT,
                _CUMULATIVE,
                Option(
                    "ASSUME_CRS",
                    "crs",
                    "CRS of an input layer that has none (--assume-crs)",
                    "--assume-crs",
                    advanced=True,
                ),
                _STRICT,
                _OVERWRITE,
                Option(
                    "OUTPUT",
                    "out_folder",
                    "Comparison folder (--out)",
                    "--out",
                    optional=False,
                ),
            ),
            loads=(),
        ),
        Algorithm(
            "water-use",
            "Water appropriation (§ 103G.271)",
            "Screen points of water appropriation under § 103G.271: permit required or not, "
            "the restrictions on new permits and the processing fee, in both editions held.",
            (
                Option(
                    "POINTS",
                    "source",
                    "Points of appropriation",
                    layer_flag="--layer",
                    optional=False,
                ),
                _AS_OF,
                Option(
                    "AQUIFER",
                    "source",
                    "Mt. Simon-Hinckley aquifer extent (--aquifer)",
                    "--aquifer",
                    layer_flag="--aquifer-layer",
                ),
                *_CONTEXT,
                Option(
                    "BOUNDARY_READING",
                    "enum",
                    "Fee at an exact subd. 6(a) boundary (--boundary-reading)",
                    "--boundary-reading",
                    advanced=True,
                ),
                Option(
                    "IRRIGATION_MINIMUM_READING",
                    "enum",
                    "Subd. 6(f) minimum (--irrigation-minimum-reading)",
                    "--irrigation-minimum-reading",
                    advanced=True,
                ),
                Option(
                    "PARAMETERS",
                    "file",
                    "Parameter YAML replacing the shipped water_use.yaml (--parameters)",
                    "--parameters",
                    advanced=True,
                    filter=_YAML,
                ),
                _ASSUME_CRS,
                _OVERRIDE_CRS,
                _STRICT,
                _OVERWRITE,
                Option(
                    "OUTPUT",
                    "out_vector",
                    "Screened appropriations (--out)",
                    "--out",
                    optional=False,
                ),
                Option("MAP", "out_file", "Map (--map)", "--map", filter="HTML (*.html)"),
            ),
            loads=("appropriations",),
        ),
    )
}


def _blank(value: Any) -> bool:
    return value is None or value == "" or value is False or value == [] or value == ()


def build_argv(
    command: str,
    values: Mapping[str, Any],
    *,
    fields: Mapping[str, str] | None = None,
    role_flags: Mapping[str, str] | None = None,
    field_flag: str | None = None,
    field_map: str | None = None,
    field_map_flag: str | None = None,
) -> list[str]:
    """Return the arguments of ``wetland-gis`` for an algorithm's resolved values.

    Parameters
    ----------
    command : str
        The algorithm (a key of :data:`ALGORITHMS`).
    values : mapping
        Parameter name to its plain value: a path or text (``str``), a number, ``True``
        for a ticked box, a list for ``sources``, ``enums`` and ``texts``; for a
        ``source`` with a ``layer_flag``, a ``(path, layer)`` pair. Empty values
        (``None``, ``""``, ``False``, ``[]``) give no argument.
    fields, role_flags, field_flag, field_map, field_map_flag
        The column of each field role, as :func:`field_args`.

    Returns
    -------
    list of str
        The sub-command, its positional arguments, then its options (the ``wetland-gis``
        arguments after the program name).

    Raises
    ------
    ValueError
        For an unknown parameter name, or both a context GeoPackage and a context folder.
    """
    algorithm = ALGORITHMS[command]
    known = {opt.name for opt in algorithm.options}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"{command}: unknown parameter(s) {', '.join(sorted(unknown))}")
    if not _blank(values.get("CONTEXT")) and not _blank(values.get("CONTEXT_FOLDER")):
        raise ValueError(
            "give the context layers either as a GeoPackage (CONTEXT) or as a folder "
            "(CONTEXT_FOLDER), not both"
        )
    positional: list[str] = []
    flags: list[str] = []
    for opt in algorithm.options:
        value = values.get(opt.name)
        if _blank(value):
            continue
        if opt.kind == "bool":  # a box ticked: its flag, or the no-build alternative
            (flags if opt.flag else positional).append(opt.flag or NO_BUILD)
            continue
        if opt.kind in ("sources", "enums", "texts"):
            for item in value or ():
                if opt.flag is None:
                    positional.append(str(item))
                else:
                    flags += [opt.flag, str(item)]
            continue
        layer = None
        if opt.kind == "source" and isinstance(value, (tuple, list)):
            value, layer = value
            if layer and not opt.layer_flag:
                raise ValueError(f"{command}: {opt.name} cannot name a layer: give its file")
        if opt.flag is None:
            positional.append(_text(value))
        else:
            flags += option_args(opt.flag, _text(value))
        if layer and opt.layer_flag:
            flags += option_args(opt.layer_flag, str(layer))
    roles = field_args(fields or {}, role_flags or {}, field_flag, field_map, field_map_flag)
    return [command, *positional, *flags, *roles]


def option_args(flag: str, value: str) -> list[str]:
    """Return the arguments giving ``value`` to ``flag``; a keyed flag takes ``KEY=VALUE``.

    A flag written ``--reading=clause_reading`` stands for the key ``clause_reading`` of the
    repeatable ``--reading NAME=VALUE`` (``--input-layer INPUT=LAYER`` alike).

    Examples
    --------
    >>> option_args("--as-of", "2024-05-01")
    ['--as-of', '2024-05-01']
    >>> option_args("--input-layer=wetlands", "delineation")
    ['--input-layer', 'wetlands=delineation']
    """
    option, eq, key = flag.partition("=")
    return [option, f"{key}={value}"] if eq else [flag, value]


def _text(value: Any) -> str:
    """Return a number without a needless ``.0``, and anything else as text."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def field_args(
    fields: Mapping[str, str],
    role_flags: Mapping[str, str],
    field_flag: str | None = None,
    field_map: str | None = None,
    field_map_flag: str | None = None,
) -> list[str]:
    """Return the options naming the column of each field role.

    Parameters
    ----------
    fields : mapping
        Role (``impact_id``) to the column holding it; empty columns are left out (the
        command then matches the role's accepted names itself).
    role_flags : mapping
        The command line's option of each role (``impact_id`` -> ``--id-field``).
    field_flag : str, optional
        The command line's one repeatable option ``--field ROLE=COLUMN``, when it has one
        (then used for every role).
    field_map, field_map_flag : str, optional
        A field-map file (role to column) and the command line's option reading it
        (``--field-map FILE``), when it has one; the roles in ``fields`` follow it.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        For a role the command line has no option for, or a field-map file without the
        option to read it.
    """
    out: list[str] = []
    if field_map:
        if not field_map_flag:
            raise ValueError("this version of wetland-gis reads no field-map file")
        out += [field_map_flag, field_map]
    for role, column in fields.items():
        if not column:
            continue
        if field_flag:
            out += [field_flag, f"{role}={column}"]
        elif role in role_flags:
            out += [role_flags[role], str(column)]
        else:
            raise ValueError(f"the command line has no option for the field role {role!r}")
    return out


def field_parameter(role: str) -> str:
    """Return the QGIS parameter name of a field role (``impact_id`` -> ``FIELD_IMPACT_ID``).

    Examples
    --------
    >>> field_parameter("impact_id")
    'FIELD_IMPACT_ID'
    """
    return f"FIELD_{role.upper()}"


def split_texts(value: str | Sequence[str] | None) -> list[str]:
    """Return the items of a ``texts`` value: a list as it is, a text split on ``;``.

    Examples
    --------
    >>> split_texts("preferred; reduced ;")
    ['preferred', 'reduced']
    """
    if value is None:
        return []
    items = value.split(";") if isinstance(value, str) else list(value)
    return [s.strip() for s in items if s and s.strip()]
