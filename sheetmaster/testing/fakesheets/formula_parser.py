"""Formula text -> a small AST of tuples (``("bin", "+", a, b)``, ``("ref", "A1")``, ...)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

_FTOKEN = re.compile(
    r"""\s*(?:(?P<str>"(?:[^"]|"")*")"""
    r"""|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"""
    r"""|(?P<ident>(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!\$?[A-Za-z]+\$?\d*"""
    r"""(?::\$?[A-Za-z]+\$?\d*)?"""
    r"""|\$?[A-Za-z_][A-Za-z0-9_.$]*(?::\$?[A-Za-z]+\$?\d*)?)"""
    r"""|(?P<op><=|>=|<>|[-+*/^&=<>(),%]))"""
)


@lru_cache(maxsize=4096)
def _parse_formula(text: str) -> tuple[Any, ...]:
    """Parse formula text (without the leading '=') into a small AST."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _FTOKEN.match(text, pos)
        if not m:
            return ("error", "#ERROR!")
        kind = m.lastgroup or ""
        tokens.append((kind, m.group(kind)))
        pos = m.end()
    tokens.append(("end", ""))
    i = 0

    def peek() -> tuple[str, str]:
        return tokens[i]

    def take() -> tuple[str, str]:
        nonlocal i
        i += 1
        return tokens[i - 1]

    def expect(op: str) -> None:
        if take() != ("op", op):
            raise ValueError(op)

    def binary(next_level: Callable[[], Any], ops: tuple[str, ...]) -> Any:
        node = next_level()
        while peek()[0] == "op" and peek()[1] in ops:
            op = take()[1]
            node = ("bin", op, node, next_level())
        return node

    def comparison() -> Any:
        return binary(concat, ("=", "<>", "<", ">", "<=", ">="))

    def concat() -> Any:
        return binary(additive, ("&",))

    def additive() -> Any:
        return binary(multiplicative, ("+", "-"))

    def multiplicative() -> Any:
        return binary(power, ("*", "/"))

    def power() -> Any:
        return binary(unary, ("^",))

    def unary() -> Any:
        if peek() == ("op", "-"):
            take()
            return ("neg", unary())
        if peek() == ("op", "+"):
            take()
            return unary()
        node = primary()
        while peek() == ("op", "%"):
            take()
            node = ("pct", node)
        return node

    def primary() -> Any:
        kind, text_ = take()
        if kind == "num":
            return ("num", float(text_))
        if kind == "str":
            return ("str", text_[1:-1].replace('""', '"'))
        if kind == "op" and text_ == "(":
            node = comparison()
            expect(")")
            return node
        if kind == "ident":
            if peek() == ("op", "("):
                take()
                args: list[Any] = []
                if peek() != ("op", ")"):
                    args.append(comparison())
                    while peek() == ("op", ","):
                        take()
                        args.append(comparison())
                expect(")")
                return ("func", text_.upper(), tuple(args))
            if text_.upper() in ("TRUE", "FALSE"):
                return ("bool", text_.upper() == "TRUE")
            return ("ref", text_)
        raise ValueError(text_)

    try:
        tree = comparison()
        if peek()[0] != "end":
            return ("error", "#ERROR!")
        return tree
    except (ValueError, IndexError):
        return ("error", "#ERROR!")
