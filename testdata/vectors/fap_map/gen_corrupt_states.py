#!/usr/bin/env python3
"""Builds corrupt_states.json: saved FAP/MAP rounds with one value no legal play
reaches, refused with `invalid_data` naming the field and the rule it breaks, beside
a nearby reachable state that is accepted. The base state is what `round_new`
returns for the combatants below; every mutation and expectation is written by hand
from RULES.md / RULINGS.md. Run from the repository root:

    python3 testdata/vectors/fap_map/gen_corrupt_states.py
"""
import copy, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
out = []

# FM-AP-2: aki (Reaction 10, Magic 3) has FAP 10 and MAP 3 (tenths: 100 and 30); cy
# (Reaction 8, Magic 5): FAP 8, MAP 5.
BASE = {"pack_id": "fap_map-chapter1", "round": 1, "phase": "declaration", "combatants": [
    {"id": "aki", "reaction": 10, "magic": 3, "agility": 5, "fap_max_tenths": 100, "map_max_tenths": 30,
     "fap_tenths": 100, "map_tenths": 30, "declared": [], "move_cap_used": 0, "speech_penalty": False},
    {"id": "cy", "reaction": 8, "magic": 5, "agility": 9, "fap_max_tenths": 80, "map_max_tenths": 50,
     "fap_tenths": 80, "map_tenths": 50, "declared": [], "move_cap_used": 0, "speech_penalty": False}]}
SUSTAINED = {"declaration": {"action": "sustained_action", "example": "safe_driving", "fap_tenths": 30,
                             "map_tenths": 30}, "status": "pending", "carried": True}


def case(cid, rule, comment, mutate, field=None, expect=None):
    s = copy.deepcopy(BASE)
    mutate(s)
    c = {"id": "fap_map-corrupt-" + cid, "rule": rule, "comment": comment,
         "call": "fap_map.round_legal_actions", "args": {"state": s}}
    if field is None:
        c["expect"] = expect if expect is not None else {}
    else:
        c["expect_error"] = {"code": "invalid_data", "field": field, "rule": rule.split()[0]}
    out.append(c)


def aki(s):
    return s["combatants"][0]


LISTED = {"actions": {"contains": [{"action": {"type": "end_declarations"}}]}}
case("base-accepted", "FM-AP-1 FM-AP-2 FM-DEF-4",
     "The control: the round as round_new makes it.", lambda s: None, expect=LISTED)
case("fap-cap-5000", "FM-AP-2 FM-AP-1",
     "The audit's case: FAP cap 500 points for Reaction 10. Unless special traits set it, FAP = Reaction.",
     lambda s: aki(s).update(fap_max_tenths=5000), "state.combatants[0].fap_max_tenths")
case("map-cap-above-magic", "FM-AP-2 FM-AP-1",
     "MAP cap 3.1 for Magic power 3: unless special traits set it, MAP = Magic power.",
     lambda s: aki(s).update(map_max_tenths=31), "state.combatants[0].map_max_tenths")
case("trait-pools-accepted", "FM-AP-2",
     "The control: pools set by special traits (round_new given `traits`) need not equal the stats.",
     lambda s: aki(s).update(fap_max_tenths=5000, pools_from_traits=True), expect=LISTED)
case("carried-into-round-1", "FM-ACT-18",
     "A sustained action carried into round 1: it is carried from an earlier round.",
     lambda s: s["combatants"][1]["declared"].append(copy.deepcopy(SUSTAINED)),
     "state.combatants[1].declared[0].carried")
case("carried-into-round-2-accepted", "FM-ACT-18",
     "The control: the same sustained action carried into round 2.",
     lambda s: (s.update(round=2), s["combatants"][1]["declared"].append(copy.deepcopy(SUSTAINED))),
     expect=LISTED)

with open(os.path.join(HERE, "corrupt_states.json"), "w") as fh:
    fh.write("[\n" + ",\n".join(json.dumps(x, ensure_ascii=False) for x in out) + "\n]\n")
print(len(out), "cases")
