"""The terminal side of the CLI: logging, colour, progress bars and tables, through rich.

Everything for a person goes to stderr through :mod:`logging` (``-v`` for more, ``-q`` for
less); stdout carries the command's output (results, diffs, ``--json`` documents), so a
script can pipe it. Colour and the progress bar appear only on a terminal: rich turns them
off when the stream is not one, and when ``NO_COLOR`` is set (``FORCE_COLOR`` forces them).

rich is imported when something is printed through it, not before: a command that prints
plain text alone (``completion``, ``--version``) starts without it.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

log = logging.getLogger("sheetmaster")

#: -q -q .. -v -v: the level of the sheetmaster logger.
LEVELS = {-2: logging.ERROR, -1: logging.WARNING, 0: logging.INFO, 1: logging.DEBUG}


def err_console() -> Console:
    """A console on the current stderr (tests swap sys.stderr, so never cached)."""
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def out_console() -> Console:
    """stdout; when it is a pipe or a file, tables get 160 columns rather than rich's 80."""
    from rich.console import Console

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = 160
    return console


class _Handler(logging.Handler):
    """Messages as plain lines (``error: ...``), coloured by level on a terminal."""

    STYLES = {logging.ERROR: "bold red", logging.WARNING: "yellow", logging.DEBUG: "dim"}

    def emit(self, record: logging.LogRecord) -> None:
        from rich.markup import escape

        message = record.getMessage()
        prefix = {logging.ERROR: "error: ", logging.CRITICAL: "error: ",
                  logging.WARNING: "warning: "}.get(record.levelno, "")
        style = self.STYLES.get(record.levelno, "")
        console = err_console()
        console.print(f"[{style}]{escape(prefix)}[/]" if style and prefix else escape(prefix),
                      end="")
        console.print(message, style=style or None, markup=False, highlight=False)
        if record.exc_info and record.exc_info[1] is not None:
            console.print("".join(traceback.format_exception(*record.exc_info)).rstrip(),
                          markup=False, highlight=False)


class _Once(logging.Filter):
    """A message logged with ``extra={"once": True}`` is said once per run."""

    def __init__(self) -> None:
        super().__init__()
        self.said: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "once", False):
            return True
        message = record.getMessage()
        if message in self.said:
            return False
        self.said.add(message)
        return True


def setup_logging(verbosity: int) -> None:
    """The sheetmaster logger at the level ``-v``/``-q`` ask for, printing to stderr (a new
    handler per run: what is said once per run is said again by the next run)."""
    logger = logging.getLogger("sheetmaster")
    for handler in list(logger.handlers):
        if isinstance(handler, _Handler):
            logger.removeHandler(handler)
    handler = _Handler()
    handler.addFilter(_Once())
    logger.addHandler(handler)
    logger.setLevel(LEVELS[max(-2, min(1, verbosity))])
    logger.propagate = False


def verbosity(args: Any) -> int:
    """-v minus -q, given before the command or after it."""
    return sum(int(getattr(args, f"{where}{name}", 0) or 0) * sign
               for where in ("", "global_") for name, sign in (("verbose", 1), ("quiet", -1)))


class Steps:
    """The long steps of a run (read, resolve, write) as a progress bar on a terminal.

    Each step is logged when it ends, with its time (``-v`` shows them); the bar is shown
    only when stderr is a terminal and the run is not quiet, and it disappears when done.
    """

    def __init__(self, total: int, *, show: bool) -> None:
        from rich.progress import (
            BarColumn,
            Progress,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self.total = total
        console = err_console()
        self.show = show and console.is_terminal
        self.progress = Progress(
            SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
            TaskProgressColumn(), TimeElapsedColumn(), console=console, transient=True,
            disable=not self.show)
        self.task = self.progress.add_task("taking the game's lock", total=total)

    @contextlib.contextmanager
    def step(self, what: str) -> Iterator[None]:
        start = time.perf_counter()
        self.progress.update(self.task, description=what)
        try:
            yield
        except BaseException:
            log.debug("%s: failed after %.1f s", what, time.perf_counter() - start)
            raise
        self.progress.advance(self.task)
        log.debug("%s: %.1f s", what, time.perf_counter() - start)

    def __enter__(self) -> Steps:
        self.progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.stop()


def print_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
                styles: dict[str, str] | None = None) -> None:
    """A table on stdout (boxed on a terminal, plain columns in a pipe or file)."""
    from rich.box import SIMPLE_HEAD
    from rich.table import Table
    from rich.text import Text

    console = out_console()
    table = Table(title=title, title_justify="left", box=SIMPLE_HEAD, pad_edge=False)
    for column in columns:
        table.add_column(column, overflow="fold")
    for row in rows:
        cells = [str(c) for c in row]
        style = (styles or {}).get(cells[1] if len(cells) > 1 else "", None)
        table.add_row(*(Text(c) for c in cells), style=style)  # text, never rich markup
    console.print(table)
