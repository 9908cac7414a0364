"""Missing context is warned on stderr and listed in the report (issue 30).

No LGU polygon over an impact, no public water within a mile, no calcareous fen layer were
only in the manifest's records: each is now a :class:`MissingContextWarning` (a domain
warning the user can filter), the manifest's ``missing_context`` and a point of the
report's "What a person must still verify".
"""

from __future__ import annotations

import dataclasses
import html
import re
import warnings

import geopandas as gpd
import pytest
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.context import load_context
from wetland_gis.errors import MissingContextWarning, WetlandGISWarning
from wetland_gis.mapping.report import render_report

AS_OF = "2024-05-01"
pytestmark = pytest.mark.slow  # end to end: assess on the sample context


def _impacts(sample_data, far: bool) -> gpd.GeoDataFrame:
    c = gpd.read_file(sample_data.path("projects/crow_wing/impacts.gpkg")).geometry.iloc[0]
    x, y = c.centroid.x, c.centroid.y
    geoms = [box(x, y, x + 20, y + 20)]
    if far:  # 42 km away: no LGU polygon and no public water within a mile
        geoms.append(box(x + 30_000, y + 30_000, x + 30_020, y + 30_020))
    ids = [f"I-{k}" for k in range(len(geoms))]
    return gpd.GeoDataFrame(
        {"impact_id": ids, "circ39": ["2"] * len(geoms)}, geometry=geoms, crs="EPSG:26915"
    )


def _assess(impacts, context):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = wg.assess(impacts, context, as_of=AS_OF)
    missing = [str(w.message) for w in caught if w.category is MissingContextWarning]
    return a, missing


def _verify(a) -> str:
    page = render_report(None, a.impacts, trace=a.trace, manifest=a.manifest.to_dict())
    part = page.split('<section id="verify"')[1].split("</section>")[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", part)).split())


@pytest.mark.parametrize(
    ("far", "without_fens", "expected"),
    [
        pytest.param(
            True,
            False,
            ["no LGU polygon over wg_row 2", "no public water within 5,280 ft"],
            id="§ 103G.005 subd. 15f: an impact far from every LGU and public water",
        ),
        pytest.param(False, True, ["no calcareous_fens layer"], id="§ 103G.223: no fen layer"),
        pytest.param(False, False, [], id="every context given and near: no warning"),
    ],
)
def test_missing_context_is_a_warning_the_manifest_and_a_verify_point(
    sample_data, far, without_fens, expected
):
    context = load_context(sample_data.context)
    if without_fens:
        others = {k: v for k, v in context.others.items() if k != "calcareous_fens"}
        context = dataclasses.replace(context, others=others)
    a, missing = _assess(_impacts(sample_data, far), context)
    assert len(missing) == len(expected)
    for text in expected:
        assert any(m.startswith(text) for m in missing), (text, missing)
        assert any(m.startswith(text) for m in a.manifest.to_dict()["missing_context"])
        assert f"Missing context: {text}" in _verify(a)
    assert issubclass(MissingContextWarning, WetlandGISWarning)  # filtered with the others
