// Nothing that leaves the runtime holds a secret or pii value: trace events, OpenTelemetry-bound
// events, typed errors (details and issues, paths included), persisted records and re-ask
// messages, for payloads with canaries at every depth (nested objects, lists, maps keyed by
// canaries, unions, other contracts), valid or not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRuntime, redact, type DecodeRecord, type TraceEvent } from "../../src/runtime/index.js";
import { demoProfile, registry } from "../fixtures/good-sensitive/expected/index.js";
import { arbitraryPayload } from "../support/sensitive-payloads.js";

const CANARY = /(SECRET|PII)-[0-9]+/;

describe("the runtime leaks no secret or pii value", () => {
  for (const [version, module] of Object.entries(demoProfile.versions)) {
    it(`demo.profile ${version}: traces, errors, records and re-ask messages`, async () => {
      const events: TraceEvent[] = [];
      const records: DecodeRecord[] = [];
      const runtime = createRuntime(registry, { onTrace: (e) => events.push(e), persist: { write: (r) => records.push(r) } });
      const payloads = arbitraryPayload(module.shape).map((p) => ({ ...(p as object), contract: "demo.profile", version }));
      let failures = 0;
      let asks = 0;
      await fc.assert(
        fc.asyncProperty(payloads, async (payload) => {
          events.length = 0;
          records.length = 0;
          const outcome = runtime.decode("demo.profile", payload);
          if (!outcome.ok) failures++;
          const outside = outcome.ok ? [] : [outcome.error, outcome.issues];
          const asked: string[] = [];
          const repaired = await runtime.withRepair({
            contract: "demo.profile",
            maxAttempts: 2,
            produce: async ({ reask }) => {
              if (reask !== undefined) asked.push(reask);
              return JSON.stringify(payload);
            },
          });
          asks += asked.length;
          const seen = JSON.stringify([outside, events, records, asked, repaired.ok ? [] : [repaired.error, repaired.issues, repaired.attempts]]);
          expect(seen).not.toMatch(CANARY);
        }),
        { numRuns: 300 },
      );
      // The property saw failures (errors and re-asks), not only clean payloads.
      expect(failures).toBeGreaterThan(30);
      expect(asks).toBeGreaterThan(30);
    });
  }
});

describe("persisted records with a pii key", () => {
  it("mark pii with the keyed hash the sink asks for, and never with the plain one", () => {
    const records: DecodeRecord[] = [];
    const write = (r: DecodeRecord) => records.push(r);
    const payload = { contract: "demo.profile", version: "1.0", name: "PII-ada" };
    createRuntime(registry, { persist: { write } }).decode("demo.profile", payload);
    createRuntime(registry, { persist: { write, piiKey: "k1" } }).decode("demo.profile", payload);
    createRuntime(registry, { persist: { write, piiKey: "k2" } }).decode("demo.profile", payload);
    const shape = demoProfile.versions["1.0"].shape;
    expect(records.map((r) => r.payload)).toEqual([
      redact(payload, shape, { internal: false }),
      redact(payload, shape, { internal: false, piiKey: "k1" }),
      redact(payload, shape, { internal: false, piiKey: "k2" }),
    ]);
    const names = records.map((r) => (r.payload as { name: string }).name);
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(/^\[pii:[0-9a-f]{16}\]$/);
  });
});
