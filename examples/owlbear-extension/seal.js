// Secrets in a room that has no per-player channel (WebCrypto only).
//
// Every client of the extension has an ECDH P-256 key pair, kept in its browser
// (localStorage, per Owlbear player id) and made once; its public key is published in
// the player's metadata (`io.github.gunbai/key`), which Owlbear shares with the room.
// Two clients derive the same AES-GCM key from their own private key and the other's
// public key (ECDH); a message sealed with it (gzip, then AES-GCM with a fresh 12-byte
// IV) can be opened only by those two. The GM's client seals each player's view for
// that player, and the stored record for itself (its own private and public keys).

/** Player metadata key of a client's public key (a JWK). */
export const KEY_META = "io.github.gunbai/key";
const STORE_PREFIX = "io.github.gunbai/key:";
const ECDH = { name: "ECDH", namedCurve: "P-256" };

/**
 * @typedef {object} KeyPair
 * @property {CryptoKey} privateKey
 * @property {JsonWebKey} publicJwk
 */

/** @param {Uint8Array} bytes */
function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 0x8000)));
  return btoa(s);
}

/** @param {string} text */
function fromBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * @param {Uint8Array} bytes
 * @param {CompressionStream | DecompressionStream} transform
 */
async function pipe(bytes, transform) {
  return new Uint8Array(await new Response(new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(transform)).arrayBuffer());
}

/**
 * This player's key pair: the one kept in this browser, else a new one (kept).
 * @param {string} playerId
 * @param {Storage} [storage]
 * @returns {Promise<KeyPair>}
 */
export async function myKeys(playerId, storage = localStorage) {
  const name = `${STORE_PREFIX}${playerId}`;
  const kept = storage.getItem(name);
  if (kept) {
    try {
      const { private: priv, public: pub } = JSON.parse(kept);
      return { privateKey: await crypto.subtle.importKey("jwk", priv, ECDH, false, ["deriveKey"]), publicJwk: pub };
    } catch {
      /* unreadable: a new pair below */
    }
  }
  const pair = /** @type {CryptoKeyPair} */ (await crypto.subtle.generateKey(ECDH, true, ["deriveKey"]));
  const priv = await crypto.subtle.exportKey("jwk", pair.privateKey);
  const pub = await crypto.subtle.exportKey("jwk", pair.publicKey);
  storage.setItem(name, JSON.stringify({ private: priv, public: pub }));
  return { privateKey: await crypto.subtle.importKey("jwk", priv, ECDH, false, ["deriveKey"]), publicJwk: pub };
}

/**
 * The AES-GCM key two clients share: ECDH of one's private key and the other's public key.
 * @param {CryptoKey} privateKey
 * @param {JsonWebKey} theirs
 * @returns {Promise<CryptoKey>}
 */
export async function sharedKey(privateKey, theirs) {
  const pub = await crypto.subtle.importKey("jwk", theirs, ECDH, false, []);
  return crypto.subtle.deriveKey({ name: "ECDH", public: pub }, privateKey, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/**
 * Seal a JSON value: gzip, then AES-GCM with a fresh IV; base64.
 * @param {CryptoKey} key
 * @param {unknown} value
 * @returns {Promise<{iv: string, data: string}>}
 */
export async function seal(key, value) {
  const gz = await pipe(new TextEncoder().encode(JSON.stringify(value)), new CompressionStream("gzip"));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, /** @type {BufferSource} */ (gz)));
  return { iv: toBase64(iv), data: toBase64(data) };
}

/**
 * Open a sealed value (throws when the key is not the one it was sealed with, or the
 * data was changed).
 * @param {CryptoKey} key
 * @param {{iv: string, data: string}} sealed
 * @returns {Promise<any>}
 */
export async function open(key, sealed) {
  const plain = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: /** @type {BufferSource} */ (fromBase64(sealed.iv)) }, key, /** @type {BufferSource} */ (fromBase64(sealed.data))));
  return JSON.parse(new TextDecoder().decode(await pipe(plain, new DecompressionStream("gzip"))));
}
