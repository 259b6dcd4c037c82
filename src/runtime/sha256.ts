// SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104) in plain TypeScript: the runtime hashes pii
// synchronously, without dependencies and outside Node, so neither node:crypto nor the async
// WebCrypto API will do.

// Int32Array, not Uint32Array: words above 2^31 would read as doubles, and every round would leave int32 arithmetic.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const BLOCK = 64;

/** Scratch for the message schedule: the runtime is single-threaded and `sha256` does not re-enter. */
const W = new Int32Array(64);

/** The SHA-256 digest of `message`. Straight-line rounds over plain variables: no array per round. */
export const sha256 = (message: Uint8Array): Uint8Array => {
  // The message padded to whole 64-byte blocks: a 1 bit, zeros, and the bit length big-endian.
  const length = Math.ceil((message.length + 9) / BLOCK) * BLOCK;
  const data = new Uint8Array(length);
  data.set(message);
  data[message.length] = 0x80;
  const bits = message.length * 8;
  const view = new DataView(data.buffer);
  view.setUint32(length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(length - 4, bits >>> 0);
  let h0 = INITIAL[0]! | 0, h1 = INITIAL[1]! | 0, h2 = INITIAL[2]! | 0, h3 = INITIAL[3]! | 0, h4 = INITIAL[4]! | 0, h5 = INITIAL[5]! | 0, h6 = INITIAL[6]! | 0, h7 = INITIAL[7]! | 0;
  for (let offset = 0; offset < length; offset += BLOCK) {
    for (let i = 0; i < 16; i++) W[i] = view.getInt32(offset + 4 * i);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15]!;
      const y = W[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  [h0, h1, h2, h3, h4, h5, h6, h7].forEach((x, i) => out.setUint32(4 * i, x >>> 0));
  return digest;
};

/** HMAC-SHA-256 of `message` under `key`. */
export const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array => {
  const block = new Uint8Array(BLOCK);
  block.set(key.length > BLOCK ? sha256(key) : key);
  const inner = new Uint8Array(BLOCK + message.length);
  const outer = new Uint8Array(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(message, BLOCK);
  outer.set(sha256(inner), BLOCK);
  return sha256(outer);
};

/**
 * The UTF-8 bytes of `text` (a lone surrogate as U+FFFD, like TextEncoder). Written out because
 * the runtime assumes only the ECMAScript library, where TextEncoder is not declared.
 */
export const utf8 = (text: string): Uint8Array => {
  // At most 3 bytes per UTF-16 unit: a pair of surrogates (2 units) is 4 bytes.
  const bytes = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes[n++] = code;
      continue;
    }
    if (code < 0x800) {
      bytes[n++] = 0xc0 | (code >> 6);
      bytes[n++] = 0x80 | (code & 0x3f);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        bytes[n++] = 0xf0 | (code >> 18);
        bytes[n++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[n++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[n++] = 0x80 | (code & 0x3f);
        continue;
      }
      code = 0xfffd;
    }
    bytes[n++] = 0xe0 | (code >> 12);
    bytes[n++] = 0x80 | ((code >> 6) & 0x3f);
    bytes[n++] = 0x80 | (code & 0x3f);
  }
  return bytes.subarray(0, n);
};

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lower-case hex of `bytes`. */
export const toHex = (bytes: Uint8Array): string => {
  let hex = "";
  for (let i = 0; i < bytes.length; i++) hex += HEX[bytes[i]!];
  return hex;
};
