"""The rule spec: every rule of the trace and every fact it reads, written once.

This is the one place a rule id, a label, a citation and a fact's column are written.
Each :class:`Rule` has its id, its label, its citations (built by :func:`cite` and
:func:`cite_rule` from ONE definition of each prefix), its keyed sub-citations (the
clauses its conditions cite), the parameter keys it reads, the facts it reads and, for a
rule of :mod:`wetland_gis.rules.exempt`, the function that decides it. Each :class:`Fact`
has its field role, its default column names (the 10-character shapefile cut of each is
added by :func:`wetland_gis.io.field_names.with_truncations`), its type, whether it is a
claim (only a person can confirm it) and its doc line.

Everything else is read from here:

* the registry (:mod:`wetland_gis.rules.registry`: ``RULES``, ``rule()``, the constants the
  engine writes its steps with) and the exemption registry
  (:data:`wetland_gis.rules.exempt.EXEMPTION_RULES`);
* the field roles of the command line, ``wetland-gis fields`` and the QGIS provider
  (:data:`wetland_gis.io.fields.DEFAULT_NAMES`, ``ROLE_LABELS``,
  :data:`wetland_gis.io.fact_roles.FACT_FIELD_ROLES`,
  :data:`wetland_gis.io.exemption_columns.EXEMPTION_FIELD_ROLES`,
  :data:`wetland_gis.rules.exempt.FACT_COLUMNS` and ``CLAIMS``);
* the library questions (rules of kind ``question``): :class:`wetland_gis.rules.facts.Trace`
  refuses a question without an entry, and the question modules take the citations they
  write from their entries (:func:`question`);
* every documentation table of the rules and their facts (rendered by
  :mod:`wetland_gis.exemption_catalog`, written by ``tools/spec_docs.py --write``; a test
  fails when a committed table differs from the generated one).

A rule of another domain (the water-use rules of § 103G.271) registers with
``domain="water_use"``: its citations come from the same :func:`cite`.

This module imports only the standard library.

Examples
--------
>>> cite("103G.2241", "9(f)")
'Minn. Stat. § 103G.2241, subd. 9(f)'
>>> cite_rule("8420.0420", "1 C")
'Minn. R. 8420.0420, subp. 1 C'
>>> RULE_SPECS[DE_MINIMIS_AMOUNT].label
'De minimis amount'
>>> FACTS["used_for_credit"].name, FACTS["used_for_credit"].column
('used_for_replacement_credit', 'used_for_c')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

#: The one definition of the statute prefix: every citation of Minnesota Statutes starts so.
STATUTE_PREFIX = "Minn. Stat. § "
#: The one definition of the rule prefix (Minnesota Rules).
RULE_PREFIX = "Minn. R. "


def cite(section: str, subdivision: str | None = None) -> str:
    """Return the citation of a section of Minnesota Statutes, or of one of its subdivisions.

    Parameters
    ----------
    section : str
        The section, e.g. ``"103G.2241"`` (a paragraph of a section without subdivisions is
        written with it: ``"103G.2364(b)"``).
    subdivision : str, optional
        The subdivision and its paragraphs, e.g. ``"9(a)(1)"`` or ``"1(f), (g), (n)"``.

    Examples
    --------
    >>> cite("103G.223"), cite("103G.222", "1(m)")
    ('Minn. Stat. § 103G.223', 'Minn. Stat. § 103G.222, subd. 1(m)')
    """
    text = f"{STATUTE_PREFIX}{section}"
    return text if subdivision is None else f"{text}, subd. {subdivision}"


def cite_rule(part: str, subpart: str | None = None) -> str:
    """Return the citation of a part of Minnesota Rules, or of one of its subparts.

    Examples
    --------
    >>> cite_rule("8420.0522", "2"), cite_rule("8420.0117")
    ('Minn. R. 8420.0522, subp. 2', 'Minn. R. 8420.0117')
    """
    text = f"{RULE_PREFIX}{part}"
    return text if subpart is None else f"{text}, subp. {subpart}"


def short_cite(citation: str) -> str:
    """Return a statute citation as written after another one: ``§ ...``, no ``Minn. Stat.``.

    A citation of Minnesota Rules is returned as it is.

    Examples
    --------
    >>> short_cite(cite("103G.221")), short_cite(cite_rule("8420.0420", "1"))
    ('§ 103G.221', 'Minn. R. 8420.0420, subp. 1')
    """
    return citation.replace(STATUTE_PREFIX, "§ ")


def exemption_clause(citation: str) -> str:
    """Return a citation of the exemptions section, § 103G.2241, without it: ``subd. 1(2)``.

    Any other citation is returned as it is.

    Examples
    --------
    >>> exemption_clause(cite("103G.2241", "1(2)")), exemption_clause(cite("103G.222"))
    ('subd. 1(2)', 'Minn. Stat. § 103G.222')
    """
    return citation.replace(f"{cite('103G.2241')}, ", "")


def _exemption(subdivision: str) -> str:
    """Return the citation of a paragraph of the exemptions section, § 103G.2241."""
    return cite("103G.2241", subdivision)


def _subd9(paragraph: str = "") -> str:
    """Return the citation of the de minimis subdivision, § 103G.2241, subd. 9."""
    return _exemption("9" + paragraph)


def _s222(paragraph: str) -> str:
    """Return the citation of a paragraph of § 103G.222, subd. 1 (replacement)."""
    return cite("103G.222", "1" + paragraph)


_R0420 = "8420.0420"


# --- the facts ---------------------------------------------------------------------------


class FactType(str, Enum):
    """How a fact's cell is read."""

    FLAG = "flag"
    NUMBER = "number"
    WHOLE = "whole number"
    DATE = "date"
    TEXT = "text"
    CHOICE = "choice"


FLAG, NUMBER, WHOLE, DATE, TEXT, CHOICE = FactType


@dataclass(frozen=True, kw_only=True)
class Fact:
    """One fact a rule reads: its field role, default columns, type, claim and doc.

    Parameters
    ----------
    key : str
        The field role (``--field ROLE=COLUMN``, ``fields={role: column}``); for a fact
        no column gives (``group`` ``context`` or ``computed``), the fact's name.
    type : FactType
        How a cell is read (flag, number, whole number, date, text, choice).
    group : {"layer", "wetland", "exemption", "road", "context", "computed"}
        ``layer``: a role of the impact layer (id, type, kind ...); ``wetland``: an optional
        per-wetland fact; ``exemption`` and ``road``: a fact of the exemptions and of the
        road paragraph; ``context``: written by the context layers (no role);
        ``computed``: summed from the impacts by the rules.
    doc : str
        The doc line (for ``layer`` and ``wetland``: the values a cell holds).
    name : str
        The fact's name in the rules (the field of ``ImpactFacts``, ``ExemptionFacts`` or
        ``RoadFacts``); default: ``key``.
    columns : tuple of str
        The default column names, preferred first (none for a computed fact).
    column : str
        The column an exemption fact is listed under in the tables (default: the first
        of ``columns``).
    label : str
        What the column holds, for people (messages, ``wetland-gis fields``).
    claim : bool
        Only a person can confirm it (an approval, a permit, a finding).
    choices : tuple of str
        The values of a ``choice`` fact.
    many : bool
        A ``choice`` fact that holds a set (comma-separated in a cell).
    absent : str
        What the rules take when no column gives it (``wetland`` facts).
    rule_doc : str
        The doc line in the tables of the rules, when it differs from ``doc``.
    fact_role : bool
        A field role that is a fact of one wetland (``FACT_FIELD_ROLES``).
    exemption : bool
        The fact is also one of the exemption facts (``ExemptionFacts``).
    domain : str
        ``wca`` or another rule domain.
    """

    key: str
    type: FactType
    group: str
    doc: str
    name: str = ""
    columns: tuple[str, ...] = ()
    column: str = ""
    label: str = ""
    claim: bool = False
    choices: tuple[str, ...] = ()
    many: bool = False
    absent: str = ""
    rule_doc: str = ""
    fact_role: bool = False
    exemption: bool = False
    domain: str = "wca"

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.key)
        if not self.column and self.columns:
            object.__setattr__(self, "column", self.columns[0])
        if not self.label:
            object.__setattr__(self, "label", self.key.replace("_", " "))
        if self.group in ("exemption", "context", "computed"):
            object.__setattr__(self, "exemption", True)
        if not self.rule_doc:
            object.__setattr__(self, "rule_doc", self.doc)

    @property
    def role(self) -> str | None:
        """Return the field role, or None for a fact no column gives by a role of its own."""
        return None if self.group in ("context", "computed") else self.key


_LATER_PROHIBITED = ("platted_lots", "planned_unit", "commercial", "industrial")
_1B = "Minn. R. 8420.0420, subp. 1 B: no exemption applies to a calcareous fen, a wetland "
_1B += "deposited in the wetland bank, or one already used for replacement credit."

