"""Behaviour tests of the budget server: its world, its main flows and its state-dependent failures.

Every test works on a fresh `Session("budget", world=0)` and finds what it needs through the
server's own list tools, the way a model would.
"""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture
from .helpers import replies_for as shared_replies_for

SERVER = registry.get("budget")
MONTH = "2026-03"


s = session_fixture("budget")


def account(s: Session, kind: str) -> dict:
    return next(a for a in ok(s, "list_accounts")["accounts"] if a["type"] == kind)


def balance(s: Session, account_id: str) -> float:
    accounts = ok(s, "list_accounts", {"status": "all"})["accounts"]
    return next(a for a in accounts if a["account_id"] == account_id)["balance"]


def categories(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "list_categories", {"kind": "expense", **filters})["categories"]


def category(s: Session, category_id: str, month: str = MONTH) -> dict:
    return ok(s, "get_category", {"category_id": category_id, "month": month})


def strict_category(s: Session) -> dict:
    return next(c for c in categories(s) if c["strict"] and c["remaining"] > 10)


def roomy_category(s: Session, more_than: float = 100.0) -> dict:
    """A non-strict expense category with plenty of budget left this month and no bills."""
    return next(c for c in categories(s) if not c["strict"] and c["remaining"] > more_than
                and not category(s, c["category_id"])["bills"])


# ----- the server and its world -----------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 12
    assert sum(not t.read_only for t in visible) >= 10
    for tool in visible:
        assert len(tool.asks) >= 2, tool.name
    assert set(SERVER.entities) == {"account", "category", "transaction", "bill", "goal", "contribution",
                                    "budget_move"}
    assert SERVER.tools["add_expense"].consumes == {"category", "account"}


def test_world_is_realistic_and_varies_by_seed(s):
    template = SERVER.template(0)
    assert template.size < 250_000
    counts = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert counts["transactions"] >= 200 and counts["budgets"] >= 60 and counts["profile"] == 1
    accounts = ok(s, "list_accounts", {"status": "all"})["accounts"]
    assert {a["type"] for a in accounts} >= {"checking", "savings", "credit_card", "cash"}
    assert any(a["status"] == "closed" for a in accounts)
    cats = categories(s, include_archived=True)
    assert sum(c["strict"] for c in cats) == 2
    assert any(c["status"] == "archived" for c in cats)
    summary = ok(s, "get_monthly_summary")
    assert summary["month"] == MONTH and summary["income"] > 0 and summary["over_budget_count"] >= 1
    bills = ok(s, "list_bills")["bills"]
    assert sum(b["overdue"] for b in bills) == 1
    assert any(g["status"] == "completed" for g in ok(s, "list_goals")["goals"])
    other = SERVER.build(1)
    assert other.digests != template.digests
    with Session("budget", world=1) as s1:
        assert ok(s1, "list_accounts")["accounts"][0]["balance"] != ok(s, "list_accounts")["accounts"][0]["balance"]


# ----- expenses and income -----------------------------------------------------------------------


def test_expense_is_seen_by_later_reads(s):
    card = account(s, "credit_card")
    cat = roomy_category(s)
    before = category(s, cat["category_id"])
    r = ok(s, "add_expense", {"amount": 42.5, "category_id": cat["category_id"], "account_id": card["account_id"],
                              "payee": "Trader Joe's", "note": "weekly groceries"})
    assert r["transaction"]["amount"] == -42.5 and r["transaction"]["kind"] == "expense"
    assert r["account_balance"] == round(card["balance"] - 42.5, 2)
    assert r["budget"]["spent"] == round(before["spent"] + 42.5, 2)
    assert not r["limit_exceeded"] and r["warnings"] == []
    tid = r["transaction"]["transaction_id"]
    found = ok(s, "list_transactions", {"payee": "trader joe", "start_date": "2026-03-16"})["transactions"]
    assert [t["transaction_id"] for t in found] == [tid]
    assert ok(s, "get_transaction", {"transaction_id": tid})["note"] == "weekly groceries"
    after = category(s, cat["category_id"])
    assert after["transactions"][0]["transaction_id"] == tid
    assert after["remaining"] == round(before["remaining"] - 42.5, 2)
    assert balance(s, card["account_id"]) == r["account_balance"]
    diff = s.diff().to_list()
    assert {(d["table"], d["op"]) for d in diff} == {("transactions", "insert"), ("accounts", "update")}


