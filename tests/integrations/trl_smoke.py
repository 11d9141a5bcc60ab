"""End-to-end GRPO with TRL on CPU: a tiny local model calls live PROVE tools and learns from the reward.

    python -m tests.integrations.trl_smoke [--steps 3] [--out DIR]     (or scripts/train-smoke.sh)

Nothing is downloaded. The tokenizer is trained here on synthesized text and uses TRL's own
Qwen2.5 chat template (so TRL's response parser reads its tool calls); the model is a two-layer
Qwen2 with random weights, given a short supervised warm start that teaches it the format of one
call, so that its samples contain tool calls at all. Then `GRPOTrainer` runs a few steps with
`environment_factory` classes generated from the servers and PROVE's reward function: rollouts
call the tools on live sessions, the reward is computed from what they did, and the weights
move. It prints the figures as JSON: steps, seconds, reward per step, tool calls made and
failed, and how much the weights changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WARM_CALL = '<tool_call>\n{"name": "get_account", "arguments": {"account_id": "ACC-10001"}}\n</tool_call>'


def warm_start(model: Any, tokenizer: Any, rows: list[dict[str, Any]], tools: dict[str, list[Any]], steps: int,
               lr: float = 3e-3) -> list[float]:
    """Supervised steps teaching the format of a call: one well-formed call after every prompt.

    A two-layer model learns one fixed answer in a few dozen steps, where learning each
    example's own calls would take thousands; the call (`get_account` on ACC-10001) is right for
    some prompts, half right or wrong for others, so GRPO's groups see different rewards.
    """
    import torch

    target = tokenizer(WARM_CALL + "<|im_end|>", add_special_tokens=False)["input_ids"]
    prompts = [tokenizer(tokenizer.apply_chat_template(row["prompt"], tools=tools[row["environment"]],
                                                       add_generation_prompt=True, tokenize=False),
                         add_special_tokens=False)["input_ids"] for row in rows]
    optim = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    losses = []
    for step in range(steps):
        p_ids = prompts[step % len(prompts)]
        loss = model(input_ids=torch.tensor([p_ids + target]),
                     labels=torch.tensor([[-100] * len(p_ids) + target])).loss
        loss.backward()
        optim.step()
        optim.zero_grad()
        losses.append(float(loss.detach()))
    return losses


def run(out: Path, *, steps: int = 4, warm_steps: int = 150, seed: int = 0) -> dict[str, Any]:
    """Build, warm-start and GRPO-train the tiny model; returns the figures."""
    import datasets
    import torch
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import get_json_schema
    from trl import GRPOConfig, GRPOTrainer

    from prove.integrations.trl import environments, rows, trl_reward

    from ..rollout.data import dataset
    from .tiny import build

    torch.manual_seed(seed)
    examples = [ex for ex in dataset() if ex.servers == ["banking"]]
    template = (Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja").read_text()
    started = time.monotonic()
    build(out / "model", examples, ["banking"], chat_template=template)
    tokenizer = AutoTokenizer.from_pretrained(out / "model")
    model = AutoModelForCausalLM.from_pretrained(out / "model", dtype=torch.float32)
    # The tools each rollout sees: the gold tools and two others (a short prompt for a CPU run).
    wanted = sorted({c.name for ex in examples for c in ex.gold_calls()} | {"list_accounts"})
    factories = environments(examples, tools={"banking": wanted})
    tool_schemas = {k: [get_json_schema(getattr(cls(), t)) for t in wanted] for k, cls in factories.items()}
    data = rows(examples, per_turn=True)
    built = time.monotonic()
    losses = warm_start(model, tokenizer, data, tool_schemas, warm_steps)
    warmed = time.monotonic()

    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    calls: list[tuple[str, bool]] = []

    def counting(cls: type) -> type:
        class Counted(cls):  # type: ignore[misc, valid-type]
            def _call(self, name: str, arguments: Any) -> str:
                text = super()._call(name, arguments)
                calls.append((name, self.results[-1].ok if self.results else False))
                return text
        Counted.__name__ = cls.__name__
        return Counted

    config = GRPOConfig(
        output_dir=str(out / "grpo"), max_steps=steps, per_device_train_batch_size=8, num_generations=4,
        max_completion_length=96, learning_rate=1e-3, beta=0.0, temperature=1.0, logging_steps=1,
        report_to="none", save_strategy="no", use_cpu=True, bf16=False, seed=seed, max_tool_calling_iterations=3,
        dataloader_num_workers=0,
    )
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=[trl_reward()], args=config,
                          train_dataset=datasets.Dataset.from_list(data),
                          environment_factory={k: counting(v) for k, v in factories.items()})
    trainer.train()
    done = time.monotonic()
    after = dict(trainer.model.named_parameters())
    delta = {n: float((after[n].detach() - before[n]).abs().max()) for n in before}
    total = sum(float((after[n].detach() - before[n]).norm() ** 2) for n in before) ** 0.5
    logs = [h for h in trainer.state.log_history if "reward" in h]
    return {
        "steps": trainer.state.global_step,
        "seconds": {"build": round(built - started, 2), "warm_start": round(warmed - built, 2),
                    "grpo": round(done - warmed, 2), "total": round(done - started, 2)},
        "warm_start_loss": [round(losses[0], 3), round(losses[-1], 3)],
        "reward_per_step": [round(h["reward"], 4) for h in logs],
        "reward_components_mean": {k: round(sum(h.get(k, 0.0) for h in logs) / len(logs), 4)
                                   for k in sorted({k for h in logs for k in h if k.startswith("prove/")})},
        "tool_call_frequency": [round(h.get("tools/call_frequency", 0.0), 3) for h in logs],
        "live_tool_calls": len(calls), "live_tool_calls_ok": sum(ok for _, ok in calls),
        "tools_called": sorted({n for n, _ in calls}),
        "weights_changed": sum(1 for v in delta.values() if v > 0), "weights_total": len(delta),
        "max_abs_weight_change": max(delta.values()), "weight_change_l2": total,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--warm-steps", type=int, default=150)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="prove-trl-") as tmp:
        figures = run(args.out or Path(tmp), steps=args.steps, warm_steps=args.warm_steps)
    json.dump(figures, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
