"""A tiny causal LM and tokenizer built locally (nothing is downloaded), for the trainer tests.

The tokenizer is a byte-level BPE trained in a second on synthesized text: the tool schemas of
the servers and the test dataset's conversations, with ChatML's special tokens and the Hermes
tool tags. The model is a two-layer Qwen2 with random weights. Neither knows anything: the
model server in the tests is scripted, and the TRL run only checks that rollouts call live
tools, get a reward and change the weights.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from prove.env import Session
from prove.records import Example

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
TAGS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]

# A ChatML template with Hermes tool calls, written for these tests (the layout Qwen2.5 uses).
CHATML_TOOLS = r"""{%- if tools %}<|im_start|>system
{% if messages[0].role == 'system' %}{{ messages[0].content }}{% else %}You are a helpful assistant.{% endif %}

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{%- for tool in tools %}
{{ tool | tojson }}
{%- endfor %}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'system' and loop.first %}
{%- elif message.role == 'user' or message.role == 'system' %}<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{%- if message.content %}
{{ message.content }}{% endif %}
{%- for tc in message.tool_calls or [] %}
{%- set f = tc.function if tc.function is defined else tc %}
<tool_call>
{"name": "{{ f.name }}", "arguments": {% if f.arguments is string %}{{ f.arguments }}{% else %}{{ f.arguments | tojson }}{% endif %}}
</tool_call>
{%- endfor %}<|im_end|>
{% elif message.role == 'tool' %}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user{% endif %}
<tool_response>
{{ message.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""


def corpus(examples: Iterable[Example], servers: Iterable[str]) -> list[str]:
    """Text to train the tokenizer on: tool schemas, conversations, and live tool results."""
    texts: list[str] = []
    for name in servers:
        with Session([name]) as s:
            texts.extend(json.dumps(t) for t in s.tool_schemas())
    for ex in examples:
        for m in ex.messages:
            d = m.model_dump(mode="json", exclude_none=True)
            texts.append(json.dumps(d))
            if isinstance(d.get("content"), str):
                texts.append(d["content"])
    texts.append("<tool_call>\n{\"name\": \"get_account\", \"arguments\": {\"account_id\": \"ACC-10001\"}}\n</tool_call>")
    return texts


def build_tokenizer(path: Path, texts: list[str], *, chat_template: str = CHATML_TOOLS, vocab_size: int = 3000) -> Any:
    """Train a byte-level BPE on `texts` and save it as a Hugging Face tokenizer at `path`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(texts, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   additional_special_tokens=[])
    fast.add_tokens(TAGS)                       # single tokens, not special (kept when decoding)
    fast.chat_template = chat_template
    fast.padding_side = "left"
    fast.save_pretrained(path)
    return fast


def build_model(path: Path, vocab_size: int, *, seed: int = 0, layers: int = 2, hidden: int = 128) -> Any:
    """A randomly initialised two-layer Qwen2 saved at `path` (fp32)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = Qwen2Config(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=2 * hidden,
                         num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=32768, tie_word_embeddings=True, eos_token_id=None,
                         pad_token_id=None)
    model = Qwen2ForCausalLM(config)
    model.save_pretrained(path)
    return model


def build(path: Path, examples: list[Example], servers: Iterable[str], *, chat_template: str = CHATML_TOOLS,
          model: bool = True, vocab_size: int = 3000) -> tuple[Any, Any]:
    """Tokenizer and (optionally) model in one local directory, usable as a model path."""
    path.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer(path, corpus(examples, servers), chat_template=chat_template, vocab_size=vocab_size)
    built = build_model(path, len(tok)) if model else None
    if built is not None:
        built.config.eos_token_id = tok.convert_tokens_to_ids("<|im_end|>")
        built.config.pad_token_id = tok.pad_token_id
        built.generation_config.eos_token_id = built.config.eos_token_id
        built.generation_config.pad_token_id = built.config.pad_token_id
        built.save_pretrained(path)
    return tok, built
