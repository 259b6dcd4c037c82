// An optional field named like a member of TypeScript's `Object` (`toString`, `constructor`, ...):
// a value without it still has the inherited member, so its type says so. Typed as the field
// alone, no value lacking it was assignable, and `check` claimed a boolean where a function was.
import { afterAll, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const CONTRACT = `contract: demo.members
summary: Fields named like members every object inherits.
owner: demo-team
kind: event
types:
  Inner:
    fields:
      constructor: { type: string, maxLength: 4, optional: true }
      x: int
versions:
  "1.0":
    fields:
      toString: { type: bool, optional: true }
      valueOf: int
      inner: { type: Inner, optional: true }
`;

const USE = `import type { DemoMembersV1_0 } from "./generated/demo.members/v1_0/index.js";
import { check } from "./generated/demo.members/v1_0/validator.js";

// A value check accepts, without the optional fields: assignable.
export const value: DemoMembersV1_0 = { contract: "demo.members", version: "1.0", valueOf: 1, inner: { x: 1 } };
export const read = (input: unknown): string => {
  if (!check(input)) return "";
  const own = input.toString;
  // The guard says what reading gives: the field, or the inherited member where it is absent.
  return typeof own === "boolean" ? String(own) : typeof own === "function" ? own.call(input) : "";
};
`;

const project = createProject({ "idl/demo/demo.members.yaml": CONTRACT, "use.ts": USE });
afterAll(() => project.remove());

it("types an optional field named like an Object member as the field or the inherited member", async () => {
  expect((await project.treaty("generate")).status).toBe(0);
  const types = project.read("generated/demo.members/v1_0/types.ts");
  expect(types).toContain('toString?: boolean | Object["toString"];');
  expect(types).toContain('constructor?: string | Object["constructor"];');
  // A required one is always own: its type stays the field's.
  expect(types).toContain("valueOf: number;");
  expect(project.typecheck(["use.ts"])).toEqual([]);
});
