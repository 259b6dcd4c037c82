// Paths and checks that step through untagged unions and tuples: agent paths reach a field of a
// union's object variants and the items of a tuple whose items agree; the check stage checks the
// defaults and `deprecated.use` of fields inside a union's inline object variants.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePath } from "../../src/agent/paths.js";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const CONTRACT = `contract: demo.pick
summary: A pick.
owner: demo-team
kind: event
types:
  Place:
    description: A place.
    fields:
      city: { type: string, maxLength: 50 }
versions:
  "1.0":
    fields:
      target:
        type: union
        variants:
          - { type: string, maxLength: 10 }
          - { type: object, fields: { score: { type: number, min: 0, max: 1 }, note: { type: string, optional: true } } }
      where:
        type: union
        variants: [Place, { type: list, of: Place, maxItems: 3 }]
      pair:
        type: tuple
        items: [{ type: number, min: 0, max: 1 }, { type: number, min: 0, max: 1 }]
      mixed:
        type: tuple
        items: [string, int]
`;

const compiled = (text: string) => {
  const root = tempProject("through-unions", { "idl/demo/demo.pick.yaml": text });
  return compile({ root, idlDir: join(root, "idl") });
};

describe("agent paths", () => {
  const project = compiled(CONTRACT).value!;
  const root = { contract: project.contracts[0]!, version: project.contracts[0]!.versions[0]! };
  const resolve = (path: string) => {
    const r = resolvePath(project, root, path);
    return r.ok ? r.type.type.kind : r.code;
  };

  it("step into an untagged union's object variants", () => {
    expect(resolve("target.score")).toBe("number");
    expect(resolve("target.nope")).toBe("unknown-field");
    expect(resolve("where.city")).toBe("string");
  });

  it("step into the items of a union's list variant and of a tuple whose items agree", () => {
    expect(resolve("where[].city")).toBe("string");
    expect(resolve("pair[]")).toBe("number");
    expect(resolve("mixed[]")).toBe("not-a-list");
    expect(resolve("target[]")).toBe("not-a-list");
  });
});

describe("the check stage inside a union's inline object variants", () => {
  it("checks defaults and deprecated.use there", () => {
    const bad = CONTRACT.replace(
      "note: { type: string, optional: true } }",
      "note: { type: string, optional: true, default: 3, deprecated: { since: \"1.0\", use: gone } } }",
    );
    const codes = compiled(bad).diagnostics.map((d) => d.code);
    expect(codes).toContain("default-type-mismatch");
    expect(codes).toContain("unknown-field");
  });
});
