"""The curriculum's trainer hooks on the real packages: VERL's dataset path and TRL's streams and callbacks.

VERL: `create_rl_dataset` / `create_rl_sampler` / VERL's dataloader and `collate_fn` build the
batches from `CurriculumDataset` under VERL's own trainer config (`ppo_trainer.yaml`, composed by
Hydra), and `on_batch_end` receives a real `DataProto` with rewards. TRL: a `GRPOTrainer` run on
the tiny local model (`@pytest.mark.slow`) draws its prompts from the stream and feeds the
callback. Skipped without the `verl` / `train` extras.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prove.records import Example, read_examples, write_jsonl
from prove.synth import SynthConfig, run

from .conftest import missing

SERVERS = ["banking"]


@pytest.fixture(scope="module")
def seed_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seed")
    run(SynthConfig(n=40, seed=3, servers=SERVERS), out)
    return out / "dataset.jsonl"


def _verl_data(tmp: Path, seed_file: Path, *extra: str):
    from .verl_helpers import compose

    log = tmp / "curriculum.jsonl"
    config = compose(tmp, tmp, f"data.train_files={seed_file}", f"data.val_files={tmp}/val.parquet",
                     "data.custom_cls.path=pkg://prove.integrations.verl.curriculum",
                     "data.custom_cls.name=CurriculumDataset", "data.dataloader_num_workers=0",
                     "data.filter_overlong_prompts=False", f"+data.cache_dir={tmp}/cache", "trainer.use_v1=False",
                     "+data.curriculum.capacity=12", "+data.curriculum.max_share=0.5",
                     "+data.curriculum.skill_by=[server,kind]",
                     "+data.curriculum.min_groups=1", "+data.curriculum.generate_per_step=2",
                     "+data.curriculum.synth.seed=5", f"+data.curriculum.synth.servers={SERVERS}",
                     f"+data.curriculum.log={log}", *extra)
    return config, log


def test_verl_dataset_draws_from_the_buffer_and_takes_each_steps_rewards(tmp_path: Path, seed_file: Path) -> None:
    pytest.importorskip("verl", reason="verl is not installed (pip install 'prove-rl[verl]')")
    import numpy as np
    import torch
    from torchdata.stateful_dataloader import StatefulDataLoader
    from verl import DataProto
    from verl.trainer.ppo.utils import create_rl_dataset, create_rl_sampler
    from verl.utils.dataset.rl_dataset import collate_fn

    from prove.integrations.verl.curriculum import CurriculumDataset, groups
    from prove.integrations.verl.export import export

    examples = read_examples(seed_file)
    export(examples, tmp_path)              # val.parquet: read as VERL reads it
    config, log = _verl_data(tmp_path, seed_file)
    data = create_rl_dataset(config.data.train_files, config.data, None, None, is_train=True)
    assert isinstance(data, CurriculumDataset) and len(data) == 12
    val = create_rl_dataset(config.data.val_files, config.data, None, None, is_train=False)
    assert val.curriculum is None and len(val) >= 1 and val[0]["extra_info"]["example_id"]
    loader = StatefulDataLoader(dataset=data, batch_size=4, num_workers=0, drop_last=True, collate_fn=collate_fn,
                                sampler=create_rl_sampler(config.data, data))
    cur = data.curriculum
    batch_dict = next(iter(loader))
    ids = [e["example_id"] for e in batch_dict["extra_info"]]
    assert all(cur.buffer.slot_of(i) is not None for i in ids)
    assert all(isinstance(m, dict) for m in batch_dict["raw_prompt"][0])
    # What VERL's trainer holds at the end of a step: uid per prompt, 4 rollouts each, their scores.
    batch = DataProto.from_single_dict(batch_dict)
    batch.non_tensor_batch["uid"] = np.array([f"u{i}" for i in range(4)], dtype=object)
    batch = batch.repeat(repeat_times=4, interleave=True)
    rewards = [[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.0]]
    scores = torch.zeros(16, 3)
    scores[:, -1] = torch.tensor([r for g in rewards for r in g])
    batch.batch["token_level_scores"] = scores
    assert groups(batch) == list(zip(ids, rewards))
    data.on_batch_end(batch=batch)
    assert cur.step == 1
    record = json.loads(log.read_text().splitlines()[0])
    assert record["groups"] == 4 and record["rollouts"] == 16
    # The solved examples left the buffer (retire_after=1); their slots hold others now.
    gone = {ids[0], ids[2]} - {e.id for e in cur.buffer}
    assert len(gone) == record["retired"] >= 1
    assert {data[i]["extra_info"]["example_id"] for i in range(len(data))} == {e.id for e in cur.buffer}
    bad = DataProto.from_single_dict({**batch_dict, "extra_info": np.array([{}] * 4, dtype=object)})
    bad.non_tensor_batch["uid"] = np.array(["a", "b", "c", "d"], dtype=object)
    bad.batch["token_level_scores"] = torch.zeros(4, 3)
    from prove.curriculum import CurriculumError
    with pytest.raises(CurriculumError, match="example_id"):
        data.on_batch_end(batch=bad)


def test_trl_callback_groups_each_steps_rewards(seed_file: Path, tmp_path: Path) -> None:
    gone = missing("trl", "transformers", "datasets")
    if gone:
        pytest.skip(f"{gone} is not installed (pip install 'prove-rl[train]')")
    from transformers import TrainerControl, TrainerState

    from prove.curriculum import Curriculum, CurriculumConfig
    from prove.integrations.trl import trl_reward
    from prove.integrations.trl_curriculum import CurriculumCallback, stream

    examples = read_examples(seed_file)
    config = CurriculumConfig(capacity=8, max_share=0.5, skill_by=["server", "kind"], min_groups=1)
    cur = Curriculum(examples, config, log=tmp_path / "log.jsonl")
    rows = list(stream(cur).take(4))
    # The stream draws from the buffer in the curriculum's own order (a twin with the same seed shows it).
    assert [r["example_id"] for r in rows] == [e.id for e in Curriculum(examples, config).draw(4)]
    assert all(r["environment"] == "banking" and r["prompt"][-1]["role"] == "user" for r in rows)
    feedback = CurriculumCallback(cur)
    reward = feedback.reward(trl_reward())
    assert reward.__name__ == "prove_reward"
    # Two prompts, two generations each, as TRL passes them: the reference answer, and no answer.
    by_id = {ex.id: ex for ex in examples}
    completions, cols = [], {"example_id": [], "ground_truth": []}
    for row in rows[:2]:
        ex = by_id[row["example_id"]]
        ref = [m.model_dump(mode="json", exclude_none=True) for m in ex.messages]
        first = next(i for i, m in enumerate(ref) if m["role"] == "user")
        nxt = next((i for i, m in enumerate(ref) if i > first and m["role"] == "user"), len(ref))
        for completion in (ref[first + 1:nxt], [{"role": "assistant", "content": "I cannot."}]):
            completions.append(completion)
            cols["example_id"].append(row["example_id"])
            cols["ground_truth"].append(row["ground_truth"])
    scores = reward(prompts=[r["prompt"] for r in rows[:2] for _ in range(2)], completions=completions, **cols)
    assert len(scores) == 4 and len(feedback.pending) == 4
    feedback.on_step_end(None, TrainerState(global_step=1), TrainerControl())
    assert cur.step == 1 and not feedback.pending
    record = json.loads((tmp_path / "log.jsonl").read_text().splitlines()[0])
    assert record["groups"] == 2 and record["rollouts"] == 4
    assert cur.skills[cur.known[rows[0]["example_id"]]].groups >= 1


@pytest.mark.slow
def test_grpo_trains_from_the_stream_and_feeds_the_curriculum(tmp_path: Path, seed_file: Path) -> None:
    gone = missing("torch", "transformers", "trl", "datasets", "tokenizers")
    if gone:
        pytest.skip(f"{gone} is not installed (pip install 'prove-rl[train]')")
    import torch
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    from prove.curriculum import Curriculum, CurriculumConfig
    from prove.integrations.trl import environments, trl_reward
    from prove.integrations.trl_curriculum import CurriculumCallback, stream

    from .tiny import build

    torch.manual_seed(0)
    examples: list[Example] = read_examples(seed_file)[:12]
    write_jsonl(tmp_path / "seed.jsonl", examples)
    template = (Path(trl.__file__).parent / "chat_templates" / "qwen2_5.jinja").read_text()
    build(tmp_path / "model", examples, SERVERS, chat_template=template)
    tokenizer = AutoTokenizer.from_pretrained(tmp_path / "model")
    model = AutoModelForCausalLM.from_pretrained(tmp_path / "model", dtype=torch.float32)
    cur = Curriculum(examples, CurriculumConfig(capacity=8, max_share=0.5, skill_by=["server", "kind"], min_groups=1),
                     log=tmp_path / "log.jsonl")
    feedback = CurriculumCallback(cur)
    wanted = ["list_accounts", "get_account"]
    config = GRPOConfig(output_dir=str(tmp_path / "grpo"), max_steps=2, per_device_train_batch_size=4,
                        num_generations=2, max_completion_length=24, learning_rate=1e-3, beta=0.0, logging_steps=1,
                        report_to="none", save_strategy="no", use_cpu=True, bf16=False, seed=0,
                        max_tool_calling_iterations=1, dataloader_num_workers=0, shuffle_dataset=False)
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=[feedback.reward(trl_reward())],
                          args=config, train_dataset=stream(cur),
                          environment_factory=environments(examples, tools={"banking": wanted}),
                          callbacks=[feedback])
    trainer.train()
    records = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert cur.step == trainer.state.global_step == 2 == len(records)
    assert all(r["groups"] == 2 and r["rollouts"] == 4 and r["unknown"] == 0 for r in records)
