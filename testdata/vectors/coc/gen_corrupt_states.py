#!/usr/bin/env python3
"""Builds corrupt_states.json: saved CoC 6th-edition AP rounds, CoC 7th-edition house
rounds and chases with one value no legal play reaches, refused with `invalid_data`
naming the field and the rule it breaks, beside a nearby reachable state that is
accepted. The base states are what `round_new` / `chase_new` return for the
participants below; every mutation and expectation is written by hand from RULES.md /
RULINGS.md. Run from the repository root:

    python3 testdata/vectors/coc/gen_corrupt_states.py
"""
import copy, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
out = []

# COCAP: a (DEX 14: 2 + 14 // 6 = 4 AP), b (DEX 10: 3 AP); DEX order a, b (COCAP-ORD-1).
AP = {"round": 1, "variants": {},
      "fighters": [
          {"participant": {"id": "a", "dex": 14, "skills": {"dodge": 50, "first_aid": 40},
                           "weapons": [{"name": "knife", "skill": 50, "attacks_per_round": 1}]}, "ap": 4},
          {"participant": {"id": "b", "dex": 10, "skills": {"dodge": 30}}, "ap": 3}],
      "order": ["a", "b"], "turn": 0, "open": True}
# C7H: A (DEX 60, PC: initiative 12), B (DEX 50: 10); order A, B (C7H-INIT-1).
C7H = {"round": 1,
       "combatants": [{"entry": {"id": "A", "dex": 60, "is_pc": True}},
                      {"entry": {"id": "B", "dex": 50}}],
       "order": ["A", "B"], "turn": 0}
# Chase: chase_new's defaults (gap 2, escape at 5 or 3 wins), no round played yet.
CHASE = {"round": 0, "fugitive": {"id": "F", "mov": 8, "dex": 50, "skill": 50},
         "pursuer": {"id": "P", "mov": 8, "dex": 60, "skill": 50},
         "gap": 2, "escape_gap": 5, "wins_needed": 3, "fugitive_wins": 0, "status": "ongoing", "rule": 0}

CALLS = {"ap": "coc_ap.round_legal_actions", "c7h": "coc7_house.round_legal_actions",
         "chase": "coc7_house.chase_legal_actions"}
BASES = {"ap": AP, "c7h": C7H, "chase": CHASE}
PREFIX = {"ap": "coc_ap", "c7h": "coc7_house-round", "chase": "coc7_house-chase"}


def case(kind, cid, rule, comment, mutate, field=None, expect=None):
    s = copy.deepcopy(BASES[kind])
    mutate(s)
    c = {"id": f"{PREFIX[kind]}-corrupt-" + cid, "rule": rule, "comment": comment,
         "call": CALLS[kind], "args": {"state": s}}
    if field is None:
        c["expect"] = expect if expect is not None else {}
    else:
        c["expect_error"] = {"code": "invalid_data", "field": field, "rule": rule.split()[0]}
    out.append(c)


def f(s, i):
    return s["fighters"][i]


def c(s, i):
    return s["combatants"][i]


def attacked(s):
    # a attacked once with its knife: 1 AP spent, the round no longer open.
    s["open"] = False
    f(s, 0).update(ap=3, attacks={"knife": 1})


# --- coc_ap -----------------------------------------------------------------------
case("ap", "base-accepted", "COCAP-RND-1 COCAP-ORD-1 COCAP-AP-3",
     "The control: the round as round_new makes it (a first by DEX, 4 and 3 AP) is accepted.",
     lambda s: None, expect={"actions": {"contains": [{"action": {"type": "dodge_focus", "actor": "a"}}]}})
case("ap", "order-against-dex", "COCAP-ORD-1",
     "b (DEX 10) listed before a (DEX 14): the order is DEX descending.",
     lambda s: s.update(order=["b", "a"]), "state.order[0]")
case("ap", "ap-500", "COCAP-AP-1 COCAP-AP-3",
     "The audit's case: a holds 500 AP; a round gives a 2 + floor(14 / 6) = 4.",
     lambda s: f(s, 0).update(ap=500), "state.fighters[0].ap")
case("ap", "after-attack-accepted", "COCAP-ACT-2 COCAP-AP-1",
     "The control: a attacked once (1 AP) and has 3 AP left.", attacked,
     expect={"actions": {"contains": [{"action": {"type": "end_turn", "actor": "a"}}]}})
case("ap", "attack-not-paid", "COCAP-AP-1 COCAP-ACT-2",
     "a attacked once but still holds all 4 AP: each attack costs 1.",
     lambda s: (attacked(s), f(s, 0).update(ap=4)), "state.fighters[0].ap")
