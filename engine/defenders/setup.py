"""Setting up a match: the ring, the decks, the Defenders and their first skill offers."""

from __future__ import annotations

from engine.defenders import campaign
from engine.defenders.content import TERRAINS, content
from engine.defenders.state import (
    DIRE_BY_DIFFICULTY,
    Boss,
    Defender,
    DefendersOptions,
    DefendersState,
    Region,
)
from engine.rng import rng_for


def setup_state(seats: int, opts: DefendersOptions, seed: int) -> DefendersState:
    c = content()
    rng = rng_for(seed, 0, "setup")
    ring = list(TERRAINS)
    rng.shuffle(ring)
    regions = {region: Region(key=region, pos=ring.index(region), side=rng.choice(["A", "B"])) for region in ring}
    war = list(TERRAINS)
    rng.shuffle(war)
    hostile = war.pop()
    regions[hostile].war, regions[hostile].side = True, "hostile"
    friendly: list[str] = []
    if opts.mode == "single":
        friendly.append(war.pop())
        regions[friendly[0]].war, regions[friendly[0]].side = True, "friendly"

    count = max(2, seats)
    if opts.defenders is not None:
        keys = list(opts.defenders)
        known = {d.key for d in c.defenders}
        if len(keys) != count or len(set(keys)) != count or not set(keys) <= known:
            raise ValueError(f"defenders must name {count} different Defenders from: {', '.join(sorted(known))}")
    else:
        keys = rng.sample([d.key for d in c.defenders], count)
    defenders = []
    for i, key in enumerate(keys):
        card = c.defender(key)
        defenders.append(Defender(idx=i, seat=0 if seats == 1 else i, key=key, hp=card.max_hp))

    skills = [s.key for s in c.skills]
    rng.shuffle(skills)
    for d in defenders:
        d.skill_offer = [skills.pop(), skills.pop()]
    artifacts = [a.key for a in c.artifacts]
    rng.shuffle(artifacts)

    enemies = [e.key for e in c.enemies]
    rng.shuffle(enemies)
    dire = [foe.key for foe in c.dire]
    rng.shuffle(dire)
    n_dire = DIRE_BY_DIFFICULTY[opts.difficulty] - (1 if opts.mode == "campaign" else 0)
    se, he = opts.start_enemies, min(opts.horde_enemies, 9 - opts.start_enemies)
    horde = [f"e:{enemy}" for enemy in enemies[se:se + he]] + [f"x:{dire.pop()}" for _ in range(n_dire)]
    rng.shuffle(horde)

    if opts.mode == "single":
        epic = rng.choice([b.key for b in c.epic_foes])
        boss = Boss(key=epic, kind="epic", hp=opts.epic_hp, max_hp=opts.epic_hp, region=c.boss(epic).region)
        ahead: list[str] = []
    else:
        generals = rng.sample([general.key for general in c.generals], 2)
        epic = rng.choice([b.key for b in c.epic_foes])
        boss = Boss(key=generals[0], kind="general", hp=opts.general_hp, max_hp=opts.general_hp,
                    region=c.boss(generals[0]).region)
        ahead = [generals[1], epic]
    caravans = list(TERRAINS)
    rng.shuffle(caravans)

    state = DefendersState(
        seed=seed, options=opts, seats=seats, defenders=defenders, regions=regions, ring=ring,
        horde=horde, leftover_enemies=enemies[se + he:], leftover_dire=dire, boss=boss, bosses_ahead=ahead,
        caravan_pile=caravans, skill_deck=skills, artifact_deck=artifacts,
        war_hostile=hostile, war_friendly=friendly, war_unused=war,
    )
    state.turn_deck = [f"e:{enemy}" for enemy in enemies[:se]] + campaign.player_cards(state)
    return state
