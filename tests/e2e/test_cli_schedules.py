"""`praxis schedules ...` against a real server: create, list, show, pause, resume,
backfill, delete; a schedule of a ref shows its material and is created only with an
approval of its digest."""

from __future__ import annotations

import json
import time

from tests.support.cli_shell import POLICY, V1, Shell, digest_of

HOUR = 3_600_000


def test_an_ad_hoc_schedule_through_its_lifecycle(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    start = int(time.time() * 1000) - 10 * HOUR
    created = shell.ok(
        "schedules", "create", "nightly", "-f", "v1.json", "--every", "1h",
        "--start", str(start), "--overlap", "allow-all",
    )  # fmt: skip
    assert "schedule nightly active; next" in created.out, created.out
    listed = shell.ok("schedules", "list", "--json").json()
    assert [s["spec"]["schedule_id"] for s in listed["schedules"]] == ["nightly"], listed
    paused = shell.ok("schedules", "pause", "nightly")
    assert "paused" in paused.out, paused.out
    resumed = shell.ok("schedules", "resume", "nightly", "--json").json()
    assert resumed["state"] == "SCHEDULE_STATE_ACTIVE", resumed
    backfill = ("schedules", "backfill", "nightly", "--from", str(start + HOUR))
    filled = shell.ok(*backfill, "--to", str(start + 4 * HOUR))
    assert "3 time(s), 3 run(s) started" in filled.out, filled.out
    again = shell.ok(*backfill, "--to", str(start + 4 * HOUR))
    assert "3 time(s), 0 run(s) started" in again.out, again.out
    shown = shell.ok("schedules", "show", "nightly")
    assert "3 started" in shown.out, shown.out
    shell.ok("schedules", "delete", "nightly")
    refused = shell.run("schedules", "resume", "nightly")
    assert refused.error_line().startswith("error: SCHEDULE_DELETED: "), refused.err
    missing = shell.run("schedules", "show", "nope")
    assert missing.error_line().startswith("error: SCHEDULE_NOT_FOUND: "), missing.err


def test_a_schedule_of_a_ref_is_created_with_an_approval_of_its_material(shell: Shell) -> None:
    (shell.home / "v1.json").write_text(json.dumps(V1))
    register = ("register", "wo-1/run-1", "-f", "v1.json", "--policy", POLICY)
    shell.ok(*register, "--digest", digest_of(shell.ok(*register).out))
    create = ("schedules", "create", "gov", "--ref", "wo-1/run-1", "--cron", "0 3 * * *")
    review = shell.ok(*create, "--time-zone", "Europe/Paris")
    assert "CREATE_SCHEDULE" in review.out and "material digest: sha256:" in review.out
    digest = digest_of(review.out)
    created = shell.ok(*create, "--time-zone", "Europe/Paris", "--digest", digest)
    assert "schedule gov active" in created.out, created.out
    shown = shell.ok("schedules", "show", "gov", "--json").json()
    assert shown["governed"] and shown["approval_id"], shown
    stale = shell.run(*create, "--time-zone", "UTC", "--digest", digest)
    assert stale.error_line().startswith("error: MATERIAL_CHANGED: "), stale.err
