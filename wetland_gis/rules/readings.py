"""The open readings of the text: a ``reading.<name>`` step for each the answer used.

Where the text is open (docs/rules.md, "Open readings"), the default is the reading under
which the tool never says "exempt" (or a smaller area, ratio or amount) where the other
would not; the answer names the reading, and the alternative's result is shown beside it
when it differs (:data:`~wetland_gis.rules.kernel.READINGS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from wetland_gis.enums import Outcome, ProjectOutcome
from wetland_gis.rules import registry as R
from wetland_gis.rules.facts import ImpactFacts, fmt_number
from wetland_gis.rules.kernel import (
    O_CLASSIFIED,
    READINGS,
    Impact,
    ProjectDecision,
    RuleBook,
    rule_book,
)
from wetland_gis.rules.spec import short_cite
from wetland_gis.rules.trace import TraceLog

#: decide(project, facts, book, log) -> ProjectDecision, without the alternatives
Decide = Callable[[str, list[ImpactFacts], RuleBook, TraceLog], ProjectDecision]

#: Per reading: the words of the law it reads (its citations are its spec entry's).
_READING_WORDS: dict[str, str] = {
    "clause_reading": (
        '"The amounts listed in paragraphs (a), (b), and (c) may not be combined on a '
        'project" names paragraphs, not the clauses of one paragraph'
    ),
    "no_amount_reading": (
        'an impact whose type has no amount in its own zone ("except within the 11-county '
        'metropolitan area"; (d)(2) lists types 1, 2 and 6) lies in a project held to another '
        "zone's paragraph"
    ),
    "sequencing_reading": (
        '"the applicable amount in section 103G.2241, subdivision 9, paragraph (a)" of a '
        "project of several wetland types"
    ),
    "setback_increase_reading": (
        'the amount "may be increased to 100 square feet if permanent water runoff retention '
        'or infiltration measures are established in proximity": not every setback impact '
        "has the fact"
    ),
    "excavation_reading": (
        'the de minimis amounts are for "draining or filling"; an excavation is under the '
        "replacement sections by § 103G.222, subd. 1(a)"
    ),
    "exemption_scope_reading": (
        '"Exemptions may not be combined on a project. A project exempt only by using two '
        'different exemptions for different impacts is not exempt"; "an activity is exempt '
        'if it qualifies for any one of the exemptions": one exemption covers only some '
        "impacts of the project"
    ),
    "cumulative_limit_reading": (
        "\"This exemption no longer applies to a landowner's portion of a wetland when the "
        "cumulative area drained or filled of the landowner's portion since January 1, 1992, "
        'is the greatest of" the limits: the cumulative area is exactly at the (f)(2) or (f)(3) '
        "limit"
    ),
    "exemption_unit_reading": (
        '"An activity is exempt if it qualifies for any one of the exemptions"; "Exemptions '
        'may not be combined on a project": no one clause covers every impact, the clauses '
        "of one subdivision together do (e.g. subd. 6(a)(1) for one impact, 6(a)(2) for "
        "another); are they one exemption or two"
    ),
}

#: Readings of the exemptions' binding rules: cited as written (a rule and a statute), and
#: the alternative's exempt area shown beside the default's.
_EXEMPTION_READINGS = frozenset({"exemption_scope_reading", "exemption_unit_reading"})


def within_reach(scope: list[Impact], book: RuleBook) -> bool:
    """Whether a looser reading could hold the project exempt at all.

    The most a looser reading could hold exempt: per type group (or the one (c) total),
    the largest amount any of its impacts could be given.
    """
    best: dict[str, Decimal] = {}
    for w in scope:
        g = "c" if w.pool == "c" else book.group_of[(int(w.f.wetland_type), w.f.cedar_tamarack)]
        best[g] = max(best.get(g, Decimal(0)), w.potential)
    blocked = book.claims.other_exemption_claimed or any(w.ineligible for w in scope)
    return not blocked and sum((w.counted for w in scope), Decimal(0)) <= sum(
        best.values(), Decimal(0)
    )


def alternatives(
    project: str,
    facts: list[ImpactFacts],
    book: RuleBook,
    log: TraceLog,
    concerns: set[str],
    outcome: ProjectOutcome,
    totals: Mapping[str, Any],
    dm_outcome: Outcome,
    within_reach: bool,
    sequencing_alt: str | None,
    decide: Decide,
) -> dict[str, dict[str, Any]]:
    """Write a ``reading.<name>`` step for each open reading the project's answer used.

    The project is decided again under the other reading (into a scratch trace) when that
    can change the answer; when its outcome or amounts differ they are shown beside the
    default's. The readings of subd. 9 change only the de minimis answer: a looser reading
    cannot help a project already exempt, one held out by a fen or another exemption, or one
    whose area is beyond every amount it could be given (``within_reach``); a stricter one
    cannot change a project that is not exempt. The sequencing reading changes only the
    sequencing answer.
    """
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(concerns):
        chosen = getattr(book.claims, name)
        other = next(c for c in READINGS[name] if c != chosen)
        alt = _Alternative(
            outcome, totals["replace_acres"], totals["sequencing_on_site"], totals["exempt_sqft"]
        )
        if name == "sequencing_reading":  # decided beside the default's, in the same run
            alt.sequencing = sequencing_alt
            alt.differs = sequencing_alt != totals["sequencing_on_site"]
        elif _can_differ(name, chosen == READINGS[name][0], within_reach, dm_outcome):
            changed: dict[str, Any] = {name: other}  # one reading changed
            alt_book = rule_book(book.params, book.day, replace(book.claims, **changed))
            decided = decide(project, facts, alt_book, TraceLog())
            keys = ("replace_acres", "exempt_sqft", "sequencing_on_site", "de_minimis")
            alt = _Alternative(
                decided.outcome,
                decided.totals["replace_acres"],
                decided.totals["sequencing_on_site"],
                decided.totals["exempt_sqft"],
                decided.outcome is not outcome or any(decided.totals[k] != totals[k] for k in keys),
            )
        out[name] = _reading_step(project, name, chosen, other, alt, totals, log)
    return out


@dataclass
class _Alternative:
    """The project's answer under the other reading."""

    outcome: ProjectOutcome
    replace_acres: float
    sequencing: str | None
    exempt_sqft: float
    differs: bool = False


