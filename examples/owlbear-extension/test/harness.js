// A test harness that plays Owlbear Rodeo for the extension's browser tests.
// It holds one room with one scene (items, scene metadata, grid) and any
// number of clients (a GM and players). Each client gets the extension's real
// pages in iframes — the background page (context menu) and the popover —,
// which load the real @owlbear-rodeo/sdk. The SDK talks to its host with
// window.postMessage, and this page answers as Owlbear does:
//
// * the host posts `OBR_READY` {ref, userId} to a frame once it has loaded;
//   the SDK then sends `{id, data, ref, nonce}` messages to window.parent;
// * a request with a nonce is answered with `{id: id + "_RESPONSE" + nonce,
//   data}` (or `id + "_ERROR" + nonce`); subscriptions (`…_SUBSCRIBE`) carry no
//   nonce, and events are posted as `{id: "OBR_…_EVENT_CHANGE", data}`;
// * scene metadata and items are shared by every client: a change is posted
//   to every subscribed frame of every client; the metadata keeps at most
//   16 kB (Owlbear's limit);
// * a broadcast goes to the frames subscribed to its channel — of the other
//   clients (REMOTE, the default), of the same client (LOCAL) or both (ALL) —
//   as `OBR_BROADCAST_MESSAGE_<channel>` {data, connectionId}, where
//   connectionId is the sender client's, set here, never by the page;
// * context menus are kept per frame; `contextMenus(client, ids)` lists the
//   entries whose icon filter (roles, every/some key filters, min/max) matches
//   the selection, and `clickContextMenu` posts the click event to the frame
//   that created the menu, with the selected items.
//
// Differences from Owlbear Rodeo: no rendering of the scene beyond a sketch of
// the tokens and their labels, no item permissions (any client may update any
// item), no fog, history, tools, modals, viewport or interactions: a message
// this harness doesn't know is answered with an error and listed in
// `harness.unknown`, so a test sees it.

const ORIGIN = location.origin;
const ROOM = "harness-room";
const METADATA_LIMIT = 16 * 1024;
const BROADCAST_LIMIT = 64 * 1024;

const sizeOf = (v) => new TextEncoder().encode(JSON.stringify(v)).length;
const clone = (v) => (v === undefined ? undefined : structuredClone(v));

const scene = { items: [], metadata: {}, grid: { dpi: 100, type: "SQUARE", scale: "5ft" } };
const clients = new Map(); // client id -> {player, frames: [frame]}
const frames = new Map(); // ref -> frame {ref, client, kind, el, subs:Set, channels:Set, menus:Map}
let seq = 0;

