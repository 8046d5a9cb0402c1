"""The ``praxis`` command line, driven as a user would, against a real server."""

from __future__ import annotations

import json
import re
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from praxis_client import connect
from praxis_client.worker import Worker
from tests.support.cli_shell import POLICY, PRAXIS, V1, V2, Shell, digest_of
from tests.support.harness import token_of
from tests.support.runtime import definition, json_out, node
from tests.support.server_process import free_port, track, write_config


def test_the_registry_flow_entirely_from_the_shell(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    (shell.home / "v2.json").write_text(json.dumps(V2))
    shown = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    digest = digest_of(shown.out)
    assert "REGISTER" in shown.out and '"version": 1' in shown.out
    registered = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY,
                          "--digest", digest, "--json").json()  # fmt: skip
    assert registered["receipt"]["head_revision"] == 1 and not registered["replayed"]
    retried = shell.ok("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY,
                       "--digest", digest, "--json").json()  # fmt: skip
    assert retried["replayed"] and retried["receipt"] == registered["receipt"]

    proposed = shell.ok("propose", "wo-1/run-1", "p-1", "-f", "v2.json", "--summary",
                        "add a second step", who="agent")  # fmt: skip
    assert "PROPOSE" in proposed.out
    inbox = shell.ok("inbox", "--json").json()
    assert [i["kind"] for i in inbox["items"]] == ["INBOX_ITEM_KIND_PROPOSAL"]
    assert inbox["items"][0]["proposal"]["proposal_id"] == "p-1"
    assert isinstance(inbox["items"][0]["since_ms"], int)  # raw epoch ms in --json

    review = shell.ok("review", "wo-1/run-1", "p-1")
    assert "nodes added: b" in review.out and "edges added: a -> b" in review.out
    assert "--- revision 1" in review.out and "+++ proposal p-1" in review.out
    assert re.search(r'^\+ +"b": \{', review.out, re.M), review.out  # the diff, indented JSON
    assert "proposed by:" in review.out and "agent" in review.out
    digest = digest_of(review.out)
    as_json = shell.ok("review", "wo-1/run-1", "p-1", "--json").json()
    assert as_json["material_digest"] == digest
    assert as_json["dag_change"]["nodes_added"] == ["b"]

    stale = shell.run("approve", "wo-1/run-1", "p-1", "--digest", "sha256:" + "0" * 64)
    assert stale.code == 5 and stale.error_line().startswith("error: MATERIAL_CHANGED: ")
    approved = shell.ok("approve", "wo-1/run-1", "p-1", "--digest", digest, "--expires", "10m",
                        "--json").json()  # fmt: skip
    assert approved["state"] == "APPROVAL_STATE_ACTIVE" and approved["material_digest"] == digest
    approval = approved["approval_id"]

    activated = shell.ok("activate", "wo-1/run-1", "p-1", "--approval", approval)
    assert "revision 2" in activated.out and re.search(r"replayed:\s+no", activated.out)
    retried = shell.ok("activate", "wo-1/run-1", "p-1", "--approval", approval)
    assert re.search(r"replayed:\s+yes", retried.out), retried.out
    again = shell.run("activate", "wo-1/run-1", "p-1", "--approval", approval,
                      "--request-id", "another")  # fmt: skip
    assert again.code == 5 and re.match(r"error: [A-Z_]+: ", again.error_line())

    head = shell.ok("registry", "head", "wo-1/run-1", "--json").json()
    assert head["revision"] == 2
    history = shell.ok("registry", "history", "wo-1/run-1", "--json").json()
    assert [e["kind"] for e in history["events"]] == [
        "HISTORY_EVENT_KIND_REGISTERED", "HISTORY_EVENT_KIND_PROPOSED",
        "HISTORY_EVENT_KIND_ACTIVATED",
    ]  # fmt: skip
    assert shell.ok("inbox", "--json").json()["total"] == 0
    refs = shell.ok("registry", "refs", "--json").json()
    assert [(h["ref"]["run_id"], h["revision"]) for h in refs["heads"]] == [("run-1", 2)]
    assert "wo-1/run-1" in shell.ok("registry", "refs", "--work-order", "wo-1").out
    assert shell.ok("contracts", "list", "--json").json() == {
        "contracts": [],
        "next_page_token": "",
    }
    plain = shell.ok("registry", "proposal", "wo-1/run-1", "p-1").out
    assert "ACTIVATED" in plain and "\x1b[" not in plain  # no colour in a pipe


