"""The principal journal: revocations and rotations outlive a restore of an older
database (store/principals/journal.py); the journal's own rules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from praxis.app import Engine, Settings
from praxis.authority.principals import hash_token
from praxis.clock import TestClock
from praxis.core.records import Principal, PrincipalKind
from praxis.core.rejection import Code, Rejection
from praxis.store.db.files import StorageError
from praxis.store.principals.grants import GrantSpec
from praxis.store.principals.journal import REVOKED, Entry, Journal, pending
from tests.support.harness import T0, authority

HUMAN = Principal("alice", PrincipalKind.HUMAN)
GRANTS = [GrantSpec(("run.read",), ("*",))]


def _engine(directory: Path, journal: Path | None) -> Engine:
    return Engine(
        Settings(
            database_url=f"sqlite:///{directory / 'praxis.db'}",
            authority=authority(),
            clock=TestClock(T0),
            principal_journal=journal,
        )
    )


def _state(engine: Engine, principal_id: str) -> tuple[str, int]:
    found = engine.principals.lookups.by_id_with_state(principal_id)
    assert found is not None
    row = engine.principals.get(HUMAN, principal_id)
    assert not isinstance(row, Rejection)
    return ("REVOKED" if found[1] else "ACTIVE"), row.version


def test_changes_after_a_copy_are_reapplied_to_it_once(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    live, old = tmp_path / "live", tmp_path / "old"
    live.mkdir()
    engine = _engine(live, journal)
    created = engine.principals.create(HUMAN, "carol", PrincipalKind.AGENT, GRANTS, 0)
    assert not isinstance(created, Rejection)
    rotated = engine.principals.create(HUMAN, "dave", PrincipalKind.AGENT, GRANTS, 0)
    assert not isinstance(rotated, Rejection)
    engine.close()
    shutil.copytree(live, old)  # the "snapshot"
    engine = _engine(live, journal)
    assert not isinstance(engine.principals.revoke(HUMAN, "carol", "left", 0), Rejection)
    first = engine.principals.rotate(HUMAN, "dave", 0)
    second = engine.principals.rotate(HUMAN, "dave", 0)
    assert not isinstance(first, Rejection) and not isinstance(second, Rejection)
    engine.close()

    restored = _engine(old, journal)  # replays at start
    assert _state(restored, "carol") == ("REVOKED", 2)
    assert _state(restored, "dave") == ("ACTIVE", 3)
    assert restored.principals.lookups.by_token_hash(hash_token(rotated[1])) is None
    assert restored.principals.lookups.by_token_hash(hash_token(first[1])) is None
    assert restored.principals.lookups.by_token_hash(hash_token(second[1])) is not None
    assert restored.principals.replay() == []  # caught up: nothing more
    restored.close()


def test_without_the_journal_a_copy_revives_the_revoked(tmp_path: Path) -> None:
    """What the journal prevents (the old behaviour of restoring a file)."""
    live, old = tmp_path / "live", tmp_path / "old"
    live.mkdir()
    engine = _engine(live, None)
    assert not isinstance(
        engine.principals.create(HUMAN, "carol", PrincipalKind.AGENT, GRANTS, 0), Rejection
    )
    engine.close()
    shutil.copytree(live, old)
    engine = _engine(live, None)
    assert not isinstance(engine.principals.revoke(HUMAN, "carol", "left", 0), Rejection)
    engine.close()
    restored = _engine(old, None)
    assert _state(restored, "carol") == ("ACTIVE", 1)
    restored.close()


def test_an_entry_about_another_principal_of_that_id_is_ignored(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append(Entry("carol", REVOKED, 2, T0 - 5, "x" * 64, T0, "alice", "old one"))
    engine = _engine(tmp_path, journal.path)
    assert not isinstance(
        engine.principals.create(HUMAN, "carol", PrincipalKind.AGENT, GRANTS, 0), Rejection
    )
    engine.close()
    engine = _engine(tmp_path, journal.path)
    assert _state(engine, "carol") == ("ACTIVE", 1)
    engine.close()


def test_a_torn_last_line_is_skipped_and_the_last_retry_wins(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.jsonl")
    one = Entry("dave", "ROTATED", 2, T0, "a" * 64, T0, "alice", "")
    retried = Entry("dave", "ROTATED", 2, T0, "b" * 64, T0 + 1, "alice", "")
    journal.append(one)
    journal.append(retried)
    with journal.path.open("ab") as handle:
        handle.write(b'{"principal_id": "da')
    assert pending(journal.entries()) == [retried]


def test_a_journal_that_cannot_be_written_refuses_the_change(tmp_path: Path) -> None:
    engine = _engine(tmp_path, tmp_path / "missing" / "journal.jsonl")
    assert not isinstance(
        engine.principals.create(HUMAN, "carol", PrincipalKind.AGENT, GRANTS, 0), Rejection
    )
    refused = engine.principals.revoke(HUMAN, "carol", "left", 0)
    assert isinstance(refused, Rejection)
    assert (refused.code, refused.reason) == (Code.UNAVAILABLE, "STORAGE_UNAVAILABLE")
    assert _state(engine, "carol") == ("ACTIVE", 1)  # nothing stored
    engine.close()


def test_a_damaged_journal_refuses_to_start(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.jsonl")
    journal.path.write_text("not an entry\n")
    journal.append(Entry("carol", REVOKED, 2, T0, "x" * 64, T0, "alice", ""))
    with pytest.raises(StorageError, match="line 1"):
        _engine(tmp_path, journal.path)
