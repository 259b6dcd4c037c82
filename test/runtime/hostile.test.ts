// Issue 14: a decode's cost and what it keeps are bounded by what the contract allows, however far
// past its bounds the payload goes: the failure's issues (items past maxItems, unknown keys past
// the number declared, `truncated` saying what was left) and the persisted record.
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { createRuntime, MAX_ISSUES, type DecodeRecord } from "treaty/runtime";
import { agentTask as task } from "../support/agent-task.js";

const decodeRecorded = (value: unknown) => {
  const records: DecodeRecord[] = [];
  const runtime = createRuntime(registry, { persist: { write: (r) => records.push(r), internal: true } });
  return { outcome: runtime.decode("agent.task", value), record: records[0]! };
};

describe("decode of hostile payloads", () => {
  it("10,000 distinct objects in a maxItems 20 unique list: 20 examined, 20 kept, the rest said", () => {
    const { outcome, record } = decodeRecorded({ ...task(), constraints: Array.from({ length: 10_000 }, (_, i) => ({ i })) });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("SCHEMA_INVALID");
    expect(outcome.issues.filter((i) => i.path.startsWith("/constraints/"))).toHaveLength(20);
    expect(outcome.issues).toContainEqual(expect.objectContaining({ path: "/constraints", code: "truncated", message: "not examined: 9980 more items" }));
    expect((record.payload as { constraints: unknown[] }).constraints).toHaveLength(20);
  });

  it("100,000 unknown root keys: as many issues as the object declares fields, then a count", () => {
    const value = task();
    for (let i = 0; i < 100_000; i++) value[`k${i}`] = i;
    const { outcome, record } = decodeRecorded(value);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues.length).toBeLessThanOrEqual(MAX_ISSUES + 1);
    expect(outcome.issues.at(-1)).toMatchObject({ code: "truncated" });
    expect(Object.keys(record.payload as object)).toEqual(Object.keys(task()));
  });
});
