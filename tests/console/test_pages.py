"""Pages read through the public API: contracts, runs, registry, errors."""

from __future__ import annotations

import time

from aiws.engine.v1 import contract_pb2
from tests.console.conftest import Console
from tests.console.helpers import FANOUT, page, register


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
