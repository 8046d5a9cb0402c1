"""Building blocks for authoring conformance vectors (see ``build_vectors.py``).

Everything here writes the proto-JSON form of ``aiws.conformance.v1`` (``VectorFile``,
``Vector``, ``Step``). Expected values are written from the specification, never
recorded from a server: definition digests are computed here independently, as
``sha256`` over canonical JSON (sorted keys, no whitespace).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

Json = Any

# --- identifiers: every vector lives in its own namespace ``${ns}`` --------------------

WO = "${ns}"
REF = {"workOrderId": WO, "runId": "run-1"}
EPOCHS = {"installationId": "${installation_id}", "ownershipEpoch": "1", "authorityEpoch": "1"}
POLICY = {"safety": "sha256:" + "a" * 64}


def ref(run_id: str = "run-1", work_order_id: str = WO) -> dict[str, str]:
    """A ``WorkflowRef`` in proto-JSON."""
    return {"workOrderId": work_order_id, "runId": run_id}


def epochs(ownership: int = 1, authority: int = 1, installation: str = "${installation_id}"):
    """``Epochs`` in proto-JSON (int64 as strings)."""
    return {
        "installationId": installation,
        "ownershipEpoch": str(ownership),
        "authorityEpoch": str(authority),
    }


# --- definitions ----------------------------------------------------------------------


def canonical(value: Json) -> str:
    """Canonical JSON for documents with ASCII keys: sorted keys, no whitespace."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest_of(value: Json) -> str:
    """``sha256:<hex>`` over the canonical JSON of ``value``."""
    return "sha256:" + hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def definition(node: str = "a", prompt: str | None = None, **agent: Json) -> dict[str, Json]:
    """A one-node definition (version 1) whose output is node ``node``."""
    spec: dict[str, Json] = {"model": "echo", **agent}
    if prompt is not None:
        spec["system_prompt"] = prompt
    return {
        "version": 1,
        "nodes": {node: {"agent": spec, "input": {"from": "run_input"}}},
        "output": {"from": f"node:{node}"},
    }


DEF1 = definition("a")
DEF2 = definition("b")
DEF3 = definition("c")
D1, D2, D3 = digest_of(DEF1), digest_of(DEF2), digest_of(DEF3)
TEXT1, TEXT2, TEXT3 = canonical(DEF1), canonical(DEF2), canonical(DEF3)

# --- commands -------------------------------------------------------------------------


def register_cmd(approval_id: str, r: Json = None, text: str = TEXT1, policy: Json = None):
    """A REGISTER ``RegistryCommand``."""
    return {
        "register": {
            "ref": r or REF,
            "definitionJson": text,
            "policyDigests": POLICY if policy is None else policy,
            "approvalId": approval_id,
        }
    }


def propose_cmd(
    proposal_id: str,
    base: int | str = 1,
    text: str = TEXT2,
    r: Json = None,
    policy: Json = None,
    **extra: Json,
):
    """A PROPOSE ``RegistryCommand``."""
    body = {
        "ref": r or REF,
        "proposalId": proposal_id,
        "baseRevision": str(base),
        "definitionJson": text,
        "policyDigests": POLICY if policy is None else policy,
        **extra,
    }
    return {"propose": body}


def activate_cmd(
    proposal_id: str,
    approval_id: str,
    base: int | str = 1,
    nxt: int | str | None = None,
    r: Json = None,
):
    """An ACTIVATE ``RegistryCommand``."""
    return {
        "activate": {
            "ref": r or REF,
            "proposalId": proposal_id,
            "baseRevision": str(base),
            "nextRevision": str(int(base) + 1 if nxt is None else nxt),
            "approvalId": approval_id,
        }
    }


def reject_cmd(proposal_id: str, reason: str, approval_id: str, r: Json = None):
    """A REJECT ``RegistryCommand``."""
    return {
        "reject": {
            "ref": r or REF,
            "proposalId": proposal_id,
            "reason": reason,
            "approvalId": approval_id,
        }
    }


# --- steps ----------------------------------------------------------------------------


