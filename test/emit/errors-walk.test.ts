// errors() walks a failing payload once (issue 13 item 6): each err_ function examines its part
// itself, and its caller puts where the part is in front of the paths it reported (`nest`), so a
// pointer is put together only for an issue. It used to ask each part's is_ first and descend only
// into a failing one, which walked the failing branch again at every level above its fault.
// Counted by getters on the generated task.result 1.2 validator.
import { describe, expect, it } from "vitest";
import { check, errors } from "../../generated/task.result/v1_2/validator.js";

/** `fields` as an object whose every property counts its reads into `reads.n`. */
const counting = (fields: Record<string, unknown>, reads: { n: number }): Record<string, unknown> => {
  const value: Record<string, unknown> = {};
  for (const [key, held] of Object.entries(fields)) {
    Object.defineProperty(value, key, {
      enumerable: true,
      get: () => {
        reads.n++;
        return held;
      },
    });
  }
  return value;
};

/** A task.result 1.2 payload of `n` claims, each claim's properties counting their reads; the claim at `bad` has an id off its pattern. */
const payload = (n: number, bad: number, reads: { n: number }) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-1",
  status: "SUCCESS",
  result: {
    artifact_ref: "artifact://report/1",
    summary: "Done.",
    claims: Array.from({ length: n }, (_, i) => counting({ claim_id: i === bad ? "claim-x" : `c${i}`, text: "A claim.", evidence_refs: ["src://doc/1"] }, reads)),
  },
});

describe("errors() on a failing payload", () => {
  it("reads each property of the payload once, whatever the depth of the fault", () => {
    const reads = { n: 0 };
    const value = payload(50, 49, reads);
    expect(errors(value).map(({ path, code }) => ({ path, code }))).toEqual([{ path: "/result/claims/49/claim_id", code: "pattern" }]);
    expect(reads.n).toBe(50 * 3);
  });

  it("reports every fault at its pointer, and nothing for the valid parts between them", () => {
    const reads = { n: 0 };
    const value = payload(30, -1, reads);
    const claims = value.result.claims;
    claims[3] = { claim_id: "c3", text: "", evidence_refs: [] };
    claims[17] = { claim_id: "c17", text: "A claim.", evidence_refs: ["src://doc/1", "http://no"], extra: 1 };
    (value.result as Record<string, unknown>)["summary"] = 7;
    expect(check(value)).toBe(false);
    expect(errors(value).map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "/result/summary", code: "type" },
      { path: "/result/claims/3/text", code: "minLength" },
      { path: "/result/claims/3/evidence_refs", code: "minItems" },
      { path: "/result/claims/17/evidence_refs/1", code: "pattern" },
      { path: "/result/claims/17/extra", code: "unknown" },
    ]);
    // The 28 claims left as they were, each property read once.
    expect(reads.n).toBe(28 * 3);
  });

  it("finds nothing in a valid payload, and reads it once", () => {
    const reads = { n: 0 };
    const value = payload(40, -1, reads);
    expect(errors(value)).toEqual([]);
    expect(reads.n).toBe(40 * 3);
  });
});
