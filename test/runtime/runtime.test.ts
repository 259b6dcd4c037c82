// The decode pipeline: stage order, each stage's failure as its operation.error, hooks, accepted
// versions, persisted records, counters, and the synchronous path when no hook is set.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { check as isOperationError } from "../../generated/operation.error/v1_0/validator.js";
import { redact } from "../../src/runtime/redact.js";
import {
  AdapterNotImplemented,
  createRegistry,
  createRuntime,
  DECODE_FAILURES,
  FAILURES,
  STAGES,
  type DecodeRecord,
  type FailureKind,
  type Outcome,
  type RuntimeFailure,
  type RuntimeOptions,
  type TraceEvent,
  type VersionRegistration,
} from "treaty/runtime";

const task = (overrides: Record<string, unknown> = {}) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: "Done.", claims: [{ claim_id: "c1", text: "A claim.", evidence_refs: ["src://doc/1"] }] },
  ...overrides,
});

const command = (overrides: Record<string, unknown> = {}) => ({
  contract: "tool.publish_post.command",
  version: "1.0",
  operation_id: "OP-5f2c9b",
  resource: { channel_id: "tg:brand_A" },
  payload_ref: "artifact://post/18",
  mode: "SCHEDULE",
  expected_state: { draft_version: 3 },
  publish_at: "2030-05-01T09:00:00Z",
  unpublish_at: "2030-05-08T09:00:00Z",
  ...overrides,
});

/** The shape a task.result version registers for redaction (typed loosely: generated code may not emit one yet). */
const shapeOf = (version: "1.2") => (registry.contracts["task.result"].versions[version] as VersionRegistration<unknown, unknown>).shape;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `demo` 1.0 reads into 2.0 through an adapter that is unwritten for n = 0 and may leave 2.0's range for n < 0. */
const demoVersion = (version: string, path: string[], valid: (v: Record<string, unknown>) => boolean): VersionRegistration<unknown, unknown> => ({
  path,
  lossless: false,
  revalidate: version === "1.0",
  check: (v): v is unknown => isRecord(v) && v["contract"] === "demo" && v["version"] === version && valid(v),
  errors: (v) => (isRecord(v) && valid(v) ? [] : [{ path: "/n", code: "min", message: "too small", expected: "a number > 0" }]),
  toCanonical: (v) => {
    const n = (v as { n: number }).n;
    if (n === 0) throw new AdapterNotImplemented("demo", "upgradeV1_0");
    return { contract: "demo", version: "2.0", n };
  },
  fromCanonical: (v) => v,
});
const demo = createRegistry({
  demo: {
    name: "demo",
    canonical: "2.0",
    envelope: "embedded",
    unknownFields: "reject",
    versions: {
      "1.0": demoVersion("1.0", ["1.0", "2.0"], (v) => typeof v["n"] === "number"),
      "2.0": demoVersion("2.0", ["2.0"], (v) => typeof v["n"] === "number" && v["n"] > 0),
    },
  },
});

const failure = (outcome: Outcome<unknown>): RuntimeFailure => {
  if (outcome.ok) throw new Error("expected a typed error");
  return outcome;
};

/** Sinks that keep every event and record, and deterministic error ids, to spread into runtime options. */
const observing = () => {
  const events: TraceEvent[] = [];
  const records: DecodeRecord[] = [];
  let n = 0;
  const options = { errorId: () => `ERR-${++n}`, onTrace: (e: TraceEvent) => events.push(e), persist: { write: (r: DecodeRecord) => records.push(r) } };
  return { events, records, options };
};

/** A synchronous runtime (no hooks) whose events and records are kept. */
const observedRuntime = (accept?: RuntimeOptions["accept"]) => {
  const { events, records, options } = observing();
  return { events, records, runtime: createRuntime(registry, accept ? { ...options, accept } : options) };
};

