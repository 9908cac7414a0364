"""The registry of context layers: what each must hold and how it classifies an impact.

One :class:`LayerSpec` per reference layer is the single description every stage reads:
:func:`wetland_gis.context.load_context` finds, reads and validates a layer by its spec
(geometry kind, fields, types, allowed values),
:func:`wetland_gis.geometry.classify.classify_impacts` runs the classification the spec
names and writes the impact columns the spec lists, and the TEP map draws the layers whose
spec has a :class:`MapStyle`. Adding a layer is one entry in :data:`LAYER_SPECS` and, when
none of the generic methods fits, one classification rule (see ``CONTRIBUTING.md``, "Add a
context layer").

This module holds plain values only: it imports no geometry library.

Examples
--------
>>> spec = LAYER_SPECS["drainage_systems"]
>>> spec.geometry, spec.method, spec.required
('line or polygon', 'any_overlap', ('system_id',))
>>> [c.name for c in spec.columns]
['drainage_system']
>>> IMPACT_COLUMNS[:4]
('area_sqft', 'area_acres', 'county', 'counties')
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from wetland_gis.enums import PercentageArea

if TYPE_CHECKING:
    import geopandas as gpd

BASIN_CLASSES = ("natural_environment", "recreational_development", "general_development")
"""Shoreland management classes of public water basins (Minn. R. 6120.3000)."""

WATERCOURSE_CLASSES = ("remote", "forested", "transition", "agricultural", "urban", "tributary")
"""Shoreland management classes of public watercourses (Minn. R. 6120.3000)."""

SHORE_CLASS_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "ne": "natural_environment",
        "nat_env": "natural_environment",
        "natural_environment_lake": "natural_environment",
        "rd": "recreational_development",
        "rec_dev": "recreational_development",
        "recreational_development_lake": "recreational_development",
        "gd": "general_development",
        "gen_dev": "general_development",
        "general_development_lake": "general_development",
        "rem": "remote",
        "remote_river": "remote",
        "forested_river": "forested",
        "transition_river": "transition",
        "ag": "agricultural",
        "agricultural_river": "agricultural",
        "urban_river": "urban",
        "trib": "tributary",
        "tributary_river": "tributary",
    }
)
"""Common spellings of the shoreland classes in DNR and county data -> documented value."""

PCT_CLASS_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "greater_than_80": PercentageArea.GREATER_THAN_80.value,
        ">80": PercentageArea.GREATER_THAN_80.value,
        "50_to_80": PercentageArea.FROM_50_TO_80.value,
        "from_50_to_80": PercentageArea.FROM_50_TO_80.value,
        "less_than_50": PercentageArea.LESS_THAN_50.value,
        "<50": PercentageArea.LESS_THAN_50.value,
    }
)
"""Common spellings of the percentage-area classes -> :class:`PercentageArea` value."""

MAJOR_WATERSHED_IDS = (1, 81)
"""First and last DNR major watershed number (the 81 Level 4 watersheds)."""

GEOMETRY_KINDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "polygon": frozenset({"Polygon", "MultiPolygon"}),
        "line": frozenset({"LineString", "MultiLineString", "LinearRing"}),
        "line or polygon": frozenset(
            {"Polygon", "MultiPolygon", "LineString", "MultiLineString", "LinearRing"}
        ),
    }
)
"""Geometry kind of a spec -> the geometry types a layer of that kind may hold."""

FIELD_TYPES = ("str", "int", "float", "bool", "id")
"""Field types: text, whole number, number, true/false, text id (``86.0`` reads ``"86"``)."""

COLUMN_DTYPES = ("object", "float", "boolean", "Int64")
"""pandas dtypes of the impact columns (``object`` = text)."""

LARGEST_OVERLAP = "largest_overlap"
"""Each column takes the value of the layer feature covering most of the impact."""

ANY_OVERLAP = "any_overlap"
"""The impact touches (intersects, distance 0) one or more features of the layer: a
``boolean`` column says whether; a text column lists the touched features' ids."""

DISTANCE = "distance"
"""The impact is measured against the layer by distance (a rule of its own)."""

METHODS = (LARGEST_OVERLAP, ANY_OVERLAP, DISTANCE)
"""How a layer classifies an impact."""


def _check_known(owner: str, attribute: str, value: str, known: Collection[str]) -> None:
    """Raise ValueError when a spec's ``attribute`` is not one of the ``known`` values."""
    if value not in known:
        raise ValueError(f"{owner}: {attribute} {value!r} not in {tuple(known)}")


