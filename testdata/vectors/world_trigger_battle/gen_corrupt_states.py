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
            if c["id"] == "wt-battle-listing-mobility-99-one-member")["args"]["state"]
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

with open(os.path.join(HERE, "corrupt_states.json"), "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in out) + "\n]\n")
print(len(out), "cases")