def test_overspending_is_a_warning_in_a_normal_category(s):
    card = account(s, "credit_card")
    cat = roomy_category(s, 20.0)
    r = ok(s, "add_expense", {"amount": cat["remaining"] + 25, "category_id": cat["category_id"],
                              "account_id": card["account_id"], "payee": "Best Buy"})
    assert r["limit_exceeded"] and r["budget"]["over_budget"]
    assert r["budget"]["remaining"] == -25.0
    assert r["warnings"] and r["warnings"][0].startswith("limit_exceeded")
    summary = ok(s, "get_monthly_summary")
    line = next(c for c in summary["categories"] if c["category_id"] == cat["category_id"])
    assert line["over_budget"] and line["remaining"] == -25.0


def test_strict_category_refuses_until_budget_is_moved_in(s):
    card = account(s, "credit_card")
    strict = strict_category(s)
    donor = roomy_category(s)
    amount = round(strict["remaining"] + 15, 2)
    fails(s, "add_expense", "limit_exceeded", {"amount": amount, "category_id": strict["category_id"],
                                               "account_id": card["account_id"], "payee": "Starbucks"})
    # not enough left in the donor envelope
    fails(s, "move_budget", "insufficient_budget",
          {"from_category_id": donor["category_id"], "to_category_id": strict["category_id"],
                                                    "amount": donor["remaining"] + 1})
    move = ok(s, "move_budget", {"from_category_id": donor["category_id"], "to_category_id": strict["category_id"],
                                 "amount": 20, "note": "coffee week"})
    assert move["from_remaining"] == round(donor["remaining"] - 20, 2)
    assert move["to_remaining"] == round(strict["remaining"] + 20, 2)
    assert category(s, strict["category_id"])["budgeted"] == strict["budgeted"] + 20
    moves = ok(s, "list_budget_moves", {"month": MONTH})["moves"]
    assert moves[0]["move_id"] == move["move"]["move_id"] and moves[0]["amount"] == 20
    r = ok(s, "add_expense", {"amount": amount, "category_id": strict["category_id"], "account_id": card["account_id"],
                              "payee": "Starbucks"})
    assert not r["limit_exceeded"] and r["budget"]["remaining"] == 5.0


def test_set_category_limit_and_strictness(s):
    cat = roomy_category(s)
    r = ok(s, "set_category_limit",
           {"category_id": cat["category_id"], "monthly_limit": cat["spent"] + 10, "strict": True})
    assert r["strict"] and r["budgeted"] == round(cat["spent"] + 10, 2) and r["remaining"] == 10.0
    card = account(s, "credit_card")
    fails(s, "add_expense", "limit_exceeded",
          {"amount": 10.01, "category_id": cat["category_id"], "account_id": card["account_id"],
                                               "payee": "Target"})
    ok(s, "add_expense",
       {"amount": 10, "category_id": cat["category_id"], "account_id": card["account_id"], "payee": "Target"})
    history = ok(s, "get_category_history", {"category_id": cat["category_id"], "months": 3})
    assert [m["month"] for m in history["months"]] == ["2026-01", "2026-02", MONTH]
    assert history["months"][-1]["remaining"] == 0.0
    income = ok(s, "list_categories", {"kind": "income"})["categories"][0]
    fails(s, "set_category_limit", "category_kind_mismatch", {"category_id": income["category_id"],
                                                              "monthly_limit": 50})


