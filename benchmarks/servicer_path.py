"""StartRun calls, registry cycles or chains through the servicers in one process, without
gRPC.

The servicers of a real engine (SQLite file, ``synchronous=FULL``) are called directly,
as the server's interceptor would after authentication: ``start`` makes StartRun calls
of ``startrun_bench``'s one-node definition; ``registry`` makes ``registry_bench``'s
cycles (PROPOSE by an agent, Review and CreateApproval and ACTIVATE by a human) over 16
work orders; ``chain`` starts a three-node chain and claims and completes each node
through the task store (7 durable commands). After a warm-up of 50, it makes ``count``
more and prints the process's CPU per durable call. ``instructions_bench.py`` runs it
under callgrind: the count of instructions per call, unlike CPU time, does not change
with the machine's load.

    .venv/bin/python benchmarks/servicer_path.py start|registry|chain COUNT
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiws.engine.v1 import approval_pb2, registry_pb2, run_pb2
from benchmarks.startrun_bench import DEFINITION
from praxis.app import Engine, Settings
from praxis.clock import SystemClock
from praxis.core import run as core
from praxis.core.records import Principal, PrincipalKind
from praxis.rpc import auth
from praxis.rpc.registry import ApprovalServicer, RegistryServicer
from praxis.rpc.runs import RunServicer
from praxis.rpc.serving import Blocking
from praxis.store.runtime.tasks import Settlement
from tests.support.harness import authority
from tests.support.registry import activate_cmd, propose_cmd, ref, register_cmd, variant
from tests.support.runtime import definition, json_out, node

T = TypeVar("T")
AGENT = Principal("agent", PrincipalKind.AGENT)
ALICE = Principal("alice", PrincipalKind.HUMAN)
WARM_UP = 50
CHAIN = json.dumps(
    definition(
        "c",
        a=node(output=json_out()),
        b=node("node:a", ("a",), json_out()),
        c=node("node:b", ("b",), json_out()),
    )
)


def as_principal(principal: Principal, call: Callable[[], T]) -> T:
    """``call()`` as the interceptor runs a servicer: with its caller authenticated."""
    token = auth._principal.set(principal)
    try:
        return call()
    finally:
        auth._principal.reset(token)


class Calls:
    """The servicers of one engine, and the two workloads' steps."""

    def __init__(self, engine: Engine) -> None:
        self.tasks = engine.tasks
        self.runs = RunServicer(
            engine.runs,
            engine.signals,
            engine.resumes,
            engine.segments.list,
            Blocking(),
            engine.segments.started,
        )
        self.registry = RegistryServicer(engine.registry, engine.registry_reads)
        self.approvals = ApprovalServicer(engine.approvals, SystemClock())
        self.count = 0
        self.refs = [ref(f"wo-{n}", "run") for n in range(16)]
        self.revisions = {r.work_order_id: 1 for r in self.refs}
        self.epochs: dict[str, Any] = {}

    def start(self) -> None:
        self.count += 1
        request = run_pb2.StartRunRequest(
            request_id=f"b{self.count}", definition_json=DEFINITION, input_json="{}"
        )
        as_principal(AGENT, lambda: self.runs.StartRun(request, None))  # type: ignore[arg-type]

    def chain(self) -> None:
        self.count += 1
        request = run_pb2.StartRunRequest(
            request_id=f"c{self.count}", definition_json=CHAIN, input_json='{"x":1}'
        )
        as_principal(AGENT, lambda: self.runs.StartRun(request, None))  # type: ignore[arg-type]
        for _ in range(3):
            tasks = self.tasks.claim(AGENT, "w1", ["echo"], 1, 30_000)
            assert isinstance(tasks, list) and len(tasks) == 1, tasks
            settled = self.tasks.complete(
                AGENT,
                Settlement(tasks[0].attempt_id, "w1", core.Effect.APPLIED, "0", '{"ok":true}'),
            )
            assert isinstance(settled, core.Reply), settled

    def register_all(self) -> None:
        for r in self.refs:
            work_order = r.work_order_id
            self.epochs[work_order] = self._epochs(work_order)
            command = register_cmd(r, f"{work_order}-ap-reg")
            self._approve(command, f"{work_order}-ap-reg", work_order)
            self._execute(ALICE, f"{work_order}-reg", command, work_order)

    def cycle(self) -> None:
        r = self.refs[self.count % len(self.refs)]
        self.count += 1
        work_order, base = r.work_order_id, self.revisions[r.work_order_id]
        proposal = f"{work_order}-p{base}"
        propose = propose_cmd(r, proposal, base, variant(base + 1))
        self._execute(AGENT, f"{proposal}-prop", propose, work_order)
        activate = activate_cmd(r, proposal, base, f"{proposal}-ap")
        self._approve(activate, f"{proposal}-ap", work_order)
        self._execute(ALICE, f"{proposal}-act", activate, work_order)
        self.revisions[work_order] = base + 1

    def _epochs(self, work_order: str) -> Any:
        request = registry_pb2.GetEpochsRequest(work_order_id=work_order)
        return as_principal(ALICE, lambda: self.registry.GetEpochs(request, None)).epochs  # type: ignore[arg-type]

    def _execute(
        self, principal: Principal, request_id: str, command: Any, work_order: str
    ) -> None:
        request = registry_pb2.ExecuteRequest(
            epochs=self.epochs[work_order], request_id=request_id, command=command
        )
        as_principal(principal, lambda: self.registry.Execute(request, None))  # type: ignore[arg-type]

    def _approve(self, command: Any, approval_id: str, work_order: str) -> None:
        review_request = registry_pb2.ReviewRequest(epochs=self.epochs[work_order], command=command)
        review = as_principal(ALICE, lambda: self.registry.Review(review_request, None))  # type: ignore[arg-type]
        request = approval_pb2.CreateApprovalRequest(
            approval_id=approval_id,
            material_digest=review.material_digest,
            expires_at_ms=int(time.time() * 1000) + 3_600_000,
        )
        as_principal(ALICE, lambda: self.approvals.CreateApproval(request, None))  # type: ignore[arg-type]


def main() -> int:
    workload, count = sys.argv[1], int(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="praxis-servicers-") as raw:
        engine = Engine(
            Settings(
                database_url=f"sqlite:///{raw}/servicers.db",
                authority=authority(),
                clock=SystemClock(),
                sweeper=False,
            )
        )
        try:
            calls = Calls(engine)
            if workload == "start":
                step, durable = calls.start, 1
            elif workload == "chain":
                step, durable = calls.chain, 7  # StartRun, 3 claims, 3 completions
            else:
                calls.register_all()
                step, durable = calls.cycle, 3  # PROPOSE, CreateApproval, ACTIVATE
            for _ in range(WARM_UP):
                step()
            cpu = time.process_time()
            for _ in range(count):
                step()
            cpu = time.process_time() - cpu
        finally:
            engine.close()
    per = cpu * 1000 / max(1, count * durable)
    print(f"{workload}: {count} steps, {per:.3f} ms CPU per durable call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
