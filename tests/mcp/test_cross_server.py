"""A cross-server example over MCP on a real socket: `/mcp?servers=a,b` lists the tools under the
names the example uses, its gold calls run there, and the episode ends in the example's state."""

from __future__ import annotations

import json

from prove.env import Session

from ..synth.cross_data import cross_examples
from .conftest import running
from .helpers import client, run


def test_a_cross_server_example_plays_over_the_episode_endpoint() -> None:
    examples = [ex for ex in cross_examples() if ex.servers in (["crm", "email"], ["calendar", "crm", "email"])][:2]
    assert examples
    with running(servers=("crm", "email", "calendar"), call_timeout=10.0) as live:
        control = live.control()
        for k, ex in enumerate(examples):
            name = f"cross-{k}"
            url = f"{live.url}/mcp?episode={name}&servers={','.join(ex.servers)}&world={ex.world}"

            async def scenario() -> tuple[set[str], list[bool]]:
                async with client(url) as c:
                    listed = {t.name for t in (await c.list_tools()).tools}
                    ok = []
                    for turn in ex.turns:
                        assert not turn.advance
                        for call in turn.calls:
                            r = await c.call_tool(call.name, dict(call.arguments))
                            ok.append(not r.is_error)
                    return listed, ok

            listed, ok = run(scenario())
            with Session(ex.servers, world=ex.world) as local:
                assert listed == set(local.tools())
            assert "crm_update_contact" in listed and "email_update_contact" in listed and "update_contact" not in listed
            assert all(ok), ex.id
            fingerprint = control.request("GET", f"/v1/sessions/{name}/fingerprint")["fingerprint"]
            assert fingerprint == ex.fingerprint, ex.id
            log = control.request("GET", f"/v1/sessions/{name}/log")["calls"]
            assert [c["name"] for c in log] == [c.name for c in ex.gold_calls()]
            assert json.dumps(control.request("GET", f"/v1/sessions/{name}")["servers"]) == json.dumps(ex.servers)
            control.request("DELETE", f"/v1/sessions/{name}")
