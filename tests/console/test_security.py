"""The console's safety: sessions, CSRF, cookies, CSP, and the server's authority."""

from __future__ import annotations

import grpc
import httpx

from aiws.engine.v1 import admin_pb2, approval_pb2
from praxis_console.web import CONTENT_SECURITY_POLICY
from tests.support.console import (
    FANOUT,
    FANOUT_V2,
    Console,
    ConsoleProcess,
    csrf_of,
    page,
    propose,
    register,
)
from tests.support.harness import token_of


def _holds(console: Console) -> list[admin_pb2.Hold]:
    client = console.harness.client("alice")
    return list(client.admin.ListHolds(admin_pb2.ListHoldsRequest()).holds)


def _place_hold(client: httpx.Client, csrf: str | None, **headers: str) -> httpx.Response:
    data = {
        "action": "place",
        "kind": "HOLD_KIND_RESTORE",
        "work_order_id": "wo-sec",
        "reason": "restored",
    }
    if csrf is not None:
        data["csrf_token"] = csrf
    return client.post("/holds", data=data, headers=headers)


def test_state_changing_requests_need_this_sessions_csrf_token(console: Console) -> None:
    alice = console.signed_in("alice")
    bob = console.signed_in("bob")
    alice_csrf = csrf_of(page(alice, "/registry"))
    bob_csrf = csrf_of(page(bob, "/registry"))
    assert alice_csrf != bob_csrf

    assert _place_hold(alice, None).status_code == 403  # no token
    assert _place_hold(alice, "").status_code == 403  # empty token
    assert _place_hold(alice, bob_csrf).status_code == 403  # another session's token
    anonymous = httpx.Client(base_url=console.base_url)
    assert _place_hold(anonymous, alice_csrf).status_code == 401  # no session at all
    cross_site = _place_hold(alice, alice_csrf, origin="https://evil.example")
    assert cross_site.status_code == 403
    fetch_site = _place_hold(alice, alice_csrf, **{"sec-fetch-site": "cross-site"})
    assert fetch_site.status_code == 403
    assert _holds(console) == []  # nothing was changed by any refused request

    placed = _place_hold(alice, alice_csrf)
    assert placed.status_code == 303
    assert [h.work_order_id for h in _holds(console)] == ["wo-sec"]
    cleared = alice.post(
        "/holds",
        data={
            "action": "clear",
            "kind": "HOLD_KIND_RESTORE",
            "work_order_id": "wo-sec",
            "csrf_token": alice_csrf,
        },
    )
    assert cleared.status_code == 303
    assert _holds(console) == []


def test_session_cookie_flags_and_security_headers(console: Console) -> None:
    client = httpx.Client(base_url=console.base_url)
    response = client.post("/signin", data={"token": token_of("alice")})
    cookie = response.headers["set-cookie"]
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert "httponly" in attributes
    assert "samesite=strict" in cookie.lower()
    assert "secure" not in attributes  # plain HTTP on loopback
    assert token_of("alice") not in cookie
    for url in ("/signin", "/inbox", "/runs", "/static/console.js", "/nowhere"):
        headers = client.get(url).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY


def test_cookie_is_secure_when_served_over_tls(console: Console) -> None:
    secure = ConsoleProcess(console.harness.address, "--secure-cookies")
    try:
        client = httpx.Client(base_url=f"http://127.0.0.1:{secure.port}")
        cookie = client.post("/signin", data={"token": token_of("alice")}).headers["set-cookie"]
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
        assert {"secure", "httponly"} <= attributes
    finally:
        secure.stop()


def test_no_token_in_any_page_or_url(console: Console) -> None:
    alice = console.signed_in("alice")
    token = token_of("alice")
    for url in ("/inbox", "/runs", "/registry", "/contracts", "/static/console.js"):
        response = alice.get(url, follow_redirects=True)
        assert token not in response.text, url
        assert token not in str(response.url)
    assert "<script>" not in page(alice, "/runs")  # only the external script


def test_bad_token_is_refused_and_sign_out_ends_the_session(console: Console) -> None:
    client = httpx.Client(base_url=console.base_url)
    refused = client.post("/signin", data={"token": "not-a-token"})
    assert refused.status_code == 401
    assert "set-cookie" not in refused.headers
    assert client.get("/inbox").status_code == 303  # still signed out

    alice = console.signed_in("alice")
    csrf = csrf_of(page(alice, "/registry"))
    session_cookie = dict(alice.cookies)
    assert alice.post("/signout", data={"csrf_token": csrf}).status_code == 303
    stale = httpx.Client(base_url=console.base_url, cookies=session_cookie)
    assert stale.get("/inbox").headers["location"] == "/signin"
    assert _place_hold(stale, csrf).status_code == 401
    assert _holds(console) == []


def test_one_time_code_signs_in_once(console: Console) -> None:
    linked = ConsoleProcess(console.harness.address, token=token_of("bob"))
    try:
        base = f"http://127.0.0.1:{linked.port}"
        code = str(linked.ready["signin_link"]).rpartition("/")[2]
        client = httpx.Client(base_url=base)
        assert code in client.get(f"/signin/once/{code}").text  # a confirmation form only
        first = client.post("/signin/once", data={"code": code})
        assert first.status_code == 303
        assert "bob" in page(client, "/runs")
        again = httpx.Client(base_url=base).post("/signin/once", data={"code": code})
        assert again.status_code == 400
    finally:
        linked.stop()


def test_an_agent_cannot_approve_from_the_console(console: Console) -> None:
    """docs/console.md names both refusals: the usual agent holds no approval grant
    (ACTION_NOT_GRANTED); an agent granted every action is still not a human
    (HUMAN_REQUIRED)."""
    h = console.harness
    register(h, "wo-sec", "plan", FANOUT)
    propose(h, "wo-sec", "plan", "p-agent", FANOUT_V2)
    url = "/registry/wo-sec/plan/proposals/p-agent"
    for principal_id, reason in (("agent", "ACTION_NOT_GRANTED"), ("rogue", "HUMAN_REQUIRED")):
        signed_in = console.signed_in(principal_id)
        review = page(signed_in, url)
        csrf = csrf_of(review)
        digest = review.split('id="material-digest">')[1].split("<")[0]
        approval_id = f"{principal_id}-approval"
        refused = signed_in.post(
            f"{url}/approve",
            data={"csrf_token": csrf, "material_digest": digest, "approval_id": approval_id},
        )
        assert refused.status_code == 403
        assert f'class="reason">{reason}<' in refused.text, principal_id
        alice = h.client("alice")
        try:
            alice.approvals.GetApproval(approval_pb2.GetApprovalRequest(approval_id=approval_id))
            raise AssertionError(f"the approval of {principal_id} was recorded")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.NOT_FOUND
