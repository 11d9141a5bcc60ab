"""Bridges and shared worlds: several servers of one episode agree where they meet."""

from __future__ import annotations

import pytest

from prove.env import Session, ToolDefinitionError, registry
from prove.env.bridges import Bridge, align, bridges, bridges_among
from prove.env.combined import combine
from prove.env.state import read_tables

TRIPLE = ["crm", "email", "calendar"]


def _servers(names: list[str]) -> list:
    return [registry.get(n) for n in names]


def _bridge(source: str, target: str) -> Bridge:
    return next(b for b in bridges() if b.source == source and b.target == target)


def test_the_same_person_in_three_servers() -> None:
    """A CRM contact is a mailbox contact and a calendar person: same name, same address, and each
    server's own search finds them by the address the CRM shows. In the calendar they are an
    outside person (a customer is no colleague) with their CRM title and their account's company."""
    alignment = align(_servers(TRIPLE), 0)
    to_email = alignment.partner_map(_bridge("crm.contact", "email.contact"))
    to_calendar = alignment.partner_map(_bridge("crm.contact", "calendar.person"))
    common = sorted(set(to_email) & set(to_calendar))
    assert len(common) >= 5
    with Session(TRIPLE, world=0) as s:
        for contact_id in common[:5]:
            crm = s.call("get_contact", {"contact_id": contact_id})
            assert crm.ok, crm.error
            name, address = crm.data["full_name"], crm.data["email"]
            mail = s.call("search_contacts", {"query": address})
            assert [(c["contact_id"], c["name"]) for c in mail.data["contacts"]] == [(to_email[contact_id], name)]
            people = s.call("search_people", {"query": address})
            assert [(p["person_id"], p["name"]) for p in people.data["people"]] == [(to_calendar[contact_id], name)]
            (person,) = people.data["people"]
            assert person["is_colleague"] is False
            assert (person["job_title"], person["company"]) == (crm.data["title"], crm.data["account_name"])


def test_replaced_values_are_rewritten_everywhere_in_the_target() -> None:
    """An address a contact gave up appears nowhere in the shared mailbox, and the mail that came
    from that contact now comes from the CRM's address: the target world stays consistent."""
    email = registry.get("email")
    own = email.template(0).db
    shared = align(_servers(["crm", "email"]), 0)
    db = shared.templates["email"].db
    pairs = shared.partner_map(_bridge("crm.contact", "email.contact"))
    moved = 0
    for contact_id in pairs.values():
        (old,) = own.execute("SELECT email FROM contacts WHERE contact_id = ?", (contact_id,)).fetchone()
        (new,) = db.execute("SELECT email FROM contacts WHERE contact_id = ?", (contact_id,)).fetchone()
        if old == new:
            continue
        sent_before = own.execute("SELECT count(*) FROM messages WHERE from_address = ?", (old,)).fetchone()[0]
        for meta in read_tables(db).values():
            for column in meta.columns:
                hits = db.execute(f'SELECT count(*) FROM "{meta.name}" WHERE instr("{column}", ?) > 0', (old,))
                assert hits.fetchone()[0] == 0, (old, meta.name, column)
        assert db.execute("SELECT count(*) FROM messages WHERE from_address = ?", (new,)).fetchone()[0] >= sent_before
        moved += 1
    assert moved >= 10
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_single_server_world_is_untouched() -> None:
    """One server's episode never sees a shared world, before or after one was built."""
    email = registry.get("email")
    before = email.template(0)
    with Session(["email"], world=0) as alone:
        fingerprint = alone.fingerprint()
    align(_servers(["crm", "email"]), 0)
    assert email.template(0) is before
    with Session(["email"], world=0) as alone, Session(["crm", "email"], world=0) as both:
        assert alone.fingerprint() == fingerprint
        assert alone.call("search_contacts", {}).data != both.call("search_contacts", {}).data


def test_shared_worlds_are_deterministic_and_cached() -> None:
    servers = _servers(["food_delivery", "maps"])
    fresh = align(servers, 3, bridges())           # declared given: built afresh, not cached
    again = align(servers, 3, bridges())
    assert fresh.templates["maps"].data == again.templates["maps"].data
    assert fresh.templates["food_delivery"] is registry.get("food_delivery").template(3)  # a source is not copied
    assert align(servers, 3) is align(servers, 3)
    with Session(["food_delivery", "maps"], world=3) as s:
        s.call("list_saved_lists", {})
        start = Session(["food_delivery", "maps"], world=3)
        assert s.fork().fingerprint() == s.fingerprint()
        s.reset()
        assert s.fingerprint() == start.fingerprint()
        start.close()


def test_a_target_takes_values_from_its_first_bridge_only() -> None:
    """With the CRM in the episode the calendar's people are the CRM's contacts (not the mailbox's
    contacts a second time); without it, the mailbox's."""
    names = [str(b) for b in bridges_among(TRIPLE)]
    assert names == ["crm.contact -> email.contact", "crm.contact -> calendar.person"]
    assert [str(b) for b in bridges_among(["email", "calendar"])] == ["email.contact -> calendar.person"]
    assert bridges_among(["crm", "maps"]) == []


def test_bad_declarations_are_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="stays on one server"):
        Bridge("crm.contact", "crm.lead", (("email", "email"),))
    with pytest.raises(ToolDefinitionError, match="not 'server.kind'"):
        Bridge("crm", "email.contact", (("email", "email"),))
    with pytest.raises(ToolDefinitionError, match="names no field"):
        Bridge("crm.contact", "email.contact", ())
    wrong = [Bridge("crm.contact", "email.nosuch", (("email", "email"),))]
    with pytest.raises(ToolDefinitionError, match="declares no entity kind 'nosuch'"):
        align(_servers(["crm", "email"]), 0, wrong)


def test_name_collisions_resolve_as_an_episode_names_them() -> None:
    """A tool name two servers share is `server_tool` in the view and in the episode; the others keep
    their names; a shared entity kind name is qualified the same way and still said as before."""
    view = combine(["crm", "email"])
    with Session(["crm", "email"], world=0) as s:
        assert set(view.tools) == set(s.tools(include_hidden=True))
    shared = set(registry.get("crm").tools) & set(registry.get("email").tools)
    assert shared == {"update_contact"}
    assert {"crm_update_contact", "email_update_contact"} <= set(view.tools)
    assert "update_contact" not in view.tools and "list_contacts" in view.tools and "send_message" in view.tools
    assert view.tools["crm_update_contact"].server == "crm"
    contact_param = next(p for p in view.tools["email_update_contact"].params if p.name == "contact_id")
    assert contact_param.entity == "email_contact"
    assert view.entities["crm_contact"].words == "contact" and "message" in view.entities
    assert view.tools["email_update_contact"].renamed == {"contact": "email_contact"}
    with Session([view], world=0) as s:                 # a view stands for its members
        assert s.servers == ["crm", "email"]
        assert s.call("crm_update_contact", {"contact_id": "CON-10001", "title": "CTO"}).ok
        # Both servers number contacts CON-1xxxx: the view's kind names say whose is meant.
        crm_only = "CON-10150"
        assert s.satisfies("crm_contact", crm_only, "1") and not s.satisfies("email_contact", crm_only, "1")
