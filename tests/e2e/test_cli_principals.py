"""``praxis principals revoke`` against a real server: it refuses to revoke the last
administrator without --force, and reports a second revoke instead of printing success
(issue 25)."""

from __future__ import annotations

from tests.support.cli_shell import Shell


def _state(shell: Shell, principal: str, who: str, token: str | None = None) -> str:
    shown = shell.ok("principals", "show", principal, "--json", who=who, token=token).json()
    return str(shown["principal"]["state"])


def test_revoking_the_last_administrator_is_refused_without_force(shell: Shell) -> None:
    # The test principals: alice, bob and `expired` (until its expiry, T0, passes on this
    # machine's clock) are the administrators: HUMAN with `*` on `*`. rogue holds `*` but
    # is an agent and scoped holds `*` only on `wo-a*`: neither may manage principals.
    shell.ok("principals", "revoke", "bob", "--reason", "left")
    shell.ok("principals", "revoke", "expired", "--reason", "left")
    refused = shell.run("principals", "revoke", "alice", "--reason", "oops")
    assert refused.code == 5, refused
    line = refused.error_line()
    assert line.startswith("error: LAST_ADMINISTRATOR: "), line
    assert "'alice'" in line and "--force" in line, line
    assert refused.out == ""
    assert _state(shell, "alice", who="alice") == "PRINCIPAL_STATE_ACTIVE"  # nothing revoked
    forced = shell.ok("principals", "revoke", "alice", "--reason", "handing over", "--force")
    assert "revoked principal 'alice'" in forced.out


def test_revoking_one_of_two_administrators_needs_no_force(shell: Shell) -> None:
    added = shell.ok("principals", "add", "carol", "--kind", "human", "--grant",
                     "principal.*", "--json").json()  # fmt: skip
    assert added["principal"]["state"] == "PRINCIPAL_STATE_ACTIVE"
    shell.ok("principals", "revoke", "bob")
    shell.ok("principals", "revoke", "expired")
    shell.ok("principals", "revoke", "alice", who="carol", token=added["token"])
    assert _state(shell, "alice", who="carol", token=added["token"]) == "PRINCIPAL_STATE_REVOKED"


def test_a_second_revoke_reports_the_first_instead_of_success(shell: Shell) -> None:
    shell.ok("principals", "add", "carol", "--kind", "agent", "--grant", "registry.read")
    shell.ok("principals", "revoke", "carol", "--reason", "left the team")
    again = shell.run("principals", "revoke", "carol", "--reason", "compromised")
    assert again.code == 5, again
    line = again.error_line()
    assert line.startswith("error: PRINCIPAL_ALREADY_REVOKED: "), line
    assert "by alice" in line and "'left the team'" in line and "'compromised'" in line, line
    assert again.out == ""
    shown = shell.ok("principals", "show", "carol", "--json").json()["principal"]
    assert shown["revoke_reason"] == "left the team" and shown["version"] == 2


def test_grants_carry_purposes_and_a_validity_window(shell: Shell) -> None:
    added = shell.ok("principals", "add", "dana", "--kind", "human", "--grant", "wait.*",
                     "--grant", "approval.create", "--purpose", "payments", "--purpose",
                     "refunds", "--not-before", "1800000000000", "--not-after", "1900000000000",
                     "--json").json()  # fmt: skip
    [grant] = added["principal"]["grants"]
    assert grant["purposes"] == ["payments", "refunds"]
    assert (grant["not_before_ms"], grant["not_after_ms"]) == (1800000000000, 1900000000000)
    shown = shell.ok("principals", "show", "dana").out
    assert "for payments, refunds" in shown and "from " in shown and "until " in shown
    bad = shell.run("principals", "add", "erin", "--kind", "human", "--grant", "wait.*",
                    "--purpose", "not one")  # fmt: skip
    assert bad.code == 2 and bad.error_line().startswith("error: GRANT_INVALID: "), bad
