"""Seeded AI matches of every game replay bit for bit: choice log, states, events and prompts.

The figures were recorded before the engine speed work (issue 18) and recorded again once, after
wording changes only (counted nouns, dice written plainly, Samurai's region prompts, Defenders'
card counts): every choice count and log sha256 stayed the same. A speed change that alters any
of them changed the game. Re-record only after a deliberate rules change:
python -m tests.engine.replay_digest
"""

from __future__ import annotations

import pytest

from tests.engine.replay_digest import MATCHES, Match, play

RECORDED = {
    "tinybigwars-2-0-heuristic": (179, "805a32dd814bcf3c52e51ad119017296777c3c5500736a0d679a0f8a0e83b058", "5703d5ac1ccfb58f66d40e13f8cc64b9ab9f16d196521d2379bc68e4409150cb"),
    "tinybigwars-2-1-heuristic": (93, "189001ec01a8414697060a09df15ff8aca3ee115f8504564dd24f9694218bf01", "f3f0076375a6bdfa987e8d751da617098555f2fecf8806b0c7fb1aaa0cb0a7ff"),
    "tinybigwars-2-2-heuristic": (148, "5d58e9b9690ca35220d7725ebd568bef35061ad66ea8499c73d7c9479bdcf787", "d1575ad48ca3caf4b48117e4ee90914cbd7a233a3e64ba9f0fc0c2705af482f7"),
    "tinybigwars-3-0-heuristic": (142, "52f0f46d43befcf3f9f9cdaddd1a243b281ecf8d161fd5ad841b0620c481f18a", "ac044cc8d3ddf5d5d64e1c32db6a9b53826173069ba98eadf7e9525931fc2447"),
    "tinybigwars-3-1-heuristic": (296, "368cbf1648307d5d8d84ebdee33ce9374590c0a744c284827377c9b520812160", "fb670e006006abe7c578e9a8ab6476ea276e43bb77e97ee879aab1623284ba0c"),
    "tinybigwars-3-2-heuristic": (179, "cf52635875bb82030bd79c2ef1ee9b3935248e2865cb8ff036386827d870f778", "86581b28f28c21966ea7da56b7b060e230325e84eafc52874eecbd219c2db09e"),
    "tinybigwars-4-0-heuristic": (290, "5ded2d1f0f625de4a82e2fce55e3ed4119b558a79e4b1aa8594f9209c1a55cbe", "55719b425908f876ed3836724d6d5ef8c9a8f0e3a6dd620604436f5c397f352d"),
    "tinybigwars-4-1-heuristic": (301, "d573ee91fdaee02f6e76afda15aba3155061e04dfcfd59bbafb5f552c293ad42", "ae7e866afef53a387d974fa5c6c91cff16b85660b63e64c6fbc6be9983cdd344"),
    "tinybigwars-4-2-heuristic": (279, "96de1b9865d5c2faaaef45f55f0f9cd6175273dc926db11fbb3f80e0126f03f6", "251cdce2aaad0a4970ca5cffdc21554e1c1a3e4e6200440f9ab640d0f2699e2f"),
    "tinybigwars-2-3-random": (302, "56329a4ed17b2fe6d06567aaaca10a2dcf5a8972a83f8667d27c060eab602327", "a4deef1ca7afb058b30d510033931fc59b0cde8f9ab8b96907102dd3bdfc380d"),
    "tinybigwars-2-4-random": (324, "39a8babf3bf4541f5cdc9f4829dacb5986b8ee623a9bb5901260ff024ca89839", "b3ab10b19db33de5ff0e2a002300c0d04bd9fc6e11cc25720a6152c534f14341"),
    "tinybigwars-4-3-random": (394, "779a284d5559fe1face7354dcd61cef1291a126da5819549c7c5b37846ac1d7d", "a1ac874befde542eafd8b991af04b956b6aea4178ebd5cc337ad6c21e9b2de97"),
    "tinybigwars-4-4-random": (402, "956bd75e058268a110c3a24438fb4e740249c0a07de3bab78a669c1debc68a19", "d23423b796614720dbe6ac48b3946ed8f1ddc038a71c7952e0b9101d254c61b6"),
    "tinybigwars-3-5-heuristic-point_limit=40,to_win=14": (325, "20e0a5c6147f867dd84ea290115df6bf08164ce7dd8c74d91915de425f29ec0b", "63ac84fc606a49ca52160f3fc92c5e3240814d219ebfde94e7b0f279fb1d7e88"),
    "samurai-4-0-heuristic": (468, "7071daa284a57400dc4ed99587cf1e7e855cb4650a2636a656eb0d60ac13846e", "4d496a5186dd0ae6df1a449fd69e1f577f15dce0fdc4ccae5a21c5a73721d178"),
    "samurai-3-1-heuristic-round_limit=4": (405, "fd9b72dba3903e344e376e26e6c2ad8d6c50682a8dd857a9fb821640298e0c86", "c5f997d68446fc7fd1ca1d794cb46c86683205924aeaf55e5aa03275792e498d"),
    "samurai-5-2-heuristic-mode=quickstart,round_limit=3": (536, "65a5b3e69ea7b729377b7a6eab14bf9387d72bdf9df5b2970edc53f61b844d84", "1a92e4c096bfa63d06028058204ce860e14009cfa8cf6e26b07c6f0530532d0d"),
    "samurai-4-3-heuristic-mode=lwtv,round_limit=3": (467, "46425ca9cddaaf899b6d6d7f9cc25592823b6db3e7d1a1670b03f413a2f8c18d", "3ad5bc2e955d634455c2cfd8fed486cd0fd4376d1b17f3b67c2ebf8827c46458"),
    "samurai-4-4-heuristic-setup=classic,steps=classic,round_limit=2": (285, "8f3b0be354d3bd57c3239d48d0c60f9b4cc5a4b96183e815865e653ba0852da8", "f7e5ee7bc3e4ed8d28a6747a0b60861416935ac1a31828c6a319f1908ecbbfbf"),
    "samurai-3-5-random-round_limit=3": (398, "20c267e2854db9bd85e206d0b0c669c7da17e1f3a8dcc4dbcea5cadfc26917ab", "1010886ed6ffae143ab24cce5296a1706c4ff11c4a2bf4ca2331bbb798da1338"),
    "samurai-5-6-random-mode=lwtv,round_limit=2": (406, "b4cb6f0a1315d2bbbf12e07e06b754740b7736a41c560ddd85be9d0eae028c4a", "37a3a57187a28d1a64736ac63b52e466d7f2bcf50bc2705aa33400dcf2c948eb"),
    "defenders-1-0-heuristic": (131, "5f76a66075785abbacafa1cbdc97fb253f5a65872a2202b9450d34b07b5ef5e8", "eec9c6d630c9dfb0d9c9ae56dfdd57c7973a42ad39e22e3402fc8c4763ec37ff"),
    "defenders-2-1-heuristic-difficulty=hard": (140, "7c232a684f20469cdff9c6a97f6e01f229546ca000250ad2c0adee59019b783c", "3bcd604d744a2331dd3844096e70daf67a94ad1077ae3fb2c92c224dd9f8e87e"),
    "defenders-4-2-heuristic-mode=campaign": (480, "8df36515132d7dd10cb7d4c781da802c75286bd8429805dae30a2b4ff6b7920c", "2f5bd53ece586023e690eb8c12131d0c105485c2545e927848d96f9f8a00b945"),
    "defenders-3-3-random": (91, "47e1ffcdccd73d24dfa8ea9a75f93ef46c4708c80253128cec4c1c4465f19c09", "87898f2021727464c12cfd4ef3223adbdb28ccc31d212f9daa8072858b87c7b5"),
}


def test_every_match_has_a_recorded_digest() -> None:
    assert sorted(m.label for m in MATCHES) == sorted(RECORDED)


@pytest.mark.parametrize("match", MATCHES, ids=lambda m: m.label)
def test_seeded_match_replays_bit_identical(match: Match) -> None:
    digest = play(match)
    assert (digest.choices, digest.log_sha256, digest.play_sha256) == RECORDED[match.label]
