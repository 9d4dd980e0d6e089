"""Research: points at the start of each season, and choosing or switching a project."""

from __future__ import annotations

from sheetmaster.kit import Context, Order, Status, plural

from .. import data, reasons
from ..tables import Clan
from ..world import ClansWorld
from .effects import Parts, coverage, skills, supplied

POINTS_RULE = (
    "Each Research Project requires accumulation of Research Points (via Libraries, but not "
    "only them). RPs are added to the research topic at the start of the next Global Turn."
)
SWITCH_RULE = (
    "To start a Research Project, simply pick a topic from the list of available topics. You "
    "can switch current Research Project during your Turn; however, doing so will halve the "
    "amount of Research accumulated so far."
)


def add_research_points(ctx: Context) -> None:
    """Each clan's points for the season just ended go to its project.

    Points are counted from the clan as it stands now (the end of last season). A project
    whose points reach its cost is completed; points beyond the cost are lost. Points made
    with no project are lost.
    """
    world: ClansWorld = ctx.world
    for clan in world.clans.values():
        if clan.destroyed or not clan.started:
            continue
        parts = research_parts(world, clan)
        total = sum(v for _, v in parts)
        if not total:
            continue
        where = ", ".join(f"{why}: {v}" for why, v in parts)
        if not clan.researching:
            ctx.emit(clan.name, "research", f"{plural(total, 'research point')} ({where}) lost: "
                                            f"no research project")
            continue
        tech = data.TECHS[clan.researching]
        clan.points += total
        ctx.emit(clan.name, "research", f"+{plural(total, 'research point')} ({where}) to "
                                        f"{tech.name}: {clan.points} of {tech.cost}")
        if clan.points >= tech.cost:
            clan.techs.append(tech.name)
            ctx.emit(clan.name, "tech completed", f"completed {tech.name}"
                     + (f" ({_over(clan.points - tech.cost)})" if clan.points > tech.cost
                        else ""))
            clan.researching, clan.points = "", 0


def _over(points: int) -> str:
    """ "1 point over its cost is lost", "3 points over its cost are lost"."""
    return f"{plural(points, 'point')} over its cost {'is' if points == 1 else 'are'} lost"


def choose_research(ctx: Context, order: Order, clan: Clan) -> None:
    tech = data.TECHS[order.fields["tech"]]
    if clan.has(tech.name):
        ctx.resolve(order, Status.REJECTED, reasons.HAVE_TECH.say(tech=tech.name))
        return
    if tech.requires and not clan.has(tech.requires):
        ctx.resolve(order, Status.REJECTED, reasons.UNKNOWN_PREREQUISITE.say(
            tech=tech.name, requires=tech.requires))
        return
    if clan.researching == tech.name:
        ctx.resolve(order, Status.REJECTED, reasons.ALREADY_RESEARCHING.say(tech=tech.name))
        return
    note = f"researching {tech.name} ({tech.cost} points)"
    if clan.researching and clan.points:
        before = clan.points
        clan.points //= 2
        note += (f"; switching from {clan.researching} halves {plural(before, 'point')} to "
                 f"{clan.points}")
    clan.researching = tech.name
    ctx.emit(clan.name, "research", note)
    ctx.resolve(order, Status.APPLIED, note)


def research_parts(world: ClansWorld, clan: Clan) -> Parts:
    """Research points a season and where they come from."""
    libraries = sum(p.count(data.LIBRARY) for p in world.provinces_of(clan.name))
    per_library = 2 + clan.has("Papermaking") + supplied(world, clan.name, "Sulphur")
    parts: Parts = []
    if libraries:
        parts.append((f"{plural(libraries, 'Library')} x {per_library}",
                      libraries * per_library))
    if data.SCHOLAR in skills(world, clan.name):
        parts.append((data.SCHOLAR, 4))
    if clan.has("Alchemy"):
        parts.append(("Alchemy", 4))
    if clan.religion == data.PHILOSOPHERS:
        steps = coverage(world, clan.name) // 20
        if steps:
            parts.append((f"Philosophers, {steps * 20}% piety", 2 * steps))
    return parts
