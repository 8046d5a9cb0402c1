"""A faster ``dataclasses.replace`` for the reducer's hot records.

``dataclasses.replace`` builds a keyword dict of every field and runs ``__init__``: about
4.2 µs for a :class:`~praxis.core.run.state.NodeRun` (21 fields), and a completion makes
a dozen such copies (issue 40 item 6: 2-3% of a completion's server CPU). A record with
no ``__post_init__``, no ``__slots__`` and nothing cached on the instance
(``functools.cached_property``) is only its fields, so a copy of its ``__dict__`` with the
changes is the same record: 0.7 µs. Field names are checked as ``replace`` checks them.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str]] = {}


def evolve(record: T, **changes: Any) -> T:
    """``dataclasses.replace(record, **changes)`` for a dataclass that :func:`_fields`
    accepts.

    Raises:
        TypeError: a change names no field, or the class may not be copied this way.
    """
    cls = type(record)
    names = _FIELDS.get(cls) or _fields(cls)
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    copied = object.__new__(cls)
    copied.__dict__.update(record.__dict__, **changes)
    return copied


def _fields(cls: type) -> frozenset[str]:
    """The init fields of a dataclass whose instances hold nothing else (checked once)."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a dataclass with a __dict__")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__: use dataclasses.replace")
    for klass in cls.__mro__:
        if any(isinstance(v, functools.cached_property) for v in vars(klass).values()):
            raise TypeError(f"{cls.__name__} caches on its instances: use dataclasses.replace")
    fields = dataclasses.fields(cls)
    if any(not field.init for field in fields):
        raise TypeError(f"{cls.__name__} has fields outside __init__: use dataclasses.replace")
    names = frozenset(field.name for field in fields)
    _FIELDS[cls] = names
    return names