def _can_differ(name: str, looser: bool, within_reach: bool, dm_outcome: Outcome) -> bool:
    """Return whether deciding under the other reading can change the project's answer.

    A looser reading of subd. 9 cannot help a project already exempt or beyond every amount
    it could be given; a stricter one cannot change a project that is not exempt; the
    exemption readings are a concern only when they change some impacts' answer.
    """
    if name in _EXEMPTION_READINGS:
        return True
    if looser:
        return within_reach and dm_outcome is not Outcome.EXEMPT
    return dm_outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL)


def _reading_step(
    project: str,
    name: str,
    chosen: str,
    other: str,
    alt: _Alternative,
    totals: Mapping[str, Any],
    log: TraceLog,
) -> dict[str, Any]:
    """Write the ``reading.<name>`` step: the reading used, and the other's result."""
    default = READINGS[name][0]
    words = _READING_WORDS[name]
    first, *rest = R.rule(R.READING_RULES[name]).citations
    citation = (first, *map(short_cite, rest))
    # the reason names a reading of the exemptions' binding rules as its step cites it
    cites = citation if name in _EXEMPTION_READINGS else tuple(map(short_cite, citation))
    exempt_words = (
        f"; exempt area {fmt_number(alt.exempt_sqft)} sq ft instead of "
        f"{fmt_number(totals['exempt_sqft'])}"
        if name in _EXEMPTION_READINGS
        else ""
    )
    reason = (
        f"Open reading of {'; '.join(cites)}: {words}. This answer reads it as {chosen!r}"
        + (" (the default)" if chosen == default else f" (the default is {default!r})")
        + (
            f"; under {other!r} the project would be {alt.outcome.value} (replacement "
            f"{fmt_number(alt.replace_acres)} acres instead of "
            f"{fmt_number(totals['replace_acres'])}; on-site sequencing "
            f"{alt.sequencing} instead of {totals['sequencing_on_site']}{exempt_words})."
            if alt.differs
            else f"; under {other!r} the answer is the same."
        )
    )
    entry = {
        "reading": chosen,
        "alternative": other,
        "differs": alt.differs,
        "alternative_outcome": alt.outcome.value,
        "alternative_replace_acres": alt.replace_acres,
        "alternative_sequencing_on_site": alt.sequencing,
    }
    if name in _EXEMPTION_READINGS:
        entry["alternative_exempt_sqft"] = alt.exempt_sqft
    log.add(
        project=project,
        impact_id="",
        rule_id=R.READING_RULES[name],
        citation=citation,
        outcome=O_CLASSIFIED,
        value=alt.replace_acres if alt.differs else None,
        reason=reason,
        verify=(
            f"Which reading of {'; '.join(cites)} the local government unit applies "
            f"(Claims.{name}); the alternative's result is shown beside this one.",
        )
        if alt.differs
        else (),
        inputs=entry,
    )
    return entry
