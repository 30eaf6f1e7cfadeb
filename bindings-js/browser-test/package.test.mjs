// The npm package in a browser without a bundler: the default entry (fetches the
// .wasm next to it) and `gunbai/inline` (wasm inlined), with and without a server
// that sends `application/wasm`. Results must equal Node's for the same seed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, REPO_ROOT } from "./server.mjs";
import { launch, newPage, LIVENESS } from "./harness.mjs";

const nodeGunbai = await import(`${REPO_ROOT}/bindings-js/pkg/index.js`);
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function load(entry, wasmType) {
  const server = await serve({ wasmType });
  try {
    const page = await newPage(browser);
    await page.goto(`${server.url}bindings-js/browser-test/pages/package.html?entry=${entry}`);
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: LIVENESS });
    const result = await page.evaluate(() => window.result);
    const wasmRequests = server.requests.filter((p) => p.endsWith(".wasm"));
    await page.context().close();
    return { result, wasmRequests, page };
  } finally {
    await server.close();
  }
}

function checkSame(result) {
  assert.equal(result.failed, undefined, result.failed);
  assert.deepEqual(result.roll, nodeGunbai.dice.roll({ expr: "2d6+1", seed: 42 }));
  assert.deepEqual(result.viaCall, nodeGunbai.call("dice.roll", { expr: "3d10", seed: 7 }));
  assert.equal(result.roll.total, 3); // README: seed 42 rolls 1 and 1
  assert.deepEqual(result.error, { isGunbaiError: true, isError: true, code: "limit_exceeded", field: "expr" });
  assert.equal(result.entropyRoll, 1);
  assert.equal(result.version, nodeGunbai.version);
}

test("default entry, server sends application/wasm", async () => {
  const { result, wasmRequests, page } = await load("index", "application/wasm");
  checkSame(result);
  assert.deepEqual(wasmRequests, ["/bindings-js/pkg/wasm/gunbai_js_bg.wasm"]);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.blocked, []);
});

test("default entry, server sends application/octet-stream (wasm-bindgen falls back)", async () => {
  const { result, page } = await load("index", "application/octet-stream");
  checkSame(result);
  assert.deepEqual(page.errors, []);
});

test("gunbai/inline: no .wasm request, any server", async () => {
  const { result, wasmRequests, page } = await load("inline", "application/octet-stream");
  checkSame(result);
  assert.deepEqual(wasmRequests, [], "the inline entry must not fetch the .wasm file");
  assert.deepEqual(page.errors, []);
  assert.ok(!page.logs.some((l) => l.startsWith("warning:") || l.startsWith("error:")), page.logs.join("\n"));
});
