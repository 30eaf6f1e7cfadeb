# Writes attacks.json (python3 testdata/vectors/fap_map/gen_attacks.py from the repository root).
import json
def new(cs): return {"call":"fap_map.round_new","args":{"combatants":cs},"expect":{}}
def act(i, a, expect=None, err=None, **kw):
    st={"call":"fap_map.round_act","args":{"state":f"${i}.state","action":a, **kw}}
    if err: st["expect_error"]=err
    else: st["expect"]=expect or {}
    return st
aki={"id":"aki","reaction":10,"magic":3,"agility":5,"hp":20,"evasion":3,"side":"pc"}
ben={"id":"ben","reaction":12,"magic":3,"agility":9,"hp":8,"side":"npc"}
def opening(dmg, target="aki"):
    return [new([aki,ben]),
        act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","target":target,"damage":dmg}},
            {"state":{"combatants":[{},{"declared":[{"declaration":{"action":"direct_attack","fap_tenths":70,"map_tenths":10,"targets":[target],"damage":dmg}}]}]},
             "events":[{"event":"declared","rule":"FM-ACT-2","text":{"en":f"ben declares Direct attack against {target} for {dmg} damage (7 FAP / 1 MAP).","ja":f"benは直接攻撃を宣言した（対象: {target}、ダメージ {dmg}）（消費FAP 7・消費MAP 1）。"}}]}),
        act(1,{"type":"end_declarations"}),
        act(2,{"type":"resolve","actor":"ben"},
            {"state":{"attack":{"actor":"ben","action":"direct_attack","targets":[target],"damage":dmg}},
             "events":[{"event":"resolved","rule":"FM-ACT-2","combatant":"ben","hp":8}]}),
    ]
cases=[]
# Evade succeeds
s=opening(5)
s.append({"call":"fap_map.round_turn","args":{"state":"$3.state"},"expect":{"round":1,"phase":"resolution","active":[{"id":"aki","stage":"reaction"}],"outcome":None}})
s.append(act(3,{"type":"use","actor":"aki","action":"evade","target_value":8},
    {"events":[{"event":"used","rule":"FM-ACT-14","combatant":"aki","action":"evade","target":"ben",
      "evasion":{"faces":[3,4],"total":10,"success":True,"margin":2},"damage":5,"damage_taken":0,"hp":20,
      "text":{"en":"aki answers ben's Direct attack with Evade: the evasion check of 10 beats the target value 8; aki takes no damage (20 HP left).",
              "ja":"akiはbenの直接攻撃に回避行動で応じた：回避判定10（目標値8）に成功、ダメージを受けなかった（残りHP 20）。",
              "zh_hans":"aki以回避行动应对ben的直接攻击：回避判定10（目标值8）成功，未受到伤害（剩余HP 20）。"}}],
     "state":{"combatants":[{"id":"aki","hp":20},{"id":"ben","hp":8}],"attack":{"answered":["aki"]}},
     "rolls":[{"sides":6,"value":3},{"sides":6,"value":4}]}, rolls=[3,4]))
cases.append({"id":"fm-attack-evade-success-no-damage","rule":"FM-DEF-2 FM-ACT-14 FM-ACT-2",
  "comment":"ben's Direct attack on aki for 5 (the damage is an input): aki Evades, Evasion 3 + 2D6 (3, 4) = 10 exceeds 8: no damage; the pending attack is aki's stage `reaction`","steps":s})
# Evade fails
s=opening(5)
s.append(act(3,{"type":"use","actor":"aki","action":"evade","target_value":8},
    {"events":[{"event":"used","rule":"FM-ACT-14","evasion":{"total":8,"success":False,"margin":0},"damage":5,"damage_taken":5,"hp":15,
      "text":{"en":"aki answers ben's Direct attack with Evade: the evasion check of 8 fails against the target value 8; aki takes 5 damage (15 HP left)."}}],
     "state":{"combatants":[{"id":"aki","hp":15},{}]}}, rolls=[2,3]))
