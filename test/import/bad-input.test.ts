// `treaty import` on sources and flags a tester found it mishandling: each is a diagnostic (or,
// where the source is fine, a correct import), never an internal error, and an error writes nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { cli, tempProject } from "../support/temp-project.js";

const project = (name: string, files: Record<string, string>) =>
  tempProject(name, {
    "package.json": `{ "treaty": {} }\n`,
    "idl/.keep": "",
    ...files,
  });

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Runs `treaty import` in `root`; asserts it neither crashed nor printed a stack trace. */
const runImport = async (root: string, args: string[]) => {
  const run = await cli(["import", ...args], root);
  expect(run.status).not.toBe(70);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
  return run;
};

/** The errors `treaty check` would report on the project's contracts. */
const checkErrors = (root: string): string[] =>
  compile({ root, idlDir: join(root, "idl") })
    .diagnostics.filter((d) => d.severity === "error")
    .map((d) => `${d.code}: ${d.message}`);

const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
});

describe("definitions that would be one contract", () => {
  it("names the definitions that clash, at the second, and writes nothing", async () => {
    const root = project("import-clash", {
      "defs.json": json({
        $defs: {
          FooBar: object({ a: { type: "string" } }),
          foo_bar: object({ b: { type: "string" } }),
          "foo-bar": object({ c: { type: "string" } }),
          Other: object({}),
        },
      }),
    });
    const run = await runImport(root, ["defs.json", "--out", "idl/x"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "defs.json:11:16 - error import-name-clash: definitions #/$defs/FooBar and #/$defs/foo_bar would both be contract 'x.foo_bar'",
    );
    expect(run.stderr).toContain(
      "defs.json:19:16 - error import-name-clash: definitions #/$defs/FooBar and #/$defs/foo-bar would both be contract 'x.foo_bar'",
    );
    expect(existsSync(join(root, "idl/x"))).toBe(false);
  });

  it("--defs naming one definition twice imports it once, under --contract's name", async () => {
    const root = project("import-defs-twice", {
      "defs.json": json({
        $defs: { Cat: object({ name: { type: "string" } }) },
      }),
    });
    const run = await runImport(root, [
      "defs.json",
      "--defs",
      "Cat,Cat",
      "--contract",
      "pets.cat",
      "--out",
      "idl/pets",
    ]);
    expect(run.status).toBe(0);
    expect(readdirSync(join(root, "idl/pets"))).toEqual(["pets.cat.yaml"]);
  });
});

describe("'%' in names and references", () => {
  it("a property or definition name with '%' imports as written; a $ref is a URI fragment, a malformed escape in it taken literally", async () => {
    const root = project("import-percent", {
      "pct.json": json({
        type: "object",
        required: ["100%", "encoded", "literal"],
        properties: {
          "100%": { type: "string" },
          "a%20b": { type: "integer" },
          encoded: { $ref: "#/$defs/50%25off" },
          literal: { $ref: "#/$defs/50%off" },
          spaced: { $ref: "#/$defs/with%20space" },
        },
        additionalProperties: false,
        $defs: {
          "50%off": object({ code: { type: "string" } }),
          "with space": { type: "string", maxLength: 3 },
        },
      }),
    });
    const run = await runImport(root, ["pct.json", "--out", "idl/pct"]);
    expect(run.stderr).toBe("treaty: imported 1 contract into idl/pct\n");
    const text = readFileSync(join(root, "idl/pct/pct.pct.yaml"), "utf8");
    expect(text).toContain(`"100%": { type: string }`);
    expect(text).toContain(`"a%20b": { type: int, optional: true }`);
    expect(text).toContain("encoded: T50Off");
    expect(text).toContain("literal: T50Off");
    expect(text).toContain(
      "spaced: { type: string, maxLength: 3, optional: true }",
    );
    expect(checkErrors(root)).toEqual([]);
  });

  it("a diagnostic at a pointer with '%' is located where the pointer is written", async () => {
    const root = project("import-percent-at", {
      "pct.json": `{\n  "type": "object",\n  "properties": {\n    "a%20b": { "type": "string", "not": {} },\n    "c%": { "type": "string", "not": {} }\n  }\n}\n`,
    });
    const run = await runImport(root, ["pct.json", "--out", "idl/pct"]);
    expect(run.stderr).toContain(
      "pct.json:4:41 - warning import-not-expressible: not at #/properties/a%20b/not",
    );
    expect(run.stderr).toContain(
      "pct.json:5:38 - warning import-not-expressible: not at #/properties/c%/not",
    );
  });
});

describe("YAML aliases", () => {
  it("more than a hundred aliases import (yaml's own limit is for a library's untrusted input)", async () => {
    const fields = Array.from(
      { length: 150 },
      (_, i) => `    f${i}: *text`,
    ).join("\n");
    const root = project("import-aliases", {
      "many.yaml": `$defs:\n  Text: &text { type: string, maxLength: 10 }\ntype: object\nproperties:\n${fields}\n`,
    });
    const run = await runImport(root, ["many.yaml", "--out", "idl/many"]);
    expect(run.status).toBe(0);
    expect(
      readFileSync(join(root, "idl/many/many.many.yaml"), "utf8"),
    ).toContain("f149: { type: string, maxLength: 10, optional: true }");
  });

  it("aliases that expand past the bound (billion laughs), or into themselves, are limit-exceeded, and nothing is written", async () => {
    const levels = Array.from(
      { length: 12 },
      (_, i) =>
        `  l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(", ")}]`,
    ).join("\n");
    const root = project("import-laughs", {
      "laughs.yaml": `type: object\nexamples:\n  l0: &l0 [lol]\n${levels}\nproperties:\n  a: { type: string }\n`,
      "loop.yaml": `type: object\nproperties: &p\n  a: { type: object, properties: *p }\n`,
    });
    for (const file of ["laughs.yaml", "loop.yaml"]) {
      const run = await runImport(root, [file, "--out", "idl/lol"]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^${file}:\\d+:\\d+ - error limit-exceeded: the count of nodes the source's aliases expand to is (more than 1000000|without end \\(\\*p is within &p\\)); treaty allows at most 1000000$`,
          "m",
        ),
      );
      expect(existsSync(join(root, "idl/lol"))).toBe(false);
    }
  });
});

