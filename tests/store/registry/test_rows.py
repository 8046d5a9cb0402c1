"""The registry's hand-written row encodings match what they replace."""

from __future__ import annotations

from dataclasses import asdict, fields

from praxis.core import registry, values
from praxis.core.records import Ref
from praxis.store.registry.rows import Texts, _receipt_from_json, receipt_to_json


def _receipt() -> registry.Receipt:
    return registry.Receipt(
        request_id="r-1",
        principal_id="alice",
        command_digest="sha256:" + "a" * 64,
        action=registry.Action.ACTIVATE,
        ref=Ref("wo-1", "run"),
        head_revision=3,
        head_digest="sha256:" + "b" * 64,
        proposal_id="p-2",
        approval_id="ap-1",
        event_seq=17,
        committed_at_ms=1_700_000_000_000,
    )


def test_receipt_json_is_asdict_with_the_action_by_name() -> None:
    receipt = _receipt()
    data = asdict(receipt)
    data["action"] = receipt.action.name
    assert receipt_to_json(receipt) == values.canonical_json(data)
    assert _receipt_from_json(receipt_to_json(receipt)) == receipt
    # A field added to Receipt must be added to the encoding too.
    assert set(data) == {f.name for f in fields(registry.Receipt)}


def test_command_definition_digest_is_the_digest_of_the_definition() -> None:
    definition = {"version": 1, "z": ["\U0001f600", "é"], "a": {"b": 2}}
    command = registry.Command(registry.Action.PROPOSE, Ref("wo", "run"), definition=definition)
    assert command.definition_text == values.canonical_json(definition)
    assert command.definition_digest == values.digest(definition)
    bare = registry.Command(registry.Action.ACTIVATE, Ref("wo", "run"), proposal_id="p")
    assert (bare.definition_text, bare.definition_digest) == ("", "")
    # The cached command digest is the digest of the same command built again.
    again = registry.Command(registry.Action.PROPOSE, Ref("wo", "run"), definition=dict(definition))
    assert command.digest() == again.digest()
    assert command.digest() != bare.digest()


def test_texts_answer_only_for_the_very_object() -> None:
    texts = Texts()
    known = {"a": 1}
    texts.add(known, "KNOWN")
    assert texts.of(known) == "KNOWN"
    assert texts.of({"a": 1}) == '{"a":1}'  # an equal object is serialised
