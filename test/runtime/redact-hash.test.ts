// The runtime's own SHA-256, HMAC and UTF-8 (used for pii markers) against Node's implementations.
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hmacSha256, sha256, toHex, utf8 } from "../../src/runtime/sha256.js";

describe("pii hashing primitives", () => {
  it("sha256 agrees with node:crypto, across block boundaries", () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 31) & 0xff);
      expect(toHex(sha256(bytes)), `${length} bytes`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => toHex(sha256(bytes)) === createHash("sha256").update(bytes).digest("hex")));
  });

  it("hmacSha256 agrees with node:crypto, for short and long keys", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.uint8Array({ maxLength: 200 }), (key, message) =>
        toHex(hmacSha256(key, message)) === createHmac("sha256", key).update(message).digest("hex"),
      ),
    );
  });

  it("utf8 agrees with TextEncoder, lone surrogates included", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect([...utf8(text)]).toEqual([...encoder.encode(text)]);
      }),
    );
    expect([...utf8("\ud800x")]).toEqual([0xef, 0xbf, 0xbd, 0x78]);
  });
});
