"""The map graph: typed edges, paths, distances, connectivity through passable provinces."""

from __future__ import annotations

from dataclasses import dataclass

from sheetmaster.kit.mapgraph import CANAL, COAST, LAND, PORT, RAIL, SEA, MapGraph


@dataclass
class Province:
    borders: tuple[str, ...]
    rails: tuple[str, ...] = ()


def europe() -> MapGraph:
    """Paris-Lyon-Milan-Venice by land, a railroad Paris-Lyon-Milan, two sea zones, ports."""
    rows = {"Paris": Province(("Lyon", "Brest"), ("Lyon",)),
            "Brest": Province(("Paris",)),
            "Lyon": Province(("Paris", "Milan"), ("Paris", "Milan")),
            "Milan": Province(("Lyon", "Venice"), ("Lyon",)),
            "Venice": Province(("Milan",))}
    graph = MapGraph.from_rows(rows, {LAND: "borders", RAIL: "rails"})
    graph.add("Brest", "Biscay", COAST)
    graph.add("Brest", "Biscay", PORT)
    graph.add("Biscay", "Med", SEA)
    graph.add("Venice", "Adriatic", COAST)
    graph.add("Med", "Adriatic", CANAL)
    return graph


def test_neighbours_by_edge_kind():
    graph = europe()
    assert graph.neighbours("Lyon", [LAND]) == ["Paris", "Milan"]
    assert graph.neighbours("Brest") == ["Paris", "Biscay"]
    assert graph.adjacent("Biscay", "Med", [SEA]) and not graph.adjacent("Biscay", "Med", [LAND])
    assert graph.neighbours("Med", [SEA, CANAL]) == ["Biscay", "Adriatic"]


def test_any_neighbour_asks_the_same_neighbours_without_a_list():
    graph = europe()
    asked: list[str] = []

    def owned(node: str) -> bool:
        asked.append(node)
        return node == "Milan"

    assert graph.any_neighbour("Lyon", owned, [LAND])
    assert asked == ["Paris", "Milan"]  # stops at the first that passes
    assert not graph.any_neighbour("Venice", owned, [COAST])
    assert graph.any_neighbour("Brest", lambda n: n == "Biscay")  # every kind, added edges too
    assert not graph.any_neighbour("Brest", lambda n: n == "Biscay", [LAND])
    assert not graph.any_neighbour("Atlantis", owned)
    for node in ("Paris", "Lyon", "Brest", "Med"):
        for kinds in (None, [LAND], [SEA, CANAL], [RAIL, COAST]):
            for target in ("Paris", "Lyon", "Milan", "Biscay", "Adriatic"):
                assert graph.any_neighbour(node, target.__eq__, kinds) == \
                    (target in graph.neighbours(node, kinds))


def test_distances_paths_and_exact_paths():
    graph = europe()
    assert graph.distance("Paris", "Venice", [LAND]) == 3
    assert graph.distances("Paris", [RAIL]) == {"Paris": 0, "Lyon": 1, "Milan": 2}
    assert graph.distances("Paris", [LAND], limit=1) == {"Paris": 0, "Lyon": 1, "Brest": 1}
    assert graph.path("Brest", "Adriatic", [COAST, SEA, CANAL]) == \
        ["Brest", "Biscay", "Med", "Adriatic"]
    assert graph.is_path(["Biscay", "Med", "Adriatic"], [SEA, CANAL])
    assert not graph.is_path(["Biscay", "Adriatic"], [SEA, CANAL])
    assert graph.path("Paris", "Adriatic", [LAND]) is None


def test_a_path_passes_only_through_passable_provinces():
    graph = europe()
    occupied = {"Lyon"}
    assert graph.distance("Paris", "Milan", [LAND], through=lambda p: p not in occupied) is None
    assert graph.distance("Paris", "Lyon", [LAND], through=lambda p: p not in occupied) == 1


def test_connectivity_to_a_capital_through_owned_provinces_and_components():
    graph = europe()
    owned = {"Paris", "Brest", "Milan", "Venice"}
    assert graph.connected("Paris", [LAND], through=owned.__contains__) == {"Paris", "Brest"}
    assert graph.connected("Lyon", [LAND], through=owned.__contains__) == set()
    assert graph.components(["Paris", "Milan", "Brest", "Venice"], [LAND]) == \
        [["Paris", "Brest"], ["Milan", "Venice"]]


def test_distances_from_several_starts_count_to_the_nearest():
    graph = europe()
    assert graph.distances(["Paris", "Venice"], [LAND]) == \
        {"Paris": 0, "Venice": 0, "Lyon": 1, "Brest": 1, "Milan": 1}
    assert graph.distances(("Brest", "Venice"), [LAND], limit=1) == \
        {"Brest": 0, "Venice": 0, "Paris": 1, "Milan": 1}
    assert graph.distances(["Biscay", "Biscay"], [SEA]) == {"Biscay": 0, "Med": 1}
    assert graph.distances([], [LAND]) == {}
    assert graph.distances(["Paris"], [RAIL]) == graph.distances("Paris", [RAIL])


def test_distances_enter_only_allowed_nodes_but_starts_are_exempt():
    graph = europe()
    closed = {"Med"}
    assert graph.distances(["Biscay"], [SEA, CANAL], enter=lambda z: z not in closed) == \
        {"Biscay": 0}  # the closed zone is not reached at all, so not beyond it either
    assert graph.distances(["Biscay"], [SEA, CANAL], through=lambda z: z not in closed) == \
        {"Biscay": 0, "Med": 1}  # reached, not passed through
    assert graph.distances(["Med", "Venice"], [SEA, CANAL, LAND],
                           enter=lambda z: z not in closed | {"Adriatic"}) == \
        {"Med": 0, "Venice": 0, "Biscay": 1, "Milan": 1, "Lyon": 2, "Paris": 3, "Brest": 4}
