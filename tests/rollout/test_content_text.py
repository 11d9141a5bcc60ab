"""The one reader of a message's text that the scripted server and the trainer adapters share."""

from __future__ import annotations

from prove.records import content_text
from prove.rollout.scripted import oracle


def test_content_text_reads_strings_and_text_parts() -> None:
    assert content_text("hi") == "hi"
    assert content_text([{"type": "text", "text": "a"}, {"type": "image_url"}, "x", {"text": "b"}]) == "ab"
    assert content_text(None) == "" and content_text(3) == ""


def test_the_scripted_server_keys_a_script_by_the_text_of_a_parts_message(examples) -> None:  # noqa: ANN001
    ex = examples[0]
    first = next(m for m in ex.messages if m.role == "user")
    parts = ex.model_copy(deep=True)
    for m in parts.messages:
        if m.role == "user":
            m.content = [{"type": "text", "text": first.content}]
            break
    assert list(oracle([parts])) == list(oracle([ex])) == [first.content]
