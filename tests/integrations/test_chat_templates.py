"""Chat-template-ready conversations: rendered with the Qwen2.5, Qwen3, Llama 3.1 and Granite 4 templates.

The records keep OpenAI's `function.arguments` as JSON text; templates that `tojson` the
arguments (Qwen2.5, Llama 3.1) would encode that text a second time. `chat_messages` (used by
`prove export sft`, the Hugging Face writer and TRL's rows) makes them objects, and splits
parallel calls for Llama 3.1's template, which holds one call per assistant message.

The Qwen and Llama templates are the originals TRL ships (`trl/chat_templates`); Granite 4's is
written here, reduced to what it does with tools (the same markup: tools in the system turn,
`<tool_call>` blocks whose arguments are written as they are when text and with `tojson`
otherwise, results in `<tool_response>` blocks of a user turn).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from prove.records import Example, write_jsonl
from prove.synth.writers import chat_messages, write_hf

from .conftest import missing

NEEDED = missing("transformers", "tokenizers", "trl", "datasets")
if NEEDED:
    pytest.skip(f"{NEEDED} is not installed (pip install 'prove-rl[train]')", allow_module_level=True)

import trl  # noqa: E402

GRANITE4 = r"""{%- set ns = namespace(system='') %}
{%- if messages[0].role == 'system' %}{%- set ns.system = messages[0].content %}{%- endif %}
{%- if tools %}
    {%- set listing = namespace(text='You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>') %}
    {%- for tool in tools %}{%- set listing.text = listing.text + '\n' + (tool | tojson) %}{%- endfor %}
    {%- set listing.text = listing.text + '\n</tools>\n\nFor each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>.' %}
    {%- set ns.system = (ns.system + '\n\n' if ns.system else '') + listing.text %}
{%- endif %}
{{- '<|start_of_role|>system<|end_of_role|>' + ns.system + '<|end_of_text|>\n' }}
{%- for message in messages %}
    {%- set content = message.content if message.content is string else '' %}
    {%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}
        {{- '<|start_of_role|>' + message.role + '<|end_of_role|>' + content + '<|end_of_text|>\n' }}
    {%- elif message.role == 'assistant' %}
        {{- '<|start_of_role|>assistant<|end_of_role|>' + content }}
        {%- for tool_call in message.tool_calls or [] %}
            {%- if (loop.first and content) or not loop.first %}{{- '\n' }}{%- endif %}
            {%- set call = tool_call.function if tool_call.function else tool_call %}
            {{- '<tool_call>\n{"name": "' + call.name + '", "arguments": ' }}
            {%- if call.arguments is string %}{{- call.arguments }}{%- else %}{{- call.arguments | tojson }}{%- endif %}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|end_of_text|>\n' }}
    {%- elif message.role == 'tool' %}
        {%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{- '<|start_of_role|>user<|end_of_role|>' }}{%- endif %}
        {{- '\n<tool_response>\n' + content + '\n</tool_response>' }}
        {%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{- '<|end_of_text|>\n' }}{%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_of_role|>assistant<|end_of_role|>' }}{%- endif %}"""


def _shipped(name: str) -> str:
    return (Path(trl.__file__).parent / "chat_templates" / name).read_text()


TEMPLATES = {"qwen2.5": _shipped("qwen2_5.jinja"), "qwen3": _shipped("qwen3.jinja"),
             "llama3.1": _shipped("llama3_1.jinja"), "granite4": GRANITE4}
ONE_CALL_PER_MESSAGE = {"llama3.1"}        # "This model only supports single tool-calls at once!"


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    """A tokenizer to render with: only its chat-template machinery is used (transformers' own)."""
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast(tokenizer_object=Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")))


def render(tokenizer: Any, template: str, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]]) -> str:
    return tokenizer.apply_chat_template(list(messages), tools=list(tools) or None, chat_template=template,
                                         tokenize=False)


def calls_of(messages: Sequence[dict[str, Any]]) -> Iterator[Any]:
    for m in messages:
        for call in m.get("tool_calls") or []:
            yield call["function"]["arguments"]


