// Production build of the extension: `npm install && npx vite build` → dist/
// (index.html — the popover — and background.html — the context menu —, the
// bundled app with one chunk and one .wasm asset per gunbai ruleset entry,
// loaded only when the scene uses that ruleset, and public/: manifest.json and
// icon.svg). Host dist/ anywhere static and add https://<host>/manifest.json in
// Owlbear Rodeo's extension settings.
// (A plain object, so the config loads without importing vite.)
import { fileURLToPath } from "node:url";

export default {
  base: "./",
  build: {
    outDir: "dist",
    target: "es2022",
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL("./index.html", import.meta.url)),
        background: fileURLToPath(new URL("./background.html", import.meta.url)),
      },
    },
  },
};