const harness = {
  scene,
  clients,
  notifications: [],
  broadcasts: [],
  popovers: [],
  unknown: [],
  messages: [],
  /** Every message posted to each client's frames (answers, events, broadcasts), by player id. */
  received: {},

  /** Put items, scene metadata and grid on the scene (before or after clients join). */
  setScene({ items, metadata, grid } = {}) {
    if (items) scene.items = clone(items).map(normalizeItem);
    if (metadata) scene.metadata = clone(metadata);
    if (grid) Object.assign(scene.grid, grid);
    emitAll("items", "OBR_SCENE_ITEMS_EVENT_CHANGE", () => ({ items: clone(scene.items) }));
    emitAll("scene_metadata", "OBR_SCENE_METADATA_EVENT_CHANGE", () => ({ metadata: clone(scene.metadata) }));
  },

  /**
   * A client joins: `{id, role: "GM"|"PLAYER", name, lang}`; its background
   * page and popover are loaded from `base` (the built extension's folder).
   */
  addClient({ id, role, name, lang = "en", base = "./", popover = true, background = true }) {
    const player = { id, connectionId: `conn-${id}-${++seq}`, role, name: name ?? id, color: "#7f93ff", syncView: false, metadata: {}, selection: [] };
    const c = { player, frames: [], lang, base };
    clients.set(id, c);
    const col = document.createElement("section");
    col.className = "client";
    col.dataset.client = id;
    col.innerHTML = `<h2>${role} · ${player.name}</h2>`;
    document.querySelector("#clients").append(col);
    c.col = col;
    // The others' party changes (Owlbear posts the party without the receiver).
    for (const f of frames.values()) {
      if (f.subs.has("party")) post(f, { id: "OBR_PARTY_EVENT_CHANGE", data: { players: [...clients.values()].filter((x) => x !== f.client).map((x) => clone(x.player)) } });
    }
    if (background) openFrame(c, "background", `${base}background.html`);
    if (popover) openFrame(c, "popover", `${base}index.html`);
    return player;
  },

  /** Reload a client's popover (optionally in another language). */
  reloadPopover(id, lang) {
    const c = clients.get(id);
    if (lang) c.lang = lang;
    for (const f of c.frames.filter((x) => x.kind === "popover")) closeFrame(f);
    openFrame(c, "popover", `${c.base}index.html`);
  },

  /** Close a client's popover (Owlbear keeps its background page). */
  closePopover(id) {
    for (const f of clients.get(id).frames.filter((x) => x.kind === "popover")) closeFrame(f);
  },

  /** The frame refs of a client ({background, popover}). */
  refs(id) {
    const out = {};
    for (const f of clients.get(id).frames) out[f.kind] = f.ref;
    return out;
  },

  /** The context-menu entries a client sees for a selection: [{id, label}]. */
  contextMenus(clientId, itemIds) {
    const c = clients.get(clientId);
    const items = itemIds.map((i) => scene.items.find((x) => x.id === i)).filter(Boolean);
    const out = [];
    for (const f of c.frames) {
      for (const m of f.menus.values()) {
        const icon = m.icons.find((ic) => filterMatches(ic.filter, items, c.player));
        if (icon) out.push({ id: m.id, label: icon.label, icon: icon.icon });
      }
    }
    return out;
  },

  /** Click a context-menu entry for a selection, as Owlbear does (only if the client sees it). */
  clickContextMenu(clientId, menuId, itemIds) {
    if (!harness.contextMenus(clientId, itemIds).some((m) => m.id === menuId)) return false;
    const c = clients.get(clientId);
    const f = c.frames.find((x) => x.menus.has(menuId));
    const items = clone(itemIds.map((i) => scene.items.find((x) => x.id === i)));
    const xs = items.map((i) => i.position.x);
    const ys = items.map((i) => i.position.y);
    const min = { x: Math.min(...xs), y: Math.min(...ys) };
    const max = { x: Math.max(...xs), y: Math.max(...ys) };
    const selectionBounds = { min, max, width: max.x - min.x, height: max.y - min.y, center: { x: (min.x + max.x) / 2, y: (min.y + max.y) / 2 } };
    post(f, { id: "OBR_CONTEXT_MENU_EVENT_CLICK", data: { id: menuId, context: { items, selectionBounds }, elementId: "" } });
    return true;
  },

  /** Change a client's role (Owlbear posts OBR_PLAYER_EVENT_CHANGE). */
  setRole(id, role) {
    const c = clients.get(id);
    c.player.role = role;
    for (const f of c.frames) if (f.subs.has("player")) post(f, { id: "OBR_PLAYER_EVENT_CHANGE", data: { player: clone(c.player) } });
  },

  /**
   * The record the GM's client stored (for the tests): a sealed entry is opened with
   * the key pair `userId`'s client keeps in localStorage (the harness's frames share
   * its origin; in Owlbear each user's browser keeps its own); an older entry is
   * gzip + base64.
   */
  async openRecord(value, userId = "gm") {
    if (!value || typeof value !== "object") return null;
    const bytes = (t) => Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
    const gunzip = async (b) => new TextDecoder().decode(await new Response(new Blob([b]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
    if (!value.sealed) return value.gzip ? JSON.parse(await gunzip(bytes(value.gzip))) : value;
    const kept = JSON.parse(localStorage.getItem(`io.github.gunbai/key:${userId}`));
    const ecdh = { name: "ECDH", namedCurve: "P-256" };
    const priv = await crypto.subtle.importKey("jwk", kept.private, ecdh, false, ["deriveKey"]);
    const pub = await crypto.subtle.importKey("jwk", kept.public, ecdh, false, []);
    const key = await crypto.subtle.deriveKey({ name: "ECDH", public: pub }, priv, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(value.sealed.iv) }, key, bytes(value.sealed.data));
    return JSON.parse(await gunzip(new Uint8Array(plain)));
  },

  /**
   * Open a message `userId`'s client received, sealed by `fromId`'s client (for the
   * tests: both key pairs are in this browser's localStorage).
   */
  async openFor(userId, fromId, sealed) {
    const bytes = (t) => Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
    const kept = (id) => JSON.parse(localStorage.getItem(`io.github.gunbai/key:${id}`));
    const ecdh = { name: "ECDH", namedCurve: "P-256" };
    const priv = await crypto.subtle.importKey("jwk", kept(userId).private, ecdh, false, ["deriveKey"]);
    const pub = await crypto.subtle.importKey("jwk", kept(fromId).public, ecdh, false, []);
    const key = await crypto.subtle.deriveKey({ name: "ECDH", public: pub }, priv, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(sealed.iv) }, key, bytes(sealed.data));
    return JSON.parse(new TextDecoder().decode(await new Response(new Blob([plain]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()));
  },

  /** The labels attached to an item. */
  attachments(id) {
    return scene.items.filter((i) => i.attachedTo === id);
  },
};
window.harness = harness;

function normalizeItem(item) {
  return {
    type: "IMAGE",
    name: "Item",
    visible: true,
    locked: false,
    createdUserId: "",
    zIndex: 0,
    lastModified: new Date(0).toISOString(),
    lastModifiedUserId: "",
    position: { x: 0, y: 0 },
    rotation: 0,
    scale: { x: 1, y: 1 },
    metadata: {},
    layer: "CHARACTER",
    ...item,
  };
}

function openFrame(c, kind, url) {
  const ref = `ref-${c.player.id}-${kind}-${++seq}`;
  const el = document.createElement("iframe");
  const u = new URL(url, location.href);
  u.searchParams.set("obrref", btoa(`${ORIGIN} ${ROOM}`));
  u.searchParams.set("lang", c.lang);
  el.src = u.href;
  el.name = `${c.player.id}-${kind}`;
  el.className = kind;
  if (kind === "background") el.hidden = true;
  const f = { ref, client: c, kind, el, subs: new Set(), channels: new Set(), menus: new Map() };
  frames.set(ref, f);
  c.frames.push(f);
  // Owlbear tells the page it is ready once it has loaded.
  el.addEventListener("load", () => post(f, { id: "OBR_READY", data: { ref, userId: c.player.id } }));
  c.col.append(el);
  return f;
}

function closeFrame(f) {
  frames.delete(f.ref);
  f.client.frames = f.client.frames.filter((x) => x !== f);
  f.el.remove();
}

function post(f, msg) {
  (harness.received[f.client.player.id] ??= []).push(clone(msg));
  f.el.contentWindow?.postMessage(msg, ORIGIN);
}

function emitAll(sub, id, data) {
  for (const f of frames.values()) if (f.subs.has(sub)) post(f, { id, data: data() });
  drawScene();
}

function valueAt(item, key) {
  const path = Array.isArray(key) ? key : [key];
  let v = item;
  for (const k of path) v = v == null ? undefined : v[k];
  return v;
}

function keyMatches(item, kf) {
  const v = valueAt(item, kf.key);
  const eq = JSON.stringify(v) === JSON.stringify(kf.value);
  return kf.operator === "!=" ? !eq : eq;
}

/** Owlbear's context-menu icon filter: roles, min/max selection, and `every` / `some` key filters per item. */
function filterMatches(filter, items, player) {
  if (!items.length) return false;
  if (!filter) return true;
  if (filter.roles && !filter.roles.includes(player.role)) return false;
  if (filter.min != null && items.length < filter.min) return false;
  if (filter.max != null && items.length > filter.max) return false;
  for (const it of items) {
    if (filter.every && !filter.every.every((kf) => keyMatches(it, kf))) return false;
    if (filter.some && !filter.some.some((kf) => keyMatches(it, kf))) return false;
  }
  return true;
}

const others = (f) => [...frames.values()].filter((x) => x.client !== f.client);
const locals = (f) => [...frames.values()].filter((x) => x.client === f.client);

/** The answers, by message id: return the response data, or throw an Error for an `_ERROR` reply. */
const HANDLERS = {
  OBR_PLAYER_GET_ROLE: (f) => ({ role: f.client.player.role }),
  OBR_PLAYER_GET_ID: (f) => ({ id: f.client.player.id }),
  OBR_PLAYER_GET_NAME: (f) => ({ name: f.client.player.name }),
  OBR_PLAYER_GET_COLOR: (f) => ({ color: f.client.player.color }),
  OBR_PLAYER_GET_CONNECTION_ID: (f) => ({ connectionId: f.client.player.connectionId }),
  OBR_PLAYER_GET_METADATA: (f) => ({ metadata: clone(f.client.player.metadata) }),
  OBR_PLAYER_SET_METADATA: (f, { update }) => {
    const c = f.client;
    c.player.metadata = { ...(c.player.metadata || {}), ...clone(update) };
    for (const x of c.frames) if (x.subs.has("player")) post(x, { id: "OBR_PLAYER_EVENT_CHANGE", data: { player: clone(c.player) } });
    for (const x of frames.values()) {
      if (x.client === c || !x.subs.has("party")) continue;
      post(x, { id: "OBR_PARTY_EVENT_CHANGE", data: { players: [...clients.values()].filter((y) => y !== x.client).map((y) => clone(y.player)) } });
    }
    return {};
  },
  OBR_PLAYER_GET_SELECTION: (f) => ({ selection: clone(f.client.player.selection) }),
  OBR_PARTY_GET_PLAYERS: (f) => ({ players: [...clients.values()].filter((c) => c !== f.client).map((c) => clone(c.player)) }),
  OBR_ROOM_GET_PERMISSIONS: () => ({ permissions: [] }),
  OBR_ROOM_GET_METADATA: () => ({ metadata: {} }),
  OBR_SCENE_IS_READY: () => ({ ready: true }),
  OBR_SCENE_GET_METADATA: () => ({ metadata: clone(scene.metadata) }),
  OBR_SCENE_SET_METADATA: (f, { update }) => {
    const next = { ...scene.metadata };
    for (const [k, v] of Object.entries(update || {})) {
      if (v === undefined) delete next[k];
      else next[k] = clone(v);
    }
    if (sizeOf(next) > METADATA_LIMIT) throw new Error(`scene metadata over ${METADATA_LIMIT} bytes`);
    scene.metadata = next;
    emitAll("scene_metadata", "OBR_SCENE_METADATA_EVENT_CHANGE", () => ({ metadata: clone(scene.metadata) }));
    return {};
  },
  OBR_SCENE_ITEMS_GET_ALL_ITEMS: () => ({ items: clone(scene.items) }),
  OBR_SCENE_ITEMS_GET_ITEMS: (f, { ids }) => ({ items: clone(scene.items.filter((i) => ids.includes(i.id))) }),
  OBR_SCENE_ITEMS_GET_ITEM_ATTACHMENTS: (f, { ids }) => ({ items: clone(scene.items.filter((i) => ids.includes(i.id) || ids.includes(i.attachedTo))) }),
  OBR_SCENE_ITEMS_UPDATE_ITEMS: (f, { updates }) => {
    for (const u of updates) {
      const it = scene.items.find((i) => i.id === u.id);
      if (!it) continue;
      const { id: _id, type: _type, ...keys } = u;
      Object.assign(it, clone(keys), { lastModified: new Date().toISOString(), lastModifiedUserId: f.client.player.id });
    }
    emitAll("items", "OBR_SCENE_ITEMS_EVENT_CHANGE", () => ({ items: clone(scene.items) }));
    return {};
  },
  OBR_SCENE_ITEMS_ADD_ITEMS: (f, { items }) => {
    for (const it of items) scene.items.push(normalizeItem(clone(it)));
    emitAll("items", "OBR_SCENE_ITEMS_EVENT_CHANGE", () => ({ items: clone(scene.items) }));
    return {};
  },
  OBR_SCENE_ITEMS_DELETE_ITEMS: (f, { ids }) => {
    // Owlbear deletes an item's attachments with it.
    const gone = new Set(ids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const i of scene.items) if (i.attachedTo && gone.has(i.attachedTo) && !gone.has(i.id)) (gone.add(i.id), (grew = true));
    }
    scene.items = scene.items.filter((i) => !gone.has(i.id));
    emitAll("items", "OBR_SCENE_ITEMS_EVENT_CHANGE", () => ({ items: clone(scene.items) }));
    return {};
  },
  OBR_SCENE_GRID_GET_DPI: () => ({ dpi: scene.grid.dpi }),
  OBR_SCENE_GRID_GET_TYPE: () => ({ type: scene.grid.type }),
  OBR_SCENE_GRID_GET_SCALE: () => ({ scale: { raw: scene.grid.scale, parsed: { multiplier: 5, unit: "ft", digits: 0 } } }),
  OBR_CONTEXT_MENU_CREATE: (f, menu) => {
    f.menus.set(menu.id, clone(menu));
    return {};
  },
  OBR_CONTEXT_MENU_REMOVE: (f, { id }) => {
    f.menus.delete(id);
    return {};
  },
  OBR_NOTIFICATION_SHOW: (f, { message, variant }) => {
    const id = `n${++seq}`;
    harness.notifications.push({ id, client: f.client.player.id, message, variant });
    return { id };
  },
  OBR_NOTIFICATION_CLOSE: () => ({}),
  OBR_POPOVER_OPEN: (f, p) => {
    harness.popovers.push({ client: f.client.player.id, ...clone(p) });
    return {};
  },
  OBR_POPOVER_CLOSE: () => ({}),
  OBR_BROADCAST_SEND_MESSAGE: (f, { channel, data, options }) => {
    const size = sizeOf({ channel, data });
    if (size > BROADCAST_LIMIT) throw new Error(`broadcast over ${BROADCAST_LIMIT} bytes`);
    const dest = options?.destination ?? "REMOTE";
    const to = dest === "LOCAL" ? locals(f) : dest === "ALL" ? [...frames.values()] : others(f);
    const connectionId = f.client.player.connectionId;
    harness.broadcasts.push({ from: f.client.player.id, kind: f.kind, channel, data: clone(data), destination: dest });
    for (const x of to) if (x.channels.has(channel)) post(x, { id: `OBR_BROADCAST_MESSAGE_${channel}`, data: { data: clone(data), connectionId } });
    return {};
  },
};

/** Subscriptions: message id -> [subscription, on]. */
const SUBS = {
  OBR_SCENE_METADATA_SUBSCRIBE: ["scene_metadata", true],
  OBR_SCENE_METADATA_UNSUBSCRIBE: ["scene_metadata", false],
  OBR_SCENE_ITEMS_SUBSCRIBE: ["items", true],
  OBR_SCENE_ITEMS_UNSUBSCRIBE: ["items", false],
  OBR_SCENE_READY_SUBSCRIBE: ["ready", true],
  OBR_SCENE_READY_UNSUBSCRIBE: ["ready", false],
  OBR_SCENE_GRID_SUBSCRIBE: ["grid", true],
  OBR_SCENE_GRID_UNSUBSCRIBE: ["grid", false],
  OBR_PLAYER_SUBSCRIBE: ["player", true],
  OBR_PLAYER_UNSUBSCRIBE: ["player", false],
  OBR_PARTY_SUBSCRIBE: ["party", true],
  OBR_PARTY_UNSUBSCRIBE: ["party", false],
};

window.addEventListener("message", (ev) => {
  const m = ev.data;
  if (!m || typeof m.id !== "string" || typeof m.ref !== "string") return;
  const f = frames.get(m.ref);
  // Only a frame's own window may speak for its ref (as Owlbear checks the source).
  if (!f || ev.source !== f.el.contentWindow || ev.origin !== ORIGIN) return;
  harness.messages.push({ client: f.client.player.id, kind: f.kind, id: m.id });
  if (m.id === "OBR_BROADCAST_SUBSCRIBE") return void f.channels.add(m.data.channel);
  if (m.id === "OBR_BROADCAST_UNSUBSCRIBE") return void f.channels.delete(m.data.channel);
  if (SUBS[m.id]) {
    const [s, on] = SUBS[m.id];
    if (on) f.subs.add(s);
    else f.subs.delete(s);
    return;
  }
  const h = HANDLERS[m.id];
  const reply = (suffix, data) => m.nonce != null && post(f, { id: `${m.id}_${suffix}${m.nonce}`, data });
  if (!h) {
    harness.unknown.push(m.id);
    return reply("ERROR", { name: "Error", message: `harness: ${m.id} is not played` });
  }
  try {
    reply("RESPONSE", h(f, m.data || {}));
  } catch (e) {
    reply("ERROR", { name: "Error", message: e.message });
  }
});

/** A sketch of the scene: each CHARACTER token and the labels attached to it. */
function drawScene() {
  const el = document.querySelector("#scene");
  if (!el) return;
  const dpi = scene.grid.dpi || 100;
  const k = 48 / dpi;
  el.innerHTML = "";
  for (const it of scene.items.filter((i) => i.layer === "CHARACTER")) {
    const d = document.createElement("div");
    d.className = "token";
    d.dataset.id = it.id;
    d.style.left = `${it.position.x * k}px`;
    d.style.top = `${it.position.y * k}px`;
    d.textContent = it.name;
    for (const b of scene.items.filter((i) => i.attachedTo === it.id && i.type === "LABEL")) {
      const l = document.createElement("span");
      l.className = "badge";
      l.textContent = b.text?.plainText ?? "";
      d.prepend(l);
    }
    el.append(d);
  }
}
drawScene();
