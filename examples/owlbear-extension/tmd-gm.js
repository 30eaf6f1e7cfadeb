// The TMD mode's "other GM action" form: the GM actions that need values the
// legal-action list cannot enumerate (an amount, a new base initiative, an
// ability's name, an effect, a joining token). The form only builds the action
// object; gunbai's `tmd.encounter_act` validates it (an illegal or malformed
// action is refused with an error and the stored encounter stays as it was).

/** Convertible action types: `TmdConvertType` in index.d.ts (the browser test keeps them equal). */
export const CONVERT_TYPES = ["trick", "swift", "move", "acrobatic", "standard"];
/** Effect durations: `TmdDuration` in index.d.ts. */
export const DURATIONS = ["buff_one_round", "debuff_one_round", "scene"];
/** The action types (`TmdAction.type`) this form builds. */
export const GM_FORM_KINDS = ["gain_ap", "set_base_initiative", "retain", "apply_effect", "join"];

/** Labels: the rulebook's terms (TMD-AP-3/4 行动点, TMD-INI-3/4 先攻, TMD-AP-14 保留, TMD-TIME-3 效果). */
export const GM_TEXT = {
  title: { ja: "その他の GM 操作", "zh-Hant": "其他 GM 操作", "zh-Hans": "其他 GM 操作", en: "Other GM action" },
  apply: { ja: "実行", "zh-Hant": "執行", "zh-Hans": "执行", en: "Apply" },
  kinds: {
    gain_ap: { ja: "AP を得る", "zh-Hant": "獲得行動點", "zh-Hans": "获得行动点", en: "Gain AP" },
    set_base_initiative: { ja: "基本イニシアチブ値の変更", "zh-Hant": "變更基礎先攻值", "zh-Hans": "变更基础先攻值", en: "Change base initiative" },
    retain: { ja: "行動の保持", "zh-Hant": "保留動作", "zh-Hans": "保留动作", en: "Retain an action" },
    apply_effect: { ja: "効果の付与", "zh-Hant": "施加效果", "zh-Hans": "施加效果", en: "Apply an effect" },
    join: { ja: "途中参加", "zh-Hant": "加入戰鬥", "zh-Hans": "加入战斗", en: "Join the battle" },
  },
  fields: {
    actor: { ja: "キャラクター", "zh-Hant": "角色", "zh-Hans": "角色", en: "Character" },
    amount: { ja: "AP", "zh-Hant": "行動點", "zh-Hans": "行动点", en: "AP" },
    reflex_only: { ja: "手番外専用", "zh-Hant": "僅回合外", "zh-Hans": "仅回合外", en: "Out-of-turn only" },
    base_initiative: { ja: "基本イニシアチブ値", "zh-Hant": "基礎先攻值", "zh-Hans": "基础先攻值", en: "Base initiative" },
    action_type: { ja: "行動の種類", "zh-Hant": "動作類型", "zh-Hans": "动作类型", en: "Action type" },
    ability: { ja: "能力", "zh-Hant": "能力", "zh-Hans": "能力", en: "Ability" },
    applier: { ja: "付与者", "zh-Hant": "施加者", "zh-Hans": "施加者", en: "Applier" },
    target: { ja: "対象", "zh-Hant": "被施加者", "zh-Hans": "被施加者", en: "Target" },
    name: { ja: "効果名", "zh-Hant": "效果名稱", "zh-Hans": "效果名称", en: "Effect name" },
    duration: { ja: "持続", "zh-Hant": "持續時間", "zh-Hans": "持续时间", en: "Duration" },
    token: { ja: "トークン", "zh-Hant": "標記", "zh-Hans": "标记", en: "Token" },
    side: { ja: "陣営", "zh-Hant": "陣營", "zh-Hans": "阵营", en: "Side" },
  },
  noJoiners: { ja: "参加していないトークンがありません", "zh-Hant": "沒有未參戰的標記", "zh-Hans": "没有未参战的标记", en: "Every token is already in the battle" },
};

