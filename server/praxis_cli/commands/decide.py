"""What waits for a human, and the decisions: ``inbox``, ``review``, ``approve``,
``activate``, ``reject``, ``register``, ``propose``, ``reconcile``, ``wait``."""

from __future__ import annotations

import argparse
import difflib
import json
import secrets
from typing import Any

from aiws.engine.v1 import approval_pb2, common_pb2, registry_pb2, run_pb2, wait_pb2
from aiws.engine.v1 import inbox_pb2 as ib
from aiws.engine.v1 import reconciliation_pb2 as rc
from praxis_cli.commands.common import (
    group,
    json_argument,
    leaf,
    parse_moment,
    parse_ref,
    pretty_json,
    ref_text,
)
from praxis_cli.errors import CONFLICT, CliError, usage
from praxis_cli.output import enum_name, local_time, to_dict

_INBOX_KINDS = {
    "proposal": ib.INBOX_ITEM_KIND_PROPOSAL,
    "reconciliation": ib.INBOX_ITEM_KIND_RECONCILIATION,
    "human-input": ib.INBOX_ITEM_KIND_HUMAN_INPUT,
    "authorization": ib.INBOX_ITEM_KIND_AUTHORIZATION,
    "hold": ib.INBOX_ITEM_KIND_HOLD,
}
_DECISIONS = {
    "applied": rc.RECONCILIATION_DECISION_APPLIED,
    "not-applied": rc.RECONCILIATION_DECISION_NOT_APPLIED,
}
DEFAULT_APPROVAL_TTL = "1h"
# Review checks a command's shape, which names an approval; the material never includes it.
REVIEW_APPROVAL = "pending-review"


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    """Adds the decision commands."""
    inbox = leaf(commands, common, "inbox", _inbox, "list what waits for a human, oldest first")
    inbox.add_argument(
        "--kind",
        action="append",
        choices=sorted(_INBOX_KINDS),
        default=[],
        help="only items of this kind (repeatable)",
    )
    inbox.add_argument("--work-order", default="", help="only items of this work order")
    inbox.add_argument("--limit", type=int, default=0, help="page size (server default 100)")
    inbox.add_argument("--page-token", default="", help="continue a previous listing")

    review = leaf(
        commands,
        common,
        "review",
        _review,
        "show a proposal's exact review material, its diff against the base and its digest",
    )
    _proposal_args(review)
    review.add_argument(
        "--reject",
        metavar="REASON",
        help="review the rejection with this reason instead of the activation",
    )

    approve = leaf(
        commands,
        common,
        "approve",
        _approve,
        "approve the reviewed material of a proposal (bound to its digest)",
    )
    _proposal_args(approve)
    approve.add_argument("--digest", required=True, help="the material digest 'review' printed")
    approve.add_argument(
        "--reject", metavar="REASON", help="approve the rejection with this reason instead"
    )
    _approval_args(approve)

    activate = leaf(commands, common, "activate", _activate, "make an approved proposal the head")
    _proposal_args(activate)
    activate.add_argument("--approval", required=True, help="the approval id 'approve' printed")
    activate.add_argument(
        "--request-id", help="idempotency key (default: derived; a retry replays the receipt)"
    )

    reject = leaf(commands, common, "reject", _reject, "reject an approved proposal")
    _proposal_args(reject)
    reject.add_argument("--reason", required=True, help="why (part of the approved material)")
    reject.add_argument("--approval", required=True, help="the approval id of the rejection")
    reject.add_argument("--request-id", help="idempotency key (default: derived)")

    reg = leaf(
        commands,
        common,
        "register",
        _register,
        "register revision 1 of a ref: without --digest, show the material; with it, "
        "approve and register",
    )
    reg.add_argument("ref", metavar="WORK_ORDER/RUN")
    reg.add_argument("-f", "--file", required=True, help="the definition (JSON; - for stdin)")
    reg.add_argument(
        "--policy",
        action="append",
        default=[],
        metavar="NAME=DIGEST",
        help="a protected policy digest (repeatable)",
    )
    reg.add_argument("--digest", help="approve this material digest and register")
    reg.add_argument("--request-id", help="idempotency key (default: derived)")
    _approval_args(reg)

    propose = leaf(
        commands,
        common,
        "propose",
        _propose,
        "propose a candidate definition against the head (agents do this)",
    )
    _proposal_args(propose)
    propose.add_argument("-f", "--file", required=True, help="the candidate (JSON; - for stdin)")
    propose.add_argument("--base", type=int, help="the base revision (default: the head's)")
    propose.add_argument("--summary", default="", help="why the change is proposed")
    propose.add_argument("--request-id", help="idempotency key (default: derived)")

    rec = leaf(
        commands,
        common,
        "reconcile",
        _reconcile,
        "decide an uncertain effect: without --digest, show the material; with it, "
        "approve and record the decision",
    )
    rec.add_argument("run", help="the run")
    rec.add_argument("attempt", help="the attempt whose effect is uncertain")
    rec.add_argument("--decision", required=True, choices=sorted(_DECISIONS))
    rec.add_argument("--evidence", help="the evidence, a JSON document")
    rec.add_argument("--evidence-file", help="the evidence as a JSON file")
    rec.add_argument("--digest", help="approve this material digest and record the decision")
    rec.add_argument("--request-id", help="idempotency key (default: derived)")
    _approval_args(rec)

    waits = group(commands, "wait", "human-input, timer and authorization waits of runs")
    satisfy = leaf(waits, common, "satisfy", _satisfy, "satisfy a pending wait with a payload")
    satisfy.add_argument("wait_id")
    satisfy.add_argument("--payload", help="the payload, a JSON document")
    satisfy.add_argument("-f", "--file", help="the payload as a JSON file")
    satisfy.add_argument("--request-id", help="idempotency key (default: derived)")
    show = leaf(waits, common, "show", _wait_show, "show one wait")
    show.add_argument("wait_id")
    listing = leaf(waits, common, "list", _wait_list, "list a run's waits")
    listing.add_argument("run")


