"""Cross-server examples through the rollout: the scripted model replays each reference
conversation over HTTP, the episode runs on a live session of both servers, the reward scores it."""

from __future__ import annotations

import pytest

from prove.records import Trajectory
from prove.reward import COMPONENTS, RewardConfig, Scorer
from prove.rollout import OpenAIPolicy, ScriptedModel, ScriptedServer, evaluate, local_env, oracle, summarize

from ..synth.cross_data import cross_examples


@pytest.mark.parametrize("form", ["native", "hermes"])
def test_the_oracle_replays_cross_server_examples(form: str) -> None:
    examples = list(cross_examples())[:8]
    scorer = Scorer(examples)
    with ScriptedServer(ScriptedModel(oracle(examples), form=form)) as server, \
            OpenAIPolicy(server.url, "scripted", timeout=10) as policy:
        trajectories = evaluate(examples, policy, env=local_env(call_timeout=5), concurrency=2,
                                score=scorer.breakdown, state=scorer.state)
    best = RewardConfig().best()
    for traj, ex in zip(trajectories, examples, strict=True):
        Trajectory.model_validate(traj)
        assert traj["meta"]["status"] == "done", traj["meta"]
        assert traj["meta"]["fingerprint"] == ex.fingerprint, ex.id
        assert traj["reward"]["score"] == pytest.approx(best), (ex.id, traj["reward"])
    report = summarize(trajectories, examples, components=COMPONENTS, best=best)
    assert report["overall"]["state_match"] == 1.0 and report["overall"]["errors"] == 0
    assert set(report["by_server"]) <= {"+".join(ex.servers) for ex in examples} | {s for ex in examples
                                                                                      for s in ex.servers}
