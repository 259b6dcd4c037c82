// decode and encode through the generated registries: typed results that name the version and the
// adapter path, typed failures (never exceptions) for what cannot be read or written, in the
// runtime's vocabulary: the same kinds, codes and shape as `runtime.decode`.
import { describe, expect, it } from "vitest";
import * as idl from "../../generated/index.js";
import { check as isOperationError } from "../../generated/operation.error/v1_0/validator.js";
import type { TaskResultV2_0 } from "../../generated/task.result/v2_0/index.js";
import * as adaptersFixture from "../fixtures/good-adapters/expected/index.js";
import type { DemoProfileV3_0 } from "../fixtures/good-adapters/expected/demo.profile/v3_0/index.js";
import * as stripFixture from "../fixtures/good-refs-strip/expected/index.js";
import { createRegistry, createRuntime, FAILURES, type ContractRegistration, type Decoded, type Failure } from "../../src/runtime/index.js";

const taskResultV1_0 = {
  contract: "task.result",
  version: "1.0",
  task_id: "TASK-7",
  status: "PARTIAL",
  result: { artifact_ref: "artifact://report/7", summary: "Two of three sections drafted.", claims: [] },
} as const;

const canonicalTaskResult: TaskResultV2_0 = {
  contract: "task.result",
  version: "2.0",
  id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: "Done.", claims: [] },
  quality: { verification: "PASS", unresolved_items: [] },
  usage: { model_calls: 2, tool_calls: 1 },
};

describe("decode", () => {
  it("reads an older version into the canonical model, naming the version, the path and what it filled in", () => {
    const result = idl.decode("task.result", taskResultV1_0);
    expect(result).toEqual({
      ok: true,
      contract: "task.result",
      version: "1.0",
      readAs: "1.0",
      canonical: "2.0",
      path: ["1.0", "1.1", "1.2", "2.0"],
      stripped: [],
      dropped: [],
      filled: [{ version: "2.0", path: "/quality" }],
      value: {
        contract: "task.result",
        version: "2.0",
        id: "TASK-7",
        status: "PARTIAL",
        result: taskResultV1_0.result,
        quality: { verification: "SKIPPED", unresolved_items: [] },
      },
    });
    // The canonical type is what business code sees.
    if (result.ok) expect(result.value.id satisfies string).toBe("TASK-7");
  });

  it("fails with UNSUPPORTED_VERSION listing the versions this build knows, as data and as an operation.error", () => {
    const registry = createRegistry(idl.registry.contracts, { errorId: () => "ERR-1" });
    expect(registry.decode("task.result", { ...taskResultV1_0, version: "3.0" })).toEqual({
      ok: false,
      kind: "unsupported-version",
      stage: "envelope",
      contract: "task.result",
      known: ["1.0", "1.1", "1.2", "2.0"],
      issues: [{ path: "/version", code: "enum", message: "enum: expected one of 1.0, 1.1, 1.2, 2.0", expected: "one of 1.0, 1.1, 1.2, 2.0" }],
      error: {
        contract: "operation.error",
        version: "1.0",
        error_id: "ERR-1",
        code: "UNSUPPORTED_VERSION",
        class: "UNSUPPORTED_VERSION",
        retryable: false,
        message_safe: "This task.result version is not supported.",
        details: { stage: "envelope", contract: "task.result", paths: "/version", issue_codes: "enum", known: "1.0, 1.1, 1.2, 2.0" },
        source: "treaty.registry",
      },
    });
  });

  it("under unknown_fields: reject, does not read a newer minor either", () => {
    expect(idl.decode("task.result", { ...taskResultV1_0, version: "1.3" })).toMatchObject({ ok: false, kind: "unsupported-version", error: { code: "UNSUPPORTED_VERSION" } });
  });

  it("fails with INVALID_INPUT and the issues of the version it was sent as", () => {
    const result = idl.decode("task.result", { ...taskResultV1_0, status: "DONE" });
    expect(result).toMatchObject({ ok: false, kind: "schema", version: "1.0", error: { class: "INVALID_INPUT", code: "SCHEMA_INVALID" } });
    expect(!result.ok && result.issues).toContainEqual(expect.objectContaining({ path: "/status", code: "enum" }));
  });

  it.each([
    ["not an object", "[1]", "envelope", "ENVELOPE_INVALID", "", "type"],
    ["another contract", JSON.stringify({ contract: "agent.task", version: "3.0" }), "wrong-contract", "WRONG_CONTRACT", "/contract", "const"],
    ["no version", JSON.stringify({ contract: "task.result" }), "envelope", "ENVELOPE_INVALID", "/version", "required"],
    ["a version that is no string", JSON.stringify({ contract: "task.result", version: 1 }), "envelope", "ENVELOPE_INVALID", "/version", "type"],
  ])("reports %s as INVALID_INPUT, never a throw", (_what, json, kind, code, path, issueCode) => {
    const result = idl.decode("task.result", JSON.parse(json));
    expect(result).toMatchObject({ ok: false, kind, error: { class: "INVALID_INPUT", code, retryable: false } });
    expect(!result.ok && result.issues[0]).toMatchObject({ path, code: issueCode });
  });

  it("reports an unknown contract as data too", () => {
    const untyped = idl.decode as (contract: string, input: unknown) => ReturnType<typeof idl.decode>;
    expect(untyped("no.such", {})).toMatchObject({ ok: false, kind: "unknown-contract", known: Object.keys(idl.contracts), error: { class: "UNSUPPORTED_VERSION", code: "UNKNOWN_CONTRACT" } });
  });

  it("goes through hand-written custom steps and validates their result as canonical", () => {
    const result = idl.decode("agent.task", {
      contract: "agent.task",
      version: "2.0",
      task_id: "SUB-41",
      parent_task_id: "ROOT-1",
      goal: "List the sources cited in the brief.",
      inputs: { artifact_refs: [], evidence_refs: [] },
      constraints: [],
      budget: { deadline_ms: 1500 },
      output_contract: "research.answer.v2",
    });
    expect(result).toMatchObject({ ok: true, path: ["2.0", "2.1", "3.0"], value: { version: "3.0", budget: { deadline_s: 2 } } });
  });
});

