"""Registry helpers: definitions, commands, and registering, proposing, approving and
executing them through the public API."""

from __future__ import annotations

import json

from aiws.engine.v1 import common_pb2, registry_pb2
from tests.support.harness import Harness

DEFINITION = {
    "version": 1,
    "nodes": {"a": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:a"},
}
DEFINITION_V2 = {
    "version": 1,
    "nodes": {"b": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:b"},
}


def variant(tag: object) -> dict[str, object]:
    """A valid definition that differs from the others by ``tag`` (its input template)."""
    return {
        "version": 1,
        "nodes": {
            "a": {"agent": {"model": "echo"}, "input": {"from": "run_input", "template": str(tag)}}
        },
        "output": {"from": "node:a"},
    }


def ref(work_order_id: str = "wo-1", run_id: str = "run-1") -> common_pb2.WorkflowRef:
    """A proto ref."""
    return common_pb2.WorkflowRef(work_order_id=work_order_id, run_id=run_id)


def register_cmd(
    r: common_pb2.WorkflowRef, approval_id: str, definition: dict[str, object] | None = None
) -> registry_pb2.RegistryCommand:
    """A REGISTER command."""
    return registry_pb2.RegistryCommand(
        register=registry_pb2.RegisterCommand(
            ref=r,
            definition_json=json.dumps(definition or DEFINITION),
            approval_id=approval_id,
            policy_digests={"safety": "sha256:" + "a" * 64},
        )
    )


def propose_cmd(
    r: common_pb2.WorkflowRef,
    proposal_id: str,
    base: int,
    definition: dict[str, object] | None = None,
    **extra: object,
) -> registry_pb2.RegistryCommand:
    """A PROPOSE command."""
    return registry_pb2.RegistryCommand(
        propose=registry_pb2.ProposeCommand(
            ref=r,
            proposal_id=proposal_id,
            base_revision=base,
            definition_json=json.dumps(definition or DEFINITION_V2),
            policy_digests={"safety": "sha256:" + "a" * 64},
            **extra,  # type: ignore[arg-type]
        )
    )


def activate_cmd(
    r: common_pb2.WorkflowRef,
    proposal_id: str,
    base: int,
    approval_id: str,
    next_revision: int | None = None,
) -> registry_pb2.RegistryCommand:
    """An ACTIVATE command."""
    return registry_pb2.RegistryCommand(
        activate=registry_pb2.ActivateCommand(
            ref=r,
            proposal_id=proposal_id,
            base_revision=base,
            next_revision=base + 1 if next_revision is None else next_revision,
            approval_id=approval_id,
        )
    )


def reject_cmd(
    r: common_pb2.WorkflowRef, proposal_id: str, reason: str, approval_id: str
) -> registry_pb2.RegistryCommand:
    """A REJECT command."""
    return registry_pb2.RegistryCommand(
        reject=registry_pb2.RejectCommand(
            ref=r, proposal_id=proposal_id, reason=reason, approval_id=approval_id
        )
    )


def approve(
    h: Harness,
    command: registry_pb2.RegistryCommand,
    approval_id: str,
    approver: str = "alice",
    ttl_ms: int = 600_000,
    epochs: common_pb2.Epochs | None = None,
) -> str:
    """Reviews ``command`` and records ``approver``'s approval of its material."""
    from aiws.engine.v1 import approval_pb2

    client = h.client(approver)
    review = client.registry.Review(
        registry_pb2.ReviewRequest(
            epochs=epochs or h.epochs(command_ref(command).work_order_id), command=command
        )
    )
    client.approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id=approval_id,
            material_digest=review.material_digest,
            expires_at_ms=h.clock.now_ms() + ttl_ms,
            work_order_id=command_ref(command).work_order_id,
        )
    )
    return review.material_digest


def command_ref(command: registry_pb2.RegistryCommand) -> common_pb2.WorkflowRef:
    """The ref of any command."""
    kind = command.WhichOneof("command")
    return getattr(command, kind).ref  # type: ignore[no-any-return, arg-type]


def execute(
    h: Harness,
    principal_id: str,
    request_id: str,
    command: registry_pb2.RegistryCommand,
    epochs: common_pb2.Epochs | None = None,
) -> registry_pb2.ExecuteResponse:
    """Executes a command as ``principal_id``."""
    return h.client(principal_id).registry.Execute(
        registry_pb2.ExecuteRequest(
            epochs=epochs or h.epochs(command_ref(command).work_order_id),
            request_id=request_id,
            command=command,
        )
    )


def registered(h: Harness, r: common_pb2.WorkflowRef | None = None) -> common_pb2.WorkflowRef:
    """Registers revision 1 of ``r`` (approved by alice) and returns the ref."""
    r = r or ref()
    command = register_cmd(r, f"ap-reg-{r.work_order_id}-{r.run_id}")
    approve(h, command, f"ap-reg-{r.work_order_id}-{r.run_id}")
    execute(h, "alice", f"req-reg-{r.work_order_id}-{r.run_id}", command)
    return r


def proposed(
    h: Harness,
    r: common_pb2.WorkflowRef,
    proposal_id: str,
    base: int = 1,
    definition: dict[str, object] | None = None,
) -> None:
    """Has the agent propose a candidate."""
    execute(h, "agent", f"req-prop-{proposal_id}", propose_cmd(r, proposal_id, base, definition))
