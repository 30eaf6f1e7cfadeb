// How the extension keeps its record in the scene metadata. Owlbear Rodeo keeps
// at most 16 kB of metadata per scene (all extensions together), and a 3v3
// World Trigger battle state alone is about 25 kB of JSON (mostly the trigger
// and skill catalog it carries to be self-contained), so the record is stored
// gzip-compressed (CompressionStream) and base64-encoded:
//
//   metadata["io.github.gunbai/encounter"] =
//     { format: "gunbai-obr/1", system: "tmd" | "world_trigger", gzip: "<base64>" }
//
// where the base64 text decompresses to the JSON of the record
// ({system, state, names, log, …}). A record saved by an older build of the
// extension (the plain object, with `state`) is still read.

import { seal, open } from "./seal.js";

export const KEY = "io.github.gunbai/encounter";
export const FORMAT = "gunbai-obr/1";
/** The sealed record's format (only the GM's client can open it). */
export const SEALED = "gunbai-obr/2";
/** Owlbear Rodeo keeps at most 16 kB of metadata per scene. */
export const METADATA_LIMIT = 16 * 1024;

function toBase64(bytes) {
  if (typeof bytes.toBase64 === "function") return bytes.toBase64();
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text) {
  // Uint8Array.fromBase64 (ES2026) where the browser has it; lib ES2023 does not declare it
  const U = /** @type {{fromBase64?: (t: string) => Uint8Array}} */ (/** @type {unknown} */ (Uint8Array));
  if (typeof U.fromBase64 === "function") return U.fromBase64(text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes, transform) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(transform)).arrayBuffer());
}

/**
 * The metadata value for a record, sealed for the GM (seal.js: gzip, then AES-GCM
 * with the key of the GM's own key pair): only `system` is readable by the room.
 * Without a key (tests of older records), gzip + base64 of its JSON.
 * @param {any} record
 * @param {CryptoKey} [key]
 */
export async function encode(record, key) {
  if (key) return { format: SEALED, system: record.system, sealed: await seal(key, record) };
  const gz = await pipe(new TextEncoder().encode(JSON.stringify(record)), new CompressionStream("gzip"));
  return { format: FORMAT, system: record.system, gzip: toBase64(gz) };
}

/**
 * The record of a metadata value (null when there is none, or when it is sealed and
 * `key` cannot open it: a player's client).
 * @param {any} value
 * @param {CryptoKey | null} [key]
 */
export async function decode(value, key) {
  if (!value || typeof value !== "object") return null;
  if (value.sealed) {
    if (!key) return null;
    return open(key, value.sealed);
  }
  if (typeof value.gzip === "string") {
    const json = await pipe(fromBase64(value.gzip), new DecompressionStream("gzip"));
    return JSON.parse(new TextDecoder().decode(json));
  }
  return value.state ? value : null; // a plain record from an older build
}

/** Bytes a metadata entry takes (its JSON, UTF-8). */
export function entrySize(key, value) {
  return new TextEncoder().encode(JSON.stringify({ [key]: value })).length;
}
