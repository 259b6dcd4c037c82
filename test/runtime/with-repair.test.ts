// The repair loop: a producer is asked again with the re-ask message until its output decodes or
// the tries are spent; each try is traced with its number; failures it cannot fix end the loop.
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { check as isOperationError } from "../../generated/operation.error/v1_0/validator.js";
import { reaskMessage } from "../../src/runtime/redact.js";
import { createRuntime, type RepairRequest, type TraceEvent, type VersionRegistration } from "treaty/runtime";

const CANARY = "sk-CANARY-loop";
const task = (overrides: Record<string, unknown> = {}) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: `secret ${CANARY}`, claims: [] },
  ...overrides,
});

/** The shape a task.result version registers for redaction (typed loosely: generated code may not emit one yet). */
const shapeOf = (version: "1.2") => (registry.contracts["task.result"].versions[version] as VersionRegistration<unknown, unknown>).shape;

/** A producer that answers from `outputs` in turn and keeps what it was asked. */
const scripted = (...outputs: unknown[]) => {
  const requests: RepairRequest[] = [];
  return { requests, produce: async (request: RepairRequest) => (requests.push(request), outputs[request.attempt - 1]) };
};

describe("withRepair", () => {
  it("re-asks with the failing paths and ends in the repaired result", async () => {
    const events: TraceEvent[] = [];
    const runtime = createRuntime(registry, { onTrace: (e) => events.push(e) });
    const producer = scripted(JSON.stringify(task({ status: "DONE" })), "```json\n" + JSON.stringify(task()) + "\n```");
    const outcome = await runtime.withRepair({ contract: "task.result", produce: producer.produce });
    expect(outcome).toMatchObject({ ok: true, repairs: ["code-fence"], value: { version: "2.0" } });
    const firstIssues = registry.contracts["task.result"].versions["1.2"].errors(task({ status: "DONE" }));
    expect(producer.requests).toEqual([{ attempt: 1 }, { attempt: 2, reask: reaskMessage("task.result", "1.2", firstIssues, shapeOf("1.2")) }]);
    expect(outcome.attempts.map((a) => [a.attempt, a.outcome, a.code])).toEqual([
      [1, "INVALID_INPUT", "SCHEMA_INVALID"],
      [2, "ok", undefined],
    ]);
    expect([...new Set(events.map((e) => e.attempt))]).toEqual([1, 2]);
  });

  it("stops after maxAttempts with a typed error carrying every attempt, without the outputs", async () => {
    const runtime = createRuntime(registry);
    const producer = scripted(`Sorry: ${CANARY}`, task({ status: CANARY }), task({ task_id: CANARY }));
    const outcome = await runtime.withRepair({ contract: "task.result", produce: producer.produce, maxAttempts: 3, traceId: "TRACE-loop" });
    if (outcome.ok) throw new Error("expected a typed error");
    expect(isOperationError(outcome.error)).toBe(true);
    expect(outcome.error).toMatchObject({ class: "INVALID_INPUT", trace_id: "TRACE-loop", details: { attempt: "3", paths: "/task_id" } });
    expect(outcome.attempts.map((a) => [a.stage, a.code])).toEqual([
      ["parse", "UNPARSEABLE"],
      ["schema", "SCHEMA_INVALID"],
      ["schema", "SCHEMA_INVALID"],
    ]);
    expect(producer.requests.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(JSON.stringify(outcome)).not.toContain(CANARY);
    for (const { reask } of producer.requests) expect(reask ?? "").not.toContain(CANARY);
  });

  it("asks once by default and never re-asks past a policy refusal", async () => {
    const runtime = createRuntime(registry, { policy: async () => ({ ok: false, reason: "policy" }) });
    const producer = scripted(task(), task());
    const outcome = await runtime.withRepair({ contract: "task.result", produce: producer.produce, maxAttempts: 5 });
    expect(outcome).toMatchObject({ ok: false, error: { class: "POLICY_DENIED" } });
    expect(producer.requests).toHaveLength(1);

    const twice = scripted("nope", "still nope", "never asked");
    await createRuntime(registry).withRepair({ contract: "task.result", produce: twice.produce });
    expect(twice.requests).toHaveLength(2);
  });

  it("ends at a trace id of no accepted form, which the producer cannot fix, without a throw", async () => {
    const producer = scripted(task({ status: "DONE" }), task());
    const outcome = await createRuntime(registry).withRepair({ contract: "task.result", produce: producer.produce, traceId: "T1" });
    expect(outcome).toMatchObject({ ok: false, kind: "trace-id", error: { code: "TRACE_ID_INVALID" } });
    expect(producer.requests).toHaveLength(1);
  });

  it("re-asks for a version the host reads when the producer names another", async () => {
    const runtime = createRuntime(registry);
    const producer = scripted(task({ version: "9.0" }), task());
    const outcome = await runtime.withRepair({ contract: "task.result", produce: producer.produce, accept: ["1.2"] });
    expect(outcome.ok).toBe(true);
    expect(producer.requests[1]!.reask).toContain("/version");
  });

  it("rejects a maxAttempts below one", async () => {
    await expect(createRuntime(registry).withRepair({ contract: "task.result", produce: () => "{}", maxAttempts: 0 })).rejects.toThrow(TypeError);
  });
});
