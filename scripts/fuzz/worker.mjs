// The Node half of scripts/fuzz/fuzz.py: reads one case a line ({"op", "batch", "args"}
// as JSON) from stdin and writes one outcome a line: {"ok": result} (a batch result as
// plain arrays, a table's per-team columns as arrays of columns), {"error": {code,
// message, field}} for a GunbaiError, or {"exception": "Name: message"} for anything
// else; each with "ms", the call's time. Usage: node worker.mjs PKG_DIR
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const pkg = await import(pathToFileURL(resolve(process.argv[2], "index.js")).href);
const { call, callBatch, GunbaiError } = pkg;

function plain(value) {
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

// "\u0000nest:N" stands for N levels of nested arrays (built here: too deep to send as JSON).
const NEST = "\u0000nest:";
function expand(value) {
  if (typeof value === "string" && value.startsWith(NEST)) {
    let inner = [];
    for (let i = Number(value.slice(NEST.length)); i > 1; i--) inner = [inner];
    return inner;
  }
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line) continue;
  const { op, batch, args: sent } = JSON.parse(line);
  const args = expand(sent);
  const start = performance.now();
  let out;
  try {
    const result = batch ? callBatch(op, args) : call(op, args);
    out = { ok: plain(result) };
  } catch (e) {
    if (e instanceof GunbaiError) out = { error: { code: e.code, message: e.message, field: e.field } };
    else out = { exception: `${e && e.name}: ${e && e.message}` };
  }
  out.ms = performance.now() - start;
  process.stdout.write(JSON.stringify(out) + "\n");
}
