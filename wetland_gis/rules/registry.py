"""The registry of the WCA rules: each rule id defined once, with its label and citations.

Every step of the decision trace names a rule by its id. This module is the one place a
rule id is written: the engine (:mod:`wetland_gis.rules.engine`) writes its steps with the
constants below, and the trace's readers, the map popups (``mapping/popups.py``), the
labels (``labels.py``), the report and ``docs/rules.md`` read the :data:`RULES` entries
(label, citations, parameter keys, and the decision-chain step of a popup). Adding a rule
touches its function, its entry here and its tests (``CONTRIBUTING.md``).

The water-use rules keep their own registry, ``wetland_gis.water_use.rules.RULE_IDS``.

Examples
--------
>>> RULES[DE_MINIMIS_AMOUNT].label
'De minimis amount'
>>> RULES[CALCAREOUS_FEN].citations
('Minn. Stat. § 103G.223',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from wetland_gis.rules.exempt import EXEMPTION_RULES, decide_exemptions, road_replacement, spec_of

__all__ = ["Rule", "RULES", "READING_RULES", "CHAIN_STEPS", "rule"]


@dataclass(frozen=True)
class Rule:
    """One rule of the trace.

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
    """

    id: str
    label: str
    citations: tuple[str, ...]
    parameters: tuple[str, ...] = ()
    step: str | None = None


_RULES: dict[str, Rule] = {}


def _rule(
    rule_id: str,
    label: str,
    citations: tuple[str, ...],
    parameters: tuple[str, ...] = (),
    step: str | None = None,
) -> str:
    if rule_id in _RULES:  # pragma: no cover - a definition error caught at import
        raise ValueError(f"rule id {rule_id!r} is defined twice")
    _RULES[rule_id] = Rule(rule_id, label, citations, parameters, step)
    return rule_id


_S = "Minn. Stat. § 103G."
_SUBD9 = _S + "2241, subd. 9"

# --- the facts stage (assess: what the layers say) ------------------------------------
FACTS_WETLAND_TYPE = _rule(
    "facts.wetland_type", "Wetland type", (_S + "005, subd. 17b",), step="wetland type"
)
FACTS_PUBLIC_WATERS_WETLAND = _rule(
    "facts.public_waters_wetland",
    "Public waters wetland facts",
    (_S + "005, subd. 15a",),
    ("public_waters_wetland.types",),
    step="fen or public waters",
)
FACTS_CONTEXT = _rule("facts.context", "Where the impact is", ())
FACTS_REGISTER = _rule(
    "facts.register",
    "The LGU's decision register",
    (_SUBD9 + "(f)", "Minn. R. 8420.0420, subp. 1", _S + "2242, subd. 2a(d)"),
    ("de_minimis.cumulative.since", "procedure.determination_validity_years"),
)

# --- scope ------------------------------------------------------------------------------
IMPACT_KIND = _rule(
    "impact_kind",
    "Impact kind",
    (_S + "222, subd. 1(a)", "Minn. R. 8420.0522, subp. 2"),
    ("replacement.excavation_types", "replacement.partial_drainage_min_percent"),
    step="activity",
)
CALCAREOUS_FEN = _rule(
    "calcareous_fen", "Calcareous fen", (_S + "223",), step="fen or public waters"
)
PUBLIC_WATERS_WETLAND = _rule(
    "public_waters_wetland",
    "Public waters wetland?",
    (_S + "201", _S + "005, subd. 19(b)", _S + "221", _S + "245, subd. 1(2), 7"),
    step="fen or public waters",
)
PUBLIC_WATERS_WORK = _rule(
    "public_waters_work",
    "Public-waters-work permit",
    (_S + "245, subd. 1(2)",),
    step="fen or public waters",
)
EXEMPTION_STANDARDS = _rule(
    "exemption_standards",
    "Exemption standards",
    ("Minn. R. 8420.0420, subp. 1",),
    step="de minimis test",
)

# --- de minimis -------------------------------------------------------------------------
DE_MINIMIS_PARAGRAPH = _rule(
    "de_minimis.paragraph",
    "De minimis paragraph for the project (subd. 9(e))",
    (_SUBD9 + "(e)",),
    step="de minimis test",
)
DE_MINIMIS_AMOUNT = _rule(
    "de_minimis.amount",
    "De minimis amount",
    (_SUBD9 + "(a)-(d), (i)",),
    ("de_minimis.*",),
    step="de minimis test",
)
DE_MINIMIS_REMAINDER = _rule(
    "de_minimis.remainder",
    "Remainder of a partly impacted wetland (Minn. R. 8420.0420, subp. 1 B(4))",
    ("Minn. R. 8420.0420, subp. 1 B(4)",),
    step="de minimis test",
)
DE_MINIMIS_CLAUSES = _rule(
    "de_minimis.clauses",
    "De minimis clauses on the project",
    (_SUBD9 + "(e)",),
    step="de minimis test",
)
DE_MINIMIS_TOTAL = _rule(
    "de_minimis.total", "De minimis total", (_SUBD9 + "(a)-(e)",), step="de minimis test"
)
DE_MINIMIS_CUMULATIVE = _rule(
    "de_minimis.cumulative",
    "Cumulative area since 1992 (subd. 9(f))",
    (_SUBD9 + "(f)",),
    (
        "de_minimis.cumulative.since",
        "de_minimis.cumulative.percent_of_portion",
        "de_minimis.cumulative.floor",
    ),
    step="de minimis test",
)
DE_MINIMIS_PROJECT = _rule(
    "de_minimis.project",
    "De minimis exemption (project)",
    (_SUBD9, "Minn. R. 8420.0420, subp. 1"),
    step="de minimis test",
)
DE_MINIMIS_IMPACT = _rule(
    "de_minimis.impact",
    "De minimis exemption (impact)",
    (_SUBD9, "Minn. R. 8420.0420, subp. 1"),
    step="de minimis test",
)

# --- the other exemptions and the road paragraph (rules/exempt) ---------------------------
# Their ids are written once, in wetland_gis.rules.exempt.EXEMPTION_RULES; each is
# registered here so the trace's readers find its label and citations. They are not a
# step of the popup's decision chain: the popup and the report list them apart
# ("Exemptions tried", wetland_gis.mapping.exemption_popup).
for _spec in EXEMPTION_RULES:  # noqa: B007 - registering, not reading
    _rule(_spec.rule_id, _spec.label, _spec.citations, _spec.parameter_keys)
#: The project step of the other exemptions (every one tried, the one that carries).
EXEMPTION_ONE = spec_of(decide_exemptions).rule_id
#: The road paragraph's step (§ 103G.222, subd. 1(l), (m)).
ROAD_REPLACEMENT = spec_of(road_replacement).rule_id
#: Every rule id of the other exemptions and the road paragraph.
EXEMPTION_RULE_IDS = frozenset(s.rule_id for s in EXEMPTION_RULES)

# --- replacement and procedure ------------------------------------------------------------
REPLACEMENT_RATIO = _rule(
    "replacement.ratio",
    "Replacement ratio",
    (_S + "222, subd. 1(f), (g), (n)",),
    ("replacement.ratio.*",),
    step="replacement ratio",
)
REPLACEMENT_CREDITS = _rule(
    "replacement.credits",
    "Replacement credits",
    (_S + "222, subd. 1(f), (g), (n)", "Minn. R. 8420.0420, subp. 1"),
    step="replacement ratio",
)
REPLACEMENT_IF_FAILS = _rule(
    "replacement.if_fails",
    "Replacement owed if the condition of the exemption fails",
    (_S + "222, subd. 1(f), (g), (n)", "Minn. R. 8420.0420, subp. 1"),
    step="replacement ratio",
)
PROCEDURE_PUBLIC_COMMENT = _rule(
    "procedure.public_comment",
    "Public comment",
    (_S + "2242, subd. 8",),
    ("procedure.public_comment_threshold",),
)
PROCEDURE_SEQUENCING = _rule(
    "procedure.sequencing",
    "Sequencing without alternatives analysis",
    (_S + "222, subd. 1(b)",),
    ("procedure.sequencing_allowance",),
)
#: § 103G.222, subd. 1(m): a road the board (or the state) replaces has no replacement plan,
#: so no public comment period and no sequencing of a plan (issue 32).
PROCEDURE_NO_PLAN = _rule(
    "procedure.no_replacement_plan",
    "Public road project: no replacement plan",
    (_S + "222, subd. 1(m)",),
)

# --- the open readings (docs/rules.md, "Open readings") ---------------------------------
READING_RULES: Mapping[str, str] = MappingProxyType(
    {
        "clause_reading": _rule(
            "reading.clause_reading", "Reading: clauses of one paragraph", (_SUBD9 + "(e)",)
        ),
        "no_amount_reading": _rule(
            "reading.no_amount_reading",
            "Reading: a type with no amount in its own zone",
            (_SUBD9 + "(a)(2)-(3), (d)(2), (e)",),
        ),
        "sequencing_reading": _rule(
            "reading.sequencing_reading",
            "Reading: the applicable amount for sequencing",
            (_S + "222, subd. 1(b)",),
        ),
        "setback_increase_reading": _rule(
            "reading.setback_increase_reading",
            "Reading: the setback zone increase",
            (_SUBD9 + "(c)",),
        ),
        "excavation_reading": _rule(
            "reading.excavation_reading",
            "Reading: de minimis for an excavation",
            (_SUBD9 + "(a)-(d)", _S + "222, subd. 1(a)"),
        ),
        "exemption_scope_reading": _rule(
            "reading.exemption_scope_reading",
            "Reading: an exemption covering only some impacts",
            ("Minn. R. 8420.0420, subp. 1 C", _S + "2241, subd. 11(b)"),
        ),
        "cumulative_limit_reading": _rule(
            "reading.cumulative_limit_reading",
            "Reading: a cumulative area exactly at the subd. 9(f) limit",
            (_SUBD9 + "(f)",),
        ),
        "exemption_unit_reading": _rule(
            "reading.exemption_unit_reading",
            "Reading: the clauses of one subdivision",
            (_S + "2241, subd. 11(b)", "Minn. R. 8420.0420, subp. 1 C"),
        ),
    }
)
"""The rule id of each open reading's step, by its ``Claims`` field."""

