"""A configuration reloaded without a restart: its version and what a reload changes.

Pure: the server reads and validates ``config.json`` (praxis.serve.config), then asks
here which version the document is and which of its keys changed, and of those which
apply live and which wait for a restart. One place decides what is live.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

LIVE_KEYS = frozenset({"webhooks", "models", "limits", "retention", "log_level"})
"""The top-level keys a reload applies at once: webhook destinations and their secrets,
models, definition limits, the retention policy and the logging level."""

RESTART_PATHS = frozenset({"retention.archive_dir"})
"""Paths under a live key that still need a restart (where archives are written)."""


def version_of(document: Mapping[str, object]) -> str:
    """``sha256:<hex>`` of the canonical JSON of a config document (keys sorted, no
    whitespace): the same file gives the same version on every process."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def changed_paths(old: Mapping[str, object], new: Mapping[str, object]) -> list[str]:
    """The JSON paths whose value differs, two levels deep (``limits.max_run_nodes``,
    ``webhooks.alerts``), sorted; a changed secret is reported as its destination's path,
    never below it."""
    paths: list[str] = []
    for key in sorted(set(old) | set(new)):
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if isinstance(before, Mapping) and after is None:
            after = {}  # an object removed: each of its keys changed
        if isinstance(after, Mapping) and before is None:
            before = {}  # an object added: each of its keys changed
        if isinstance(before, Mapping) and isinstance(after, Mapping):
            paths += [
                f"{key}.{sub}"
                for sub in sorted(set(before) | set(after))
                if before.get(sub) != after.get(sub)
            ]
        else:
            paths.append(key)
    return paths


@dataclass(frozen=True)
class Change:
    """What a reload from one document to another changes."""

    previous_version: str
    version: str
    changed: tuple[str, ...]  # applied live
    restart_required: tuple[str, ...]  # changed, but served as before until a restart


def change(old: Mapping[str, object], new: Mapping[str, object]) -> Change:
    """The version and the changed paths of a reload from ``old`` to ``new``."""
    live: list[str] = []
    restart: list[str] = []
    for path in changed_paths(old, new):
        key = path.partition(".")[0]
        if key in LIVE_KEYS and path not in RESTART_PATHS:
            live.append(path)
        else:
            restart.append(path)
    return Change(version_of(old), version_of(new), tuple(live), tuple(restart))
