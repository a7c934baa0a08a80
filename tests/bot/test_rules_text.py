from __future__ import annotations

import pytest

from bot import rules_text


def test_tinybigwars_topics_cover_the_core_rules() -> None:
    topics = rules_text.rule_topics("tinybigwars")
    assert {"Goal", "Force building", "Clan phase", "Hero activation", "Combat", "Locations"} <= set(topics)
    assert all(len(text) < 1900 for text in topics.values())


def test_unknown_game_has_no_topics() -> None:
    assert rules_text.rule_topics("nosuchgame") == {}


def test_malformed_topic_file_names_the_file(tmp_path, monkeypatch) -> None:
    (tmp_path / "broken.toml").write_text('[[topic]]\nname = "Only a name"\n')
    monkeypatch.setattr(rules_text, "RULES_DIR", tmp_path)
    rules_text.topics_in.cache_clear()
    with pytest.raises(ValueError, match="broken.toml: topic #1"):
        rules_text.rule_topics("broken")
    rules_text.topics_in.cache_clear()


def test_defenders_topics_cover_the_game() -> None:
    topics = rules_text.rule_topics("defenders")
    want = {"Overview", "Turn", "All Defenders card", "Defend", "Caravans", "XP and skills", "Artifacts",
            "War regions", "Bosses", "Campaign", "Difficulty", "Winning and losing"}
    assert want <= set(topics)
    assert all(20 < len(text) < 1900 for text in topics.values())
    assert "easy" in topics["Difficulty"] and "epic" in topics["Difficulty"]
    assert len(topics) <= 25  # the autocomplete shows at most 25


SAMURAI_TOPICS = {"Overview", "Round order", "Koku and bins", "Bids and swords", "Levy costs", "Ronin", "Ninja",
                  "Wage War", "Battles", "Castles and fortresses", "Naval invasions", "Experience",
                  "Armies and elimination", "Victory", "Setup", "Quick Start", "LWTV", "Deadlines"}


def test_samurai_topics_fit_a_discord_message() -> None:
    topics = rules_text.rule_topics("samurai")
    assert set(topics) >= SAMURAI_TOPICS
    assert len(topics) <= 25  # the autocomplete shows at most 25
    for name, text in topics.items():
        assert len(text) > 20 and len(f"**{name}**\n{text}") <= 2000, name


def test_samurai_topics_state_the_engines_numbers() -> None:
    """The hit numbers, levy costs and supplies quoted are the ones the engine plays with."""
    from engine.samurai.content import content
    from engine.samurai.state import SamuraiOptions

    topics = rules_text.rule_topics("samurai")
    units = content().units
    battles = " ".join(topics["Battles"].split())
    for kind in ("daimyo", "bowman", "swordsman", "gunner", "spearman", "ronin"):
        assert f"{kind} {units.units[kind].value}" in battles, kind
    levy = " ".join(topics["Levy costs"].split())
    for kind, cost in SamuraiOptions().levy_costs.items():
        assert f"{kind} {cost}" in levy, kind
    assert f"pool of {units.units['ronin'].supply}" in topics["Ronin"]
    castles = " ".join(topics["Castles and fortresses"].split())
    assert f"{units.fortifications['castle'].supply} castles" in castles
    assert f"{units.fortifications['fortress'].supply} fortress bases" in castles
    assert f"own {SamuraiOptions().provinces_to_win} provinces" in topics["Victory"]


def test_every_samurai_decision_has_a_topic() -> None:
    """Drive a short match through prompts()/submit(): each kind of decision a player meets is
    explained under a topic that names it."""
    import engine

    where = {"spear": "Setup", "claim": "Quick Start", "deploy": "Setup", "army_screen": "Quick Start",
             "plan": "Koku and bins", "plan_revise": "Ninja", "spy": "Ninja", "sword": "Bids and swords",
             "build": "Castles and fortresses", "levy": "Levy costs", "place": "Levy costs", "ronin": "Ronin",
             "ninja": "Ninja", "counter": "Ninja", "discard": "LWTV", "rebuild": "Armies and elimination",
             "battle": "Battles", "casualties": "Battles", "chain": "Experience"}
    wage_war = {"war_move", "move_to", "war_declare", "declare_target", "war_order", "war_final", "garrison_to",
                "gather", "garrison_force", "garrison_move"}
    topics = rules_text.rule_topics("samurai")
    game = engine.get("samurai")
    heuristic = game.policies()["heuristic"]
    seen: set[str] = set()
    for mode in ("base", "lwtv"):
        state = game.setup(3, game.options_model()(mode=mode, round_limit=1), 5)
        while game.result(state) is None:
            prompt = [p for p in game.prompts(state) if not p.answered][0]
            seen.add(prompt.kind)
            choice = engine.decide(game, heuristic, state, prompt, engine.rng_for(5, state.step, "test"))
            state = game.submit(state, prompt.seat, choice).state
    assert {"plan", "levy", "place", "war_move"} <= seen
    for kind in seen:
        assert kind in where or kind in wage_war, f"no topic explains the {kind!r} decision"
        assert where.get(kind, "Wage War") in topics
