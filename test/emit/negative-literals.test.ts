// A constant that is a negative number, inside a list, a union or a map: json-schema-to-typescript
// wrote `-0.5[]`, which the formatter's parser refused, and `generate` exited 70 on a contract
// `check` passes (found by the schema fuzzer, through `treaty import` of `items: { const: -0.5 }`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempProject } from "../support/temp-project.js";

describe("negative number constants in types.ts", () => {
  it("generate writes them as types, in lists, unions and maps", async () => {
    const root = tempProject("negative-literals", {
      "package.json": `{ "name": "neg", "private": true }\n`,
      "idl/x.neg.yaml": `contract: x.neg
owner: me
versions:
  "1.0":
    fields:
      a: { type: list, of: { type: const, value: -0.5 }, maxItems: 3 }
      b: { type: union, variants: [ { type: string, maxLength: 3 }, { type: list, of: { type: const, value: -1 }, maxItems: 3 } ] }
      c: { type: map, of: { type: const, value: -3 } }
      d: { type: const, value: -2, optional: true }
`,
    });
    const run = await cli(["generate", "--quiet"], root);
    expect(run.stderr).not.toContain("internal error");
    expect(run.status).toBe(0);
    const types = readFileSync(join(root, "generated/x.neg/v1_0/types.ts"), "utf8");
    expect(types).toMatch(/ a: -0\.5\[\];/);
    expect(types).toMatch(/ b: string \| -1\[\];/);
    expect(types).toMatch(/\[k: string\]: -3 \| undefined;/);
    expect(types).toMatch(/ d\?: -2;/);
  });
});
