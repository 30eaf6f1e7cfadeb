// Sample World Trigger material for the battle mode, copied from
// examples/battles/rank_3v3.json (owlbear.test.mjs checks it still matches):
// the distinct member sheets (without name and leader flag, which the extension
// fills in per token) and that battle's map. ILLUSTRATIVE ONLY: the sheets and
// the map are invented, built on gunbai's sample pack (not the rulebook's data).
export const SAMPLE_SHEETS = [
  {"id":"shooter","from":"tamakoma_1","sheet":{"position":"shooter","points":{"trion":4,"attack":3,"defense_support":4,"mobility":4,"technique":5},"master":"placeholder_master_technique","traits":["placeholder_s_trait_a","placeholder_s_trait_b"],"triggers":{"main":["meteora","shield"],"sub":["raygust","thruster"]}}},
  {"id":"attacker_mobility","from":"tamakoma_2","sheet":{"position":"attacker","points":{"trion":3,"attack":4,"mobility":6,"technique":7},"master":"placeholder_master_mobility","traits":["placeholder_l_trait"],"triggers":{"main":["scorpion","grasshopper","shield"],"sub":["scorpion","shield","bagworm"]}}},
  {"id":"sniper","from":"tamakoma_3","sheet":{"position":"sniper","points":{"trion":5,"attack":3,"mobility":4,"range":6,"command":2},"master":"placeholder_master_range","traits":["placeholder_l_trait"],"triggers":{"main":["lightning","lead_bullet"],"sub":["shield","chameleon"]}}},
  {"id":"attacker_kogetsu","from":"katori_3","sheet":{"position":"attacker","points":{"trion":2,"attack":5,"mobility":6,"technique":5,"command":2},"master":"placeholder_master_attack","traits":["placeholder_l_trait"],"triggers":{"main":["kogetsu","senku"],"sub":["shield","bagworm"]}}},
];

export const EXAMPLE_MAPS = {
  rank_3v3: {
    width: 16,
    height: 12,
    heights: [
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0],
      [0,0,0,0,0,2,2,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,3,3,0,0,0,0,0],
      [0,0,0,1,0,0,0,0,0,0,1,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
      [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],
    ],
    off_map: [{"x":15,"y":11}],
  },
};