def test_principals_are_added_and_revoked_without_a_restart(shell: Shell) -> None:
    added = shell.ok("principals", "add", "carol", "--kind", "human", "--grant", "registry.read",
                     "--grant", "inbox.read:wo-*", "--expires", "30d", "--json").json()  # fmt: skip
    token = added["token"]
    assert added["principal"]["version"] == 1
    assert {tuple(g["work_orders"]) for g in added["principal"]["grants"]} == {("*",), ("wo-*",)}
    epochs = shell.ok("epochs", "show", "wo-1", "--json", who=None, token=token).json()
    assert epochs["ownership_epoch"] == 1
    listing = shell.ok("principals", "list").out
    assert re.search(r"^carol\s+HUMAN\s+ACTIVE\s+1\s", listing, re.M), listing
    shell.ok("principals", "revoke", "carol", "--reason", "left")
    refused = shell.run("epochs", "show", "wo-1", who=None, token=token)
    assert refused.code == 4
    assert refused.error_line().startswith("error: CREDENTIAL_REVOKED: ")
    shown = shell.ok("principals", "show", "carol").out
    assert "REVOKED" in shown and "CREATED" in shown and "left" in shown
    rotate = shell.run("principals", "rotate", "carol")
    assert rotate.code == 5 and rotate.error_line().startswith("error: PRINCIPAL_REVOKED: ")
    rotated = shell.ok("principals", "rotate", "bob", "--json").json()
    assert shell.run("epochs", "show", "w", who="bob").code == 4
    assert shell.ok("epochs", "show", "w", who=None, token=rotated["token"]).code == 0


def test_the_inbox_fills_and_empties(shell: Shell) -> None:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    asking = definition(
        "use",
        ask={"kind": "human_input", "wait": {"expires_in_ms": 600_000, "schema": schema,
                                            "on_expiry": "fail"}},
        use=node("node:ask", ("ask",), json_out()),
    )  # fmt: skip
    (shell.home / "ask.json").write_text(json.dumps(asking))
    assert "0 waiting" in shell.ok("inbox").out
    run = shell.ok("runs", "start", "-f", "ask.json", "--json", who="agent").json()["run"]
    shell.ok("holds", "place", "--work-order", "wo-7", "--reason", "restored a backup")
    filled = shell.ok("inbox").out
    assert "2 waiting" in filled and "HUMAN_INPUT" in filled and "HOLD" in filled
    waits = shell.ok("wait", "list", run["run_id"], "--json").json()["waits"]
    bad = shell.run("wait", "satisfy", waits[0]["wait_id"], "--payload", '{"ok": "yes"}')
    assert bad.code == 2 and bad.error_line().startswith("error: WAIT_PAYLOAD_INVALID: ")
    digest = shell.run(
        "wait", "satisfy", waits[0]["wait_id"], "--payload", '{"ok": true}', "--digest", "sha256:0"
    )  # a human-input wait approves nothing: a digest is a mistake, not silently dropped
    assert digest.code == 2 and "--digest applies to authorization waits only" in digest.err
    shell.ok("wait", "satisfy", waits[0]["wait_id"], "--payload", '{"ok": true}')
    again = shell.ok("wait", "satisfy", waits[0]["wait_id"], "--payload", '{"ok": true}')
    assert "(replayed)" in again.out  # the same payload again: the receipt replays
    other = shell.run("wait", "satisfy", waits[0]["wait_id"], "--payload", '{"ok": false}')
    assert other.code != 0 and "REQUEST_ID_REUSED" not in other.error_line()
    assert shell.ok("inbox", "--json").json()["total"] == 1
    assert (
        "restore hold" in shell.ok("holds", "list").out.lower()
        or "RESTORE" in shell.ok("holds", "list").out
    )
    shell.ok("holds", "clear", "--work-order", "wo-7")
    emptied = shell.ok("inbox", "--json").json()
    assert emptied["total"] == 0 and emptied["items"] == []


