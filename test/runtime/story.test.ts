// Issue 6's done-when story, as a new user would script it against the generated registry: fenced
// JSON, a wrong enum, an unknown version and a policy refusal, with a canary secret in every input
// that must never reach a trace event or an error.
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { check as isOperationError } from "../../generated/operation.error/v1_0/validator.js";
import { createRuntime, type Outcome, type TraceEvent } from "treaty/runtime";

const CANARY = "sk-CANARY-7f3a9c";

const payload = (overrides: Record<string, unknown> = {}) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: {
    artifact_ref: "artifact://report/1",
    summary: `Quarterly revenue grew; api key ${CANARY}`,
    claims: [{ claim_id: "c1", text: `Renewals rose, token ${CANARY}`, evidence_refs: ["src://doc/1"] }],
  },
  ...overrides,
});

const failed = <T>(outcome: Outcome<T>) => {
  if (outcome.ok) throw new Error("expected a typed error");
  expect(isOperationError(outcome.error)).toBe(true);
  return outcome;
};

describe("a new user's script against the runtime", () => {
  const events: TraceEvent[] = [];
  const runtime = createRuntime(registry, {
    onTrace: (event) => events.push(event),
    policy: async ({ payload }) => ((payload as { status?: string }).status === "FAILED" ? { ok: false, reason: "policy" } : { ok: true }),
  });
  const outcomes: Outcome<unknown>[] = [];
  const decode = async (input: unknown, traceId?: string) => {
    const outcome = await runtime.decode("task.result", input, traceId === undefined ? {} : { traceId });
    outcomes.push(outcome);
    return outcome;
  };

  it("reads fenced JSON as the repaired value and names the repair", async () => {
    const text = "Here is the result:\n```json\n" + JSON.stringify(payload(), null, 2) + "\n```\nLet me know!";
    const outcome = await decode(text, "TRACE-story-1");
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.repairs).toEqual(["code-fence", "surrounding-prose"]);
    expect(outcome.value).toMatchObject({ version: "2.0", id: "TASK-123", status: "SUCCESS" });
    expect(outcome.version).toBe("1.2");
    expect(outcome.path).toEqual(["1.2", "2.0"]);
  });

  it("refuses a wrong enum as INVALID_INPUT naming the path", async () => {
    const { error, issues, stage } = failed(await decode(payload({ status: CANARY }), "TRACE-story-2"));
    expect(error).toMatchObject({ class: "INVALID_INPUT", code: "SCHEMA_INVALID", retryable: false, trace_id: "TRACE-story-2" });
    expect(stage).toBe("schema");
    expect(issues).toEqual([expect.objectContaining({ path: "/status", code: "enum" })]);
    expect(error.details?.["paths"]).toBe("/status");
  });

  it("refuses an unknown version as UNSUPPORTED_VERSION listing the known ones", async () => {
    const { error, known } = failed(await decode(payload({ version: CANARY })));
    expect(error).toMatchObject({ class: "UNSUPPORTED_VERSION", code: "UNSUPPORTED_VERSION", retryable: false });
    expect(known).toEqual(["1.0", "1.1", "1.2", "2.0"]);
    expect(error.details?.["known"]).toBe("1.0, 1.1, 1.2, 2.0");
  });

  it("refuses what policy forbids as POLICY_DENIED", async () => {
    const { error, stage } = failed(await decode(payload({ status: "FAILED" })));
    expect(error).toMatchObject({ class: "POLICY_DENIED", code: "POLICY_DENIED", retryable: false });
    expect(stage).toBe("policy");
  });

  it("never lets the canary into a trace event or an error", () => {
    expect(outcomes).toHaveLength(4);
    expect(events.length).toBeGreaterThan(outcomes.length);
    for (const event of events) expect(JSON.stringify(event)).not.toContain(CANARY);
    for (const outcome of outcomes.filter((o) => !o.ok)) expect(JSON.stringify(outcome)).not.toContain(CANARY);
  });
});
