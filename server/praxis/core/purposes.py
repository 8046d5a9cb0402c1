"""Purposes: short identifiers that limit what a grant or an approval applies to.

A grant may carry purposes (:class:`praxis.authority.principals.Grant`); it then applies
only to actions that name one of them. An action names a purpose in exactly two places:
an ``authorization`` wait's definition (``wait.purpose``, :mod:`praxis.core.definition`),
which its satisfaction and the approval consumed by it name, and an approval's
``purpose``, which its creation and its consumption name. Every other action names none,
so a grant with purposes never covers it.
"""

from __future__ import annotations

from praxis.core import values

MAX_PURPOSE_CHARS = 64
MAX_PURPOSES = 16


def purpose_problem(purpose: object) -> str | None:
    """Why ``purpose`` cannot name a purpose, or ``None``: an identifier (letters, digits
    and ``-_.:@``) of 1 to :data:`MAX_PURPOSE_CHARS` characters."""
    if not isinstance(purpose, str):
        return "a purpose must be a string"
    if len(purpose) > MAX_PURPOSE_CHARS:
        return f"a purpose has at most {MAX_PURPOSE_CHARS} characters"
    return values.identifier_problem(purpose)
