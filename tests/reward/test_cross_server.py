"""The reward on cross-server examples: gold replays on both servers' shared world; a call that
skips the carried lookup and reuses the first server's ID on the second is scored down."""

from __future__ import annotations

import pytest

from prove.reward import Call, RewardConfig, Scorer, replay

from ..synth.cross_data import cross_examples


def test_gold_scores_best_and_replays_the_combined_state() -> None:
    examples = list(cross_examples())
    scorer = Scorer(examples, RewardConfig(), execute=True)
    for ex in examples:
        gold = [Call(c.name, dict(c.arguments), None, t) for t, turn in enumerate(ex.turns) for c in turn.calls]
        score = scorer.score_calls(ex.id, gold)
        assert score.components["state"] == 1.0, ex.id
        assert score.total == pytest.approx(score.best), (ex.id, score.components)
        calls = [(c.name, c.arguments, t) for t, turn in enumerate(ex.turns) for c in turn.calls]
        assert replay(ex.servers, ex.world, calls, advance=[t.advance or 0 for t in ex.turns],
                      last=len(ex.turns) - 1).fingerprint == ex.fingerprint


def test_an_id_of_the_wrong_server_costs_the_state() -> None:
    """CRM and mailbox both number contacts CON-1xxxx: deleting the mailbox contact by the CRM's ID
    deletes someone else, and the state component sees it."""
    ex = next(e for e in cross_examples() if e.servers == ["crm", "email"]
              and any(c.name == "delete_contact" for c in e.gold_calls()))
    scorer = Scorer([ex], RewardConfig(), execute=True)
    crm_id = next(v for c in ex.gold_calls() if c.name in ("get_contact", "crm_update_contact", "list_activities",
                                                           "list_contacts") for v in c.arguments.values()
                  if isinstance(v, str) and v.startswith("CON-"))
    calls = []
    for t, turn in enumerate(ex.turns):
        for c in turn.calls:
            args = dict(c.arguments)
            if c.name == "delete_contact":
                args["contact_id"] = crm_id
            if c.name != "search_contacts":
                calls.append(Call(c.name, args, None, t))
    wrong = scorer.score_calls(ex.id, calls)
    assert wrong.components["state"] < 1.0 and wrong.total < wrong.best