def encodings(text: str, messages: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """(calls whose arguments the text holds as a JSON object, calls whose arguments it holds as JSON text)."""
    once = twice = 0
    for arguments in calls_of(messages):
        obj = json.loads(arguments) if isinstance(arguments, str) else arguments
        as_object = json.dumps(obj, ensure_ascii=False)
        once += as_object in text
        as_text = arguments if isinstance(arguments, str) else as_object
        twice += json.dumps(as_object, ensure_ascii=False) in text or json.dumps(as_text, ensure_ascii=False) in text
    return once, twice


def dumped(ex: Example) -> list[dict[str, Any]]:
    return [m.model_dump(mode="json", exclude_none=True) for m in ex.messages]


def tools_of(ex: Example) -> list[dict[str, Any]]:
    return [t.model_dump(mode="json", exclude_none=True) for t in ex.tools]


def tally(tokenizer: Any, template: str, conversations: Sequence[tuple[list[dict[str, Any]], list[dict[str, Any]]]]
          ) -> dict[str, int]:
    from jinja2 import TemplateError

    out = {"conversations": len(conversations), "rejected": 0, "calls": 0, "once": 0, "twice": 0}
    for messages, tools in conversations:
        try:
            text = render(tokenizer, template, messages, tools)
        except TemplateError:
            out["rejected"] += 1
            continue
        once, twice = encodings(text, messages)
        out["calls"] += len(list(calls_of(messages)))
        out["once"] += once
        out["twice"] += twice
    return out


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_chat_ready_conversations_render_each_argument_once(tokenizer: Any, synthesized: list[Example],
                                                           name: str) -> None:
    split = name in ONE_CALL_PER_MESSAGE
    conversations = [(chat_messages(dumped(ex), split_parallel=split), tools_of(ex)) for ex in synthesized]
    figures = tally(tokenizer, TEMPLATES[name], conversations)
    total = sum(len(list(calls_of(dumped(ex)))) for ex in synthesized)
    assert figures == {"conversations": len(synthesized), "rejected": 0, "calls": total, "once": total,
                       "twice": 0}, figures
    assert len(synthesized) >= 200 and total > 400


def test_records_as_written_are_what_the_templates_get_wrong(tokenizer: Any, synthesized: list[Example]) -> None:
    """The failures `chat_messages` removes: arguments as JSON text, parallel calls in one message."""
    raw = [(dumped(ex), tools_of(ex)) for ex in synthesized]
    qwen = tally(tokenizer, TEMPLATES["qwen2.5"], raw)
    assert qwen["rejected"] == 0 and qwen["twice"] == qwen["calls"] > 0          # every call, encoded twice
    assert tally(tokenizer, TEMPLATES["qwen3"], raw)["twice"] == 0              # Qwen3 writes text as it is
    parallel = sum(any(len(m.get("tool_calls") or []) > 1 for m in msgs) for msgs, _ in raw)
    unsplit = [(chat_messages(msgs), tools) for msgs, tools in raw]
    assert parallel > 0 and tally(tokenizer, TEMPLATES["llama3.1"], unsplit)["rejected"] == parallel


def test_trl_per_turn_prompts_render_each_argument_once(tokenizer: Any, synthesized: list[Example]) -> None:
    from prove.integrations.trl import dataset

    by_id = {ex.id: tools_of(ex) for ex in synthesized}
    for name, template in TEMPLATES.items():
        ds = dataset(synthesized, per_turn=True, split_parallel=name in ONE_CALL_PER_MESSAGE)
        figures = tally(tokenizer, template, [(row["prompt"], by_id[row["example_id"]]) for row in ds])
        assert figures["rejected"] == 0 and figures["twice"] == 0, (name, figures)
        assert figures["once"] == figures["calls"] > 100, (name, figures)


def test_hf_writer_rows_go_straight_into_apply_chat_template(tokenizer: Any, tmp_path: Path,
                                                            synthesized: list[Example]) -> None:
    import datasets

    write_jsonl(tmp_path / "dataset.jsonl", synthesized)
    ds = datasets.load_dataset(str(write_hf(tmp_path / "dataset.jsonl", tmp_path / "hf")), split="train")
    assert len(ds) == len(synthesized)
    for name in ("qwen2.5", "qwen3", "granite4"):
        figures = tally(tokenizer, TEMPLATES[name], [(row["messages"], row["tools"]) for row in ds])
        assert figures["rejected"] == 0 and figures["twice"] == 0 and figures["once"] == figures["calls"], figures


def test_export_sft_file_loads_and_renders_with_llama(tokenizer: Any, tmp_path: Path,
                                                     synthesized: list[Example]) -> None:
    import datasets

    write_jsonl(tmp_path / "dataset.jsonl", synthesized)
    run = subprocess.run([sys.executable, "-m", "prove", "export", "sft", str(tmp_path / "dataset.jsonl"),
                          str(tmp_path / "sft.jsonl"), "--split-parallel", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    counts = json.loads(run.stdout)
    assert counts["examples"] == len(synthesized) and counts["split"] > 0
    ds = datasets.load_dataset("json", data_files=str(tmp_path / "sft.jsonl"), split="train")
    figures = tally(tokenizer, TEMPLATES["llama3.1"], [(row["messages"], row["tools"]) for row in ds])
    assert figures["rejected"] == 0 and figures["twice"] == 0 and figures["once"] == figures["calls"], figures
