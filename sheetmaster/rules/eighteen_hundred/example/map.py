"""The example game's map: the standard starts of Great Britain, France, Prussia and Austria
(L18-21: "one factory on ... one pop on ...") and the lands between them. The source has no
map: the provinces beyond the starts, every adjacency and the trade routes are the example's
own, not the rulebook's (F1)."""

from __future__ import annotations

from typing import Any

from ..tables import CITY, COUNTRYSIDE, EUROPEAN, OVERSEAS

#: nation -> (its two cities, its four countrysides): the setup turn lays the standard starts
#: out on them (a factory and a pop on each city, a pop on each countryside)
STARTS = {
    "Great Britain": (("London", "Liverpool"), ("Wales", "Midlands", "Scotland", "Ireland")),
    "France": (("Paris", "Lyon"), ("Normandie", "Acquitaine", "Occitanie", "Champagne")),
    "Prussia": (("Berlin", "Konigsberg"), ("Pommerania", "Hesse", "Saxony", "Rheinland")),
    "Austria": (("Vienna", "Budapest"), ("Bohemia", "Galicia", "Tyrol", "Transylvania")),
}
#: the lands between them, empty at the start (F5)
BETWEEN = {"Amsterdam": CITY, "Hamburg": CITY, "Belgium": COUNTRYSIDE,
           "Bavaria": COUNTRYSIDE, "Switzerland": COUNTRYSIDE, "Lombardy": COUNTRYSIDE,
           "Poland": COUNTRYSIDE, "Denmark": COUNTRYSIDE}

#: adjacencies, land and sea alike (F58: sea links are plain adjacency)
LINKS = """
London: Midlands, Wales, Normandie, Belgium, Amsterdam
Liverpool: Midlands, Wales, Scotland, Ireland
Midlands: Wales, Scotland
Wales: Ireland
Scotland: Denmark
Paris: Normandie, Champagne, Lyon, Acquitaine
Normandie: Acquitaine, Belgium
Champagne: Lyon, Belgium, Rheinland, Switzerland
Lyon: Occitanie, Acquitaine, Switzerland, Lombardy
Acquitaine: Occitanie
Occitanie: Lombardy
Belgium: Rheinland, Amsterdam
Amsterdam: Rheinland, Hamburg
Berlin: Pommerania, Saxony, Hamburg, Poland
Konigsberg: Pommerania, Poland
Pommerania: Hamburg, Poland, Denmark
Saxony: Hesse, Bohemia, Poland, Bavaria
Hesse: Rheinland, Bavaria, Hamburg
Rheinland: Bavaria
Hamburg: Denmark
Poland: Galicia
Vienna: Bohemia, Budapest, Tyrol, Galicia
Budapest: Galicia, Transylvania
Bohemia: Bavaria, Galicia
Galicia: Transylvania
Tyrol: Bavaria, Switzerland, Lombardy
Bavaria: Switzerland
Switzerland: Lombardy
"""

ROUTES = [
    {"route": "The Channel", "kind": EUROPEAN, "holders": "Great Britain"},
    {"route": "The Baltic", "kind": EUROPEAN, "holders": "Prussia"},
    {"route": "The Danube", "kind": EUROPEAN, "holders": "Austria"},
    {"route": "The Rhine", "kind": EUROPEAN, "holders": ""},
    {"route": "India", "kind": OVERSEAS, "holders": "Great Britain"},
    {"route": "The Americas", "kind": OVERSEAS, "holders": "Great Britain, France"},
    {"route": "The Levant", "kind": OVERSEAS, "holders": ""},
]


def adjacency() -> dict[str, list[str]]:
    """Every province's neighbours, listed on both sides."""
    out: dict[str, list[str]] = {}
    for line in LINKS.strip().splitlines():
        name, rest = line.split(":")
        for other in (o.strip() for o in rest.split(",")):
            out.setdefault(name, []).append(other)
            out.setdefault(other, []).append(name)
    return out


def provinces() -> list[dict[str, Any]]:
    links = adjacency()
    rows = []
    for nation, (cities, countrysides) in STARTS.items():
        for city in cities:
            rows.append({"province": city, "type": CITY, "adjacent": ", ".join(links[city]),
                         "start": nation})
        for country in countrysides:
            rows.append({"province": country, "type": COUNTRYSIDE,
                         "adjacent": ", ".join(links[country]), "start": nation})
    for name, kind in BETWEEN.items():
        rows.append({"province": name, "type": kind, "adjacent": ", ".join(links[name])})
    return rows
