"""The `prove` environment commands, run as a real subprocess of the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# The console script installed beside this interpreter (not whatever `prove` is first on PATH:
# Perl ships a `prove` too).
SCRIPT = Path(sys.executable).with_name("prove")
PROVE = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "prove"]


def prove(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROVE, *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_servers_json_lists_tool_counts() -> None:
    out = prove("servers", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    banking = next(s for s in data["servers"] if s["name"] == "banking")
    assert banking["tools"] >= 17 and banking["read"] + banking["write"] == banking["tools"]
    assert data["total_tools"] == sum(s["tools"] for s in data["servers"])


def test_tools_json_gives_openai_schemas() -> None:
    out = prove("tools", "banking", "--json")
    tools = json.loads(out.stdout)
    names = {t["function"]["name"] for t in tools}
    assert "get_account" in names and "get_card_pin" not in names  # hidden tools stay hidden
    assert all(t["type"] == "function" and t["function"]["parameters"]["type"] == "object" for t in tools)
    assert "get_card_pin" in {t["function"]["name"] for t in json.loads(prove("tools", "banking", "--json", "--hidden").stdout)}


def test_call_success_and_structured_error() -> None:
    ok = prove("call", "banking", "get_account", "--args", '{"account_id": "ACC-10001"}', "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["result"]["account_id"] == "ACC-10001"
    bad = prove("call", "banking", "get_account", "--args", '{"account_id": "nope"}', "--json")
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]["code"] == "not_found"
    unknown = prove("call", "banking", "no_such_tool", "--json")
    assert json.loads(unknown.stdout)["error"]["code"] == "unknown_tool"


@pytest.mark.parametrize("args, message", [
    (["call", "nosuchserver", "x"], "no server named 'nosuchserver'"),
    (["call", "banking", "get_account", "--args", "{broken"], "--args is not valid JSON"),
    (["run", "banking", "--calls", "/nonexistent/calls.jsonl"], "no such calls file"),
])
def test_bad_invocations_fail_clearly(args: list[str], message: str) -> None:
    out = prove(*args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


def test_run_an_episode_from_stdin_shows_results_and_diff() -> None:
    calls = "\n".join([
        "# move money, then fail, then look",
        '{"name": "transfer_between_accounts", "arguments": {"from_account_id": "ACC-10001", '
        '"to_account_id": "ACC-10002", "amount": 25}}',
        '{"name": "transfer_between_accounts", "arguments": {"from_account_id": "ACC-10001", '
        '"to_account_id": "ACC-10002", "amount": 99999}}',
        "not json",
        '{"advance": 3600}',
        '{"name": "get_account", "arguments": {"account_id": "ACC-10002"}}',
    ])
    out = prove("run", "banking", "--calls", "-", "--json", stdin=calls)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    steps = data["calls"]
    assert steps[0]["ok"] and not steps[1]["ok"] and steps[1]["error"]["code"] == "insufficient_funds"
    assert steps[2]["error"]["code"] == "bad_line" and steps[3]["now"] == "2026-03-16T10:00:00"
    tables = {(c["table"], c["op"]) for c in data["diff"]}
    assert ("transfers", "insert") in tables and ("accounts", "update") in tables
    human = prove("run", "banking", "--calls", "-", stdin=calls)
    assert "episode diff" in human.stdout and "insufficient_funds" in human.stdout


def test_markup_and_emoji_codes_in_data_are_shown_literally() -> None:
    calls = '{"name": "add_payee", "arguments": {"name": "[bold]Acme[/bold] :eyes:", "account_number": "4400123987", ' \
            '"routing_number": "021000021"}}'
    out = prove("run", "banking", "--calls", "-", stdin=calls)
    assert "[bold]Acme[/bold] :eyes:" in out.stdout.replace("\n", "")