cases.append({"id":"fm-attack-evade-tie-fails-takes-damage","rule":"FM-DEF-2 FM-ACT-14",
  "comment":"Evasion 3 + 2D6 (2, 3) = 8 does not exceed 8 (a tie fails, RULINGS): aki takes the 5 damage, HP 20 -> 15","steps":s})
# Jump evasion success in area, degree = margin 1: ceil(17*0.6)=11
s=opening(17)
s.append(act(3,{"type":"use","actor":"aki","action":"jump_evasion","target_value":8,"agility_failed":True},
    {"events":[{"event":"used","rule":"FM-ACT-16","action":"jump_evasion","fap_spent_tenths":10,
      "evasion":{"total":9,"success":True,"margin":1},
      "jump_evasion":{"damage_taken":11,"branch":"reduced","reduction_percent":40,"agility_check_required":True,"formula":"ceil(17 × 60%) = 11"},
      "damage":17,"damage_taken":11,"hp":9,"prone":True,
      "text":{"en":"aki answers ben's Direct attack with Jump evasion: the evasion check of 9 beats the target value 8; aki takes 11 damage (9 HP left); aki fails the agility check and falls prone.",
              "ja":"akiはbenの直接攻撃に跳躍回避で応じた：回避判定9（目標値8）に成功、11ダメージを受けた（残りHP 9）、敏捷力判定に失敗して転倒した。"}}],
     "state":{"combatants":[{"id":"aki","hp":9,"prone":True,"move_cap_used":1,"fap_tenths":90},{}]}}, rolls=[3,3]))
cases.append({"id":"fm-attack-jump-evasion-reduced-and-prone","rule":"FM-ACT-16 FM-DEF-2 FM-LIM-1",
  "comment":"17 damage; Jump evasion's check 3 + 3 + 3 = 9 beats 8 by 1 (degree of success = the margin): ceil(17 x 60%) = 11 off HP 20; the failed agility check leaves aki prone","steps":s})
# Jump evasion fails: ceil(17*0.9)=16
s=opening(17)
s.append(act(3,{"type":"use","actor":"aki","action":"jump_evasion","target_value":8},
    {"events":[{"event":"used","rule":"FM-ACT-16","evasion":{"total":5,"success":False},
      "jump_evasion":{"damage_taken":16,"branch":"failed"},"damage_taken":16,"hp":4,"prone":False}],
     "state":{"combatants":[{"id":"aki","hp":4,"prone":False},{}]}}, rolls=[1,1]))
cases.append({"id":"fm-attack-jump-evasion-failed-90-percent","rule":"FM-ACT-16 FM-DEF-2",
  "comment":"a failed Jump evasion still takes ceil(17 x 0.9) = 16 (HP 20 -> 4); the agility check passed (agility_failed false): not prone","steps":s})
# Jump evasion, left the area
s=opening(17)
s.append(act(3,{"type":"use","actor":"aki","action":"jump_evasion","target_value":8,"left_area":True},
    {"events":[{"event":"used","jump_evasion":{"damage_taken":0,"branch":"left_area"},"damage_taken":0,"hp":20}]}, rolls=[6,6]))
cases.append({"id":"fm-attack-jump-evasion-left-area","rule":"FM-ACT-16","comment":"success and out of the area: no damage","steps":s})
# pending attack blocks other steps; missing target value; answering twice; nothing pending
s=opening(5)
s.append(act(3,{"type":"end_round"},err={"code":"illegal_action","rule":"FM-DEF-1"}))
s.append(act(3,{"type":"use","actor":"aki","action":"evade"},err={"code":"invalid_argument","field":"action.target_value"}))
s.append(act(3,{"type":"use","actor":"ben","action":"evade","target_value":8},err={"code":"illegal_action","rule":"FM-ACT-14"}))
s.append(act(3,{"type":"take_hit","actor":"aki"},{"events":[{"event":"hit","rule":"FM-ACT-2","combatant":"aki","action":"direct_attack","target":"ben","damage":5,"damage_taken":5,"hp":15,
   "text":{"en":"ben's Direct attack hits aki, who takes 5 damage (15 HP left).","zh_hant":"ben的直接攻擊命中aki，aki受到5點傷害（剩餘HP 15）。"}}]}))
