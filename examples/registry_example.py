"""The complete registry example, end to end over gRPC.

Starts ``praxis serve`` on a temporary database, registers a definition, has an agent
propose a change, prints the review material, records a human approval, activates
revision 2, stops the server, starts a new one on the same database, retries the
activation and checks that the same receipt comes back with ``replayed = true``, then
removes the database. Exits non-zero if any check fails.

Run it with ``make example``.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiws.engine.v1 import approval_pb2, common_pb2, registry_pb2
from praxis_client import connect

REF = common_pb2.WorkflowRef(work_order_id="mission-1", run_id="run-1")
DEFINITION = {
    "version": 1,
    "nodes": {"draft": {"agent": {"model": "echo"}, "input": {"from": "run_input"}}},
    "output": {"from": "node:draft"},
}
CANDIDATE = {
    "version": 1,
    "nodes": {
        "draft": {
            "agent": {
                "model": "echo",
                "output": {"type": "json", "schema": {"type": "object"}},
            },
            "input": {"from": "run_input"},
        },
        "review": {
            "agent": {"model": "echo"},
            "input": {"from": "node:draft"},
            "depends_on": ["draft"],
        },
    },
    "output": {"from": "node:review"},
}


def step(text: str) -> None:
    print(f"==> {text}", flush=True)


def check(condition: bool, text: str) -> None:
    if not condition:
        print(f"CHECK FAILED: {text}", flush=True)
        sys.exit(1)
    print(f"    ok: {text}", flush=True)


def start_server(data_dir: Path, port: int = 0) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "praxis.serve.cli",
            "serve",
            "--data-dir",
            str(data_dir),
            "--listen",
            f"127.0.0.1:{port}",
            "--log-level",
            "WARNING",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        print(process.stderr.read() if process.stderr else "", file=sys.stderr)
        sys.exit("server did not start")
    return process, int(json.loads(line)["port"])


def stop_server(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    check(process.wait(timeout=30) == 0, "server stopped gracefully on SIGTERM")


def approve(client: object, material_digest: str, approval_id: str) -> None:
    client.approvals.CreateApproval(  # type: ignore[attr-defined]
        approval_pb2.CreateApprovalRequest(
            approval_id=approval_id,
            material_digest=material_digest,
            expires_at_ms=int(time.time() * 1000) + 10 * 60 * 1000,
        )
    )


def main() -> int:
    data_dir = Path(tempfile.mkdtemp(prefix="praxis-example-"))
    try:
        step(f"starting a server on a temporary database in {data_dir}")
        server, port = start_server(data_dir)
        tokens = json.loads((data_dir / "credentials.json").read_text())
        human = connect(f"127.0.0.1:{port}", tokens["local-human"]["token"])
        agent = connect(f"127.0.0.1:{port}", tokens["local-agent"]["token"])
        epochs = human.registry.GetEpochs(
            registry_pb2.GetEpochsRequest(work_order_id=REF.work_order_id)
        ).epochs
        print(
            f"    installation {epochs.installation_id}, epochs "
            f"({epochs.ownership_epoch}, {epochs.authority_epoch})"
        )

        step("the human reviews and approves the registration of revision 1")
        register = registry_pb2.RegistryCommand(
            register=registry_pb2.RegisterCommand(
                ref=REF, definition_json=json.dumps(DEFINITION), approval_id="approve-register"
            )
        )
        review = human.registry.Review(registry_pb2.ReviewRequest(epochs=epochs, command=register))
        approve(human, review.material_digest, "approve-register")
        receipt = human.registry.Execute(
            registry_pb2.ExecuteRequest(epochs=epochs, request_id="register-1", command=register)
        ).receipt
        check(receipt.head_revision == 1, "revision 1 registered")

        step("the agent proposes a change against revision 1")
        proposal_command = registry_pb2.RegistryCommand(
            propose=registry_pb2.ProposeCommand(
                ref=REF,
                proposal_id="change-1",
                base_revision=1,
                definition_json=json.dumps(CANDIDATE),
                summary="add a review step",
            )
        )
        agent.registry.Execute(
            registry_pb2.ExecuteRequest(
                epochs=epochs, request_id="propose-1", command=proposal_command
            )
        )
        proposal = human.registry.GetProposal(
            registry_pb2.GetProposalRequest(ref=REF, proposal_id="change-1")
        ).proposal
        check(proposal.proposed_by == "local-agent", "proposal attributed to the agent")

        step("the human reviews the exact material of the activation")
        activate = registry_pb2.RegistryCommand(
            activate=registry_pb2.ActivateCommand(
                ref=REF,
                proposal_id="change-1",
                base_revision=1,
                next_revision=2,
                approval_id="approve-change-1",
            )
        )
        review = human.registry.Review(registry_pb2.ReviewRequest(epochs=epochs, command=activate))
        material = review.material
        print(
            f"    action {registry_pb2.RegistryAction.Name(material.action)}, "
            f"revision {material.base_revision} -> {material.candidate_revision}"
        )
        print(f"    base {material.base_digest}")
        print(f"    candidate {material.candidate_digest}")
        print(
            f"    proposal {material.proposal_id} by {material.proposed_by}: "
            f"{material.proposal_digest}"
        )
        print(f"    candidate definition {material.candidate_definition_json}")
        print(f"    material digest {review.material_digest}")

        step("the human records an approval of that digest")
        approve(human, review.material_digest, "approve-change-1")

        step("the human activates revision 2")
        request = registry_pb2.ExecuteRequest(
            epochs=epochs, request_id="activate-1", command=activate
        )
        first = human.registry.Execute(request)
        check(first.receipt.head_revision == 2 and not first.replayed, "revision 2 is the head")
        head = human.registry.GetHead(registry_pb2.GetHeadRequest(ref=REF)).head
        check(
            head.execution_binding == registry_pb2.EXECUTION_BINDING_UNBOUND,
            "the head reports UNBOUND",
        )
        human.close()
        agent.close()

        step("stopping the server and starting a new one on the same database")
        stop_server(server)
        server, port = start_server(data_dir)
        human = connect(f"127.0.0.1:{port}", tokens["local-human"]["token"])

        step("retrying the activation with the same request id")
        retry = human.registry.Execute(request)
        check(retry.replayed, "the retry says replayed = true")
        check(retry.receipt == first.receipt, "the same receipt came back")
        head = human.registry.GetHead(registry_pb2.GetHeadRequest(ref=REF)).head
        check(head.revision == 2, "no second activation happened")
        human.close()
        stop_server(server)
        return 0
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
        print(f"==> removed {data_dir}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
