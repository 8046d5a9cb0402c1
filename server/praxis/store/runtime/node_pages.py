"""ListRunNodes' page sizes and page tokens (the rows of a page are read by
:mod:`praxis.store.runtime.rows.nodes`).

A token names the node and item where the next page starts, bound to the query that
issued it (run, node filter, status filter), in URL-safe base64 JSON.
"""

from __future__ import annotations

import base64
import json

from praxis.core.rejection import Rejection, invalid

NODES_PAGE_DEFAULT = 500
NODES_PAGE_MAX = 1000


def encode_node_token(run_id: str, node_id: str, status: str, at: tuple[str, int]) -> str:
    """An opaque token naming where the next page starts, bound to its query."""
    text = json.dumps([1, run_id, node_id, status, at[0], at[1]], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def decode_node_token(
    token: str, run_id: str, node_id: str, status: str
) -> tuple[str, int] | Rejection | None:
    """Where the page of ``token`` starts, ``None`` for the first page, or why not."""
    if not token:
        return None
    bad = invalid(
        "PAGE_INVALID", "page_token", "page_token is not one this server issued for this listing"
    )
    if len(token) > 1024:
        return bad
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("utf-8")
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return bad
    if (
        not isinstance(data, list)
        or len(data) != 6
        or data[:4] != [1, run_id, node_id, status]
        or not isinstance(data[4], str)
        or not isinstance(data[5], int)
        or isinstance(data[5], bool)
        or data[5] < -1
    ):
        return bad
    return data[4], data[5]
