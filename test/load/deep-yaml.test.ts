// YAML nested deeper than yaml's parser has stack for (thousands of levels, in flow or in block
// style) is a limit, said as one: it was a `yaml-syntax` error whose detail was JavaScript's
// "Maximum call stack size exceeded".
import { expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const head = 'contract: d.deep\nowner: tests\nversions:\n  "1.0":\n    fields:\n      a: { type: string, maxLength: 3 }\nexamples:\n  - version: "1.0"\n    valid: ';

it.each([
  ["flow", `${"[".repeat(20_000)}${"]".repeat(20_000)}\n`],
  ["block", `\n${Array.from({ length: 5_000 }, (_, i) => `${" ".repeat(6 + i)}k${i}:`).join("\n")} x\n`],
])("%s style: limit-exceeded where the parser stopped, one line, no stack", (_, deep) => {
  const root = tempProject("deep-yaml", { "idl/d.deep.yaml": head + deep });
  const errors = compile({ root, idlDir: `${root}/idl` }).diagnostics.filter((d) => d.severity === "error");
  expect(errors.map((d) => d.code)).toContain("limit-exceeded");
  expect(errors.map((d) => d.message).join("\n")).not.toMatch(/call stack/);
  const limit = errors.find((d) => d.code === "limit-exceeded")!;
  expect(limit.loc?.file).toMatch(/d\.deep\.yaml$/);
  expect(limit.loc?.line).toBeGreaterThanOrEqual(9);
  expect(limit.message).toBe("the nesting of this YAML is deeper than its parser can read; treaty allows at most a few thousand levels (a contract's types nest 64 at most)");
});
