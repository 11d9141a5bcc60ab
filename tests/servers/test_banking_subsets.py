"""The banking server's account subsets: a tool draws only the accounts its phrasings speak of."""

from __future__ import annotations

from prove.env import Session, registry

from .helpers import fails, ok

SERVER = registry.get("banking")


def _where(tool: str, param: str) -> str:
    where = next(p.where for p in SERVER.tools[tool].params if p.name == param)
    assert where is not None
    return where


def _drawn(world: int, where: str) -> set[str]:
    return {r[0] for r in SERVER.template(world).db.execute(f"SELECT account_id FROM accounts WHERE {where}")}


def test_payees_are_paid_only_from_the_accounts_pay_payee_draws() -> None:
    for world in range(4):
        s = Session("banking", world=world)
        payee = ok(s, "list_payees")["payees"][0]["payee_id"]
        drawn = _drawn(world, _where("pay_payee", "from_account_id"))
        assert drawn
        for account in ok(s, "list_accounts")["accounts"]:
            args = {"payee_id": payee, "from_account_id": account["account_id"], "amount": 1.0}
            if account["account_id"] in drawn:
                ok(s, "pay_payee", args)
            else:
                fails(s, "pay_payee", "unsupported_account", args)


def test_no_credit_card_is_drawn_where_money_comes_out_of_a_deposit_account() -> None:
    for world in range(4):
        s = Session("banking", world=world)
        cards = {a["account_id"] for a in ok(s, "list_accounts", {"account_type": "credit_card"})["accounts"]}
        assert cards
        for tool, param in (("schedule_payment", "from_account_id"), ("list_scheduled_payments", "account_id")):
            assert not _drawn(world, _where(tool, param)) & cards, tool


def test_owing_and_credit_are_asked_only_of_credit_cards() -> None:
    for tool in SERVER.tools.values():
        for ask in tool.asks:
            words = ask.text.lower()
            if "owe" in words.split() or "credit do i have" in words:
                assert ask.binds.get("account_type") == "credit_card", (tool.name, ask.text)