_FACTS: tuple[Fact, ...] = (
    # --- the roles of the impact layer (docs/data_schema.md, "Impacts (input)") ---------
    Fact(
        key="impact_id",
        type=TEXT,
        group="layer",
        columns=("impact_id", "id", "fid"),
        label="impact id",
        doc="unique",
    ),
    Fact(
        key="wetland_type",
        type=CHOICE,
        group="layer",
        columns=("circ39_class", "circ39", "wetland_type", "wetland_ty"),
        column="circ39",
        label="wetland type (Circular 39)",
        doc="`3`, `Type 3`, `T3`, `type 3/4`, Eggers & Reed names (`wetland_ty` only when its "
        "values are Circular 39 types, not NWI categories)",
        rule_doc="Circular 39 type 1-8 (§ 103G.005, subd. 17b).",
        exemption=True,
    ),
    Fact(
        key="cowardin",
        type=TEXT,
        group="layer",
        columns=("attribute",),
        label="Cowardin code",
        doc="`PEM1C` (type inferred, flagged)",
    ),
    Fact(
        key="project",
        type=TEXT,
        group="layer",
        columns=("project",),
        label="project",
        doc="groups impacts into projects",
    ),
    Fact(
        key="cedar_tamarack",
        type=FLAG,
        group="layer",
        columns=("cedar_tamarack", "cedar_tam"),
        label="white cedar / tamarack flag",
        doc="bool",
    ),
    Fact(
        key="impact_kind",
        type=CHOICE,
        group="layer",
        columns=("impact_kind", "impact", "activity"),
        choices=("fill", "drain", "excavate", "unknown"),
        label="impact kind",
        doc="`fill`, `drain`, `excavate` (also `drainage`, `excavation`, ...); blank or another "
        "word: decided as a drain or fill, flagged",
        rule_doc="What the activity does to the wetland.",
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="land_use",
        type=CHOICE,
        group="layer",
        columns=("land_use",),
        choices=("agricultural", "pasture", "nonagricultural"),
        label="land use",
        doc="`agricultural`, `pasture` or `nonagricultural` (default: nonagricultural ratio, to "
        "verify)",
        rule_doc="The land's use (§ 103G.005, subd. 2a agricultural land; subd. 14a pasture).",
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="wetland_acres",
        type=NUMBER,
        group="layer",
        columns=("wetland_ac",),
        label="whole wetland size (acres)",
        doc="acres of the whole wetland the impact is part of (public waters wetland size, "
        "§ 103G.2241 subd. 9(f) and 10 percentages); optional",
        rule_doc="Size of the whole wetland, acres (subd. 1(2), 10(1)(i)).",
        fact_role=True,
        exemption=True,
    ),
    # --- the optional per-wetland facts (issue 13) --------------------------------------
    Fact(
        key="partial",
        type=FLAG,
        group="wetland",
        columns=("partial",),
        label="partial drainage flag",
        doc="flag: a `drain` that only partly drains the area (Minn. R. 8420.0522, subp. 2)",
        absent="totally drained (counts whole)",
        fact_role=True,
    ),
    Fact(
        key="duration",
        type=CHOICE,
        group="wetland",
        columns=("duration",),
        choices=("permanent", "temporary"),
        label="permanent or temporary",
        doc="`permanent` or `temporary` (joint application table). A `temporary` impact that "
        "must be replaced is replaced at the full ratio, with a verify item naming the "
        "restoration the LGU must confirm (the rule on temporary impacts is not in the "
        "reference material yet; the ratio is never lowered on it)",
        absent="blank",
        fact_role=True,
    ),
    Fact(
        key="isolated",
        type=FLAG,
        group="wetland",
        columns=("isolated",),
        label="isolated wetland flag (subd. 9(b))",
        doc="flag: the wetland is isolated, no direct surficial connection (subd. 9(b) increase)",
        absent="no increase",
        fact_role=True,
    ),
    Fact(
        key="runoff_retention",
        type=FLAG,
        group="wetland",
        columns=("runoff_retention", "runoff_ret"),
        label="runoff retention or infiltration measures flag (subd. 9(b), (c))",
        doc="flag: approved retention/infiltration measures in proximity (subd. 9(b), (c) "
        "increases)",
        absent="no increase",
        fact_role=True,
    ),
    Fact(
        key="wetland_id",
        type=TEXT,
        group="wetland",
        columns=("wetland_id", "wetland_no"),
        label="wetland id",
        doc="the wetland the impact is in (subd. 9(f))",
        absent="impacts of one owner in one de minimis total are one wetland",
        rule_doc="The wetland the impact is in: the spoil of subd. 10(1) deposited in one "
        "wetland is summed (the existing role).",
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="owner",
        type=TEXT,
        group="wetland",
        columns=("owner", "landowner"),
        label="landowner",
        doc="the landowner (subd. 9(f): different owners are not pooled)",
        absent="one unnamed landowner",
        fact_role=True,
    ),
    Fact(
        key="parcel_id",
        type=TEXT,
        group="wetland",
        columns=("parcel_id", "pin"),
        label="county parcel id (PIN) of the landowner's portion (subd. 9(f))",
        doc="the county parcel id (PIN) of the landowner's portion: the register's history of "
        "that portion counts for subd. 9(f) (docs/register.md)",
        absent="the register's history of the whole wetland counts",
    ),
    Fact(
        key="owns_whole_wetland",
        type=FLAG,
        group="wetland",
        columns=("owns_whole_wetland", "owns_whole"),
        label="landowner owns the whole wetland flag (subd. 9(f))",
        doc="flag (subd. 9(f)(1))",
        absent="unknown: a de minimis answer that depends on it is conditional",
        fact_role=True,
    ),
    Fact(
        key="portion_sqft",
        type=NUMBER,
        group="wetland",
        columns=("portion_sqft", "portion_sf"),
        label="landowner's portion of the wetland (sq ft)",
        doc="sq ft of the landowner's portion (subd. 9(f)(2))",
        absent="unknown (the whole wetland's size when the owner owns it all and `wetland_ac` "
        "is given)",
        fact_role=True,
    ),
    Fact(
        key="prior_sqft_since_1992",
        type=NUMBER,
        group="wetland",
        columns=("prior_sqft_since_1992", "prior_sqft"),
        label="area drained or filled since 1992 (sq ft, subd. 9(f))",
        doc="sq ft already drained or filled of the portion since 1992 (subd. 9(f))",
        absent="0, with a verify item giving the headroom",
        fact_role=True,
    ),
    Fact(
        key="bottomland_hardwood",
        type=FLAG,
        group="wetland",
        columns=("bottomland_hardwood", "bottomland"),
        column="bottomland",
        label="bottomland hardwood flag (subd. 1(2))",
        doc="flag (pasture exemption, subd. 1(2))",
        absent="unknown, a verify item",
        rule_doc="A bottomland hardwood type 1 wetland (excepted by subd. 1(2)).",
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="banked",
        type=FLAG,
        group="wetland",
        columns=("banked",),
        label="wetland deposited in the wetland bank flag",
        doc="flag: deposited in the wetland bank (Minn. R. 8420.0420, subp. 1)",
        absent="not banked",
        rule_doc=_1B,
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="used_for_credit",
        name="used_for_replacement_credit",
        type=FLAG,
        group="wetland",
        columns=("used_for_credit", "used_for_c"),
        column="used_for_c",
        label="wetland already used for replacement credit flag",
        doc="flag: already used for replacement credit (8420.0420)",
        absent="not used",
        rule_doc=_1B,
        fact_role=True,
        exemption=True,
    ),
    Fact(
        key="partial_share",
        type=NUMBER,
        group="wetland",
        columns=("partial_share", "partial_sh"),
        label="TEP-assessed share of a partly drained area (0.5 to 1, Minn. R. 8420.0522)",
        doc='for a `partial` drain: the share of the partly drained area counted, "determined '
        'by an assessment acceptable to the technical evaluation panel" (Minn. R. 8420.0522, '
        "subp. 2), 0.5 to 1",
        absent="the 50 percent minimum is counted, and a de minimis or five-acre answer that "
        "holds only at the minimum is conditional",
        fact_role=True,
    ),
    Fact(
        key="pw_inventory_id",
        type=TEXT,
        group="wetland",
        columns=("pw_inventory_id", "pwi_id"),
        label="DNR public waters inventory id of the wetland (§ 103G.201)",
        doc="the DNR public waters inventory id of the wetland (§ 103G.201): an inventoried "
        "wetland is a public waters wetland whatever its size",
        absent="the size test of § 103G.005, subd. 15a, with a verify item",
        fact_role=True,
    ),
    Fact(
        key="wetland_source",
        type=CHOICE,
        group="wetland",
        columns=("wl_source",),
        choices=("delineation", "nwi"),
        label="where the wetland comes from: delineation or nwi (a screening)",
        doc="`delineation` or `nwi`: where the wetland boundary and type come from (written by "
        "`wetland-gis impacts`, docs/footprint.md); `nwi` adds a verify item to every impact: "
        "a screening on NWI, not a delineation, which the TEP still needs (§ 103G.2242, subd. "
        "2(a))",
        absent="a delineation",
        fact_role=True,
    ),
    # --- facts the context layers write (no role of their own) ---------------------------
    Fact(
        key="incorporated",
        type=FLAG,
        group="context",
        columns=("incorporated",),
        doc="The wetland lies in an incorporated area (subd. 2(b) needs unincorporated).",
    ),
    Fact(
        key="calcareous_fen",
        type=FLAG,
        group="context",
        columns=("calcareous_fen",),
        doc=_1B,
    ),
    # --- facts the rules sum from the impacts ---------------------------------------------
    Fact(key="impact_sqft", type=NUMBER, group="computed", doc="the impact's counted area"),
    Fact(
        key="project_sqft", type=NUMBER, group="computed", doc="the wetland area the project alters"
    ),
    Fact(
        key="project_type_2_6_drained_sqft",
        type=NUMBER,
        group="computed",
        doc="the project's drained type 2 and 6 area",
    ),
    Fact(
        key="wetland_spoil_sqft", type=NUMBER, group="computed", doc="the spoil area in the wetland"
    ),
    # --- the exemption facts (issue 20), in the order of ExemptionFacts --------------------
    Fact(
        key="remainder_newly_qualifies",
        type=FLAG,
        group="exemption",
        columns=("remainder",),
        doc="The wetland was partially impacted before so that its remainder would now qualify "
        "for an exemption that did not apply before that impact (subp. 1 B).",
    ),
    Fact(
        key="years_cropped_before_1991",
        type=WHOLE,
        group="exemption",
        columns=("crop_yr_91",),
        doc="Years of the ten before January 1, 1991 in which the wetland was planted with "
        "annually seeded crops, in a crop rotation seeding of pasture grass or legumes, or set "
        "aside for federal price support (subd. 1(1)).",
    ),
    Fact(
        key="pasture_same_use",
        type=FLAG,
        group="exemption",
        columns=("past_same",),
        doc="The agricultural pasture land remains in the same use (subd. 1(2)).",
    ),
    Fact(
        key="pasture_1991",
        type=FLAG,
        group="exemption",
        columns=("past_1991",),
        doc="The land is pasture as § 103G.005, subd. 14a defines it: grazed by domesticated "
        "livestock, or planted with annually seeded crops in a crop rotation seeding of grasses "
        "or legumes, in six of the last ten years prior to January 1, 1991 (subd. 1(2)); the "
        "current land use label alone does not show it.",
    ),
    Fact(
        key="normal_farming",
        type=FLAG,
        group="exemption",
        columns=("farming",),
        doc="The activity is a normal farming practice: farming, silvicultural, grazing or "
        "ranching such as plowing, seeding, cultivating, harvesting (subd. 1(3)).",
    ),
    Fact(
        key="soil_water_practice",
        type=FLAG,
        group="exemption",
        columns=("sw_prac",),
        doc="The activity is a soil and water conservation practice (subd. 1(4)).",
    ),
    Fact(
        key="swcd_approved_practice",
        type=FLAG,
        group="exemption",
        columns=("swcd_prac",),
        claim=True,
        doc="A soil and water conservation practice approved by the soil and water conservation "
        "district after review by the technical evaluation panel (subd. 1(4)).",
    ),
    Fact(
        key="aquaculture",
        type=FLAG,
        group="exemption",
        columns=("aquacult",),
        doc="Aquaculture: pond excavation, construction and maintenance of access roads and "
        "dikes (subd. 1(5)).",
    ),
    Fact(
        key="buildings",
        type=FLAG,
        group="exemption",
        columns=("buildings",),
        doc="The activity constructs or expands buildings (excluded by subd. 1(5); a building is "
        "also excluded by subd. 7(1)).",
    ),
    Fact(
        key="corps_404_permit",
        type=FLAG,
        group="exemption",
        columns=("corps_404",),
        claim=True,
        doc="Authorized under, and conducted in accordance with, a U.S. Army Corps of Engineers "
        "permit under Clean Water Act section 404 (subd. 1(5), 1(6)).",
    ),
    Fact(
        key="wild_rice",
        type=FLAG,
        group="exemption",
        columns=("wild_rice",),
        doc="Wild rice production, including necessary diking (subd. 1(6)).",
    ),
    Fact(
        key="swampbuster",
        type=FLAG,
        group="exemption",
        columns=("swampbust",),
        claim=True,
        doc="Agricultural activities on agricultural land subject to the swampbuster provisions, "
        "consistent with the board's memorandum of understanding with NRCS (subd. 1(7)).",
    ),
    Fact(
        key="agricultural_activity",
        type=FLAG,
        group="exemption",
        columns=("ag_activ",),
        doc='The activity itself is an agricultural activity (subd. 1(7) "agricultural '
        'activities on agricultural land"): a house pad or other nonagricultural construction '
        "on swampbuster land is not, whatever the land's use.",
    ),
    Fact(
        key="drainage_benefits",
        type=FLAG,
        group="exemption",
        columns=("dr_benefit",),
        doc="The land has been assessed drainage benefits for a public drainage system "
        "(subd. 2(b)).",
    ),
    *(
        Fact(
            key=key,
            type=FLAG,
            group="exemption",
            columns=(column,),
            doc="Subd. 2(b)(1)(i)-(iii), each during the 20-year period that ended January 1, "
            "1992: an expenditure from the drainage system account; repair or maintenance "
            "approved by the drainage authority; no repair or maintenance required (§ 103E.705, "
            "subd. 1), as determined by the drainage authority.",
        )
        for key, column in (
            ("system_expenditure", "dr_expend"),
            ("system_repaired", "dr_repair"),
            ("no_repair_required", "dr_norep"),
        )
    ),
    Fact(
        key="drained_for_conversion",
        type=FLAG,
        group="exemption",
        columns=("dr_convert",),
        doc="The wetlands are drained for conversion to platted lots, planned unit, commercial "
        "or industrial developments, or development with more than one residential unit per "
        "40 acres (subd. 2(b)(2)).",
    ),
    Fact(
        key="drainage_date",
        type=DATE,
        group="exemption",
        columns=("dr_date",),
        doc="When the wetland was drained under subd. 2(b) (the start of the ten-year period of "
        "its last sentence); a date written `YYYY-MM-DD`.",
    ),
    Fact(
        key="later_use",
        type=CHOICE,
        group="exemption",
        columns=("later_use",),
        choices=(*_LATER_PROHIBITED, "residential_density", "agricultural", "other"),
        doc="The use the drained land was later converted to: `platted_lots`, `planned_unit`, "
        "`commercial`, `industrial`, `residential_density` (more than one residential unit per "
        "40 acres): the uses clause (2) prohibits; or `agricultural`, `other`.",
    ),
    Fact(
        key="later_use_date",
        type=DATE,
        group="exemption",
        columns=("later_date",),
        doc="When the land was converted to `later_use` (`YYYY-MM-DD`).",
    ),
    Fact(
        key="drainage_maintenance",
        type=FLAG,
        group="exemption",
        columns=("dr_maint",),
        doc="The draining or filling results from maintenance and repair of an existing drainage "
        "system (subd. 2(c), (d)).",
    ),
    Fact(
        key="public_drainage_system",
        type=FLAG,
        group="exemption",
        columns=("dr_public",),
        doc="That drainage system is a public drainage system (§ 103E.005, subd. 12, and "
        "lawfully connected ditches and tile, subd. 2(a)).",
    ),
    Fact(
        key="wetland_existence_years",
        type=WHOLE,
        group="exemption",
        columns=("wet_age_yr",),
        doc='Years the wetland has been in existence (subd. 2(c), (d): "more than 25 years").',
    ),
    Fact(
        key="years_annual_crops",
        type=WHOLE,
        group="exemption",
        columns=("crop_yr_10",),
        doc="Of the ten most recent years before the impact, years planted with annually seeded "
        "crops before July 5 (or later, for crops normally planted after it) (subd. 2(e)(1)).",
    ),
    Fact(
        key="years_rotation_or_fallow",
        type=WHOLE,
        group="exemption",
        columns=("rot_yr_10",),
        doc="Of the ten most recent years, years in a crop rotation seeding of pasture grass, "
        "cover crop or legumes, or fallow for a crop production purpose (subd. 2(e)(2)).",
    ),
    Fact(
        key="conservation_program",
        type=FLAG,
        group="exemption",
        columns=("cons_prog",),
        doc="Enrolled in a state or federal land conservation program (subd. 2(e)(3)).",
    ),
    Fact(
        key="met_before_enrollment",
        type=FLAG,
        group="exemption",
        columns=("met_before",),
        claim=True,
        doc="The land met subd. 2(e)(1) or (2) before enrollment (subd. 2(e)(3)).",
    ),
    Fact(
        key="federal_authorization",
        type=FLAG,
        group="exemption",
        columns=("fed_auth",),
        claim=True,
        doc="Authorized under Clean Water Act section 404 or Rivers and Harbors Act section 10 "
        "regulations (subd. 3).",
    ),
    Fact(
        key="federal_rules_state_approved",
        type=FLAG,
        group="exemption",
        columns=("fed_state",),
        claim=True,
        doc="Those regulations meet minimum state standards and have been approved by the board, "
        "the commissioners of natural resources and agriculture and the Pollution Control "
        "Agency (subd. 3).",
    ),
    Fact(
        key="restored_for_conservation",
        type=FLAG,
        group="exemption",
        columns=("rest_cons",),
        doc="The wetland was restored or created for conservation purposes under a contract or "
        "easement (subd. 4(1)).",
    ),
    Fact(
        key="contract_right_to_drain",
        type=FLAG,
        group="exemption",
        columns=("rest_drain",),
        claim=True,
        doc="That contract or easement gives the landowner the right to drain it (subd. 4(1)).",
    ),
    Fact(
        key="restored_by_landowner",
        type=FLAG,
        group="exemption",
        columns=("rest_owner",),
        doc="The wetland was restored or created by the landowner (subd. 4(2)).",
    ),
    Fact(
        key="restored_without_assistance",
        type=FLAG,
        group="exemption",
        columns=("rest_noaid",),
        claim=True,
        doc="Without any assistance or financing from public agencies or private entities other "
        "than the landowner (subd. 4(2)).",
    ),
    Fact(
        key="created_by",
        type=CHOICE,
        group="exemption",
        columns=("created_by",),
        choices=("beaver_dam", "culvert_blockage", "other_purpose", "other"),
        many=True,
        doc="What created the wetland, a set of `beaver_dam`, `culvert_blockage`, "
        "`other_purpose`, `other` (comma-separated in a column): subd. 5 asks that it was "
        "created *solely* by the causes of clauses (1)-(3).",
    ),
    Fact(
        key="utility_work",
        type=FLAG,
        group="exemption",
        columns=("utility",),
        doc="New placement or maintenance, repair, enhancement or replacement of existing utility "
        "or utility-type service, including pipelines (subd. 6(a)(1); utility, § 103G.005, "
        "subd. 15h).",
    ),
    Fact(
        key="avoided_minimized",
        type=FLAG,
        group="exemption",
        columns=("avoid_min",),
        claim=True,
        doc="The direct and indirect impacts have been avoided and minimized to the extent "
        "possible (subd. 6(a)(1)(i)).",
    ),
    Fact(
        key="utility_operation",
        type=FLAG,
        group="exemption",
        columns=("util_oper",),
        doc="Operation, routine maintenance or emergency repair of existing utilities and public "
        "work structures, including pipelines (subd. 6(a)(2)).",
    ),
    Fact(
        key="additional_intrusion",
        type=FLAG,
        group="exemption",
        columns=("add_intrus",),
        doc="The activity results in additional wetland intrusion or additional draining or "
        "filling, wholly or partially (excluded by subd. 6(a)(2)).",
    ),
    Fact(
        key="sewage_system_repair",
        type=FLAG,
        group="exemption",
        columns=("ssts",),
        doc="Repair and updating of an existing subsurface sewage treatment system necessary to "
        "comply with local, state and federal regulations (subd. 6(a)(3)).",
    ),
    Fact(
        key="utility_maintenance",
        type=FLAG,
        group="exemption",
        columns=("util_maint",),
        doc="The utility work is maintenance, repair or replacement (subd. 6(b)).",
    ),
    Fact(
        key="emergency",
        type=FLAG,
        group="exemption",
        columns=("emergency",),
        doc="Work of an emergency nature (subd. 6(b); road clause (3)).",
    ),
    Fact(
        key="utility_bmp",
        type=FLAG,
        group="exemption",
        columns=("util_bmp",),
        claim=True,
        doc="The utility carries out the work according to approved best management practices "
        "(subd. 6(b)).",
    ),
    Fact(
        key="lgu_certification",
        type=FLAG,
        group="exemption",
        columns=("lgu_cert",),
        claim=True,
        doc="The local government unit issued a seasonal or annual exemption certification "
        "(subd. 6(b)).",
    ),
    Fact(
        key="silviculture_crossing",
        type=FLAG,
        group="exemption",
        columns=("silv_cross",),
        doc="Temporarily crossing or entering the wetland to perform silvicultural activities, "
        "including timber harvest as part of forest management (subd. 7(1)).",
    ),
    Fact(
        key="forest_road",
        type=FLAG,
        group="exemption",
        columns=("forest_rd",),
        doc="Permanent access for forest roads across the wetland (subd. 7(2)).",
    ),
    Fact(
        key="limits_impact",
        type=FLAG,
        group="exemption",
        columns=("limits_imp",),
        claim=True,
        doc="The activity limits the impact on the hydrologic and biologic characteristics of the "
        "wetland (subd. 7(1), (2)).",
    ),
    Fact(
        key="dikes_ditches_tile",
        type=FLAG,
        group="exemption",
        columns=("dike_ditch",),
        doc="The activity results in the construction of dikes, drainage ditches, tile lines (or, "
        "for a forest road, the access becoming one) (subd. 7(1), (2)).",
    ),
    Fact(
        key="results_in_drainage",
        type=FLAG,
        group="exemption",
        columns=("drains",),
        doc="The activity results in the drainage of the wetland or public waters (subd. 7).",
    ),
    Fact(
        key="filling_avoided",
        type=FLAG,
        group="exemption",
        columns=("fill_avoid",),
        claim=True,
        doc="Filling is avoided wherever possible (subd. 7(2)).",
    ),
    Fact(
        key="wildlife_spoil",
        type=FLAG,
        group="exemption",
        columns=("wl_spoil",),
        doc="Deposition of spoil from excavation within the wetland for a wildlife habitat "
        "improvement project (subd. 10(1)).",
    ),
    Fact(
        key="spoil_stabilized",
        type=FLAG,
        group="exemption",
        columns=("spoil_stab",),
        claim=True,
        doc="The spoil is stabilized and permanently seeded to prevent erosion (subd. 10(1)(i)).",
    ),
    Fact(
        key="no_listed_species_effect",
        type=FLAG,
        group="exemption",
        columns=("no_listed",),
        claim=True,
        doc="No adverse impact on any species designated as endangered or threatened under state "
        "or federal law (subd. 10(1)(ii)).",
    ),
    Fact(
        key="swcd_habitat_certified",
        type=FLAG,
        group="exemption",
        columns=("swcd_habit",),
        claim=True,
        doc="The soil and water conservation district certifies the wildlife habitat improvement "
        "(subd. 10(1)(iii)).",
    ),
    Fact(
        key="duck_blind",
        type=FLAG,
        group="exemption",
        columns=("duck_blind",),
        doc="The activity is a duck blind (subd. 10(2)).",
    ),
    Fact(
        key="irrigation_boom_fill",
        type=FLAG,
        group="exemption",
        columns=("irrig_boom",),
        doc="The landowner fills the wetland to accommodate wheeled booms on irrigation devices "
        "(§ 103G.2364(b)).",
    ),
    Fact(
        key="fill_impedes_drainage",
        type=FLAG,
        group="exemption",
        columns=("fill_imped",),
        doc="That fill impedes normal drainage (excluded by § 103G.2364(b)).",
    ),
    # --- the road facts, § 103G.222, subd. 1(l), (m) (role ``road_<fact>``) ----------------
    Fact(
        key="road_project_kind",
        name="project_kind",
        type=CHOICE,
        group="road",
        columns=("road_kind",),
        choices=(
            "repair",
            "rehabilitation",
            "reconstruction",
            "replacement",
            "new_road",
            "capacity_expansion",
        ),
        doc="The kind of road project: the four of paragraph (m), or the two it excludes.",
    ),
    Fact(
        key="road_authority",
        type=CHOICE,
        group="road",
        columns=("road_auth",),
        choices=("state", "city", "county", "town", "other"),
        doc="Whose public road: a state, city, county or town road, or `other` (not covered: "
        "a private road, or another authority).",
    ),
    Fact(
        key="road_currently_serviceable",
        name="currently_serviceable",
        type=FLAG,
        group="road",
        columns=("road_serv",),
        doc="The existing road is currently serviceable.",
    ),
    Fact(
        key="road_design_safety_necessary",
        name="design_safety_necessary",
        type=FLAG,
        group="road",
        columns=("road_std",),
        claim=True,
        doc="The work is necessary, as determined by the public transportation authority, to "
        "meet state or federal design or safety standards or requirements.",
    ),
    Fact(
        key="road_airport",
        name="airport",
        type=FLAG,
        group="road",
        columns=("airport",),
        doc='An airport project (not a "transportation project" of paragraph (l)).',
    ),
    Fact(
        key="road_minor_or_emergency",
        name="minor_or_emergency",
        type=FLAG,
        group="road",
        columns=("road_minor",),
        doc="Minor and emergency maintenance work (clause 3).",
    ),
    Fact(
        key="road_minimized",
        name="minimized",
        type=FLAG,
        group="road",
        columns=("road_minim",),
        claim=True,
        doc="The authority minimizes the wetland filling or draining of the project and "
        "considers mitigating important site-specific wetland functions on site (clause 1).",
    ),
    Fact(
        key="road_report_date",
        name="report_date",
        type=DATE,
        group="road",
        columns=("road_rep_d",),
        doc="The date the authority submitted its project-specific reports (clause 2; to the "
        "board: clause 3), `YYYY-MM-DD`.",
    ),
    Fact(
        key="road_construction_date",
        name="construction_date",
        type=DATE,
        group="road",
        columns=("road_con_d",),
        doc="The date construction starts (clause 2), or the activity commenced (clause 3), "
        "`YYYY-MM-DD`.",
    ),
    Fact(
        key="road_annual_meeting",
        name="annual_meeting",
        type=FLAG,
        group="road",
        columns=("road_meet",),
        doc="The authority convened the annual meeting of the parties required to receive notice "
        "that reviewed this project (clause 2's alternative to the reports).",
    ),
)