def _proposal_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ref", metavar="WORK_ORDER/RUN", help="the ref")
    parser.add_argument("proposal", help="the proposal id")


def _approval_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--expires",
        default=DEFAULT_APPROVAL_TTL,
        metavar="WHEN",
        help="when the approval expires (default 1h; at most 7d)",
    )
    parser.add_argument("--approval-id", help="the approval's id (default: generated)")


# --- inbox -------------------------------------------------------------------------------


def _inbox(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(
        ctx.client.inbox.ListInbox,
        ib.ListInboxRequest(
            kinds=[_INBOX_KINDS[kind] for kind in args.kind],
            work_order_id=args.work_order,
            page_size=args.limit,
            page_token=args.page_token,
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    counts = ", ".join(
        f"{enum_name(ib.InboxItemKind.Name(c.kind), 'INBOX_ITEM_KIND_').lower()} {c.count}"
        for c in response.counts
    )
    ctx.out.line(f"{response.total} waiting ({counts})")
    ctx.out.table(
        ["SINCE", "KIND", "WORK ORDER", "RUN", "ITEM", "SUMMARY"],
        [
            [
                local_time(i.since_ms),
                enum_name(ib.InboxItemKind.Name(i.kind), "INBOX_ITEM_KIND_"),
                i.work_order_id or "-",
                i.run_id or "-",
                _subject_id(i),
                i.summary,
            ]
            for i in response.items
        ],
    )
    if response.next_page_token:
        ctx.out.line(f"more: --page-token {response.next_page_token}")
    return 0


def _subject_id(item: ib.InboxItem) -> str:
    kind = item.WhichOneof("subject")
    if kind == "proposal":
        return item.proposal.proposal_id
    if kind == "reconciliation":
        return item.reconciliation.attempt_id
    if kind == "wait":
        return item.wait.wait_id
    return item.item_id


# --- registry decisions ----------------------------------------------------------------


def _epochs(ctx: Any, work_order_id: str) -> common_pb2.Epochs:
    request = registry_pb2.GetEpochsRequest(work_order_id=work_order_id)
    return ctx.call(ctx.client.registry.GetEpochs, request).epochs  # type: ignore[no-any-return]


def _decision(
    ctx: Any,
    args: argparse.Namespace,
    reject_reason: str | None,
    approval_id: str = REVIEW_APPROVAL,
) -> tuple[registry_pb2.Proposal, common_pb2.Epochs, registry_pb2.RegistryCommand]:
    ref = parse_ref(args.ref)
    proposal = ctx.call(
        ctx.client.registry.GetProposal,
        registry_pb2.GetProposalRequest(ref=ref, proposal_id=args.proposal),
    ).proposal
    if reject_reason is not None:
        command = registry_pb2.RegistryCommand(
            reject=registry_pb2.RejectCommand(
                ref=ref, proposal_id=args.proposal, reason=reject_reason, approval_id=approval_id
            )
        )
    else:
        command = registry_pb2.RegistryCommand(
            activate=registry_pb2.ActivateCommand(
                ref=ref,
                proposal_id=args.proposal,
                base_revision=proposal.base_revision,
                next_revision=proposal.base_revision + 1,
                approval_id=approval_id,
            )
        )
    return proposal, _epochs(ctx, ref.work_order_id), command


def _material(
    ctx: Any, epochs: common_pb2.Epochs, command: registry_pb2.RegistryCommand
) -> registry_pb2.ReviewResponse:
    request = registry_pb2.ReviewRequest(epochs=epochs, command=command)
    return ctx.call(ctx.client.registry.Review, request)  # type: ignore[no-any-return]


def _dependencies(spec: Any) -> set[str]:
    found: set[str] = set()
    if not isinstance(spec, dict):
        return found
    depends = spec.get("depends_on", [])
    if isinstance(depends, list):
        found.update(item for item in depends if isinstance(item, str))
    source = spec.get("input", {}).get("from") if isinstance(spec.get("input"), dict) else None
    for reference in source if isinstance(source, list) else [source]:
        if isinstance(reference, str) and reference.startswith("node:"):
            found.add(reference[5:].split(".", 1)[0])
    over = spec.get("fanout", {}).get("over") if isinstance(spec.get("fanout"), dict) else None
    if isinstance(over, str) and over.startswith("node:"):
        found.add(over[5:].split(".", 1)[0])
    return found


def _graph(definition_json: str) -> tuple[dict[str, Any], set[tuple[str, str]]]:
    try:
        document = json.loads(definition_json) if definition_json else {}
    except ValueError:
        document = {}
    nodes = document.get("nodes", {}) if isinstance(document, dict) else {}
    nodes = nodes if isinstance(nodes, dict) else {}
    edges = {(dep, node) for node, spec in nodes.items() for dep in _dependencies(spec)}
    return nodes, edges


def dag_change(base_json: str, candidate_json: str) -> dict[str, list[str]]:
    """Nodes added, removed and changed, and edges added and removed."""
    base_nodes, base_edges = _graph(base_json)
    new_nodes, new_edges = _graph(candidate_json)
    return {
        "nodes_added": sorted(set(new_nodes) - set(base_nodes)),
        "nodes_removed": sorted(set(base_nodes) - set(new_nodes)),
        "nodes_changed": sorted(
            n for n in set(base_nodes) & set(new_nodes) if base_nodes[n] != new_nodes[n]
        ),
        "edges_added": [f"{a} -> {b}" for a, b in sorted(new_edges - base_edges)],
        "edges_removed": [f"{a} -> {b}" for a, b in sorted(base_edges - new_edges)],
    }


def definition_diff(material: registry_pb2.ReviewMaterial) -> list[str]:
    """A unified diff of the base and candidate definitions as indented JSON."""
    base = pretty_json(material.base_definition_json) if material.base_definition_json else ""
    candidate = pretty_json(material.candidate_definition_json)
    label = f"revision {material.base_revision}" if material.base_revision else "(none)"
    target = f"proposal {material.proposal_id}" if material.proposal_id else "candidate"
    return list(
        difflib.unified_diff(
            base.splitlines(), candidate.splitlines(), label, target, lineterm="", n=3
        )
    )


def show_material(ctx: Any, review: registry_pb2.ReviewResponse, extra: dict[str, Any]) -> None:
    """Prints review material: its fields, the diff, the DAG change and the digest."""
    material = review.material
    diff = definition_diff(material)
    change = dag_change(material.base_definition_json, material.candidate_definition_json)
    if ctx.out.as_json:
        ctx.out.json(
            {
                **extra,
                "material": to_dict(material),
                "material_digest": review.material_digest,
                "diff": diff,
                "dag_change": change,
            }
        )
        return
    rows = [
        (
            "action",
            enum_name(registry_pb2.RegistryAction.Name(material.action), "REGISTRY_ACTION_"),
        ),
        ("ref", ref_text(material.ref)),
        ("base", f"revision {material.base_revision} {material.base_digest}".strip()),
        ("candidate", f"revision {material.candidate_revision} {material.candidate_digest}"),
    ]
    if material.proposal_id:
        rows += [
            ("proposal", f"{material.proposal_id} {material.proposal_digest}"),
            ("proposed by", material.proposed_by),
        ]
    if material.reason:
        rows.append(("reason", material.reason))
    rows += [
        ("policies", ", ".join(f"{k}={v}" for k, v in sorted(material.policy_digests.items()))),
        (
            "epochs",
            f"installation {material.installation_id}, ownership "
            f"{material.ownership_epoch}, authority {material.authority_epoch}",
        ),
    ]
    rows += [(name, value) for name, value in extra.items() if isinstance(value, str)]
    ctx.out.fields(rows)
    ctx.out.line()
    ctx.out.line("definition (base -> candidate):", "bold")
    for line in diff or ["(no difference)"]:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
        ctx.out.line(line, "bold " + style if line.startswith(("+++", "---")) else style)
    ctx.out.line()
    ctx.out.line("DAG change:", "bold")
    for name, items in change.items():
        ctx.out.line(f"  {name.replace('_', ' ')}: {', '.join(items) if items else '-'}")
    ctx.out.line()
    ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")


def _review(ctx: Any, args: argparse.Namespace) -> int:
    proposal, epochs, command = _decision(ctx, args, args.reject)
    review = _material(ctx, epochs, command)
    show_material(ctx, review, {"summary": proposal.summary} if proposal.summary else {})
    if not ctx.out.as_json:
        flag = f" --reject {json.dumps(args.reject)}" if args.reject is not None else ""
        ctx.out.line(
            f"approve with: praxis approve {args.ref} {args.proposal} "
            f"--digest {review.material_digest}{flag}"
        )
    return 0


def _create_approval(ctx: Any, args: argparse.Namespace, digest: str, work_order: str) -> Any:
    approval_id = args.approval_id or f"ap-{digest[7:19]}-{secrets.token_hex(4)}"
    request = approval_pb2.CreateApprovalRequest(
        approval_id=approval_id,
        material_digest=digest,
        expires_at_ms=parse_moment(args.expires, "--expires"),
        work_order_id=work_order,
    )
    return ctx.call(ctx.client.approvals.CreateApproval, request).approval


def _check_digest(expected: str, actual: str) -> None:
    if expected != actual:
        raise CliError(
            "MATERIAL_CHANGED",
            f"the material now has digest {actual}, not the reviewed {expected}: review again",
            CONFLICT,
        )


def _approve(ctx: Any, args: argparse.Namespace) -> int:
    _, epochs, command = _decision(ctx, args, args.reject)
    review = _material(ctx, epochs, command)
    _check_digest(args.digest, review.material_digest)
    approval = _create_approval(
        ctx, args, review.material_digest, parse_ref(args.ref).work_order_id
    )
    if ctx.out.as_json:
        ctx.out.json(to_dict(approval))
        return 0
    verb = "reject" if args.reject is not None else "activate"
    ctx.out.line(
        f"approval {approval.approval_id} of {review.material_digest}, expires "
        f"{local_time(approval.expires_at_ms)}"
    )
    extra = f" --reason {json.dumps(args.reject)}" if args.reject is not None else ""
    ctx.out.line(
        f"{verb} with: praxis {verb} {args.ref} {args.proposal}{extra} "
        f"--approval {approval.approval_id}"
    )
    return 0


def _execute(
    ctx: Any, epochs: common_pb2.Epochs, request_id: str, command: registry_pb2.RegistryCommand
) -> int:
    response = ctx.call(
        ctx.client.registry.Execute,
        registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command),
    )
    receipt = response.receipt
    if ctx.out.as_json:
        ctx.out.json({"receipt": to_dict(receipt), "replayed": response.replayed})
        return 0
    action = enum_name(registry_pb2.RegistryAction.Name(receipt.action), "REGISTRY_ACTION_")
    ctx.out.fields(
        [
            ("committed", f"{action} of {ref_text(receipt.ref)}"),
            ("head", f"revision {receipt.head_revision} {receipt.head_digest}"),
            ("proposal", receipt.proposal_id or "-"),
            ("approval", receipt.approval_id or "-"),
            ("request id", receipt.request_id),
            ("at", local_time(receipt.committed_at_ms)),
            (
                "replayed",
                "yes: the original receipt; nothing changed" if response.replayed else "no",
            ),
        ]
    )
    return 0


def _activate(ctx: Any, args: argparse.Namespace) -> int:
    _, epochs, command = _decision(ctx, args, None, args.approval)
    request_id = args.request_id or f"cli-activate-{args.proposal}-{args.approval}"
    return _execute(ctx, epochs, request_id, command)


def _reject(ctx: Any, args: argparse.Namespace) -> int:
    _, epochs, command = _decision(ctx, args, args.reason, args.approval)
    request_id = args.request_id or f"cli-reject-{args.proposal}-{args.approval}"
    return _execute(ctx, epochs, request_id, command)


def _policies(specs: list[str]) -> dict[str, str]:
    policies: dict[str, str] = {}
    for spec in specs:
        name, equals, digest = spec.partition("=")
        if not equals or not name:
            raise usage(f"--policy {spec!r}: write NAME=sha256:<hex>")
        policies[name] = digest
    return policies


def _register(ctx: Any, args: argparse.Namespace) -> int:
    ref = parse_ref(args.ref)
    definition = json_argument(None, args.file, "the definition")
    command = registry_pb2.RegistryCommand(
        register=registry_pb2.RegisterCommand(
            ref=ref,
            definition_json=definition,
            policy_digests=_policies(args.policy),
            approval_id=REVIEW_APPROVAL,
        )
    )
    epochs = _epochs(ctx, ref.work_order_id)
    review = _material(ctx, epochs, command)
    if not args.digest:
        show_material(ctx, review, {})
        if not ctx.out.as_json:
            ctx.out.line(
                f"register with: praxis register {args.ref} -f {args.file} "
                + "".join(f"--policy {p} " for p in args.policy)
                + f"--digest {review.material_digest}"
            )
        return 0
    _check_digest(args.digest, review.material_digest)
    approval = _create_approval(ctx, args, review.material_digest, ref.work_order_id)
    command.register.approval_id = approval.approval_id
    request_id = args.request_id or f"cli-register-{review.material_digest[7:31]}"
    return _execute(ctx, epochs, request_id, command)


def _propose(ctx: Any, args: argparse.Namespace) -> int:
    ref = parse_ref(args.ref)
    definition = json_argument(None, args.file, "the candidate")
    head = ctx.call(ctx.client.registry.GetHead, registry_pb2.GetHeadRequest(ref=ref)).head
    command = registry_pb2.RegistryCommand(
        propose=registry_pb2.ProposeCommand(
            ref=ref,
            proposal_id=args.proposal,
            base_revision=args.base if args.base is not None else head.revision,
            definition_json=definition,
            policy_digests=dict(head.policy_digests),
            summary=args.summary,
        )
    )
    request_id = args.request_id or f"cli-propose-{args.proposal}"
    return _execute(ctx, _epochs(ctx, ref.work_order_id), request_id, command)


# --- reconciliations and waits -----------------------------------------------------------


def _reconcile(ctx: Any, args: argparse.Namespace) -> int:
    evidence = json_argument(args.evidence, args.evidence_file, "the evidence")
    if not evidence:
        raise usage("the evidence is required: --evidence JSON or --evidence-file FILE")
    run = ctx.call(ctx.client.runs.GetRun, run_pb2.GetRunRequest(run_id=args.run)).run
    work_order = run.ref.work_order_id
    epochs = _epochs(ctx, work_order or "_")  # an ad hoc run: the installation, epochs 1 and 1
    if not work_order:
        epochs = common_pb2.Epochs(
            installation_id=epochs.installation_id, ownership_epoch=1, authority_epoch=1
        )
    decision = _DECISIONS[args.decision]
    review = ctx.call(
        ctx.client.reconciliations.ReviewReconciliation,
        rc.ReviewReconciliationRequest(
            epochs=epochs, attempt_id=args.attempt, decision=decision, evidence_json=evidence
        ),
    )
    if not args.digest:
        if ctx.out.as_json:
            ctx.out.json(
                {"material": to_dict(review.material), "material_digest": review.material_digest}
            )
            return 0
        m = review.material
        ctx.out.fields(
            [
                ("run", m.run_id),
                ("node", m.node_uid),
                ("attempt", m.attempt_id),
                ("operation", m.operation_id),
                ("attempt outcome", "completed with a result" if m.completed else "failed"),
                ("decision", args.decision),
                ("evidence", evidence.strip()),
                ("evidence digest", m.evidence_digest),
                ("result digest", m.result_digest or "-"),
            ]
        )
        ctx.out.line(f"material digest: {review.material_digest}", "bold yellow")
        return 0
    _check_digest(args.digest, review.material_digest)
    approval = _create_approval(ctx, args, review.material_digest, work_order)
    response = ctx.call(
        ctx.client.reconciliations.Reconcile,
        rc.ReconcileRequest(
            epochs=epochs,
            request_id=args.request_id or f"cli-reconcile-{args.attempt}",
            attempt_id=args.attempt,
            decision=decision,
            evidence_json=evidence,
            approval_id=approval.approval_id,
        ),
    )
    if ctx.out.as_json:
        ctx.out.json(
            {"reconciliation": to_dict(response.reconciliation), "replayed": response.replayed}
        )
    else:
        ctx.out.line(
            f"reconciled attempt {args.attempt}: {args.decision}"
            + (" (replayed)" if response.replayed else "")
        )
    return 0


def _wait_row(w: wait_pb2.Wait) -> list[str]:
    return [
        w.wait_id,
        w.run_id,
        w.node_uid,
        enum_name(wait_pb2.WaitKind.Name(w.kind), "WAIT_KIND_"),
        enum_name(wait_pb2.WaitState.Name(w.state), "WAIT_STATE_"),
        local_time(w.expires_at_ms),
        w.satisfied_by or "-",
    ]


_WAIT_COLUMNS = ["WAIT", "RUN", "NODE", "KIND", "STATE", "EXPIRES", "SATISFIED BY"]


def _satisfy(ctx: Any, args: argparse.Namespace) -> int:
    payload = json_argument(args.payload, args.file, "the payload")
    if not payload:
        raise usage("the payload is required: --payload JSON or -f FILE")
    request_id = args.request_id or f"cli-satisfy-{args.wait_id}"
    response = ctx.call(
        ctx.client.waits.SatisfyWait,
        wait_pb2.SatisfyWaitRequest(
            request_id=request_id, wait_id=args.wait_id, payload_json=payload
        ),
    )
    if ctx.out.as_json:
        ctx.out.json({"wait": to_dict(response.wait), "replayed": response.replayed})
    else:
        ctx.out.line(
            f"satisfied wait {args.wait_id}" + (" (replayed)" if response.replayed else "")
        )
    return 0


def _wait_show(ctx: Any, args: argparse.Namespace) -> int:
    wait = ctx.call(ctx.client.waits.GetWait, wait_pb2.GetWaitRequest(wait_id=args.wait_id)).wait
    if ctx.out.as_json:
        ctx.out.json(to_dict(wait))
        return 0
    rows = list(zip(_WAIT_COLUMNS, _wait_row(wait), strict=True))
    ctx.out.fields([*rows, ("schema", wait.schema_json), ("payload", wait.payload_json or "-")])
    return 0


def _wait_list(ctx: Any, args: argparse.Namespace) -> int:
    response = ctx.call(ctx.client.waits.ListWaits, wait_pb2.ListWaitsRequest(run_id=args.run))
    if ctx.out.as_json:
        ctx.out.json(to_dict(response))
        return 0
    ctx.out.table(_WAIT_COLUMNS, [_wait_row(w) for w in response.waits])
    return 0
