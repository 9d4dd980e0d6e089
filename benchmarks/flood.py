"""A flood of order rows from one player: what it costs a resolve, its reports and Discord.

Usage::

    python benchmarks/flood.py                        # 10^5 rows, workbook and fake Sheets
    python benchmarks/flood.py --rows 1000 --store xlsx       # a few seconds
    python benchmarks/flood.py --checkout /tmp/old-sheetmaster  # the same, with older code

The game is the claims example at turn 2 (four players), with ``--rows`` more order rows
from Avalon appended to its Orders tab: by default each a proposal of a deal of its own
(``--pattern unique``: every row a valid order), or the same claim again and again
(``dup``: every row a double post), or an order that does not exist (``junk``). Every
player, the GM and the public channel have a webhook on a fake Discord (127.0.0.1).

Each store (a workbook, or a spreadsheet on the fake Sheets API) is resolved once by
``sheetmaster resolve ... --discord --report-dir`` in a fresh interpreter, which reports its
wall and CPU seconds and its peak RSS; then the reports' sizes and what reached Discord are
measured. ``--checkout DIR`` runs that resolve with the sheetmaster of another checkout (the
flood's game, the fakes and the measuring are this one's), to compare before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the checkout's own sheetmaster, whichever is installed

SECRET = "the flood benchmark's dice secret"
PLAYER = "Avalon"
MB = 1_000_000


def flood_rows(pattern: str, n: int) -> list[dict[str, Any]]:
    if pattern == "unique":
        return [{"player": PLAYER, "order": "propose transfer", "amount": 1, "item": "gold",
                 "to": "Bretagne", "deal": f"flood-{i}"} for i in range(n)]
    if pattern == "dup":
        return [{"player": PLAYER, "order": "claim neutral territory", "territory": "Sarum"}
                for _ in range(n)]
    return [{"player": PLAYER, "order": f"junk order {i}"} for i in range(n)]


def flooded_state(pattern: str, n: int):
    from sheetmaster import rules
    from sheetmaster.engine.builder import build_state, example_game

    ruleset = rules.get("claims")
    tables, orders, settings = example_game(ruleset)
    settings = {k: v for k, v in settings.items() if k != "seed"}
    return ruleset, build_state(ruleset, tables, [*orders, *flood_rows(pattern, n)], turn=2,
                                settings=settings)


def worker(argv: list[str], code: str | None) -> dict[str, Any]:
    """One resolve, in this fresh process: its exit code, seconds and peak RSS."""
    if code:
        sys.path.insert(0, code)
    from sheetmaster.app.cli import main as sheetmaster

    wall, cpu = time.perf_counter(), time.process_time()
    code_out = sheetmaster(argv)
    return {"exit": code_out, "wall_s": time.perf_counter() - wall,
            "cpu_s": time.process_time() - cpu, "peak_mib": _peak_mib()}


def _peak_mib() -> float:
    """The process's peak RSS (KiB on Linux, bytes on macOS; 0 on Windows)."""
    try:
        import resource
    except ImportError:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def measure(store: str, args: argparse.Namespace) -> dict[str, Any]:
    from sheetmaster.stores.xlsx_layout import write_new_workbook
    from sheetmaster.testing.fakediscord import FakeDiscord
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_state

    ruleset, state = flooded_state(args.pattern, args.rows)
    players = [p for p in state.tables["Players"]["player"].tolist() if p]
    with tempfile.TemporaryDirectory() as folder, FakeDiscord() as discord, \
            FakeSheetsServer() as sheets:
        work = Path(folder)
        env = dict(os.environ, SHEETMASTER_DISCORD_WEBHOOK=discord.webhook("public"),
                   SHEETMASTER_DISCORD_PLAYER_WEBHOOKS="\n".join(
                       f"{name} = {discord.webhook(name)}" for name in [*players, "GM"]),
                   SHEETMASTER_DICE_SECRET=SECRET, SHEETMASTER_RETRY_DEADLINE="5")
        env.pop("GITHUB_ACTIONS", None)
        if store == "xlsx":
            write_new_workbook(ruleset, work / "game.xlsx", state)
            (work / "game.xlsx.dice-secret").write_text(SECRET, encoding="utf-8")
            where = ["game.xlsx"]
        else:
            env["SHEETMASTER_SHEETS_ENDPOINT"] = sheets.url
            where = ["--sheet", upload_state(sheets, state)]
        argv = ["resolve", *where, "--no-map", "-q", "--discord", "--report", "public.md",
                "--report-dir", "private"]
        cmd = [sys.executable, __file__, "--worker", json.dumps(argv)]
        if args.checkout:
            cmd += ["--code", str(Path(args.checkout).resolve())]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=work)
        try:
            row = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, json.JSONDecodeError):
            row = {"exit": done.returncode, "wall_s": float("nan"), "cpu_s": float("nan"),
                   "peak_mib": float("nan")}
        row["traceback"] = "Traceback" in done.stderr
        private = {p.stem: p.stat().st_size for p in (work / "private").glob("*.md")}
        row.update(
            store=store, rows=args.rows, pattern=args.pattern,
            public_mb=_size(work / "public.md") / MB,
            gm_mb=private.pop("gm", 0) / MB,
            largest_own_mb=max(private.values(), default=0) / MB,
            messages=len(discord.messages), refused=len(discord.refused),
            channels=len({m.webhook for m in discord.messages}),
            of_channels=2 + len(players),
            largest_post_mb=max((sum(map(len, m.files.values())) for m in discord.messages),
                                default=0) / MB)
    return row


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'store':>6} {'rows':>7} {'exit':>4} {'wall s':>7} {'cpu s':>7} {'peak MiB':>8} "
            f"{'public MB':>9} {'GM MB':>7} {'own MB':>7} {'posts':>5} {'channels':>8} "
            f"{'largest post MB':>15} traceback")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['store']:>6} {r['rows']:>7} {r['exit']:>4} {r['wall_s']:>7.2f} "
            f"{r['cpu_s']:>7.2f} {r['peak_mib']:>8.0f} {r['public_mb']:>9.3f} "
            f"{r['gm_mb']:>7.3f} {r['largest_own_mb']:>7.3f} {r['messages']:>5} "
            f"{r['channels']:>4}/{r['of_channels']:<3} {r['largest_post_mb']:>15.3f} "
            f"{'yes' if r['traceback'] else 'no'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--pattern", choices=("unique", "dup", "junk"), default="unique")
    parser.add_argument("--store", choices=("xlsx", "sheets", "both"), default="both")
    parser.add_argument("--checkout", default=None,
                        help="resolve with the sheetmaster of this checkout")
    parser.add_argument("--out", type=Path, default=None, help="also write the rows as JSON")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--code", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker), args.code)))
        return 0
    stores = ("xlsx", "sheets") if args.store == "both" else (args.store,)
    rows = [measure(store, args) for store in stores]
    print(f"{args.rows} '{args.pattern}' order rows from {PLAYER}"
          f"{f', resolved by {args.checkout}' if args.checkout else ''}:")
    print(table(rows))
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
