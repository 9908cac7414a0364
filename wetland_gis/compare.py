"""Sequencing: compare the alternatives an applicant considered.

Replacement "must be guided by the following principles in descending order of
priority": avoid, minimize, rectify, reduce or eliminate over time, then compensate
(Minn. Stat. § 103G.222, subd. 1(b); Minn. R. 8420.0520, subp. 1). Before it approves a
replacement plan, the local government unit must find that the applicant has shown this,
with an analysis of the alternatives (8420.0520, subp. 3 C). What a GIS can give the LGU
is the comparison: each alternative (the preferred design, a reduced footprint, an
off-site alternative, no-build) assessed with the same context, date, claims and
parameters, side by side.

:func:`compare` assesses each alternative with :func:`wetland_gis.assess` (and, where
sites and banks are given, sites it with :func:`wetland_gis.site`) and tabulates what
those decisions say. It decides nothing itself: every number in the table is read from an
alternative's :class:`~wetland_gis.assess.Assessment` or
:class:`~wetland_gis.siting.engine.SitingResult`, and the findings the law leaves to the
LGU (practicability of an alternative, wetland dependence, rectify and reduce over time)
are verify items, never answers.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import pandas as pd

from wetland_gis.assess import Assessment, AssessRequest, assess_request, map_layers
from wetland_gis.context import Context
from wetland_gis.errors import EmptyLayerWarning, InputError
from wetland_gis.geometry.cleaning import ASSESSED
from wetland_gis.impacts import DerivedImpacts
from wetland_gis.io.field_map import record_field_map
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.labels import label
from wetland_gis.manifest import Manifest
from wetland_gis.rules.registry import PROCEDURE_NO_PLAN
from wetland_gis.rules.spec import cite, cite_rule
from wetland_gis.units import SQFT_PER_ACRE

if TYPE_CHECKING:
    from wetland_gis.siting.engine import SitingResult

#: The name that stands for the no-build alternative (no impact at all) in a list of
#: alternatives: ``wetland-gis compare impacts.gpkg reduced.gpkg no-build``.
NO_BUILD = "no-build"

#: The outcome of an alternative with no impact polygon (``avoid``, ``no-build``).
NO_IMPACT = "no_impact"

#: The principles of § 103G.222, subd. 1(b) and Minn. R. 8420.0520, subp. 1, in their
#: descending order of priority: (key, the words, the citations).
SEQUENCING_PRINCIPLES: tuple[tuple[str, str, str], ...] = (
    (
        "avoid",
        "avoiding the direct or indirect impact of the activity that may destroy or "
        "diminish the wetland",
        f"{cite('103G.222', '1(b)(1)')}; {cite_rule('8420.0520', '1 A')}",
    ),
    (
        "minimize",
        "minimizing the impact by limiting the degree or magnitude of the wetland activity "
        "and its implementation",
        f"{cite('103G.222', '1(b)(2)')}; {cite_rule('8420.0520', '1 B')}",
    ),
    (
        "rectify",
        "rectifying the impact by repairing, rehabilitating, or restoring the affected "
        "wetland environment",
        f"{cite('103G.222', '1(b)(3)')}; {cite_rule('8420.0520', '1 C')}",
    ),
    (
        "reduce",
        "reducing or eliminating the impact over time by preservation and maintenance "
        "operations during the life of the activity",
        f"{cite('103G.222', '1(b)(4)')}; {cite_rule('8420.0520', '1 D')}",
    ),
    (
        "replace",
        "compensating for the impact by restoring a wetland, or by replacing or providing "
        "substitute wetland resources or environments",
        f"{cite('103G.222', '1(b)(5)-(6)')}; {cite_rule('8420.0520', '1 E')}",
    ),
)

_WETLAND_DEPENDENCE = (
    "Wetland dependence: the LGU determines whether the project is wetland dependent, i.e. "
    "wetland features or functions are essential to its basic purpose (the presence of a "
    "wetland at the site does not make it so); a wetland-dependent project is exempt from "
    "the alternatives analysis (Minn. R. 8420.0520, subp. 3 B). The comparison does not "
    "decide it."
)
_PRACTICABLE = (
    "Whether each alternative is practicable, and whether the applicant has documented the "
    "alternatives the rule asks for, is the LGU's finding (Minn. R. 8420.0520, subp. 3 C); "
    "the table only shows the wetland impact and replacement of each."
)
_LGU_FINDS = (
    "Before approving a replacement plan the LGU must find that the applicant has "
    "exhausted all possibilities to avoid and minimize wetland impacts (Minn. R. "
    "8420.0500, subp. 2; 8420.0520, subp. 1)."
)

#: Columns of :attr:`Comparison.table`, in order (docs/data_schema.md, "compare").
TABLE_COLUMNS = (
    "alternative",
    "source",
    "impacts",
    "assessed",
    "not_assessed",
    "wetland_sqft",
    "wetland_acres",
    "counted_sqft",
    "public_waters_sqft",
    "outcome",
    "replace_credits",
    "credits_allocated",
    "cost_usd",
    "credits_unmet",
    "d_wetland_sqft",
    "d_wetland_pct",
    "d_replace_credits",
    "d_cost_usd",
)


@dataclass(frozen=True)
class Alternative:
    """One alternative of a comparison.

    Attributes
    ----------
    name : str
        What the alternative is called (given, or the file's stem).
    source : str
        The impact layer's path, or :data:`NO_BUILD`.
    assessment : Assessment
        Its assessment, with the comparison's context, date, options and parameters.
    siting : SitingResult, optional
        Its siting run, when sites or banks were given.
    """

    name: str
    source: str
    assessment: Assessment
    siting: SitingResult | None = None

    @property
    def slug(self) -> str:
        """Return a file- and layer-safe form of the name (``[a-z0-9_]``, at most 40)."""
        return _slug(self.name)


@dataclass
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    alternatives : tuple of Alternative
        In the order given; the first is the applicant's preferred alternative.
    table : DataFrame
        One row per alternative (:data:`TABLE_COLUMNS`): impact counts, wetland area,
        the project outcome, replacement credits, siting cost, and the difference of each
        figure from the first alternative.
    by_type_zone : DataFrame
        Wetland area impacted by alternative, Circular 39 type and shoreland zone.
    findings : list of dict
        The sequencing section: for each principle in its order, what the comparison
        shows (``shows``) and what a person must still find (``verify``).
    as_of : str
        The date the law was read for (ISO).
    manifest : Manifest
        Inputs, options and assumptions of the run.
    """

    alternatives: tuple[Alternative, ...]
    table: pd.DataFrame
    by_type_zone: pd.DataFrame
    findings: list[dict[str, Any]]
    as_of: str
    manifest: Manifest = field(repr=False, default_factory=lambda: Manifest("compare", ""))

    def write(self, out_dir: str | Path, *, overwrite: bool = False) -> list[Path]:
        """Write the comparison into ``out_dir``.

        Files: ``comparison.csv`` (the table), ``comparison_by_type_zone.csv``,
        ``comparison_alternatives.gpkg`` (each alternative's classified impacts as a layer
        named by its slug), ``<slug>_map.html`` (each alternative's TEP map, offline),
        ``comparison.html`` (the table, the sequencing section and the maps side by side)
        and ``comparison_manifest.json``. Every file is staged and moved into place when
        all are complete.

        Parameters
        ----------
        out_dir : str or Path
            The folder (created when missing).
        overwrite : bool, default False
            Replace files an earlier ``compare`` did not write there.

        Returns
        -------
        list of Path
            Every file written.
        """
        from wetland_gis.mapping import tep_map
        from wetland_gis.mapping.offline import make_self_contained

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        manifest_path = out / "comparison_manifest.json"
        maps: list[dict[str, str]] = []
        with SafeWriter.for_run("compare", self.manifest, manifest_path, overwrite=overwrite) as w:
            w.csv(self.table, out / "comparison.csv")
            w.csv(self.by_type_zone, out / "comparison_by_type_zone.csv")
            gpkg = out / "comparison_alternatives.gpkg"
            for alt in self.alternatives:
                impacts = alt.assessment.impacts
                w.layer(impacts, gpkg, layer=alt.slug, polygons=True)
                page = out / f"{alt.slug}_map.html"
                sit = alt.siting
                m = tep_map(
                    impacts,
                    zones=alt.assessment.zones,
                    sites=sit.sites if sit is not None else None,
                    banks=sit.banks if sit is not None else None,
                    allocation=sit.allocation if sit is not None else None,
                    context=map_layers(alt.assessment.context),
                    title=f"Alternative: {alt.name}",
                    trace=alt.assessment.trace,
                    project_layers=alt.assessment.footprint_layers or None,
                )
                w.text(make_self_contained(m.get_root().render()), page)
                maps.append({"name": alt.name, "href": page.name})
            w.text(render_comparison(self, maps), out / "comparison.html")
            w.manifest(self.manifest, manifest_path)
        return list(w.written)


def _slug(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_")[:40]
    return text or "alternative"


def _unique_slugs(names: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for name in names:
        slug = _slug(name)
        if slug in seen:
            raise InputError(
                f"alternatives {seen[slug]!r} and {name!r} have the same file name {slug!r}: "
                "give each alternative a distinct name (--name)"
            )
        seen[slug] = name


def _no_build() -> gpd.GeoDataFrame:
    """Return an impact layer with no features: the no-build alternative."""
    return gpd.GeoDataFrame({"impact_id": pd.Series(dtype=str)}, geometry=[], crs=26915)


def compare(
    alternatives: Sequence[str | Path | gpd.GeoDataFrame],
    context: str | Path | Context | None = None,
    *,
    names: Sequence[str] | None = None,
    sites: Any = None,
    banks: Any = None,
    adjustments: Any = None,
    **keywords: Any,
) -> Comparison:
    """Assess each alternative of one project alike and compare them.

    Parameters
    ----------
    alternatives : sequence of path, GeoDataFrame, DerivedImpacts or ``"no-build"``
        The impact layer of each alternative, the applicant's preferred first, or its
        construction limits cut into impacts by :func:`wetland_gis.impacts` (issue 35;
        assessed with the layers it was cut from). :data:`NO_BUILD` stands for an
        alternative with no impact.
    context : str, Path or Context, optional
        The reference layers, read once and used for every alternative.
    names : sequence of str, optional
        A name per alternative (default: the file's stem, ``alternative N`` for a frame).
    sites, banks, adjustments
        When ``sites`` or ``banks`` is given, each alternative is also sited with
        :func:`wetland_gis.site` and the table shows the credits allocated and the cost.
    **keywords
        The keywords of :func:`wetland_gis.assess`, one request for every alternative
        (:class:`~wetland_gis.assess.AssessRequest`): ``as_of`` (the application date,
        default today), ``params`` (default: the shipped tree), ``options`` (the
        analyst's claims and readings), ``layer``, ``fields``, ``assume_crs``,
        ``shoreland_classes``, ``class_source``, ...

    Returns
    -------
    Comparison

    Raises
    ------
    InputError
        With fewer than two alternatives, a name count that does not match, or two names
        that give the same file name.
    """
    labels = _alternative_names(alternatives, names)
    request = AssessRequest.of(NO_BUILD, context, **keywords)
    # the context read once, with its class list, for every alternative
    request = replace(request, context=request.loaded_context(), shoreland_classes=None)
    sited = sites is not None or banks is not None
    done: list[Alternative] = []
    for name, alt in zip(labels, alternatives, strict=True):
        a = _assess_alternative(alt, request)
        sit = None
        if sited:
            from wetland_gis.siting.engine import site

            sit = site(
                a,
                sites=sites,
                banks=banks,
                context=request.context,
                adjustments=adjustments,
                as_of=request.as_of,
                params=request.params,
            )
        done.append(Alternative(name=name, source=_source(alt), assessment=a, siting=sit))
    table = comparison_table(done)
    return Comparison(
        alternatives=tuple(done),
        table=table,
        by_type_zone=type_zone_table(done),
        findings=sequencing_findings(done, table),
        as_of=request.as_of.isoformat(),
        manifest=_manifest(done, request, sited),
    )


def _alternative_names(alternatives: Sequence[Any], names: Sequence[str] | None) -> list[str]:
    """Return the name of each alternative; refuse too few alternatives or clashing names."""
    if len(alternatives) < 2:
        raise InputError(
            f"compare needs at least two alternatives (got {len(alternatives)}): the "
            "applicant's preferred one first, then e.g. a reduced footprint or no-build"
        )
    if names is not None and len(names) != len(alternatives):
        raise InputError(
            f"{len(names)} name(s) for {len(alternatives)} alternatives: give one --name per "
            "alternative, in the same order"
        )
    labels = (
        list(names)
        if names is not None
        else [_default_name(a, i) for i, a in enumerate(alternatives)]
    )
    _unique_slugs(labels)
    return labels


def _source(alt: Any) -> str:
    """Return what an alternative was read from, as the table and the manifest name it."""
    if isinstance(alt, str) and alt == NO_BUILD:
        return NO_BUILD
    if isinstance(alt, DerivedImpacts):
        return _footprint_source(alt)
    return str(alt) if not isinstance(alt, gpd.GeoDataFrame) else "<GeoDataFrame>"


def _assess_alternative(alt: Any, request: AssessRequest) -> Assessment:
    """Assess one alternative with the comparison's request (its context loaded)."""
    with warnings.catch_warnings():
        # an alternative with no impact is what avoid and no-build are: the table says
        # so, and the manifest records it below; it is not a mistake to warn about
        warnings.simplefilter("ignore", EmptyLayerWarning)
        if isinstance(alt, DerivedImpacts):  # construction limits, cut by `wg.impacts`
            return alt.assess(
                request.context,
                as_of=request.as_of,
                assume_crs=request.assume_crs,
                params=request.params,
                options=request.options,
            )
        if isinstance(alt, str) and alt == NO_BUILD:
            return assess_request(replace(request, impacts=_no_build(), layer=None))
        return assess_request(replace(request, impacts=alt))


def _manifest(done: list[Alternative], request: AssessRequest, sited: bool) -> Manifest:
    """Return the comparison's manifest: each alternative's inputs and records, the options."""
    manifest = Manifest(
        command="compare",
        as_of=request.as_of.isoformat(),
        parameters_source=request.params.source,
        parameters_sha256=request.params.sha256,
        settings={
            "alternatives": [{"name": a.name, "source": a.source} for a in done],
            "options": request.options.settings(),
            "sited": sited,
        },
    )
    record_field_map(request.fields, manifest)
    for alt in done:
        if not len(alt.assessment.impacts):
            manifest.add_records(
                [f"{alt.name}: no impact polygon (the alternative avoids every wetland)"]
            )
        for record in alt.assessment.manifest.inputs:
            manifest.add_input(record)
        manifest.add_records(f"{alt.name}: {r}" for r in alt.assessment.manifest.records)
    manifest.assumptions.append(
        "Each alternative was assessed with the same context, date, parameters and claims; "
        "the comparison reads their decisions and decides nothing itself."
    )
    return manifest


def _footprint_source(derived: Any) -> str:
    """Return the footprint file an alternative's impacts were cut from (issue 35)."""
    read = [i for i in derived.manifest.inputs if i.role == "footprint"]
    if not read:
        return "footprint"
    layer = f" (layer {read[0].layer})" if read[0].layer else ""
    return f"footprint {read[0].path}{layer}"


def _default_name(alt: Any, i: int) -> str:

    if isinstance(alt, str) and alt == NO_BUILD:
        return NO_BUILD
    if isinstance(alt, DerivedImpacts):
        paths = [i.path for i in alt.manifest.inputs if i.role == "footprint"]
        layers = [i.layer for i in alt.manifest.inputs if i.role == "footprint"]
        if paths and not paths[0].startswith("<"):
            return layers[0] or Path(paths[0]).stem
        return f"alternative {i + 1}"
    if isinstance(alt, (str, Path)):
        path = Path(alt)
        return path.parent.name if path.stem == "impacts" and i == 0 else path.stem
    return f"alternative {i + 1}"


def _assessed(a: Assessment) -> pd.DataFrame:
    impacts = a.impacts
    if not len(impacts) or "status" not in impacts:
        return impacts.iloc[0:0]
    return impacts[impacts["status"] == ASSESSED]


def _project_sum(a: Assessment, column: str) -> float:
    if column not in a.projects:
        return 0.0
    return float(pd.to_numeric(a.projects[column], errors="coerce").fillna(0.0).sum())


def _outcome(a: Assessment) -> str:
    """Return the project outcome(s) the engine decided (``no impact`` when there is none)."""
    if not len(a.impacts):
        return NO_IMPACT
    if "outcome" not in a.projects or not len(a.projects):
        return "not assessed"
    outcomes = [str(o) for o in a.projects["outcome"]]
    if len(set(outcomes)) == 1:
        return outcomes[0]
    return "; ".join(f"{p}: {o}" for p, o in zip(a.projects["project"], outcomes, strict=True))


def comparison_table(alternatives: Sequence[Alternative]) -> pd.DataFrame:
    """Return one row per alternative with its figures and the difference from the first.

    Parameters
    ----------
    alternatives : sequence of Alternative
        Assessed (and possibly sited) alternatives, the preferred first.

    Returns
    -------
    DataFrame
        The columns of :data:`TABLE_COLUMNS`. ``credits_allocated``, ``cost_usd`` and
        ``credits_unmet`` (replacement credits the siting could not place, in the one unit
        of the siting totals) are empty for an alternative that was not sited.
    """
    rows = []
    for alt in alternatives:
        a = alt.assessment
        done = _assessed(a)
        wetland = (
            float(pd.to_numeric(done.get("area_sqft"), errors="coerce").fillna(0).sum())
            if len(done)
            else 0.0
        )
        totals = alt.siting.totals if alt.siting is not None else None
        rows.append(
            {
                "alternative": alt.name,
                "source": alt.source,
                "impacts": len(a.impacts),
                "assessed": len(done),
                "not_assessed": len(a.impacts) - len(done),
                "wetland_sqft": wetland,
                "wetland_acres": wetland / SQFT_PER_ACRE,
                "counted_sqft": _project_sum(a, "counted_sqft"),
                "public_waters_sqft": _project_sum(a, "public_waters_sqft"),
                "outcome": _outcome(a),
                "replace_credits": _project_sum(a, "replace_acres"),
                "credits_allocated": float(totals["credits"]) if totals is not None else None,
                "cost_usd": float(totals["cost"]) if totals is not None else None,
                "credits_unmet": float(totals["credits_unmet"]) if totals is not None else None,
            }
        )
    table = pd.DataFrame(rows)
    base = table.iloc[0]
    table["d_wetland_sqft"] = table["wetland_sqft"] - base["wetland_sqft"]
    table["d_wetland_pct"] = (
        100.0 * table["d_wetland_sqft"] / base["wetland_sqft"] if base["wetland_sqft"] else None
    )
    table["d_replace_credits"] = table["replace_credits"] - base["replace_credits"]
    cost = pd.to_numeric(table["cost_usd"], errors="coerce")
    table["d_cost_usd"] = cost - cost.iloc[0]
    return table[list(TABLE_COLUMNS)]


def type_zone_table(alternatives: Sequence[Alternative]) -> pd.DataFrame:
    """Return the wetland area impacted by alternative, Circular 39 type and zone.

    Parameters
    ----------
    alternatives : sequence of Alternative

    Returns
    -------
    DataFrame
        ``alternative, wetland_type, zone, impacts, sqft, acres``; an alternative without
        an assessed impact has no row.
    """
    pieces = []
    for alt in alternatives:
        done = _assessed(alt.assessment)
        if not len(done):
            continue
        frame = pd.DataFrame(
            {
                "alternative": alt.name,
                "wetland_type": done["wetland_type"].astype(str),
                "zone": done["zone"].astype(str),
                "sqft": pd.to_numeric(done["area_sqft"], errors="coerce"),
            }
        )
        grouped = (
            frame.groupby(["alternative", "wetland_type", "zone"], sort=True)["sqft"]
            .agg(impacts="count", sqft="sum")
            .reset_index()
        )
        pieces.append(grouped)
    if not pieces:
        return pd.DataFrame(
            columns=["alternative", "wetland_type", "zone", "impacts", "sqft", "acres"]
        )
    out = pd.concat(pieces, ignore_index=True)
    out["acres"] = out["sqft"] / SQFT_PER_ACRE
    return out


def _sqft(value: float) -> str:
    return f"{value:,.0f} sq ft ({value / SQFT_PER_ACRE:,.2f} ac)"


def sequencing_findings(
    alternatives: Sequence[Alternative], table: pd.DataFrame
) -> list[dict[str, Any]]:
    """Return the sequencing section: each principle, what the comparison shows, what to find.

    Parameters
    ----------
    alternatives : sequence of Alternative
    table : DataFrame
        :func:`comparison_table` of the same alternatives.

    Returns
    -------
    list of dict
        ``principle``, ``words``, ``citation``, ``shows`` (sentences) and ``verify``
        (sentences), in the descending order of priority of § 103G.222, subd. 1(b).
    """
    shows: dict[str, list[str]] = {key: [] for key, _, _ in SEQUENCING_PRINCIPLES}
    verify: dict[str, list[str]] = {key: [] for key, _, _ in SEQUENCING_PRINCIPLES}
    shows["avoid"] += _avoid_shows(table)
    verify["avoid"] += [_PRACTICABLE, _WETLAND_DEPENDENCE]
    shows["minimize"] += _minimize_shows(table)
    verify["minimize"].append(
        "Whether the preferred design limits the degree or magnitude of the activity as far "
        "as practicable is the LGU's finding (Minn. R. 8420.0520, subp. 1 B)."
    )
    verify["rectify"].append(
        "Repair, rehabilitation or restoration of the affected wetland is not in the impact "
        "layers: the applicant documents it and the LGU finds it."
    )
    verify["reduce"].append(
        "Preservation and maintenance operations during the life of the activity are not in "
        "the impact layers: the applicant documents them and the LGU finds them."
    )
    _replace_findings(alternatives[0], table, shows, verify)
    return [
        {
            "principle": key,
            "words": words,
            "citation": citation,
            "shows": shows[key],
            "verify": verify[key],
        }
        for key, words, citation in SEQUENCING_PRINCIPLES
    ]


def _avoid_shows(table: pd.DataFrame) -> list[str]:
    """Return what the table shows of avoidance (§ 103G.222, subd. 1(b)(1))."""
    preferred, others = table.iloc[0], table.iloc[1:]
    avoiding = others[others["wetland_sqft"] <= 0]
    if preferred["wetland_sqft"] <= 0:
        return [f"The preferred alternative {preferred['alternative']!s} impacts no wetland."]
    if len(avoiding):
        names = ", ".join(str(n) for n in avoiding["alternative"])
        return [
            f"{len(avoiding)} alternative(s) avoid wetland impact entirely ({names}); the "
            f"preferred alternative impacts {_sqft(float(preferred['wetland_sqft']))}."
        ]
    return ["No alternative compared avoids wetland impact entirely."]


def _minimize_shows(table: pd.DataFrame) -> list[str]:
    """Return what the table shows of minimization (§ 103G.222, subd. 1(b)(2))."""
    preferred, others = table.iloc[0], table.iloc[1:]
    impacting = others[others["wetland_sqft"] > 0]
    if not len(impacting) or preferred["wetland_sqft"] <= 0:
        return []
    least = impacting.loc[impacting["wetland_sqft"].idxmin()]
    less = float(preferred["wetland_sqft"] - least["wetland_sqft"])
    if less <= 0:
        return ["No alternative that still impacts wetland impacts less than the preferred one."]
    return [
        f"{least['alternative']!s} impacts {_sqft(float(least['wetland_sqft']))}, "
        f"{_sqft(less)} less than the preferred alternative "
        f"({100 * less / float(preferred['wetland_sqft']):.0f} percent less)."
    ]


def _replace_findings(
    preferred: Alternative,
    table: pd.DataFrame,
    shows: dict[str, list[str]],
    verify: dict[str, list[str]],
) -> None:
    """Add what the table shows of replacement (subd. 1(b)(5)-(6)), and the road projects."""
    for row in table.to_dict("records"):
        sited = ""
        if pd.notna(row["credits_allocated"]):
            sited = (
                f", {float(row['credits_allocated']):,.2f} allocated at an estimated "
                f"${float(row['cost_usd']):,.0f}"
            )
        shows["replace"].append(
            f"{row['alternative']!s}: {label(row['outcome'])}, "
            f"{float(row['replace_credits']):,.2f} replacement credits required{sited}."
        )
    no_plan = _no_replacement_plan(preferred)
    if no_plan:
        names = ", ".join(no_plan)
        shows["replace"].append(
            f'{names}: a public road project the board (or the state) replaces: "a '
            'replacement plan for wetlands is not required" (§ 103G.222, subd. 1(m)), so '
            "there is no sequencing of a replacement plan and no public comment period on "
            "one for it."
        )
        verify["minimize"].append(
            "§ 103G.222, subd. 1(m)(1): the road authority minimizes the amount of wetland "
            "filling or draining and considers mitigating important site-specific wetland "
            "functions on site; those notified may appeal its minimization, delineation "
            "and on-site mitigation decisions to the board (the road step of the trace "
            "lists the reports of clauses (2) and (3))."
        )
    on_site = preferred.assessment.projects
    if "sequencing_on_site" in on_site and len(on_site):
        verdicts = sorted({str(v) for v in on_site["sequencing_on_site"]})
        shows["replace"].append(
            "On-site sequencing determination without a written alternatives analysis "
            f"(§ 103G.222, subd. 1(b)) for the preferred alternative: "
            f"{', '.join(label(v) for v in verdicts)}."
        )
    if not no_plan or len(no_plan) < len(preferred.assessment.decisions):
        verify["replace"].append(_LGU_FINDS)


def _no_replacement_plan(alternative: Alternative) -> list[str]:
    """Return the projects of an alternative that need no replacement plan (subd. 1(m)).

    Read from the engine's decision (its ``procedure.no_replacement_plan`` step), never
    decided here.
    """
    return [
        d.project
        for d in alternative.assessment.decisions
        if any(s["rule_id"] == PROCEDURE_NO_PLAN for s in d.steps())
    ]


def render_comparison(comparison: Comparison, maps: Sequence[Mapping[str, str]]) -> str:
    """Return the comparison page (HTML): the table, the sequencing section, the maps.

    Every value is escaped by the template (jinja2 autoescape); no value is a template.

    Parameters
    ----------
    comparison : Comparison
    maps : sequence of mapping
        ``name`` and ``href`` of each alternative's map page, in order.

    Returns
    -------
    str
    """
    from wetland_gis.mapping.comparison_page import comparison_page

    return comparison_page(comparison, maps)
