"""What an upgrade fixture holds, as the public API answers it (plain JSON values).

``scripts/build_upgrade_fixtures.py`` records these views of the data it wrote, as the
old server answered them, in each fixture's manifest; ``test_upgrades.py`` takes the same
views from the current server after it migrated the database and expects them equal.
Fields a server of any version answers alike are kept; fields an old server never set
(a newer contract's) are left out, except node times (0 where none were recorded).
"""

from __future__ import annotations

import json
from typing import Any

from aiws.engine.v1 import (
    approval_pb2,
    common_pb2,
    contract_pb2,
    principal_pb2,
    registry_pb2,
    run_pb2,
)
from praxis_client import Client

WORK_ORDER = "wo-up"
FLOW = "flow"
CONTRACT = "ct-up"
PROPOSALS = ("change-1", "change-2")
APPROVAL = "ap-activate"


def flow_ref() -> common_pb2.WorkflowRef:
    """The registered ref of every fixture."""
    return common_pb2.WorkflowRef(work_order_id=WORK_ORDER, run_id=FLOW)


def registry_view(client: Client) -> dict[str, Any]:
    """The ref's head, history, proposals and the activation's approval."""
    registry = client.registry
    head = registry.GetHead(registry_pb2.GetHeadRequest(ref=flow_ref())).head
    history = registry.ListHistory(registry_pb2.ListHistoryRequest(ref=flow_ref())).events
    proposals = {}
    for proposal_id in PROPOSALS:
        proposal = registry.GetProposal(
            registry_pb2.GetProposalRequest(ref=flow_ref(), proposal_id=proposal_id)
        ).proposal
        proposals[proposal_id] = {
            "state": registry_pb2.ProposalState.Name(proposal.state),
            "base_revision": proposal.base_revision,
            "activated_revision": proposal.activated_revision,
            "proposed_by": proposal.proposed_by,
            "definition": json.loads(proposal.definition_json),
        }
    approval = client.approvals.GetApproval(
        approval_pb2.GetApprovalRequest(approval_id=APPROVAL)
    ).approval
    return {
        "ref": {"work_order_id": WORK_ORDER, "run_id": FLOW},
        "head": {
            "revision": head.revision,
            "definition": json.loads(head.definition_json),
            "definition_digest": head.definition_digest,
            "execution_binding": registry_pb2.ExecutionBinding.Name(head.execution_binding),
            "bound_run_id": head.bound_run_id,
        },
        "history": [
            {
                "seq": event.seq,
                "kind": registry_pb2.HistoryEventKind.Name(event.kind),
                "revision": event.revision,
                "proposal_id": event.proposal_id,
                "principal_id": event.principal_id,
            }
            for event in history
        ],
        "proposals": proposals,
        "approval": {
            "approval_id": APPROVAL,
            "state": approval_pb2.ApprovalState.Name(approval.state),
            "consumed_by_request_id": approval.consumed_by_request_id,
        },
    }


def contract_view(client: Client) -> dict[str, Any]:
    """The contract and what was spent against it."""
    contract = client.contracts.GetContract(
        contract_pb2.GetContractRequest(contract_id=CONTRACT)
    ).contract
    return {
        "contract_id": contract.contract_id,
        "work_order_id": contract.work_order_id,
        "digest": contract.digest,
        "budget_microcredits": contract.budget_microcredits,
        "spent_microcredits": contract.spent_microcredits,
        "created_by": contract.created_by,
        "created_at_ms": contract.created_at_ms,
    }


def run_view(client: Client, run_id: str) -> dict[str, Any]:
    """A run, its nodes by uid and their results."""
    runs = client.runs
    run = runs.GetRun(run_pb2.GetRunRequest(run_id=run_id)).run
    nodes: dict[str, Any] = {}
    for node in run.nodes:
        entry: dict[str, Any] = {
            "node_id": node.node_id,
            "state": run_pb2.NodeState.Name(node.state),
            "attempts": node.attempts,
            "attempt_id": node.attempt_id,
            "error": node.error,
            "has_result": node.has_result,
            "revision": node.revision,
            "fanout_items": node.fanout_items,
            "started_at_ms": node.started_at_ms,
            "finished_at_ms": node.finished_at_ms,
        }
        if node.has_result:
            result = runs.GetNodeResult(
                run_pb2.GetNodeResultRequest(run_id=run_id, node_uid=node.node_uid)
            )
            entry["result"] = json.loads(result.result_json)
        nodes[node.node_uid] = entry
    return {
        "run_id": run.run_id,
        "state": run_pb2.RunState.Name(run.state),
        "ref": {"work_order_id": run.ref.work_order_id, "run_id": run.ref.run_id},
        "revision": run.revision,
        "definition_digest": run.definition_digest,
        "contract_id": run.contract_id,
        "request_id": run.request_id,
        "result": json.loads(run.result_json) if run.result_json else None,
        "result_error": run.result_error,
        "created_at_ms": run.created_at_ms,
        "finished_at_ms": run.finished_at_ms,
        "nodes": nodes,
    }


def principal_view(client: Client, principal_id: str) -> dict[str, Any]:
    """A stored principal and its audit history."""
    principals = client.principals
    principal = principals.GetPrincipal(
        principal_pb2.GetPrincipalRequest(principal_id=principal_id)
    ).principal
    history = principals.ListPrincipalHistory(
        principal_pb2.ListPrincipalHistoryRequest(principal_id=principal_id)
    ).events
    return {
        "kind": common_pb2.PrincipalKind.Name(principal.kind),
        "version": principal.version,
        "created_by": principal.created_by,
        "created_at_ms": principal.created_at_ms,
        "token_issued_at_ms": principal.token_issued_at_ms,
        "token_fingerprint": principal.token_fingerprint,
        "revoked_at_ms": principal.revoked_at_ms,
        "revoked_by": principal.revoked_by,
        "revoke_reason": principal.revoke_reason,
        "grants": [
            {"actions": list(grant.actions), "work_orders": list(grant.work_orders)}
            for grant in principal.grants
        ],
        "history": [
            {
                "seq": event.seq,
                "kind": principal_pb2.PrincipalEventKind.Name(event.kind),
                "version": event.version,
                "actor_id": event.actor_id,
                "at_ms": event.at_ms,
                "reason": event.reason,
                "token_fingerprint": event.token_fingerprint,
            }
            for event in history
        ],
    }