@dataclass(frozen=True)
class FieldSpec:
    """One field of a context layer.

    Parameters
    ----------
    name : str
        The documented name (matched case-insensitively on input; a name cut to 10
        characters by a shapefile is recognised).
    type : str
        One of :data:`FIELD_TYPES`; values are coerced to it when the layer is read.
    required : bool, default False
        A required field must be present and filled in every feature.
    allowed : tuple of str
        The values it may take after normalisation (empty: any).
    aliases : Mapping[str, str]
        Other spellings normalised to an allowed value (e.g. ``"GD"``).
    bounds : (int, int), optional
        Inclusive range of a whole number.
    hint : str
        Added to the "missing required field" message (another way to supply it).
    """

    name: str
    type: str = "str"
    required: bool = False
    allowed: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)
    bounds: tuple[int, int] | None = None
    hint: str = ""

    def __post_init__(self) -> None:
        """Check the type is known."""
        _check_known(f"field {self.name!r}", "type", self.type, FIELD_TYPES)


@dataclass(frozen=True)
class ImpactColumn:
    """One column a layer's classification adds to the impacts table.

    Parameters
    ----------
    name : str
        Column name on the impacts table (``docs/data_schema.md``).
    dtype : str
        One of :data:`COLUMN_DTYPES`; the empty value of a missing layer follows it.
    field : str, optional
        The layer field the value is taken from (generic methods); for an
        :data:`ANY_OVERLAP` text column, the id field listed.
    """

    name: str
    dtype: str = "object"
    field: str | None = None

    def __post_init__(self) -> None:
        """Check the dtype is known."""
        _check_known(f"column {self.name!r}", "dtype", self.dtype, COLUMN_DTYPES)


@dataclass(frozen=True)
class MapStyle:
    """How a reference layer is drawn on the TEP map (:mod:`wetland_gis.mapping`).

    Parameters
    ----------
    title : str
        Name in the layer control and legend.
    noun : str
        What one feature is, for its tooltip (``"County"``).
    label_fields : tuple of str
        Attribute columns shown in the tooltip (matched case-insensitively).
    color : str
        Line colour.
    weight : float
        Line width in pixels.
    dash : str or None
        SVG dash pattern.
    boundaries : bool
        Draw polygon outlines only (as lines), so clipping to the project extent leaves
        no false edges; False draws filled polygons.
    fill : str or None
        Fill colour when ``boundaries`` is False.
    stack : int
        Drawing order, bottom (low) to top (high).
    """

    title: str
    noun: str
    label_fields: tuple[str, ...]
    color: str
    weight: float
    dash: str | None = None
    boundaries: bool = True
    fill: str | None = None
    stack: int = 0


