"""The workbook on disk: one run at a time, atomic replacement, backups, undo, clear errors.

Every write goes to a temp file beside its target, is flushed to disk, then renamed over the
target in one step, so a crash leaves the old file or the new one, never half of one. A
symlinked game updates the file the link points to. On Windows a program that has the file
open (Excel does) makes the rename fail: that is said plainly and nothing is changed.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from sheetmaster.stores.base import StoreError

#: Windows refuses to open for writing, or to replace, a file another program holds open.
WINDOWS = os.name == "nt"


def real_path(path: Path) -> Path:
    """The file a game path names: a symlink's target (so the real file is updated)."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def in_use(target: Path) -> StoreError:
    return StoreError(
        f"{target.name} could not be replaced: another program has it open (Excel locks the "
        f"workbooks it has open on Windows), or it is read-only. Close {target.name} in Excel "
        f"(or the program that has it open) and run again; nothing was changed.")


def check_folder(folder: Path, what: str) -> None:
    """Refuse, before any work, a folder that is missing or where no file can be made."""
    if not folder.is_dir():
        raise StoreError(f"the folder for {what} does not exist: {folder}")
    try:
        fd, name = tempfile.mkstemp(prefix=".sheetmaster-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise StoreError(f"cannot write {what} in the folder {folder} ({exc.strerror or exc}): "
                         f"is it read-only?") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def check_target(target: Path, what: str) -> None:
    """Refuse an output path sheetmaster could not write (a folder, a file held open)."""
    if target.is_dir():
        raise StoreError(f"{what} {target} is a folder; name a file")
    check_folder(target.parent if str(target.parent) else Path("."), what)
    if WINDOWS and target.exists():
        try:
            with open_for_update(target):
                pass
        except PermissionError:
            raise in_use(target) from None


def open_for_update(path: Path):  # noqa: ANN201 - a file object
    """Open a file for writing without changing it (Windows refuses if Excel has it)."""
    return open(path, "r+b")  # noqa: SIM115


@contextlib.contextmanager
def temp_beside(target: Path) -> Iterator[Path]:
    """A temp file in the target's folder (so the final rename stays on one disk)."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    path = Path(name)
    try:
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def stale_temps(target: Path) -> list[Path]:
    """Temp files a killed run left beside ``target``."""
    pattern = f".{glob.escape(target.name)}.*.tmp"
    return sorted(target.parent.glob(pattern)) if target.parent.is_dir() else []


def remove_stale_temps(*targets: Path) -> None:
    """Remove the temp files killed runs left beside these files (with the game's lock
    held, every such file is a dead run's)."""
    for target in targets:
        for path in stale_temps(target):
            with contextlib.suppress(OSError):
                path.unlink()


def remove_stale_temps_in(folder: Path) -> None:
    """Remove every temp file killed runs left in a folder of sheetmaster's own (backups)."""
    if folder.is_dir():
        for path in folder.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                path.unlink()


def replace_atomically(temp: Path, target: Path) -> None:
    """Flush ``temp`` to disk and rename it over ``target`` in one step."""
    with open(temp, "rb") as f:
        os.fsync(f.fileno())
    try:
        os.replace(temp, target)
    except PermissionError:
        raise in_use(target) from None
    with contextlib.suppress(OSError):
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def copy_atomically(source: Path, target: Path) -> None:
    """Copy beside the target, then rename over it: a crash leaves the target as it was or
    whole, never cut short (a backup cut short would be restored by undo)."""
    with temp_beside(target) as temp:
        shutil.copy2(source, temp)
        replace_atomically(temp, target)


def file_mode(target: Path) -> int:
    """The permissions a replaced file keeps (a new one gets the usual ones)."""
    if target.exists():
        return target.stat().st_mode & 0o777
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


# -- backups and undo ------------------------------------------------------------------------

def backups_folder(path: Path) -> Path:
    return path.parent / f"{path.name}.backups"


def backup_path(path: Path, turn: int) -> Path:
    """Where the workbook as it was before turn ``turn`` is kept (same extension)."""
    return backups_folder(path) / f"before-turn-{turn}{path.suffix or '.xlsx'}"


def _backup_turn(path: Path) -> int | None:
    stem = path.stem
    number = stem.rsplit("-", 1)[-1]
    return int(number) if stem.startswith("before-turn-") and number.isdigit() else None


def undo_last_turn(path: Path) -> int:
    """Put the workbook back as it was before its last resolved turn; returns that turn.

    The backup taken before the turn replaces the file atomically; the undone workbook is
    kept beside the backups as ``undone-turn-N``.
    """
    real = real_path(path)
    folder = backups_folder(real)
    found = [(t, p) for p in (folder.iterdir() if folder.is_dir() else [])
             if not p.name.startswith(".") and (t := _backup_turn(p)) is not None]
    if not found:
        raise StoreError(f"there is nothing to undo: no backup in {folder.name}/")
    turn, latest = max(found)
    check_target(real, "the game")
    copy_atomically(real, folder / f"undone-turn-{turn}{real.suffix or '.xlsx'}")
    copy_atomically(latest, real)
    latest.unlink()
    return turn


# -- one run at a time -----------------------------------------------------------------------

def lock_path(path: Path) -> Path:
    real = real_path(path)
    return real.parent / f".{real.name}.lock"


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """One run at a time per workbook, on every system (the ``filelock`` library).

    The lock is the operating system's lock on a small file beside the workbook while a run
    holds it: it goes with the process that holds it, so a killed run never leaves the game
    locked. The run removes the file before it lets go of the lock, so nothing is left
    beside the workbook; a run that opened the old file just then finds it gone once it
    gets its lock, and takes the lock as held (filelock checks the file still has a name).
    """
    lock = FileLock(lock_path(path), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise StoreError(f"another sheetmaster run is working on {path.name} (it holds the "
                         f"lock {lock.lock_file}); wait for it to finish") from None
    except OSError as exc:
        raise StoreError(f"cannot lock {path.name}: {exc.strerror or exc} (is its folder "
                         f"read-only?)") from None
    try:
        yield
    finally:
        # Windows removes no open file: filelock removes it there once it is released.
        with contextlib.suppress(OSError):
            Path(lock.lock_file).unlink()
        lock.release()


def is_locked(path: Path) -> bool:
    """Whether a run holds the workbook's lock now (no file: none does)."""
    if not lock_path(path).exists():
        return False
    lock = FileLock(lock_path(path), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        return True
    lock.release()  # the file is left as it was found (a killed run's)
    return False


__all__ = ["WINDOWS", "backup_path", "backups_folder", "check_folder", "check_target",
           "copy_atomically", "file_mode", "in_use", "is_locked", "lock_path", "locked",
           "real_path", "remove_stale_temps", "remove_stale_temps_in", "replace_atomically",
           "stale_temps", "temp_beside", "undo_last_turn"]
