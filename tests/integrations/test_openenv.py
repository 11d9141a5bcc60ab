"""`prove serve --openenv` against OpenEnv's own clients (openenv-core): an episode per connection.

Needs `pip install 'prove-rl[openenv]'`; skipped otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("openenv", reason="openenv-core is not installed (pip install 'prove-rl[openenv]')")

from openenv.core.generic_client import GenericEnvClient  # noqa: E402
from openenv.core.mcp_client import MCPToolClient  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from prove.env import Session  # noqa: E402
from prove.mcp import ControlClient  # noqa: E402
from prove.records import Example  # noqa: E402
from prove.rollout import OpenAIPolicy, ScriptedServer  # noqa: E402

from ..env.toy import make_server  # noqa: E402
from ..mcp.conftest import subprocess_server, wait_for  # noqa: E402
from .scripted_eval import eval_rewards, scripted_data, scripted_model  # noqa: E402


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Example], Path, Path]:
    return scripted_data(tmp_path_factory, "openenv")


@pytest.fixture(scope="module")
def served(data: tuple[list[Example], Path, Path]) -> Iterator[str]:
    """`prove serve banking calendar toy --openenv --dataset SAMPLE` in its own process."""
    with subprocess_server("banking", "calendar", "toy", "--openenv", "--dataset", str(data[1])) as (_, urls):
        yield urls[0]


def test_scripted_policy_gets_prove_evals_rewards(data: tuple[list[Example], Path, Path], served: str) -> None:
    examples, path, out = data
    control = ControlClient(served)
    with ScriptedServer(scripted_model(examples)) as model, OpenAIPolicy(model.url, "scripted") as policy:
        want = eval_rewards(path, model.url, out)
        got = {}
        with GenericEnvClient(base_url=served).sync() as env:
            for ex in examples:
                result = env.reset(example_id=ex.id)
                obs = result.observation
                assert obs["example_id"] == ex.id and not result.done
                assert obs["episode_id"] in control.sessions(), "the connection's episode is a pooled one"
                assert env.state()["example_id"] == ex.id
                while not result.done:
                    assert result.reward in (None, 0.0)
                    reply = policy(result.observation["messages"], obs["tool_schemas"]).message
                    result = env.step({"message": reply})
                assert result.observation["reward_breakdown"]["score"] == result.reward
                got[ex.id] = result.reward
                assert obs["episode_id"] not in control.sessions(), "an ended episode is closed"
    assert got == want
    assert len(set(want.values())) >= 3, want


def test_mcp_tool_client_one_world_per_connection(served: str) -> None:
    with Session([make_server()], world=0) as probe:
        db = probe._runtimes[0].db  # noqa: SLF001 - the test reads a PIN the model would be told
        src, pin, balance = db.execute(
            "SELECT wallet_id, pin, balance FROM wallets WHERE frozen = 0 ORDER BY balance DESC").fetchone()
        dst = db.execute("SELECT wallet_id FROM wallets WHERE wallet_id != ? LIMIT 1", (src,)).fetchone()[0]
        listed = {t["function"]["name"] for t in probe.tool_schemas()}
        want_wallet = probe.call("get_wallet", {"wallet_id": src}).data
    control = ControlClient(served)
    before = set(control.sessions())
    with MCPToolClient(base_url=f"{served}/toy").sync() as env:
        reset = env.reset(mode="tools", world=0)
        assert reset.observation.metadata == {} and not reset.done
        assert {t.name for t in env.list_tools()} == listed
        assert env.call_tool("get_wallet", wallet_id=src) == want_wallet
        env.call_tool("move", src=src, dst=dst, amount=1.5, pin=pin)
        assert env.call_tool("get_wallet", wallet_id=src)["balance"] == pytest.approx(balance - 1.5)
        missing = env.call_tool("get_wallet", wallet_id="W-nope")
        assert missing["error"]["code"] == "not_found", "a tool's error stays a result"
        with pytest.raises(RuntimeError, match="tool_not_found"):
            env.call_tool("no_such_tool")
        (episode,) = set(control.sessions()) - before
        assert env.state().episode_id == episode
    wait_for(lambda: episode not in control.sessions(), "the connection's episode to close")
    with MCPToolClient(base_url=f"{served}/toy").sync() as env:
        env.reset(mode="tools")
        assert env.call_tool("get_wallet", wallet_id=src)["balance"] == pytest.approx(balance), "a fresh world"


def test_protocol_errors(served: str) -> None:
    ws_url = served.replace("http://", "ws://")
    with connect(f"{ws_url}/ws") as ws:
        ws.send("not json")
        assert json.loads(ws.recv())["data"]["code"] == "INVALID_JSON"
        ws.send(json.dumps({"type": "jump"}))
        assert json.loads(ws.recv())["data"]["code"] == "UNKNOWN_TYPE"
        ws.send(json.dumps({"type": "step", "data": {"message": {"role": "assistant", "content": "hi"}}}))
        assert "reset first" in json.loads(ws.recv())["data"]["message"]
        ws.send(json.dumps({"type": "reset", "data": {"example_id": "nope"}}))
        assert "no example 'nope'" in json.loads(ws.recv())["data"]["message"]
        ws.send(json.dumps({"type": "reset", "data": {"mode": "tools", "servers": ["nosuch"]}}))
        assert json.loads(ws.recv())["data"]["code"] == "unknown_server"
        ws.send(json.dumps({"type": "reset", "data": {"index": 0}}))
        reply = json.loads(ws.recv())
        assert reply["type"] == "observation" and reply["data"]["observation"]["messages"]
        episode = reply["data"]["observation"]["episode_id"]
        ws.send(json.dumps({"type": "step", "data": {"type": "call_tool", "tool_name": "get_account"}}))
        assert "assistant messages" in json.loads(ws.recv())["data"]["message"]
        assert episode in ControlClient(served).sessions()
    wait_for(lambda: episode not in ControlClient(served).sessions(), "a dropped connection's episode to close")
    with pytest.raises(Exception, match="403"):
        with connect(f"{ws_url}/nosuch/ws"):
            pass
    with pytest.raises(Exception, match="403"):
        with connect(f"{ws_url}/ws", additional_headers={"Origin": "http://evil.example"}):
            pass


def test_serve_refuses_what_it_cannot_do(data: tuple[list[Example], Path, Path]) -> None:
    import subprocess

    from ..mcp.conftest import PROVE

    for args, said in ((["--dataset", str(data[1])], "add --openenv"),
                       (["--openenv", "--workers", "2"], "leave out --stdio and --workers"),
                       (["calendar", "--openenv", "--dataset", str(data[1])], "not served: banking")):
        run = subprocess.run([*PROVE, "serve", *args], capture_output=True, text=True, timeout=60)
        assert run.returncode != 0 and said in run.stderr, (args, run.stderr)