describe("decode under unknown_fields: strip", () => {
  const order = {
    contract: "demo.order",
    version: "1.1",
    order_id: "O-1",
    placed_at: "2030-01-01T00:00:00Z",
    items: [{ sku: "A1", quantity: 2, note: null }],
  };

  it("reads a newer minor of a known major as the newest known one, and says what it stripped", () => {
    const result = stripFixture.decode("demo.order", { ...order, version: "1.4", gift_wrap: true, items: [{ sku: "A1", quantity: 2, colour: "red" }] });
    expect(result).toEqual({
      ok: true,
      contract: "demo.order",
      version: "1.4",
      readAs: "1.1",
      canonical: "1.1",
      path: ["1.1"],
      stripped: ["/gift_wrap", "/items/0/colour"],
      dropped: [],
      filled: [],
      value: { ...order, items: [{ sku: "A1", quantity: 2 }] },
    });
  });

  it("does not read a newer major", () => {
    expect(stripFixture.decode("demo.order", { ...order, version: "2.0" })).toMatchObject({ ok: false, kind: "unsupported-version", known: ["1.0", "1.1"] });
  });

  it("takes the version from the caller when the contract has no envelope", () => {
    expect(stripFixture.decode("demo.failure", { code: "OUT_OF_STOCK" }, { version: "1.0" })).toMatchObject({ ok: true, version: "1.0", path: ["1.0", "1.1"] });
    expect(stripFixture.decode("demo.failure", { code: "OUT_OF_STOCK", detail: "Sold out." })).toMatchObject({ ok: true, version: "1.1", path: ["1.1"] });
  });
});

