// Each of the seed's anti-patterns is found at its place, and `lint:` turns a rule off with a reason.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import { compile } from "../../src/pipeline.js";

const scratch = mkdtempSync(join(tmpdir(), "treaty-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let n = 0;
const diagnose = (yaml: string): string[] => {
  const root = join(scratch, String(n++));
  mkdirSync(join(root, "idl"), { recursive: true });
  writeFileSync(join(root, "idl", "demo.lint.yaml"), yaml);
  return compile({ root, idlDir: join(root, "idl") }).diagnostics.map(formatDiagnostic);
};

const HEAD = `contract: demo.lint
owner: team
enums:
  Mode:
    values: { FAST: Quick., SAFE: Careful. }
versions:
  "1.0":
    fields:
`;

describe("lint rules", () => {
  it("unbounded-json: a json with neither bound in a command, also as a list's item; not in an event, nor once bounded", () => {
    const fields = "      id: { type: string, maxLength: 20 }\n      args: json\n      many: { type: list, of: json, maxItems: 3 }\n      ok: { type: json, maxBytes: 100 }\n";
    expect(diagnose(HEAD.replace("owner: team", "owner: team\nkind: command") + fields)).toEqual([
      expect.stringContaining("idl/demo.lint.yaml:11:7 - warning unbounded-json: json 'args'"),
      expect.stringContaining("idl/demo.lint.yaml:12:7 - warning unbounded-json: json 'many'"),
    ]);
    expect(diagnose(HEAD.replace("owner: team", "owner: team\nkind: event") + fields)).toEqual([]);
  });

  it("a clean contract has no findings", () => {
    expect(diagnose(`${HEAD}      id: { type: string, maxLength: 20 }\n      mode: Mode\n`)).toEqual([]);
  });

  it.each([
    ["everything-optional", "      a: { type: int, optional: true }\n      b: { type: bool, optional: true }\n", "idl/demo.lint.yaml:7:3 - warning everything-optional"],
    ["default-on-control-field", "      id: { type: int }\n      mode: { type: Mode, optional: true, default: FAST }\n", "idl/demo.lint.yaml:10:7 - warning default-on-control-field"],
    ["open-string-enum", "      status: { type: string, maxLength: 20 }\n", "idl/demo.lint.yaml:9:7 - warning open-string-enum"],
    ["unbounded-string", "      note: string\n", "idl/demo.lint.yaml:9:7 - warning unbounded-string"],
    ["unbounded-string (list items)", "      notes: { type: list, of: string, maxItems: 5 }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-string"],
    ["unbounded-string (map values)", "      labels: { type: map, of: { type: list, of: string, maxItems: 3 } }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-string"],
    ["unbounded-string (tuple item)", "      pair: { type: tuple, items: [int, string] }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-string"],
    ["blob-not-ref", "      pdf_content: string\n", "idl/demo.lint.yaml:9:7 - warning blob-not-ref"],
    ["unbounded-list", "      ids: { type: list, of: int }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-list"],
    ["unbounded-list (inner list)", "      grid: { type: list, of: { type: list, of: int }, maxItems: 9 }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-list"],
    ["unbounded-list (map values)", "      tags: { type: map, of: { type: list, of: bool } }\n", "idl/demo.lint.yaml:9:7 - warning unbounded-list"],
    ["sensitive-value-in-schema (pattern)", '      key: { type: string, pattern: "^sk-live0123456789abcdef$" }\n', "idl/demo.lint.yaml:9:7 - warning sensitive-value-in-schema"],
    ["sensitive-value-in-schema (default)", "      contact: { type: string, maxLength: 99, optional: true, default: ceo@acme-corp.com }\n", "idl/demo.lint.yaml:9:7 - warning sensitive-value-in-schema"],
  ])("%s", (_, fields, expected) => {
    const found = diagnose(`${HEAD}${fields}`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`));
  });

  it("inexact-multiple-of: a decimal step binary floating point does not hold, naming a written multiple Ajv's test fails", () => {
    expect(diagnose(`${HEAD}      price: { type: number, min: 0, max: 1000, multipleOf: 0.01 }\n      rate: { type: list, of: { type: number, multipleOf: 0.1 }, maxItems: 3 }\n`)).toEqual([
      "idl/demo.lint.yaml:9:7 - warning inexact-multiple-of: multipleOf 0.01 of 'price' is not exact in binary floating point: as in Ajv, a value passes only when value / 0.01 is an integer there, so 0.07 fails; use an int of the smallest unit (cents for prices), or a step that is a power of two",
      "idl/demo.lint.yaml:10:7 - warning inexact-multiple-of: multipleOf 0.1 of 'rate' is not exact in binary floating point: as in Ajv, a value passes only when value / 0.1 is an integer there, so 0.3 fails; use an int of the smallest unit (cents for prices), or a step that is a power of two",
    ]);
    // Integers and powers of two are held exactly: every written multiple passes.
    expect(diagnose(`${HEAD}      a: { type: number, multipleOf: 0.25 }\n      b: { type: int, multipleOf: 5 }\n      c: { type: number, multipleOf: 2.5 }\n`)).toEqual([]);
  });

  it("no-owner points at the contract", () => {
    expect(diagnose(HEAD.replace("owner: team\n", "") + "      id: { type: int }\n")).toEqual([
      "idl/demo.lint.yaml:1:1 - warning no-owner: contract 'demo.lint' has no owner: nobody defines its semantics, versions and deprecation",
    ]);
  });

  it("finds secrets and personal data in examples, but not documentation addresses", () => {
    const yaml = `${HEAD}      email: { type: string, format: email, sensitivity: pii }
examples:
  - version: "1.0"
    valid: { contract: demo.lint, version: "1.0", email: ann@example.com }
  - version: "1.0"
    valid: { contract: demo.lint, version: "1.0", email: ann.real@gmail.com }
`;
    expect(diagnose(yaml)).toEqual([
      "idl/demo.lint.yaml:14:58 - warning sensitive-value-in-schema: an example of 1.0 holds what looks like an e-mail address; schemas and examples are sent to LLM providers",
    ]);
  });

  it("points at the value it finds in an example, in block style too", () => {
    const yaml = `${HEAD}      email: { type: string, format: email, sensitivity: pii }
examples:
  - version: "1.0"
    valid:
      contract: demo.lint
      version: "1.0"
      email: ann.real@gmail.com
`;
    expect(diagnose(yaml).map((d) => d.split(" - ")[0])).toEqual(["idl/demo.lint.yaml:15:14"]);
  });

  it("takes a run of digits for a card number only when it passes the Luhn check (an ISBN-13 does not)", () => {
    const yaml = (value: string): string => `${HEAD}      ref: { type: string, maxLength: 40 }
examples:
  - version: "1.0"
    valid: { contract: demo.lint, version: "1.0", ref: "${value}" }
`;
    expect(diagnose(yaml("ISBN 9780306406157"))).toEqual([]);
    expect(diagnose(yaml("card 4111 1111 1111 1111"))).toEqual([
      "idl/demo.lint.yaml:12:56 - warning sensitive-value-in-schema: an example of 1.0 holds what looks like a card number; schemas and examples are sent to LLM providers",
    ]);
  });

  it("lint: turns a rule off per field and per contract, each with a reason", () => {
    const perField = `${HEAD}      note: { type: string, lint: { unbounded-string: "free text from a human reviewer, bounded upstream" } }\n`;
    expect(diagnose(perField)).toEqual([]);
    const perContract = HEAD.replace("owner: team\n", 'lint: { no-owner: "a throwaway prototype" }\n') + "      id: { type: int }\n";
    expect(diagnose(perContract)).toEqual([]);
  });

  it("rejects an unknown rule and a missing reason", () => {
    expect(diagnose(`${HEAD}      note: { type: string, lint: { unbounded-strings: because } }\n`)).toEqual([
      "idl/demo.lint.yaml:9:37 - error unknown-lint-rule: 'unbounded-strings' is not a lint rule (did you mean 'unbounded-string'?)",
    ]);
    expect(diagnose(`${HEAD}      note: { type: string, lint: { unbounded-string: "" } }\n`)).toEqual([
      "idl/demo.lint.yaml:9:37 - error lint-ignore-without-reason: turning off 'unbounded-string' needs a reason",
    ]);
  });
});
