"""Markers that tools and servers use to describe themselves: effects, entities, sensitivity."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated, Any

from .errors import ToolDefinitionError


class Effect(str, enum.Enum):
    """Whether a tool only reads state or may change it."""

    READ = "read"
    WRITE = "write"


READ = Effect.READ
WRITE = Effect.WRITE


@dataclass(frozen=True, slots=True)
class Entity:
    """`Annotated[str, Entity("account")]`: the value refers to an entity of that kind.

    `where` narrows the kind for one parameter with an SQL condition on the kind's table, such as
    "type = 'light'" for a tool that only dims lights: the sampler offers only matching rows. It
    replaces the kind's `live` condition (unarchiving takes archived channels) and may use `:now`
    and `:today` like it.
    """

    kind: str
    where: str | None = None


@dataclass(frozen=True, slots=True)
class Sensitive:
    """`Annotated[str, Sensitive()]`: a secret (PIN, password, token, card number).

    A sensitive value may appear in a call only if it appeared earlier in a user turn or a tool
    output; synthesis validation checks that provenance.
    """


NAMINGS = ("noun", "alone", "article", "before")


@dataclass(frozen=True, slots=True)
class EntityKind:
    """A kind of entity a server declares once: where it lives and how a person names it.

    Attributes:
        name: the kind, as used in `Entity(name)`.
        table: the table holding one row per entity.
        key: the column holding the entity's ID.
        label: a column a person would use to name it (a name, a title), if any.
        description: one line saying what the entity is.
        live: an SQL condition on the table selecting the rows that are usable now, such as
            "status = 'active'" or "expires_on >= :today" (`:now` and `:today` are the
            episode's simulated time as ISO text); the sampler offers only those. None: every row.
        lister: the tool a model calls to find these entities, named in `not_found` hints;
            None: the best visible read tool that outputs them (see `Server.lister`).
        noun: what a person calls one, such as 'card' or 'email'; None: the kind's name as words.
        public_id: whether people quote these IDs themselves (order numbers, confirmation
            codes, ticket keys); otherwise a user names the entity by its label or description.
        naming: how a label is said. "noun" (the default): with the noun, "the Main Checking
            account"; "alone": a proper name said by itself, as of a business, a place or a code
            ("Sushi Moore", "Seattle", "BOS"); "article": a thing's name with "the", and no noun
            ("the Electric Kettle 1.7 L"); "before": an option-like label before the noun, in
            words ("the like notification", "the follow accepted notification").
        noun_from: a column whose value is the noun for that row (a drive item is a "file" or a
            "folder"); None: `noun` for every row.
        nouns: what rows of one `noun_from` value are called where that is not the value itself,
            as (value, noun) pairs: a payments member who is a 'person' is a "friend".
        part_of: a column holding the ID of what this entity is part of, said with it where its
            own name says little ("the Standard variant of the Patagonia Rain Jacket").
        phrases: how rows of one `noun_from` value are said, as (value, template with
            `{label}`) pairs: a direct-message channel is "the DM with {label}", not "the Camila
            Williams channel".
        stands_for: a column holding the ID of the named entity this one stands for, said as
            that one: a meeting's participant is the person ("let Alice Roberts in"), not
            "participant PRT-10261".
        links: the words before what a row links to, as (column, words) pairs, where a row is told
            apart from others of its name by it and "from" would misread it: a deal is "with" its
            contact ("the deal 'Renewal' with Chloe Singh", not notes from Chloe Singh), a note
            "by" its author.
    """

    name: str
    table: str
    key: str
    label: str | None = None
    description: str = ""
    live: str | None = None
    lister: str | None = None
    noun: str | None = None
    public_id: bool = False
    naming: str = "noun"
    noun_from: str | None = None
    nouns: tuple[tuple[str, str], ...] = ()
    part_of: str | None = None
    phrases: tuple[tuple[str, str], ...] = ()
    stands_for: str | None = None
    links: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.naming not in NAMINGS:
            raise ToolDefinitionError(f"entity kind {self.name!r}: naming must be one of {', '.join(NAMINGS)}, "
                             f"not {self.naming!r}")

    @property
    def words(self) -> str:
        """What a person calls one of these: `noun`, or the kind's name as words."""
        return self.noun or self.name.replace("_", " ")

    @property
    def id(self) -> Any:
        """The type of a parameter or field that refers to this kind: `Annotated[str, Entity(name)]`."""
        return Annotated[str, Entity(self.name)]

    def where(self, condition: str) -> Any:
        """The ID type of a subset of this kind, such as `DEVICE.where("type = 'light'")`."""
        return Annotated[str, Entity(self.name, condition)]