def test_expense_failures_depend_on_state(s):
    cash = account(s, "cash")
    card = account(s, "credit_card")
    cat = roomy_category(s)
    closed = next(a for a in ok(s, "list_accounts", {"status": "closed"})["accounts"])
    income = ok(s, "list_categories", {"kind": "income"})["categories"][0]
    archived = next(c for c in categories(s, include_archived=True) if c["status"] == "archived")
    args = {"category_id": cat["category_id"], "payee": "Chipotle"}
    fails(s, "add_expense", "insufficient_funds", {"amount": cash["balance"] + 1, "account_id": cash["account_id"],
                                                   **args})
    fails(s, "add_expense", "insufficient_funds", {"amount": card["available"] + 1, "account_id": card["account_id"],
                                                   **args})
    fails(s, "add_expense", "account_closed", {"amount": 10, "account_id": closed["account_id"], **args})
    fails(s, "add_expense", "category_kind_mismatch", {"amount": 10, "account_id": card["account_id"], "payee": "X",
                                                       "category_id": income["category_id"]})
    fails(s, "add_expense", "category_archived", {"amount": 10, "account_id": card["account_id"], "payee": "X",
                                                  "category_id": archived["category_id"]})
    fails(s, "add_expense", "invalid_date", {"amount": 10, "account_id": card["account_id"], "date": "2026-03-17",
                                             **args})
    fails(s, "add_expense", "invalid_date", {"amount": 10, "account_id": card["account_id"], "date": "2024-01-01",
                                             **args})
    fails(s, "add_expense", "not_found", {"amount": 10, "account_id": "ACC-99999", **args})
    assert s.call("add_expense", {"amount": -5, "account_id": card["account_id"], **args}).code == "invalid_arguments"
    # a backdated expense counts in its own month
    r = ok(s, "add_expense", {"amount": 10, "account_id": card["account_id"], "date": "2026-02-20", **args})
    assert r["budget"]["month"] == "2026-02"


def test_income_update_and_delete(s):
    checking = account(s, "checking")
    freelance = next(c for c in ok(s, "list_categories",
                                   {"kind": "income"})["categories"] if c["name"] == "Other Income")
    r = ok(s, "add_income", {"amount": 250, "account_id": checking["account_id"], "source": "Venmo",
                             "category_id": freelance["category_id"], "note": "concert tickets payback"})
    assert r["account_balance"] == round(checking["balance"] + 250, 2) and r["budget"] is None
    spent = ok(s, "get_category", {"category_id": freelance["category_id"]})["spent"]
    assert spent == round(freelance["spent"] + 250, 2)

    card = account(s, "credit_card")
    a, b = roomy_category(s), [c for c in categories(s) if not c["strict"]][-1]
    tid = ok(s, "add_expense", {"amount": 30, "category_id": a["category_id"], "account_id": card["account_id"],
                                "payee": "Target"})["transaction"]["transaction_id"]
    r = ok(s, "update_transaction", {"transaction_id": tid, "category_id": b["category_id"], "amount": 45})
    assert r["transaction"]["category_id"] == b["category_id"] and r["transaction"]["amount"] == -45
    assert r["account_balance"] == round(card["balance"] - 45, 2)
    assert category(s, a["category_id"])["spent"] == a["spent"]
    fails(s, "update_transaction", "no_changes", {"transaction_id": tid})
    gone = ok(s, "delete_transaction", {"transaction_id": tid})
    assert gone["deleted"]["transaction_id"] == tid and gone["account_balance"] == card["balance"]
    fails(s, "get_transaction", "not_found", {"transaction_id": tid})
    transfer = ok(s, "list_transactions", {"kind": "goal_transfer", "limit": 1})["transactions"][0]
    fails(s, "delete_transaction", "not_editable", {"transaction_id": transfer["transaction_id"]})
    fails(s, "update_transaction", "not_editable", {"transaction_id": transfer["transaction_id"], "note": "x"})


# ----- goals -------------------------------------------------------------------------------------


