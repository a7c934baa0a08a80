"""A toy game built with only the steps of docs/architecture.md's "How to add a game", and
played through the service and the fake Discord: the proof that those steps are enough.

``lanterns/`` is the game (what ``engine/<key>/`` would hold, one module per step),
``renderer.py`` its pictures (``render/<key>/``), ``rules.toml`` its `/game rules` topics
(``bot/rules/<key>.toml``). It is not shipped, so it is registered at run time
(``engine.register(GAME, renderer=..., rules=...)``, in ``registration.py``) and taken back after
each test that uses it.
"""
