"""Run and registry helpers shared by every client (docs/workers.md section 12).

Example::

    run = run_and_wait(client, StartRunRequest(definition_json=to_json(doc), input_json="{}"))
    print(result_of(run))                     # the parsed result, or RunFailed

    reply = review_approve_execute(agent, human, RegistryCommand(activate=...))
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import grpc

from aiws.engine.v1 import approval_pb2, common_pb2, registry_pb2, run_pb2
from praxis_client.client import Client

TERMINAL = frozenset(
    {run_pb2.RUN_STATE_COMPLETED, run_pb2.RUN_STATE_FAILED, run_pb2.RUN_STATE_CANCELLED}
)
ENDS_AS = {
    run_pb2.RUN_STATE_COMPLETING: run_pb2.RUN_STATE_COMPLETED,
    run_pb2.RUN_STATE_FAILING: run_pb2.RUN_STATE_FAILED,
    run_pb2.RUN_STATE_CANCELLING: run_pb2.RUN_STATE_CANCELLED,
}
"""Each state of a run whose outcome is decided while work it started is unsettled (not
ended yet), and the terminal state it reaches once that work has settled."""
ENDING = frozenset(ENDS_AS)
_TRANSIENT = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def to_json(value: Any) -> str:
    """The canonical JSON text of ``value``: sorted keys, no spaces, UTF-8 kept.

    Raises:
        TypeError: ``value`` holds something JSON cannot encode (a set, a datetime).
        ValueError: ``value`` holds NaN or an infinity.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)  # fmt: skip


def from_json(text: str) -> Any:
    """The value of a ``*_json`` field; ``None`` for the empty string."""
    return json.loads(text) if text else None


class RunFailed(Exception):  # the name every client uses
    """A run ended without completing."""

    def __init__(self, run: run_pb2.Run) -> None:
        state = run_pb2.RunState.Name(run.state)
        super().__init__(f"run {run.run_id} {state}: {run.result_reason} {run.result_error}")
        self.run = run
        self.state = run.state
        self.result_reason = run.result_reason
        self.result_error = run.result_error


def unsettled(run: run_pb2.Run) -> tuple[int, int]:
    """What holds the end of a COMPLETING, FAILING or CANCELLING run, from its snapshot:
    ``(stopping, blocked)``: attempts asked to stop whose reports are awaited (until
    their leases end), and uncertain effects awaiting a reconciliation (these hold only
    a completion). ``(0, 0)`` for a run in another state."""
    if run.state not in ENDING:
        return 0, 0
    stopping = sum(1 for n in run.nodes if n.state == run_pb2.NODE_STATE_STOPPING)
    blocked = sum(1 for n in run.nodes if n.state == run_pb2.NODE_STATE_BLOCKED)
    return stopping, blocked if run.state == run_pb2.RUN_STATE_COMPLETING else 0


def result_of(run: run_pb2.Run) -> Any:
    """The parsed result of a COMPLETED run.

    Raises:
        RunFailed: the run FAILED, was CANCELLED or has not ended.
    """
    if run.state != run_pb2.RUN_STATE_COMPLETED:
        raise RunFailed(run)
    return from_json(run.result_json)


def run_and_wait(
    client: Client, request: run_pb2.StartRunRequest, timeout_s: float = 300.0
) -> run_pb2.Run:
    """Starts a run (a ``request_id`` is chosen when empty) and waits until it ends.

    Watches with ``WatchRun``, re-watching after transient errors; the ``request_id``
    makes the start safe to retry.

    Raises:
        TimeoutError: the run did not end within ``timeout_s``.
        grpc.RpcError: a non-transient refusal (bad definition, missing grant...).
    """
    start = run_pb2.StartRunRequest()  # never mutate the caller's message
    start.CopyFrom(request)
    if not start.request_id:
        start.request_id = f"run-{uuid.uuid4().hex}"
    deadline = time.monotonic() + timeout_s
    run: run_pb2.Run = _retrying(lambda: client.runs.StartRun(start, timeout=30).run, deadline)
    while run.state not in TERMINAL:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"run {run.run_id} did not end within {timeout_s}s")
        try:
            for update in client.runs.WatchRun(
                run_pb2.WatchRunRequest(run_id=run.run_id), timeout=left
            ):
                run = update.run
                if run.state in TERMINAL:
                    break
            else:  # the stream ended (server shutdown): read the run, then watch again
                run = _read_run(client, run.run_id, deadline)
        except grpc.RpcError as error:
            if error.code() not in _TRANSIENT:
                raise
            time.sleep(0.2)
    return run


