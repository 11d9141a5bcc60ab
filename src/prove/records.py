"""The records every part of PROVE reads and writes: examples, trajectories, chat messages.

One **example** is one line of the canonical JSONL dataset: the conversation a policy is trained
or evaluated on (`messages`, OpenAI chat form), the tools it is shown (`tools`, OpenAI
function-tool form) and the ground truth (`turns`: per user turn, the gold calls with their
dependency edges). One **trajectory** is what a policy did on an example: `{example_id,
messages}` in the same chat form, or `{example_id, completion}` with raw text holding
`<tool_call>` / `<tool_response>` blocks.

Synthesis writes examples, rollouts write trajectories, the reward reads both; a change to a
record is made here and nowhere else. Validation happens once, when a record is read; hot
paths (the reward) work on the plain dicts afterwards.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from .env.errors import ProveError

__all__ = [
    "AssistantMessage", "Example", "FunctionCall", "FunctionSpec", "GoldCall", "KINDS", "Kind", "Message",
    "Provenance", "RecordError", "SystemMessage", "ToolCall", "ToolMessage", "ToolSchema", "Trajectory",
    "Turn", "UserMessage", "plain", "read_examples", "read_jsonl", "read_trajectories", "write_jsonl",
]

Kind = Literal["multi_turn", "clarification", "abstention", "irrelevance"]
KINDS: tuple[str, ...] = ("multi_turn", "clarification", "abstention", "irrelevance")
"""`multi_turn`: a task solved with tool calls; `clarification`: a required value is missing and
the model must ask before calling; `abstention`: the tools offered cannot do the task;
`irrelevance`: the request is off-topic and must be declined."""

# Text content, or OpenAI content parts such as [{"type": "text", "text": "..."}].
Content = str | list[dict[str, Any]]


class RecordError(ProveError):
    """A record file cannot be read: bad JSON or a record that does not validate (with its line)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    # Chat messages come from many providers, which add keys of their own
    # (`reasoning_content`, `refusal`, ...): they are kept, not rejected.
    model_config = ConfigDict(extra="allow")


# ----- chat messages (OpenAI chat form) ---------------------------------------------------------

class FunctionCall(_Open):
    """`function` of a tool call: the tool's name and its arguments as JSON *text*.

    The text is kept exactly as the model wrote it, malformed or not; a dict given here is
    serialised, so that records always hold the OpenAI form.
    """

    name: str
    arguments: str = "{}"

    @field_validator("arguments", mode="before")
    @classmethod
    def _serialise(cls, value: Any) -> Any:
        if isinstance(value, (dict, list)):
            return json.dumps(value, ensure_ascii=False)
        return value


class ToolCall(_Open):
    """One entry of an assistant message's `tool_calls`."""

    id: str
    type: Literal["function"] = "function"
    function: FunctionCall


class SystemMessage(_Open):
    role: Literal["system"]
    content: Content


class UserMessage(_Open):
    role: Literal["user"]
    content: Content


class AssistantMessage(_Open):
    """An assistant turn: text, tool calls, or both."""

    role: Literal["assistant"]
    content: Content | None = None
    tool_calls: list[ToolCall] | None = None


class ToolMessage(_Open):
    """A tool result: `content` is the JSON result, or `{"error": {code, message, hint}}`."""

    role: Literal["tool"]
    tool_call_id: str
    content: Content
    name: str | None = None


Message = Annotated[SystemMessage | UserMessage | AssistantMessage | ToolMessage, Field(discriminator="role")]


# ----- tools shown to the model ----------------------------------------------------------------

class FunctionSpec(_Strict):
    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})
    strict: bool | None = None


class ToolSchema(_Strict):
    """A tool as the model is shown it (OpenAI function-tool form)."""

    type: Literal["function"] = "function"
    function: FunctionSpec


# ----- ground truth -----------------------------------------------------------------------------

