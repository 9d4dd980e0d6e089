"""The command's exit codes: distinct, documented, and the same for every command.

A script, a bot or CI can tell what happened without reading the messages (the README's
"Exit codes" section lists them).
"""

from __future__ import annotations

import enum

from sheetmaster.stores.google_auth import redact


class Exit(enum.IntEnum):
    OK = 0
    #: ``check``: at least one order would be rejected (the sheet got every reason);
    #: ``verify``: a check of the turn failed.
    REJECTED = 1
    #: a usage error: a bad option, a missing file name, an unknown ruleset, a file in the way,
    #: ``resolve --seed`` on a turn whose dice are committed.
    USAGE = 2
    #: the game's sheet is broken (a missing column, a bad value, a missing Game tab...):
    #: nothing was resolved or written.
    SHEET_BROKEN = 3
    #: the turn is not due yet (its deadline has not passed): nothing was done.
    NOT_DUE = 4
    #: the workbook or the Google Sheet could not be read or written (missing file,
    #: another run holding the lock, network or Google errors, credentials, the dice secret).
    STORE = 5
    #: a bug in sheetmaster (the message asks you to report it, with its traceback).
    INTERNAL = 70
    #: interrupted (Ctrl-C), as shells report SIGINT.
    INTERRUPTED = 130
    #: the output's reader went away (``| head``): stopped quietly, as shells report SIGPIPE.
    PIPE_CLOSED = 141


#: one line per code, for ``--help`` and the README.
MEANINGS = {
    Exit.OK: "done",
    Exit.REJECTED: "check: some orders would be rejected; verify: a check failed",
    Exit.USAGE: "usage error (bad option, missing file name, unknown ruleset...)",
    Exit.SHEET_BROKEN: "the game's sheet is broken; nothing was changed",
    Exit.NOT_DUE: "the turn is not due yet; nothing was changed",
    Exit.STORE: "the workbook or Google Sheet could not be read or written",
    Exit.INTERNAL: "a bug in sheetmaster (please report it)",
}


class UsageError(Exception):
    """The command was asked for something it cannot do as asked (exit 2)."""


def classify(exc: BaseException) -> tuple[int, str, str]:
    """(exit code, kind, message) for an exception a command raised."""
    # the modules the exceptions come from, here rather than above: a command that never
    # gets this far (--help, --version, completion) imports neither the engine nor a store
    from sheetmaster.app.runs import NotDue, SeedRefused
    from sheetmaster.kit.fairness import DiceSecretError
    from sheetmaster.kit.schema import StateError
    from sheetmaster.stores.base import StoreError
    from sheetmaster.stores.google_auth import CredentialsError

    message = str(exc.args[0]) if exc.args and not isinstance(exc, StateError) else str(exc)
    if isinstance(exc, StateError):
        return Exit.SHEET_BROKEN, "sheet-broken", message
    if isinstance(exc, (UsageError, SeedRefused)):
        return Exit.USAGE, "usage", message
    if isinstance(exc, NotDue):
        return Exit.NOT_DUE, "not-due", message
    if isinstance(exc, (StoreError, CredentialsError, DiceSecretError)):
        return Exit.STORE, "store", redact(message)
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return Exit.STORE, "store", redact(f"{where}{exc.strerror or exc}")
    return Exit.INTERNAL, "internal", redact(f"{type(exc).__name__}: {exc}")


def help_text() -> str:
    lines = [f"  {int(code):>2}  {text}" for code, text in MEANINGS.items()]
    return "exit codes:\n" + "\n".join(lines)
