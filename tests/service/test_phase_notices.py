"""How a transaction's public events become phase posts: cut at phase ends, a short summary joined
to the post it follows, the map only on the last closing, the tail opening the next phase."""

from __future__ import annotations

from bot.service.phase_notices import post_text, public_notices, stretches
from engine import Event


def ev(text: str, end: bool = False, seats: list[int] | None = None) -> Event:
    return Event(kind="x", text=text, seats=seats, phase_end=end)


def public(e: Event) -> str | None:
    return e.text if e.seats is None else None


def notices(events: list[Event], start: str = "Round 1 - Activation", end: str = "Round 2 - Clan"):
    views: list[int] = []

    def view(end: int) -> dict:
        views.append(end)
        return {"map": f"after event {end}"}

    out = public_notices(stretches(events, public, start, end), "g", ["a", "b"], view)
    return out, len(views)


def test_lines_without_a_phase_end_extend_the_open_post_under_the_phase_they_happened_in() -> None:
    out, views = notices([ev("a moves"), ev("secret", seats=[0]), ev("b moves")])
    assert out == [("events", {"label": "Round 1 - Activation", "events": ["a moves", "b moves"],
                               "text": "**Round 1 - Activation**\na moves\nb moves"})]
    assert views == 0, "no map while the phase goes on"


def test_a_phase_end_closes_the_post_with_the_map_and_the_tail_opens_the_next() -> None:
    out, views = notices([ev("a moves"), ev("activation over", end=True), ev("coins: a 1")])
    assert [(kind, fields["label"], fields["events"]) for kind, fields in out] == [
        ("phase", "Round 1 - Activation", ["a moves", "activation over"]),
        ("events", "Round 2 - Clan", ["coins: a 1"]),
    ]
    assert out[0][1]["view"] == {"map": "after event 1"} and views == 1


def test_a_short_summary_after_a_phase_end_joins_that_post() -> None:
    out, _ = notices([ev("activation over", end=True), ev("round 1 over: a 3", end=True), ev("coins")])
    assert [(kind, fields["events"]) for kind, fields in out] == [
        ("phase", ["activation over", "round 1 over: a 3"]), ("events", ["coins"])]


def test_a_long_stretch_between_phase_ends_is_a_post_of_its_own_with_its_own_map() -> None:
    turn = [ev(f"AI attacks province {n}") for n in range(4)]
    out, views = notices([ev("alice ends her turn", end=True), *turn, ev("AI ends its turn", end=True)],
                         start="Round 1 - Wage War", end="Round 1 - Wage War")
    assert [(kind, fields["label"], len(fields["events"])) for kind, fields in out] == [
        ("phase", "Round 1 - Wage War", 1), ("phase", "Round 1 - Wage War", 5)]
    assert [fields["view"] for _, fields in out] == [{"map": "after event 0"}, {"map": "after event 5"}]
    assert views == 2


def test_a_summary_joined_to_a_post_gives_it_the_map_after_the_summary() -> None:
    out, _ = notices([ev("activation over", end=True), ev("round 1 over", end=True)])
    assert len(out) == 1 and out[0][1]["view"] == {"map": "after event 1"}


def test_a_phase_end_with_no_public_line_still_closes_the_post() -> None:
    out, _ = notices([ev("only you", seats=[1], end=True)])
    assert out[0][0] == "phase" and out[0][1]["events"] == [] and "view" in out[0][1]


def test_a_post_too_long_keeps_its_heading_and_the_newest_lines() -> None:
    text = post_text("Round 3 - Combat", [f"line {n} " + "x" * 50 for n in range(100)])
    assert len(text) <= 1900 and text.startswith("**Round 3 - Combat**\n...") and text.endswith("x" * 50)


def test_each_stretch_is_headed_by_the_phase_its_lines_happened_in_and_its_map_titled_so() -> None:
    """An AI's whole war turn after the build phase ended is headed Wage War, not Build; the map
    closing the build phase is titled Build, though the state it shows has moved on."""
    labels = {1: "Round 1 - Wage War", 7: "Round 2 - Plan"}  # the phase each phase end led into

    def view(end: int) -> dict:
        return {"phase_label": labels[end], "map": end}

    build = [ev("AI builds a castle"), ev("build over", end=True)]
    war = [ev(f"AI attacks province {n}") for n in range(5)] + [ev("war over", end=True)]
    events = [*build[:1], build[1], *war, ev("round 2 plans", seats=None)]
    parts = stretches(events, public, "Round 1 - Build", "Round 2 - Plan")
    out = public_notices(parts, "g", ["a"], view, label_of=lambda v: v["phase_label"],
                         start_label="Round 1 - Build")
    assert [(kind, fields["label"]) for kind, fields in out] == [
        ("phase", "Round 1 - Build"), ("phase", "Round 1 - Wage War"), ("events", "Round 2 - Plan")]
    assert out[0][1]["view"] == {"phase_label": "Round 1 - Build", "map": 1}, "the map is titled as its post"
    assert out[1][1]["view"]["phase_label"] == "Round 1 - Wage War"