describe("decode stages", () => {
  it("runs every stage in order on success, synchronously without hooks", () => {
    const { runtime, events } = observedRuntime();
    const outcome = runtime.decode("task.result", task(), { traceId: "TRACE-1" });
    expect(outcome.ok).toBe(true);
    expect(events.map((e) => e.stage)).toEqual([...STAGES]);
    expect(events.every((e) => e.outcome === "ok" && e.attempt === 1 && e.traceId === "TRACE-1" && e.durationUs >= 0)).toBe(true);
    expect(events.at(-1)).toMatchObject({ contract: "task.result", version: "1.2", adapterPath: ["1.2", "2.0"] });
  });

  it("stops at the failing stage, which the last event names", () => {
    const { runtime, events } = observedRuntime();
    const outcome = failure(runtime.decode("task.result", task({ status: "DONE" })));
    expect(events.map((e) => [e.stage, e.outcome])).toEqual([
      ["parse", "ok"],
      ["envelope", "ok"],
      ["schema", "fail"],
    ]);
    expect(events.at(-1)).toMatchObject({ errorClass: "INVALID_INPUT", errorCode: "SCHEMA_INVALID", issueCodes: ["enum"] });
    expect(outcome.stage).toBe("schema");
  });

  it("tells a broken semantic rule from a schema failure", () => {
    const { runtime, events } = observedRuntime();
    const outcome = failure(runtime.decode("tool.publish_post.command", command({ unpublish_at: "2030-04-01T09:00:00Z" })));
    expect(outcome).toMatchObject({ kind: "semantic", stage: "semantic", error: { class: "INVALID_INPUT", code: "RULE_VIOLATED" } });
    expect(outcome.issues.map((i) => [i.path, i.code])).toEqual([["/unpublish_at", "rule.before"]]);
    expect(events.map((e) => e.stage)).toEqual(["parse", "envelope", "schema", "semantic"]);
  });

  it("names the earliest failing stage: beside a schema failure a broken rule stays in `issues`", () => {
    const { runtime, events } = observedRuntime();
    const outcome = failure(runtime.decode("tool.publish_post.command", command({ mode: "LATER", unpublish_at: "2030-04-01T09:00:00Z" })));
    expect(outcome).toMatchObject({ kind: "schema", stage: "schema", error: { code: "SCHEMA_INVALID", details: { issue_codes: "enum, rule.before" } } });
    expect(outcome.issues.map((i) => [i.path, i.code])).toEqual([["/mode", "enum"], ["/unpublish_at", "rule.before"]]);
    expect(events.map((e) => [e.stage, e.outcome])).toEqual([["parse", "ok"], ["envelope", "ok"], ["schema", "fail"]]);
    expect(failure(runtime.decode("tool.publish_post.command", command({ mode: "LATER" })))).toMatchObject({ kind: "schema", issues: [{ path: "/mode", code: "enum" }] });
  });

  it("reads only the versions the host accepts, per runtime or per call", () => {
    const { runtime } = observedRuntime({ "task.result": ["2.0"] });
    const refused = failure(runtime.decode("task.result", task()));
    expect(refused).toMatchObject({ kind: "not-accepted", known: ["2.0"], error: { class: "UNSUPPORTED_VERSION", code: "VERSION_NOT_ACCEPTED" } });
    expect(refused.issues).toEqual([expect.objectContaining({ path: "/version", code: "enum", expected: "one of 2.0" })]);
    expect(runtime.decode("task.result", task(), { accept: ["1.2"] }).ok).toBe(true);
  });

  it("refuses an unknown contract listing the known ones", () => {
    const { runtime } = observedRuntime();
    const outcome = failure(runtime.decode("task.resutl" as "task.result", task()));
    expect(outcome).toMatchObject({ kind: "unknown-contract", error: { class: "UNSUPPORTED_VERSION", code: "UNKNOWN_CONTRACT" } });
    expect(outcome.known).toEqual(Object.keys(registry.contracts));
  });

  it("refuses unreadable text at the parse stage", () => {
    const { runtime } = observedRuntime();
    const outcome = failure(runtime.decode("task.result", "I could not do it, sorry."));
    expect(outcome).toMatchObject({ kind: "unparseable", stage: "parse", error: { class: "INVALID_INPUT", code: "UNPARSEABLE" } });
  });
});

describe("state and policy hooks", () => {
  const cases: [string, RuntimeOptions, FailureKind, string, boolean][] = [
    ["a stale expected state", { state: async () => ({ ok: false, reason: "stale" }) }, "stale", "CONFLICT", false],
    ["a missing resource", { state: async () => ({ ok: false, reason: "not-found" }) }, "not-found", "NOT_FOUND", false],
    ["a state hook that throws", { state: async () => Promise.reject(new Error("db down")) }, "state-failed", "TRANSIENT", true],
    ["a missing scope", { policy: async () => ({ ok: false, reason: "permission" }) }, "permission", "PERMISSION_DENIED", false],
    ["a policy refusal", { policy: async () => ({ ok: false, reason: "policy" }) }, "policy", "POLICY_DENIED", false],
    ["a policy hook that throws", { policy: () => { throw new Error("opa unreachable"); } }, "policy-failed", "TRANSIENT", true],
  ];
  it.each(cases)("maps %s to its class", async (_, hooks, kind, errorClass, retryable) => {
    const runtime = createRuntime(registry, { ...observing().options, ...hooks });
    const outcome = failure(await runtime.decode("tool.publish_post.command", command()));
    expect(outcome).toMatchObject({ kind, stage: FAILURES[kind].stage, error: { class: errorClass, retryable } });
    expect(JSON.stringify(outcome)).not.toMatch(/db down|opa unreachable/);
  });

  it("runs state before policy, both on the payload as read, and returns a promise", async () => {
    const seen: string[] = [];
    const { events, options } = observing();
    const runtime = createRuntime(registry, {
      ...options,
      state: async ({ version, payload }) => (seen.push(`state ${version} ${(payload as { mode: string }).mode}`), { ok: true }),
      policy: async ({ contract }) => (seen.push(`policy ${contract}`), { ok: true }),
    });
    const pending = runtime.decode("tool.publish_post.command", command());
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).ok).toBe(true);
    expect(seen).toEqual(["state 1.0 SCHEDULE", "policy tool.publish_post.command"]);
    expect(events.map((e) => e.stage)).toEqual([...STAGES]);
  });
});