def test_goal_contributions_complete_a_goal(s):
    checking = account(s, "checking")
    goal = ok(s, "create_goal", {"name": "Trip to Japan", "target_amount": 500, "target_date": "2026-12-01"})
    assert goal["saved_amount"] == 0 and goal["monthly_needed"] == round(500 / 9, 2)
    gid = goal["goal_id"]
    fails(s, "create_goal", "duplicate_name", {"name": "trip to japan", "target_amount": 100})
    r = ok(s, "contribute_to_goal", {"goal_id": gid, "amount": 300, "account_id": checking["account_id"]})
    assert r["goal"]["saved_amount"] == 300 and not r["completed_now"]
    assert r["account_balance"] == round(checking["balance"] - 300, 2)
    fails(s, "contribute_to_goal", "exceeds_target", {"goal_id": gid, "amount": 250,
                                                      "account_id": checking["account_id"]})
    r = ok(s, "contribute_to_goal", {"goal_id": gid, "amount": 200, "account_id": checking["account_id"]})
    assert r["completed_now"] and r["goal"]["status"] == "completed"
    fails(s, "contribute_to_goal", "goal_completed",
          {"goal_id": gid, "amount": 1, "account_id": checking["account_id"]})
    detail = ok(s, "get_goal", {"goal_id": gid})
    assert [c["amount"] for c in detail["contributions"]] == [200, 300]
    assert ok(s, "list_transactions", {"kind": "goal_transfer", "limit": 1})["transactions"][0]["goal_id"] == gid
    # taking money back reopens it
    r = ok(s, "withdraw_from_goal", {"goal_id": gid, "amount": 100, "account_id": checking["account_id"]})
    assert r["goal"]["status"] == "active" and r["goal"]["saved_amount"] == 400
    assert r["contribution"]["amount"] == -100
    fails(s, "withdraw_from_goal", "insufficient_goal_balance", {"goal_id": gid, "amount": 400.01,
                                                                 "account_id": checking["account_id"]})


def test_goal_failures_depend_on_accounts(s):
    goal = next(g for g in ok(s, "list_goals", {"status": "active"})["goals"])
    card, cash = account(s, "credit_card"), account(s, "cash")
    fails(s, "contribute_to_goal", "wrong_account_type", {"goal_id": goal["goal_id"], "amount": 10,
                                                          "account_id": card["account_id"]})
    fails(s, "contribute_to_goal", "insufficient_funds",
          {"goal_id": goal["goal_id"], "amount": min(cash["balance"] + 1, goal["remaining"]),
                                                          "account_id": cash["account_id"]})
    fails(s, "create_goal", "invalid_date", {"name": "Past", "target_amount": 10, "target_date": "2026-03-16"})


# ----- bills -------------------------------------------------------------------------------------


def test_paying_an_overdue_bill_moves_its_due_date(s):
    bill = next(b for b in ok(s, "list_bills")["bills"] if b["overdue"])
    acct = bill["account_id"]
    before = balance(s, acct)
    r = ok(s, "pay_bill", {"bill_id": bill["bill_id"], "amount": bill["amount"] + 3.5})
    assert r["transaction"]["bill_id"] == bill["bill_id"] and r["transaction"]["amount"] == -(bill["amount"] + 3.5)
    assert r["transaction"]["date"] == "2026-03-16"
    assert r["bill"]["next_due_date"] > bill["next_due_date"] and not r["bill"]["overdue"]
    assert r["bill"]["last_paid_on"] == "2026-03-16"
    assert balance(s, acct) == round(before - bill["amount"] - 3.5, 2)
    assert not any(b["overdue"] for b in ok(s, "list_bills")["bills"])
    fails(s, "pay_bill", "not_due_yet", {"bill_id": bill["bill_id"]})


def test_bill_due_window_follows_the_clock(s):
    rent = next(b for b in ok(s, "list_bills")["bills"] if b["name"] == "Rent")
    assert rent["days_until_due"] > 14
    fails(s, "pay_bill", "not_due_yet", {"bill_id": rent["bill_id"]})
    s.advance(3 * 86400)
    r = ok(s, "pay_bill", {"bill_id": rent["bill_id"]})
    assert r["transaction"]["date"] == "2026-03-19" and r["bill"]["next_due_date"] == "2026-05-01"


def test_a_paid_bill_notes_its_due_day_in_words(s):
    """"Disney+ on March 16: $13.99 ..., with the note 'Disney+ due 2026-03-27'": the note a payment leaves is
    read to the user, so it says the day as a person does."""
    rent = next(b for b in ok(s, "list_bills")["bills"] if b["name"] == "Rent")
    s.advance(3 * 86400)
    r = ok(s, "pay_bill", {"bill_id": rent["bill_id"]})
    assert r["transaction"]["note"] == "Rent due April 1"


