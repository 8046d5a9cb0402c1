"""Pages read through the public API: contracts, runs, registry, errors."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest

from aiws.engine.v1 import admin_pb2, contract_pb2, run_pb2
from praxis.store.views.inbox import InboxStore
from tests.support.console import FANOUT, FANOUT_V2, Console, csrf_of, page, propose, register


def test_contract_amounts_are_exact_decimals(console: Console) -> None:
    alice = console.harness.client("alice")
    alice.contracts.CreateContract(
        contract_pb2.CreateContractRequest(
            contract_id="c-exact",
            work_order_id="wo-c",
            criteria_json='{"tests": "pass"}',
            deadline_ms=int(time.time() * 1000) + 3_600_000,
            budget_microcredits="123456789012345678.000001",
            profile="aiws.v1",
        )
    )
    client = console.signed_in("alice")
    text = page(client, "/contracts?contract_id=c-exact")
    assert '<data value="123456789012345678.000001">' in text
    assert "123456789012.345678000001 credits" in text
    assert '<data value="0">0</data> µcredits (0 credits)' in text  # spent and reserved
    assert "in 59 min" in text or "in 1 h 0 min" in text


def test_unknown_things_show_the_servers_reason(console: Console) -> None:
    client = console.signed_in("alice")
    missing = client.get("/contracts?contract_id=nope")
    assert "CONTRACT_NOT_FOUND" in missing.text
    run = client.get("/runs/no-such-run")
    assert run.status_code == 404
    assert 'class="reason">RUN_NOT_FOUND<' in run.text


def test_registry_ref_page_and_runs_filter(console: Console) -> None:
    register(console.harness, "wo-p", "plan", FANOUT)
    client = console.signed_in("alice")
    text = page(client, "/registry/wo-p/plan")
    assert 'id="head-revision">1<' in text
    assert text.count('class="edge"') == 2  # plan -> work -> join
    assert "REGISTERED" in text
    opened = client.get("/registry?work_order_id=wo-p&run_id=plan")
    assert opened.headers["location"] == "/registry/wo-p/plan"
    listing = page(client, "/runs?state=RUN_STATE_FAILED&size=25")
    assert "No runs in this state" in listing
    assert client.get("/runs?state=BOGUS").status_code == 400


def test_the_runs_list_shows_and_filters_by_work_order(console: Console) -> None:
    agent = console.harness.client("agent")
    one = json.dumps({"version": 1, "nodes": {"a": {"agent": {"model": "echo"},
                      "input": {"from": "run_input"}}}, "output": {"from": "node:a"}})  # fmt: skip
    run = agent.runs.StartRun(
        run_pb2.StartRunRequest(request_id="wo-col", definition_json=one, work_order_id="wo-col")
    ).run
    agent.runs.StartRun(run_pb2.StartRunRequest(request_id="plain", definition_json=one))
    client = console.signed_in("alice")
    listing = page(client, "/runs")
    assert '<th scope="col">Work order</th>' in listing
    assert '<a href="/workorders/wo-col">wo-col</a>' in listing
    assert '<a href="/workorders/default">default</a>' in listing
    filtered = page(client, "/runs?work_order=wo-col")
    assert run.run_id in filtered and "/workorders/default" not in filtered
    assert "No runs in this work order" in page(client, "/runs?work_order=wo-none")


def _form_fields(text: str, action_suffix: str) -> dict[str, str]:
    """The hidden fields of the form whose action ends with ``action_suffix``."""
    start = text.index(f'{action_suffix}">')
    form = text[start : text.index("</form>", start)]
    return dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form))


def test_a_decision_on_stale_material_shows_the_servers_reason(console: Console) -> None:
    h = console.harness
    register(h, "wo-stale", "plan", FANOUT)
    propose(h, "wo-stale", "plan", "p-stale", FANOUT_V2)
    alice = console.signed_in("alice")
    url = "/registry/wo-stale/plan/proposals/p-stale"
    approve_fields = _form_fields(page(alice, url), "/approve")
    approved = alice.post(f"{url}/approve", data=approve_fields)
    assert approved.status_code == 303
    activate_fields = _form_fields(page(alice, approved.headers["location"]), "/activate")
    assert activate_fields["approval_id"] == approve_fields["approval_id"]
    # Meanwhile the ownership of the work order changes: the material alice saw is stale.
    epochs = h.epochs("wo-stale")
    h.client("alice").admin.AdvanceEpoch(
        admin_pb2.AdvanceEpochRequest(
            work_order_id="wo-stale",
            kind=admin_pb2.EPOCH_KIND_OWNERSHIP,
            expected_epoch=epochs.ownership_epoch,
        )
    )
    refused = alice.post(f"{url}/activate", data=activate_fields)
    assert refused.status_code == 409
    assert 'class="reason">EPOCH_MISMATCH<' in refused.text
    assert "PENDING" in page(alice, url)  # nothing changed


def test_live_views_are_bounded_per_session(console: Console) -> None:
    client = console.signed_in("bob")
    streams = [client.stream("GET", "/inbox/live") for _ in range(8)]
    opened = [s.__enter__() for s in streams]
    readers = []  # kept: a dropped line iterator closes its response
    try:
        for response in opened:
            assert response.status_code == 200
            readers.append(response.iter_lines())
            assert next(readers[-1]) == "event: inbox"  # started, so counted
        assert client.get("/inbox/live", timeout=5).status_code == 429
        other = console.signed_in("alice")  # another session has its own allowance
        with other.stream("GET", "/inbox/live") as response:
            assert response.status_code == 200
    finally:
        for s in streams:
            s.__exit__(None, None, None)


def test_live_run_view_needs_a_session_and_reports_refusals(console: Console) -> None:
    anonymous = httpx.Client(base_url=console.base_url, timeout=10)
    assert anonymous.get("/runs/anything/live").status_code == 401
    assert anonymous.get("/inbox/live").status_code == 401
    client = console.signed_in("alice")
    with client.stream("GET", "/runs/no-such-run/live", timeout=10) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        assert next(lines) == "event: problem"
        assert '"reason":"RUN_NOT_FOUND"' in next(lines)


def test_an_ad_hoc_run_is_drawn_with_its_edges_and_node_times(console: Console) -> None:
    started = console.harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="adhoc-edges", definition_json=json.dumps(FANOUT), input_json="null"
        )
    )
    client = console.signed_in("alice")
    text = page(client, f"/runs/{started.run.run_id}")
    assert text.count('class="edge"') == 2  # plan -> work -> join, from GetRun's definition
    assert 'data-field="started"' in text and 'data-field="finished"' in text
    assert '<th scope="col">Effect</th>' in text


def test_registry_and_contracts_pages_list_through_the_list_rpcs(console: Console) -> None:
    for run_id in ("list-a", "list-b", "list-c"):
        register(console.harness, "wo-list", run_id, FANOUT)
    alice = console.harness.client("alice")
    for contract_id in ("k-1", "k-2"):
        alice.contracts.CreateContract(
            contract_pb2.CreateContractRequest(
                contract_id=contract_id,
                work_order_id="wo-list",
                criteria_json="{}",
                deadline_ms=int(time.time() * 1000) + 3_600_000,
                budget_microcredits="10.5",
                profile="aiws.v1",
            )
        )
    client = console.signed_in("alice")
    registry = page(client, "/registry")
    for run_id in ("list-a", "list-b", "list-c"):
        assert f'data-ref="wo-list/{run_id}"' in registry
    contracts = page(client, "/contracts")
    assert 'data-contract="k-1"' in contracts and 'data-contract="k-2"' in contracts
    assert '<data value="10.5">10.5</data>' in contracts
    # The refused listing shows the server's reason, and the rest of the page renders.
    scoped = console.signed_in("scoped")  # its grant covers only wo-a* work orders
    assert "Refs cannot be listed: ACTION_NOT_GRANTED" in page(scoped, "/registry")
    agent = console.signed_in("agent")  # no contract.read
    assert "Contracts cannot be listed: ACTION_NOT_GRANTED" in page(agent, "/contracts")


def test_the_live_inbox_reads_only_when_the_inbox_changes(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[float] = []
    original = InboxStore.page

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(time.monotonic())
        return original(*args, **kwargs)

    # The console (a process of its own) reads the inbox with ListInbox: counted here.
    monkeypatch.setattr(InboxStore, "page", counted)
    client = console.signed_in("alice")
    with client.stream("GET", "/inbox/live", timeout=30) as response:
        lines = response.iter_lines()
        assert next(lines) == "event: inbox"
        first = json.loads(next(lines).removeprefix("data: "))
        time.sleep(2.5)  # an idle inbox: no reads (the old page polled every second)
        assert len(reads) == 1, reads
        alice = console.harness.client("alice")
        alice.admin.PlaceHold(
            admin_pb2.PlaceHoldRequest(
                kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-live", reason="watch me"
            )
        )
        try:
            assert next(lines) == ""
            assert next(lines) == "event: inbox"
            second = json.loads(next(lines).removeprefix("data: "))
            assert second["total"] == first["total"] + 1
            assert any("watch me" in item["summary"] for item in second["items"])
        finally:
            alice.admin.ClearHold(
                admin_pb2.ClearHoldRequest(
                    kind=admin_pb2.HOLD_KIND_RESTORE, work_order_id="wo-live"
                )
            )


def test_a_principal_without_the_consoles_grants_learns_what_it_is_for(
    console: Console,
) -> None:
    agent = console.signed_in("agent")  # an AGENT: no inbox.read, no approval grants
    landing = agent.get("/inbox")
    assert landing.status_code == 403
    assert 'id="not-for-this-principal"' in landing.text
    assert 'class="reason">ACTION_NOT_GRANTED<' in landing.text
    assert "<code>inbox.read</code>" in landing.text and "HUMAN" in landing.text
    assert 'id="problem"' not in landing.text  # not the bare "the server refused" page
    signin = httpx.Client(base_url=console.base_url).get("/signin")
    assert 'id="console-purpose"' in signin.text  # what the console is for, and for whom


def test_the_review_page_counts_in_words(console: Console) -> None:
    register(console.harness, "wo-words", "plan", FANOUT)
    propose(console.harness, "wo-words", "plan", "p-words", FANOUT_V2)
    text = page(console.signed_in("alice"), "/registry/wo-words/plan/proposals/p-words")
    graph_summary = re.search(r'id="dag-summary">([^<]*)<', text)
    assert graph_summary, text
    assert graph_summary.group(1) == "1 node added, 0 removed, 0 changed; 1 edge added, 0 removed."
    lines_summary = re.search(r'id="diff-summary">([^<]*)<', text)
    assert lines_summary, text
    assert lines_summary.group(1) == "1 line removed, 18 added."


def test_a_stop_the_server_refuses_shows_its_reason(console: Console) -> None:
    started = console.harness.client("agent").runs.StartRun(
        run_pb2.StartRunRequest(
            request_id="stop-refused", definition_json=json.dumps(FANOUT), input_json="null"
        )
    )
    reader = console.signed_in("reader")  # a human who may read the registry only
    refused = reader.post(
        f"/runs/{started.run.run_id}/stop",
        data={"csrf_token": csrf_of(page(reader, "/registry")), "reason": "not mine"},
    )
    assert refused.status_code == 403
    assert 'class="reason">ACTION_NOT_GRANTED<' in refused.text
    assert f'href="/runs/{started.run.run_id}"' in refused.text  # back to the run