case("ap", "attacks-past-the-weapon", "COCAP-ACT-2",
     "Two knife attacks in a round; the knife allows one.",
     lambda s: (attacked(s), f(s, 0).update(ap=2, attacks={"knife": 2})), "state.fighters[0].attacks.knife")
case("ap", "treated-and-attacked", "COCAP-ACT-4",
     "Treatment in a round with an attack (2 + 1 AP paid): no treatment in a round with an attack.",
     lambda s: (attacked(s), f(s, 0).update(ap=1, treated=True)), "state.fighters[0].treated")
case("ap", "second-dodge-without-focus", "COCAP-ACT-3",
     "b dodged twice without Dodge Focus: one dodge a round.",
     lambda s: (s.update(open=False), f(s, 1).update(dodges=2)), "state.fighters[1].dodges")
case("ap", "open-after-an-action", "COCAP-ACT-8",
     "b has dodged but the round says it is still open (Dodge Focus only at its start).",
     lambda s: f(s, 1).update(dodges=1), "state.open")
case("ap", "turn-skipped", "COCAP-RND-2",
     "b's turn while a's has not ended: turns end in order.",
     lambda s: s.update(turn=1, open=False), "state.fighters[0].turn_done")

# --- coc7_house round -----------------------------------------------------------------
case("c7h", "base-accepted", "C7H-INIT-1 C7H-INIT-2",
     "The control: the round as round_new makes it (A, initiative 12, first).",
     lambda s: None, expect={"actions": {"contains": [{"action": {"type": "move", "actor": "A"}}]}})
case("c7h", "order-not-by-initiative", "C7H-INIT-1 C7H-INIT-2",
     "The audit's case: B (initiative 10) listed before A (12): initiative descending, then DEX.",
     lambda s: s.update(order=["B", "A"]), "state.order[0]")
case("c7h", "second-turn-accepted", "C7H-INIT-1 C7H-MOV-1",
     "The control: A moved, acted and ended its turn; B's turn.",
     lambda s: (s.update(turn=1), c(s, 0).update(moved=True, active_used=True, turn_done=True)),
     expect={"actions": {"contains": [{"action": {"type": "end_turn", "actor": "B"}}]}})
case("c7h", "turn-skipped", "C7H-INIT-1",
     "B's turn while A's has not ended: turns end in order.",
     lambda s: s.update(turn=1), "state.combatants[0].turn_done")
case("c7h", "moved-before-its-turn", "C7H-MOV-1",
     "B moved during A's turn: moving is at the start of one's own turn.",
     lambda s: c(s, 1).update(moved=True), "state.combatants[1].moved")
case("c7h", "active-before-its-turn", "C7H-MOV-1 C7H-ECO-1",
     "B used its active action during A's turn: the active action is on one's own turn.",
     lambda s: c(s, 1).update(active_used=True), "state.combatants[1].active_used")
case("c7h", "stance-die-without-stance", "C7H-STN-1",
     "A used a stance bonus die with no stance in force.",
     lambda s: c(s, 0).update(stance_die_used=True), "state.combatants[0].stance_die_used")

# --- coc7_house chase -----------------------------------------------------------------
case("chase", "two-rounds-accepted", "C7H-ESC-6",
     "The control: two rounds, both won by the fugitive (gap 2 -> 4, 2 wins): still going.",
     lambda s: s.update(round=2, gap=4, fugitive_wins=2),
     expect={"actions": [{"action": {"type": "round"}}]})
case("chase", "escaped-against-the-gap", "C7H-ESC-6",
     "Marked escaped at gap 2 with no wins: the status follows from the gap (5) and the wins (3).",
     lambda s: s.update(status="escaped"), "state.status")
case("chase", "caught-with-a-gap", "C7H-ESC-6",
     "Marked caught while 2 steps remain: caught means the gap closed to 0.",
     lambda s: s.update(round=1, status="caught"), "state.status")
case("chase", "more-wins-than-rounds", "C7H-ESC-6",
     "Two fugitive wins after one round: each round's opposed roll gives at most one.",
     lambda s: s.update(round=1, gap=3, fugitive_wins=2), "state.fugitive_wins")
case("chase", "rounds-without-pursuer", "C7H-ESC-1",
     "No pursuer, yet 3 rounds played: without a pursuer the fugitive leaves at once.",
     lambda s: s.update(pursuer=None, status="escaped", round=3), "state.round")

with open(os.path.join(HERE, "corrupt_states.json"), "w") as fh:
    fh.write("[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in out) + "\n]\n")
print(len(out), "cases")