def test_an_authorization_is_reviewed_approved_and_satisfied_from_the_shell(
    shell: Shell,
) -> None:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    gated = definition(
        "charge",
        ask={"kind": "authorization", "wait": {"expires_in_ms": 600_000, "schema": schema,
                                              "on_expiry": "fail"}},
        charge=node("node:ask", ("ask",), json_out()),
    )  # fmt: skip
    (shell.home / "gated.json").write_text(json.dumps(gated))
    run = shell.ok("runs", "start", "-f", "gated.json", "--json", who="agent").json()["run"]
    inbox = shell.ok("inbox", "--kind", "authorization").out
    assert "authorises charge (op_" in inbox
    [wait] = shell.ok("wait", "list", run["run_id"], "--json").json()["waits"]
    shown = shell.ok("wait", "show", wait["wait_id"]).out
    assert "authorises:" in shown and "charge" in shown and "not known yet" in shown
    # Without --digest: the exact action and the material digest; nothing changes.
    reviewed = shell.ok("wait", "satisfy", wait["wait_id"], "--payload", '{"ok": true}').out
    digest = digest_of(reviewed)
    assert "op_" in reviewed and "sha256:" in reviewed
    assert 'input of charge:\n  {\n    "ok": true\n  }' in reviewed  # readable input
    assert shell.ok("wait", "show", wait["wait_id"], "--json").json()["state"] == (
        "WAIT_STATE_PENDING"
    )
    stale = shell.run("wait", "satisfy", wait["wait_id"], "--payload", '{"ok": false}',
                      "--digest", digest)  # fmt: skip
    assert stale.code != 0 and stale.error_line().startswith("error: MATERIAL_CHANGED: ")
    done = shell.ok("wait", "satisfy", wait["wait_id"], "--payload", '{"ok": true}',
                    "--digest", digest, "--json").json()  # fmt: skip
    assert done["wait"]["state"] == "WAIT_STATE_SATISFIED"
    assert done["wait"]["material_digest"] == digest and done["wait"]["approval_id"]
    again = shell.ok("wait", "satisfy", wait["wait_id"], "--payload", '{"ok": true}',
                     "--approval", done["wait"]["approval_id"])  # fmt: skip
    assert "(replayed)" in again.out
    assert shell.ok("inbox", "--json").json()["total"] == 0


def _worker(address: str) -> Worker:
    def handle(task: Any) -> Any:
        node_id = task.node_uid.split("#")[0]
        if node_id == "split":
            return {"items": list(range(8))}
        if node_id == "each":
            time.sleep(0.25)
            return {"n": task.input}
        return task.input

    return Worker(connect(address, token_of("agent")), ["echo"], handle, concurrency=2,
                  poll_ms=200)  # fmt: skip


