"""The entry point the QGIS provider runs: ``python -m wetland_gis.qgis_provider.run ARGS``.

It is :func:`wetland_gis.cli.main` with the interrupt signal restored. A program started
by QGIS may inherit an *ignored* SIGINT, and Python then leaves it ignored: the provider's
cancel (SIGINT, or CTRL_BREAK on Windows) would do nothing. Restored, it raises
``KeyboardInterrupt`` in the command, which discards its staged outputs (no output is
changed) and exits with status 130, as it does when a person presses Ctrl+C.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``wetland-gis`` with ``argv``, interruptible by SIGINT; return its exit status."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "SIGBREAK"):  # Windows: the provider sends CTRL_BREAK_EVENT
        signal.signal(signal.SIGBREAK, signal.default_int_handler)
    from wetland_gis.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