def test_bill_lifecycle_and_category_in_use(s):
    cat = roomy_category(s)
    checking = account(s, "checking")
    bill = ok(s, "add_bill",
              {"name": "Dog walker", "payee": "Happy Paws", "amount": 120, "category_id": cat["category_id"],
                              "account_id": checking["account_id"], "frequency": "weekly",
                              "next_due_date": "2026-03-20"})
    assert bill["days_until_due"] == 4 and bill["status"] == "active"
    fails(s, "add_bill", "duplicate_name",
          {"name": "dog walker", "payee": "X", "amount": 1, "category_id": cat["category_id"],
                                            "account_id": checking["account_id"], "frequency": "monthly",
                                            "next_due_date": "2026-04-01"})
    fails(s, "archive_category", "category_in_use", {"category_id": cat["category_id"]})
    assert ok(s, "update_bill", {"bill_id": bill["bill_id"], "amount": 130})["amount"] == 130
    assert ok(s, "pay_bill", {"bill_id": bill["bill_id"]})["bill"]["next_due_date"] == "2026-03-27"
    assert ok(s, "cancel_bill", {"bill_id": bill["bill_id"]})["status"] == "cancelled"
    fails(s, "cancel_bill", "already_cancelled", {"bill_id": bill["bill_id"]})
    fails(s, "pay_bill", "bill_cancelled", {"bill_id": bill["bill_id"]})
    archived = ok(s, "archive_category", {"category_id": cat["category_id"]})
    assert archived["status"] == "archived"
    fails(s, "archive_category", "already_archived", {"category_id": cat["category_id"]})
    assert all(c["category_id"] != cat["category_id"] for c in categories(s))
    fails(s, "add_expense", "category_archived",
          {"amount": 5, "category_id": cat["category_id"], "account_id": checking["account_id"],
                                                  "payee": "X"})


def test_categories_and_budget_moves(s):
    new = ok(s, "create_category", {"name": "Car Maintenance", "group": "Transportation", "monthly_limit": 150})
    assert new["budgeted"] == 150 and new["spent"] == 0 and new["month"] == MONTH
    fails(s, "create_category", "duplicate_name", {"name": "car maintenance"})
    donor = roomy_category(s)
    fails(s, "move_budget", "same_category",
          {"from_category_id": donor["category_id"], "to_category_id": donor["category_id"],
                                              "amount": 5})
    fails(s, "move_budget", "invalid_month",
          {"from_category_id": donor["category_id"], "to_category_id": new["category_id"],
                                              "amount": 5, "month": "2026-02"})
    # moving budget in a later month leaves this month alone, and survives a new limit
    ok(s, "move_budget", {"from_category_id": donor["category_id"], "to_category_id": new["category_id"], "amount": 50,
                          "month": "2026-05"})
    assert category(s, new["category_id"], "2026-05")["budgeted"] == 200
    ok(s, "set_category_limit", {"category_id": new["category_id"], "monthly_limit": 100})
    assert category(s, new["category_id"], "2026-05")["budgeted"] == 150
    assert category(s, new["category_id"])["budgeted"] == 100
    assert category(s, new["category_id"], "2026-04")["budgeted"] == 100
    assert ok(s, "list_budget_moves", {"category_id": new["category_id"]})["total"] == 1


replies_for = functools.partial(shared_replies_for, "budget")


def test_a_new_limit_reply_says_whether_the_category_became_strict(s):
    base = {"category_id": "CAT-1", "monthly_limit": 60.0}
    strict = replies_for("set_category_limit", {**base, "strict": True})
    assert strict and all("strict" in r for r in strict)
    loose = replies_for("set_category_limit", {**base, "strict": False})
    assert loose and all("go over" in r for r in loose)
    unchanged = replies_for("set_category_limit", base)
    assert unchanged and all("strict" not in r and "go over" not in r for r in unchanged)
    category = ok(s, "list_categories", {})["categories"][0]
    after = ok(s, "set_category_limit", {"category_id": category["category_id"], "monthly_limit": 60.0,
                                         "strict": True})
    assert after["strict"] is True and after["monthly_limit"] == 60.0


