"""Will an in-memory run fit? An estimate checked before the work starts (issue 23).

:func:`wetland_gis.assess` holds the whole layer, its classification, the decisions and
the trace table in memory. On a statewide layer that is several GiB: 1,000,000 impacts
went past 18 GiB before they were stopped. :func:`check_fits` compares an estimate
(:data:`ASSESS_BYTES_PER_IMPACT` times the number of impacts, a figure measured on the
benchmark world, ``benchmarks/README.md``) with the memory available now and raises
:class:`~wetland_gis.errors.InsufficientMemoryError`, naming ``chunk_size=``, when the
run would not fit; the chunked and streamed engines hold one chunk at a time.
"""

from __future__ import annotations

import os
from pathlib import Path

from wetland_gis.errors import InsufficientMemoryError

ASSESS_BYTES_PER_IMPACT = 24_000
"""Peak memory of an in-memory ``assess`` per impact (bytes), rounded up from a measurement.

Measured as the peak resident memory of ``wg.assess`` on 200,000 impacts of the
benchmark world, the context included (``benchmarks/README.md``, issue 23): 4.61 GiB
in one run of the code before the copies of the layer were removed (24,750 bytes an
impact), 3.54 GiB in another run of that code and 3.38 GiB after (18,150 bytes). The
runs of one code differ by a third on the shared machine, so the figure is the larger
measurement scaled by the measured reduction (3.38 / 3.54), rounded up. ``write()`` of
such a run adds about 1.3 GiB at 200,000 impacts (4.64 GiB peak; 10.3 GiB before the
trace was written a slice at a time). Impacts with many vertices, or near many public
waters, take more; the check is a guard against a run that cannot fit, not a promise
that a smaller one will.
"""

CHUNK_SUGGESTION_SHARE = 0.5
"""The share of the available memory the suggested ``chunk_size`` is sized to (a margin)."""

CHUNK_SUGGESTION_STEP = 1_000
"""The suggested ``chunk_size`` is rounded down to a multiple of this many impacts."""


_MEMINFO = Path("/proc/meminfo")


def available_bytes() -> int | None:
    """Return the memory available to a new allocation now (bytes), or None if unknown.

    ``MemAvailable`` of ``/proc/meminfo`` on Linux; else the free physical pages
    (``os.sysconf``); None where neither is known (the check is then skipped).
    """
    try:
        for line in _MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def check_fits(n_impacts: int, *, source: str = "the impact layer") -> None:
    """Raise unless ``n_impacts`` impacts are likely to fit in memory for one ``assess``.

    Parameters
    ----------
    n_impacts : int
        Rows of the layer to assess in one pass.
    source : str
        The layer's name, for the message.

    Raises
    ------
    InsufficientMemoryError
        When ``n_impacts * ASSESS_BYTES_PER_IMPACT`` exceeds :func:`available_bytes`.
    """
    need = n_impacts * ASSESS_BYTES_PER_IMPACT
    have = available_bytes()
    if have is None or need <= have:
        return
    gib = 2**30
    step = CHUNK_SUGGESTION_STEP
    chunk = max(step, int(have * CHUNK_SUGGESTION_SHARE / ASSESS_BYTES_PER_IMPACT) // step * step)
    raise InsufficientMemoryError(
        f"{source}: {n_impacts:,} impacts in one in-memory assess need about "
        f"{need / gib:.1f} GiB ({ASSESS_BYTES_PER_IMPACT:,} bytes an impact, measured), "
        f"but {have / gib:.1f} GiB are available: assess it in chunks of whole projects "
        f"with chunk_size= (wetland_gis.partitioned.stream_assess(..., chunk_size={chunk}) or "
        f"assess_partitioned(..., engine='chunks', chunk_size={chunk}); on the command line "
        f"`wetland-gis assess ... --chunk-size {chunk}`), or pass check_memory=False to "
        "try anyway"
    )
