"""The map picture drawn every turn, for every ruleset that declares a map.

- :mod:`sheetmaster.kit.mapspec`: ``MapSpec`` and ``Units``, what a ruleset declares once
  (``Ruleset(map=MapSpec(...))``); light, imported when a ruleset is made;
- :mod:`~sheetmaster.app.maps.state`: the map read from the tabs (owners, colours, capitals,
  occupation, units, key colours, pins), every problem with its tab, row and column;
- :mod:`~sheetmaster.app.maps.key_image`: the GM's key image read, within the pixel budget;
- :mod:`~sheetmaster.app.maps.recolour`: the GM's key image recoloured with numpy;
- :mod:`~sheetmaster.app.maps.layout` and :mod:`~sheetmaster.app.maps.graph`: the drawing from
  the map graph alone, when there is no image;
- :mod:`~sheetmaster.app.maps.placement`: names and badges placed where nothing else is
  (shapely), on the drawing from the graph; :mod:`~sheetmaster.app.maps.spots`: the marks'
  clear spots inside each province of the GM's image; :mod:`~sheetmaster.app.maps.abbrev`:
  the codes written for names that find no place on a map as narrow as a chat's preview;
- :mod:`~sheetmaster.app.maps.marks`: capitals, unit counts, the legend and the title on both;
- :mod:`~sheetmaster.app.maps.render`: ``map_picture(ruleset, state, image=...)``, the entry point.
"""

from sheetmaster.kit.mapspec import MapSpec, Units, colour_column, map_columns

__all__ = ["MapSpec", "Units", "colour_column", "map_columns"]
