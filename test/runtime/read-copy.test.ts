// The generated `read` copies an object as one literal: of every field when each optional one is
// present, else of the leading required fields with the others added as present. Either way the
// copy holds exactly the fields the value holds, in the order the contract declares them.
import { describe, expect, it } from "vitest";
import { read } from "../../generated/task.result/v1_2/validator.js";

const base = {
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-7",
  status: "PARTIAL",
  result: { artifact_ref: "artifact://r/1", summary: "S.", claims: [{ claim_id: "c1", text: "T.", evidence_refs: ["src://a"] }] },
};
const optional = { quality: { verification: "PASS", unresolved_items: ["x"] }, usage: { model_calls: 1, tool_calls: 0 } };

describe("read's copy of an object with optional fields", () => {
  it.each([
    ["both present", ["quality", "usage"]],
    ["quality only", ["quality"]],
    ["usage only", ["usage"]],
    ["neither", []],
  ] as const)("%s: the fields the value holds, in declared order, whatever order it holds them in", (_, present) => {
    const fields: Record<string, unknown> = { ...base };
    for (const name of present) fields[name] = optional[name];
    const reversed = Object.fromEntries(Object.entries(fields).reverse());
    const copy = read(reversed) as unknown as Record<string, unknown>;
    expect(copy).toEqual(fields);
    expect(Object.keys(copy)).toEqual(["contract", "version", "task_id", "status", "result", ...present]);
    for (const name of present) expect(copy[name]).not.toBe(fields[name]);
  });
});