def review_approve_execute(
    client: Client,
    approver: Client,
    command: registry_pb2.RegistryCommand,
    *,
    epochs: common_pb2.Epochs | None = None,
    work_order_id: str = "",
    approval_id: str = "",
    request_id: str = "",
    expires_at_ms: int | None = None,
) -> registry_pb2.ExecuteResponse:
    """The human-tool flow for a command that needs an approval (REGISTER, ACTIVATE,
    REJECT): ``Review`` as ``client``, ``CreateApproval`` as ``approver`` (a human),
    ``Execute`` as ``client``, one ``request_id`` for every retry.

    Args:
        client: Reviews and executes.
        approver: A client holding the approving human's token (may be ``client``).
        command: The command; its ``approval_id`` is set when empty.
        epochs: The epochs to act under; read with ``GetEpochs`` when omitted.
        work_order_id: The command's work order (read from its ref when empty).
        approval_id: The approval's id; generated when empty.
        request_id: The Execute request id; generated when empty.
        expires_at_ms: When the approval expires; ten minutes from now by default.
    """
    prepared = registry_pb2.RegistryCommand()
    prepared.CopyFrom(command)
    which = prepared.WhichOneof("command")
    if which is None:
        raise ValueError("command: set exactly one of register, propose, activate, reject")
    body = getattr(prepared, which)
    if not hasattr(body, "approval_id"):
        raise ValueError(f"{which} takes no approval: use Execute directly")
    if not body.approval_id:
        body.approval_id = approval_id or f"approval-{uuid.uuid4().hex[:16]}"
    work_order = work_order_id or body.ref.work_order_id
    if epochs is None:
        epochs = client.registry.GetEpochs(
            registry_pb2.GetEpochsRequest(work_order_id=work_order), timeout=30
        ).epochs
    review = client.registry.Review(
        registry_pb2.ReviewRequest(epochs=epochs, command=prepared), timeout=30
    )
    approver.approvals.CreateApproval(
        approval_pb2.CreateApprovalRequest(
            approval_id=body.approval_id,
            material_digest=review.material_digest,
            expires_at_ms=expires_at_ms or int(time.time() * 1000) + 600_000,
            work_order_id=work_order,
        ),
        timeout=30,
    )
    execute = registry_pb2.ExecuteRequest(
        epochs=epochs,
        request_id=request_id or f"execute-{uuid.uuid4().hex[:16]}",
        command=prepared,
    )
    deadline = time.monotonic() + 60
    reply: registry_pb2.ExecuteResponse = _retrying(
        lambda: client.registry.Execute(execute, timeout=30), deadline
    )
    return reply


def _read_run(client: Client, run_id: str, deadline: float) -> run_pb2.Run:
    request = run_pb2.GetRunRequest(run_id=run_id)
    run: run_pb2.Run = _retrying(lambda: client.runs.GetRun(request, timeout=30).run, deadline)
    return run


def _retrying(call: Any, deadline: float) -> Any:
    """``call()``, retried after transient errors until ``deadline``."""
    delay = 0.1
    while True:
        try:
            return call()
        except grpc.RpcError as error:
            if error.code() not in _TRANSIENT or time.monotonic() + delay > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 2.0)
