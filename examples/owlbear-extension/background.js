// The extension's background page (manifest "background_url"): the token
// context menu that adds a CHARACTER-layer token to the gunbai encounter's
// combatants or removes it. The GM may do it for any token; a player, for
// their own tokens (created by them, or assigned to them in the token's
// metadata), when the GM's "players act" setting is on. The flag lives in the
// token's metadata (`io.github.gunbai/encounter`.combatant), which every
// client's popover reads.
import OBR from "@owlbear-rodeo/sdk";

const KEY = "io.github.gunbai/encounter";
const SETTINGS_KEY = "io.github.gunbai/settings";
export const MENU_ADD = "io.github.gunbai/add-combatant";
export const MENU_REMOVE = "io.github.gunbai/remove-combatant";

const TEXT = {
  add: { en: "Add to gunbai encounter", ja: "gunbai の戦闘に参加", "zh-Hant": "加入 gunbai 戰鬥", "zh-Hans": "加入 gunbai 战斗" },
  remove: { en: "Remove from gunbai encounter", ja: "gunbai の戦闘から外す", "zh-Hant": "移出 gunbai 戰鬥", "zh-Hans": "移出 gunbai 战斗" },
};
const lang = (() => {
  const q = new URLSearchParams(location.search).get("lang");
  if (q && TEXT.add[q]) return q;
  const n = (navigator.language || "en").toLowerCase();
  if (n.startsWith("ja")) return "ja";
  if (n === "zh-tw" || n === "zh-hk" || n.startsWith("zh-hant")) return "zh-Hant";
  if (n.startsWith("zh")) return "zh-Hans";
  return "en";
})();

/** A token's gunbai metadata (the SDK types metadata values as unknown). */
const metaOf = (/** @type {{metadata?: Record<string, unknown>}} */ item) => /** @type {Record<string, any>} */ (item?.metadata?.[KEY] ?? {});
const ownerOf = (/** @type {any} */ item) => metaOf(item).owner ?? item?.createdUserId ?? null;

let playersAct = false;
let me = null;
let role = "PLAYER";

/**
 * The icons of one menu entry: the GM's (any token) and, when players may act, a player's (own tokens).
 * @param {string} label
 * @param {boolean} combatant
 * @returns {import("@owlbear-rodeo/sdk").ContextMenuIcon[]}
 */
function icons(label, combatant) {
  /** @type {import("@owlbear-rodeo/sdk").KeyFilter[]} */
  const base = [
    { key: "layer", value: "CHARACTER" },
    { key: ["metadata", KEY, "combatant"], value: true, operator: combatant ? "==" : "!=" },
  ];
  /** @type {import("@owlbear-rodeo/sdk").ContextMenuIcon[]} */
  const out = [{ icon: "/icon.svg", label, filter: { roles: ["GM"], every: base } }];
  if (playersAct && me) out.push({ icon: "/icon.svg", label, filter: { roles: ["PLAYER"], every: [...base, { key: "createdUserId", value: me }] } });
  return out;
}

async function setCombatant(items, combatant) {
  const ids = items
    .filter((i) => i.layer === "CHARACTER")
    .filter((i) => role === "GM" || (playersAct && ownerOf(i) === me))
    .map((i) => i.id);
  if (!ids.length) return;
  await OBR.scene.items.updateItems(ids, (list) => {
    for (const it of list) it.metadata[KEY] = { ...metaOf(it), combatant };
  });
}

async function createMenus() {
  await OBR.contextMenu.create({ id: MENU_ADD, icons: icons(TEXT.add[lang], false), onClick: (ctx) => setCombatant(ctx.items, true) });
  await OBR.contextMenu.create({ id: MENU_REMOVE, icons: icons(TEXT.remove[lang], true), onClick: (ctx) => setCombatant(ctx.items, false) });
}

async function readSettings(meta) {
  const next = meta?.[SETTINGS_KEY]?.players_act === true;
  if (next !== playersAct) {
    playersAct = next;
    await createMenus();
  }
}

OBR.onReady(async () => {
  me = OBR.player.id;
  role = await OBR.player.getRole();
  await createMenus();
  OBR.player.onChange((p) => (role = p.role ?? role));
  const watch = async () => {
    await readSettings(await OBR.scene.getMetadata());
    OBR.scene.onMetadataChange((m) => readSettings(m));
  };
  if (await OBR.scene.isReady()) await watch();
  else {
    const off = OBR.scene.onReadyChange(async (ready) => {
      if (ready) {
        off();
        await watch();
      }
    });
  }
  document.body.dataset.ready = "1";
});
