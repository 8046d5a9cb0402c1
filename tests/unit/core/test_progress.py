"""The one check a progress report passes before the store keeps it."""

from __future__ import annotations

import pytest

from praxis.core import progress
from praxis.core.rejection import Rejection


def test_a_report_within_the_caps_keeps_its_text_and_canonical_data() -> None:
    report = progress.check("é" * 256, '{ "total": 3, "done": [1, "2"] }')
    assert report == progress.Report("é" * 256, '{"done":[1,"2"],"total":3}')
    assert progress.check("", "") == progress.Report("", "")
    assert progress.check("", "null") == progress.Report("", "null")


@pytest.mark.parametrize(
    ("text", "data_json", "reason", "field"),
    [
        ("x" * 513, "", "TEXT_TOO_LONG", "progress.text"),
        ("", '"' + "y" * 1_023 + '"', "DOCUMENT_TOO_LARGE", "progress.data_json"),
        ("", "[" * 17 + "]" * 17, "DOCUMENT_TOO_DEEP", "progress.data_json"),
        ("", "1.5", "DOCUMENT_NUMBER_FORBIDDEN", "progress.data_json"),
        ("", "9007199254740992", "DOCUMENT_NUMBER_FORBIDDEN", "progress.data_json"),
        ("", "{", "DOCUMENT_MALFORMED", "progress.data_json"),
    ],
)
def test_a_report_past_a_cap_is_refused_naming_its_field(
    text: str, data_json: str, reason: str, field: str
) -> None:
    refused = progress.check(text, data_json)
    assert isinstance(refused, Rejection)
    assert refused.reason == reason
    assert field in {v.field for v in refused.violations}
