"""Field masks (``fields=a.b,c(d,e/f)``): parsing, applying to responses, testing a path."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .errors import _bad

_MaskTree = dict[str, Any]  # name -> subtree, or None for "the whole field"


def _parse_mask(text: str) -> _MaskTree:
    """Parse a field mask: ``a.b,c(d,e/f)`` -> {'a': {'b': None}, 'c': {'d': None, ...}}."""
    toks = re.findall(r"[A-Za-z0-9_*]+|[.,/()]", text.replace(" ", ""))
    pos = 0

    def name() -> str:
        nonlocal pos
        if pos >= len(toks) or not re.match(r"[A-Za-z0-9_*]", toks[pos]):
            raise _bad(f"Invalid field selection {text}")
        pos += 1
        return toks[pos - 1]

    def merge(tree: _MaskTree, path: list[str], sub: _MaskTree | None) -> None:
        node = tree
        for key in path[:-1]:
            if key in node and node[key] is None:
                return
            node = node.setdefault(key, {})
        last = path[-1]
        if sub is None or (last in node and node[last] is None):
            node[last] = None
            return
        target = node.setdefault(last, {})
        for k, v in sub.items():
            merge(target, [k], v)

    def parse_list() -> _MaskTree:
        nonlocal pos
        tree: _MaskTree = {}
        while True:
            path = [name()]
            while pos < len(toks) and toks[pos] in "./":
                pos += 1
                path.append(name())
            sub = None
            if pos < len(toks) and toks[pos] == "(":
                pos += 1
                sub = parse_list()
                if pos >= len(toks) or toks[pos] != ")":
                    raise _bad(f"Invalid field selection {text}")
                pos += 1
            merge(tree, path, sub)
            if pos < len(toks) and toks[pos] == ",":
                pos += 1
                continue
            return tree

    tree = parse_list() if toks else {}
    if pos != len(toks):
        raise _bad(f"Invalid field selection {text}")
    return tree


def _apply_mask(obj: Any, mask: _MaskTree | None) -> Any:
    if mask is None or "*" in mask:
        return obj
    if isinstance(obj, list):
        return [_apply_mask(item, mask) for item in obj]
    if isinstance(obj, dict):
        return {k: _apply_mask(obj[k], sub) for k, sub in mask.items() if k in obj}
    return obj


def _mask_selects(mask: _MaskTree | None, path: Iterable[str]) -> bool:
    node = mask
    for key in path:
        if node is None or "*" in node:
            return True
        if key not in node:
            return False
        node = node[key]
    return True
