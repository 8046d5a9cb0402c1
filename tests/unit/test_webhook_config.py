"""config.json's ``webhooks`` and ``notifications``: destinations by name, each with an
http(s) URL and a ``whsec_`` secret; the deliverer's bounds; anything else is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from praxis.serve import config as config_module
from tests.support.webhooks import SECRET


def load(tmp_path: Path, **extra: object) -> config_module.Config:
    path = tmp_path / "config.json"
    base = {"database_url": "sqlite:///p.db", "principals_path": "principals.json"}
    path.write_text(json.dumps({**base, **extra}), encoding="utf-8")
    return config_module.load(path)


def test_destinations_and_bounds_are_read(tmp_path: Path) -> None:
    found = load(
        tmp_path,
        webhooks={"ops": {"url": "https://hooks.example/x", "secret": SECRET}},
        notifications={"concurrency": 2, "timeout_s": 3, "max_attempts": 5},
    )
    assert list(found.webhooks) == ["ops"]
    assert found.webhooks["ops"].url == "https://hooks.example/x"
    assert "secret" not in repr(found.webhooks["ops"]) and SECRET not in repr(found)
    assert (found.notifications.concurrency, found.notifications.max_attempts) == (2, 5)
    assert found.notifications.lease_ms == 11_000
    assert load(tmp_path).webhooks == {}


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ({"webhooks": {"ops": {"url": "ftp://x/", "secret": SECRET}}}, "url"),
        ({"webhooks": {"ops": {"url": "http:///nohost", "secret": SECRET}}}, "url"),
        ({"webhooks": {"ops": {"url": "http://u:pw@x/", "secret": SECRET}}}, "credentials"),
        ({"webhooks": {"ops": {"url": "http://x:port/", "secret": SECRET}}}, "port"),
        ({"webhooks": {"ops": {"url": "http://x/a b", "secret": SECRET}}}, "spaces"),
        ({"webhooks": {"ops": {"url": 7, "secret": SECRET}}}, "string"),
        ({"webhooks": {"ops": {"url": "http://x/", "secret": "plain"}}}, "secret"),
        ({"webhooks": {"ops": {"url": "http://x/"}}}, "url and secret"),
        ({"webhooks": {"bad name": {"url": "http://x/", "secret": SECRET}}}, "identifier"),
        ({"webhooks": ["ops"]}, "object"),
        ({"notifications": {"concurrency": 0}}, "concurrency"),
        ({"notifications": {"timeout_s": 0}}, "timeout_s"),
        ({"notifications": {"max_attempts": 0}}, "max_attempts"),
        ({"notifications": {"backoff_base_ms": 10, "backoff_cap_ms": 5}}, "backoff"),
        ({"notifications": {"threads": 3}}, "notifications"),
    ],
)
def test_bad_declarations_are_refused(
    tmp_path: Path, extra: dict[str, object], problem: str
) -> None:
    with pytest.raises(config_module.ConfigError, match=problem):
        load(tmp_path, **extra)


def test_a_refusal_names_the_destination_never_its_credentials(tmp_path: Path) -> None:
    url = "http://hooks:hunter2@127.0.0.1/hook"  # the issue's: credentials and no port
    with pytest.raises(config_module.ConfigError) as refused:
        load(tmp_path, webhooks={"ops": {"url": url, "secret": SECRET}})
    assert "webhooks.ops: url must not carry credentials" in str(refused.value)
    assert "hunter2" not in str(refused.value) and SECRET not in str(refused.value)