def test_synthesized_money_moves_use_fitting_accounts(s):
    """Purchases and bills are drawn from checking, cards and cash; income lands in a bank account."""
    types = {a["account_id"]: a["type"] for a in ok(s, "list_accounts", {"status": "all"})["accounts"]}
    wheres = {(t.name, p.name): p.where for t in SERVER.visible_tools for p in t.params if p.name == "account_id"}
    for tool in ("add_expense", "add_bill", "pay_bill"):
        assert "savings" not in wheres[(tool, "account_id")] and "credit_card" in wheres[(tool, "account_id")]
    assert "cash" not in wheres[("add_income", "account_id")]
    assert {"savings", "cash", "credit_card"} <= set(types.values())


def test_a_payee_fix_names_another_store(s):
    """The corrected payee is never the entry's own: fixes and correctable entries have disjoint grocers."""
    from prove.servers.budget.server import GROCERY_FIXES

    where = next(p.where for p in SERVER.tools["update_transaction"].params if p.name == "transaction_id")
    groceries = ok(s, "list_transactions", {"category_id": "CAT-10007", "kind": "expense", "limit": 200})
    assert groceries["transactions"][0]["category_name"] == "Groceries"
    correctable = [t for t in groceries["transactions"] if s.satisfies("transaction", t["transaction_id"], where)]
    assert correctable and len(correctable) < len(groceries["transactions"])
    assert {payee for payee, _ in GROCERY_FIXES}.isdisjoint({t["payee"] for t in correctable})


def test_a_drawn_monthly_limit_is_near_what_the_category_spends(s):
    """Limits drawn for a category lie near its real monthly spending (no $30 grocery budget)."""
    from prove.servers.budget.server import LIMITS

    active = {c["category_id"] for c in ok(s, "list_categories", {"kind": "expense"})["categories"]}
    checked = 0
    for category_id, limit in LIMITS:
        if category_id not in active:
            continue
        spent = ok(s, "get_category_history", {"category_id": category_id, "months": 6})["average_spent"]
        if spent >= 20:
            assert spent / 4 <= limit <= spent * 4, (category_id, limit, spent)
            checked += 1
    assert checked >= 10


def test_a_category_said_to_be_unused_is_unused():
    """"Archive the Paycheck category, I don't use it anymore." of the category every paycheck goes to: a reason
    the user gives is true of the category."""
    ask = next(a for a in registry.get("budget").tools["archive_category"].asks if "don't use" in as_ask(a).text)
    with Session(["budget"]) as session:
        categories = session.call("list_categories", {}).data["categories"]
        since = (session.now.date() - timedelta(days=60)).isoformat()
        recent = session.call("list_transactions", {"start_date": since, "limit": 200}).data
        assert recent["total"] == len(recent["transactions"])
        used = {t["category_id"] for t in recent["transactions"]}
        assert "Paycheck" in {c["name"] for c in categories if c["category_id"] in used}
        for c in categories:
            unused = session.satisfies("category", c["category_id"], as_ask(ask).fits["category_id"])
            assert unused == (c["category_id"] not in used), c["name"]


def test_a_bill_is_paid_automatically_from_an_account_that_can():
    """"Pay the bill 'Gym membership' from the Cash Wallet account from now on, automatically": cash in a wallet
    pays nothing by itself."""
    asks = [as_ask(a) for n in ("add_bill", "update_bill") for a in registry.get("budget").tools[n].asks
            if as_ask(a).binds.get("autopay") is True]
    assert len(asks) == 2
    with Session(["budget"]) as session:
        accounts = session.call("list_accounts", {}).data["accounts"]
        assert "cash" in {a["type"] for a in accounts}
        for ask in asks:
            for a in accounts:
                assert session.satisfies("account", a["account_id"], ask.fits["account_id"]) == (a["type"] != "cash")