@dataclass(frozen=True)
class LayerSpec:
    """What one context layer holds and how it classifies an impact.

    Parameters
    ----------
    name : str
        The layer name (GeoPackage layer or ``<name>.<ext>`` file of the context).
    geometry : str
        A key of :data:`GEOMETRY_KINDS`.
    fields : tuple of FieldSpec
        The documented fields, required ones first.
    method : str
        One of :data:`METHODS`.
    columns : tuple of ImpactColumn
        The impact columns this layer's classification writes (may be empty when the
        layer refines another's columns or feeds a rule of several layers).
    rule : str, optional
        Name of the classification rule in :mod:`wetland_gis.geometry.classify`; by
        default the generic rule of ``method``, run for each layer. A named rule shared
        by several layers runs once, at the first of them in registry order.
    purpose : str
        What the layer is for, for docs and the "layer not given" record.
    unknown_note : str
        Added to the record when the layer is not given (what was not screened).
    geometry_hint : str
        Added to the "wrong geometry" message (which features to export).
    verify_note : str
        For an :data:`ANY_OVERLAP` layer with a text column: the verify item of an
        impact touching a feature, ``{ids}`` standing for the ids touched. It joins the
        impact's ``facts.context`` trace step (with the ids in its inputs).
    verify_kinds : tuple of str
        The impact kinds (:class:`~wetland_gis.enums.ImpactKind` values) the item is for;
        empty: every kind.
    map : MapStyle, optional
        Drawn on the TEP map when given.
    """

    name: str
    geometry: str
    fields: tuple[FieldSpec, ...]
    method: str
    columns: tuple[ImpactColumn, ...] = ()
    rule: str | None = None
    purpose: str = ""
    unknown_note: str = ""
    geometry_hint: str = ""
    verify_note: str = ""
    verify_kinds: tuple[str, ...] = ()
    map: MapStyle | None = None

    def __post_init__(self) -> None:
        """Check the geometry kind and method are known."""
        _check_known(f"layer {self.name!r}", "geometry", self.geometry, GEOMETRY_KINDS)
        _check_known(f"layer {self.name!r}", "method", self.method, METHODS)
        if self.verify_note and not (self.method == ANY_OVERLAP and self.id_column):
            raise ValueError(f"layer {self.name!r}: a verify_note needs an any_overlap id column")

    @property
    def id_column(self) -> str | None:
        """Return the text column listing the touched features' ids (any overlap), if any."""
        for column in self.columns:
            if column.dtype == "object" and column.field is not None:
                return column.name
        return None

    @property
    def classifier(self) -> str:
        """Return the name of the classification rule (``rule`` or ``method``)."""
        return self.rule or self.method

    @property
    def required(self) -> tuple[str, ...]:
        """Return the names of the required fields."""
        return tuple(f.name for f in self.fields if f.required)

    @property
    def optional(self) -> tuple[str, ...]:
        """Return the names of the optional fields."""
        return tuple(f.name for f in self.fields if not f.required)

    @property
    def field_names(self) -> tuple[str, ...]:
        """Return the required then the optional field names."""
        return self.required + self.optional

    @property
    def types(self) -> dict[str, str]:
        """Return field name -> type."""
        return {f.name: f.type for f in self.fields}

    @property
    def allowed(self) -> dict[str, tuple[str, ...]]:
        """Return field name -> allowed values, for the fields that restrict them."""
        return {f.name: f.allowed for f in self.fields if f.allowed}

    def field(self, name: str) -> FieldSpec:
        """Return the spec of field ``name``.

        Raises
        ------
        KeyError
            When the layer has no such field.
        """
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"layer {self.name!r} has no field {name!r}")


def _required(
    name: str,
    type_: str = "str",
    *,
    allowed: tuple[str, ...] = (),
    aliases: Mapping[str, str] | None = None,
    bounds: tuple[int, int] | None = None,
    hint: str = "",
) -> FieldSpec:
    """Return a required :class:`FieldSpec`."""
    return FieldSpec(name, type_, True, allowed, dict(aliases or {}), bounds, hint)


_SHORE_CLASS_HINT = (
    ", or give the DNR basin shoreland classification list "
    "(--shoreland-classes CSV, or shoreland_classes=) to fill it by DOW number."
)

