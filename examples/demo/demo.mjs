// The demo's Node half: run examples/demo/calls.json through the npm package and
// print one canonical JSON line per call (see scripts/demo.sh).
import { readFileSync } from "node:fs";
import { call, GunbaiError } from "../../bindings-js/pkg/index.js";

const canonical = (v) =>
  Array.isArray(v) ? `[${v.map(canonical).join(",")}]`
  : v !== null && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`
  : JSON.stringify(v);

const calls = JSON.parse(readFileSync(new URL("./calls.json", import.meta.url), "utf8"));
for (const c of calls) {
  let out;
  try {
    out = { ok: call(c.call, c.args) };
  } catch (e) {
    if (!(e instanceof GunbaiError)) throw e;
    out = { error: { code: e.code, message: e.message } };
  }
  console.log(canonical({ call: c.call, title: c.title, ...out }));
}
