"""A simulated policy, to measure a curriculum without a model (`prove curriculum simulate`, `benchmarks/curriculum.py`).

The policy solves an example with probability sigmoid(difficulty of its skill + what it knows
of the skill's tool + what it knows of the skill's structure (length, depth, kind) + what it
memorised of that very example). Difficulty is fixed: long chains and deep dependencies start
low, each skill with its own offset drawn from the seed; the rest starts at 0. Training on a
group moves the tool's and the structure's terms by `lr` times the group's reward standard
deviation (a group whose rollouts agree carries no gradient, as in GRPO), and the example's memory
by `memorise` times it. So repeating one example saturates it faster than it teaches the skill,
and fresh variants of a skill teach more: the effect an online curriculum relies on.

`run` trains one such policy on a static dataset (uniform draws, a new order every pass) and
another on a curriculum seeded with the same data, with the same prompts and rollouts per step,
and returns per-step figures and a summary: the share of rollouts on examples at the true
boundary (success probability within 0.2-0.8, known here because the policy is simulated), the
mean group reward variance, and the skill reached (mean success probability over the skills of
the seed data, on a fresh example: memory left out).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..records import Example, read_examples
from ..synth import SynthConfig
from ..synth import run as synthesize
from .config import CurriculumConfig
from .generate import Generator, SynthGenerator
from .loop import Curriculum
from .report import read_log, render
from .skills import Skill, skill_of

__all__ = ["Policy", "SimConfig", "run", "simulate", "summary"]

BAND = (0.2, 0.8)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass
class SimConfig:
    """The simulated training run: its size, and how the simulated policy learns."""

    steps: int = 150
    prompts: int = 16          # prompts per step
    rollouts: int = 8          # rollouts per prompt (the group)
    seed: int = 0
    lr: float = 0.1
    memorise: float = 1.5
    target: float | None = None  # skill level to reach (default: what the static run reaches)


@dataclass
class Policy:
    """The hidden abilities (see the module docstring)."""

    seed: int
    config: SimConfig
    tools: dict[tuple[str, str | None], float] = field(default_factory=dict)
    structures: dict[tuple[int | None, int | None, str | None], float] = field(default_factory=dict)
    memory: dict[str, float] = field(default_factory=dict)
    difficulties: dict[Skill, float] = field(default_factory=dict)

    def difficulty(self, skill: Skill) -> float:
        found = self.difficulties.get(skill)
        if found is None:
            rng = random.Random(f"{self.seed}:ability:{skill.key}")
            if not skill.tool:   # abstain or decline: one decision
                found = 0.5 + rng.gauss(0, 1.0)
            else:
                found = (2.5 - 1.0 * ((skill.length or 1) - 1) - 0.8 * max(0, (skill.depth or 1) - 1)
                         + rng.gauss(0, 1.0))
            self.difficulties[skill] = found
        return found

    def logit(self, skill: Skill) -> float:
        return (self.difficulty(skill) + self.tools.get((skill.server, skill.tool), 0.0)
                + self.structures.get((skill.length, skill.depth, skill.kind), 0.0))

    def p(self, example_id: str, skill: Skill) -> float:
        return _sigmoid(self.logit(skill) + self.memory.get(example_id, 0.0))

    def play(self, example_id: str, skill: Skill, n: int, rng: random.Random) -> list[float]:
        q = self.p(example_id, skill)
        return [1.0 if rng.random() < q else 0.0 for _ in range(n)]

    def train(self, example_id: str, skill: Skill, rewards: Sequence[float]) -> None:
        mean = sum(rewards) / len(rewards)
        std = math.sqrt(sum((r - mean) ** 2 for r in rewards) / len(rewards))
        step = self.config.lr * std
        tool, structure = (skill.server, skill.tool), (skill.length, skill.depth, skill.kind)
        self.tools[tool] = self.tools.get(tool, 0.0) + step
        self.structures[structure] = self.structures.get(structure, 0.0) + step
        self.memory[example_id] = self.memory.get(example_id, 0.0) + self.config.memorise * std

    def level(self, skills: Sequence[Skill]) -> float:
        """Mean success probability over `skills` on a fresh example."""
        return sum(_sigmoid(self.logit(s)) for s in skills) / len(skills)


def _train(draw: Callable[[int], list[tuple[str, Skill]]], policy: Policy, cfg: SimConfig, skills: Sequence[Skill],
           rng: random.Random, report: Callable[[list[tuple[str, list[float]]]], dict[str, Any]] | None) -> list[dict[str, Any]]:
    steps = []
    for step in range(1, cfg.steps + 1):
        batch = draw(cfg.prompts)
        groups = []
        near = 0
        variances = []
        for example_id, skill in batch:
            q = policy.p(example_id, skill)
            near += BAND[0] <= q <= BAND[1]
            rewards = policy.play(example_id, skill, cfg.rollouts, rng)
            mean = sum(rewards) / len(rewards)
            variances.append(sum((r - mean) ** 2 for r in rewards) / len(rewards))
            groups.append((example_id, rewards))
        for (example_id, skill), (_, rewards) in zip(batch, groups):
            policy.train(example_id, skill, rewards)
        row = {"step": step, "rollouts": step * cfg.prompts * cfg.rollouts, "boundary_share": near / len(batch),
               "mean_variance": sum(variances) / len(variances), "level": policy.level(skills)}
        if report is not None:
            info = report(groups)
            row.update(boundary=info["boundary"], generated=info["generated"], retired=info["retired"])
        steps.append(row)
    return steps


def run(examples: Sequence[Example], cfg: SimConfig, curriculum: CurriculumConfig,
        generator: Generator | None = None, log: str | None = None) -> dict[str, Any]:
    """Static data vs the curriculum on the same simulated policy and budget; see `summary` for the figures."""
    seeds = list(examples)
    skills_of = {ex.id: skill_of(ex) for ex in seeds}
    skills = sorted(set(skills_of.values()), key=lambda s: s.key)

    order: list[str] = []
    epoch = [0]

    def static_draw(n: int) -> list[tuple[str, Skill]]:
        out = []
        while len(out) < n:
            if not order:
                order.extend(ex.id for ex in seeds)
                random.Random(f"{cfg.seed}:static:{epoch[0]}").shuffle(order)
                epoch[0] += 1
            i = order.pop()
            out.append((i, skills_of[i]))
        return out

    static = _train(static_draw, Policy(cfg.seed, cfg), cfg, skills, random.Random(f"{cfg.seed}:play"), None)

    cur = Curriculum(seeds, curriculum, generator=generator, log=log)

    def cur_draw(n: int) -> list[tuple[str, Skill]]:
        return [(e.id, skill_of(e.record)) for e in cur.draw(n)]

    online = _train(cur_draw, Policy(cfg.seed, cfg), cfg, skills, random.Random(f"{cfg.seed}:play"), cur.update)
    return {"static": static, "curriculum": online, "summary": summary(static, online, cfg),
            "buffer": {"size": len(cur.buffer), "per_skill": curriculum.per_skill, "skills": len(cur.buffer.mix()),
                       "generated": cur.totals["generated"], "retired": cur.totals["retired"],
                       "parked": cur.totals["parked"], "evicted": cur.totals["evicted"],
                       "attempts": cur.totals["attempts"]},
            "seed_examples": len(seeds), "seed_skills": len(skills)}


def _reach(steps: Sequence[dict[str, Any]], target: float) -> int | None:
    for row in steps:
        if row["level"] >= target:
            return int(row["rollouts"])
    return None


def summary(static: Sequence[dict[str, Any]], online: Sequence[dict[str, Any]], cfg: SimConfig) -> dict[str, Any]:
    """Per run: boundary share of rollouts, mean group variance, skill reached, rollouts to the target; and the ratio."""
    target = cfg.target if cfg.target is not None else static[-1]["level"]
    out: dict[str, Any] = {"target": round(target, 4), "rollouts": int(static[-1]["rollouts"])}
    for name, steps in (("static", static), ("curriculum", online)):
        out[name] = {"boundary_share": round(sum(r["boundary_share"] for r in steps) / len(steps), 4),
                     "mean_variance": round(sum(r["mean_variance"] for r in steps) / len(steps), 4),
                     "skill": round(steps[-1]["level"], 4), "start": round(steps[0]["level"], 4),
                     "rollouts_to_target": _reach(steps, target)}
    a, b = out["static"]["rollouts_to_target"], out["curriculum"]["rollouts_to_target"]
    out["rollouts_ratio"] = round(a / b, 3) if a and b else None
    out["boundary_ratio"] = (round(out["curriculum"]["boundary_share"] / out["static"]["boundary_share"], 3)
                             if out["static"]["boundary_share"] else None)
    return out


def simulate(out: Path, *, servers: Sequence[str], n: int, seed: int, sim: SimConfig,
             curriculum: CurriculumConfig, workers: int = 1) -> dict[str, Any]:
    """The whole measurement: synthesize `n` seed examples of `servers`, run `run` with a generator on
    the same servers (another seed), write `out/log.jsonl`, `out/simulation.json` and `out/report.html`."""
    out = Path(out)
    started = time.perf_counter()
    synthesize(SynthConfig(n=n, seed=seed, servers=list(servers)), out / "seed", workers=workers, overwrite=True)
    examples = read_examples(out / "seed" / "dataset.jsonl")
    made = time.perf_counter()
    generator = SynthGenerator.from_config(SynthConfig(seed=seed + 1, servers=list(servers)))
    result = run(examples, sim, curriculum, generator=generator, log=str(out / "log.jsonl"))
    result["seconds"] = {"seed_data": round(made - started, 1), "simulation": round(time.perf_counter() - made, 1)}
    result["config"] = {"servers": list(servers), "n": n, "seed": seed, "sim": asdict(sim),
                        "curriculum": curriculum.model_dump(mode="json")}
    (out / "simulation.json").write_text(json.dumps(result, indent=1, sort_keys=True))
    page = render(read_log(out / "log.jsonl"), title="PROVE curriculum (simulated policy)",
                  simulation={"static": result["static"], "curriculum": result["curriculum"]})
    (out / "report.html").write_text(page, encoding="utf-8")
    return result