_SPECS = (
    LayerSpec(
        "counties",
        "polygon",
        (_required("NAME"), FieldSpec("COUNTYFP"), FieldSpec("GEOID")),
        LARGEST_OVERLAP,
        (
            ImpactColumn("county"),
            ImpactColumn("counties"),
            ImpactColumn("metro", "boolean"),
            ImpactColumn("pct_class"),
            ImpactColumn("pct_source"),
        ),
        rule="county",
        purpose="county, metropolitan area and percentage class (Minn. R. 8420.0117)",
        map=MapStyle("County boundaries", "County", ("NAME",), "#333333", 2.6, stack=7),
    ),
    LayerSpec(
        "percentage_overrides",
        "polygon",
        (
            _required(
                "pct_class",
                allowed=tuple(p.value for p in PercentageArea),
                aliases=PCT_CLASS_ALIASES,
            ),
            _required("citation"),
            FieldSpec("major", "int", bounds=MAJOR_WATERSHED_IDS),
        ),
        LARGEST_OVERLAP,
        rule="percentage_override",
        purpose="watersheds or bank service areas classed apart from their county",
    ),
    LayerSpec(
        "major_watersheds",
        "polygon",
        (_required("major", "int", bounds=MAJOR_WATERSHED_IDS), _required("major_name")),
        LARGEST_OVERLAP,
        (ImpactColumn("major", "Int64", "major"), ImpactColumn("major_name", field="major_name")),
        purpose="DNR major watershed (siting priority, § 103G.222, subd. 3)",
        map=MapStyle(
            "Major watershed boundaries",
            "Major watershed",
            ("major", "major_name"),
            "#8C510A",
            2.2,
            "9 4",
            stack=5,
        ),
    ),
    LayerSpec(
        "minor_watersheds",
        "polygon",
        (_required("minor", "id"), FieldSpec("major", "int", bounds=MAJOR_WATERSHED_IDS)),
        LARGEST_OVERLAP,
        (ImpactColumn("minor", field="minor"),),
        purpose="DNR minor watershed (siting priority, § 103G.222, subd. 3)",
        map=MapStyle(
            "Minor watershed boundaries",
            "Minor watershed",
            ("minor",),
            "#A6761D",
            1.2,
            "2 4",
            stack=4,
        ),
    ),
    LayerSpec(
        "bank_service_areas",
        "polygon",
        (_required("bsa", "int"), FieldSpec("bsa_name")),
        LARGEST_OVERLAP,
        (ImpactColumn("bsa", "Int64", "bsa"),),
        purpose="BWSR bank service area (siting priority, § 103G.222, subd. 3)",
        map=MapStyle(
            "Bank service area boundaries",
            "Bank service area",
            ("bsa", "bsa_name"),
            "#762A83",
            2.2,
            "12 4 2 4",
            stack=6,
        ),
    ),
    LayerSpec(
        "incorporated_areas",
        "polygon",
        (_required("name"),),
        LARGEST_OVERLAP,
        (ImpactColumn("incorporated", "boolean"),),
        rule="jurisdiction",
        purpose="cities (incorporated or not, for the shoreland ordinance in force)",
    ),
    LayerSpec(
        "lgus",
        "polygon",
        (
            _required("lgu_name"),
            _required("shoreland_ordinance", "bool"),
            FieldSpec("setback_ft", "float"),
        ),
        LARGEST_OVERLAP,
        rule="jurisdiction",
        purpose="local government units and their shoreland ordinance",
    ),
    LayerSpec(
        "calcareous_fens",
        "polygon",
        (_required("fen_name"),),
        ANY_OVERLAP,
        (ImpactColumn("calcareous_fen", "boolean"),),
        purpose="calcareous fens (§ 103G.223)",
    ),
    LayerSpec(
        "public_waters_wetlands",
        "polygon",
        (_required("pw_id", "id"),),
        ANY_OVERLAP,
        (ImpactColumn("pw_wetland", field="pw_id"),),
        purpose=(
            "wetlands of the DNR public waters inventory (§ 103G.201): an impact touching "
            "one is a public waters wetland whatever its size"
        ),
    ),
    LayerSpec(
        "drainage_systems",
        "line or polygon",
        (_required("system_id", "id"), FieldSpec("authority")),
        ANY_OVERLAP,
        (ImpactColumn("drainage_system", field="system_id"),),
        purpose="public drainage systems (§ 103G.2241, subd. 2)",
        unknown_note=(
            "whether an impact is on a public drainage system, Minn. Stat. § 103G.2241, "
            "subd. 2, was not screened"
        ),
        verify_note=(
            "the impact touches public drainage system {ids} (layer drainage_systems): the "
            "drainage exemptions of Minn. Stat. § 103G.2241, subd. 2 need facts no layer holds: "
            "for subd. 2(b), whether the land has been assessed drainage benefits for the system "
            "and the system's expenditure, repair or maintenance history that subd. 2(b)(1) "
            "requires; for subd. 2(c), whether the draining or filling results from maintenance "
            "and repair of the existing public drainage system; verify with the drainage "
            "authority"
        ),
        verify_kinds=("drain", "unknown"),
        map=MapStyle(
            "Public drainage systems",
            "Public drainage system",
            ("system_id", "authority"),
            "#1B7837",
            2.0,
            "6 3",
            stack=3,
        ),
    ),
    LayerSpec(
        "conservation_easements",
        "polygon",
        (_required("easement_id", "id"), FieldSpec("program"), FieldSpec("holder")),
        ANY_OVERLAP,
        (ImpactColumn("conservation_easement", field="easement_id"),),
        purpose="state-funded conservation easements (§ 103G.2251; e.g. BWSR RIM Reserve)",
        unknown_note="whether an impact lies in a conservation easement was not screened",
        verify_note=(
            "the impact lies in conservation easement {ids} (layer conservation_easements): "
            "the easement's terms, not the Wetland Conservation Act, say whether it may be "
            "drained or filled at all; verify them with the easement holder (an easement "
            "under § 103G.2251 is held by the Board of Water and Soil Resources)"
        ),
        map=MapStyle(
            "Conservation easements",
            "Conservation easement",
            ("easement_id", "program", "holder"),
            "#4D9221",
            1.5,
            boundaries=False,
            fill="#B8E186",
            stack=0,
        ),
    ),
    LayerSpec(
        "public_water_basins",
        "polygon",
        (
            _required("pw_id", "id"),
            _required(
                "shore_class",
                allowed=BASIN_CLASSES,
                aliases=SHORE_CLASS_ALIASES,
                hint=_SHORE_CLASS_HINT,
            ),
            FieldSpec("pw_name"),
            FieldSpec("acres", "float"),
            FieldSpec("sewered", "bool"),
            FieldSpec("setback_ft", "float"),
            FieldSpec("dowlknum", "id"),
        ),
        DISTANCE,
        (
            ImpactColumn("sqft_setback", "float"),
            ImpactColumn("sqft_protection", "float"),
            ImpactColumn("sqft_outside", "float"),
            ImpactColumn("zone"),
            ImpactColumn("nearest_pw"),
            ImpactColumn("nearest_pw_ft", "float"),
        ),
        rule="shoreland",
        purpose="DNR public water basins and their shoreland class (Minn. R. 6120.3000)",
        map=MapStyle(
            "Public water basins",
            "Public water",
            ("pw_id", "pw_name", "shore_class"),
            "#2166AC",
            1.0,
            boundaries=False,
            fill="#92C5DE",
            stack=1,
        ),
    ),
    LayerSpec(
        "public_watercourses",
        "line",
        (
            _required("pw_id", "id"),
            _required("shore_class", allowed=WATERCOURSE_CLASSES, aliases=SHORE_CLASS_ALIASES),
            FieldSpec("pw_name"),
            FieldSpec("sewered", "bool"),
            FieldSpec("setback_ft", "float"),
        ),
        DISTANCE,
        rule="shoreland",
        purpose="DNR public watercourses and their shoreland class (Minn. R. 6120.3000)",
        geometry_hint=" (the watercourse lines of the public waters inventory)",
        map=MapStyle(
            "Public watercourses",
            "Public watercourse",
            ("pw_id", "pw_name", "shore_class"),
            "#2166AC",
            2.0,
            stack=2,
        ),
    ),
)

