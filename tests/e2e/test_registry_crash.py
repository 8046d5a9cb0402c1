"""SIGKILL at random moments during a stream of activations: all or nothing survives."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

from aiws.engine.v1 import approval_pb2, registry_pb2
from praxis_client import connect
from tests.support.harness import token_of
from tests.support.registry import activate_cmd, propose_cmd, ref, register_cmd, variant
from tests.support.server_process import ServerProcess, free_port, write_config

T = TypeVar("T")
RETRYABLE = {
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,
}


def until_ok(call: Callable[[], T], stop_at: float) -> T:
    """Retries a call through server restarts (the request is idempotent)."""
    while True:
        try:
            return call()
        except grpc.RpcError as error:
            if error.code() not in RETRYABLE or time.monotonic() > stop_at:
                raise
            time.sleep(0.05)


class Driver:
    """One client cycling REGISTER, then PROPOSE/approve/ACTIVATE on its work order."""

    def __init__(self, address: str, work_order: str, stop: threading.Event) -> None:
        self.human = connect(address, token_of("alice"))
        self.agent = connect(address, token_of("agent"))
        self.ref = ref(work_order, "run")
        self.stop = stop
        self.receipts: list[registry_pb2.Receipt] = []

    def call(self, fn: Callable[[], T]) -> T:
        return until_ok(fn, time.monotonic() + 60)

    def human_command(
        self, command: registry_pb2.RegistryCommand, request_id: str, approval_id: str
    ) -> None:
        epochs = self.call(
            lambda: self.human.registry.GetEpochs(
                registry_pb2.GetEpochsRequest(work_order_id=self.ref.work_order_id), timeout=5
            )
        ).epochs
        review = self.call(
            lambda: self.human.registry.Review(
                registry_pb2.ReviewRequest(epochs=epochs, command=command), timeout=5
            )
        )
        expires = int(time.time() * 1000) + 3_600_000
        self.call(
            lambda: self.human.approvals.CreateApproval(
                approval_pb2.CreateApprovalRequest(
                    approval_id=approval_id,
                    material_digest=review.material_digest,
                    expires_at_ms=expires,
                ),
                timeout=5,
            )
        )
        self.execute(self.human, epochs, request_id, command)

    def execute(
        self, client: Any, epochs: Any, request_id: str, command: registry_pb2.RegistryCommand
    ) -> None:
        response = self.call(
            lambda: client.registry.Execute(
                registry_pb2.ExecuteRequest(epochs=epochs, request_id=request_id, command=command),
                timeout=5,
            )
        )
        self.receipts.append(response.receipt)

    def run(self) -> None:
        name = self.ref.work_order_id
        self.human_command(register_cmd(self.ref, f"{name}-ap-0"), f"{name}-reg", f"{name}-ap-0")
        revision = 1
        while not self.stop.is_set():
            proposal = f"{name}-p{revision}"
            epochs = self.call(
                lambda: self.agent.registry.GetEpochs(
                    registry_pb2.GetEpochsRequest(work_order_id=name), timeout=5
                )
            ).epochs
            definition = variant(revision + 1)
            self.execute(
                self.agent,
                epochs,
                f"{proposal}-prop",
                propose_cmd(self.ref, proposal, revision, definition),
            )
            self.human_command(
                activate_cmd(self.ref, proposal, revision, f"{proposal}-ap"),
                f"{proposal}-act",
                f"{proposal}-ap",
            )
            revision += 1

    def close(self) -> None:
        self.human.close()
        self.agent.close()


def check_store(db: Path, seen: list[registry_pb2.Receipt]) -> None:
    """Every seen receipt is fully there; nothing partial exists anywhere."""
    with sqlite3.connect(db) as connection:
        q = connection.execute
        for receipt in seen:
            stored = q(
                "SELECT receipt_json FROM receipts WHERE principal_id=? AND request_id=?",
                (receipt.principal_id, receipt.request_id),
            ).fetchone()
            assert stored is not None, receipt.request_id
            assert json.loads(stored[0])["event_seq"] == receipt.event_seq
            event = q(
                "SELECT kind, request_id FROM registry_events WHERE seq=?", (receipt.event_seq,)
            ).fetchone()
            assert event is not None and event[1] == receipt.request_id
            assert q(
                "SELECT 1 FROM revisions WHERE work_order_id=? AND revision=?",
                (receipt.ref.work_order_id, receipt.head_revision),
            ).fetchone()
            if receipt.approval_id:
                assert q(
                    "SELECT 1 FROM consumed_proofs WHERE request_id=?", (receipt.request_id,)
                ).fetchone()
        # Global invariants, whatever the clients saw.
        receipts = q("SELECT COUNT(*) FROM receipts").fetchone()[0]
        events = q("SELECT COUNT(*) FROM registry_events").fetchone()[0]
        assert receipts == events
        for work_order, head in q("SELECT work_order_id, revision FROM heads").fetchall():
            revisions = [
                r[0]
                for r in q(
                    "SELECT revision FROM revisions WHERE work_order_id=? ORDER BY revision",
                    (work_order,),
                )
            ]
            assert revisions == list(range(1, head + 1))
            activated = q(
                "SELECT COUNT(*) FROM proposals WHERE work_order_id=? AND status='ACTIVATED'",
                (work_order,),
            ).fetchone()[0]
            assert activated == head - 1
        consumed = q("SELECT COUNT(*) FROM consumed_proofs").fetchone()[0]
        decided = q(
            "SELECT COUNT(*) FROM registry_events WHERE kind IN "
            "('REGISTERED','ACTIVATED','REJECTED')"
        ).fetchone()[0]
        assert consumed == decided


@pytest.mark.serial  # a SIGKILL loop under load: the machine to itself (make test-python)
@pytest.mark.slow
def test_sigkill_during_activations_leaves_nothing_partial(tmp_path: Path) -> None:
    server = ServerProcess(write_config(tmp_path), free_port())
    server.start()
    stop = threading.Event()
    drivers = [Driver(server.address, f"wo-{i}", stop) for i in range(4)]
    threads = [threading.Thread(target=d.run) for d in drivers]
    for thread in threads:
        thread.start()
    rng = random.Random(7)
    for _ in range(6):
        time.sleep(rng.uniform(0.2, 1.0))
        server.kill()
        server.start()
    time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
        assert not thread.is_alive()
    assert server.terminate() == 0
    for driver in drivers:
        driver.close()
    seen = [receipt for driver in drivers for receipt in driver.receipts]
    assert len(seen) > 20
    server.start()  # reopen once more: the schema check passes
    assert server.terminate() == 0
    check_store(tmp_path / "praxis.db", seen)
