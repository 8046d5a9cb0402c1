"""A node's function policy: which functions the agent running the node may call.

A definition spells it three ways (``agent.functions``, else the document's
``default_functions``, else every function):

* a string, ``"search.*"``: an allow list of one pattern;
* an array of strings, ``["search.*", "calc"]``: an allow list;
* ``{"allow": [...], "deny": [...]}``: both lists (a missing ``allow`` means ``["*"]``,
  a missing ``deny`` means ``[]``).

A pattern is a function id in which ``*`` matches any run of characters (``*`` alone is
every function). A function is permitted when it matches an allow pattern and no deny
pattern: deny wins. Workers receive the policy normalized (:func:`normalize`) in
``Task.agent.functions_json`` and must enforce it (docs/workers.md): the engine never sees
an agent's function calls, so it only checks the policy's shape and bounds here.
"""

from __future__ import annotations

import re

from praxis.core import values

EVERY_FUNCTION: dict[str, list[str]] = {"allow": ["*"], "deny": []}
"""The policy of a node whose definition declares none (the sources' default ``["*"]``)."""

MAX_PATTERNS = 256
"""Patterns in one list (``allow`` or ``deny``)."""

MAX_PATTERN_CHARS = 256
"""Characters of one pattern."""


def problems(raw: values.JsonValue) -> list[str]:
    """What is wrong with a policy as a definition spells it (``None``: not given)."""
    if raw is None:
        return []
    if isinstance(raw, str):
        return _list_problems([raw], "functions")
    if isinstance(raw, list):
        return _list_problems(raw, "functions")
    if isinstance(raw, dict) and set(raw) <= {"allow", "deny"}:
        found: list[str] = []
        for key in sorted(raw):
            found += _list_problems(raw[key], key)
        return found
    return ['functions must be a string, a list of strings or {"allow": [...], "deny": [...]}']


def _list_problems(items: values.JsonValue, name: str) -> list[str]:
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        return [f"{name} must be a list of strings"]
    if len(items) > MAX_PATTERNS:
        return [f"{name} has {len(items)} patterns; at most {MAX_PATTERNS}"]
    if any(not item or len(item) > MAX_PATTERN_CHARS for item in items):
        return [f"each pattern of {name} is 1 to {MAX_PATTERN_CHARS} characters"]
    return []


def normalize(raw: values.JsonValue) -> dict[str, list[str]]:
    """The policy as workers receive it: both lists, sorted and deduplicated.

    ``raw`` is a policy :func:`problems` accepted, or ``None`` for every function.
    """
    if raw is None:
        return {"allow": list(EVERY_FUNCTION["allow"]), "deny": []}
    if isinstance(raw, str):
        return {"allow": [raw], "deny": []}
    if isinstance(raw, list):
        return {"allow": sorted({str(item) for item in raw}), "deny": []}
    if isinstance(raw, dict):
        allow = raw.get("allow", ["*"])
        deny = raw.get("deny", [])
        return {
            "allow": sorted({str(item) for item in allow}) if isinstance(allow, list) else [],
            "deny": sorted({str(item) for item in deny}) if isinstance(deny, list) else [],
        }
    raise ValueError("not a function policy")  # parse() rejected it before


def permits(policy: dict[str, list[str]], function_id: str) -> bool:
    """Whether a normalized ``policy`` lets the agent call ``function_id``."""
    allowed = any(_matches(pattern, function_id) for pattern in policy.get("allow", []))
    return allowed and not any(_matches(pattern, function_id) for pattern in policy.get("deny", []))


def _matches(pattern: str, function_id: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, function_id, flags=re.DOTALL) is not None
