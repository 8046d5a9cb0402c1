"""Page tokens bound to the query that issued them (ListRefs, ListContracts).

A token is the last key of a page and a short digest of the query's filters, in URL-safe
base64 JSON; a token presented with other filters, or not made here, is refused with
``PAGE_INVALID``. Tokens are cursors, not secrets: they carry only keys the caller saw.
"""

from __future__ import annotations

import base64
import json

from praxis.core import values
from praxis.core.rejection import Rejection, invalid

DEFAULT_PAGE = 100
MAX_PAGE = 500


def check_page_size(page_size: int) -> Rejection | None:
    """``PAGE_INVALID`` unless ``page_size`` is in ``[0, MAX_PAGE]``."""
    if not 0 <= page_size <= MAX_PAGE:
        return invalid("PAGE_INVALID", "page_size", f"page_size must be in [0, {MAX_PAGE}]")
    return None


def scope(*filters: str) -> str:
    """A short digest of a query's filters, which its tokens carry."""
    return values.digest(list(filters))[-12:]


def encode(key: list[str], query_scope: str) -> str:
    """The token of the page that ended at ``key``."""
    text = json.dumps([*key, query_scope])
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii")


def decode(token: str, query_scope: str, arity: int) -> list[str] | Rejection:
    """The key a token resumes after, or ``PAGE_INVALID`` for another query's token."""
    bad = invalid("PAGE_INVALID", "page_token", "page_token is not a token of this query")
    try:
        parts = json.loads(base64.urlsafe_b64decode(token.encode("ascii")))
    except (ValueError, TypeError, UnicodeError):
        return bad
    if not isinstance(parts, list) or len(parts) != arity + 1:
        return bad
    if parts[-1] != query_scope or not all(isinstance(part, str) for part in parts):
        return bad
    return parts[:-1]


def resume(
    name: str, work_order_id: str, page_size: int, page_token: str, arity: int
) -> tuple[str, list[str] | None] | Rejection:
    """Checks a list query filtered by an optional work order and returns its scope and
    the key its token resumes after (``None`` for the first page)."""
    problem = (
        values.check_identifier(work_order_id, "work_order_id") if work_order_id else None
    ) or check_page_size(page_size)
    if problem:
        return problem
    query_scope = scope(name, work_order_id)
    after = decode(page_token, query_scope, arity) if page_token else None
    if isinstance(after, Rejection):
        return after
    return query_scope, after
