"""Answering a wait from the console: the form its answer's schema asks for
(:mod:`praxis_client.answers`) and the answer its fields hold; the wait's page
(:mod:`praxis_console.authorizations`) shows the question and the form and sends the answer
with WaitService.SatisfyWait.

An answer whose text is not a value of its field's kind (a number written ``1e3``, JSON
that does not parse) is refused on the page before anything is sent; one that breaks the
schema is refused by the server (``WAIT_PAYLOAD_INVALID`` with one field violation per
reason). Either way the page shows the reasons beside the answer as typed, and nothing is
stored. Authorization waits are not answered here: they are reviewed and approved
(:mod:`praxis_console.authorizations`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException

from aiws.engine.v1 import wait_pb2
from praxis_client import answers

ANSWER_LIMIT = 256 * 1024
"""Characters of one field of an answer (the server caps the whole document)."""


def answerable(wait: Any) -> bool:
    """Whether the console offers the wait's answer form: an open wait that takes no
    approval (human input, or a timer satisfied early)."""
    return bool(
        wait.state == wait_pb2.WAIT_STATE_PENDING and wait.kind != wait_pb2.WAIT_KIND_AUTHORIZATION
    )


def form_of(wait: Any) -> answers.Field | None:
    """The form that asks for the wait's answer, or ``None`` when it takes none here."""
    return answers.form(wait.schema_json, wait.choices) if answerable(wait) else None


def texts_of(form: FormData) -> dict[str, str]:
    """The answer's fields as typed (line ends made ``\\n``); 400 past the limit."""
    texts: dict[str, str] = {}
    for name, value in form.multi_items():
        if not name.startswith("answer") or not isinstance(value, str):
            continue
        if len(value) > ANSWER_LIMIT:
            raise HTTPException(400, f"{name} is longer than {ANSWER_LIMIT} characters")
        texts[name] = value.replace("\r\n", "\n")
    return texts


def value_from(field: answers.Field, texts: Mapping[str, str]) -> Any:
    """The answer the fields hold.

    Raises:
        answers.AnswerError: a field's text is not a value of its kind.
    """
    if field.kind != "object":
        return answers.value_of(field, _typed(field, texts, "answer"))
    typed = {child.name: _typed(child, texts, f"answer.{child.name}") for child in field.fields}
    return answers.object_value(field, typed)


def _typed(field: answers.Field, texts: Mapping[str, str], name: str) -> str:
    text = texts.get(name, "")
    if field.kind == "choice" and field.other and not text:
        return texts.get(f"{name}.other", "")
    return text


def request_id(wait_id: str, payload: str) -> str:
    """Derived from the wait and the answer: a form sent twice satisfies the wait once,
    while another answer is judged on its own merits."""
    digest = hashlib.sha256(f"{wait_id}\x00{payload}".encode()).hexdigest()
    return f"console-answer-{digest[:32]}"
