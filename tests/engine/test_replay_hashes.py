"""Seeded AI matches of every game replay bit for bit: choice log, states, events and prompts.

The figures were recorded before the engine speed work (issue 18); a speed change that alters
any of them changed the game. Re-record only after a deliberate rules change:
python -m tests.engine.replay_digest
"""

from __future__ import annotations

import pytest

from tests.engine.replay_digest import MATCHES, Match, play

RECORDED = {
    "tinybigwars-2-0-heuristic": (179, "805a32dd814bcf3c52e51ad119017296777c3c5500736a0d679a0f8a0e83b058", "02f9a295cb7c940434536b758de16e40bde13f7b708903d1043e1252d1b4878f"),
    "tinybigwars-2-1-heuristic": (93, "189001ec01a8414697060a09df15ff8aca3ee115f8504564dd24f9694218bf01", "a935d740b9cfd0ec3445dfc47ec252586e5bf69ae862fa06151dc918b44dfe93"),
    "tinybigwars-2-2-heuristic": (148, "5d58e9b9690ca35220d7725ebd568bef35061ad66ea8499c73d7c9479bdcf787", "54729657e621fca2e6d7c86c4fde325084b1d3adf322ecdde6518224224c54dd"),
    "tinybigwars-3-0-heuristic": (142, "52f0f46d43befcf3f9f9cdaddd1a243b281ecf8d161fd5ad841b0620c481f18a", "81082079e6584092d313f22b749530419478c348dca59fcededb7cbc1daa5f46"),
    "tinybigwars-3-1-heuristic": (296, "368cbf1648307d5d8d84ebdee33ce9374590c0a744c284827377c9b520812160", "09d54f2c6bcbcf7ef63906bf86f8f5552e9055be11ca5854a6acf7bc60331967"),
    "tinybigwars-3-2-heuristic": (179, "cf52635875bb82030bd79c2ef1ee9b3935248e2865cb8ff036386827d870f778", "e33c8366caec013dff8d3fca525e22889323284b8874c66637a8fcd4ca72a9e7"),
    "tinybigwars-4-0-heuristic": (290, "5ded2d1f0f625de4a82e2fce55e3ed4119b558a79e4b1aa8594f9209c1a55cbe", "7233daebcbb8dcc3292e248b146a50df96e4a16d9ab2833aaf9822929f2c819d"),
    "tinybigwars-4-1-heuristic": (301, "d573ee91fdaee02f6e76afda15aba3155061e04dfcfd59bbafb5f552c293ad42", "89cfa9c92d400cdfcdd9fa8bea9d5ab75077f7d6998481539afbe9855be9d8a3"),
    "tinybigwars-4-2-heuristic": (279, "96de1b9865d5c2faaaef45f55f0f9cd6175273dc926db11fbb3f80e0126f03f6", "a2b544240837786deff67dc2ff92456588c69bab84609b739d1633f13ffb4428"),
    "tinybigwars-2-3-random": (302, "56329a4ed17b2fe6d06567aaaca10a2dcf5a8972a83f8667d27c060eab602327", "f461ae47cabc2906a06aef2941ffefdc199282a76042590ad47e6fd3374c943d"),
    "tinybigwars-2-4-random": (324, "39a8babf3bf4541f5cdc9f4829dacb5986b8ee623a9bb5901260ff024ca89839", "5a73f4f30f5060d6279b228badb33eb13b79d94afc978bb596e8833b5c580233"),
    "tinybigwars-4-3-random": (394, "779a284d5559fe1face7354dcd61cef1291a126da5819549c7c5b37846ac1d7d", "174706452e46bd37a8b2fe6e50931f614bc9be6eabd41aa0e79c028248fb8e74"),
    "tinybigwars-4-4-random": (402, "956bd75e058268a110c3a24438fb4e740249c0a07de3bab78a669c1debc68a19", "167ac7d4bb911b8c240fcde5652da7e3d1da7049b0d7f3b9e612f6e2c7032711"),
    "tinybigwars-3-5-heuristic-point_limit=40,to_win=14": (325, "20e0a5c6147f867dd84ea290115df6bf08164ce7dd8c74d91915de425f29ec0b", "7b4ca0d18ffa29e738d7c887dc3872be9bae1549283c379a9ccaba2a605a3378"),
    "samurai-4-0-heuristic": (468, "7071daa284a57400dc4ed99587cf1e7e855cb4650a2636a656eb0d60ac13846e", "6bd4a99b9d40584ab33450a9f2048216b7f3fb29f02428428252aa0e8cace815"),
    "samurai-3-1-heuristic-round_limit=4": (405, "fd9b72dba3903e344e376e26e6c2ad8d6c50682a8dd857a9fb821640298e0c86", "22ce5b29b3f72936b8b35c82b258cb7a1e23b84e40f7ce65ba57f12bf63f09e2"),
    "samurai-5-2-heuristic-mode=quickstart,round_limit=3": (536, "65a5b3e69ea7b729377b7a6eab14bf9387d72bdf9df5b2970edc53f61b844d84", "856f2d477e08e7ba3f07ca98c0dd0c882f95378b619815245c6d2cdc10d4bdf6"),
    "samurai-4-3-heuristic-mode=lwtv,round_limit=3": (467, "46425ca9cddaaf899b6d6d7f9cc25592823b6db3e7d1a1670b03f413a2f8c18d", "003f51ca36a01a5e37b93b9e7352490c52784ac01136887c6c45867ba8455ca0"),
    "samurai-4-4-heuristic-setup=classic,steps=classic,round_limit=2": (285, "8f3b0be354d3bd57c3239d48d0c60f9b4cc5a4b96183e815865e653ba0852da8", "f7e5ee7bc3e4ed8d28a6747a0b60861416935ac1a31828c6a319f1908ecbbfbf"),
    "samurai-3-5-random-round_limit=3": (398, "20c267e2854db9bd85e206d0b0c669c7da17e1f3a8dcc4dbcea5cadfc26917ab", "f8e14e78b0d8aa3556b75a8d8cf359af3ae03d49a4129dbb962177ff139a2db5"),
    "samurai-5-6-random-mode=lwtv,round_limit=2": (406, "b4cb6f0a1315d2bbbf12e07e06b754740b7736a41c560ddd85be9d0eae028c4a", "2c281a531ad8fb35c0f46c3be6ca9c4766222aa11e7c2bfb7d270bcfeb53f08a"),
    "defenders-1-0-heuristic": (131, "5f76a66075785abbacafa1cbdc97fb253f5a65872a2202b9450d34b07b5ef5e8", "b5bd65ae3c7535ad3b4bb3024d090907126103e4775088fcfc0ae79af8a7a17f"),
    "defenders-2-1-heuristic-difficulty=hard": (140, "7c232a684f20469cdff9c6a97f6e01f229546ca000250ad2c0adee59019b783c", "53199b9ee87b43867cd56ba76c657635ce8112372bc405fb1f5203e4ebd39be9"),
    "defenders-4-2-heuristic-mode=campaign": (480, "8df36515132d7dd10cb7d4c781da802c75286bd8429805dae30a2b4ff6b7920c", "4d0be30b8b86ae9d225a53fc187fac7ed2131303f3302bf5fb5bcd7119489c51"),
    "defenders-3-3-random": (91, "47e1ffcdccd73d24dfa8ea9a75f93ef46c4708c80253128cec4c1c4465f19c09", "008df8320560fa84dadd5e22a9245e8dcb68d5d4ea2755c8cbe15ff94c0e9bca"),
}


def test_every_match_has_a_recorded_digest() -> None:
    assert sorted(m.label for m in MATCHES) == sorted(RECORDED)


@pytest.mark.parametrize("match", MATCHES, ids=lambda m: m.label)
def test_seeded_match_replays_bit_identical(match: Match) -> None:
    digest = play(match)
    assert (digest.choices, digest.log_sha256, digest.play_sha256) == RECORDED[match.label]