def step(
    principal: str,
    service: str,
    method: str,
    request: Json,
    *,
    response: Json = None,
    error: tuple[str, str] | None = None,
    client_error: str | None = None,
    captures: dict[str, str] | None = None,
    advance_ms: int | None = None,
    set_offset_ms: int | None = None,
) -> dict[str, Json]:
    """One ``Step``; with neither ``error`` nor ``client_error`` it expects success."""
    out: dict[str, Json] = {}
    if advance_ms is not None:
        out["clock"] = {"advanceMs": str(advance_ms)}
    if set_offset_ms is not None:
        out["clock"] = {"setOffsetMs": str(set_offset_ms)}
    if principal:
        out["principal"] = principal
    out.update({"service": service, "method": method, "request": request})
    if error is not None:
        out["error"] = {"code": error[0], "reason": error[1]}
    elif client_error is not None:
        out["clientError"] = {"why": client_error}
    else:
        out["response"] = {} if response is None else response
    if captures:
        out["captures"] = captures
    return out


def clock(advance_ms: int | None = None, set_offset_ms: int | None = None) -> dict[str, Json]:
    """A clock-only ``Step``."""
    if advance_ms is not None:
        return {"clock": {"advanceMs": str(advance_ms)}}
    return {"clock": {"setOffsetMs": str(set_offset_ms)}}