describe("--contract", () => {
  it("is a contract name, as check reads one: anything else is a usage error, and nothing is written", async () => {
    const root = project("import-contract-name", {
      "s.json": json(object({ a: { type: "string" } })),
    });
    for (const name of [
      "../../../escaped",
      "Shop.Order",
      "shop..order",
      "",
      `a${"b".repeat(128)}`,
    ]) {
      const run = await runImport(root, [
        "s.json",
        `--contract=${name}`,
        "--out",
        "idl/s",
      ]);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        // (An empty one is a flag without a value.)
        /^treaty: error (invalid-name|limit-exceeded): [^\n]*\nRun 'treaty import --help' for usage\.\n$|^treaty: error flag-needs-value: --contract needs a value/,
      );
      expect(existsSync(join(root, "idl/s"))).toBe(false);
      expect(existsSync(join(root, "escaped.yaml"))).toBe(false);
    }
    expect(
      (
        await runImport(root, [
          "s.json",
          "--contract",
          "shop.s",
          "--out",
          "idl/s",
        ])
      ).status,
    ).toBe(0);
  });
});

describe("an object that merges in one that holds it", () => {
  it("is written as json where it comes back (import-recursive), where the import overflowed the stack", async () => {
    const root = project("import-self-allof", { "self.json": json({ type: "object", properties: { x: { allOf: [{ $ref: "#" }] } } }) });
    const run = await runImport(root, ["self.json", "--out", "idl/self"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^self\.json:\d+:\d+ - warning import-recursive: #\/properties\/x /m);
    expect(checkErrors(root)).toEqual([]);
  });

  it("through a branch that keywords beside it are merged into (a new pointer each time round): json past 64 levels", async () => {
    const root = project("import-self-oneof", { "s.json": json({ type: "object", properties: { x: { oneOf: [{ $ref: "#" }], properties: { y: { type: "string" } } } } }) });
    const run = await runImport(root, ["s.json", "--out", "idl/s"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: a schema nested more than 64 levels deep/);
    expect(checkErrors(root)).toEqual([]);
  });
});

describe("what was silently wrong", () => {
  it("a mapping or list as a key of a YAML schema is an error at it, and nothing is written (was a property named '[ a ]')", async () => {
    const root = project("import-complex-key", { "s.yaml": "type: object\nproperties:\n  ? [a]\n  : { type: string }\n" });
    const run = await runImport(root, ["s.yaml", "--out", "idl/s"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("s.yaml:3:5 - error invalid-value: a key of the schema must be a string");
    expect(existsSync(join(root, "idl/s"))).toBe(false);
  });

  it("a union variant tagged __proto__ is a variant", async () => {
    const variant = (tag: string) => ({
      type: "object",
      required: ["kind"],
      properties: { kind: { const: tag }, n: { type: "integer" } },
    });
    const root = project("import-proto-tag", {
      "u.json": json({
        type: "object",
        required: ["u"],
        properties: { u: { oneOf: [variant("__proto__"), variant("plain")] } },
      }),
    });
    expect((await runImport(root, ["u.json", "--out", "idl/u"])).status).toBe(
      0,
    );
    const text = readFileSync(join(root, "idl/u/u.u.yaml"), "utf8");
    expect(text).toMatch(/variants:\n\s+__proto__:\n/);
    expect(text).toMatch(/\n\s+plain:\n/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a root that may be null says it cannot be", async () => {
    const root = project("import-null-root", {
      "n.json": json({
        type: ["object", "null"],
        properties: { a: { type: "string" } },
      }),
    });
    const run = await runImport(root, ["n.json", "--out", "idl/n"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      "warning import-not-expressible: a payload that may be null at #/type cannot be written in treaty's IDL",
    );
  });

  it("patternProperties beside additionalProperties: false keep the unknown keys, as the warning says", async () => {
    const root = project("import-pattern-props", {
      "p.json": json({
        type: "object",
        properties: { a: { type: "string" } },
        patternProperties: { "^x-": { type: "string" } },
        additionalProperties: false,
      }),
    });
    const run = await runImport(root, ["p.json", "--out", "idl/p"]);
    expect(run.stderr).toContain(
      "patternProperties at #/patternProperties cannot be written in treaty's IDL: the constraint is left out: the imported contract accepts more",
    );
    expect(readFileSync(join(root, "idl/p/p.p.yaml"), "utf8")).toContain(
      "unknown_fields: keep",
    );
  });
});

describe("what check would refuse", () => {
  it("bounds, lengths and patterns the IDL does not take are left out with a warning, and the contract passes check", async () => {
    const root = project("import-check-limits", {
      "l.json": json(
        object({
          big: { type: "integer", minimum: -1e20, maximum: 1e20 },
          long: { type: "string", maxLength: 1e12, pattern: "^(a+)+$" },
          broken: { type: "string", pattern: "(" },
          many: { type: "array", maxItems: 2 ** 40 },
        }),
      ),
    });
    const run = await runImport(root, ["l.json", "--out", "idl/l"]);
    expect(run.status).toBe(0);
    for (const pointer of [
      "big/minimum",
      "big/maximum",
      "long/maxLength",
      "long/pattern",
      "broken/pattern",
      "many/maxItems",
    ])
      expect(run.stderr).toContain(
        `at #/properties/${pointer} cannot be written`,
      );
    expect(checkErrors(root)).toEqual([]);
  });

  it("a schema nested past the IDL's depth is json below it, with a warning, and the contract passes check", async () => {
    let nested: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) nested = { type: "array", items: nested };
    const root = project("import-check-deep", {
      "d.json": json(object({ deep: nested })),
    });
    const run = await runImport(root, ["d.json", "--out", "idl/d"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: a schema nested more than 64 levels deep/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("bounds no value meets are left out with a warning, where the import stopped on check's min-above-max", async () => {
    const root = project("import-empty-bounds", {
      "b.json": json(object({ n: { type: "integer", minimum: 5, maximum: 1 }, half: { type: "integer", minimum: 0.5, maximum: 0.7 }, s: { type: "string", minLength: 10, maxLength: 2 }, l: { type: "array", minItems: 3, maxItems: 1 } })),
    });
    const run = await runImport(root, ["b.json", "--out", "idl/b"]);
    expect(run.status).toBe(0);
    expect(run.stderr.match(/warning import-not-expressible: bounds no value meets/g)).toHaveLength(4);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a contract past an LLM provider's limits leaves that provider out, with a warning, and passes check", async () => {
    // Eleven levels of objects: OpenAI takes ten.
    let nested: Record<string, unknown> = { type: "object", properties: { leaf: { type: "string" } } };
    for (let i = 0; i < 11; i++) nested = { type: "object", properties: { inner: nested } };
    const root = project("import-provider-limits", { "n.json": json(nested) });
    const run = await runImport(root, ["n.json", "--out", "idl/n"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^n\.json:1:1 - warning import-provider-left-out: # becomes a contract past openai's limits \(openai allows at most 10 levels of object nesting; this has \d+ at \/inner(\/inner)*\): its llm providers leave openai out$/m);
    expect(readFileSync(join(root, "idl/n/n.n.yaml"), "utf8")).toMatch(/\nllm:\n {2}providers:\n {4}- anthropic\n {4}- gemini\n {4}- mcp\n/);
    expect(checkErrors(root)).toEqual([]);
  });
});

// Schema fuzz seed 36: `String` of an object whose own `toString` is no function throws, and a
// `type` was read that way where allOf parts, a root's type list and union variants are compared.
describe("a `type` that is an object with a `toString` key", () => {
  const hostile = { toString: 1 };
  it.each([
    ["in an allOf part", object({ a: { allOf: [{ type: hostile }, { type: "string" }] } })],
    ["in an allOf part's type list", object({ a: { allOf: [{ type: [hostile, "string"] }, { minLength: 1 }] } })],
    ["in the root's type list", { type: ["object", hostile], properties: { a: { type: "string" } } }],
    ["in a union variant", object({ a: { anyOf: [{ type: hostile, nullable: true }, { type: "string" }] } })],
    ["in a oneOf variant beside a pattern", object({ a: { oneOf: [{ type: [hostile], pattern: "^a" }, { type: "string", pattern: "^b" }] } })],
  ])("%s is reported as not expressible (was an internal error)", async (_, schema) => {
    const root = project("import-type-to-string", { "t.json": json(schema) });
    const run = await runImport(root, ["t.json", "--out", "idl/t"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^t\.json:\d+:\d+ - warning import-not-expressible: /m);
    expect(checkErrors(root)).toEqual([]);
  });
});

// Found by the schema fuzzer (test/fuzz/schema-fuzz.ts): each import wrote a contract check refused.
describe("contracts the import made that check refused", () => {
  it("a union one of whose variants became json (a recursion written as json) is json, where it overlapped", async () => {
    const root = project("import-union-json", { "u.json": json({ properties: { $ref: {}, "a.b": { $ref: "#/properties" } } }) });
    const run = await runImport(root, ["u.json", "--out", "idl/u"]);
    expect(run.stderr).not.toContain("union-overlap");
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-recursive: #\/properties refers back/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a default its own schema does not accept (JSON Schema allows it) leaves the contract's defaults out, with a warning", async () => {
    const root = project("import-default-misfit", {
      "d.json": json(object({ a: { const: "then", default: 1e21 }, b: { type: "integer", default: 3 }, c: object({ d: { type: "string", maxLength: 2, default: "long" } }) })),
    });
    const run = await runImport(root, ["d.json", "--out", "idl/d"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("d.json:1:1 - warning import-not-expressible: a default its schema does not accept (default of 'a' does not match its type");
    expect(run.stderr).toContain("the contract's defaults are left out");
    expect(readdirSync(join(root, "idl/d")).map((f) => readFileSync(join(root, "idl/d", f), "utf8")).join("")).not.toMatch(/default:/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a schema of several types nests a level per variant, as the IDL counts it: json past the IDL's depth", async () => {
    let nested: unknown = { type: "string" };
    for (let i = 0; i < 70; i++) nested = { type: "object", properties: { n: nested } };
    const root = project("import-union-deep", { "n.json": json(object({ deep: { minLength: 1, properties: { n: nested } } })) });
    const run = await runImport(root, ["n.json", "--out", "idl/n"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: a schema nested more than 64 levels deep/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a union the source proves disjoint by a property the import leaves out is judged as written: left out, with a warning", async () => {
    // FilePart's `kind` accepts nothing (a const string of type boolean): left out, FilePart no longer differs from DataPart.
    const root = project("import-union-as-written", {
      "p.json": json({
        type: "object",
        properties: { part: { anyOf: [{ $ref: "#/$defs/FilePart" }, { $ref: "#/$defs/DataPart" }] }, n: { type: "integer" } },
        $defs: {
          FilePart: { type: "object", properties: { kind: { const: "file", type: "boolean" } }, required: ["kind"] },
          DataPart: { type: "object", properties: { kind: { const: "data" } } },
        },
      }),
    });
    const run = await runImport(root, ["p.json", "--out", "idl/p"]);
    expect(run.stderr).not.toContain("union-overlap");
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: an anyOf whose variants 0 and 1 may both match one value as the IDL writes them \(both accept objects.*\) at #\/properties\/part\/anyOf/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("schemas that share definitions over and over import in time linear in the source (were exponential: each a vitest timeout before)", async () => {
    let nested: unknown = { minLength: 3 };
    for (let i = 0; i < 11; i++) nested = { allOf: [nested] };
    const defs: Record<string, unknown> = { D30: { type: "string" } };
    for (let i = 0; i < 30; i++) defs[`D${i}`] = { anyOf: [{ $ref: `#/$defs/D${i + 1}` }, { $ref: `#/$defs/D${i + 1}` }] };
    const root = project("import-shared-definitions", {
      "n.json": json({ type: "object", properties: { deep: { anyOf: [nested, { type: ["number", "integer"] }] }, chain: { anyOf: [{ $ref: "#/$defs/D0" }, { type: "object" }] } }, $defs: defs }),
    });
    const run = await runImport(root, ["n.json", "--out", "idl/n"]);
    expect(run.status).toBe(0);
    expect(checkErrors(root)).toEqual([]);
  });

  it("definitions that are no objects, each used twice by the last, are written inline up to a budget, then as json, with a warning", async () => {
    const defs: Record<string, unknown> = { D12: { type: "string", maxLength: 4 } };
    for (let i = 0; i < 12; i++) defs[`D${i}`] = { type: "array", prefixItems: [{ $ref: `#/$defs/D${i + 1}` }, { $ref: `#/$defs/D${i + 1}` }], items: false, minItems: 2 };
    const root = project("import-written-budget", { "t.json": json({ type: "object", properties: { t: { $ref: "#/$defs/D0" } }, $defs: defs }) });
    const run = await runImport(root, ["t.json", "--out", "idl/t"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: a contract whose types, written out, number more than 2000 .*: this and what follows past it is written as json/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("a schema that requires a property of its own type (no finite value satisfies it) has the fields on the cycle written optional", async () => {
    const root = project("import-self-required", {
      "s.json": json({
        type: "object",
        properties: { a: { $ref: "#" }, b: { type: "string" }, p: { $ref: "#/$defs/P" } },
        required: ["a"],
        $defs: { P: { type: "object", properties: { q: { $ref: "#/$defs/Q" }, n: { type: "integer" } }, required: ["q", "n"] }, Q: { type: "object", properties: { p: { $ref: "#/$defs/P" } }, required: ["p"] } },
      }),
    });
    const run = await runImport(root, ["s.json", "--out", "idl/s"]);
    expect(run.stderr).not.toContain("recursive-type");
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/warning import-not-expressible: a type that contains itself through required fields only \(SA → SA\), which no finite value satisfies at # cannot be written in treaty's IDL: SA's field a is written optional/);
    expect(run.stderr).toMatch(/\(P → Q → P\).*P's field q is written optional/);
    expect(run.stderr).toMatch(/\(Q → P → Q\).*Q's field p is written optional/);
    // Only the fields on a cycle: `n` stays required.
    const text = readdirSync(join(root, "idl/s")).map((f) => readFileSync(join(root, "idl/s", f), "utf8")).join("");
    expect(text).toMatch(/ n: { type: int }\n/);
    expect(checkErrors(root)).toEqual([]);
  });

  it("an enum met among the fields of a type being converted takes a name of its own (took the type's: invalid-name)", async () => {
    // Schema fuzz seed 23: the root refers to itself, and a key of no ASCII letter gives its enum the root's name as a hint.
    const root = project("import-enum-name", { "s.json": json({ type: "object", properties: { "1x52": { $ref: "#" }, "\u05d0": { enum: ["info"] } } }) });
    const run = await runImport(root, ["s.json", "--out", "idl/s"]);
    expect(run.stderr).not.toContain("invalid-name");
    expect(run.status).toBe(0);
    const text = readdirSync(join(root, "idl/s")).map((f) => readFileSync(join(root, "idl/s", f), "utf8")).join("");
    expect(text).toMatch(/enums:\n  S1x522:\n/);
    expect(text).toMatch(/types:\n  S1x52:\n/);
    expect(checkErrors(root)).toEqual([]);
  });
});
