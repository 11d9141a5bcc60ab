"""Curriculum benchmark: static data vs the online curriculum on a simulated policy, same rollouts.

Prints JSON. The seed data is a real `prove synth` run over the chosen servers; the curriculum
generates its new examples through the real synthesizer (every one replayed and checked for
faithfulness as offline data is). The policy is simulated (`prove.curriculum.simulate`): a hidden
success probability per skill that rises as it trains on the skill, no model. Both runs take the
same prompts per step, rollouts per prompt and steps. Reported per run: the share of rollouts on
examples at the true boundary (success probability 0.2-0.8), the mean reward variance per group,
the skill reached (mean success probability over the seed data's skills, on a fresh example) and
the rollouts needed to reach the target (default: the skill the static run ends with); then
`rollouts_ratio` (static's rollouts to the target over the curriculum's) and `boundary_ratio`.

Target: the curriculum spends clearly more of its rollouts at the boundary and reaches the
target with fewer rollouts (`rollouts_ratio` above 1).
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
from pathlib import Path

from prove.curriculum import CurriculumConfig
from prove.curriculum.simulate import SimConfig, simulate


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--servers", default="banking,calendar,email,shopping")
    p.add_argument("--n", type=int, default=400, help="seed examples (the static dataset)")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--prompts", type=int, default=16, help="prompts per step")
    p.add_argument("--rollouts", type=int, default=8, help="rollouts per prompt")
    p.add_argument("--capacity", type=int, default=96, help="curriculum buffer size")
    p.add_argument("--max-share", type=float, default=0.10)
    p.add_argument("--skill-by", default="server,tool,kind")
    p.add_argument("--generate", type=int, default=8, help="new examples asked for per step")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="keep the seed data, log and report here")
    p.add_argument("--quick", action="store_true", help="a smoke run: 1 server, 60 examples, 20 steps")
    a = p.parse_args(argv)
    if a.quick:
        a.servers, a.n, a.steps, a.capacity = "banking", 60, 20, 32
    config = CurriculumConfig(seed=a.seed, capacity=a.capacity, max_share=a.max_share,
                              skill_by=a.skill_by.split(","), generate_per_step=a.generate)
    sim = SimConfig(steps=a.steps, prompts=a.prompts, rollouts=a.rollouts, seed=a.seed)
    with tempfile.TemporaryDirectory(prefix="prove-curriculum-") as tmp:
        out = a.out or Path(tmp)
        result = simulate(out, servers=a.servers.split(","), n=a.n, seed=a.seed, sim=sim, curriculum=config)
    print(json.dumps({"benchmark": "curriculum", "python": platform.python_version(),
                      "config": result["config"], "seed_examples": result["seed_examples"],
                      "seed_skills": result["seed_skills"], "summary": result["summary"],
                      "buffer": result["buffer"], "seconds": result["seconds"]}, indent=1))


if __name__ == "__main__":
    main()