describe("encode", () => {
  it("writes a canonical value as an older version, naming every value it dropped", () => {
    const result = idl.encode("task.result", canonicalTaskResult, "1.0");
    expect(result).toEqual({
      ok: true,
      contract: "task.result",
      version: "1.0",
      canonical: "2.0",
      path: ["2.0", "1.2", "1.1", "1.0"],
      dropped: [
        { version: "1.2", path: "/usage" },
        { version: "1.1", path: "/quality" },
      ],
      filled: [],
      value: { contract: "task.result", version: "1.0", task_id: "TASK-123", status: "SUCCESS", result: canonicalTaskResult.result },
    });
  });

  it("fails with INVALID_INPUT when the older version cannot hold the value", () => {
    const result = stripFixture.encode("demo.order", { contract: "demo.order", version: "1.1", order_id: "O-1", placed_at: "2030-01-01T00:00:00Z", items: [{ sku: "X".repeat(30), quantity: 1 }] }, "1.0");
    expect(result).toMatchObject({ ok: false, kind: "not-representable", version: "1.0", error: { class: "INVALID_INPUT", code: "NOT_REPRESENTABLE" } });
    expect(!result.ok && result.issues).toContainEqual(expect.objectContaining({ path: "/items/0/sku", code: "maxLength" }));
  });

  it("fails with UNSUPPORTED_VERSION for a version this build does not know", () => {
    const untyped = idl.encode as (contract: string, value: unknown, version: string) => ReturnType<typeof idl.encode>;
    expect(untyped("task.result", canonicalTaskResult, "0.9")).toMatchObject({ ok: false, kind: "unsupported-version", known: ["1.0", "1.1", "1.2", "2.0"], error: { class: "UNSUPPORTED_VERSION" } });
  });
});

describe("createRegistry", () => {
  it("turns a stub nobody wrote into UNSUPPORTED_VERSION instead of throwing", async () => {
    const { AdapterNotImplemented } = await import("../../src/runtime/index.js");
    const registration: ContractRegistration = {
      name: "demo.x",
      canonical: "2.0",
      envelope: "embedded",
      unknownFields: "reject",
      versions: {
        "1.0": {
          path: ["1.0", "2.0"],
          lossless: false,
          revalidate: true,
          check: (v: unknown): v is unknown => typeof v === "object",
          errors: () => [],
          toCanonical: () => {
            throw new AdapterNotImplemented("demo.x", "upgradeV2_0$y");
          },
          fromCanonical: (v: unknown) => v,
        },
        "2.0": { path: ["2.0"], lossless: true, revalidate: false, check: (v: unknown): v is unknown => true, errors: () => [], toCanonical: (v: unknown) => v, fromCanonical: (v: unknown) => v },
      },
    };
    const registry = createRegistry({ "demo.x": registration });
    expect(registry.decode("demo.x", { contract: "demo.x", version: "1.0" })).toMatchObject({
      ok: false,
      kind: "adapter-not-implemented",
      version: "1.0",
      error: { class: "UNSUPPORTED_VERSION", code: "ADAPTER_NOT_IMPLEMENTED" },
    });
  });

  it("stamps its errors with the source it is given, refusing one operation.error would not carry", () => {
    const registry = createRegistry(idl.registry.contracts, { source: "orchestrator.inbox" });
    expect(registry.decode("task.result", [])).toMatchObject({ ok: false, error: { source: "orchestrator.inbox" } });
    expect(() => createRegistry(idl.registry.contracts, { source: "Orchestrator Inbox" })).toThrow(TypeError);
  });
});

/** The part of a failure that does not depend on who stamped it: the runtime adds its attempt to the details. */
const vocabulary = ({ kind, stage, contract, version, issues, known, error }: Failure) => ({
  kind,
  stage,
  contract,
  version,
  issues,
  known,
  error: { code: error.code, class: error.class, retryable: error.retryable, message_safe: error.message_safe },
});