LAYER_SPECS: Mapping[str, LayerSpec] = MappingProxyType({s.name: s for s in _SPECS})
"""Every context layer, by name, in classification order."""

LAYER_NAMES: tuple[str, ...] = tuple(LAYER_SPECS)
"""Context layer names, in registry order (the discovery and classification order)."""

AREA_COLUMNS = (ImpactColumn("area_sqft", "float"), ImpactColumn("area_acres", "float"))
"""The area columns, written before any layer's."""

IMPACT_COLUMNS: tuple[str, ...] = tuple(
    c.name for c in AREA_COLUMNS + tuple(c for s in _SPECS for c in s.columns)
)
"""Every column classification adds to the impacts, in order (``docs/data_schema.md``)."""


def layer_spec(name: str) -> LayerSpec:
    """Return the spec of context layer ``name``.

    Parameters
    ----------
    name : str
        A context layer name.

    Returns
    -------
    LayerSpec

    Raises
    ------
    KeyError
        When ``name`` is not a context layer; the message lists the layers.
    """
    try:
        return LAYER_SPECS[name]
    except KeyError:
        message = f"{name!r} is not a context layer; the layers are {list(LAYER_NAMES)}"
        raise KeyError(message) from None


class ContextLayers(Protocol):
    """What the classification reads of the context: the counties and a layer by name.

    :class:`wetland_gis.context.Context` (what :func:`wetland_gis.context.load_context`
    returns) is one; :mod:`wetland_gis.geometry` takes this protocol so that it does not
    import the layer above it.
    """

    @property
    def counties(self) -> gpd.GeoDataFrame:
        """The county layer, with ``pct_class``, ``pct_source`` and ``metro`` joined."""
        ...

    def get(self, name: str) -> gpd.GeoDataFrame | None:
        """Return layer ``name``, or None when it was not given."""
        ...


#: The context layers the TEP map draws (their spec has a ``map`` style), bottom to top.
DRAWN_LAYERS: tuple[str, ...] = tuple(
    spec.name
    for spec in sorted(
        (s for s in LAYER_SPECS.values() if s.map is not None),
        key=lambda s: s.map.stack if s.map is not None else 0,
    )
)


def map_layers(context: ContextLayers) -> dict[str, gpd.GeoDataFrame]:
    """Return the context layers the TEP map draws (those present and not empty).

    Parameters
    ----------
    context : Context
        The context of an assessment (:class:`wetland_gis.context.Context`).

    Returns
    -------
    dict
        Layer name to GeoDataFrame, for :func:`wetland_gis.mapping.tep_map`.
    """
    return {
        name: layer
        for name in DRAWN_LAYERS
        if (layer := context.get(name)) is not None and len(layer)
    }
