// A custom change beside a change treaty cannot derive a conversion for (a retype that does not
// widen): no stub is written for that field, the draft holds it as the source has it, and the
// custom stub's doc comment says so. It said only what the custom change says, and `return draft`
// type-checked while every decode failed NOT_REPRESENTABLE.
import { afterAll, expect, it } from "vitest";
import { createProject } from "./project.js";

const CONTRACT = `contract: demo.custom
summary: A custom change beside a retype that does not widen.
owner: demo-team
kind: event
versions:
  "1.0":
    fields:
      x: { type: string, maxLength: 4 }
      y: { type: string, maxLength: 4 }
      inner: { type: object, fields: { z: { type: string, maxLength: 4 } } }
  "2.0":
    changes:
      - custom: Upper-case y.
      - retype: x
        type: int
        min: 0
        max: 9
      - retype: inner.z
        type: bool
`;

const project = createProject({ "idl/demo/demo.custom.yaml": CONTRACT });
afterAll(() => project.remove());

it("names the fields the draft holds unconverted in the custom stub's doc comment", async () => {
  expect((await project.treaty("generate")).status).toBe(0);
  const stubs = project.read("idl/demo/demo.custom.adapters.ts");
  expect(stubs).toContain(" * It holds `inner`, `x` as the source version has them, unconverted: convert them in both directions.");
  // One stub for both directions, no per-field stubs beside it.
  expect(stubs.match(/^export const /gm)).toHaveLength(1);
});
