"""A progress bar over the stages of a long command (issue 30: assess, report).

The bar is tqdm's (as the chunked engines and ``screen`` use), shown only when the
command runs longer than :data:`STAGE_BAR_DELAY_S` seconds and only on a terminal (tqdm's
``disable=None``): a run of a few impacts, or one whose stderr is a log or a pipe, prints
its messages as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import Any

STAGE_BAR_DELAY_S = 3.0
"""Seconds a command runs before its bar appears (a display choice)."""


class StageBar:
    """A bar that advances one step per stage of a command; its messages print above it.

    Parameters
    ----------
    total : int
        The number of stages.
    desc : str
        The bar's label (the command).
    enabled : bool, default True
        False: no bar (``--quiet``); the messages still go to ``say`` if given.
    say : callable, optional
        Where a stage's message goes without a bar (the command's stderr printer).

    Examples
    --------
    >>> with StageBar(2, "report", enabled=False) as bar:
    ...     bar.stage("rendering")
    ...     bar.stage("writing")
    >>> bar.done
    2
    """

    def __init__(
        self,
        total: int,
        desc: str,
        *,
        enabled: bool = True,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.total = total
        self.done = 0
        self._say = say
        self._bar: Any = None
        if enabled:
            from tqdm.auto import tqdm

            self._bar = tqdm(
                total=total,
                desc=desc,
                unit="stage",
                delay=STAGE_BAR_DELAY_S,
                disable=None,  # no bar when stderr is not a terminal
                leave=False,
                file=sys.stderr,
            )

    def stage(self, message: str) -> None:
        """Start a stage: print its message (above the bar) and advance the bar."""
        if self._say is not None:
            if self._bar is not None and not self._bar.disable:
                self._bar.write(f"  {message}", file=sys.stderr)
            else:
                self._say(message)
        self.done = min(self.done + 1, self.total)
        if self._bar is not None:
            self._bar.n = self.done
            self._bar.set_postfix_str(message[:40], refresh=True)

    def close(self) -> None:
        """Remove the bar."""
        if self._bar is not None:
            self._bar.close()

    def __enter__(self) -> StageBar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
