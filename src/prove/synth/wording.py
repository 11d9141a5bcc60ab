"""Wording for the programmatic teacher: system prompts, user turns, assistant replies.

User requests come from each tool's `asks` phrasings; this module composes them into turns
(connectors, personas, follow-up openers, clauses for values a phrasing has no slot for) and
writes the assistant's side (short prefaces, summaries of results, clarification questions,
graceful refusals) with variety, every choice drawn from the example's RNG.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from ..env import Param, Server, Tool
from ..env.asks import words_in
from ..env.values import spoken_day
from .results import describe, unsnake
from .values import human

__all__ = ["OFF_TOPIC", "PERSONAS", "Persona", "Wording", "kept_to", "system_prompt", "window_said"]



class Persona:
    def __init__(self, name: str, greet: Sequence[str], close: Sequence[str], please: float) -> None:
        self.name = name
        self.greet = greet
        self.close = close
        self.please = please


PERSONAS = [
    Persona("terse", [""], ["", ""], 0.0),
    Persona("polite", ["Hello.", "Hi there.", "Good morning.", "Good afternoon.", "Hello there.", "Good evening.",
                       "Hi, hope you're well.", "Hello, thanks for helping.", "", "", "", ""],
            ["Thank you.", "Thanks in advance.", "", "Much appreciated."], 0.5),
    Persona("casual", ["Hey!", "Hi!", "Hey there,", "Heya,", "Morning!", "Hiya.", "Yo,", "Okay so", "Hey, quick thing:",
                       "", "", ""],
            ["Thanks!", "Cheers.", "", "Ta."], 0.2),
    Persona("busy", ["Quick one:", "Need a hand:", "Real quick:", "Quick favor:", "When you get a sec:", "ASAP:",
                     "Short one:", "", "", ""],
            ["", "Thanks."], 0.0),
    Persona("detailed", ["Hi, I hope you can help.", "Hello, I need some help with a few things.",
                         "Morning, I have a couple of things to sort out.", "Hey, could you help me out?",
                         "Hello! Hoping you can take care of something for me.", "I have a few things today.",
                         "Could you help me with something?", "Thanks for being here.", "", ""],
            ["Thanks for your help.", "I appreciate it.", "Thanks so much."], 0.3),
]

_UNQUOTED_TAIL = re.compile(r": (?!.*['\"][.!?]?$).+$", re.DOTALL)  # (words to send may run over lines)
FOLLOW_UP = ["Thanks. ", "Great, thanks. ", "OK. ", "Perfect. ", "Got it. ", "Thanks! ", "Alright. ", "",
             "Nice. ", "Thank you. "]
FOLLOW_UP_NEXT = ["", "", "Now ", "Next, ", "One more thing: ", "Also, ", "And "]
THEN = ["Then ", "After that, ", "Once that's done, ", "Then please ", "Next, "]
ALSO = ["Also, ", "And ", "Plus, ", "Oh, and "]
# Request words that name no field of a result.
_NOT_FIELDS = {"show", "tell", "what", "which", "when", "where", "does", "have", "with", "from", "about", "there",
               "list", "give", "find", "their", "them", "they", "this", "that", "much", "many", "every", "still",
               "right", "now", "please", "could", "would", "your", "mine", "need", "know", "want", "look", "check"}
PREFACES = ["Let me check that.", "Let me look that up.", "One moment.", "Let me pull that up.", "Checking now."]
PREFACES_WRITE = ["I'll take care of that.", "One moment.", "Sure, let me do that.", "On it."]
RETRY = ["That call failed ({code}); let me correct it and try again.",
         "I made a mistake in that request ({code}). Retrying with the right arguments.",
         "The tool rejected that ({code}). Fixing the arguments.", "Let me fix that and retry."]
ANOTHER = ["That didn't work ({code}). Let me look up the right ID first.",
           "I need the exact ID for that; let me look it up.",
           "The lookup failed ({code}); I'll find the right ID with another tool."]
DONE = ["Done.", "All set.", "That's done.", "Finished.", "Here you go.", "OK."]
FOUND = ["Here's what I found:", "Here are the results:", "This is what I see:", "I found the following:"]
CANT = ["I couldn't complete that: {message}", "That didn't go through: {message}",
        "I wasn't able to do that. {message}", "Unfortunately that failed: {message}"]
ANSWERS = ["{Value}.", "I mean {value}.", "Sorry, {value}.", "{Value}, please.", "Oh, {value}.",
           "It's {value}.", "The one I meant is {value}.", "{Value}, sorry for not saying."]
QUESTIONS = ["Which {noun} do you mean?", "Sure. Which {noun} is it?", "Which of the {nouns} should I use?",
             "I can do that. Which {noun} are you talking about?", "Could you tell me which {noun}?"]
# Arguments that order a listing, not narrow it; the first words of a state said after its noun.
_ORDER_PARAMS = frozenset({"sort", "sort_by", "order", "order_by", "direction"})
_AFTER_NOUN = frozenset({"under", "out", "due", "in", "on", "at", "over", "past", "awaiting", "waiting", "pending"})
_TOOL_NAME = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a hint that names a tool is for the model, not the user
QUESTIONS_LEFT_OUT = ["Which {noun} should I use?", "Which of the {nouns} should I use?", "Which {noun} should it be?"]
# "the ID", not "its ID": the thing may be a person ("I can't look up James Davis by name here").
QUESTIONS_HIDDEN = ["I can't look up {thing} by name here. Could you give me the {id_word}?",
                    "I don't have a way to search for {thing}. Could you tell me the {id_word}?"]
VAGUE = ["one of the {nouns}", "a {noun}"]  # never "my": the user may not own it (a spam post)
ABSTAIN = ["I'm sorry, but I can't do that with the tools I have here.",
           "Unfortunately that's not something I can do: none of my tools does that.",
           "I can't help with that one; I don't have a tool for it here.",
           "That's not something I'm able to do here, sorry.",
           "I'm afraid I have no way to do that with what I can access."]
DECLINE = ["Sorry, I can't help with that here. I can only help with your {domain}.",
           "That's outside what I can do: I'm set up to help with your {domain}.",
           "I'm afraid I can't help with that request; I can only assist with your {domain}.",
           "I can't answer that one. I'm here for your {domain}, if there's anything you need there."]

OFF_TOPIC = [
    "What's the capital of Australia?", "Can you write me a short poem about the ocean?",
    "How many calories are in a banana?", "Who won the football world cup in 2010?",
    "Translate 'good morning' into Japanese.", "What's a good recipe for banana bread?",
    "Explain quantum entanglement in simple terms.", "Tell me a joke about programmers.",
    "What time is sunset in Lisbon today?", "How do I fix a leaking kitchen faucet?",
    "Recommend a sci-fi novel for the weekend.", "What's the difference between a crocodile and an alligator?",
    "Help me write a cover letter for a barista job.", "How far is the moon from the earth?",
    "What are the rules of chess castling?", "Can you summarize the plot of Hamlet?",
    "Which houseplants are safe for cats?", "What's the best way to learn Spanish fast?",
    "Solve 17 times 23 for me.", "How do I change a flat tire?", "Who painted the Mona Lisa?",
    "What's the weather usually like in Iceland in May?", "Suggest a name for my new puppy.",
    "How long should I boil an egg for a soft yolk?", "Write a haiku about autumn leaves.",
    "What's the tallest mountain in Africa?", "How does a rainbow form?",
    "Give me three ideas for a birthday party theme.", "Is it better to stretch before or after running?",
    "What does 'carpe diem' mean?", "Plan a 3-day itinerary for Rome.", "How do vaccines work?",
    "What's the population of Canada?", "Can you help me with my chemistry homework on moles?",
    "Which programming language should I learn first?", "How do I get red wine out of a carpet?",
    "What's the origin of Halloween?", "Write a limerick about a cat.", "How do solar panels work?",
    "What's the best board game for four players?",
]
OFF_TOPIC_OPEN = ["", "", "Random question: ", "Hey, ", "Quick question: ", "Off topic, but ", "Hi! "]


_KIND_KEYS = ("category", "device_type", "cuisine")  # an option that says what the things are: "no cafes"
# Entries of an activity log kept to one kind, by that kind's own name: "no dividends", "no calls".
_ACTIVITY_KINDS = {"call": "calls", "meeting": "meetings", "task": "tasks", "email": "emails", "dividend": "dividends",
                   "deposit": "deposits", "withdrawal": "withdrawals", "interest": "interest payments", "buy": "purchases",
                   "sell": "sales", "transfer_in": "transfers in", "transfer_out": "transfers out"}


# Boolean filters that keep a listing to one state, said before the noun when it found nothing.
_STATE_FILTERS = frozenset({"open", "unread", "starred", "active", "scheduled", "pending"})


def _plural(noun: str) -> str:
    if noun.endswith("person"):
        return noun[:-6] + "people"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def _one_stop(text: str) -> str:
    """A sentence ends once: "Eggs & Co..", "the message 'Looking into it.'." end at the first stop."""
    text = re.sub(r"(?<!\.)\.\.(?!\.)", ".", text)
    return re.sub(r"([.!?])'\.(?=\s|$)", r"\1'", text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _lower_first(text: str) -> str:
    """Lower the first letter of a sentence that goes on after a connector."""
    if len(text) > 1 and text[0].isupper() and not text[1].isupper() and not text.startswith(("I ", "I'")):
        return text[0].lower() + text[1:]
    return text


_IMPERATIVE = frozenset(
    "show list send add create cancel delete remove move set turn book pay transfer freeze unfreeze find search make "
    "put give mark update change schedule open close start stop get tell reply forward post share rename archive "
    "block unblock follow unfollow invite accept decline reserve order buy withdraw apply lock unlock mute unmute save "
    "copy extract check read pin unpin star flag assign log record reopen restore empty lower raise dim switch "
    "upload download submit request approve reject cash top add plan close merge label tag email call text "
    "remind note leave join end admit edit write rate review comment like report link unlink void refund".split())


# The part of the day a greeting names, as the hours it fits: no "Good evening" at 9 AM.
_DAYPARTS = {"morning": range(4, 12), "afternoon": range(12, 18), "evening": range(17, 24)}


def _fits_hour(greeting: str, now: datetime | None) -> bool:
    if now is None:
        return True
    return all(now.hour in hours for part, hours in _DAYPARTS.items() if part in greeting.lower())


def _first_word(text: str) -> str:
    return text.split(maxsplit=1)[0].lower().strip(",.:;!") if text.split() else ""


def _imperative(text: str) -> bool:
    return _first_word(text) in _IMPERATIVE


_LEADS = {"every", "starting", "in", "at", "on", "new", "from", "before", "after", "by", "when", "if"}
_MOTIVE = re.compile(r"^[^,;]+, (?:please )?(\w+)")


def _motive(text: str) -> bool:
    """A request led by why ("I don't owe that, turn down the request"): it joins as a new thought
    ("Oh, and ..."), never as a next step ("After that, I don't owe that, ...")."""
    first = _first_word(text)
    found = _MOTIVE.match(text)
    return (found is not None and found.group(1).lower() in _IMPERATIVE and first not in _IMPERATIVE
            and first not in _LEADS)


def system_prompt(server: Server, now: datetime, rng: random.Random) -> str:
    """The system message of a conversation: the server, the date, how to behave."""
    when = now.strftime("%A %Y-%m-%d %H:%M")
    options = [
        f"You are the {server.title} assistant. {server.description} Today is {when}. Use the tools to act "
        "for the signed-in user; ask when a required detail is missing, and say so when a request is "
        "outside what the tools can do.",
        f"You help the user with {server.title}. Current date and time: {when}. Call tools to look things up "
        "and make changes; never make up IDs or values. If something needed is missing, ask the user first.",
        f"{server.description}\n\nYou are a careful assistant with access to the tools below. It is {when}. "
        "Only use information from the user or from tool results. Decline requests the tools cannot serve.",
        f"Assistant for {server.title}. Date: {when}. Help the user by calling the available functions. "
        "Ask a clarifying question when a required value is unknown.",
    ]
    return rng.choice(options)


_KEPT_TO = re.compile(r"\bonly [\w ]*?\b((?:(?:\w+ed|made|usable) )?(?:at|from|to|on|about|with|in)) (?:this|these)\b")
_WENT = {"incoming": "from", "received": "from", "outgoing": "to", "sent": "to"}  # the way a member's money went


def kept_to(param: Param, args: Mapping[str, Any]) -> str:
    """The words before a thing a listing kept to, as its parameter's description says them ("only purchases
    at this store": "no purchases at Harbor Supply Co. Westside", "only issues assigned to this user": "no
    issues assigned to Chloe Davis"); with a member, the way the money went ("no incoming requests from
    Aisha Phillips"); what a search was around, "near" it; a folder, "in" it; else "for" (of a thing named two
    ways: "from or to this account")."""
    if re.search(r"\b(?:around|near) this\b", param.description):
        return "near"  # "no open cafes near Juniper Climbing Gym"
    if re.match(r"(?:ID of )?the (?:folder|channel)\b", param.description):
        return "in"  # "no unread messages in the Drafts folder"
    found = _KEPT_TO.search(param.description)
    if found is None or re.search(r" or \w+ (?:this|these)\b", param.description):
        return "for"
    if found.group(1) == "with":
        return _WENT.get(str(args.get("direction")), "with")
    return found.group(1)


_SINCE = {"start_date": "since", "since": "since", "after": "after"}
_UNTIL = {"end_date": "until", "until": "until", "before": "before"}


def window_said(args: Mapping[str, Any], today: date) -> str | None:
    """The days a listing kept to, in words: "since January 1", "between December 1, 2025 and
    February 15", "in February 2026" (a month); None where it kept to no days."""
    def day(keys: Mapping[str, str]) -> tuple[str, str] | None:
        key = next((k for k in keys if isinstance(args.get(k), str) and re.match(r"\d{4}-\d\d-\d\d", args[k])), None)
        return (keys[key], spoken_day(args[key], today)) if key else None
    start, end = day(_SINCE), day(_UNTIL)
    if start and end:
        return f"between {start[1]} and {end[1]}"
    if start or end:
        return " ".join(start or end)
    month = args.get("month")
    if isinstance(month, str) and re.fullmatch(r"\d{4}-\d\d", month):
        return f"in {date.fromisoformat(month + '-01'):%B %Y}"
    return None