class GoldCall(_Strict):
    """A call the turn requires.

    Gold calls are the *intended* calls, each of which succeeds when the example is replayed;
    a failed attempt the teacher recovered from stays in `messages` only.

    Attributes:
        id: unique within the example, such as 'c1'.
        name: the tool's name as the model calls it.
        arguments: the arguments; keys left out take the tool's defaults.
        after: ids of the calls this one depends on (an earlier output is an input, or an
            earlier write sets up its state), possibly in earlier turns.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    after: list[str] = Field(default_factory=list)


class Turn(_Strict):
    """One user turn: what the user said and the calls it requires (none: ask or decline).

    Attributes:
        user: the user's message.
        calls: the gold calls of the turn.
        advance: seconds of simulated time that pass before the turn (`Session.advance`);
            replay, reward and rollout apply it before the turn's calls.
    """

    user: str
    calls: list[GoldCall] = Field(default_factory=list)
    advance: int = Field(0, ge=0)


class Provenance(_Strict):
    """Where a `Sensitive` value of a gold call first appeared in `messages`."""

    call: str
    argument: str
    message: int = Field(ge=0, description="index in `messages` of the user or tool message")
    source: Literal["user", "tool"]


_LIST_FIELDS = ("servers", "perturbations", "tools", "messages", "turns", "provenance")


class Example(_Strict):
    """One dataset example (one line of the canonical JSONL).

    Attributes:
        id: unique within the dataset.
        servers: the servers of the episode, such as ['banking'].
        world: the world seed; `Session(servers, world=world)` recreates the initial state.
        kind: `multi_turn`, `clarification`, `abstention` or `irrelevance`.
        perturbations: names of the perturbations applied, such as ['distractors'].
        tools: the tools shown to the model (distractors included, enums stripped where perturbed).
        messages: the reference conversation in OpenAI chat form.
        turns: the ground truth, one entry per user turn.
        fingerprint: the state fingerprint after the gold calls.
        provenance: where each sensitive value of a gold call first appeared.
        meta: teacher, chain, information level, seed and the like.
    """

    id: str
    servers: list[str]
    world: int = 0
    kind: Kind = "multi_turn"
    perturbations: list[str] = Field(default_factory=list)
    tools: list[ToolSchema] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)
    turns: list[Turn] = Field(default_factory=list)
    fingerprint: str | None = None
    provenance: list[Provenance] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _lenient(cls, data: Any) -> Any:
        # Records from other tools: an empty object for an empty list, and keys of their own,
        # which are kept in `meta` (what is not a known field is data, not an error).
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for key in _LIST_FIELDS:
            if data.get(key) == {}:
                data[key] = []
        extra = {k: data.pop(k) for k in [k for k in data if k not in cls.model_fields]}
        if extra:
            meta = data.get("meta") or {}
            data["meta"] = {**extra, **meta} if isinstance(meta, dict) else meta
        return data

    @model_validator(mode="after")
    def _check_calls(self) -> Example:
        seen: set[str] = set()
        for turn in self.turns:
            for call in turn.calls:
                if call.id in seen:
                    raise ValueError(f"gold call id {call.id!r} appears twice")
                missing = [dep for dep in call.after if dep not in seen]
                if missing:
                    raise ValueError(f"gold call {call.id!r} depends on {missing}, which are not earlier calls")
                seen.add(call.id)
        if seen and self.kind in ("abstention", "irrelevance"):
            raise ValueError(f"a {self.kind} example has no gold calls")
        return self

    def gold_calls(self) -> list[GoldCall]:
        """Every gold call of every turn, in order."""
        return [call for turn in self.turns for call in turn.calls]

    def tool_names(self) -> list[str]:
        return [tool.function.name for tool in self.tools]


class Trajectory(_Strict):
    """What a policy did on an example: chat `messages`, or a raw text `completion`.

    `messages` is the whole episode in the example's chat form (every assistant message in it
    is the policy's); `completion` is raw model text with `<tool_call>` blocks and, where the
    environment answered, `<tool_response>` blocks.

    Attributes:
        example_id: the `id` of the example it was run on.
        messages: the episode in OpenAI chat form.
        completion: the raw text instead of messages.
        reward: the score with its breakdown, written by `prove reward score`.
        meta: anything the producer wants to keep (model, sampling settings, timings).
    """

    example_id: str
    messages: list[Message] | None = None
    completion: str | None = None
    reward: dict[str, Any] | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_form(self) -> Trajectory:
        if (self.messages is None) == (self.completion is None):
            raise ValueError("a trajectory holds exactly one of `messages` and `completion`")
        return self


# ----- JSONL -------------------------------------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


def _open_text(path: str | Path, mode: str) -> io.TextIOBase:
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8")  # type: ignore[return-value]
    return open(path, mode, encoding="utf-8")  # noqa: SIM115 - returned to a context manager


def read_jsonl(path: str | Path, model: type[M] | None = None) -> Iterator[Any]:
    """Yield the records of a JSONL file (`.gz` too), validated as `model` when given.

    Blank lines are skipped. A bad line raises `RecordError` naming the file and line.
    """
    with _open_text(path, "r") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError as exc:
                raise RecordError(f"{path}:{lineno}: not JSON: {exc}") from exc
            if model is None:
                yield data
                continue
            try:
                yield model.model_validate(data)
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(p) for p in first["loc"]) or "record"
                raise RecordError(f"{path}:{lineno}: invalid {model.__name__}: {where}: {first['msg']}"
                                  f" ({exc.error_count()} error(s))") from exc


def write_jsonl(path: str | Path, records: Iterable[BaseModel | dict[str, Any]]) -> int:
    """Write records one per line (`.gz` too); returns how many were written."""
    n = 0
    with _open_text(path, "w") as fh:
        for record in records:
            data = record.model_dump(mode="json", exclude_none=True) if isinstance(record, BaseModel) else record
            fh.write(json.dumps(data, ensure_ascii=False) + "\n")
            n += 1
    return n


def read_examples(path: str | Path) -> list[Example]:
    """A whole dataset, validated; duplicate ids are an error."""
    examples = list(read_jsonl(path, Example))
    seen: set[str] = set()
    for ex in examples:
        if ex.id in seen:
            raise RecordError(f"{path}: example id {ex.id!r} appears twice")
        seen.add(ex.id)
    return examples


def read_trajectories(path: str | Path) -> Iterator[Trajectory]:
    return read_jsonl(path, Trajectory)


def content_text(content: Any) -> str:
    """The text of a message's `content`: the string itself, or the `text` of each part of a list
    of content parts (OpenAI's `[{"type": "text", "text": ...}]`) joined; '' for anything else."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def plain(value: Any) -> Any:
    """A record's value as it arrives from a dataset's columns (numpy arrays and scalars, as Parquet
    and Arrow give them to trainers, and tuples) as plain JSON-able Python values, recursively."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return plain(tolist())
    return value