describe("one failure vocabulary", () => {
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
  const runtime = createRuntime(idl.registry);
  const untypedDecode = idl.decode as (contract: string, input: unknown) => Decoded<unknown> | Failure;
  const cases: [string, string, unknown][] = [
    ["not an object", "task.result", [1]],
    ["another contract", "task.result", command()],
    ["an unknown contract", "no.such", {}],
    ["an unknown version", "task.result", { ...taskResultV1_0, version: "3.0" }],
    ["a schema failure", "task.result", { ...taskResultV1_0, status: "DONE" }],
    ["a broken rule", "tool.publish_post.command", command({ unpublish_at: "2030-04-01T09:00:00Z" })],
    ["a schema failure beside a broken rule", "tool.publish_post.command", command({ mode: "LATER", unpublish_at: "2030-04-01T09:00:00Z" })],
  ];

  it.each(cases)("the registry and the runtime fail %s alike, each error a valid operation.error", (_what, contract, input) => {
    const fromRegistry = untypedDecode(contract, input);
    const fromRuntime = runtime.decode(contract as "task.result", input);
    if (fromRegistry.ok || fromRuntime.ok) throw new Error("expected both to fail");
    expect(vocabulary(fromRegistry)).toEqual(vocabulary(fromRuntime));
    expect(fromRegistry.error.code).toBe(FAILURES[fromRegistry.kind].code);
    expect([isOperationError(fromRegistry.error), isOperationError(fromRuntime.error)]).toEqual([true, true]);
  });

  it("names the earliest failing stage: a schema failure wins over a broken rule, whose issue stays in `issues`", () => {
    const codes = (input: unknown) => {
      const result = idl.decode("tool.publish_post.command", input as ReturnType<typeof command>);
      return result.ok ? "ok" : [result.error.code, result.stage, result.issues.map((i) => `${i.path} ${i.code}`)];
    };
    expect(codes(command({ unpublish_at: "2030-04-01T09:00:00Z" }))).toEqual(["RULE_VIOLATED", "semantic", ["/unpublish_at rule.before"]]);
    expect(codes(command({ mode: "LATER" }))).toEqual(["SCHEMA_INVALID", "schema", ["/mode enum"]]);
    expect(codes(command({ mode: "LATER", unpublish_at: "2030-04-01T09:00:00Z" }))).toEqual(["SCHEMA_INVALID", "schema", ["/mode enum", "/unpublish_at rule.before"]]);
  });
});

describe("enum values rewritten on the way", () => {
  // demo.profile 1.1 adds Channel PUSH; 1.0 reads it as its fallback OTHER, which does not come back.
  const canonical = {
    contract: "demo.profile",
    version: "3.0",
    id: "U3",
    name: "Edsger",
    address: { street: "3 Structured Lane" },
    email: ["edsger@example.com"],
    phones: "+31 3",
    tier: "STANDARD",
    nickname: "ewd",
    score: 99,
    contacts: [
      { channel: "EMAIL", handle: "ewd" },
      { channel: "PUSH", handle: "ewd" },
    ],
    theme: "plain",
  } satisfies DemoProfileV3_0;

  it("names a value that becomes the fallback in dropped, at its pointer, and none that comes back", () => {
    const written = adaptersFixture.encode("demo.profile", canonical, "1.0");
    expect(written.ok).toBe(true);
    if (!written.ok) return;
    expect((written.value as { contacts: unknown }).contacts).toEqual([
      { channel: "EMAIL", handle: "ewd" },
      { channel: "OTHER", handle: "ewd" },
    ]);
    expect(written.dropped).toContainEqual({ version: "1.1", path: "/contacts/1/channel" });
    expect(written.dropped.filter((d) => d.path.startsWith("/contacts"))).toEqual([{ version: "1.1", path: "/contacts/1/channel" }]);
    // Tier BASIC → STANDARD is a rename by map: it comes back, so nothing is named.
    const back = adaptersFixture.decode("demo.profile", written.value);
    expect(back.ok && back.dropped.some((d) => d.path.includes("tier"))).toBe(false);
  });
});
