"""The PDF report for the decision file: pages rendered with poppler's pdftoppm and checked.

Skipped with a message when WeasyPrint or pdftoppm is missing, except under ``CI=true``,
where a missing tool is a failure (``.ci/run`` installs poppler-utils; ``make test``
installs the ``pdf`` extra).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import map_fixtures as fx
import numpy as np
import pytest

from wetland_gis.mapping.report import write_pdf
from wetland_gis.mapping.static_map import static_map, static_map_png


def _require(tool: str, how: str) -> None:
    """Skip, saying what is missing (``tests/conftest.py`` fails the skip under CI=true)."""
    pytest.skip(f"the PDF tests need {tool} ({how})")


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):
        _require("WeasyPrint", "pip install -e '.[pdf]'")
    for tool in ("pdftoppm", "pdftotext", "pdfinfo"):
        if shutil.which(tool) is None:
            _require(tool, "apt-get install poppler-utils")
    out = tmp_path_factory.mktemp("pdf") / "tep_report.pdf"
    return write_pdf(
        out,
        fx.summary(),
        fx.impacts(),
        **fx.report_tables(),
        map_layers=fx.map_layers(),
        title="Wetland Conservation Act screening report: Gull Lake road",
    )


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    line = next(x for x in info.stdout.splitlines() if x.startswith("Pages:"))
    return int(line.split()[1])


def _text(pdf: Path, page: int) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _png(pdf: Path, page: int, tmp_path: Path) -> np.ndarray:
    from PIL import Image

    prefix = tmp_path / f"page{page}"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "60",
            "-png",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(prefix),
        ],
        check=True,
    )
    return np.asarray(Image.open(f"{prefix}.png").convert("RGB"), dtype=float)


@pytest.mark.pdf
def test_pdf_has_a_sensible_page_count(pdf: Path) -> None:
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert 3 <= _pages(pdf) <= 30


@pytest.mark.pdf
def test_first_page_holds_the_answer(pdf: Path) -> None:
    first = " ".join(_text(pdf, 1).split())
    assert "The answer" in first
    assert "Gull Lake road: 6 impacts" in first
    assert "0.89 credits required (a credit is an acre of replacement wetland)" in first
    assert "$37,000" in first


@pytest.mark.pdf
def test_the_map_page_is_not_blank(pdf: Path, tmp_path: Path) -> None:
    pages = _pages(pdf)
    map_page = next(  # the page whose heading is "Map" (the map's own text is drawn)
        p
        for p in range(1, pages + 1)
        if "Map" in [line.strip() for line in _text(pdf, p).splitlines()]
    )
    pixels = _png(pdf, map_page, tmp_path)
    text_only = _png(pdf, pages, tmp_path)  # the manifest page: text only
    # the map fills much of its page with background, waters and zones, in colour
    ink = (pixels.mean(axis=2) < 250).mean()
    assert ink > 0.3 and ink > 2 * (text_only.mean(axis=2) < 250).mean()
    coloured = (pixels.max(axis=2) - pixels.min(axis=2) > 40).mean()
    assert coloured > 0.01


@pytest.mark.pdf
def test_the_pdf_has_no_interactive_map(pdf: Path) -> None:
    text = " ".join(_text(pdf, p) for p in range(1, _pages(pdf) + 1))
    assert "Open the TEP review map" not in text


def test_static_map_labels_every_drawn_impact_and_has_scale_north_and_legend() -> None:
    from matplotlib_scalebar.scalebar import ScaleBar

    fig = static_map(fx.impacts(), **fx.map_layers())
    ax = fig.axes[0]
    texts = {t.get_text() for t in ax.texts}
    assert set(fx.OUTCOMES) <= texts  # I-1 ... I-5 labelled; I-6 has no geometry
    assert "N" in texts  # the north arrow
    assert any(isinstance(a, ScaleBar) for a in ax.artists)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "De minimis exempt (1)" in legend
    assert any("Candidate site" in t for t in legend)
    assert "Shoreland building setback zone" in legend


def test_static_map_is_a_png_with_no_network() -> None:
    data = static_map_png(fx.impacts(), dpi=40)
    assert data.startswith(b"\x89PNG")


def test_a_missing_crs_is_refused() -> None:
    from wetland_gis.errors import MissingCRSError

    impacts = fx.impacts()
    impacts = impacts.set_crs(None, allow_override=True)
    with pytest.raises(MissingCRSError, match="set_crs"):
        static_map(impacts)


@pytest.mark.slow
@pytest.mark.pdf
def test_assessment_report_writes_html_and_pdf(tmp_path: Path, pdf: Path) -> None:
    from wetland_gis import assess, site

    root = Path(__file__).resolve().parents[1] / "sample_data"
    project = root / "projects" / "crow_wing"
    a = assess(project / "impacts.gpkg", root / "synthetic_context.gpkg", as_of="2024-05-01")
    s = site(
        a.impacts,
        project / "candidate_sites.gpkg",
        root / "synthetic_bank_credits.csv",
        context=a.context,
        as_of="2024-05-01",
    )
    html_path, pdf_path = a.report(tmp_path / "report.html", siting=s, pdf=True)
    assert pdf_path == tmp_path / "report.pdf" and _pages(pdf_path) >= 3
    first = " ".join(_text(pdf_path, 1).split())
    assert "Crow Wing sample: replacement required, 2 impacts" in first
    text = html_path.read_text("utf-8")
    assert "<iframe" in text and "Replacement plan" in text


@pytest.mark.slow
@pytest.mark.pdf
def test_cli_report_pdf(tmp_path: Path, pdf: Path, capsys: pytest.CaptureFixture) -> None:
    from wetland_gis.cli import main

    root = Path(__file__).resolve().parents[1] / "sample_data"
    impacts = root / "projects" / "crow_wing" / "impacts.gpkg"
    context = root / "synthetic_context.gpkg"
    assert (
        main(
            [
                "assess",
                str(impacts),
                "--context",
                str(context),
                "--as-of",
                "2024-05-01",
                "--out",
                str(tmp_path / "a.gpkg"),
                "--quiet",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "report",
                str(tmp_path / "a.gpkg"),
                "--out",
                str(tmp_path / "r.html"),
                "--pdf",
                "--context",
                str(context),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out.split()
    assert printed[-3:] == [
        str(tmp_path / "r.html"),
        str(tmp_path / "r.pdf"),
        str(tmp_path / "r_report_manifest.json"),
    ]
    assert "Crow Wing sample" in " ".join(_text(tmp_path / "r.pdf", 1).split())


@pytest.mark.slow
@pytest.mark.pdf
def test_the_demo_writes_the_pdf(demo_run: Any, pdf: Path) -> None:
    row = demo_run.projects["crow_wing"]  # demo.run_project's row (tests/session_fixtures.py)
    assert row["pdf"] == demo_run.out / "crow_wing" / "tep_report.pdf"
    assert "Crow Wing sample" in " ".join(_text(row["pdf"], 1).split())
    html = row["report"].read_text("utf-8")
    assert 'href="tep_map.html"' in html  # the map, relative to the report