def review(
    command: Json,
    capture: str = "md",
    principal: str = "alice",
    ep: Json = None,
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """Review a command and capture its material digest as ``${capture}``."""
    return step(
        principal,
        "RegistryService",
        "Review",
        {"epochs": ep or EPOCHS, "command": command},
        response=response,
        error=error,
        captures=None if error else {capture: "materialDigest"},
    )


def approve(
    approval_id: str,
    md: str = "md",
    principal: str = "alice",
    expires: str = "${t0+600000}",
    response: Json = None,
    error: tuple[str, str] | None = None,
) -> dict[str, Json]:
    """CreateApproval of the material digest captured as ``${md}``."""
    return step(
        principal,
        "ApprovalService",
        "CreateApproval",
        {"approvalId": approval_id, "materialDigest": "${" + md + "}", "expiresAtMs": expires},
        response=response,
        error=error,
    )


def execute(
    principal: str,
    request_id: str,
    command: Json,
    ep: Json = None,
    *,
    response: Json = None,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
    **clock_args: Any,
) -> dict[str, Json]:
    """Execute a command."""
    return step(
        principal,
        "RegistryService",
        "Execute",
        {"epochs": ep or EPOCHS, "requestId": request_id, "command": command},
        response=response,
        error=error,
        captures=captures,
        **clock_args,
    )


def approved(
    command: Json, approval_id: str, md: str = "md", approver: str = "alice", ep: Json = None
) -> list[dict[str, Json]]:
    """Review plus CreateApproval of a command."""
    md = md.replace("-", "_")
    return [review(command, md, approver, ep), approve(approval_id, md, approver)]


def registered(r: Json = None, text: str = TEXT1, tag: str = "reg") -> list[dict[str, Json]]:
    """Register revision 1 of ``r`` (approved and executed by alice)."""
    command = register_cmd(f"${{ns}}-ap-{tag}", r, text)
    return [
        *approved(command, f"${{ns}}-ap-{tag}", f"md_{tag}"),
        execute("alice", f"${{ns}}-req-{tag}", command),
    ]


def proposed(pid: str = "p1", base: int = 1, text: str = TEXT2, r: Json = None):
    """The agent proposes ``pid`` against ``base``."""
    return execute("agent", f"${{ns}}-req-{pid}", propose_cmd(pid, base, text, r))


def activated(pid: str = "p1", base: int = 1, r: Json = None, tag: str | None = None):
    """Alice approves and activates ``pid``."""
    tag = tag or f"act-{pid}"
    command = activate_cmd(pid, f"${{ns}}-ap-{tag}", base, r=r)
    return [
        *approved(command, f"${{ns}}-ap-{tag}", f"md_{tag}"),
        execute("alice", f"${{ns}}-req-{tag}", command),
    ]


def rejected(pid: str, reason: str = "not now", r: Json = None, tag: str | None = None):
    """Alice approves and executes the rejection of ``pid``."""
    tag = tag or f"rej-{pid}"
    command = reject_cmd(pid, reason, f"${{ns}}-ap-{tag}", r)
    return [
        *approved(command, f"${{ns}}-ap-{tag}", f"md_{tag}"),
        execute("alice", f"${{ns}}-req-{tag}", command),
    ]


def get_head(principal: str = "alice", r: Json = None, **expect: Json):
    """GetHead of ``r``."""
    return step(principal, "RegistryService", "GetHead", {"ref": r or REF}, **expect)


def get_proposal(pid: str, principal: str = "alice", r: Json = None, **expect: Json):
    """GetProposal of ``pid``."""
    return step(
        principal, "RegistryService", "GetProposal", {"ref": r or REF, "proposalId": pid}, **expect
    )


def history(
    after: str | int = 0,
    limit: int | None = None,
    r: Json = None,
    principal: str = "alice",
    **expect: Json,
):
    """ListHistory of ``r``."""
    request: dict[str, Json] = {"ref": r or REF}
    if after:
        request["after"] = str(after)
    if limit is not None:
        request["limit"] = limit
    return step(principal, "RegistryService", "ListHistory", request, **expect)


def admin(method: str, request: Json, principal: str = "alice", **expect: Json):
    """An AdminService call."""
    return step(principal, "AdminService", method, request, **expect)


def head(revision: int, digest: str, text: str, r: Json = None, at: str = "${t0}"):
    """The expected ``Head`` of an unbound ref."""
    return {
        "ref": r or REF,
        "revision": str(revision),
        "definitionDigest": digest,
        "definitionJson": text,
        "policyDigests": POLICY,
        "executionBinding": "EXECUTION_BINDING_UNBOUND",
        "boundRunId": None,
        "updatedAtMs": at,
    }


def receipt(
    request_id: str,
    principal: str,
    action: str,
    revision: int,
    digest: str,
    *,
    proposal_id: str | None = None,
    approval_id: str | None = None,
    r: Json = None,
    at: str = "${t0}",
) -> dict[str, Json]:
    """The expected ``Receipt``."""
    return {
        "requestId": request_id,
        "principalId": principal,
        "commandDigest": "<any>",
        "action": f"REGISTRY_ACTION_{action}",
        "ref": r or REF,
        "headRevision": str(revision),
        "headDigest": digest,
        "proposalId": proposal_id,
        "approvalId": approval_id,
        "eventSeq": "<any>",
        "committedAtMs": at,
    }


def vector(name: str, description: str, steps: list[Json], services: list[str] | None = None):
    """One ``Vector``."""
    out: dict[str, Json] = {"name": name, "description": description, "steps": steps}
    if services:
        out["services"] = services
    return out


def flatten(*parts: Any) -> list[dict[str, Json]]:
    """Steps and lists of steps, flattened in order."""
    out: list[dict[str, Json]] = []
    for part in parts:
        if isinstance(part, list):
            out.extend(part)
        else:
            out.append(part)
    return out


# --- server streams -------------------------------------------------------------------


def _stream_expectation(
    messages: Sequence[Json],
    end: bool,
    error: tuple[str, str] | None,
    keep: str,
    resume: str,
) -> dict[str, Json]:
    expect: dict[str, Json] = {}
    if resume:
        expect["resume"] = resume
    expect["messages"] = list(messages)
    if end:
        expect["end"] = True
    if error is not None:
        expect["error"] = {"code": error[0], "reason": error[1]}
    if keep:
        expect["keep"] = keep
    return expect


def stream_step(
    principal: str,
    service: str,
    method: str,
    request: Json,
    messages: Sequence[Json] = (),
    *,
    end: bool = False,
    error: tuple[str, str] | None = None,
    keep: str = "",
    captures: dict[str, str] | None = None,
    advance_ms: int | None = None,
) -> dict[str, Json]:
    """A ``Step`` that opens a server stream and expects ``messages`` (then its end, its
    error, or nothing more: cancelled, or kept open under ``keep``)."""
    out: dict[str, Json] = {}
    if advance_ms is not None:
        out["clock"] = {"advanceMs": str(advance_ms)}
    if principal:
        out["principal"] = principal
    out.update({"service": service, "method": method, "request": request})
    out["stream"] = _stream_expectation(list(messages), end, error, keep, "")
    if captures:
        out["captures"] = captures
    return out


def resume_stream(
    name: str,
    messages: Sequence[Json] = (),
    *,
    end: bool = False,
    error: tuple[str, str] | None = None,
    captures: dict[str, str] | None = None,
) -> dict[str, Json]:
    """A ``Step`` that reads on from the stream kept under ``name``."""
    out: dict[str, Json] = {"stream": _stream_expectation(list(messages), end, error, "", name)}
    if captures:
        out["captures"] = captures
    return out
