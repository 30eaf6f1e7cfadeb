#!/usr/bin/env python3
"""Builds corrupt_states.json: saved World Trigger battle states with one
inconsistency each, refused with `invalid_data` naming the
field. The base state is the accepted input of listing_limits.json (a battle set
up by the core); every mutation and expectation is written by hand from RULES.md
/ RULINGS.md. Run from the repository root:

    python3 testdata/vectors/world_trigger_battle/gen_corrupt_states.py
"""
import copy, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = next(c for c in json.load(open(os.path.join(HERE, "listing_limits.json")))
            if c["id"] == "wt-battle-listing-mobility-28-one-member")["args"]["state"]
M0 = BASE["members"][0]
assert M0["triggers"] == {"main": ["scorpion", "grasshopper", "shield"], "sub": ["scorpion", "shield", "bagworm"]}
assert [a["id"] for a in M0["abilities"]] == ["attacker_position_skill", "placeholder_l_trait"]
assert not any(a["repeatable"] for a in M0["abilities"])
assert len(BASE["catalog"]["triggers"]) == 12 and len(BASE["catalog"]["operator_skills"]) == 1
assert [t["min_damage"] for t in BASE["catalog"]["damage_tables"]["border"]] == [10, 20, 30]

out = []


def case(cid, rule, comment, mutate, field):
    s = copy.deepcopy(BASE)
    mutate(s)
    out.append({"id": "wt-battle-corrupt-" + cid, "rule": rule, "comment": comment,
                "call": "world_trigger.battle_legal_actions", "args": {"state": s},
                "expect_error": {"code": "invalid_data", "field": field}})


def m0(s):
    return s["members"][0]


case("trigger-twice-in-a-slot-list", "WT-CC-7",
     "Scorpion in two of the main slots: each slot list holds a trigger once.",
     lambda s: m0(s)["triggers"].update(main=["scorpion", "grasshopper", "scorpion"]),
     "state.members[0].triggers.main[2]")
case("condition-twice", "WT-DT-3",
     "A condition is held or not: trion_leak_small listed twice (a damage-table row already held shifts to "
     "the next row instead).",
     lambda s: m0(s).update(conditions=["trion_leak_small", "trion_leak_small"]),
     "state.members[0].conditions[1]")
case("ability-id-twice", "WT-ECO-5",
     "The member's position skill listed twice among its abilities.",
     lambda s: m0(s).update(abilities=[{"id": "attacker_position_skill", "repeatable": False}] * 2),
     "state.members[0].abilities[1].id")
case("used-ability-unknown", "WT-ECO-5",
     "used.abilities names a skill the member doesn't have.",
     lambda s: m0(s)["used"].update(abilities=["sniper_position_skill"]),
     "state.members[0].used.abilities[0]")
case("used-ability-twice", "WT-ECO-5",
     "A skill not marked repeatable is used once a round: listed twice in used.abilities.",
     lambda s: m0(s)["used"].update(abilities=["attacker_position_skill", "attacker_position_skill"]),
     "state.members[0].used.abilities[1]")
case("active-main-unequipped", "WT-TRG-4",
     "Bagworm is active on the main side, but it is equipped only on the sub side.",
     lambda s: m0(s)["used"].update(active_main=["bagworm"]),
     "state.members[0].used.active_main[0]")
case("catalog-trigger-twice", "WT-CC-7",
     "The catalog lists the first trigger twice.",
     lambda s: s["catalog"]["triggers"].append(copy.deepcopy(s["catalog"]["triggers"][0])),
     "state.catalog.triggers[12].id")
case("catalog-operator-skill-twice", "WT-OP-6",
     "The catalog lists an operator command twice.",
     lambda s: s["catalog"]["operator_skills"].append(copy.deepcopy(s["catalog"]["operator_skills"][0])),
     "state.catalog.operator_skills[1].id")


def dup_tier(s):
    b = s["catalog"]["damage_tables"]["border"]
    b.insert(1, copy.deepcopy(b[0]))


