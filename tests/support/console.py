"""Setting up registry and runtime state through the public API, as other clients would."""

from __future__ import annotations

import json
import re

import httpx

from aiws.engine.v1 import registry_pb2
from tests.support.harness import Harness, approve, execute, propose_cmd, ref, register_cmd

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')

FANOUT = {
    "version": 1,
    "nodes": {
        "plan": {
            "agent": {
                "model": "echo",
                "output": {
                    "type": "json",
                    "schema": {
                        "type": "object",
                        "required": ["items"],
                        "properties": {"items": {"type": "array", "items": {"type": "integer"}}},
                    },
                },
            },
            "input": {"from": "run_input"},
        },
        "work": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "integer"}}},
            "input": {"from": "fanout_item"},
            "depends_on": ["plan"],
            "fanout": {"over": "node:plan.items"},
        },
        "join": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "array"}}},
            "input": {"from": "node:work"},
            "depends_on": ["work"],
        },
    },
    "output": {"from": "node:join"},
}
FANOUT_V2 = {
    "version": 1,
    "nodes": {
        **FANOUT["nodes"],  # type: ignore[dict-item]
        "check": {
            "agent": {"model": "echo", "output": {"type": "json", "schema": {"type": "array"}}},
            "input": {"from": "node:join"},
            "depends_on": ["join"],
        },
    },
    "output": {"from": "node:check"},
}


def csrf_of(page: str) -> str:
    """The CSRF token a page's forms carry."""
    found = CSRF.search(page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def register(h: Harness, work_order_id: str, run_id: str, definition: dict[str, object]) -> None:
    """Registers revision 1 of a ref (alice reviews, approves and executes)."""
    r = ref(work_order_id, run_id)
    command = register_cmd(r, f"{work_order_id}-{run_id}-reg", definition)
    approve(h, command, f"{work_order_id}-{run_id}-reg", epochs=h.epochs(work_order_id))
    execute(h, "alice", f"{work_order_id}-{run_id}-reg-req", command)


def propose(
    h: Harness,
    work_order_id: str,
    run_id: str,
    proposal_id: str,
    definition: dict[str, object],
    summary: str = "add a check step",
) -> None:
    """The agent proposes a candidate against the head."""
    r = ref(work_order_id, run_id)
    head = h.client("agent").registry.GetHead(registry_pb2.GetHeadRequest(ref=r)).head
    command = propose_cmd(r, proposal_id, head.revision, definition, summary=summary)
    execute(h, "agent", f"{proposal_id}-req", command)


def page(client: httpx.Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (response.status_code, response.text[:2000])
    return response.text


def definition_text(definition: dict[str, object]) -> str:
    return json.dumps(definition)
