// A tiny static file server for the browser tests and for trying the web
// examples locally. Serves the repository root (read-only, GET/HEAD only) on
// 127.0.0.1. `wasmType` chooses the Content-Type of `.wasm` files, so tests can
// check that the package works when a host does not send `application/wasm`.
//
//   node bindings-js/browser-test/server.mjs [port]       # then open
//   http://127.0.0.1:8787/examples/character-sheet/        (after scripts/ci/web.sh
//                                                            or examples/build-web.sh)
import { createServer } from "node:http";
import { createReadStream, statSync } from "node:fs";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".d.ts": "text/plain; charset=utf-8",
};

/**
 * Start serving `root`. Returns `{ url, close, requests }` where `url` ends with "/"
 * and `requests` lists every path asked for (tests use it to see what was fetched).
 * @param {{root?: string, port?: number, wasmType?: string|null}} [opts]
 *   wasmType: Content-Type for .wasm (default "application/wasm"; null sends none).
 */
export function serve({ root = REPO_ROOT, port = 0, wasmType = "application/wasm" } = {}) {
  const base = resolve(root);
  const requests = [];
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end("bad request");
      return;
    }
    requests.push(path);
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end("method not allowed");
      return;
    }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end("forbidden");
      return;
    }
    let st;
    try {
      st = statSync(file);
      if (st.isDirectory()) {
        if (!path.endsWith("/")) {
          res.writeHead(301, { Location: path + "/" }).end();
          return;
        }
        file = join(file, "index.html");
        st = statSync(file);
      }
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const headers = { "Content-Length": st.size, "Cache-Control": "no-store" };
    const ext = file.endsWith(".d.ts") ? ".d.ts" : extname(file);
    if (ext === ".wasm") {
      if (wasmType) headers["Content-Type"] = wasmType;
    } else {
      headers["Content-Type"] = TYPES[ext] || "application/octet-stream";
    }
    res.writeHead(200, headers);
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => {
      const { port: p } = server.address();
      ok({
        url: `http://127.0.0.1:${p}/`,
        requests,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] || 8787);
  const s = await serve({ port });
  console.log(`serving ${REPO_ROOT} at ${s.url}`);
  console.log(`  character sheet: ${s.url}examples/character-sheet/`);
  console.log(`  owlbear extension page: ${s.url}examples/owlbear-extension/`);
}
