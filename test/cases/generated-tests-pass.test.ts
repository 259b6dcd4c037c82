// The generated tests pass on valid contracts, and cover what they should: a throwaway project of
// contracts, all but one without examples (so every version's base value is synthesized), is generated, and
// its generated tests are run — a decimal `multipleOf` at its bounds, a `before` rule on dates, a
// `requires` rule whose field sits in an optional object, and every variant of a union.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGeneratedTests, type VitestReport } from "../support/run-generated-tests.js";
import { nearestFitting } from "../../src/cases/synthesize.js";
import { runCli } from "../../src/cli/run-cli.js";
import { isMultipleOf } from "../../src/runtime/multiple-of.js";
import type { CasesFile } from "../../src/testing/index.js";

const ROOT = join(import.meta.dirname, "../..");

const CONTRACTS: Readonly<Record<string, readonly string[]>> = {
  "demo.amount": [
    "      amount: { type: number, min: 0.7, max: 2.3, multipleOf: 0.1 }",
    "      low: { type: number, exclusiveMin: 0.3, exclusiveMax: 0.9, multipleOf: 0.1 }",
  ],
  "demo.dates": [
    "      start: { type: string, format: date }",
    "      end: { type: string, format: date }",
    "      at: timestamp",
    "    rules:",
    "      - before: [start, end]",
    "      - before: [start, at]",
  ],
  "demo.opts": [
    "      trigger: bool",
    "      opts:",
    "        optional: true",
    "        type: { type: object, fields: { level: { type: int, min: 1, max: 5, optional: true }, name: { type: string, maxLength: 10 } } }",
    "    rules:",
    "      - requires: { if: trigger, then: [opts.level] }",
  ],
  // As demo.opts, but the optional object cannot be synthesized: the version has no base value.
  "demo.stuck": [
    "      trigger: bool",
    "      opts:",
    "        optional: true",
    '        type: { type: object, fields: { level: { type: int, optional: true }, code: { type: string, maxLength: 3, pattern: "^[A-Z]{5}$" } } }',
    "    rules:",
    "      - requires: { if: trigger, then: [opts.level] }",
  ],
  // Bounds too long to build an edge of (left out, saying so) beside one built when the test runs.
  "demo.huge": [
    "      text: { type: string, maxLength: 1000000000 }",
    "      tags: { type: list, of: { type: string, maxLength: 3 }, maxItems: 4000000000 }",
    "      long: { type: string, pattern: \"^L[a-z]+$\", maxLength: 300000 }",
    "      many: { type: list, of: { type: int, min: 1 }, maxItems: 999999 }",
  ],
  // The protocols' formats, a null constant, names that are not identifiers (two every object
  // inherits), and map keys with a pattern.
  "demo.protocol": [
    '      "$schema": { type: string, format: uri }',
    "      template: { type: string, format: uri-template }",
    "      payload: { type: string, format: byte }",
    "      big_id: { type: string, format: int64 }",
    "      host: { type: string, format: hostname }",
    "      v4: { type: string, format: ipv4 }",
    "      v6: { type: string, format: ipv6 }",
    "      timeout: { type: string, format: duration }",
    "      at_time: { type: string, format: time }",
    "      nothing: { type: const, value: null }",
    '      "__proto__": { type: string, maxLength: 5, optional: true }',
    '      "constructor": { type: int, min: 1, optional: true }',
    '      "io.example/with space": { type: bool, optional: true }',
    '      headers: { type: map, of: { type: string, maxLength: 3 }, keys: { pattern: "^[a-z]+$", sensitivity: none } }',
  ],
  // Required fields named as what every object inherits, at the top, in an object, a named type
  // and a rule, a map key and a recursive type's way round named `__proto__`: each is a key of
  // the value treaty builds, not its prototype.
  "demo.proto": [
    "      trigger: bool",
    '      "__proto__": { type: string, maxLength: 10 }',
    '      "constructor": { type: int, min: 1 }',
    '      inner: { type: object, fields: { "__proto__": { type: int, max: 3 } } }',
    "      named: Proto",
    "      tree: Node",
    '      keyed: { type: map, of: { type: int, max: 3 }, keys: { pattern: "^__proto__$", sensitivity: none } }',
    '      opts: { optional: true, type: { type: object, fields: { "__proto__": { type: bool, optional: true } } } }',
    "    rules:",
    "      - requires: { if: trigger, then: [opts.__proto__] }",
    "types:",
    "  Proto:",
    '    fields: { "__proto__": { type: string, maxLength: 2 } }',
    "  Node:",
    "    maxDepth: 2",
    '    fields: { "__proto__": { type: Node, optional: true } }',
    "llm: { providers: [mcp] } # the one provider that takes a recursive type",
  ],
  // Numbers a case must not land on: constants at and past 2^53, where one more rounds back
  // (9007199254740993 reads as ...992), one in an untagged union, the constant 42 (the wrong type's
  // usual value), and a bound at the largest double, with nothing past it.
  "demo.big": [
    "      answer: { type: const, value: 42 }",
    "      c: { type: const, value: 1e21 }",
    "      d: { type: const, value: 9007199254740993 }",
    "      e: { type: union, variants: [{ type: const, value: 1e300 }, { type: string, maxLength: 3 }] }",
    "      top: { type: number, min: -1.7976931348623157e308, max: 1.7976931348623157e308 }",
  ],
  "demo.fig": [
    "      fig:",
    "        type: union",
    "        tag: kind",
    "        variants:",
    "          sq: { fields: { side: { type: number, min: 0 } } }",
    "          circle: { fields: { radius: { type: int, min: 1, max: 9 }, label: { type: string, maxLength: 5 } } }",
  ],
  // A pattern or format whose breaking value would be past maxLength (the validator then reports
  // maxLength alone), and an item edge that would repeat another item of a unique list (whose
  // distinct items treaty does not synthesize: this one has an example).
  "demo.tight": [
    '      code: { type: string, pattern: "^[A-Z]{3}$", maxLength: 3 }',
    "      day: { type: string, format: date, maxLength: 10 }",
    "      pair: { type: list, of: { type: int, min: 0, max: 1 }, minItems: 2, maxItems: 2, unique: true }",
    "examples:",
    '  - version: "1.0"',
    '    valid: { contract: demo.tight, version: "1.0", code: ABC, day: "2030-01-01", pair: [0, 1] }',
  ],
  // Unique lists that need two or more items: the synthesized base holds distinct ones.
  "demo.distinct": [
    "      names: { type: list, of: { type: string, maxLength: 4 }, minItems: 3, maxItems: 5, unique: true }",
    "      codes: { type: list, of: { type: string, pattern: \"^[A-Z]{2,4}$\" }, minItems: 2, maxItems: 5, unique: true }",
    "      ids: { type: list, of: { type: int, min: 5, max: 6 }, minItems: 2, maxItems: 2, unique: true }",
    "      prices: { type: list, of: { type: number, min: 0, multipleOf: 0.5 }, minItems: 3, maxItems: 4, unique: true }",
    "      levels: { type: list, of: Level, minItems: 2, maxItems: 3, unique: true }",
    "      when: { type: list, of: timestamp, minItems: 2, maxItems: 3, unique: true }",
    "      links: { type: list, of: ref<doc>, minItems: 2, maxItems: 3, unique: true }",
    "      pairs: { type: list, of: { type: object, fields: { on: bool, n: { type: int, min: 0 } } }, minItems: 3, maxItems: 3, unique: true }",
    "enums:",
    "  Level: { values: { LOW: Low., HIGH: High. } }",
  ],
  // A named type in two fields: one validator checks both, so its content is mutated once.
  "demo.twice": [
    "      home: Address",
    "      work: Address",
    "types:",
    "  Address:",
    "    fields:",
    "      street: { type: string, maxLength: 20 }",
    '      zip: { type: string, pattern: "^[0-9]{5}$" }',
  ],
  // Untagged unions: by JSON type, by constants, by a constant field; mutations inside a variant
  // that leave it expect the union's own issue.
  "demo.oneof": [
    "      id: { type: union, variants: [{ type: string, maxLength: 4 }, { type: int, min: 0 }] }",
    "      level: { type: union, variants: [{ type: const, value: low }, { type: const, value: 3 }, { type: list, of: bool, maxItems: 2 }] }",
    "      block:",
    "        type: union",
    "        variants:",
    "          - { type: object, fields: { type: { type: const, value: text }, text: { type: string, maxLength: 5 } } }",
    "          - { type: object, fields: { type: { type: const, value: image }, size: { type: int, max: 9 } } }",
  ],
};