FACTS: Mapping[str, Fact] = MappingProxyType({f.key: f for f in _FACTS})
"""Every fact, by its field role (or, for a fact without a role, by its name)."""

_EXEMPTION_FACTS = {f.name: f for f in _FACTS if f.exemption}
_ROAD_FACTS = {f.name: f for f in _FACTS if f.group == "road"}


def fact(key: str) -> Fact:
    """Return the fact of a field role (or of a fact without one), naming the known keys."""
    try:
        return FACTS[key]
    except KeyError:
        raise KeyError(f"unknown fact {key!r}; known: {sorted(FACTS)}") from None


def exemption_fact(name: str) -> Fact:
    """Return the fact named ``name`` in ``ExemptionFacts``.

    Examples
    --------
    >>> exemption_fact("used_for_replacement_credit").key
    'used_for_credit'
    """
    return _EXEMPTION_FACTS[name]


def road_fact(name: str) -> Fact:
    """Return the fact named ``name`` in ``RoadFacts``.

    Examples
    --------
    >>> road_fact("project_kind").key
    'road_project_kind'
    """
    return _ROAD_FACTS[name]


# --- the rules ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One rule of the trace: id, label, citations, keyed sub-citations, parameters, facts.

    Parameters
    ----------
    id : str
        The stable rule id written in the trace (``rule_id``).
    label : str
        How the rule reads for a person (tables, popups, the report).
    citations : tuple of str
        The provisions the rule applies (a step may cite a narrower clause).
    parameters : tuple of str
        The parameter keys (``wetland_gis/parameters/wca.yaml``) the rule reads.
    step : str or None
        The decision-chain step of the map popup the rule belongs to (``None``: not shown
        in the chain).
    clauses : Mapping[str, str]
        Keyed sub-citations: the narrower clause each condition of the rule cites, by key.
    facts : tuple of str
        The facts the rule reads (for an exemption: the names of ``ExemptionFacts``).
    kind : {"engine", "exemption", "procedure", "binding", "road", "reading", "question"}
        ``exemption`` rules are tried by ``decide_exemptions`` and may carry a project;
        ``procedure``, ``binding`` and ``road`` are the other rules of
        :mod:`wetland_gis.rules.exempt`; ``reading`` names an open reading; ``question`` is a
        library question, a public function of the rules core answering one legal question
        with a :class:`~wetland_gis.decision.Decision` (its ``Trace`` refuses a question
        without an entry).
    function : str
        For a rule of :mod:`wetland_gis.rules.exempt`: its function, ``module.name``.
    use_restriction : bool
        An agricultural (subd. 1) or drainage (subd. 2) exemption: its answers carry the
        ten-year use restriction of Minn. R. 8420.0420, subp. 1 D as a verify item.
    conditions_11a : bool
        An exemption of § 103G.2241, subd. 1 to 10: its answers carry the three conditions of
        subd. 11(a).
    reading : str
        For a ``reading`` rule: the ``Claims`` field of the reading.
    domain : str
        ``wca`` (chapter 103G's wetland rules) or another domain (``water_use``).
    outcomes : tuple of str
        The outcomes the rule answers, as written to the output files (listed in the
        tables; the water-use rules name theirs).
    note : str
        What the tables add after the citations, in parentheses (an edition, the subject of
        a group rule).
    question : str
        For a ``question`` rule: the question as ``Decision.question`` writes it (the id is
        ``question.<question>``).
    carries : tuple of str
        For a ``question`` rule: the questions whose Decision it is given and whose
        citations it carries over (``replacement_required`` carries ``replacement_ratio``).
    functions : tuple of str
        For a ``question`` rule: the public functions that answer it, ``module.name`` under
        :mod:`wetland_gis.rules` (each records it with ``Trace("<question>", ...)``).
    """

    id: str
    label: str
    citations: tuple[str, ...]
    parameters: tuple[str, ...] = ()
    step: str | None = None
    clauses: Mapping[str, str] = field(default_factory=dict)
    facts: tuple[str, ...] = ()
    kind: str = "engine"
    function: str = ""
    use_restriction: bool = False
    conditions_11a: bool = False
    reading: str = ""
    domain: str = "wca"
    outcomes: tuple[str, ...] = ()
    note: str = ""
    question: str = ""
    carries: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()

    def clause(self, key: str) -> str:
        """Return the keyed sub-citation ``key`` (``KeyError`` naming the rule's keys)."""
        try:
            return self.clauses[key]
        except KeyError:
            raise KeyError(
                f"rule {self.id!r} has no clause {key!r}; its clauses: {sorted(self.clauses)}"
            ) from None


_RULES: dict[str, Rule] = {}

#: The parameter key of the ten-year use restriction (Minn. R. 8420.0420, subp. 1 D).
USE_RESTRICTION_KEY = "exemptions.use_restriction_years"
#: The citation of the ten-year use restriction of the agricultural and drainage exemptions.
USE_RESTRICTION_CITATION = cite_rule("8420.0420", "1 D")


def _rule(
    rule_id: str,
    label: str,
    citations: tuple[str, ...],
    *,
    parameters: tuple[str, ...] = (),
    step: str | None = None,
    clauses: Mapping[str, str] | None = None,
    facts: tuple[str, ...] = (),
    kind: str = "engine",
    function: str = "",
    use_restriction: bool = False,
    domain: str = "wca",
    outcomes: tuple[str, ...] = (),
    note: str = "",
    carries: tuple[str, ...] = (),
    functions: tuple[str, ...] = (),
) -> str:
    if rule_id in _RULES:  # pragma: no cover - a definition error caught at import
        raise ValueError(f"rule id {rule_id!r} is defined twice")
    _RULES[rule_id] = Rule(
        id=rule_id,
        label=label,
        citations=citations,
        parameters=(*parameters, USE_RESTRICTION_KEY) if use_restriction else parameters,
        step=step,
        clauses=MappingProxyType(dict(clauses or {})),
        facts=facts,
        kind=kind,
        function=function,
        use_restriction=use_restriction,
        conditions_11a=kind == "exemption" and citations[0].startswith(_exemption("")),
        reading=rule_id.removeprefix("reading.") if kind == "reading" else "",
        domain=domain,
        outcomes=outcomes,
        note=note,
        question=rule_id.removeprefix(_QUESTION) if kind == "question" else "",
        carries=carries,
        functions=functions,
    )
    return rule_id


def _exemption_rule(
    rule_id: str,
    label: str,
    citations: tuple[str, ...],
    function: str,
    facts: tuple[str, ...],
    *,
    parameters: tuple[str, ...] = (),
    clauses: Mapping[str, str] | None = None,
    use_restriction: bool = False,
) -> str:
    return _rule(
        rule_id,
        label,
        citations,
        function=function,
        facts=facts,
        kind="exemption",
        parameters=parameters,
        clauses=clauses,
        use_restriction=use_restriction,
    )


_E = "exemptions."
#: The prefix of the id of a library question's rule: ``question.<Decision.question>``.
_QUESTION = "question."

# --- the facts stage (assess: what the layers say) ------------------------------------
FACTS_WETLAND_TYPE = _rule(
    "facts.wetland_type", "Wetland type", (cite("103G.005", "17b"),), step="wetland type"
)
FACTS_PUBLIC_WATERS_WETLAND = _rule(
    "facts.public_waters_wetland",
    "Public waters wetland facts",
    (cite("103G.005", "15a"),),
    parameters=("public_waters_wetland.types",),
    step="fen or public waters",
)
FACTS_CONTEXT = _rule("facts.context", "Where the impact is", ())
FACTS_REGISTER = _rule(
    "facts.register",
    "The LGU's decision register",
    (_subd9("(f)"), cite_rule(_R0420, "1"), cite("103G.2242", "2a(d)")),
    parameters=("de_minimis.cumulative.since", "procedure.determination_validity_years"),
)

# --- scope ------------------------------------------------------------------------------
IMPACT_KIND = _rule(
    "impact_kind",
    "Impact kind",
    (_s222("(a)"), cite_rule("8420.0522", "2")),
    parameters=("replacement.excavation_types", "replacement.partial_drainage_min_percent"),
    step="activity",
    clauses={"partial": cite_rule("8420.0522", "2")},
)
CALCAREOUS_FEN = _rule(
    "calcareous_fen", "Calcareous fen", (cite("103G.223"),), step="fen or public waters"
)
PUBLIC_WATERS_WETLAND = _rule(
    "public_waters_wetland",
    "Public waters wetland?",
    (cite("103G.201"), cite("103G.005", "19(b)"), cite("103G.221"), cite("103G.245", "1(2), 7")),
    step="fen or public waters",
    clauses={
        "inventory": cite("103G.201"),
        "19(b)": cite("103G.005", "19(b)"),
        "drain": cite("103G.221"),
        "permit": cite("103G.245"),
        "fill": cite("103G.245", "1(2), 7"),
    },
)
PUBLIC_WATERS_WORK = _rule(
    "public_waters_work",
    "Public-waters-work permit",
    (cite("103G.245", "1(2)"),),
    step="fen or public waters",
)
EXEMPTION_STANDARDS = _rule(
    "exemption_standards",
    "Exemption standards",
    (cite_rule(_R0420, "1"),),
    step="de minimis test",
)

# --- de minimis -------------------------------------------------------------------------
DE_MINIMIS_PARAGRAPH = _rule(
    "de_minimis.paragraph",
    "De minimis paragraph for the project (subd. 9(e))",
    (_subd9("(e)"),),
    step="de minimis test",
)
DE_MINIMIS_AMOUNT = _rule(
    "de_minimis.amount",
    "De minimis amount",
    (_subd9("(a)-(d), (i)"),),
    parameters=("de_minimis.*",),
    step="de minimis test",
)
DE_MINIMIS_REMAINDER = _rule(
    "de_minimis.remainder",
    "Remainder of a partly impacted wetland (Minn. R. 8420.0420, subp. 1 B(4))",
    (cite_rule(_R0420, "1 B(4)"),),
    facts=("remainder_newly_qualifies", "prior_sqft_since_1992"),
    step="de minimis test",
)
DE_MINIMIS_CLAUSES = _rule(
    "de_minimis.clauses",
    "De minimis clauses on the project",
    (_subd9("(e)"),),
    step="de minimis test",
)
DE_MINIMIS_TOTAL = _rule(
    "de_minimis.total", "De minimis total", (_subd9("(a)-(e)"),), step="de minimis test"
)
DE_MINIMIS_CUMULATIVE = _rule(
    "de_minimis.cumulative",
    "Cumulative area since 1992 (subd. 9(f))",
    (_subd9("(f)"),),
    parameters=(
        "de_minimis.cumulative.since",
        "de_minimis.cumulative.percent_of_portion",
        "de_minimis.cumulative.floor",
    ),
    step="de minimis test",
)
DE_MINIMIS_PROJECT = _rule(
    "de_minimis.project",
    "De minimis exemption (project)",
    (_subd9(), cite_rule(_R0420, "1")),
    step="de minimis test",
)
DE_MINIMIS_IMPACT = _rule(
    "de_minimis.impact",
    "De minimis exemption (impact)",
    (_subd9(), cite_rule(_R0420, "1")),
    step="de minimis test",
)

# --- the other exemptions (rules/exempt), in the order of the text ----------------------
# Each names its function (module.name in wetland_gis.rules.exempt) and the facts it reads
# (the names of ExemptionFacts, in the order it reads them). They are not a step of the
# popup's decision chain: the popup and the report list them apart ("Exemptions tried").
_exemption_rule(
    "exemption.agriculture.1_1",
    "Wetland cropped in six of ten years before 1991",
    (_exemption("1(1)"),),
    "agriculture.cropped_before_1991",
    ("years_cropped_before_1991",),
    parameters=(
        _E + "agriculture_cropped_min_years",
        _E + "agriculture_cropped_lookback_years",
        _E + "agriculture_cropped_before",
    ),
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_2",
    "Wetland on agricultural pasture land in the same use",
    (_exemption("1(2)"),),
    "agriculture.pasture_land",
    (
        "land_use",
        "pasture_same_use",
        "pasture_1991",
        "wetland_type",
        "wetland_acres",
        "bottomland_hardwood",
    ),
    parameters=(
        _E + "pasture_any_size_types",
        _E + "pasture_small_types",
        _E + "pasture_small_max_acres",
        _E + "pasture_definition_min_years",
        _E + "pasture_definition_lookback_years",
        _E + "pasture_definition_before",
    ),
    clauses={"pasture": cite("103G.005", "14a")},
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_3",
    "Normal farming practices",
    (_exemption("1(3)"),),
    "agriculture.normal_farming_practice",
    ("normal_farming", "impact_kind"),
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_4",
    "Soil and water conservation practice approved by the SWCD",
    (_exemption("1(4)"),),
    "agriculture.conservation_practice",
    ("soil_water_practice", "swcd_approved_practice"),
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_5",
    "Aquaculture under a Corps section 404 permit",
    (_exemption("1(5)"),),
    "agriculture.aquaculture_activity",
    ("aquaculture", "corps_404_permit", "buildings"),
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_6",
    "Wild rice production under a Corps section 404 permit",
    (_exemption("1(6)"),),
    "agriculture.wild_rice_production",
    ("wild_rice", "corps_404_permit"),
    use_restriction=True,
)
_exemption_rule(
    "exemption.agriculture.1_7",
    "Agricultural land subject to swampbuster",
    (_exemption("1(7)"),),
    "agriculture.swampbuster_land",
    ("land_use", "agricultural_activity", "swampbuster"),
    use_restriction=True,
)
_exemption_rule(
    "exemption.drainage.2_b",
    "Draining land assessed drainage benefits",
    (_exemption("2(b)"),),
    "drainage.assessed_drainage_benefits",
    (
        "impact_kind",
        "wetland_type",
        "incorporated",
        "drainage_benefits",
        "system_expenditure",
        "system_repaired",
        "no_repair_required",
        "drained_for_conversion",
        "later_use",
        "drainage_date",
        "later_use_date",
        "project_type_2_6_drained_sqft",
        "impact_sqft",
    ),
    parameters=(
        _E + "drainage_any_size_types",
        _E + "drainage_limited_types",
        _E + "drainage_limited_max_acres",
        _E + "drainage_benefit_period_years",
        _E + "drainage_benefit_period_end",
        _E + "drainage_conversion_years",
    ),
    clauses={
        "(1)": _exemption("2(b)(1)"),
        "(2)": _exemption("2(b)(2)"),
        "last sentence": _exemption("2(b), last sentence"),
    },
    use_restriction=True,
)
_exemption_rule(
    "exemption.drainage.2_c",
    "Maintenance and repair of a public drainage system",
    (_exemption("2(c)"), _exemption("2(a)")),
    "drainage.public_drainage_maintenance",
    (
        "impact_kind",
        "drainage_maintenance",
        "public_drainage_system",
        "wetland_type",
        "wetland_existence_years",
    ),
    parameters=(
        _E + "drainage_public_maintenance_excepted_types",
        _E + "drainage_public_maintenance_max_existence_years",
    ),
    use_restriction=True,
)
_exemption_rule(
    "exemption.drainage.2_d",
    "Maintenance and repair of a private drainage system",
    (_exemption("2(d)"),),
    "drainage.private_drainage_maintenance",
    (
        "impact_kind",
        "drainage_maintenance",
        "public_drainage_system",
        "wetland_type",
        "wetland_existence_years",
    ),
    parameters=(_E + "drainage_private_maintenance_max_existence_years",),
    use_restriction=True,
)
_exemption_rule(
    "exemption.drainage.2_e",
    "Draining agricultural land cropped eight of ten years",
    (_exemption("2(e)"),),
    "drainage.agricultural_land_drainage",
    (
        "impact_kind",
        "land_use",
        "years_annual_crops",
        "years_rotation_or_fallow",
        "conservation_program",
        "met_before_enrollment",
    ),
    parameters=(
        _E + "drainage_agricultural_min_years",
        _E + "drainage_agricultural_lookback_years",
    ),
    use_restriction=True,
)
_exemption_rule(
    "exemption.federal.3",
    "Activities under state-approved federal regulations",
    (_exemption("3"),),
    "federal.federal_approval",
    ("federal_authorization", "federal_rules_state_approved"),
)
_exemption_rule(
    "exemption.restoration.4_1",
    "Wetland restored for conservation with a right to drain",
    (_exemption("4(1)"),),
    "restoration.conservation_restoration",
    ("restored_for_conservation", "contract_right_to_drain"),
)
_exemption_rule(
    "exemption.restoration.4_2",
    "Wetland restored by the landowner without assistance",
    (_exemption("4(2)"),),
    "restoration.landowner_restoration",
    (
        "restored_by_landowner",
        "restored_without_assistance",
        "used_for_replacement_credit",
        "banked",
    ),
)
_exemption_rule(
    "exemption.incidental.5_1",
    "Incidental wetland created by a beaver dam",
    (_exemption("5(1)"),),
    "incidental.beaver_dam_wetland",
    ("created_by",),
)
_exemption_rule(
    "exemption.incidental.5_2",
    "Incidental wetland created by a blocked road culvert",
    (_exemption("5(2)"),),
    "incidental.culvert_blockage_wetland",
    ("created_by",),
)
_exemption_rule(
    "exemption.incidental.5_3",
    "Incidental wetland created by actions for another purpose",
    (_exemption("5(3)"),),
    "incidental.other_purpose_wetland",
    ("created_by",),
)
_exemption_rule(
    "exemption.incidental.5_4",
    "Incidental wetland created by a combination of causes",
    (_exemption("5(4)"),),
    "incidental.combined_incidental_wetland",
    ("created_by",),
)
_exemption_rule(
    "exemption.utilities.6_a_1",
    "Utility placement or work altering less than one-half acre",
    (_exemption("6(a)(1)"),),
    "utilities.utility_service",
    ("utility_work", "avoided_minimized", "project_sqft", "impact_sqft"),
    parameters=(_E + "utility_max_acres",),
    clauses={"(i)": _exemption("6(a)(1)(i)")},
)
_exemption_rule(
    "exemption.utilities.6_a_2",
    "Operation and maintenance of existing utilities and public works",
    (_exemption("6(a)(2)"),),
    "utilities.utility_operation_maintenance",
    ("utility_operation", "additional_intrusion"),
)
_exemption_rule(
    "exemption.utilities.6_a_3",
    "Repair of an existing subsurface sewage treatment system",
    (_exemption("6(a)(3)"),),
    "utilities.sewage_treatment_update",
    ("sewage_system_repair",),
)
_exemption_rule(
    "exemption.forestry.7_1",
    "Temporary crossing for silviculture",
    (_exemption("7(1)"),),
    "forestry.silviculture_temporary_crossing",
    (
        "silviculture_crossing",
        "limits_impact",
        "dikes_ditches_tile",
        "buildings",
        "results_in_drainage",
        "impact_kind",
    ),
)
_exemption_rule(
    "exemption.forestry.7_2",
    "Permanent access for forest roads",
    (_exemption("7(2)"),),
    "forestry.forest_road_access",
    (
        "forest_road",
        "limits_impact",
        "dikes_ditches_tile",
        "filling_avoided",
        "results_in_drainage",
        "impact_kind",
    ),
)
_exemption_rule(
    "exemption.wildlife.10_1",
    "Spoil from a wildlife habitat improvement project",
    (_exemption("10(1)"),),
    "wildlife.wildlife_spoil_deposition",
    (
        "wildlife_spoil",
        "wetland_spoil_sqft",
        "impact_sqft",
        "wetland_acres",
        "spoil_stabilized",
        "no_listed_species_effect",
        "swcd_habitat_certified",
    ),
    parameters=(_E + "wildlife_spoil_max_percent", _E + "wildlife_spoil_max_acres"),
    clauses={
        "(i)": _exemption("10(1)(i)"),
        "(ii)": _exemption("10(1)(ii)"),
        "(iii)": _exemption("10(1)(iii)"),
    },
)
_exemption_rule(
    "exemption.wildlife.10_2",
    "Duck blinds",
    (_exemption("10(2)"),),
    "wildlife.duck_blinds",
    ("duck_blind",),
)
_exemption_rule(
    "exemption.owner_use.2364_b",
    "Fill for the wheeled booms of irrigation devices",
    (cite("103G.2364(b)"),),
    "owner_use.irrigation_boom_fill",
    ("irrigation_boom_fill", "impact_kind", "fill_impedes_drainage"),
)
_rule(
    "exemption.utilities.6_b",
    "Utility maintenance: local certification or best management practices",
    (_exemption("6(b)"),),
    function="utilities.utility_certification",
    facts=("utility_maintenance", "emergency", "utility_bmp", "lgu_certification"),
    kind="procedure",
)
EXEMPTION_EXCLUDED = _rule(
    "exemption.binding.excluded",
    "Wetlands no exemption applies to",
    (cite_rule(_R0420, "1 B"),),
    function="binding.binding_exclusions",
    facts=("calcareous_fen", "banked", "used_for_replacement_credit", "remainder_newly_qualifies"),
    kind="binding",
)
#: The project step of the other exemptions (every one tried, the one that carries).
EXEMPTION_ONE = _rule(
    "exemption.binding.one_exemption",
    "One exemption for the project, not combined",
    (_exemption("11(b)"), cite_rule(_R0420, "1 A"), cite_rule(_R0420, "1 C")),
    function="binding.decide_exemptions",
    parameters=(_E + "drainage_limited_types",),
    clauses={"9(g)": _subd9("(g)"), "1 C": cite_rule(_R0420, "1 C")},
    kind="binding",
)
#: The road paragraph's step (§ 103G.222, subd. 1(l), (m)).
ROAD_REPLACEMENT = _rule(
    "road.board_replacement",
    "Public road project: replacement by the board",
    (_s222("(m)"), _s222("(l)")),
    function="roads.road_replacement",
    facts=tuple(f.name for f in _FACTS if f.group == "road"),
    parameters=(
        "road_projects.report_days_before_construction",
        "road_projects.minor_emergency_max_sqft",
        "road_projects.report_days_after_commencing",
    ),
    clauses={
        "(l)": _s222("(l)"),
        "(m)": _s222("(m)"),
        "(m)(1)": _s222("(m)(1)"),
        "(m)(2)": _s222("(m)(2)"),
        "(m)(3)": _s222("(m)(3)"),
        "(m)(2), (3)": _s222("(m)(2), (3)"),
    },
    kind="road",
)

# --- replacement and procedure ------------------------------------------------------------
REPLACEMENT_RATIO = _rule(
    "replacement.ratio",
    "Replacement ratio",
    (_s222("(f), (g), (n)"),),
    parameters=("replacement.ratio.*",),
    step="replacement ratio",
)
REPLACEMENT_CREDITS = _rule(
    "replacement.credits",
    "Replacement credits",
    (_s222("(f), (g), (n)"), cite_rule(_R0420, "1")),
    step="replacement ratio",
    # "the entire amount of impact must be replaced" (not only the excess)
    clauses={"entire amount": cite_rule(_R0420, "1")},
)
REPLACEMENT_IF_FAILS = _rule(
    "replacement.if_fails",
    "Replacement owed if the condition of the exemption fails",
    (_s222("(f), (g), (n)"), cite_rule(_R0420, "1")),
    step="replacement ratio",
)
PROCEDURE_PUBLIC_COMMENT = _rule(
    "procedure.public_comment",
    "Public comment",
    (cite("103G.2242", "8"),),
    parameters=("procedure.public_comment_threshold",),
)
PROCEDURE_SEQUENCING = _rule(
    "procedure.sequencing",
    "Sequencing without alternatives analysis",
    (_s222("(b)"),),
    parameters=("procedure.sequencing_allowance",),
)
#: § 103G.222, subd. 1(m): a road the board (or the state) replaces has no replacement plan,
#: so no public comment period and no sequencing of a plan (issue 32).
PROCEDURE_NO_PLAN = _rule(
    "procedure.no_replacement_plan",
    "Public road project: no replacement plan",
    (_s222("(m)"),),
)

# --- the open readings (docs/rules.md, "Open readings") ---------------------------------
_rule(
    "reading.clause_reading", "Reading: clauses of one paragraph", (_subd9("(e)"),), kind="reading"
)
_rule(
    "reading.no_amount_reading",
    "Reading: a type with no amount in its own zone",
    (_subd9("(a)(2)-(3), (d)(2), (e)"),),
    kind="reading",
)
_rule(
    "reading.sequencing_reading",
    "Reading: the applicable amount for sequencing",
    (_s222("(b), last sentence"),),
    kind="reading",
)
_rule(
    "reading.setback_increase_reading",
    "Reading: the setback zone increase",
    (_subd9("(c)"),),
    kind="reading",
)
_rule(
    "reading.excavation_reading",
    "Reading: de minimis for an excavation",
    (_subd9("(a)-(d)"), _s222("(a)")),
    kind="reading",
)
_rule(
    "reading.exemption_scope_reading",
    "Reading: an exemption covering only some impacts",
    (cite_rule(_R0420, "1 C"), _exemption("11(b)")),
    kind="reading",
)
_rule(
    "reading.cumulative_limit_reading",
    "Reading: a cumulative area exactly at the subd. 9(f) limit",
    (_subd9("(f)"),),
    kind="reading",
)
_rule(
    "reading.exemption_unit_reading",
    "Reading: the clauses of one subdivision",
    (_exemption("11(b)"), cite_rule(_R0420, "1 C")),
    kind="reading",
)

# --- the library questions (docs/rules.md, "Rules implemented") -------------------------
# A public function of the rules core that answers one legal question with a Decision
# records it with ``Trace("<question>", ...)``; Trace refuses a question not written here.
# ``citations``: the provisions it applies; ``clauses``: the citations its code writes, by
# key (a module takes them from here); the citations of its parameters are wca.yaml's.


def _question(
    rule_id: str,
    label: str,
    citations: tuple[str, ...],
    *,
    parameters: tuple[str, ...] = (),
    clauses: Mapping[str, str] | None = None,
    carries: tuple[str, ...] = (),
    note: str = "",
    functions: tuple[str, ...],
) -> str:
    return _rule(
        rule_id,
        label,
        citations,
        parameters=parameters,
        clauses=clauses,
        kind="question",
        carries=carries,
        note=note,
        functions=functions,
    )


def _s3(paragraph: str) -> str:
    """Return the citation of a paragraph of § 103G.222, subd. 3 (siting)."""
    return cite("103G.222", "3" + paragraph)


_10B = cite("103G.005", "10b")
_PROC = "procedure."
_PCT = "percentage_area."
_PUBLIC_WATERS = "public_waters_wetland."
_BANK_FEES = "bank_fees."

_question(
    "question.percentage_area",
    "Percentage-area class of an area from its figures, or of a county",
    (cite("103G.005", "10a, 10b, 10h"), cite_rule("8420.0117")),
    functions=(
        "percentage_area.percentage_area_from_figures",
        "percentage_area.percentage_area_of_county",
    ),
    parameters=(_PCT + "counties.*", _PCT + "thresholds.*"),
    clauses={
        "10h": cite("103G.005", "10h"),
        "subp. 2": cite_rule("8420.0117", "2"),
        "1(o)": _s222("(o)"),
    },
    note="and the source of a board reclassification the caller gives, cited as given",
)
_question(
    "question.in_metropolitan_area",
    "In the 11-county metropolitan area",
    (_subd9("(d)"),),
    functions=("metro.in_metropolitan_area",),
    parameters=("metropolitan_area.counties", _PCT + "counties.*"),
)
_question(
    "question.public_waters_wetland",
    "A public waters wetland (outside the WCA)",
    (cite("103G.005", "15a"),),
    functions=("public_waters.public_waters_wetland",),
    parameters=(
        _PUBLIC_WATERS + "types",
        _PUBLIC_WATERS + "min_acres_incorporated",
        _PUBLIC_WATERS + "min_acres_unincorporated",
    ),
    clauses={"19(b)": cite("103G.005", "19(b)")},
)
_question(
    "question.de_minimis_allowance",
    "Square feet allowed for one type in one zone",
    (_subd9("(a)-(d), (i)"),),
    functions=("de_minimis.de_minimis_allowance",),
    parameters=("de_minimis.*",),
    clauses={"(i)": _subd9("(i)")},
)
_question(
    "question.replacement_ratio",
    "Acres replaced per acre",
    (_s222("(f), (g), (n)"),),
    functions=("replacement.replacement_ratio",),
    parameters=(
        "replacement.ratio_nonagricultural",
        "replacement.ratio_agricultural_or_greater_than_80",
        "replacement.after_the_fact_max_multiplier",
    ),
    note="and the reference of each user-supplied ratio adjustment of Minn. R. 8420.0522, "
    "cited as given",
)
_question(
    "question.replacement_required",
    "Acres of replacement",
    (_s222("(c)"),),
    functions=("replacement.replacement_required",),
    clauses={"1(c)": _s222("(c)"), "1(d)": _s222("(d)")},
    carries=("replacement_ratio",),
    note="and the citations of the ratio's Decision",
)
_question(
    "question.sequencing_without_alternatives_analysis",
    "On-site sequencing without a written alternatives analysis",
    (_s222("(b)"),),
    functions=("procedure.sequencing_without_alternatives_analysis",),
    parameters=(_PROC + "sequencing_allowance",),
)
_question(
    "question.public_comment_required",
    "Public comment period",
    (cite("103G.2242", "8"),),
    functions=("procedure.public_comment_required",),
    parameters=(_PROC + "public_comment_threshold", _PROC + "public_comment_min_days"),
)
_question(
    "question.revised_application_requires_notice",
    "A revised application is a new application",
    (cite("103G.2242", "6(b)"),),
    functions=("procedure.revised_application_requires_notice",),
    parameters=(
        _PROC + "revised_application_area_increase",
        _PROC + "revised_application_distance",
    ),
)
_question(
    "question.bank_fees",
    "Wetland bank fee",
    (cite("103G.2242", "14(a)"),),
    functions=("procedure.bank_fees",),
    parameters=(
        _BANK_FEES + "maintenance_percent",
        _BANK_FEES + "maintenance_max",
        _BANK_FEES + "withdrawal_percent",
        _BANK_FEES + "transaction_percent",
        _BANK_FEES + "transaction_max",
    ),
)
_question(
    "question.siting_tier",
    "Siting tier of one replacement option for one impact",
    (_s3("(a)"), _s3("(c)")),
    functions=("priority.siting_tier",),
    clauses={
        "3(a)": _s3("(a)"),
        "3(a)(1)": _s3("(a)(1)"),
        "3(a)(2)": _s3("(a)(2)"),
        "3(a)(3)": _s3("(a)(3)"),
        "3(a)(4)": _s3("(a)(4)"),
        "3(c)": _s3("(c)"),
        "10b": _10B,
        "1(a)": _s222("(a)"),
    },
)
_question(
    "question.next_tier_condition",
    "Replacement may be sought at the next siting level",
    (_s3("(d)"),),
    functions=("priority.next_tier_condition",),
    clauses={"3(d)": _s3("(d)"), "3(e)": _s3("(e)"), "3(f)": _s3("(f)")},
)
_question(
    "question.option_ratio",
    "Decided ratio of an impact with the adjustments for one siting option",
    (cite_rule("8420.0522"), _s222("(n)")),
    functions=("priority.option_ratio",),
    note="the reference of each user-supplied ratio adjustment, cited as given",
)
_question(
    "question.replacement_action",
    "A project-specific site's action may be used for replacement",
    (_s222("(i)"), cite("103G.2242", "12(c)")),
    functions=("priority.replacement_action_eligibility",),
    parameters=("replacement.actions",),
    clauses={"1(i)": _s222("(i)"), "12(c)": cite("103G.2242", "12(c)")},
    note="and the reference of the action's entry in `replacement.actions`",
)

# --- the water-use rules of § 103G.271 (wetland_gis.water_use) -------------------------
#: The section of Minnesota Statutes the water-use rules apply (appropriation permits).
WATER_USE_SECTION = "103G.271"

_ANSWERS = ("not_applicable", "allowed", "prohibited")


def _water_rule(
    rule_id: str,
    label: str,
    subdivisions: tuple[str, ...],
    outcomes: tuple[str, ...],
    note: str = "",
) -> str:
    """Register the water-use rule ``rule_id`` citing ``subdivisions`` of § 103G.271."""
    return _rule(
        rule_id,
        label,
        tuple(cite(WATER_USE_SECTION, s) for s in subdivisions),
        domain="water_use",
        outcomes=outcomes,
        note=note,
    )


_water_rule(
    "water_use.permit_required",
    "Water-use permit required",
    ("1(a)", "1(b)(1)-(3)", "4(a)", "4(b)"),
    ("permit_not_required", "permit_required", "local_approval"),
)
_water_rule(
    "water_use.mt_simon_hinckley",
    "Mt. Simon-Hinckley aquifer",
    ("4a",),
    (*_ANSWERS, "must_be_terminated", "verify"),
    note="(and 4a(b), 2018)",
)
_water_rule(
    "water_use.bulk_sale",
    "Bulk transport or sale",
    ("4b",),
    (*_ANSWERS, "verify"),
    note="(2025)",
)
_water_rule(
    "water_use.once_through",
    "Once-through systems",
    ("5(a)-(c)",),
    (
        "not_applicable",
        "prohibited",
        "must_be_terminated",
        "permit_conditions_apply",
        "allowed",
        "verify",
    ),
)
_water_rule(
    "water_use.surface_water_levels",
    "Maintaining surface water levels",
    ("5a",),
    ("not_applicable", "prohibited", "verify"),
)
_water_rule(
    "water_use.data_center",
    "Large data center appropriations",
    ("5b",),
    ("not_applicable", "permit_conditions_apply", "verify"),
    note="(2025)",
)
_water_rule(
    "water_use.fee",
    "Permit processing fee",
    ("6(a)-(g)", "1(c)"),
    ("fee", "no_fee", "fee_waived", "verify"),
)
_water_rule(
    "water_use.fee.cap",
    "Entity fee cap",
    ("6(d)(1)-(2)",),
    ("fee", "verify"),
    note="(per entity, a permit without entity as its own; `fee` is the capped total)",
)
_water_rule(
    "water_use.fee.surcharge",
    "Summer surcharge",
    ("6(h)",),
    ("fee", "verify"),
    note="(per permit or distribution system)",
)
_water_rule("water_use.fee.total", "Total fee", ("6",), ("fee", "verify"))
_water_rule(
    "water_use.fee.past_years",
    "Fees for past unpermitted years",
    ("6a",),
    ("schedule", "indeterminate"),
)
_water_rule("water_use.fee.penalty", "Late payment penalty", ("6(e)",), ("fee", "no_fee"))

RULE_SPECS: Mapping[str, Rule] = MappingProxyType(_RULES)
"""Every rule of the trace, by id, in the order of the engine."""

READING_RULES: Mapping[str, str] = MappingProxyType(
    {r.reading: r.id for r in _RULES.values() if r.kind == "reading"}
)
"""The rule id of each open reading's step, by its ``Claims`` field."""

_BY_FUNCTION = {r.function: r for r in _RULES.values() if r.function}

QUESTIONS: Mapping[str, Rule] = MappingProxyType(
    {r.question: r for r in _RULES.values() if r.kind == "question"}
)
"""The rule of each library question, by the question ``Decision.question`` writes."""

#: The rule domains: chapter 103G's wetland rules, and the water-use rules of § 103G.271
#: (``wetland_gis.water_use``), which register here with ``domain="water_use"``.
DOMAINS = ("wca", "water_use")

#: The package of the rules that name their function.
_EXEMPT_PACKAGE = "wetland_gis.rules.exempt."


def rule_of_function(function: object) -> Rule | None:
    """Return the rule whose ``function`` is ``function`` (by module and name), or None.

    A rule function of :mod:`wetland_gis.rules.exempt` finds its entry here without
    importing the registry of functions.
    """
    module = str(getattr(function, "__module__", ""))
    name = f"{module.removeprefix(_EXEMPT_PACKAGE)}.{getattr(function, '__qualname__', '')}"
    return _BY_FUNCTION.get(name)


def question(name: str) -> Rule:
    """Return the rule of the library question ``name`` (``KeyError`` naming the known ones).

    Examples
    --------
    >>> question("siting_tier").clause("3(c)")
    'Minn. Stat. § 103G.222, subd. 3(c)'
    """
    try:
        return QUESTIONS[name]
    except KeyError:
        raise KeyError(
            f"question {name!r} has no entry in the rule spec (wetland_gis/rules/spec.py); "
            f"known: {sorted(QUESTIONS)}"
        ) from None


def rules_of(*kinds: str, domain: str = "wca") -> tuple[Rule, ...]:
    """Return the rules of the given kinds (every kind when none is given), in order."""
    return tuple(
        r for r in _RULES.values() if r.domain == domain and (not kinds or r.kind in kinds)
    )


# --- the decision chain of a map popup, and the engine's order ---------------------------

CHAIN_STEPS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "activity": (_s222("(a)"),),
        "wetland type": (cite("103G.005", "17b"),),
        "county and metro area": (_subd9("(d)"),),
        "percentage area class": (cite("103G.005", "10a, 10b, 10h"), cite_rule("8420.0117")),
        "watersheds": (cite("103G.005", "17a"),),
        "shoreland zone": (cite("103G.005", "15f"), _subd9("(a)-(c)")),
        "de minimis test": (_subd9(),),
        "replacement ratio": (cite("103G.222", "1"),),
        "siting tier": (cite("103G.222", "3(a)"),),
        "fen or public waters": (cite("103G.223"), cite("103G.005", "15a")),
    }
)
"""Per decision-chain step (a map popup's rows): the provision that defines it, shown when
the trace gives the step no citation (a column read from the layers)."""