def listed_noun(tool: Tool | None) -> str | None:
    """What a listing tool lists, by its name: `list_tasks` lists tasks (its result holds
    "activities"), `list_contacts` contacts (of "users"), `list_blocked_accounts` blocked accounts."""
    if tool is None or not tool.name.startswith("list_"):
        return None
    rest = tool.name.removeprefix("list_").removeprefix("my_")
    return rest.replace("_", " ") if rest.endswith("s") and not rest.endswith("ss") else None


class Wording:
    """Sentence composition for one conversation (persona and RNG fixed)."""

    def __init__(self, rng: random.Random, persona: Persona | None = None, now: datetime | None = None) -> None:
        self.rng = rng
        self.persona = persona or rng.choice(PERSONAS)
        self.now = now

    def pick(self, options: Sequence[str]) -> str:
        return self.rng.choice(list(options))

    # ----- system ------------------------------------------------------------------------------

    # ----- user --------------------------------------------------------------------------------

    def join_requests(self, parts: Sequence[str], names_first: Sequence[bool] = ()) -> str:
        """Requests joined as one message; a request that starts with a name keeps its capital."""
        out = ""
        for i, part in enumerate(parts):
            part = part.strip()
            if i == 0:
                out = part
                continue
            if out[-1:].isalnum():  # a request that ends on a value ("signature to: -- Alex") ends its sentence
                out += "."
            if parts[i - 1].rstrip().endswith("?") or part.endswith("?") or _motive(part):
                opener = self.pick(ALSO)  # "Oh, and I don't owe that, turn it down", not "After that, I don't owe that"
            else:  # "Then please the deal is signed!" reads wrong: "please" leads only a request, and one
                # that has no "please" of its own ("Then please get the engine running, please.")
                opener = self.pick(THEN if _imperative(part) and "please" not in part.lower()
                                   else [t for t in THEN if "please" not in t])
            keep = i < len(names_first) and names_first[i]
            out += " " + opener + (part if keep else _lower_first(part))
        return out

    def user_turn(self, requests: Sequence[str], turn: int, names_first: Sequence[bool] = ()) -> str:
        parts = list(requests)
        keep = list(names_first) + [False] * (len(parts) - len(names_first))
        p = self.persona
        if parts and self.rng.random() < p.please and not keep[0] and _imperative(parts[0]) \
                and not any("please" in r.lower() for r in parts):
            # "Please" leads an imperative: a trailing ", please." would eat the period of a value.
            parts[0] = "Please " + _lower_first(parts[0])
        body = self.join_requests(parts, keep)
        if turn == 0:
            greet = self.pick([g for g in p.greet if _fits_hour(g, self.now)])
            if greet:
                ends = greet.rstrip()[-1:] in ".!?"
                body = f"{greet} {body if ends or keep[0] else _lower_first(body)}"
        else:
            opener = self.pick(FOLLOW_UP) + self.pick(FOLLOW_UP_NEXT)
            if opener:
                lower = opener.rstrip()[-1:] not in ".!:" and not (keep and keep[0])
                body = opener + (_lower_first(body) if lower else body)
        close = self.pick(p.close)
        # Words to send said after a colon ("say: Thanks, noted!", "signature to: Cheers.") run to the end of
        # the turn: a closing after them would read as part of them; nor does a turn that ends in the closing
        # take it again.
        if close and self.rng.random() < 0.5 and not _UNQUOTED_TAIL.search(parts[-1] if parts else "") \
                and not re.search(rf"\b{re.escape(close.rstrip('.!'))}[.!]*$", body.rstrip()):
            body = f"{body.rstrip()}{'.' if body.rstrip()[-1:].isalnum() else ''} {close}"  # "Note: X. Thanks."
        elif body.rstrip()[-1:].isalnum():  # "..., described as: Runs, rides and gym sessions." ends as a sentence
            body = body.rstrip() + "."
        return _cap(body.strip())

    def answer(self, value: str) -> str:
        """The user's answer to a clarification question: the thing they meant, named."""
        template = self.pick(ANSWERS)
        # a username keeps its case: "santosoutdoors's offer", "sramirez94" (the user's "me" is none: "Me, please.")
        handle = value != "me" and re.match(r"[a-z0-9_.]+(?:'s\b|$)", value)
        return _one_stop(template.format(value=value, Value=value if handle else _cap(value)))

    def vague(self, noun: str) -> str:
        """An entity named only by its kind, for a request that leaves it open."""
        return self.pick(VAGUE).format(noun=noun, nouns=_plural(noun))

    def off_topic(self) -> str:
        opener = self.pick(OFF_TOPIC_OPEN)
        question = self.pick(OFF_TOPIC)
        return opener + (_lower_first(question) if opener.rstrip().endswith(",") or opener.endswith("but ") else question)

    # ----- assistant ---------------------------------------------------------------------------

    def preface(self, write: bool = False) -> str | None:
        """A short word before calls: "Let me look that up." before reads, "On it." before writes."""
        return self.pick(PREFACES_WRITE if write else PREFACES) if self.rng.random() < 0.25 else None

    def retry(self, code: str, another: bool = False) -> str | None:
        if self.rng.random() < 0.25:
            return None
        return self.pick(ANOTHER if another else RETRY).format(code=unsnake(code))  # "(invalid arguments)"

    def question(self, noun: str, *, hidden: bool = False, id_word: str = "ID", thing: str | None = None,
                 left_out: bool = False) -> str:
        """A clarification question that asks for exactly the missing thing, in plain words: the
        ID, or what the thing is known by where that is no ID (a file's path); with the lookups
        hidden it names the thing it cannot look up (`thing`: "the Bills Checking account");
        for a thing the request `left_out`, which one to use (not "which do you mean")."""
        pool = QUESTIONS_HIDDEN if hidden else QUESTIONS_LEFT_OUT if left_out else QUESTIONS
        return _one_stop(self.pick(pool).format(noun=noun, nouns=_plural(noun), id_word=id_word,
                                                thing=thing or f"that {noun}"))

    def abstain(self, tool: Tool, server: Server) -> str:
        """The assistant cannot serve the request: said plainly, never by quoting a tool's description."""
        return self.pick(ABSTAIN)

    def decline(self, server: Server, examples: Sequence[Tool]) -> str:
        domain = " ".join(w if w.isupper() else w.lower() for w in server.title.split())  # "sales CRM"
        return self.pick(DECLINE).format(domain=domain)

    def failure(self, error: Mapping[str, Any]) -> str:
        """What the assistant says of a call that failed: the tool's message, its times as people say them
        ("scheduled for March 16 at 11:00 AM", not "2026-03-16T11:00:00"), and at times its hint."""
        message = re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?\b", lambda m: human(m.group(0)),
                         str(error.get("message", "the tool returned an error.")))
        hint = error.get("hint")
        text = self.pick(CANT).format(message=message)
        if hint and self.rng.random() < 0.6 and not _TOOL_NAME.search(hint):  # never "... with add_to_cart"
            text += f" {hint}"
        return text

    def nothing(self, data: Any, tool: Tool | None = None, args: Mapping[str, Any] | None = None,
                named: Sequence[str] = ()) -> str:
        """What a reading that found nothing says: the result's own words ("no comments yet"), else
        the empty list by name, the states the call asked for and the things it kept to (`named`, each
        with its word, see `kept_to`: "I found no open disputes.", "There are no scheduled payments to
        Progressive."), so that a reply of several parts says which."""
        if isinstance(data, Mapping):
            said = next((v for k, v in data.items() if k in ("said", "answer") and isinstance(v, str) and v), None)
            if said:
                return said[:1].upper() + said[1:].rstrip(".") + "."
            noun = next((listed_noun(tool) or k.replace("_", " ") for k, v in data.items()
                         if isinstance(v, list) and not v), None)
            if noun:
                props = tool.parameters.get("properties", {}) if tool is not None else {}
                # (an order to sort by is no kind of thing: "no Vietnamese restaurants", not "... delivery time")
                options = {k: v.replace("_", " ") for k, v in (args or {}).items()
                           if isinstance(v, str) and "enum" in props.get(k, {}) and k not in _ORDER_PARAMS}
                kind_key = next((k for k in options if k in _KIND_KEYS), None)
                kind = options.get(kind_key) if kind_key else None
                if kind_key == "cuisine":  # "no Mediterranean restaurants", "no restaurants serving burgers"
                    noun = f"{kind} {noun}" if kind.endswith(("an", "ese", "ai", "ish", "ic")) \
                        else f"{noun} serving {kind.lower()}"
                elif kind is not None:  # "no cafes", not "no cafe places"
                    noun = _plural(kind)
                entries = (args or {}).get("kind")
                if noun == "activities" and entries in _ACTIVITY_KINDS:  # "no dividends", not "no dividend activities"
                    noun, options = _ACTIVITY_KINDS[entries], {k: v for k, v in options.items() if k != "kind"}
                states = [v for k, v in options.items() if k not in _KIND_KEYS or kind is None]
                # a state the call kept to: "no open bookstores" of "is there a bookstore open right now?"
                states = [w for k, v in (args or {}).items()
                          if v is True and (w := k.rsplit("_", 1)[0]) in _STATE_FILTERS and w not in states] + states
                # "no open disputes", "no report update notifications"; a state said as a phrase after:
                # "no orders out for delivery", "no service reminders due soon"
                after = " ".join(w for w in states if w.split()[0] in _AFTER_NOUN and " " in w)
                before = " ".join(w for w in states if not (w.split()[0] in _AFTER_NOUN and " " in w))
                ticker = (args or {}).get("ticker")  # "no AAPL positions", not "no positions" for "how much AAPL"
                if isinstance(ticker, str) and ticker.isupper():
                    before = f"{before} {ticker}".strip()
                    named = [n for n in named if not n.endswith(f" {ticker}")]  # said once: "no NVDA activities"
                noun = " ".join(w for w in (before, noun, after, *named) if w)
                return self.pick(["I found no {n}.", "There are no {n}.", "No {n} came up."]).format(n=noun)
        return self.pick(["I found nothing matching that.", "There are no results for that.", "Nothing came up."])

    def summary(self, tool: Tool | None, data: Any, cite: Sequence[str] = (), opener: bool = True,
                args: Mapping[str, Any] | None = None, asked: str = "", named: Sequence[str] = ()) -> str:
        """A short report of what a read found, naming every ID in `cite`; `opener` starts it with
        "Here's what I found:" (the first account of a reply). A field the call sorted by, or one
        the request's words name (`asked`, the phrasing), is said first; `named` are the things the
        call kept to, said of a listing that found nothing."""
        stress = [v for k, v in (args or {}).items() if k in ("sort", "sort_by", "order_by") and isinstance(v, str)]
        listed = {k.split("_")[-1] for k in (tool.produces if tool is not None else ())}  # "find me a store": a store's every field has it
        # (a word of a filter the call set is what the listing holds, not a figure asked for: "my unread
        # notifications" with unread_only=true is not "4 notifications (13 unread)")
        filters = {w for k, v in (args or {}).items() if v is True for w in k.split("_")}
        stress += [w for w in words_in(asked) if len(w) > 3 and w not in _NOT_FIELDS and w.rstrip("s") not in listed
                   and w not in filters]
        if "how many" in asked.lower():
            stress.append("count")  # "how many tickers are on each?": each one's count
        if re.search(r"\bIDs?\b", asked):
            stress.append("id")  # "what's the person ID for Emma Walker?": the record's own ID
        asked_for = (args or {}).get("limit")  # "my last 20 transactions": as many as asked, up to 20
        shown = asked_for if isinstance(asked_for, int) and 5 < asked_for <= 20 else 5
        if re.search(r"\beach\b", asked):  # "how many unread emails are in each of my folders?": every one
            shown = 15
        given = [v for v in (args or {}).values() if isinstance(v, str)]
        facts = describe(data, cite, limit=shown, stress=stress, noun=listed_noun(tool), given=given)
        if not facts:
            return self.nothing(data, tool, args, named)
        if opener:
            count = re.match(r"(\d[\d,]*) ", facts)
            if count:  # "I found 32 events: ...", not "I found the following: 32 events: ..."
                return f"{self.pick(['I found', 'There are'] if count.group(1) != '1' else ['I found'])} {facts}"
            return f"{self.pick(FOUND)} {facts}"
        first = facts.split(" ", 1)[0]
        return facts if re.search(r"[\d_.@]", first.rstrip(":;,")) else facts[:1].upper() + facts[1:]  # a handle as it is