def test_runs_watch_follows_a_fan_out_to_its_end(shell: Shell) -> None:
    items = {"type": "object", "properties": {"items": {"type": "array"}}}
    fan = definition(
        "join",
        split=node(output=json_out(items)),
        each=node("fanout_item", ("split",), json_out(), fanout={"over": "node:split.items"}),
        join=node("node:each", ("each",), json_out({"type": "array"})),
    )
    (shell.home / "fan.json").write_text(json.dumps(fan))
    run_id = shell.ok("runs", "start", "-f", "fan.json", "--json", who="agent").json()["run"][
        "run_id"
    ]
    watcher = subprocess.Popen(
        [PRAXIS, "runs", "watch", run_id], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=shell.env("alice"),
    )  # fmt: skip
    track(watcher)  # type: ignore[arg-type]
    assert watcher.stdout is not None
    first = watcher.stdout.readline()  # the watch is live before any work is done
    assert first.startswith("progress: ") and " 0/" in first, first
    worker = _worker(shell.address)
    threading.Thread(target=worker.run, daemon=True).start()
    try:
        rest, err = watcher.communicate(timeout=90)
    finally:
        worker.stop()
    out = first + rest
    assert watcher.returncode == 0, (out, err)
    lines = [line for line in out.splitlines() if line.startswith("progress:")]
    assert len(lines) >= 3, out
    done = [int(re.search(r"(\d+)/(\d+) nodes done", line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert done == sorted(done) and done[0] < done[-1]
    assert re.search(r"(\d+)/\1 nodes done", lines[-1]), lines[-1]
    fanout = [re.search(r"fan-out each: (\d+)/8 items", line) for line in lines]
    assert any(fanout) and fanout[-1] and fanout[-1].group(1) == "8", out
    assert f"run {run_id} COMPLETED" in out.splitlines()[-1]
    shown = shell.ok("runs", "show", run_id, "--json").json()
    assert shown["run"]["state"] == "RUN_STATE_COMPLETED" and len(shown["nodes"]) >= 3
    for shown_node in shown["nodes"]:  # per-node times, UTC epoch ms in --json
        started, finished = int(shown_node["started_at_ms"]), int(shown_node["finished_at_ms"])
        assert 0 < started <= finished, shown_node
    table = shell.ok("runs", "show", run_id).out
    assert "STARTED" in table and "FINISHED" in table
    result = shell.ok("runs", "result", run_id, "join", "--json").json()["result"]
    assert [entry["n"] for entry in result] == list(range(8))
    listed = shell.ok("runs", "list", "--state", "completed").out
    assert run_id in listed
    again = shell.run("runs", "watch", run_id, "--json")  # an ended run: its outcome at once
    assert again.code == 0 and json.loads(again.out.splitlines()[-1])["run"]["run_id"] == run_id


def test_a_stopped_run_is_watched_to_its_cancellation(shell: Shell) -> None:
    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    run_id = shell.ok("runs", "start", "-f", "one.json", "--json", who="agent").json()["run"][
        "run_id"
    ]
    shell.ok("runs", "stop", run_id, "--reason", "not needed")
    watched = shell.run("runs", "watch", run_id)
    assert watched.code == 9 and "CANCELLED" in watched.out


def test_runs_start_and_list_by_work_order_and_labels(shell: Shell) -> None:
    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    start = ("runs", "start", "-f", "one.json", "--json")
    tagged = shell.ok(*start, "--work-order", "wo-cli", "--label", "team=search",
                      "--label", "tier=gold", who="agent").json()["run"]  # fmt: skip
    plain = shell.ok(*start, who="agent").json()["run"]
    assert (tagged["work_order_id"], tagged["started_by"]) == ("wo-cli", "agent")
    assert tagged["labels"] == {"team": "search", "tier": "gold"}
    assert plain["work_order_id"] == "default"

    def listed(*filters: str) -> list[str]:
        return [r["run_id"] for r in shell.ok("runs", "list", "--json", *filters).json()["runs"]]

    assert listed("--work-order", "wo-cli") == [tagged["run_id"]]
    assert listed("--label", "team=search", "--label", "tier=gold") == [tagged["run_id"]]
    assert listed("--label", "team=ads") == []
    assert listed("--started-by", "agent", "--work-order", "default") == [plain["run_id"]]
    assert set(listed("--created-after", "1h", "--state", "running")) >= {
        tagged["run_id"],
        plain["run_id"],
    }
    table = shell.ok("runs", "list", "--work-order", "wo-cli").out
    assert "WORK ORDER" in table and "wo-cli" in table
    shown = shell.ok("runs", "show", tagged["run_id"]).out
    assert "wo-cli" in shown and "team=search" in shown
    bad = shell.run("runs", "list", "--label", "no-equals")
    assert bad.code == 2 and bad.error_line().startswith("error: LABEL_INVALID: ")


def test_every_error_class_is_one_line_with_its_exit_code(shell: Shell, tmp_path: Path) -> None:
    cases: list[tuple[tuple[str, ...], dict[str, Any], int, str]] = [
        (("runs", "show"), {}, 2, "USAGE"),
        (("frobnicate",), {}, 2, "USAGE"),
        (("principals", "add", "x", "--kind", "robot", "--grant", "a"), {}, 2, "USAGE"),
        (("principals", "add", "x", "--kind", "human", "--grant", "a b"), {}, 2, "GRANT_INVALID"),
        (("runs", "start", "-f", "missing.json"), {}, 2, "FILE_UNREADABLE"),
        (("runs", "list", "--limit", "5000"), {}, 2, "PAGE_INVALID"),
        (("runs", "show", "nope"), {}, 3, "RUN_NOT_FOUND"),
        (("principals", "show", "nobody"), {}, 3, "PRINCIPAL_NOT_FOUND"),
        (("principals", "list"), {"who": "agent"}, 4, "ACTION_NOT_GRANTED"),
        (("inbox",), {"who": None}, 4, "CREDENTIAL_MISSING"),
        (("inbox",), {"who": None, "token": "wrong"}, 4, "CREDENTIAL_INVALID"),
        (("principals", "add", "alice", "--kind", "human", "--grant", "*"), {}, 5,
         "PRINCIPAL_ALREADY_EXISTS"),
        (("holds", "clear", "--work-order", "wo-none"), {}, 3, "HOLD_NOT_FOUND"),
        (("epochs", "advance", "wo-1", "--kind", "ownership", "--expected", "9"), {}, 5,
         "EPOCH_MISMATCH"),
        (("--profile", "nope", "inbox"), {}, 2, "PROFILE_NOT_FOUND"),
        (("inbox", "--address", "127.0.0.1:1"), {}, 6, "UNAVAILABLE"),
    ]  # fmt: skip
    for args, kwargs, code, reason in cases:
        result = shell.run(*args, **kwargs)
        assert result.code == code, (args, result)
        assert result.error_line().startswith(f"error: {reason}: "), (args, result.err)
        assert result.out == "", (args, result.out)
    violations = shell.run("principals", "add", "x", "--kind", "human", "--grant", "a*b")
    assert violations.code == 2 and violations.err.splitlines()[1].startswith("  grants[0]")
    version = shell.ok("--version", who=None)
    assert re.fullmatch(r"praxis \S+\n", version.out)


def test_serve_start_up_errors_are_one_line(shell: Shell, tmp_path: Path) -> None:
    config = write_config(tmp_path / "other")
    port = shell.address.rsplit(":", 1)[1]
    (tmp_path / "bad.pem").write_text("not a certificate")

    def serve(*extra: str) -> Any:
        return subprocess.run(
            [PRAXIS, "serve", "--config", str(config), *extra],
            capture_output=True, text=True, timeout=90,
        )  # fmt: skip

    in_use = serve("--listen", f"127.0.0.1:{port}")
    assert in_use.returncode == 6, in_use.stderr
    assert in_use.stderr.strip().splitlines()[-1].startswith("error: ADDRESS_IN_USE: ")
    bad_level = serve("--listen", "127.0.0.1:0", "--log-level", "LOUD")
    assert bad_level.returncode == 2
    assert (
        bad_level.stderr.strip() == "error: LOG_LEVEL_INVALID: --log-level: Unknown level: 'LOUD'"
    )
    missing = serve("--listen", "127.0.0.1:0", "--tls-cert", str(tmp_path / "no.pem"),
                    "--tls-key", str(tmp_path / "no.key"))  # fmt: skip
    assert missing.returncode == 2 and "error: TLS_INVALID: " in missing.stderr
    assert "Traceback" not in missing.stderr
    bad = serve("--listen", f"127.0.0.1:{free_port()}", "--tls-cert", str(tmp_path / "bad.pem"),
                "--tls-key", str(tmp_path / "bad.pem"))  # fmt: skip
    assert bad.returncode == 2 and "error: TLS_INVALID: " in bad.stderr, bad.stderr
    assert "Traceback" not in bad.stderr


def test_login_stores_a_private_profile(shell: Shell) -> None:
    stored = shell.ok("login", "--name", "ops", "--json")  # address and token from the env
    path = Path(stored.json()["path"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    profile = json.loads(path.read_text())["profiles"]["ops"]
    assert profile == {"address": shell.address, "token": token_of("alice")}
    bare = shell.env(None)
    bare.pop("PRAXIS_ADDRESS")
    result = subprocess.run([PRAXIS, "--profile", "ops", "epochs", "show", "wo-1", "--json"],
                            capture_output=True, text=True, env=bare, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ownership_epoch"] == 1


def _interruptible() -> None:
    """Ctrl-C as in a terminal: a suite started in the background of a non-interactive
    shell runs with SIGINT ignored, and a child would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_operator_controls_and_the_event_log(shell: Shell) -> None:
    assert "PAUSED" in shell.ok("workorders", "pause", "wo-1", "--reason", "audit").out
    assert shell.ok("workorders", "show", "wo-1", "--json").json()["control_state"] == (
        "CONTROL_STATE_PAUSED"
    )
    shell.ok("workorders", "resume", "wo-1")
    advanced = shell.ok("epochs", "advance", "wo-1", "--kind", "ownership", "--json").json()
    assert (advanced["ownership_epoch"], advanced["authority_epoch"]) == (2, 1)
    assert shell.run("workorders", "cancel", "wo-1").code == 2  # --reason is required
    shell.ok("workorders", "cancel", "wo-1", "--reason", "done")
    refused = shell.run("workorders", "pause", "wo-1")
    assert refused.code == 5
    assert refused.error_line().startswith("error: CONTROL_TRANSITION_INVALID: ")

    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    run_id = shell.ok("runs", "start", "-f", "one.json", "--json", who="agent").json()["run"][
        "run_id"
    ]
    follower = subprocess.Popen(
        [PRAXIS, "events", "tail", "--follow", "--json", "--run", run_id],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=shell.env("alice"),
        preexec_fn=_interruptible,
    )  # fmt: skip
    track(follower)  # type: ignore[arg-type]
    assert follower.stdout is not None
    first = json.loads(follower.stdout.readline())
    assert (first["kind"], first["run_id"]) == ("EVENT_KIND_RUN_STARTED", run_id)
    assert isinstance(first["at_ms"], int)
    shell.ok("runs", "stop", run_id, "--reason", "enough")
    second = json.loads(follower.stdout.readline())
    assert second["kind"] == "EVENT_KIND_RUN_CANCELLED" and second["seq"] > first["seq"]
    follower.send_signal(signal.SIGINT)
    _, err = follower.communicate(timeout=30)
    assert follower.returncode == 130 and "Traceback" not in err
    page = shell.ok("events", "tail", "--run", run_id, "--json").json()
    assert [e["kind"] for e in page["events"]] == [
        "EVENT_KIND_RUN_STARTED",
        "EVENT_KIND_RUN_CANCELLED",
    ]


def test_an_uncertain_effect_is_reconciled_from_the_shell(shell: Shell) -> None:
    from aiws.engine.v1 import common_pb2, task_pb2

    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    run_id = shell.ok("runs", "start", "-f", "one.json", "--json", who="agent").json()["run"][
        "run_id"
    ]
    with connect(shell.address, token_of("agent")) as agent:
        [task] = agent.tasks.ClaimTasks(
            task_pb2.ClaimTasksRequest(worker_id="w", models=["echo"], max_tasks=1, lease_ms=30_000)
        ).tasks
        agent.tasks.FailTask(
            task_pb2.FailTaskRequest(attempt_id=task.attempt_id, worker_id="w", error="timeout",
                                     retryable=True, effect=common_pb2.EFFECT_OUTCOME_UNCERTAIN)
        )  # fmt: skip
    inbox = shell.ok("inbox", "--kind", "reconciliation", "--json").json()
    assert [i["reconciliation"]["attempt_id"] for i in inbox["items"]] == [task.attempt_id]
    assert "BLOCKED" in shell.ok("runs", "show", run_id).out
    evidence = '{"checked": "the provider log shows no call"}'
    shown = shell.ok("reconcile", run_id, task.attempt_id, "--decision", "not-applied",
                     "--evidence", evidence)  # fmt: skip
    digest = digest_of(shown.out)
    decided = shell.ok("reconcile", run_id, task.attempt_id, "--decision", "not-applied",
                       "--evidence", evidence, "--digest", digest, "--json").json()  # fmt: skip
    assert decided["reconciliation"]["state"] == "RECONCILIATION_STATE_RESOLVED"
    assert decided["reconciliation"]["decided_by"] == "alice"
    assert shell.ok("inbox", "--json").json()["total"] == 0
    retried = shell.ok("reconcile", run_id, task.attempt_id, "--decision", "not-applied",
                       "--evidence", evidence, "--digest", digest, "--json").json()  # fmt: skip
    assert retried["replayed"] is True
    other = digest_of(shell.ok("reconcile", run_id, task.attempt_id, "--decision", "applied",
                               "--evidence", evidence).out)  # fmt: skip
    again = shell.run("reconcile", run_id, task.attempt_id, "--decision", "applied",
                      "--evidence", evidence, "--digest", other)  # fmt: skip
    assert again.code == 5
    assert again.error_line().startswith("error: RECONCILIATION_NOT_PENDING: ")


def test_runs_watch_shows_each_progress_report_live(shell: Shell) -> None:
    (shell.home / "one.json").write_text(json.dumps(definition("a", a=node())))
    release = threading.Event()

    def handle(task: Any) -> Any:
        task.progress("indexing", {"done": 1, "total": 2})
        release.wait(30)
        return "indexed"

    worker = Worker(connect(shell.address, token_of("agent")), ["echo"], handle, poll_ms=200)
    threading.Thread(target=worker.run, daemon=True).start()
    try:
        run_id = shell.ok("runs", "start", "-f", "one.json", "--json", who="agent").json()["run"][
            "run_id"
        ]
        watchers = [
            subprocess.Popen(
                [PRAXIS, "runs", "watch", run_id, *extra],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=shell.env("alice"),
            )
            for extra in ((), ("--json",))
        ]
        plain, as_json = watchers
        for watcher in watchers:
            track(watcher)  # type: ignore[arg-type]
        seen = []
        assert plain.stdout is not None and as_json.stdout is not None
        for line in plain.stdout:  # the report shows while the handler is still working
            seen.append(line)
            if line.startswith("  a: "):
                break
        assert seen[-1].strip() == 'a: indexing {"done":1,"total":2}', seen
        for line in as_json.stdout:
            reports = json.loads(line).get("progress")
            if reports:
                break
        assert reports[0]["text"] == "indexing" and reports[0]["data"] == {"done": 1, "total": 2}
        assert reports[0]["node_uid"] == "a" and reports[0]["reports"] == 1
        shown = shell.ok("runs", "show", run_id).out
        assert "PROGRESS" in shown and "indexing" in shown
        release.set()
        for watcher in watchers:
            watcher.communicate(timeout=60)
            assert watcher.returncode == 0
    finally:
        release.set()
        worker.stop()