case("damage-tier-twice", "WT-DT-2",
     "The border table has two tiers for 10+ damage: one tier per threshold.",
     dup_tier, "state.catalog.damage_tables.border[1].min_damage")
case("damage-tiers-reordered", "WT-DT-2",
     "The border tiers listed 30, 20, 10: a battle setup stores them lowest first.",
     lambda s: s["catalog"]["damage_tables"]["border"].reverse(),
     "state.catalog.damage_tables.border[1].min_damage")

# --- the rules' own invariants: stats a legal build reaches, Trion, initiative ----------
# Each refusal names the rule it protects (its `rule` is the first ID listed).
def invariant(cid, rule, comment, mutate, field):
    case(cid, rule, comment, mutate, field)
    out[-1]["expect_error"]["rule"] = rule.split()[0]


def every_member(key, value):
    def go(s):
        for m in s["members"]:
            m["stats"][key] = value
    return go


invariant("mobility-99", "WT-CC-5 WT-CC-6 WT-CC-3",
          "The audit's tampered save: every member at Mobility 99 on a 64 x 64 map. A built character's stat is "
          "at most the creation cap 9 + 1 (master) + two traits' bonuses (at most 9 each): 28.",
          every_member("mobility", 99), "state.members[0].stats.mobility")
invariant("mobility-29", "WT-CC-5 WT-CC-6 WT-CC-3",
          "One point above the most a legal build reaches (28).",
          lambda s: m0(s)["stats"].update(mobility=29), "state.members[0].stats.mobility")
invariant("starting-trion-not-derived", "WT-DER-3 WT-DER-2",
          "Trion 5 and 6 filled slots give 5 x 10 + 40 - 30 = 60 starting Trion, not 61.",
          lambda s: m0(s).update(starting_trion=61, trion=61), "state.members[0].starting_trion")
invariant("trion-above-starting", "WT-DER-4 WT-KO-3",
          "Trion is only spent (a mock revival restores the starting value): 61 is above the starting 60.",
          lambda s: m0(s).update(trion=61), "state.members[0].trion")


def initiative_order_reversed(s):
    # Initiatives 3, 4, 6, 1: the teams act 2, 1, 0, 3; reversed, team 3 (1) acts before team 0 (3).
    assert [t["initiative"] for t in s["teams"]] == [3, 4, 6, 1] and s["initiative_order"] == [2, 1, 0, 3]
    s["initiative_order"] = [3, 0, 1, 2]


invariant("initiative-order-reversed", "WT-INIT-1 WT-INIT-2",
          "The teams' order reversed against their distinct initiatives (highest acts first).",
          initiative_order_reversed, "state.initiative_order[1]")


def initiative_phase(s):
    s["phase"] = "initiative"
    s["turn"] = 0
    for t in s["teams"]:
        t["initiative"] = None
    for m in s["members"]:
        m["used"] = {}


def kept_initiative(s):
    initiative_phase(s)
    s["teams"][0]["initiative"] = 3


invariant("initiative-before-the-roll", "WT-INIT-3 WT-INIT-1",
          "The Initiative phase with an initiative already recorded: it is rolled every round, in this phase.",
          kept_initiative, "state.teams[0].initiative")


def active_at_zero(s):
    initiative_phase(s)
    m0(s).update(trion=0)


invariant("active-at-zero-trion", "WT-KO-1 WT-KO-4",
          "A member fighting on at Trion 0 into the Initiative phase: it went out at the Feedback phase.",
          active_at_zero, "state.members[0].status")
out.append({"id": "wt-battle-corrupt-initiative-phase-control", "rule": "WT-INIT-3",
            "comment": "The control of the two cases above: the Initiative phase with no initiative recorded and "
                       "every member above Trion 0 is accepted.",
            "call": "world_trigger.battle_legal_actions",
            "args": {"state": (lambda s: (initiative_phase(s), s)[1])(copy.deepcopy(BASE))},
            "expect": {"actions": {"contains": [{"action": {"type": "roll_initiative"}}]}}})

with open(os.path.join(HERE, "corrupt_states.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in out) + "\n]\n")
print(len(out), "cases")
