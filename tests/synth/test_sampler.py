from __future__ import annotations

from prove.env import registry
from prove.env.world import EPOCH, clock_params
from prove.synth.sampler import Sampler, getter_tools


def test_context_holds_only_live_well_supported_entities() -> None:
    bank = registry.get("banking")
    sampler = Sampler(bank, seed=0, worlds=[0])
    ctx = sampler.context(0)
    db = bank.template(0).db
    for kind, ids in ctx.entities.items():
        spec = bank.entities[kind]
        live = {str(r[0]) for r in db.execute(f'SELECT "{spec.key}" FROM "{spec.table}" WHERE {spec.live or 1}',
                                              clock_params(EPOCH))}
        assert set(ids) <= live, kind
        assert len(ids) <= sampler.per_kind
    done = {r[0] for r in db.execute("SELECT scheduled_payment_id FROM scheduled_payments WHERE status != 'scheduled'")}
    assert done and not done & set(ctx.ids("scheduled_payment"))
    assert ctx.ids("account") and all(ctx.label("account", a) for a in ctx.ids("account"))


def test_context_refreshes_per_block_and_is_deterministic() -> None:
    shop = registry.get("shopping")
    a = Sampler(shop, seed=1, worlds=[0, 1])
    b = Sampler(shop, seed=1, worlds=[0, 1])
    assert a.context(0).to_dict() == b.context(0).to_dict()
    assert a.context(0).world == 0 and a.context(1).world == 1
    assert a.context(0).to_dict() != a.context(2).to_dict()  # same world, another draw


def test_context_has_categories_and_ranges_but_no_secrets() -> None:
    bank = registry.get("banking")
    ctx = Sampler(bank, seed=0).context(0)
    assert "category" in ctx.values and "amount" in ctx.ranges
    for secret in ("pin", "card_number", "account_number", "routing_number", "cvv"):
        assert secret not in ctx.values
    text = ctx.render()
    assert "never invent" in text and ctx.ids("account")[0] in text


def test_getters_fetch_one_entity_by_id() -> None:
    getters = getter_tools(registry.get("banking"))
    assert getters["account"].name == "get_account"
    assert getters["card"].name in ("get_card", "get_card_pin")
