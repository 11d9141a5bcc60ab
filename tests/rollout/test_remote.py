"""The same episodes through `prove.mcp.RemoteEnv` on a `prove serve` in this process (loopback,
ephemeral port), against the scripted model server (a test double, not a model)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from prove.records import Example
from prove.reward import Scorer
from prove.rollout import OpenAIPolicy, ScriptedModel, ScriptedServer, evaluate, local_env, oracle

mcp = pytest.importorskip("prove.mcp", reason="prove.mcp (RemoteEnv) is not available")
uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture(scope="module")
def serve_url() -> Iterator[str]:
    from prove.mcp import ServeApp, ServeConfig
    from prove.mcp.app import uvicorn_config

    app = ServeApp(ServeConfig(servers=("banking", "calendar"), port=0, call_timeout=5.0))
    server = uvicorn.Server(uvicorn_config(app, port=0, timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name="prove-serve-rollout-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "prove serve did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_remote_episodes_match_in_process_ones(serve_url: str, examples: list[Example]) -> None:
    def remote(servers, world):  # noqa: ANN001, ANN202
        return mcp.RemoteEnv(list(servers), world, url=serve_url)

    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server, \
            OpenAIPolicy(server.url, "scripted") as policy:
        scorer = Scorer(examples)
        far = evaluate(examples, policy, env=remote, score=scorer.breakdown, concurrency=3)
        near = evaluate(examples, policy, env=local_env(), score=scorer.breakdown, concurrency=3)
    for a, b in zip(far, near, strict=True):
        assert a["reward"] == b["reward"]
        assert a["meta"]["fingerprint"] == b["meta"]["fingerprint"] is not None
        assert [m.get("content") for m in a["messages"]] == [m.get("content") for m in b["messages"]]
    control = mcp.ControlClient(serve_url)
    try:
        assert control.sessions() == []          # every episode was closed
    finally:
        control.close()
