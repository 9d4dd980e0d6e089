"""Public names imported on first use (PEP 562), for ``sheetmaster`` and ``sheetmaster.kit``.

A package lists its public names with the module each comes from; ``import sheetmaster``
then costs nothing, and ``from sheetmaster.kit import Ruleset`` imports the module that
defines ``Ruleset`` (and what it needs: pandas, for most of the kit) only then. The command
line starts at once because of it: ``sheetmaster --version`` never loads pandas. The package
also imports the same names under ``typing.TYPE_CHECKING``, for type checkers and editors
(``tests/test_startup.py`` holds the two lists together).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, names: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's ``__getattr__`` and ``__dir__``. ``names``: each public name -> the
    module it comes from, as ``"module"`` (the same name there, or the package's submodule
    of that name) or ``"module:attribute"`` (another name there). A name is imported once
    and then kept in the package, as an eager import would have put it."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        found = importlib.import_module(module)
        value = found if module == f"{package}.{name}" else getattr(found, attribute or name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
