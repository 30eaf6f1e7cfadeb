// A SMALL STAND-IN for `@owlbear-rodeo/sdk` (default export `OBR`), for the
// browser tests only. It implements just what the extension uses, with the SDK's
// names and shapes: OBR.onReady, OBR.player.getRole, OBR.scene.isReady /
// onReadyChange / getMetadata / setMetadata (shallow merge; a key set to
// undefined is deleted; 16 kB limit) / onMetadataChange, OBR.scene.items.getItems
// (filter function or id list) / updateItems (ids, filter or items, and an
// updater of the item drafts) / onChange, OBR.scene.grid.getDpi / getType /
// onChange (a square grid of 150 dpi unless a test sets one), OBR.notification.show.
// The "room" is this browser's localStorage, so the scene metadata and the
// items' positions survive a reload the way they survive on Owlbear's server.
// A test may set window.__obrItems / __obrRole / __obrGrid before the page
// loads. It is not Owlbear Rodeo.
const STORE = "obr-stand-in/scene-metadata";
const ITEMS = "obr-stand-in/items";
const LIMIT = 16 * 1024;
const listeners = { metadata: new Set(), items: new Set(), grid: new Set() };
const grid = { dpi: 150, type: "SQUARE", measurement: "CHEBYSHEV", scale: "5ft", ...window.__obrGrid };

// Tokens on grid-cell centres: position = ((column + 0.5) * dpi, (row + 0.5) * dpi).
const at = (col, row) => ({ x: (col + 0.5) * grid.dpi, y: (row + 0.5) * grid.dpi });
const token = (id, name, col, row, meta) => ({
  id, name, layer: "CHARACTER", type: "IMAGE", position: at(col, row), rotation: 0, scale: { x: 1, y: 1 },
  visible: true, locked: false, metadata: { "io.github.gunbai/encounter": meta },
});
const defaultItems = [
  token("tok-akane", "Akane", 2, 3, { side: "PC", base_initiative: 3 }),
  token("tok-bolt", "Bolt", 3, 3, { side: "PC", base_initiative: 1 }),
  token("tok-crow", "Crow", 9, 5, { side: "NPC", base_initiative: 2 }),
  { id: "map-1", name: "Map", layer: "MAP", type: "IMAGE", position: { x: 0, y: 0 }, metadata: {} },
];
let items = JSON.parse(localStorage.getItem(ITEMS) || "null") || window.__obrItems || defaultItems;

function readMeta() {
  try {
    return JSON.parse(localStorage.getItem(STORE) || "{}");
  } catch {
    return {};
  }
}

const OBR = {
  isReady: true,
  onReady(cb) {
    queueMicrotask(cb);
    return () => {};
  },
  player: {
    id: "player-gm",
    async getRole() {
      return window.__obrRole || "GM";
    },
  },
  notification: {
    shown: [],
    async show(message, variant) {
      OBR.notification.shown.push({ message, variant });
      return "n" + OBR.notification.shown.length;
    },
  },
  scene: {
    async isReady() {
      return true;
    },
    onReadyChange() {
      return () => {};
    },
    async getMetadata() {
      return structuredClone(readMeta());
    },
    async setMetadata(update) {
      const meta = readMeta();
      for (const [k, v] of Object.entries(update)) {
        if (v === undefined) delete meta[k];
        else meta[k] = structuredClone(v);
      }
      const text = JSON.stringify(meta);
      if (text.length > LIMIT) throw new Error(`stand-in: scene metadata ${text.length} bytes > 16 kB`);
      localStorage.setItem(STORE, text);
      for (const cb of listeners.metadata) queueMicrotask(() => cb(structuredClone(meta)));
    },
    onMetadataChange(cb) {
      listeners.metadata.add(cb);
      return () => listeners.metadata.delete(cb);
    },
    items: {
      async getItems(filter) {
        let out = items;
        if (typeof filter === "function") out = items.filter(filter);
        else if (Array.isArray(filter)) out = items.filter((i) => filter.includes(i.id));
        return structuredClone(out);
      },
      async updateItems(filterOrItems, update) {
        let ids;
        if (typeof filterOrItems === "function") ids = items.filter(filterOrItems).map((i) => i.id);
        else ids = filterOrItems.map((x) => (typeof x === "string" ? x : x.id));
        const drafts = structuredClone(items.filter((i) => ids.includes(i.id)));
        update(drafts);
        items = items.map((i) => drafts.find((d) => d.id === i.id) ?? i);
        localStorage.setItem(ITEMS, JSON.stringify(items));
        for (const cb of listeners.items) queueMicrotask(() => cb(structuredClone(items)));
      },
      onChange(cb) {
        listeners.items.add(cb);
        return () => listeners.items.delete(cb);
      },
    },
    grid: {
      async getDpi() {
        return grid.dpi;
      },
      async getType() {
        return grid.type;
      },
      async getMeasurement() {
        return grid.measurement;
      },
      onChange(cb) {
        listeners.grid.add(cb);
        return () => listeners.grid.delete(cb);
      },
    },
  },
};

window.__OBR = OBR;
export default OBR;
