// The validator of an untagged union (test/fixtures/good-untagged-union): it selects the one
// variant a value can be of and reports inside it; a value of no variant gets one `union` issue.
import { describe, expect, it } from "vitest";
import { check, errors } from "../fixtures/good-untagged-union/expected/demo.message/v1_0/validator.js";

const base = { contract: "demo.message", version: "1.0", id: 1, content: [] as unknown[] };

describe("untagged union validators", () => {
  it("report inside the variant the distinguishing constant selects", () => {
    expect(errors({ ...base, content: [{ type: "text", text: 5 }] })).toEqual([expect.objectContaining({ path: "/content/0/text", code: "type" })]);
    expect(errors({ ...base, content: [{ type: "image" }] })).toEqual([expect.objectContaining({ path: "/content/0/data", code: "required" })]);
  });

  it("report one union issue at the union when no variant is selected", () => {
    expect(errors({ ...base, content: [{ type: "audio", text: "x" }] })).toEqual([expect.objectContaining({ path: "/content/0", code: "union" })]);
    expect(errors({ ...base, id: 1.5 })).toEqual([expect.objectContaining({ path: "/id", code: "union" })]);
    expect(errors({ ...base, priority: "MEDIUM" })).toEqual([expect.objectContaining({ path: "/priority", code: "union" })]);
  });

  it("select by own keys only: an inherited key selects no variant", () => {
    const target = Object.assign(Object.create({ url: "https://example.com" }) as object, { path: "a/b" });
    expect(check({ ...base, target })).toBe(true);
    expect(check({ ...base, target: { path: "a/b", url: "https://example.com" } })).toBe(false);
  });
});
