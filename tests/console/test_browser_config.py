"""The configuration page in a real headless Chromium (issue 42, item 2): a human sees
the version each process serves, reloads config.json with a button, sees what changed
and what needs a restart; a bad file is refused with every problem's JSON path and
changes nothing; an agent is refused the reload."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from praxis.clock import SystemClock
from praxis.core.reload import version_of
from praxis.serve.cli import config_reader
from praxis.serve.config import read
from tests.support.console import Console, ConsoleProcess, shot
from tests.support.harness import start_server, token_of, write_principals

BASE = {"database_url": "sqlite:///praxis.db", "principals_path": "principals.json"}


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("config")
    write_principals(folder / "principals.json")
    path = folder / "config.json"
    path.write_text(json.dumps({**BASE, "models": ["echo"]}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def console(config: Path) -> Iterator[Console]:
    """This module's console, in front of a server started from ``config``."""
    loaded = read(config)
    harness = start_server(
        config.parent / "praxis.db",
        clock=SystemClock(),  # type: ignore[arg-type]
        models=loaded.config.models,
        config_reader=config_reader(config),
        config_document=loaded.document,
    )
    process = ConsoleProcess(harness.address)
    try:
        yield Console(harness, process, f"http://127.0.0.1:{process.port}")
    finally:
        process.stop()
        harness.close()


def sign_in(page: Page, console: Console, principal: str) -> None:
    page.goto("/signin")
    page.get_by_label("Bearer token").fill(token_of(principal))
    page.get_by_label("Bearer token").press("Enter")
    expect(page).to_have_url(f"{console.base_url}/inbox")


def test_a_human_reloads_the_config_and_sees_a_bad_file_refused(
    page: Page, console: Console, config: Path
) -> None:
    sign_in(page, console, "alice")
    page.get_by_role("link", name="Config").click()
    expect(page).to_have_url(f"{console.base_url}/config")
    started = version_of({**BASE, "models": ["echo"]})
    expect(page.locator("#config-processes tr[data-version]")).to_have_count(1)
    expect(page.locator("#config-processes tr[data-version]")).to_have_attribute(
        "data-version", started
    )
    expect(page.locator("#config-reloads-empty")).to_be_visible()

    document = {**BASE, "models": ["echo", "m-2"], "serving": {"executor_threads": 4}}
    config.write_text(json.dumps(document), encoding="utf-8")
    page.get_by_role("button", name="Reload config.json").click()
    expect(page.locator("#reloaded-version")).to_have_text(version_of(document))
    expect(page.locator("#reloaded-changed")).to_have_text("models")
    expect(page.locator("#reloaded-restart")).to_have_text("serving.executor_threads")
    expect(page.locator("#reloaded-converged")).to_have_text("yes")
    expect(page.locator("#config-reloads tr[data-seq]")).to_have_count(1)
    expect(page.locator("#config-reloads tr[data-seq]")).to_contain_text("alice")
    shot(page, "config-reloaded")

    config.write_text(
        json.dumps({**document, "modles": ["x"], "log_level": "LOUD"}), encoding="utf-8"
    )
    page.get_by_role("button", name="Reload config.json").click()
    expect(page.locator("#problem .reason")).to_have_text("CONFIG_INVALID")
    expect(page.locator("#problem li")).to_have_count(2)
    expect(page.locator("#problem")).to_contain_text("log_level")
    expect(page.locator("#problem")).to_contain_text("modles")
    shot(page, "config-refused")
    expect(page.locator("#config-reloads tr[data-seq]")).to_have_count(1)  # nothing changed
    expect(page.locator("#config-processes tr[data-version]")).to_have_attribute(
        "data-version", version_of(document)
    )


def test_an_agent_is_refused_the_reload(console: Console) -> None:
    agent = console.signed_in("agent")
    shown = agent.get("/config")
    assert shown.status_code == 200 and 'class="reason">ACTION_NOT_GRANTED<' in shown.text
    forged = agent.post("/config/reload", data={"csrf_token": "wrong"})
    assert forged.status_code == 403
