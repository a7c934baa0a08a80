"""Seeded AI matches of every game replay bit for bit: choice log, states, events and prompts.

The figures were recorded before the engine speed work (issue 18) and recorded again once, after
wording changes only (counted nouns, dice written plainly, the fight's rolls in the energy prompt, Samurai's region prompts, Defenders'
card counts): every choice count and log sha256 stayed the same. A speed change that alters any
of them changed the game. Recorded again after issue 28 (a deliberate rules change): every
Samurai play digest changed (states hold each player's `losses_order`, options `edition` and
`losses`), every Samurai choice log stayed the same except samurai-3-5-random, where defenders'
standing orders answer what they were asked before (398 -> 357 choices; with losses="asked"
the old log comes back); samurai-4-10-heuristic-lwtv was added (a discard over the hand limit
asked as an interrupt). Tiny Big Wars and Defenders unchanged. Re-record only after a
deliberate rules change:
python -m tests.engine.replay_digest
"""

from __future__ import annotations

import pytest

from tests.engine.replay_digest import MATCHES, Match, play

RECORDED = {
    "tinybigwars-2-0-heuristic": (179, "805a32dd814bcf3c52e51ad119017296777c3c5500736a0d679a0f8a0e83b058", "030692e0af80aa9f3822a8169c134df1945d92df57c54871c0e5d11c5e4f3542"),
    "tinybigwars-2-1-heuristic": (93, "189001ec01a8414697060a09df15ff8aca3ee115f8504564dd24f9694218bf01", "2b346439a1c299ba9dbad2188ba7a11f15fd06f64b00799b47ce86985988cb18"),
    "tinybigwars-2-2-heuristic": (148, "5d58e9b9690ca35220d7725ebd568bef35061ad66ea8499c73d7c9479bdcf787", "62fa13602510f8419b1497e2ebf374820079650a9c50f50a92add6c65cc95911"),
    "tinybigwars-3-0-heuristic": (142, "52f0f46d43befcf3f9f9cdaddd1a243b281ecf8d161fd5ad841b0620c481f18a", "ce4c3d3a7f9d82893c166607b12c54dccdd87ac4648f9ee6d99bb5c92a529885"),
    "tinybigwars-3-1-heuristic": (296, "368cbf1648307d5d8d84ebdee33ce9374590c0a744c284827377c9b520812160", "1f4c118d55c8924eb1d25c3836095dc2b3d6060a2cd8b624fa265d2b4bea08d6"),
    "tinybigwars-3-2-heuristic": (179, "cf52635875bb82030bd79c2ef1ee9b3935248e2865cb8ff036386827d870f778", "06bb900a6ef20713767a18f7f573703305c3ecf13a3922b165da42b05ef55223"),
    "tinybigwars-4-0-heuristic": (290, "5ded2d1f0f625de4a82e2fce55e3ed4119b558a79e4b1aa8594f9209c1a55cbe", "40222775616dc44065a03f804a660bf7d4eb7b25ae6b1b09a1f23d907c5bcb40"),
    "tinybigwars-4-1-heuristic": (301, "d573ee91fdaee02f6e76afda15aba3155061e04dfcfd59bbafb5f552c293ad42", "7f20dac9147273a0a0a498355018226bb3c4fe5b1604882d60b736a12af25b7e"),
    "tinybigwars-4-2-heuristic": (279, "96de1b9865d5c2faaaef45f55f0f9cd6175273dc926db11fbb3f80e0126f03f6", "fc72e01712b8f0154502628b36177f3c179edc4de22da2f65325daeaffbb47d8"),
    "tinybigwars-2-3-random": (302, "56329a4ed17b2fe6d06567aaaca10a2dcf5a8972a83f8667d27c060eab602327", "b96e45a39a4da8752fa97c68897ee950b8dbc00af01893bcb5e974ba863c72a2"),
    "tinybigwars-2-4-random": (324, "39a8babf3bf4541f5cdc9f4829dacb5986b8ee623a9bb5901260ff024ca89839", "e341de2a20b90289cdc72b706446c05966a91203247a8c38a66b56ffd6435ede"),
    "tinybigwars-4-3-random": (394, "779a284d5559fe1face7354dcd61cef1291a126da5819549c7c5b37846ac1d7d", "4a6d0d9366ae1cfe3269de6757e84333fcbbd44fc9f86e18403583f939407927"),
    "tinybigwars-4-4-random": (402, "956bd75e058268a110c3a24438fb4e740249c0a07de3bab78a669c1debc68a19", "71c82133b970283cdedef87a42b06f964bef699ec0a0dd7a9c6ca9b799ea39ad"),
    "tinybigwars-3-5-heuristic-point_limit=40,to_win=14": (325, "20e0a5c6147f867dd84ea290115df6bf08164ce7dd8c74d91915de425f29ec0b", "f0211a7781e1ceac063cd7cce90eb3dd177ac1ce8ef980ecf04476c83eda22ba"),
    "samurai-4-0-heuristic": (468, "7071daa284a57400dc4ed99587cf1e7e855cb4650a2636a656eb0d60ac13846e", "00a6c80f1f8c3d75e21c88dbb395669a96b73d8f082c0ad2dba4d353ae8d7e9b"),
    "samurai-3-1-heuristic-round_limit=4": (405, "fd9b72dba3903e344e376e26e6c2ad8d6c50682a8dd857a9fb821640298e0c86", "bdbb74e049fa71d2a42da8175f7f4f43a5e90c93b2016a2709a5fc98b4add433"),
    "samurai-5-2-heuristic-mode=quickstart,round_limit=3": (536, "65a5b3e69ea7b729377b7a6eab14bf9387d72bdf9df5b2970edc53f61b844d84", "4ac249e4acc651e3c299297dd574eaf85f061bd00b8df6daadf805d4bf6c0a17"),
    "samurai-4-3-heuristic-mode=lwtv,round_limit=3": (467, "46425ca9cddaaf899b6d6d7f9cc25592823b6db3e7d1a1670b03f413a2f8c18d", "d131e449700b871efe322d5165bbb09c2bec829b0a8d077ae256cf5c08dc56e8"),
    "samurai-4-4-heuristic-setup=classic,steps=classic,round_limit=2": (285, "8f3b0be354d3bd57c3239d48d0c60f9b4cc5a4b96183e815865e653ba0852da8", "ed05d4861e293790d0de576b6e0e06b723f2fbf6ea31c3cfb2c9c5ab54308602"),
    "samurai-3-5-random-round_limit=3": (357, "0cc1a614ece05ebf7ef2eb6321564fb4cdba586c812f3da4eac70ba4aace72e7", "42d082d1dda388d88d84422735a7657232f599287b4253af1b85af94e7edf261"),
    "samurai-5-6-random-mode=lwtv,round_limit=2": (406, "b4cb6f0a1315d2bbbf12e07e06b754740b7736a41c560ddd85be9d0eae028c4a", "e126aa947a25f132861f0a3d43f7388a5951ba859e3d2ef708a18f1dea252d88"),
    "samurai-4-10-heuristic-mode=lwtv,round_limit=5": (671, "e5bbf74e3ce03514c7e035e29e8421ab13db2e44e7e843906c77a2900b898aae", "df9ce5245e5c974e4acb6270832a91fe743736242b9c916a9ed007274824a5b1"),
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
