// Redaction against the shapes generated for test/fixtures/good-sensitive (sensitive fields at
// every depth: nested objects, named types, lists, maps, unions, other contracts with and without
// an envelope). Canary strings mark each sensitive value: a secret or pii canary must never
// survive redaction, an internal canary only for internal readers.
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redact, type RedactOptions } from "../../src/runtime/index.js";
import { demoProfile } from "../fixtures/good-sensitive/expected/index.js";
import { arbitraryPayload } from "../support/sensitive-payloads.js";

const shape = demoProfile.v1_0.shape;
const PUBLIC: RedactOptions = { internal: false };
const INTERNAL: RedactOptions = { internal: true };

const contact = (n: number) => ({ channel: "EMAIL", email: `pii-${n}@example.com`, note: `INTERNAL-note-${n}`, recovery_code: `SECRET-recovery-${n}` });

/** A valid demo.profile 1.0 with a canary in every sensitive field, at every depth. */
const payload = () => ({
  contract: "demo.profile",
  version: "1.0",
  user_id: "u42",
  tier: "PRO",
  name: "PII-name",
  password: "SECRET-password",
  audit: "INTERNAL-audit",
  active: true,
  contact: contact(1),
  address: { city: "Paris", street: "PII-street", gate_code: "SECRET-gate" },
  contacts: [contact(2), contact(3)],
  references: { first: { contact: contact(4), since: 2001 } },
  login: { method: "password", hash: "SECRET-hash", hint: "INTERNAL-hint" },
  history: [{ week: [{ contact: contact(5), since: 2002 }] }],
  backup_codes: ["SECRET-backup-1", "SECRET-backup-2"],
  home: { lat: 48.85, lon: 2.35 },
  reviewers: { boss: contact(6) },
  credential: { contract: "demo.credential", version: "1.1", label: "laptop", scope: "READ", token: "SECRET-token", holder: "PII-holder", note: "INTERNAL-cred-note" },
  devices: [{ model: "phone", serial: "PII-serial", pin: "SECRET-9" }],
});

const text = (value: unknown): string => JSON.stringify(value);
/** The unkeyed pii marker of a string, as a masked map key. */
const markerOf = (key: string): string => `[pii:${createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 16)}]`;
const leaks = (value: unknown, pattern: RegExp): string[] => text(value).match(pattern) ?? [];

const SECRET_OR_PII = /SECRET-[a-z0-9-]*|PII-[a-z0-9-]*|pii-[0-9]+@example\.com|48\.85/g;
const INTERNAL_CANARY = /INTERNAL-[a-z0-9-]*/g;