RULES: Mapping[str, Rule] = MappingProxyType(_RULES)
"""Every WCA rule of the trace, by id."""

# The steps of an impact's decision chain (map popups, ``Rule.step``) and the provision
# that defines each, shown when the trace gives the step no citation (a column read from
# the layers, not decided by a rule of the trace).
_CHAIN_STEPS: dict[str, tuple[str, ...]] = {
    "activity": ("Minn. Stat. § 103G.222, subd. 1(a)",),
    "wetland type": ("Minn. Stat. § 103G.005, subd. 17b",),
    "county and metro area": ("Minn. Stat. § 103G.2241, subd. 9(d)",),
    "percentage area class": (
        "Minn. Stat. § 103G.005, subd. 10a, 10b, 10h",
        "Minn. R. 8420.0117",
    ),
    "watersheds": ("Minn. Stat. § 103G.005, subd. 17a",),
    "shoreland zone": (
        "Minn. Stat. § 103G.005, subd. 15f",
        "Minn. Stat. § 103G.2241, subd. 9(a)-(c)",
    ),
    "de minimis test": ("Minn. Stat. § 103G.2241, subd. 9",),
    "replacement ratio": ("Minn. Stat. § 103G.222, subd. 1",),
    "siting tier": ("Minn. Stat. § 103G.222, subd. 3(a)",),
    "fen or public waters": ("Minn. Stat. § 103G.223", "Minn. Stat. § 103G.005, subd. 15a"),
}
CHAIN_STEPS: Mapping[str, tuple[str, ...]] = MappingProxyType(_CHAIN_STEPS)
"""Per decision-chain step: the provision that defines it."""


def rule(rule_id: str) -> Rule:
    """Return the registry entry of ``rule_id`` (``KeyError`` naming the known ids)."""
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule id {rule_id!r}; known: {sorted(RULES)}") from None
