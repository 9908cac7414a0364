"""Procedural thresholds of a replacement plan and of the wetland bank.

* :func:`sequencing_without_alternatives_analysis` — § 103G.222, subd. 1(b), last sentence.
* :func:`public_comment_required` — § 103G.2242, subd. 8.
* :func:`revised_application_requires_notice` — § 103G.2242, subd. 6(b).
* :func:`bank_fees` — § 103G.2242, subd. 14(a).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, NamedTuple

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome, ShorelandZone
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import registry as R
from wetland_gis.rules.amounts import AmountEntry
from wetland_gis.rules.facts import (
    PERCENT,
    Trace,
    check_area,
    exact,
    fmt_number,
    fmt_sqft,
)
from wetland_gis.rules.kernel import READINGS, Impact, RuleBook, passes
from wetland_gis.rules.trace import Reason, TraceLog

#: The transactions of § 103G.2242, subd. 14(a).
BANK_TRANSACTIONS = ("maintenance", "establishment", "deposit", "transfer", "withdrawal")

_PROCEDURE = "procedure."
_BANK_FEE = "bank_fees."


def sequencing_without_alternatives_analysis(
    total_sqft: float,
    applicable_amount_sqft: float,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether the LGU may decide sequencing on site without a written analysis.

    Parameters
    ----------
    total_sqft : float
        Total wetland area the project drains or fills, in square feet.
    applicable_amount_sqft : float
        The de minimis amount of § 103G.2241, subd. 9, paragraph (a) that applies to the
        project (e.g. the ``value`` of :func:`~wetland_gis.rules.de_minimis_allowance`).
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``ELIGIBLE`` when the total is not more than the applicable amount plus the
        allowance of § 103G.222, subd. 1(b), last sentence; ``NOT_ELIGIBLE`` otherwise.

    Notes
    -----
    "Not exceeding 10,000 square feet more than the applicable amount" is read as
    ``total <= applicable + allowance``. Eligibility is the local government unit's option
    ("may"), not the applicant's right. The paragraph names the paragraph (a) amount only;
    where subd. 9(d) replaces it in the metropolitan area, pass the (d) amount and confirm.
    """
    trace = Trace("sequencing_without_alternatives_analysis", params, as_of)
    total = check_area(total_sqft, "total_sqft")
    applicable = check_area(applicable_amount_sqft, "applicable_amount_sqft")
    key = _PROCEDURE + "sequencing_allowance"
    allowance = trace.value(key)
    trace.cite_key(key)
    excess = exact(total) - exact(applicable)
    trace.amounts.update(
        total_sqft=total,
        applicable_amount_sqft=applicable,
        threshold_sqft=applicable + allowance,
        excess_over_amount_sqft=float(excess),
    )
    trace.check(
        "The on-site sequencing determination without a written alternatives analysis is at "
        'the local government unit\'s option ("may"), § 103G.222, subd. 1(b), last sentence.',
        "The applicable amount is that of § 103G.2241, subd. 9(a) for the project (confirm "
        "which amount applies where subd. 9(d) replaces it in the metropolitan area).",
    )
    return trace.decide_limit(
        key,
        excess,
        within=(
            f"The project's {fmt_sqft(total)} does not exceed the applicable amount of "
            f"{fmt_sqft(applicable)} by more than {fmt_sqft(allowance)}: the local government "
            "unit may make an on-site sequencing determination without a written "
            "alternatives analysis."
        ),
        beyond=(
            f"The project's {fmt_sqft(total)} exceeds the applicable amount of "
            f"{fmt_sqft(applicable)} by more than {fmt_sqft(allowance)}: a written "
            "alternatives analysis is needed."
        ),
    )


