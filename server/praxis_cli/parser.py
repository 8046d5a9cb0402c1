"""The argument parser of every ``praxis`` command."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from praxis_cli.errors import USAGE, CliError

_SUGGESTIONS = "_praxis_suggestions"  # namespace attribute: unknown flag -> closest known one
_LEAF = "_praxis_leaf"  # namespace attribute: the innermost command that saw unknown words


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word closest to ``word`` (a likely typo of it), or ``None``."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return found[0] if found else None


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one ``error: USAGE: ...`` line, with a
    "did you mean" for a mistyped command or flag."""

    def error(self, message: str) -> NoReturn:
        raise CliError("USAGE", f"{message} (see '{self.prog} --help')", USAGE)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # A mistyped command (or any choice): name the closest one.
        choices = action.choices
        if choices is not None and isinstance(value, str) and value not in choices:
            near = closest(value, [str(c) for c in choices])
            if near is not None:
                name = argparse._get_action_name(action) or "argument"
                raise argparse.ArgumentError(
                    None, f"{name}: invalid choice: {value!r}; did you mean {near!r}?"
                )
        super()._check_value(action, value)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        # The innermost command sees an unknown flag first and knows its own flags.
        suggestions: dict[str, str] = getattr(parsed, _SUGGESTIONS, {})
        for extra in extras:
            flag = extra.partition("=")[0]
            if flag.startswith("-") and extra not in suggestions:
                near = closest(flag, [o for o in self._option_string_actions if o != "-h"])
                if near is not None:
                    suggestions[extra] = near
        if suggestions:
            setattr(parsed, _SUGGESTIONS, suggestions)
        if extras and not hasattr(parsed, _LEAF):
            setattr(parsed, _LEAF, self.prog)
        return parsed, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        suggestions: dict[str, str] = getattr(parsed, _SUGGESTIONS, {})
        leaf: str = getattr(parsed, _LEAF, self.prog)
        for name in (_SUGGESTIONS, _LEAF):
            if hasattr(parsed, name):
                delattr(parsed, name)
        if extras:
            hints = [f"{extra!r}: did you mean {suggestions[extra]}?" for extra in extras
                     if extra in suggestions]  # fmt: skip
            message = f"unrecognized arguments: {' '.join(extras)}"
            message += "".join(f"; {hint}" for hint in hints)
            raise CliError("USAGE", f"{message} (see '{leaf} --help')", USAGE)
        return parsed
