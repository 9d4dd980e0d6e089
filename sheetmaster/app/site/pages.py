"""The site's pages, rendered from its data alone with Jinja2 templates.

Every text from the game (names, labels, what players typed) reaches a page through Jinja2's
autoescaping, or inside the page's JSON data through ``tojson`` (which escapes ``<``, ``>``,
``&`` and ``'``); a turn's report is markdown whose sheet text the resolve already escaped
(:func:`sheetmaster.app.report.md`), rendered by markdown-it with raw HTML turned off, so no text
a player typed can become a tag, a script or a link. The pages load nothing from elsewhere
(their Content-Security-Policy allows this site's own files only): the chart library is
vendored in ``assets/``.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup

#: the vendored chart library: Chart.js, MIT, from the npm registry's chart.js package
#: (dist/chart.umd.min.js, unchanged) with its licence beside it. tests/test_site.py checks
#: the file against this digest, so an update is a deliberate change of both.
CHART_JS = "chart.umd.min.js"
CHART_JS_VERSION = "4.6.1"
CHART_JS_SHA256 = "87364cc2b2a76a6684929e7d6b80b18a897794db38400caff1fcf1791c6925d2"
#: the files of ``assets/`` every site carries.
ASSETS = (CHART_JS, "chart.js-LICENSE.md", "icon.svg", "site.css", "site.js")


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("sheetmaster.app.site", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["first_upper"] = first_upper
    return env


def first_upper(text: str) -> str:
    """'the Players tab' -> 'The Players tab' (Jinja2's capitalize lowers the rest)."""
    return text[:1].upper() + text[1:]


#: markdown as CommonMark with tables, raw HTML shown as text, no bare links made.
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def report_html(markdown: str) -> Markup:
    """A turn's report as HTML (raw HTML in it is shown as text, never as markup)."""
    return Markup(_MARKDOWN.render(markdown))  # noqa: S704 - markdown-it escapes, html off


def render(data: dict[str, Any]) -> dict[str, bytes]:
    """Every page and asset of the site, by its path in the site's folder."""
    env = _environment()
    moments = data["moments"]
    view = {"moments": [_view(m) for m in moments], "charts": charts(data)}
    common = {**data, "chart_js_version": CHART_JS_VERSION, "players_word": data[
        "players_noun"]}
    pages: dict[str, bytes] = {}
    latest = moments[-1] if moments else None
    pages["index.html"] = env.get_template("index.html").render(
        **common, latest=latest, view=view, report_list=_report_list(data)).encode()
    turns = sorted(int(t) for t in data["reports"])
    by_turn = {m["turn"]: m for m in moments}
    for i, turn in enumerate(turns):
        report = data["reports"][str(turn)]
        pages[f"turn-{turn}.html"] = env.get_template("turn.html").render(
            **common, turn=turn, moment=by_turn.get(turn), report=report_html(report["markdown"]),
            source=report["source"], previous=turns[i - 1] if i else None,
            next=turns[i + 1] if i + 1 < len(turns) else None).encode()
    folder = resources.files("sheetmaster.app.site") / "assets"
    for name in ASSETS:
        pages[f"assets/{name}"] = (folder / name).read_bytes()
    return pages


def _view(moment: dict[str, Any]) -> dict[str, Any]:
    """What the slider shows of a moment: its map, caption and report page."""
    words = moment["label"] + (f" ({moment['date']})" if moment["date"] else "")
    return {"turn": moment["turn"], "caption": first_upper(words), "alt": f"The map {words}",
            "map": moment["map"], "report": moment["report"]}


def charts(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One chart per measure: a line per player, a point per moment (None: no number);
    ``ticks`` are the turns on the chart's axis, ``labels`` the moments' full names."""
    labels = [m["label"] for m in data["moments"]]
    ticks = [str(m["turn"]) if m["turn"] >= data["first_turn"] else "start"
             for m in data["moments"]]
    out = []
    for measure in data["measures"]:
        series = []
        for player in data["players"]:
            points = [m["numbers"].get(measure["key"], {}).get(player["name"])
                      for m in data["moments"]]
            if any(p is not None for p in points):
                series.append({"name": player["name"], "colour": player["colour"],
                               "values": points})
        out.append({**measure, "labels": labels, "ticks": ticks, "series": series})
    return out


def _report_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    dates = {m["turn"]: m["date"] for m in data["moments"]}
    return [{"turn": int(t), "page": f"turn-{t}.html", "date": dates.get(int(t), "")}
            for t in data["reports"]]