def public_comment_required(
    total_sqft: float,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether a replacement plan has a public comment period (§ 103G.2242, subd. 8).

    Parameters
    ----------
    total_sqft : float
        Wetland area the activities impact, in square feet.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``REQUIRED`` unless the area is less than the threshold (then ``NOT_REQUIRED``);
        ``amounts["min_days"]`` is the minimum period, set by the local government unit.

    Notes
    -----
    "Except for activities impacting less than 10,000 square feet": an impact exactly at
    the threshold is not excepted, so a comment period is required.
    """
    trace = Trace("public_comment_required", params, as_of)
    total = check_area(total_sqft, "total_sqft")
    key = _PROCEDURE + "public_comment_threshold"
    threshold = trace.value(key)
    days_key = _PROCEDURE + "public_comment_min_days"
    days = trace.value(days_key)
    trace.cite_key(key)
    trace.amounts.update(total_sqft=total, threshold_sqft=threshold)
    if trace.passes(key, total):
        trace.because(
            f"The activities impact {fmt_sqft(total)}, less than {fmt_sqft(threshold)}: no "
            "public comment period is required."
        )
        return trace.decide(Outcome.NOT_REQUIRED, False)
    trace.amounts["min_days"] = days
    trace.because(
        f"The activities impact {fmt_sqft(total)}, not less than {fmt_sqft(threshold)}: the "
        f"public may comment for {fmt_number(days)} days or more, as the local government "
        "unit determines, before approval or denial."
    )
    trace.check("The length of the comment period is set by the local government unit.")
    return trace.decide(Outcome.REQUIRED, True)


def revised_application_requires_notice(
    original_sqft: float,
    revised_sqft: float,
    moved_ft: float,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether a revised replacement plan is an "application" needing notice.

    Parameters
    ----------
    original_sqft : float
        Area drained or filled under the original replacement plan (``> 0``).
    revised_sqft : float
        Area drained or filled under the revised plan.
    moved_ft : float
        Distance of the revised area from the original area, in feet.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``REQUIRED`` when the revised area is at least the percentage larger (subd. 6(b)(1))
        or lies more than the distance away (subd. 6(b)(2)); ``NOT_REQUIRED`` otherwise.

    Notes
    -----
    "At least ten percent larger" includes exactly ten percent; "more than 500 feet"
    excludes exactly 500 feet. The increase is computed exactly.
    """
    trace = Trace("revised_application_requires_notice", params, as_of)
    original = check_area(original_sqft, "original_sqft", positive=True)
    revised = check_area(revised_sqft, "revised_sqft")
    moved = check_area(moved_ft, "moved_ft")
    increase = (exact(revised) - exact(original)) / exact(original) * PERCENT
    area_key = _PROCEDURE + "revised_application_area_increase"
    distance_key = _PROCEDURE + "revised_application_distance"
    trace.amounts.update(
        original_sqft=original,
        revised_sqft=revised,
        increase_percent=float(increase),
        moved_ft=moved,
    )
    larger = trace.passes(area_key, increase)
    farther = trace.passes(distance_key, moved)
    pct = fmt_number(trace.value(area_key))
    distance = fmt_number(trace.value(distance_key))
    if larger:
        trace.cite_key(area_key)
        trace.because(
            f"The revised area is {fmt_number(float(increase))} percent larger than the "
            f"original: at least {pct} percent larger."
        )
    if farther:
        trace.cite_key(distance_key)
        trace.because(
            f"The revised area is {fmt_number(moved)} feet from the original: more than "
            f"{distance} feet."
        )
    if larger or farther:
        trace.because(
            "The revision is an application: copies go to the Technical Evaluation Panel, the "
            "watershed district managers and the commissioner (§ 103G.2242, subd. 6(a))."
        )
        return trace.decide(Outcome.REQUIRED, True)
    trace.cite_key(area_key, distance_key)
    trace.because(
        f"The revised area is {fmt_number(float(increase))} percent larger (less than {pct}) "
        f"and {fmt_number(moved)} feet away (not more than {distance}): not a new application."
    )
    return trace.decide(Outcome.NOT_REQUIRED, False)


def bank_fees(
    credit_value_usd: float,
    transaction: str,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the wetland bank fee of a transaction (§ 103G.2242, subd. 14(a)).

    Parameters
    ----------
    credit_value_usd : float
        Value of the credits concerned, in US dollars.
    transaction : {"maintenance", "establishment", "deposit", "transfer", "withdrawal"}
        Annual account maintenance; account establishment, deposit or transfer; withdrawal.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is the fee in US dollars: the percentage of the credit value, capped where
        the statute caps it (maintenance, and establishment/deposit/transfer; a withdrawal
        has no cap).

    Raises
    ------
    RulesInputError
        On an unknown transaction or a negative value.

    Examples
    --------
    >>> bank_fees(10_000, "deposit", as_of="2024-01-01").value
    650.0
    """
    trace = Trace("bank_fees", params, as_of)
    value = check_area(credit_value_usd, "credit_value_usd")
    if transaction not in BANK_TRANSACTIONS:
        raise RulesInputError(
            f"transaction was {transaction!r} but is expected to be in {list(BANK_TRANSACTIONS)}"
        )
    if transaction == "maintenance":
        pct_key, cap_key = _BANK_FEE + "maintenance_percent", _BANK_FEE + "maintenance_max"
    elif transaction == "withdrawal":
        pct_key, cap_key = _BANK_FEE + "withdrawal_percent", None
    else:
        pct_key, cap_key = _BANK_FEE + "transaction_percent", _BANK_FEE + "transaction_max"
    pct = trace.value(pct_key)
    trace.cite_key(pct_key)
    fee = exact(value) * exact(pct) / PERCENT
    trace.amounts.update(credit_value_usd=value, percent=float(pct), percentage_fee_usd=float(fee))
    trace.because(
        f"The {transaction} fee is {fmt_number(pct)} percent of ${fmt_number(value)}: "
        f"${fmt_number(float(fee))}."
    )
    if cap_key is not None:
        cap = trace.value(cap_key)
        trace.amounts["cap_usd"] = float(cap)
        if not trace.passes(cap_key, fee):
            fee = exact(cap)
            trace.because(f"It may not exceed ${fmt_number(cap)}: the fee is ${fmt_number(cap)}.")
    trace.amounts["fee_usd"] = float(fee)
    trace.check(
        "For single-user or other dedicated accounts the board may set fees at or below these "
        "(§ 103G.2242, subd. 14(b), (c))."
    )
    return trace.decide(Outcome.REQUIRED, float(fee))


# --- the engine's steps (rules/engine.py orders them) -----------------------------------


class ProcedureAnswer(NamedTuple):
    """What a procedure step writes besides its reason: :func:`procedure_answer`."""

    citations: tuple[str, ...]
    verify: tuple
    parameters: dict
    outcome: str


def procedure_answer(
    book: RuleBook, rule: str, ok: bool, total: float, applicable: float | None
) -> ProcedureAnswer:
    """Return (citations, verify, parameters, outcome) of a procedure step.

    They depend only on whether the limit is passed, so the rule's function is called
    once per outcome and its answer kept in the rule book's memo; the reason is rendered
    from it when needed.
    """
    key = ("procedure", rule, ok)
    got = book.memo.get(key)
    if got is None:
        if rule == "public_comment":
            d = public_comment_required(total, params=book.params, as_of=book.day)
        else:
            d = sequencing_without_alternatives_analysis(
                total, applicable or 0.0, params=book.params, as_of=book.day
            )
        got = ProcedureAnswer(
            tuple(d.citations), tuple(d.verify), dict(d.parameters), d.outcome.value
        )
        book.memo[key] = got
    return got


def procedure_steps(
    project: str,
    work: list[Impact],
    scope: list[Impact],
    wca_sqft: Decimal,
    book: RuleBook,
    log: TraceLog,
    concerns: set[str],
) -> tuple[str | None, str | None, str | None]:
    """§ 103G.2242, subd. 8 (public comment) and § 103G.222, subd. 1(b) (on-site sequencing).

    Both count the WCA wetland area only (§ 103G.005, subd. 19(b)). Returns the public
    comment outcome, the sequencing outcome and the sequencing outcome under the other
    ``sequencing_reading`` (``None`` where a step was not written).
    """
    # a WCA replacement plan (§ 103G.2242); a public waters wetland is replaced under the
    # public waters work permit (§ 103G.245, subd. 7); a road the board or the state
    # replaces needs none (§ 103G.222, subd. 1(m): "a replacement plan for wetlands is not
    # required")
    replaced = [w for w in work if w.acres and not w.f.public_waters_wetland]
    needs_plan = any(w.replacement_by is None for w in replaced)
    if replaced and not needs_plan:
        _no_replacement_plan(project, replaced, wca_sqft, log)
    if not needs_plan:
        return None, None, None
    comment = _public_comment(project, wca_sqft, book, log)
    sequencing, sequencing_alt = _sequencing(project, scope, wca_sqft, book, log, concerns)
    return comment, sequencing, sequencing_alt


def _no_replacement_plan(
    project: str, replaced: list[Impact], wca_sqft: Decimal, log: TraceLog
) -> None:
    """§ 103G.222, subd. 1(m): a road the board or the state replaces has no plan."""
    by = sorted({str(w.replacement_by) for w in replaced})
    regulated_sqft = float(wca_sqft)
    log.add(
        project=project,
        impact_id="",
        rule_id=R.PROCEDURE_NO_PLAN,
        citation=R.RULES[R.PROCEDURE_NO_PLAN].citations[0],
        outcome=Outcome.NOT_REQUIRED.value,
        value=regulated_sqft,
        reason=(
            '§ 103G.222, subd. 1(m): "a replacement plan for wetlands is not required" '
            f"for this public road project (replaced by: {', '.join(by)}): there is no "
            "public comment period on a plan (§ 103G.2242, subd. 8) and no sequencing of "
            "a plan (§ 103G.222, subd. 1(b)). What paragraph (m) asks instead is the "
            "road step's: the authority minimizes and considers on-site mitigation "
            "(clause 1) and reports (clause 2, or clause 3 for minor and emergency "
            "maintenance); those notified may appeal minimization, delineation and "
            "on-site mitigation decisions to the board."
        ),
        verify=(),
        inputs={"replacement_by": by, "total_sqft": regulated_sqft},
    )


def _public_comment(project: str, wca_sqft: Decimal, book: RuleBook, log: TraceLog) -> str:
    """§ 103G.2242, subd. 8: write the public comment step; return its outcome."""
    regulated_sqft = float(wca_sqft)
    ok = passes(book.comment_comparison, wca_sqft, book.comment_threshold)
    return _answer_step(
        log,
        project,
        R.PROCEDURE_PUBLIC_COMMENT,
        procedure_answer(book, "public_comment", ok, regulated_sqft, None),
        regulated_sqft,
        reason=(_r_public_comment, (regulated_sqft, book.params, book.day)),
        inputs={"total_sqft": regulated_sqft},
    )


def _sequencing(
    project: str,
    scope: list[Impact],
    wca_sqft: Decimal,
    book: RuleBook,
    log: TraceLog,
    concerns: set[str],
) -> tuple[str | None, str | None]:
    """§ 103G.222, subd. 1(b): the sequencing step; return its outcome and the other reading's."""
    regulated_sqft = float(wca_sqft)
    applicable = applicable_a_amount(scope, book, concerns)
    if applicable is None:
        return None, None
    answer = _sequencing_answer(book, wca_sqft, applicable)
    sequencing_alt = None
    if "sequencing_reading" in concerns:  # the other reading's answer, directly
        other = next(
            c for c in READINGS["sequencing_reading"] if c != book.claims.sequencing_reading
        )
        alt_entry = applicable_a_amount(scope, book, set(), reading=other)
        if alt_entry is not None:
            sequencing_alt = _sequencing_answer(book, wca_sqft, alt_entry).outcome
    outcome_value = _answer_step(
        log,
        project,
        R.PROCEDURE_SEQUENCING,
        answer,
        regulated_sqft,
        reason=(_r_sequencing, (regulated_sqft, float(applicable.sqft), book.params, book.day)),
        inputs={
            "total_sqft": regulated_sqft,
            "applicable_amount_sqft": applicable.sqft,
            "applicable_amount_key": applicable.key,
        },
    )
    return outcome_value, sequencing_alt


def _sequencing_answer(book: RuleBook, wca_sqft: Decimal, entry: AmountEntry) -> ProcedureAnswer:
    """§ 103G.222, subd. 1(b): the sequencing answer with ``entry`` the applicable amount."""
    ok = passes(book.sequencing_comparison, wca_sqft - entry.exact, book.sequencing_allowance)
    return procedure_answer(book, "sequencing", ok, float(wca_sqft), float(entry.sqft))


def _answer_step(
    log: TraceLog,
    project: str,
    rule_id: str,
    answer: ProcedureAnswer,
    total: float,
    *,
    reason: Reason,
    inputs: dict[str, Any],
) -> str:
    """Write the project-level step of a procedure rule's answer; return its outcome.

    ``answer`` is :func:`procedure_answer`'s (citations, verify, parameters, outcome);
    the step's value is the WCA wetland area the rule counted.
    """
    log.add(
        project=project,
        impact_id="",
        rule_id=rule_id,
        citation=answer.citations,
        outcome=answer.outcome,
        value=total,
        reason=reason,
        verify=answer.verify,
        inputs=inputs,
        parameters=answer.parameters,
    )
    return answer.outcome


def _r_public_comment(total: float, params: ParameterSet, day: dt.date) -> str:
    return " ".join(public_comment_required(total, params=params, as_of=day).reasons)


def _r_sequencing(total: float, applicable: float, params: ParameterSet, day: dt.date) -> str:
    return " ".join(
        sequencing_without_alternatives_analysis(
            total, applicable, params=params, as_of=day
        ).reasons
    )


def applicable_a_amount(
    scope: list[Impact], book: RuleBook, concerns: set[str], *, reading: str | None = None
) -> AmountEntry | None:
    """Return "the applicable amount" of subd. 9(a) for on-site sequencing.

    § 103G.222, subd. 1(b), last sentence, measures the on-site sequencing allowance from
    "the applicable amount in section 103G.2241, subdivision 9, paragraph (a)". On a project
    of several types the text is open (``sequencing_reading``): the smallest of their
    amounts (default), or the amount of the type covering most of the project's area.
    ``None`` when the project mixes places of different classes, has no wetland in scope,
    or a type with no amount (left to the LGU).
    """
    places = {(w.f.pct_class, w.f.metro) for w in scope}
    if len(places) != 1:
        return None
    pct, metro = next(iter(places))
    by_type: dict[tuple[int, bool], Decimal] = {}
    for w in scope:
        key = (int(w.f.wetland_type), w.f.cedar_tamarack)
        by_type[key] = by_type.get(key, Decimal(0)) + w.counted
    lookup = book.table.lookup
    entries = {k: lookup(k[0], k[1], ShorelandZone.OUTSIDE, pct, metro, False) for k in by_type}
    known = {k: e for k, e in entries.items() if e is not None}
    if not known:
        return None
    if len({e.exact for e in known.values()}) > 1:
        concerns.add("sequencing_reading")
    if (reading or book.claims.sequencing_reading) == "smallest_amount":
        return min(known.values(), key=lambda e: e.exact)
    (t, cedar), _ = max(by_type.items(), key=lambda kv: kv[1])
    return entries[(t, cedar)]
