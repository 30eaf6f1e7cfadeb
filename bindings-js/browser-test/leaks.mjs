// What a client received that it should not have: hidden squares and routes (World
// Trigger, WT-ST-1) and the outcome of a roll it is not entitled to. The browser
// tests of the hosts record every payload a player's client receives and pass them
// here.
import { gunzipSync } from "node:zlib";

/**
 * Every object in `payloads` (JSON text inside them parsed too), with the path to it.
 * @returns {{path: string, value: any}[]}
 */
export function everyValue(payloads) {
  const out = [];
  const walk = (v, path) => {
    // gzip + base64 (the Owlbear extension's stored record): read what it holds
    if (typeof v === "string" && v.startsWith("H4sI")) {
      try {
        v = gunzipSync(Buffer.from(v, "base64")).toString("utf8");
      } catch {
        /* not gzip */
      }
    }
    if (typeof v === "string" && /^[[{]/.test(v)) {
      try {
        v = JSON.parse(v);
      } catch {
        /* plain text */
      }
    }
    out.push({ path, value: v });
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
  };
  payloads.forEach((p, i) => walk(p, `#${i}:${p?.kind ?? p?.id ?? ""}`));
  return out;
}

/**
 * Where a hidden member's square or route appears in what a client received: an
 * object naming the member with a square field, the route itself, or text naming
 * the member and a square of its route.
 */
export function squareLeaks(payloads, { id, name, route }) {
  const squares = route.map((q) => `(${q.x}, ${q.y})`);
  const routeJson = JSON.stringify(route.map((q) => ({ x: q.x, y: q.y })));
  const hits = [];
  for (const { path, value } of everyValue(payloads)) {
    if (Array.isArray(value) && value.length > 1 && JSON.stringify(value.map((q) => ({ x: q?.x, y: q?.y }))) === routeJson) hits.push(`${path}: the route`);
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      const names = Object.values(value).includes(id);
      const sq = ["at", "path", "to", "from", "square", "center", "destination"].filter((k) => k in value && value[k] !== null);
      if (names && sq.length) hits.push(`${path}: ${JSON.stringify(value).slice(0, 160)}`);
    } else if (typeof value === "string" && value.includes(name) && squares.some((q) => value.includes(q))) hits.push(`${path}: ${value.slice(0, 160)}`);
  }
  return hits;
}

/** Where a roll's outcome appears in what a client received (its events, their checks and rolls, dice faces). */
export function rollLeaks(payloads, events) {
  const whole = new Set(events.map((e) => JSON.stringify(e)));
  const hits = [];
  for (const { path, value } of everyValue(payloads)) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      if (whole.has(JSON.stringify(value))) hits.push(`${path}: an event`);
      for (const k of ["check", "roll", "success"]) if (k in value) hits.push(`${path}.${k}`);
      if (Array.isArray(value.rolls) && value.rolls.length) hits.push(`${path}.rolls`);
    } else if (typeof value === "string" && value.includes("gunbai-die")) hits.push(`${path}: dice faces`);
  }
  return hits;
}
