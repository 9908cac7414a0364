"""The PDF's tables fit the page at any label length (issue 30).

With a long outcome label the impacts table used to run off the right edge of the page and
lose its last columns (ratio, acres to replace). Checked on the PDF itself with poppler's
``pdftotext -bbox``: every word of the table's last column lies inside the page.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import map_fixtures as fx
import pytest

from wetland_gis.mapping.report import write_pdf

LONG = "an outcome label as long as a sentence that a future rule or a user's file might carry"


def _words(pdf: Path) -> list[tuple[int, float, float, str]]:
    """Return (page, xMax, page width, word) for every word of the PDF."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = []
    for n, page in enumerate(re.findall(r"<page (.*?)</page>", out, re.S), start=1):
        width = float(re.search(r'width="([\d.]+)"', page)[1])
        for x_max, word in re.findall(r'<word [^>]*xMax="([\d.]+)"[^>]*>(.*?)</word>', page):
            words.append((n, float(x_max), width, word))
    return words


@pytest.mark.pdf
@pytest.mark.parametrize("outcome", ["exempt_conditional", LONG], ids=["longest label", "any"])
def test_the_impacts_table_keeps_its_last_column_on_the_page(outcome, tmp_path) -> None:
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("the PDF tests need WeasyPrint (pip install -e '.[pdf]')")
    if shutil.which("pdftotext") is None:
        pytest.skip("the PDF tests need pdftotext (apt-get install poppler-utils)")
    impacts = fx.impacts()
    impacts["outcome"] = outcome
    impacts["replace_acres"] = 12_345.678  # the widest figure of the last column
    pdf = write_pdf(tmp_path / "r.pdf", fx.summary(), impacts, figure=False)
    words = _words(pdf)
    assert words, "pdftotext read no word"
    outside = [(p, w) for p, x, width, w in words if x > width]
    assert not outside, f"words past the right edge of the page: {outside[:10]}"
    # the last column's heading and a figure of it are on the page
    assert any(w == "replace" for _, _, _, w in words)
    assert sum(w == "12,345.68" for _, _, _, w in words) >= len(impacts)
