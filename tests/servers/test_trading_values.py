"""The trading server's candidate prices sit on the side of the market their phrasing implies."""

from __future__ import annotations

import pytest

from prove.env import Session, registry

from .helpers import ok

SERVER = registry.get("trading")


@pytest.mark.parametrize("world", range(4))
def test_limit_orders_rest_and_alerts_wait_in_every_world(world: int) -> None:
    s = Session("trading", world=world)
    orders = SERVER.tools["place_order"].values["ticker, side, limit_price"]
    alerts = SERVER.tools["create_price_alert"].values["ticker, condition, target_price"]
    for ticker, side, limit in orders:
        price = ok(s, "get_quote", {"ticker": ticker})["price"]
        assert (limit < price) if side == "buy" else (limit > price), (ticker, side, limit, price)
    for ticker, condition, target in alerts:
        price = ok(s, "get_quote", {"ticker": ticker})["price"]
        assert (target < price) if condition == "below" else (target > price), (ticker, condition, target, price)


def test_a_candidate_alert_is_set_without_having_been_met() -> None:
    s = Session("trading", world=0)
    ticker, condition, target = SERVER.tools["create_price_alert"].values["ticker, condition, target_price"][0]
    alert = ok(s, "create_price_alert", {"ticker": ticker, "condition": condition, "target_price": target})
    assert alert["status"] == "active"