@dataclass(frozen=True, kw_only=True)
class Stage:
    """One stage of the engine's order (docs/rules.md, "The project decision engine").

    Its place in :data:`STAGES` is its place in the order.

    Parameters
    ----------
    rules : tuple of str
        The rule ids it writes (``exemption.*``: every rule of kind ``exemption``).
    law : str
        The law it applies, for people.
    rules_doc : str
        How the rule ids read in the table, when not simply listed.
    """

    rules: tuple[str, ...]
    law: str
    rules_doc: str = ""


STAGES: tuple[Stage, ...] = (
    Stage(
        rules=(IMPACT_KIND,),
        law="§ 103G.222, subd. 1(a): drains and fills; excavation only in permanently and "
        "semipermanently flooded areas of types 3, 4, 5 (`replacement.excavation_types`). "
        "`flooded` is the determination (the TEP's, § 103G.2242, subd. 2); the Cowardin water "
        "regime F, G or H is only evidence (`water_regime_flooded`): an excavation in a type "
        '3, 4 or 5 wetland whose regime says "not flooded" is decided as covered with outcome '
        "`conditional` and a verify item; unknown is treated as flooded. A partial drain counts "
        "the partly drained area at the TEP-assessed `partial_share`, or without it at the "
        '`replacement.partial_drainage_min_percent` floor (Minn. R. 8420.0522, subp. 2: "at '
        'least 50 percent"), and an exemption that holds only at the floor is conditional. A '
        "public waters wetland's impact kind cites § 103G.221 (a drain) or § 103G.245, subd. "
        "1(2) (a fill or excavation), not § 103G.222, subd. 1(a)",
    ),
    Stage(
        rules=(CALCAREOUS_FEN,),
        law='§ 103G.223 first: "may not be filled, drained, or otherwise degraded, wholly or '
        'partially, by any activity": prohibited whatever the impact kind step said (an '
        "excavation too)",
    ),
    Stage(
        rules=(PUBLIC_WATERS_WETLAND, PUBLIC_WATERS_WORK, EXEMPTION_STANDARDS),
        law="§ 103G.201 (the inventory is the authority; the size test of § 103G.005, subd. 15a "
        "is the fallback, with a verify item); § 103G.005, subd. 19(b); § 103G.221 (a drain); "
        "§ 103G.245, subd. 1(2), 7 (a fill or excavation); § 103G.245, subd. 5(b); "
        "`public_waters_work`: a fill or excavation on or waterward of the OHWL of a public "
        "water (`below_ohwl`) also needs the public-waters-work permit, § 103G.245, subd. 1(2) "
        '("by any means, including filling, excavating, or placing of materials"): route "WCA '
        'and DNR public waters", an excavation the WCA does not regulate '
        "(`not_a_drain_or_fill`, § 103G.222, subd. 1(a)) included (issue 32); Minn. R. "
        "8420.0420, subp. 1",
    ),
    Stage(
        rules=(
            DE_MINIMIS_PARAGRAPH,
            DE_MINIMIS_AMOUNT,
            DE_MINIMIS_REMAINDER,
            DE_MINIMIS_CLAUSES,
            DE_MINIMIS_TOTAL,
            DE_MINIMIS_CUMULATIVE,
            DE_MINIMIS_PROJECT,
            DE_MINIMIS_IMPACT,
        ),
        law="§ 103G.2241, subd. 9(a)-(i); Minn. R. 8420.0420, subp. 1, subp. 1 B(4) (the "
        "remainder of a partly impacted wetland)",
    ),
    Stage(
        rules=("exemption.*", ROAD_REPLACEMENT),
        rules_doc="`exemption.*` (every exemption of `rules/exempt` tried on each impact, the "
        f"subp. 1 B exclusions, the project step `{EXEMPTION_ONE}`), `{ROAD_REPLACEMENT}`",
        law="§ 103G.2241, subd. 1-7, 10, 11; § 103G.2364(b); Minn. R. 8420.0420, subp. 1 B-D; "
        '§ 103G.222, subd. 1(l), (m): `decide_other_exemptions` ("Other exemptions in the '
        'engine" below)',
    ),
    Stage(
        rules=(REPLACEMENT_RATIO, REPLACEMENT_CREDITS, REPLACEMENT_IF_FAILS),
        law="§ 103G.222, subd. 1(f), (g), (n); `replacement.if_fails`: what an impact exempt "
        "only on a condition owes if the condition fails (Minn. R. 8420.0420, subp. 1)",
    ),
    Stage(
        rules=(PROCEDURE_PUBLIC_COMMENT, PROCEDURE_SEQUENCING, PROCEDURE_NO_PLAN),
        rules_doc=f"`{PROCEDURE_PUBLIC_COMMENT}`, `{PROCEDURE_SEQUENCING}`; `{PROCEDURE_NO_PLAN}`",
        law="§ 103G.2242, subd. 8; § 103G.222, subd. 1(b), last sentence; § 103G.222, subd. "
        "1(m) (a road the board or the state replaces: no replacement plan, so neither of the "
        "two)",
    ),
    Stage(
        rules=tuple(READING_RULES.values()),
        law='the open readings ("Open readings" below): the reading used and, when it differs, '
        "the alternative's result",
    ),
)
"""The engine's order, per impact then per project (the engine calls one function per
stage, in this order)."""