describe("redact on a valid payload", () => {
  it("uses a payload the generated validator accepts", () => {
    expect(demoProfile.v1_0.errors(payload())).toEqual([]);
  });

  it("keeps no secret or pii canary, for any reader", () => {
    expect(leaks(redact(payload(), shape, PUBLIC), SECRET_OR_PII)).toEqual([]);
    expect(leaks(redact(payload(), shape, INTERNAL), SECRET_OR_PII)).toEqual([]);
  });

  it("keeps internal values only for internal readers, every one of them there", () => {
    expect(leaks(redact(payload(), shape, PUBLIC), INTERNAL_CANARY)).toEqual([]);
    const internal = new Set(leaks(redact(payload(), shape, INTERNAL), INTERNAL_CANARY));
    // Every internal canary of the input outside pii and secret fields.
    expect(internal).toEqual(new Set(leaks(payload(), INTERNAL_CANARY)));
  });

  it("removes secret keys, marks pii values and keeps what is not sensitive as it was", () => {
    const out = redact(payload(), shape, PUBLIC) as Record<string, any>;
    expect(Object.keys(out)).not.toContain("password");
    expect(Object.keys(out)).not.toContain("audit");
    expect(out["address"]).toEqual({ city: "Paris", street: expect.stringMatching(/^\[pii:[0-9a-f]{16}\]$/) });
    expect(out["login"]).toEqual({ method: "password" });
    expect(out["contacts"]).toEqual([
      { channel: "EMAIL", email: expect.stringMatching(/^\[pii:/) },
      { channel: "EMAIL", email: expect.stringMatching(/^\[pii:/) },
    ]);
    expect(out["history"]).toEqual([{ week: [{ contact: { channel: "EMAIL", email: expect.stringMatching(/^\[pii:/) }, since: 2002 }] }]);
    expect(out["home"]).toMatch(/^\[pii:[0-9a-f]{16}\]$/);
    expect(out["reviewers"]).toBeUndefined();
    expect(out).toMatchObject({ contract: "demo.profile", version: "1.0", user_id: "u42", tier: "PRO", active: true });
  });

  it("redacts inside an internal field for internal readers too", () => {
    const out = redact(payload(), shape, INTERNAL) as Record<string, any>;
    // A map's keys may be data: reviewers does not declare them names, so `boss` is a marker.
    expect(Object.keys(out["reviewers"])).toEqual([expect.stringMatching(/^\[pii:[0-9a-f]{16}\]$/)]);
    expect(Object.values(out["reviewers"])).toEqual([{ channel: "EMAIL", email: expect.stringMatching(/^\[pii:/), note: "INTERNAL-note-6" }]);
    expect(out["login"]).toEqual({ method: "password", hint: "INTERNAL-hint" });
  });

  it("copies: the input is left as it was and shares nothing with the output", () => {
    const input = payload();
    const out = redact(input, shape, INTERNAL) as Record<string, any>;
    expect(input).toEqual(payload());
    expect(out["address"]).not.toBe(input.address);
    expect(out["contacts"]).not.toBe(input.contacts);
  });
});

describe("pii markers", () => {
  const marker = (value: unknown, options: RedactOptions = PUBLIC): string => (redact({ name: value }, shape, options) as { name: string }).name;

  it("are the first 64 bits of the SHA-256 of the value's JSON", () => {
    const expected = createHash("sha256").update(JSON.stringify("Ada Lovelace")).digest("hex").slice(0, 16);
    expect(marker("Ada Lovelace")).toBe(`[pii:${expected}]`);
  });

  it("are an HMAC under piiKey, so a guessed value cannot be confirmed without the key", () => {
    const expected = createHmac("sha256", "k3y").update(JSON.stringify("Ada Lovelace")).digest("hex").slice(0, 16);
    expect(marker("Ada Lovelace", { internal: false, piiKey: "k3y" })).toBe(`[pii:${expected}]`);
    expect(marker("Ada Lovelace", { internal: false, piiKey: new TextEncoder().encode("k3y") })).toBe(`[pii:${expected}]`);
    expect(marker("Ada Lovelace", { internal: false, piiKey: "other" })).not.toBe(`[pii:${expected}]`);
  });

  it("are the same for the same value wherever it sits, and differ for different values", () => {
    const out = redact({ name: "x@example.com", contact: { channel: "EMAIL", email: "x@example.com" }, address: { city: "P", street: "y" } }, shape, PUBLIC) as any;
    expect(out.contact.email).toBe(out.name);
    expect(out.address.street).not.toBe(out.name);
  });

  it("hash a structured value whole, whatever its key order", () => {
    expect(marker({ lat: 1, lon: 2 })).toBe(marker({ lon: 2, lat: 1 }));
    expect(marker({ lat: 1, lon: 2 })).not.toBe(marker({ lat: 2, lon: 1 }));
    expect(redact({ home: { lat: 1, lon: 2 } }, shape, PUBLIC)).toEqual({ home: marker({ lat: 1, lon: 2 }) });
  });
});

describe("redact on what the shape does not describe", () => {
  it("keeps nothing without a shape", () => {
    expect(redact(payload(), undefined, INTERNAL)).toBe(REDACTED);
  });

  it("removes keys a version does not declare, at every depth, whatever their name", () => {
    const input = JSON.parse(
      text({
        ...payload(),
        "PII-key@example.com": "SECRET-a",
        address: { city: "Paris", street: "s", gate_code: "g", SECRET_extra: "SECRET-b" },
        contacts: [{ ...contact(1), "PII-k": "SECRET-c" }],
        login: { method: "sso", provider: "acme", subject: "PII-s", hash: "SECRET-not-in-sso" },
        history: [{ w: [{ contact: contact(2), since: 2000, extra: { SECRET: "SECRET-d" } }] }],
        credential: { ...payload().credential, SECRET_e: "SECRET-e" },
        devices: [{ model: "m", serial: "s", pin: "p", extra: "SECRET-f" }],
      }).replace('"contract":', '"__proto__":{"SECRET":"SECRET-g"},"contract":'),
    );
    const out = redact(input, shape, INTERNAL) as Record<string, any>;
    expect(leaks(out, SECRET_OR_PII)).toEqual([]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out["login"]).toEqual({ method: "sso", provider: "acme", subject: expect.stringMatching(/^\[pii:/) });
  });

  it("replaces values of the wrong kind with REDACTED", () => {
    const out = redact(
      {
        ...payload(),
        tier: "SECRET-not-a-tier",
        active: "SECRET-not-a-bool",
        user_id: { SECRET: "SECRET-object-for-string" },
        contact: "SECRET-string-for-object",
        contacts: { 0: contact(1) },
        references: ["SECRET-list-for-map"],
        login: { method: "SECRET-unknown-variant", hash: "SECRET-h" },
        history: [{ w: "SECRET-string-for-list" }],
      },
      shape,
      INTERNAL,
    ) as Record<string, any>;
    expect(leaks(out, SECRET_OR_PII)).toEqual([]);
    expect(out).toMatchObject({ tier: REDACTED, active: REDACTED, user_id: REDACTED, contact: REDACTED, contacts: REDACTED, references: REDACTED, login: REDACTED });
    expect(out["history"]).toEqual([{ w: REDACTED }]);
  });

  it("reads a union variant given by a named type", () => {
    const out = redact({ login: { method: "contact", ...contact(9) } }, shape, PUBLIC);
    expect(out).toEqual({ login: { method: "contact", channel: "EMAIL", email: expect.stringMatching(/^\[pii:/) } });
  });

  it("does not follow a cyclic value around", () => {
    const cyclic: Record<string, any> = { city: "Paris", street: "PII-street" };
    const input = { references: { a: { contact: contact(1), since: 2000 } }, address: cyclic };
    cyclic["self"] = input;
    (input.references.a as Record<string, unknown>)["contact"] = input;
    const out = redact(input, shape, INTERNAL);
    expect(leaks(out, SECRET_OR_PII)).toEqual([]);
    expect(out).toEqual({ references: { [markerOf("a")]: { contact: REDACTED, since: 2000 } }, address: { city: "Paris", street: expect.stringMatching(/^\[pii:/) } });
  });

  it("keeps a map key `__proto__` as data", () => {
    // history's maps declare `keys: { sensitivity: none }`: their keys are kept as they are.
    const out = redact(JSON.parse('{"history":[{"__proto__":[{"contact":{"channel":"PHONE","email":"e"},"since":2000}]}]}'), shape, PUBLIC) as any;
    expect(Object.hasOwn(out.history[0], "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out.history[0])).toBe(Object.prototype);
  });

  it("masks a map's keys as markers unless the map declares them names", () => {
    const out = redact({ references: { "alice@example.com": { since: 2000 }, "bob@example.com": { since: 2001 } }, history: [{ week: [] }] }, shape, PUBLIC) as any;
    expect(out.references).toEqual({ [markerOf("alice@example.com")]: { since: 2000 }, [markerOf("bob@example.com")]: { since: 2001 } });
    expect(out.history).toEqual([{ week: [] }]);
  });
});

describe("redact on another contract's payload", () => {
  const credential = payload().credential;

  it("reads the version its envelope names", () => {
    const out = redact({ credential }, shape, INTERNAL) as any;
    expect(out.credential).toEqual({ contract: "demo.credential", version: "1.1", label: "laptop", scope: "READ", holder: expect.stringMatching(/^\[pii:/), note: "INTERNAL-cred-note" });
    expect((redact({ credential }, shape, PUBLIC) as any).credential.note).toBeUndefined();
  });

  it("without a known version, keeps only what every version of the major keeps alike", () => {
    const out = redact({ credential: { ...credential, version: "1.9" } }, shape, INTERNAL) as any;
    expect(out.credential).toEqual({ contract: "demo.credential", version: "1.9", label: "laptop", scope: "READ", holder: expect.stringMatching(/^\[pii:/) });
  });

  it("without an envelope (envelope: none), likewise", () => {
    const out = redact({ devices: [{ model: "phone", serial: "PII-serial", pin: "SECRET-pin", owner_note: "INTERNAL-dev" }] }, shape, INTERNAL) as any;
    expect(out.devices).toEqual([{ model: "phone", serial: expect.stringMatching(/^\[pii:/) }]);
  });
});

// ---- properties ---------------------------------------------------------------------------------

describe("redact properties", () => {
  const shapes = Object.values(demoProfile.versions).map((v) => v.shape);

  it("never keeps a secret or pii canary, nor an internal one for public readers", () => {
    for (const versionShape of shapes) {
      fc.assert(
        fc.property(arbitraryPayload(versionShape), (value) => {
          expect(leaks(redact(value, versionShape, INTERNAL), /SECRET-|PII-/g)).toEqual([]);
          expect(leaks(redact(value, versionShape, PUBLIC), /SECRET-|PII-|INTERNAL-/g)).toEqual([]);
        }),
        { numRuns: 300 },
      );
    }
  });

  it("keeps for public readers a part of what internal readers get", () => {
    const within = (small: unknown, big: unknown): boolean =>
      small === big ||
      (Array.isArray(small) && Array.isArray(big) && small.length === big.length && small.every((item, i) => within(item, big[i]))) ||
      (typeof small === "object" && small !== null && !Array.isArray(small) && typeof big === "object" && big !== null &&
        Object.entries(small).every(([key, item]) => Object.hasOwn(big, key) && within(item, (big as Record<string, unknown>)[key])));
    fc.assert(
      fc.property(arbitraryPayload(shape), (value) => within(redact(value, shape, PUBLIC), redact(value, shape, INTERNAL))),
      { numRuns: 300 },
    );
  });
});
