// Production build of the extension: `npm install && npx vite build` → dist/
// (index.html, the bundled app with gunbai's .wasm as an asset, and public/:
// manifest.json and icon.svg). Host dist/ anywhere static and add
// https://<host>/manifest.json in Owlbear Rodeo's extension settings.
// (A plain object, so the config loads without importing vite.)
export default {
  base: "./",
  build: { outDir: "dist", target: "es2022" },
};