const idl = (name: string, fields: readonly string[]): string =>
  [`contract: ${name}`, "owner: tests", "versions:", '  "1.0":', "    fields:", ...fields, ""].join("\n");

let dir: string;
let stderr = "";
let report: VitestReport;

/** Each generated test of `contract` by title, with its status. */
const results = (contract: string): Map<string, string> => {
  const file = report.testResults.find((r) => r.name.endsWith(`/${contract}.test.ts`));
  expect(file, `no results for ${contract}`).toBeDefined();
  return new Map(file!.assertionResults.map((a) => [a.title, a.status]));
};

beforeAll(async () => {
  mkdirSync(join(ROOT, ".scratch"), { recursive: true });
  dir = mkdtempSync(join(ROOT, ".scratch", "generated-tests-pass-"));
  mkdirSync(join(dir, "idl"));
  for (const [name, fields] of Object.entries(CONTRACTS)) writeFileSync(join(dir, "idl", `${name}.yaml`), idl(name, fields));
  const status = await runCli(["generate"], { cwd: dir, stdout: () => {}, stderr: (t) => (stderr += t) });
  expect(status, stderr).toBe(0);
  report = runGeneratedTests(dir, "generated/**/*.test.ts");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the generated tests of contracts without examples", () => {
  it.each(Object.keys(CONTRACTS))("pass for %s", (contract) => {
    const failed = [...results(contract)].filter(([, status]) => status === "failed");
    expect(failed).toEqual([]);
  });

  it("accept the valid multiple nearest each bound when the bound itself is none (0.7 / 0.1 is not an integer)", () => {
    const titles = [...results("demo.amount").keys()];
    for (const edge of ["min 0.7", "max 2.3", "exclusiveMin 0.3", "exclusiveMax 0.9"]) {
      expect(titles.filter((t) => t.startsWith("1.0 accepts ") && t.endsWith(`, the multiple of 0.1 nearest ${edge}`))).toHaveLength(1);
    }
    expect(titles).toContain("1.0 rejects amount not a multiple of 0.1");
  });

  it("write dates into date fields, in the synthesized value and in the broken rule", () => {
    const tests = results("demo.dates");
    expect(tests.get("1.0 accepts a synthesized minimal value")).toBe("passed");
    expect(tests.get("1.0 rejects end earlier than start (rule before)")).toBe("passed");
    expect(tests.get("1.0 rejects at earlier than start (rule before)")).toBe("passed");
    const cases = JSON.parse(readFileSync(join(dir, "generated/demo.dates/demo.dates.cases.json"), "utf8")) as CasesFile;
    expect(cases.cases.find((c) => c.title === "rejects end earlier than start (rule before)")).toMatchObject({
      edits: [
        { set: "/start", value: "2030-01-02" },
        { set: "/end", value: "2030-01-01" },
      ],
    });
  });

  it("fill the optional object a requires rule's field sits in", () => {
    const tests = results("demo.opts");
    expect(tests.get("1.0 accepts a synthesized minimal value")).toBe("passed");
    expect(tests.get("1.0 rejects trigger without opts.level (rule requires)")).toBe("passed");
  });

  it("say why when that object cannot be synthesized", () => {
    expect(stderr).toMatch(/warning no-valid-value: version 1\.0 has no valid example and treaty cannot synthesize one \(cannot fill opts: code: treaty cannot synthesize a string matching/);
    expect(results("demo.stuck").get("1.0 mutations need a valid example")).toBe("skipped");
  });

  it("leave out the edges of a bound too long to build, and build the others when they run", () => {
    const tests = results("demo.huge");
    for (const title of ["accepts text at maxLength 1000000000", "rejects text above maxLength 1000000000", "accepts tags at maxItems 4000000000", "rejects tags above maxItems 4000000000"]) {
      expect(tests.get(`1.0 ${title}`), title).toBe("skipped");
    }
    for (const title of ["accepts long at maxLength 300000", "rejects long above maxLength 300000", "accepts many at maxItems 999999", "rejects many above maxItems 999999"]) {
      expect(tests.get(`1.0 ${title}`), title).toBe("passed");
    }
  });

  it("break each protocol format just outside it, a null constant, quoted names and a map key's pattern", () => {
    const tests = results("demo.protocol");
    for (const title of [
      "rejects big_id just outside int64 (9223372036854775808)",
      "rejects payload just outside byte (dHJlYXR5d)",
      "rejects at_time just outside time (12:00:60Z)",
      "rejects __proto__ above maxLength 5",
      "rejects constructor below min 1",
      "rejects io.example/with space of the wrong type",
      "rejects headers.~ as a key not matching ^[a-z]+$",
      "rejects headers.a above maxLength 3",
    ]) {
      expect(tests.get(`1.0 ${title}`), title).toBe("passed");
    }
  });

  it("synthesize and mutate required fields and map keys named __proto__ or constructor as keys", () => {
    const tests = results("demo.proto");
    for (const title of [
      "accepts a synthesized minimal value",
      "rejects a missing __proto__",
      "rejects a missing constructor",
      "rejects a missing inner.__proto__",
      "rejects inner.__proto__ above max 3",
      "rejects a missing named.__proto__",
      "rejects keyed.__proto__ above max 3",
      "rejects trigger without opts.__proto__ (rule requires)",
      "rejects tree nested past its depth bound (Node maxDepth 2)",
    ]) {
      expect(tests.get(`1.0 ${title}`), title).toBe("passed");
    }
    const cases = JSON.parse(readFileSync(join(dir, "generated/demo.proto/demo.proto.cases.json"), "utf8")) as CasesFile;
    const base = (cases.bases["1.0"] as { value: Record<string, Record<string, unknown>> }).value;
    expect(Object.keys(base)).toEqual(expect.arrayContaining(["__proto__", "constructor", "inner", "named"]));
    expect(Object.hasOwn(base["inner"]!, "__proto__") && Object.hasOwn(base["named"]!, "__proto__")).toBe(true);
  });

  it("move a numeric constant to a value that differs (in type, too), and leave out a bound with no number past it", () => {
    const tests = results("demo.big");
    for (const title of ["rejects answer of the wrong type", "rejects c other than 1e+21", "rejects d other than 9007199254740992", "rejects e other than 1e+300", "accepts top at max 1.7976931348623157e+308"]) {
      expect(tests.get(`1.0 ${title}`), title).toBe("passed");
    }
    expect([...tests.keys()].filter((t) => t.includes("top above") || t.includes("top below"))).toEqual([]);
  });

  it("break a pattern or format only within maxLength, and leave out an item edge a unique list repeats", () => {
    const tests = results("demo.tight");
    expect(tests.get("1.0 rejects code not matching ^[A-Z]{3}$")).toBe("passed");
    expect(tests.has("1.0 rejects code with text before a match of ^[A-Z]{3}$")).toBe(false);
    expect(tests.has("1.0 rejects code with text after a match of ^[A-Z]{3}$")).toBe(false);
    expect(tests.get("1.0 rejects day that is not a valid date")).toBe("passed");
    const cases = JSON.parse(readFileSync(join(dir, "generated/demo.tight/demo.tight.cases.json"), "utf8")) as CasesFile;
    expect(cases.cases.find((c) => c.title === "rejects day that is not a valid date")).toMatchObject({ edits: [{ set: "/day", value: " " }] });
    expect(tests.get("1.0 accepts pair[0] at min 0")).toBe("passed");
    expect(tests.has("1.0 accepts pair[0] at max 1")).toBe(false);
    expect(tests.get("1.0 rejects pair[0] above max 1")).toBe("passed");
  });

  it("synthesize distinct items for a unique list that needs several", () => {
    const cases = JSON.parse(readFileSync(join(dir, "generated/demo.distinct/demo.distinct.cases.json"), "utf8")) as CasesFile;
    expect(cases.bases["1.0"]).toMatchObject({
      value: {
        names: ["x", "a", "b"],
        ids: [5, 6],
        prices: [0, 0.5, 1],
        levels: ["LOW", "HIGH"],
        pairs: [
          { on: false, n: 0 },
          { on: false, n: 1 },
          { on: false, n: 2 },
        ],
      },
    });
    expect(results("demo.distinct").get("1.0 accepts a synthesized minimal value")).toBe("passed");
  });

  it("mutate a named type's content where it first occurs, and only check the type of its other places", () => {
    const titles = [...results("demo.twice").keys()];
    expect(titles).toContain("1.0 rejects home.street above maxLength 20");
    expect(titles).toContain("1.0 rejects home.zip not matching ^[0-9]{5}$");
    expect(titles.filter((t) => t.includes("work.street") || t.includes("work.zip"))).toEqual([]);
    expect(titles).toContain("1.0 rejects work of the wrong type");
  });

  it("mutate every variant of a union, not only the first", () => {
    const titles = [...results("demo.fig").keys()];
    for (const field of ["side", "radius", "label"]) {
      expect(titles).toContain(`1.0 rejects a missing fig.${field}`);
      expect(titles).toContain(`1.0 rejects fig.${field} of the wrong type`);
    }
    expect(titles).toContain("1.0 accepts fig.radius at max 9");
    expect(titles).toContain("1.0 rejects fig.radius above max 9");
    expect(titles).toContain("1.0 rejects fig.label above maxLength 5");
  });
});

describe("the generated tests of untagged unions", () => {
  it("accept a value of each variant, mutate inside each, and reject a value of no variant", () => {
    const tests = results("demo.oneof");
    for (const title of [
      "1.0 accepts id as variant 2 (int)",
      "1.0 rejects id above maxLength 4",
      "1.0 rejects id below min 0",
      "1.0 rejects id of the wrong type",
      "1.0 accepts level as variant 3 (list)",
      "1.0 accepts block as variant 2 (object)",
      "1.0 rejects block.text above maxLength 5",
      "1.0 rejects block.size above max 9",
      "1.0 rejects block.type other than \"text\"",
    ]) {
      expect(tests.get(title), title).toBe("passed");
    }
    const cases = JSON.parse(readFileSync(join(dir, "generated/demo.oneof/demo.oneof.cases.json"), "utf8")) as CasesFile;
    expect(cases.cases.find((c) => c.title === "rejects block.type other than \"text\"")?.expect).toEqual({ path: "/block", code: "union" });
  });
});

describe("nearestFitting", () => {
  // Floating point leaves some grid points without a double the runtime takes for a multiple (0.7
  // for 0.1), so the nearest one may lie a few steps in.
  it("finds, inside a decimal bound, a multiple the runtime accepts, a few steps from the bound at most", () => {
    const steps = fc.constantFrom(0.1, 0.01, 0.05, 0.3, 0.7, 2.5);
    fc.assert(
      fc.property(steps, fc.integer({ min: -10_000, max: 10_000 }), fc.constantFrom<1 | -1>(1, -1), (step, hundredths, direction) => {
        const bound = hundredths / 100;
        const type = { kind: "number" as const, multipleOf: step, ...(direction > 0 ? { min: bound } : { max: bound }) };
        const n = nearestFitting(type, bound, direction);
        expect(n).toBeDefined();
        expect(isMultipleOf(n!, step)).toBe(true);
        expect((n! - bound) * direction).toBeGreaterThanOrEqual(0);
        expect((n! - bound) * direction).toBeLessThanOrEqual(step * 16);
      }),
    );
  });
});
