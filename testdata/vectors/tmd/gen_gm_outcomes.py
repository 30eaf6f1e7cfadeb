# Writes gm_outcomes.json (python3 testdata/vectors/tmd/gen_gm_outcomes.py from the repository root).
import json
chars=[{"id":"A","side":"pc","base_initiative":5,"hp":30},
       {"id":"D","side":"pc","base_initiative":2},
       {"id":"B","side":"npc","base_initiative":1,"hp":20},
       {"id":"C","side":"npc","base_initiative":0,"hp":10}]
def act(i,a,expect=None,err=None):
    st={"call":"tmd.encounter_act","args":{"state":f"${i}.state","action":a}}
    if err: st["expect_error"]=err
    else: st["expect"]=expect or {}
    return st
s=[{"call":"tmd.encounter_new","args":{"characters":chars,"rolls":[5,5,5,5]},
    "expect":{"state":{"phase":"delays","order":["A","D","B","C"]},
              "events":{"contains":[{"event":"combat_started","rule":"TMD-INI-7","text":{"en":"The initiative order is set: combat formally begins."}}]}}},
   act(0,{"type":"gm_damage","target":"B","amount":12},
       {"events":[{"event":"damaged","character":"B","amount":12,"hp":8,"rule":"TMD-TIME-2",
                   "text":{"en":"The GM rules that B takes 12 damage (8 HP left).","zh_hans":"主持人裁定：B受到12点伤害（剩余HP 8）。","ja":"GMの裁定：Bは12ダメージを受けた（残りHP 8）。"}}],
        "state":{"characters":[{"id":"A","hp":30},{"id":"D"},{"id":"B","hp":8},{"id":"C","hp":10}]}}),
   act(1,{"type":"gm_down","target":"B"},
       {"events":[{"event":"downed","character":"B","rule":"TMD-TIME-1","text":{"en":"The GM rules that B is down and can act no more."}}],
        "state":{"phase":"delays","characters":[{},{},{"id":"B","down":True},{}]}}),
   {"call":"tmd.encounter_turn","args":{"state":"$2.state"},
    "expect":{"round":1,"phase":"delays","active":[{"id":"A","stage":"delay"},{"id":"D","stage":"delay"},{"id":None,"stage":"start_turns"}]}},
   act(2,{"type":"delay","actor":"A","after":"B"},err={"code":"illegal_action","rule":"TMD-TIME-1"}),
   act(2,{"type":"start_turns"},{"events":{"contains":[{"event":"turn_order_set","turns":["A","D","C"],"rule":"TMD-INI-5"},
                                                      {"event":"turn_started","character":"A","rule":"TMD-AP-2"}]}}),
   act(5,{"type":"use_free","actor":"B"},err={"code":"illegal_action","rule":"TMD-TIME-1"}),
   act(5,{"type":"gm_damage","target":"D","amount":3},err={"code":"invalid_argument","field":"action.target"}),
   act(5,{"type":"gm_damage","target":"C","amount":0},err={"code":"out_of_range","field":"action.amount"}),
   act(5,{"type":"gm_down","target":"B"},err={"code":"illegal_action","rule":"TMD-TIME-1"}),
   act(5,{"type":"gm_down","target":"C"},
       {"events":[{"event":"downed","character":"C","rule":"TMD-TIME-1"},
                  {"event":"scene_ended","reason":"battle_end","rule":"TMD-SCN-1"},
                  {"event":"encounter_ended","rule":"TMD-SCN-1","text":{"en":"The battle is over.","zh_hans":"战斗结束了。"}}],
        "state":{"phase":"ended","outcome":{"reason":"side_down","side":"pc","winner":"pc","down":["B","C"],"rule":"TMD-SCN-1","round":1}}}),
   {"call":"tmd.encounter_turn","args":{"state":"$10.state"},"expect":{"round":1,"phase":"ended","active":[]}},
   act(10,{"type":"gm_damage","target":"A","amount":1},err={"code":"illegal_action","rule":"TMD-SCN-1"}),
   act(10,{"type":"gm_down","target":"A"},err={"code":"illegal_action","rule":"TMD-SCN-1"}),
]
cases=[{"id":"tmd-gm-outcomes-to-the-end","rule":"TMD-TIME-1 TMD-TIME-2 TMD-SCN-1 TMD-INI-5",
        "comment":"the seed gives no attack or damage rules, so the GM enters outcomes: B takes 12 (HP 20 -> 8), B is down (no delay after it, no turn, no action), C is down: side npc has nobody standing, the battle ends (TMD-SCN-1) with pc the winner",
        "steps":s}]
s=[{"call":"tmd.encounter_new","args":{"characters":chars,"rolls":[5,5,5,5]},"expect":{}},
   act(0,{"type":"start_turns"},{"state":{"current":"A"}}),
   act(1,{"type":"gm_down","target":"A"},
       {"events":[{"event":"downed","character":"A","rule":"TMD-TIME-1"},
                  {"event":"turn_ended","character":"A","rule":"TMD-TIME-2"},
                  {"event":"turn_started","character":"D","rule":"TMD-AP-2"}],
        "state":{"current":"D","queue":["B","C"]}}),
   act(2,{"type":"end_turn","actor":"A"},err={"code":"illegal_action","rule":"TMD-TIME-1"}),
]
s[2]["expect_absent"]=["state.outcome"]
cases.append({"id":"tmd-gm-down-ends-the-current-turn","rule":"TMD-TIME-1 TMD-TIME-2",
              "comment":"the character acting is put down: its turn ends and the next in order (D) starts; side pc still has D standing, so the battle goes on",
              "steps":s})
json.dump(cases,open('testdata/vectors/tmd/gm_outcomes.json','w'),ensure_ascii=False,indent=1)
