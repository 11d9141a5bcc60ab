"""Faithfulness: hand-made examples whose gold calls do not mean what the user asked are rejected."""

from __future__ import annotations

import json

import pytest

from prove.env import registry
from prove.synth.entities import EntityIndex
from prove.synth.faithful import faithfulness

EMAIL = registry.get("email")
INDEX = EntityIndex(EMAIL, 0)
MESSAGE, SUBJECT = next(iter(INDEX.labels["message"].items()))


def _example(user: str, name: str, arguments: dict, *, bindings: dict | None = None,
             before: list[dict] | None = None) -> dict:
    messages = [{"role": "system", "content": "You help with email."}, {"role": "user", "content": user},
                *(before or []),
                {"role": "assistant", "tool_calls": [{"id": "c9", "type": "function",
                                                      "function": {"name": name, "arguments": json.dumps(arguments)}}]},
                {"role": "tool", "tool_call_id": "c9", "content": "{}"}]
    meta = {"bindings": {"c9": bindings}} if bindings else {}
    return {"messages": messages, "turns": [{"user": user, "calls": [{"id": "c9", "name": name,
                                                                     "arguments": arguments, "after": []}]}],
            "meta": meta}


def _reason(example: dict) -> str | None:
    found = faithfulness(example, EMAIL, INDEX)
    return found.reason if found else None


def test_a_faithful_request_passes() -> None:
    user = f"Forward the email '{SUBJECT}' to ana@example.com but without the attachments."
    ex = _example(user, "forward_message", {"message_id": MESSAGE, "to": ["ana@example.com"],
                                            "include_attachments": False},
                  bindings={"include_attachments": False})
    assert _reason(ex) is None


def test_a_broken_binding_is_rejected() -> None:
    """"... but don't block the sender" bound block_sender=False; the call kept the default True."""
    user = f"Mark the email '{SUBJECT}' as junk but don't block the sender."
    ex = _example(user, "report_spam", {"message_id": MESSAGE}, bindings={"block_sender": False})
    assert _reason(ex) == "unfaithful_binding"


def test_an_option_the_user_never_spoke_of_is_rejected() -> None:
    user = f"Forward the email '{SUBJECT}' to ana@example.com."
    ex = _example(user, "forward_message", {"message_id": MESSAGE, "to": ["ana@example.com"],
                                            "include_attachments": False})
    assert _reason(ex) == "unfaithful_boolean"


def test_a_value_said_nowhere_is_rejected() -> None:
    user = f"Forward the email '{SUBJECT}' to ana@example.com."
    ex = _example(user, "forward_message", {"message_id": MESSAGE, "to": ["sam@example.com"]})
    assert _reason(ex) == "unfaithful_value"


@pytest.mark.parametrize("said", [MESSAGE, SUBJECT.upper()])
def test_an_entity_is_traced_by_its_id_or_its_label(said: str) -> None:
    ex = _example(f"Report {said} as spam and block the sender.", "report_spam",
                  {"message_id": MESSAGE, "block_sender": True}, bindings={"block_sender": True})
    assert _reason(ex) is None


def test_an_entity_named_nowhere_is_rejected_unless_read_from_a_result() -> None:
    ex = _example("Report my latest email as spam.", "report_spam", {"message_id": MESSAGE})
    assert _reason(ex) == "unfaithful_entity"
    looked_up = [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                       "function": {"name": "list_messages", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": "c1", "content": json.dumps([{"message_id": MESSAGE}])}]
    assert _reason(_example("Report my latest email as spam.", "report_spam", {"message_id": MESSAGE},
                            before=looked_up)) is None


def test_dates_are_traced_through_the_words_people_use() -> None:
    ex = _example("Find emails from ana@example.com since March 2.", "search_messages",
                  {"sender": "ana@example.com", "after": "2026-03-02T00:00:00"})
    assert _reason(ex) is None
    wrong = _example("Find emails from ana@example.com since March 2.", "search_messages",
                     {"sender": "ana@example.com", "after": "2026-03-09T00:00:00"})
    assert _reason(wrong) == "unfaithful_value"


def test_a_nameless_thing_is_traced_by_the_public_id_of_what_it_belongs_to() -> None:
    """"the comment on issue WEB-10011 by Yusuf Brown" names the comment by its issue's key."""
    tracker = registry.get("issue_tracker")
    index = EntityIndex(tracker, 0)
    ex = _example("Change Yusuf Brown's comment on issue WEB-10011 to read: Fixed.", "edit_comment",
                  {"comment_id": "CMT-10069", "body": "Fixed."})
    assert faithfulness(ex, tracker, index) is None
    other = _example("Change the comment to read: Fixed.", "edit_comment", {"comment_id": "CMT-10069", "body": "Fixed."})
    assert faithfulness(other, tracker, index).reason == "unfaithful_entity"