/** The fields of each kind: [field, input type]. */
const FIELDS = {
  gain_ap: [["actor", "character"], ["amount", "count"], ["reflex_only", "checkbox"]],
  set_base_initiative: [["actor", "character"], ["base_initiative", "int"]],
  retain: [["actor", "character"], ["action_type", "convert_type"], ["ability", "text"]],
  apply_effect: [["applier", "character"], ["target", "character"], ["name", "text"], ["duration", "duration"]],
  join: [["token", "token"], ["side", "side"], ["base_initiative", "int"]],
};

/**
 * Render the form into `el`. `state`: the encounter; `tokens`: the scene's
 * tokens ({id, name}); `text`: createTmdText(...) for type names; `onAct(action,
 * names)`: apply the action (`names` maps a joining token's id to its name);
 * `onKind(kind)`: the chosen kind changed (kept across re-renders by the caller).
 */
export function renderGmForm(el, { lang, state, tokens, text, nameOf, esc, enabled, onAct, onKind, kind: initialKind }) {
  const tr = (entry) => entry[lang] ?? entry.en;
  const inEncounter = new Set(state.characters.map((c) => c.id));
  const joiners = tokens.filter((tk) => !inEncounter.has(tk.id));
  const sides = [...new Set(state.characters.map((c) => c.side))];
  let kind = GM_FORM_KINDS.includes(initialKind) ? initialKind : GM_FORM_KINDS[0];

  const input = (field, type) => {
    const opt = (v, label) => `<option value="${esc(v)}">${esc(label)}</option>`;
    switch (type) {
      case "character":
        return `<select data-field="${field}">${state.characters.map((c) => opt(c.id, nameOf(c.id))).join("")}</select>`;
      case "token":
        return joiners.length
          ? `<select data-field="${field}">${joiners.map((tk) => opt(tk.id, tk.name)).join("")}</select>`
          : `<span class="note">${esc(tr(GM_TEXT.noJoiners))}</span>`;
      case "convert_type":
        return `<select data-field="${field}">${CONVERT_TYPES.map((x) => opt(x, text.typeLabel(x))).join("")}</select>`;
      case "duration":
        return `<select data-field="${field}">${DURATIONS.map((x) => opt(x, text.duration(x))).join("")}</select>`;
      case "checkbox":
        return `<input type="checkbox" data-field="${field}">`;
      case "count":
        return `<input type="number" data-field="${field}" value="1" min="1" max="1000" step="1">`;
      case "int":
        return `<input type="number" data-field="${field}" value="0" min="-1000" max="1000" step="1">`;
      case "side":
        return `<input data-field="${field}" list="gm-sides" value="${esc(sides[0] ?? "A")}" size="4"><datalist id="gm-sides">${sides.map((s) => opt(s, s)).join("")}</datalist>`;
      default:
        return `<input data-field="${field}" size="12">`;
    }
  };

  const draw = () => {
    el.dataset.kind = kind;
    el.innerHTML =
      `<summary>${esc(tr(GM_TEXT.title))}</summary>` +
      `<select class="gm-kind">${GM_FORM_KINDS.map((k) => `<option value="${k}" ${k === kind ? "selected" : ""}>${esc(tr(GM_TEXT.kinds[k]))}</option>`).join("")}</select>` +
      FIELDS[kind].map(([f, type]) => `<label>${esc(tr(GM_TEXT.fields[f]))} ${input(f, type)}</label>`).join("") +
      `<button type="button" class="gm-apply" ${enabled ? "" : "disabled"}>${esc(tr(GM_TEXT.apply))}</button>`;
    el.querySelector(".gm-kind").onchange = (ev) => {
      kind = ev.target.value;
      onKind?.(kind);
      draw();
    };
    el.querySelector(".gm-apply").onclick = () => {
      const v = {};
      for (const x of el.querySelectorAll("[data-field]")) {
        v[x.dataset.field] = x.type === "checkbox" ? x.checked : x.type === "number" ? Number(x.value) : x.value;
      }
      if (kind === "join") {
        if (!v.token) return;
        const tk = joiners.find((t) => t.id === v.token);
        onAct({ type: kind, characters: [{ id: v.token, side: v.side.trim() || "A", base_initiative: v.base_initiative }] }, { [v.token]: tk?.name ?? v.token });
      } else {
        onAct({ type: kind, ...v });
      }
    };
  };
  draw();
}
