// A SMALL STAND-IN for `@owlbear-rodeo/sdk` (default export `OBR`), for the
// browser tests only. It implements just what the extension uses, with the SDK's
// names and shapes: OBR.onReady, OBR.player.getRole, OBR.scene.isReady /
// onReadyChange / getMetadata / setMetadata (shallow merge; a key set to
// undefined is deleted; 16 kB limit) / onMetadataChange, OBR.scene.items.getItems
// (filter function or id list) / onChange, OBR.notification.show. The "room" is
// this browser's localStorage, so the scene metadata survives a reload the way
// it survives on Owlbear's server. It is not Owlbear Rodeo.
const STORE = "obr-stand-in/scene-metadata";
const LIMIT = 16 * 1024;
const listeners = { metadata: new Set(), items: new Set() };

const defaultItems = [
  { id: "tok-akane", name: "Akane", layer: "CHARACTER", type: "IMAGE", metadata: { "io.github.gunbai/encounter": { side: "PC", base_initiative: 3 } } },
  { id: "tok-bolt", name: "Bolt", layer: "CHARACTER", type: "IMAGE", metadata: { "io.github.gunbai/encounter": { side: "PC", base_initiative: 1 } } },
  { id: "tok-crow", name: "Crow", layer: "CHARACTER", type: "IMAGE", metadata: { "io.github.gunbai/encounter": { side: "NPC", base_initiative: 2 } } },
  { id: "map-1", name: "Map", layer: "MAP", type: "IMAGE", metadata: {} },
];
const items = window.__obrItems || defaultItems;

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
      onChange(cb) {
        listeners.items.add(cb);
        return () => listeners.items.delete(cb);
      },
    },
  },
};

window.__OBR = OBR;
export default OBR;
