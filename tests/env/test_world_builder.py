"""The world-builder base: a builder class gets the generator's handles and one row list per table."""

from __future__ import annotations

from typing import Any

from prove.env import EPOCH, WorldBuilder, WorldGen
from prove.env.world import build_template

SCHEMA = """
CREATE TABLE people (person_id TEXT PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE pets (pet_id TEXT PRIMARY KEY, owner_id TEXT NOT NULL REFERENCES people(person_id));
"""


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, ("people", "pets"))

    def build(self) -> dict[str, list[dict[str, Any]]]:
        for person in self.fake.people(3):
            pid = self.w.new_id("PER")
            self.rows["people"].append({"person_id": pid, "name": person.name})
            for _ in range(self.rng.randint(0, 2)):
                self.rows["pets"].append({"pet_id": self.w.new_id("PET"), "owner_id": pid})
        return self.rows


def test_a_builder_holds_the_generator_handles_and_draws_nothing_when_created() -> None:
    template = build_template("pets", SCHEMA, None, 3)
    w = WorldGen("pets", 3, template.db)
    state = w.rng.getstate()
    b = _Builder(w)
    assert w.rng.getstate() == state
    assert (b.rng, b.fake, b.now, b.today) == (w.rng, w.fake, EPOCH, EPOCH.date())
    assert b.rows == {"people": [], "pets": []}


def test_a_builder_world_is_built_and_deterministic() -> None:
    first = build_template("pets", SCHEMA, lambda w: _Builder(w).build(), 5)
    again = build_template("pets", SCHEMA, lambda w: _Builder(w).build(), 5)
    assert first.data == again.data
    (people,) = first.db.execute("SELECT count(*) FROM people").fetchone()
    assert people == 3