describe("canonical stage", () => {
  it("names an unwritten adapter and a value the canonical model cannot hold", () => {
    const runtime = createRuntime(demo);
    expect(failure(runtime.decode("demo", { contract: "demo", version: "1.0", n: 0 }))).toMatchObject({ kind: "adapter-not-implemented", stage: "canonical", error: { class: "UNSUPPORTED_VERSION" } });
    expect(failure(runtime.decode("demo", { contract: "demo", version: "1.0", n: -1 }))).toMatchObject({ kind: "not-representable", stage: "canonical", error: { class: "INVALID_INPUT" } });
    expect(runtime.decode("demo", { contract: "demo", version: "1.0", n: 1 })).toMatchObject({ ok: true, value: { version: "2.0", n: 1 } });
  });
});

describe("typed errors", () => {
  // The gates' kinds (GATE_FAILURES) are reached in test/agent/pipeline.test.ts.
  it("every decode failure kind is reachable, and each error is a valid operation.error 1.0", async () => {
    const hooked = (hooks: RuntimeOptions) => createRuntime(registry, { ...hooks, source: "tool.action_engine" });
    const produced: RuntimeFailure[] = [
      failure(createRuntime(registry).decode("task.result", "```json\n{\"a\": 1,\n```")),
      failure(createRuntime(registry).decode("task.result", [task()])),
      failure(createRuntime(registry).decode("task.result", command())),
      failure(createRuntime(registry).decode("nope" as "task.result", task())),
      failure(createRuntime(registry).decode("task.result", task({ version: "9.9" }))),
      failure(createRuntime(registry).decode("task.result", task(), { accept: ["1.0"] })),
      failure(createRuntime(registry).decode("task.result", task({ task_id: 7 }))),
      failure(createRuntime(registry).decode("tool.publish_post.command", command({ publish_at: "2031-01-01T00:00:00Z" }))),
      ...(await Promise.all(
        (["stale", "not-found", "permission", "policy"] as const).map(async (reason) =>
          failure(await hooked(reason === "stale" || reason === "not-found" ? { state: async () => ({ ok: false, reason }) } : { policy: async () => ({ ok: false, reason }) }).decode("task.result", task(), { traceId: "TRACE-x" })),
        ),
      )),
      failure(await hooked({ state: async () => Promise.reject(new Error()) }).decode("task.result", task())),
      failure(await hooked({ policy: async () => Promise.reject(new Error()) }).decode("task.result", task())),
      failure(createRuntime(demo).decode("demo", { contract: "demo", version: "1.0", n: 0 })),
      failure(createRuntime(demo).decode("demo", { contract: "demo", version: "1.0", n: -1 })),
      failure(createRuntime(registry).decode("task.result", task(), { traceId: "T1" })),
      failure(createRuntime(registry).decode("task.result", task(), { from: "nope" })),
    ];
    expect(new Set(produced.map((f) => f.kind))).toEqual(new Set(Object.keys(DECODE_FAILURES)));
    for (const { error, kind } of produced) {
      expect(isOperationError(error), kind).toBe(true);
      expect(error).toMatchObject({ class: FAILURES[kind].class, code: FAILURES[kind].code, details: { stage: FAILURES[kind].stage } });
    }
  });

  it("any input ends in a result or a valid operation.error that quotes none of it", () => {
    const runtime = createRuntime(registry, { errorId: () => "ERR-1" });
    const canary = "zz-canary-zz";
    const inputs = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.record({ contract: fc.constantFrom("task.result", canary), version: fc.constantFrom("1.0", "1.2", "2.0", canary), status: fc.constantFrom("SUCCESS", canary), task_id: fc.constantFrom("TASK-1", canary) }),
    );
    fc.assert(
      fc.property(inputs, (input) => {
        const outcome = runtime.decode("task.result", input, { traceId: "TRACE-p" });
        if (outcome.ok) return;
        expect(isOperationError(outcome.error)).toBe(true);
        expect(JSON.stringify(outcome)).not.toContain(canary);
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses a malformed source as a programming error", () => {
    expect(() => createRuntime(registry, { source: "Tool Engine" })).toThrow(TypeError);
  });
});

describe("trace ids", () => {
  const W3C = "4bf92f3577b34da6a3ce929d0e0e4736";
  const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

  it.each([
    ["treaty's own form", "TRACE-9c1d", "TRACE-9c1d"],
    ["a W3C trace id", W3C, `TRACE-${W3C}`],
    ["a UUID", UUID, `TRACE-${UUID}`],
    ["an upper-case UUID", UUID.toUpperCase(), `TRACE-${UUID.toUpperCase()}`],
  ])("accepts %s: as given on events, records and the result, as TRACE-… in operation.error", (_what, traceId, onWire) => {
    const { runtime, events, records } = observedRuntime();
    expect(runtime.decode("task.result", task(), { traceId })).toMatchObject({ ok: true, traceId });
    const outcome = failure(runtime.decode("task.result", task({ status: "DONE" }), { traceId }));
    expect(outcome).toMatchObject({ kind: "schema", traceId, error: { trace_id: onWire } });
    expect(isOperationError(outcome.error)).toBe(true);
    expect(events.every((e) => e.traceId === traceId)).toBe(true);
    expect(records.map((r) => r.traceId)).toEqual([traceId, traceId]);
  });

  it.each([
    ["a bare word", "T1"],
    ["an all-zero W3C trace id", "0".repeat(32)],
    ["an upper-case W3C trace id", W3C.toUpperCase()],
    ["a W3C trace id one digit short", W3C.slice(1)],
    ["a TRACE- id longer than 64 characters", `TRACE-${"a".repeat(59)}`],
  ])("reports %s as a failure, never a throw, and puts it nowhere", (_what, traceId) => {
    const { runtime, events, records } = observedRuntime();
    const outcome = failure(runtime.decode("task.result", task(), { traceId }));
    expect(outcome).toMatchObject({ kind: "trace-id", stage: "envelope", issues: [], error: { class: "INVALID_INPUT", code: "TRACE_ID_INVALID", retryable: false } });
    expect(isOperationError(outcome.error)).toBe(true);
    expect(JSON.stringify([outcome, events, records])).not.toContain(traceId);
    expect(events.map((e) => [e.stage, e.outcome])).toEqual([["parse", "ok"], ["envelope", "fail"]]);
  });
});

describe("persisted records and counters", () => {
  it("persists each decode with its payload as redact returns it", () => {
    const { runtime, records } = observedRuntime();
    runtime.decode("task.result", "```json\n" + JSON.stringify(task()) + "\n```", { traceId: "TRACE-r" });
    runtime.decode("task.result", task({ status: "DONE" }));
    runtime.decode("task.result", "not json at all");
    const shape = shapeOf("1.2");
    expect(records).toEqual([
      { contract: "task.result", version: "1.2", payload: redact(task(), shape, { internal: false }), outcome: "ok", stage: "canonical", adapterPath: ["1.2", "2.0"], repairs: ["code-fence"], treatyVersion: expect.any(String), traceId: "TRACE-r", attempt: 1 },
      { contract: "task.result", version: "1.2", payload: redact(task({ status: "DONE" }), shape, { internal: false }), outcome: "INVALID_INPUT", code: "SCHEMA_INVALID", stage: "schema", adapterPath: ["1.2", "2.0"], repairs: [], treatyVersion: expect.any(String), attempt: 1 },
      { contract: "task.result", outcome: "INVALID_INPUT", code: "UNPARSEABLE", stage: "parse", adapterPath: [], repairs: [], treatyVersion: expect.any(String), attempt: 1 },
    ]);
  });

  it("counts traffic per version, validation failures, repairs and unsupported versions", () => {
    const runtime = createRuntime(registry);
    runtime.decode("task.result", task());
    runtime.decode("task.result", task({ version: "1.0" }));
    runtime.decode("task.result", JSON.stringify(task()).slice(0, -1) + ",}");
    runtime.decode("task.result", "{'contract': 'task.result', 'version': '1.2'}");
    runtime.decode("task.result", task({ status: "DONE" }));
    runtime.decode("task.result", task({ version: "7.0" }));
    expect(runtime.metrics()).toEqual({
      traffic: { "task.result": { "1.0": 1, "1.2": 4 } },
      validationFailures: { "task.result": { "1.2": 2 } },
      repairsTried: { "task.result": 2 },
      repairsSucceeded: { "task.result": 1 },
      unsupportedVersions: { "task.result": 1 },
    });
  });
});