s.append(act(7,{"type":"use","actor":"aki","action":"jump_evasion","target_value":8},err={"code":"illegal_action","rule":"FM-ACT-16"}))
s.append(act(7,{"type":"take_hit","actor":"aki"},err={"code":"illegal_action","rule":"FM-DEF-1"}))
s.append(act(7,{"type":"end_round"},{"events":[{"event":"round_ended","rule":"FM-AP-5","text":{"en":"Round 2 begins: FAP and MAP are refilled."}}]}))
s.append(act(10,{"type":"use","actor":"aki","action":"evade","target_value":8},err={"code":"illegal_action","rule":"FM-ACT-14"}))
s.append(act(10,{"type":"use","actor":"aki","action":"jump_evasion","target_value":8},err={"code":"illegal_action","rule":"FM-ACT-16"}))
cases.append({"id":"fm-attack-pending-and-refusals","rule":"FM-DEF-1 FM-ACT-14 FM-ACT-16 FM-DEF-2",
  "comment":"while the attack with damage waits for aki, nothing else resolves; Evade against it needs the target value; only a target answers, once; take_hit takes it in full; with nothing pending Evade and Jump evasion are refused (the round is declaring again)",
  "steps":s})
# fight to the end
a2=dict(aki, hp=5); b2=dict(ben)
s=[new([a2,b2,{"id":"cid","reaction":1,"magic":1,"agility":1,"side":"npc"}]),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","target":"aki","damage":6}}),
   act(1,{"type":"end_declarations"}),
   act(2,{"type":"resolve","actor":"ben"}),
   act(3,{"type":"use","actor":"aki","action":"evade","target_value":9},
       {"events":[{"event":"used","damage_taken":6,"hp":-1}]}, rolls=[1,2]),
   {"call":"fap_map.round_turn","args":{"state":"$3.state"},"expect":{"outcome":None}},
   {"call":"fap_map.round_turn","args":{"state":"$4.state"},"expect":{
    "outcome":{"side":"npc","winner":"npc","down":["aki"],"rule":"FM-DEF-1","round":1}}}]
cases.append({"id":"fm-attack-fight-ends-when-a-side-is-down","rule":"FM-DEF-1 FM-DEF-2 FM-ACT-14",
  "comment":"aki (side pc, HP 5) fails to Evade ben's 6 damage: HP -1, down; side pc has nobody standing, so the fight is over and npc wins (cid tracks no HP and is never down)",
  "steps":s})
s=[new([dict(aki),{"id":"ben","reaction":12,"magic":3,"agility":9}]),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","target":"aki","targets":["aki"]}},err={"code":"invalid_argument","field":"action.declaration.target"}),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"move","damage":3}},err={"code":"invalid_argument","field":"action.declaration.damage"}),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","damage":3}},err={"code":"invalid_argument","field":"action.declaration.damage"}),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","target":"aki","damage":0}},err={"code":"out_of_range","field":"action.declaration.damage"}),
   act(0,{"type":"declare","actor":"ben","declaration":{"action":"direct_attack","target":"zed"}},err={"code":"invalid_argument","field":"action.declaration.targets"}),
   {"call":"fap_map.round_new","args":{"combatants":[dict(aki,hp=-1)]},"expect_error":{"code":"out_of_range","field":"combatants[0].hp"}},
   {"call":"fap_map.round_new","args":{"combatants":[dict(aki,evasion=1001)]},"expect_error":{"code":"out_of_range","field":"combatants[0].evasion"}},
]
cases.append({"id":"fm-attack-declaration-refusals","rule":"FM-ACT-2 FM-DEF-4","comment":"target or targets, not both; damage only on an attack with a target, 1 or more; HP 0..10^9; Evasion -1000..1000","steps":s})
json.dump(cases, open('testdata/vectors/fap_map/attacks.json','w'), ensure_ascii=False, indent=1)
