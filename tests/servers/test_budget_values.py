"""The budget server's candidate values fit the categories they are drawn with, in every world."""

from __future__ import annotations

import pytest

from prove.env import Session, registry
from prove.servers.budget.world import BILL_IDS, CATEGORY_IDS

from .helpers import ok

SERVER = registry.get("budget")


@pytest.mark.parametrize("world", range(4))
def test_a_category_has_the_same_id_in_every_world(world: int) -> None:
    s = Session("budget", world=world)
    rows = ok(s, "list_categories", {"include_archived": True})["categories"]
    assert rows and all(CATEGORY_IDS[c["name"]] == c["category_id"] for c in rows)


@pytest.mark.parametrize("world", range(4))
def test_every_category_add_expense_can_draw_has_payees_that_fit_it(world: int) -> None:
    tool = SERVER.tools["add_expense"]
    candidates = tool.values["category_id, payee, note, amount"]
    where = next(p.where for p in tool.params if p.name == "category_id")
    drawable = [r[0] for r in SERVER.template(world).db.execute(f"SELECT category_id FROM categories WHERE status = 'active' AND {where}")]
    assert drawable
    for category_id in drawable:
        payees = {payee for cid, payee, _, _ in candidates if cid == category_id}
        assert payees, category_id
        # A payee of Groceries is never offered for Coffee Shops, and so on.
        others = {payee for cid, payee, _, _ in candidates if cid != category_id}
        assert not payees & others or category_id in (CATEGORY_IDS["Shopping"], CATEGORY_IDS["Household"])


@pytest.mark.parametrize("world", range(4))
def test_every_income_category_add_income_can_draw_has_sources_and_amounts_that_fit_it(world: int) -> None:
    """"Add income of $1200.99 from Northwind Consulting ... under the Interest category": a drawn
    category found no source of its own, and the docstring's consulting firm stood in."""
    tool = SERVER.tools["add_income"]
    candidates = tool.values["category_id, source, note, amount"]
    where = next(p.where for p in tool.params if p.name == "category_id")
    drawable = [r[0] for r in SERVER.template(world).db.execute(
        f"SELECT category_id FROM categories WHERE status = 'active' AND {where}")]
    assert CATEGORY_IDS["Interest"] in drawable
    for category_id in drawable:
        assert any(c[0] == category_id for c in candidates), category_id
    interest = [c for c in candidates if c[0] == CATEGORY_IDS["Interest"]]
    assert all(amount < 100 and "Consulting" not in source for _, source, _, amount in interest), interest
    pay = [c for c in candidates if c[0] == CATEGORY_IDS["Paycheck"]]
    assert all(amount >= 1000 for *_, amount in pay), pay
    consulting = [c for c in candidates if "Consulting" in c[1]]
    assert consulting and all(c[0] == CATEGORY_IDS["Freelance"] for c in consulting), consulting


def test_add_bill_offers_a_monthly_bill_for_every_category_it_draws() -> None:
    tool = SERVER.tools["add_bill"]
    where = next(p.where for p in tool.params if p.name == "category_id")
    candidates = tool.values["name, payee, category_id, frequency, amount"]
    for world in range(4):
        for (category_id,) in SERVER.template(world).db.execute(
                f"SELECT category_id FROM categories WHERE status = 'active' AND {where}"):
            assert any(c[2] == category_id and c[3] == "monthly" for c in candidates), category_id


def test_an_expense_drawn_from_the_candidates_is_logged_under_its_category() -> None:
    s = Session("budget", world=0)
    account = ok(s, "list_accounts")["accounts"][0]["account_id"]
    category_id, payee, note, amount = next(c for c in SERVER.tools["add_expense"].values["category_id, payee, note, amount"]
                                    if c[0] == CATEGORY_IDS["Groceries"])
    entry = ok(s, "add_expense", {"amount": amount, "category_id": category_id, "account_id": account,
                                  "payee": payee, "note": note})["transaction"]
    assert (entry["category_name"], entry["payee"], entry["note"]) == ("Groceries", payee, note)


@pytest.mark.parametrize("world", range(4))
def test_a_bill_has_the_same_id_in_every_world_and_amounts_to_be_paid_and_raised_to(world: int) -> None:
    s = Session("budget", world=world)
    bills = [b for b in ok(s, "list_bills", {"status": "all"})["bills"] if b["name"] in BILL_IDS]
    assert bills and all(BILL_IDS[b["name"]] == b["bill_id"] for b in bills)
    for tool in ("pay_bill", "update_bill"):
        candidates = SERVER.tools[tool].values["bill_id, amount"]
        for bill in bills:
            amounts = [a for bid, a in candidates if bid == bill["bill_id"]]
            assert amounts, (tool, bill["name"])
            # Within the bill's own scale: never a $92 cycle of a $4 subscription.
            assert all(0.2 * bill["amount"] <= a <= 5 * bill["amount"] for a in amounts), (tool, bill["name"], amounts)
