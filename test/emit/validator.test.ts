// The emitted validator, loaded and run: codes and paths on hand-picked values, `errors` empty
// exactly when `check` passes, no throw on hostile input, and agreement with Ajv on JSON Schemas
// written here by hand for the same IR.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitValidator } from "../../src/emit/validator.js";
import {
  LLM_PROVIDERS,
  type Contract,
  type EnumDef,
  type Field,
  type NamedType,
  type Project,
  type ResolvedVersion,
  type Rule,
  type TypeNode,
} from "../../src/ir/model.js";
import type { Issue } from "../../src/runtime/index.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = join(import.meta.dirname, "../..");
const TMP = join(ROOT, "test/.tmp-validator");
const RUNTIME = join(ROOT, "src/runtime/index.js");

// ---- IR builders -------------------------------------------------------------------------------

const loc = { file: "idl/test.yaml", line: 1, col: 1 };
const field = (name: string, type: TypeNode, more: Partial<Field> = {}): Field => ({
  name,
  type,
  optional: false,
  loc,
  ...more,
});
const optional = (name: string, type: TypeNode, more: Partial<Field> = {}): Field =>
  field(name, type, { optional: true, ...more });
const enumDef = (name: string, values: readonly string[]): EnumDef => ({
  name,
  values: values.map((value) => ({ name: value, meaning: `means ${value}`, loc })),
  loc,
});
const namedType = (name: string, fields: readonly Field[]): NamedType => ({ name, fields, loc });
const version = (
  v: string,
  fields: readonly Field[],
  more: { enums?: readonly EnumDef[]; types?: readonly NamedType[]; rules?: readonly Rule[] } = {},
): ResolvedVersion => {
  const [major = 0, minor = 0] = v.split(".").map(Number);
  return {
    version: v,
    major,
    minor,
    status: "published",
    fields,
    enums: new Map((more.enums ?? []).map((e) => [e.name, e])),
    types: new Map((more.types ?? []).map((t) => [t.name, t])),
    rules: more.rules ?? [],
    examples: [],
    changes: [],
    loc,
  };
};
const contract = (name: string, versions: readonly ResolvedVersion[], more: Partial<Contract> = {}): Contract => ({
  name,
  file: `idl/${name}.yaml`,
  unknownFields: "reject",
  compatibility: "backward",
  envelope: "embedded",
  canonical: versions[versions.length - 1]!.version,
  llm: { providers: LLM_PROVIDERS },
  versions,
  loc,
  ...more,
});

const str = (more: Partial<Extract<TypeNode, { kind: "string" }>> = {}): TypeNode => ({ kind: "string", ...more });

// ---- fixtures ----------------------------------------------------------------------------------

/** `other@1` in two versions (and a 2.0 the reference must not accept); extra keys are stripped. */
const other = contract(
  "agent.note",
  [
    version("1.0", [field("text", str({ minLength: 1 }))]),
    version("1.1", [field("text", str({ minLength: 1 })), optional("lang", str({ pattern: "^[a-z]{2}$" }))]),
    version("2.0", [field("body", str())]),
  ],
  { unknownFields: "strip" },
);

/** Every type kind and constraint, without rules: Ajv sees the same thing. */
const shapes = contract("shapes", [
  version(
    "1.0",
    [
      field("id", str({ pattern: "^TASK-[0-9]+$", minLength: 6, maxLength: 12 })),
      field("name", str({ minLength: 2, maxLength: 4 })),
      field("status", { kind: "enum", name: "TaskStatus" }),
      optional("score", { kind: "number", min: 0, max: 1 }),
      optional("count", { kind: "int", exclusiveMin: 0, exclusiveMax: 100, multipleOf: 5 }),
      optional("ratio", { kind: "number", multipleOf: 0.1 }),
      field("done", { kind: "bool" }),
      field("at", { kind: "timestamp" }),
      optional("day", str({ format: "date" })),
      optional("uid", str({ format: "uuid" })),
      optional("mail", str({ format: "email" })),
      optional("link", str({ format: "uri" })),
      optional("artifact", { kind: "ref", scheme: "s3+x.y-z" }),
      optional("tags", { kind: "list", of: str(), minItems: 1, maxItems: 3, unique: true }),
      optional("grid", { kind: "list", of: { kind: "list", of: { kind: "number" } }, unique: true }),
      optional("labels", { kind: "map", of: { kind: "int", min: 0 } }),
      field("meta", {
        kind: "object",
        fields: [field("source", str()), optional("note", str(), { nullable: "redacted" })],
      }),
      field("outcome", {
        kind: "union",
        tag: "kind",
        variants: [
          { value: "ok", type: { kind: "object", fields: [field("value", { kind: "int" })] }, loc },
          { value: "error", type: { kind: "named", name: "ErrorInfo" }, loc },
        ],
      }),
      field("claims", { kind: "list", of: { kind: "named", name: "Claim" } }),
      field("level", { kind: "enum", name: "Level" }),
      field("flag", { kind: "const", value: true }, { nullable: "unknown" }),
      optional("parent", { kind: "contract", contract: "agent.note", major: 1 }, { nullable: "no parent" }),
    ],
    {
      enums: [
        enumDef("TaskStatus", ["SUCCESS", "PARTIAL", "FAILED"]),
        enumDef("Level", ["L0", "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9"]),
      ],
      types: [
        namedType("Claim", [field("text", str()), field("confidence", { kind: "number", min: 0, max: 1 })]),
        namedType("ErrorInfo", [field("message", str())]),
      ],
    },
  ),
]);

/** Semantic rules, over nested paths. */
const ruled = contract("ruled", [
  version(
    "1.0",
    [
      field("started_at", { kind: "timestamp" }),
      optional("finished_at", { kind: "timestamp" }),
      optional("a", str()),
      optional("b", str()),
      optional("c", str()),
      optional("window", {
        kind: "object",
        fields: [optional("from", { kind: "timestamp" }), optional("to", { kind: "timestamp" })],
      }),
    ],
    {
      rules: [
        { kind: "before", first: "started_at", second: "finished_at", loc },
        { kind: "before", first: "window.from", second: "window.to", loc },
        { kind: "exclusive", fields: ["a", "b", "c"], loc },
        { kind: "requires", if: "window.from", then: ["window.to", "finished_at"], loc },
      ],
    },
  ),
]);

/** No envelope, unknown keys allowed, fields named like Object.prototype members. */
const loose = contract(
  "loose",
  [
    version("1.0", [
      field("constructor", str()),
      optional("toString", { kind: "int" }),
      optional("__proto__", { kind: "bool" }),
      optional("inner", { kind: "object", fields: [field("x", { kind: "int" })] }),
      optional("kinds", {
        kind: "union",
        tag: "valueOf",
        variants: [{ value: "a/b~c", type: { kind: "object", fields: [] }, loc }],
      }),
    ]),
  ],
  { unknownFields: "strip", envelope: "none" },
);

/** Bounds a hostile payload goes far past: a short unique list, an unbounded one, a map, a short string. */
const bounded = contract("bounded", [
  version("1.0", [
    optional("items", { kind: "list", of: { kind: "object", fields: [field("n", { kind: "int" })] }, maxItems: 20, unique: true }),
    optional("free", { kind: "list", of: { kind: "object", fields: [field("n", { kind: "int" })] }, unique: true }),
    optional("counts", { kind: "map", of: { kind: "int" } }),
    optional("code", str({ maxLength: 8, pattern: "^[0-9]+$" })),
  ]),
]);

/** Wider than a switch should serve: its unknown keys are looked up in a Set, at the root and in an inline object. */
const WIDE = 40;
const wideFields = Array.from({ length: WIDE }, (_, i) => field(`f${i}`, { kind: "int" }));
const wide = contract("demo.wide", [version("1.0", [...wideFields, field("inner", { kind: "object", fields: wideFields })])], { envelope: "none" });

/** Inline types alike but for where they are, and one that differs. */
const point = (x: TypeNode): TypeNode => ({ kind: "object", fields: [field("x", x)] });
const alike = contract(
  "demo.alike",
  [version("1.0", [field("a", point({ kind: "int" })), field("b", point({ kind: "int" })), field("c", point({ kind: "string" })), optional("l", { kind: "list", of: point({ kind: "int" }) })])],
  { envelope: "none" },
);

const project: Project = { contracts: [other, loose, ruled, shapes, bounded, wide, alike] };

// ---- loading generated code --------------------------------------------------------------------

interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): Issue[];
}

const written: string[] = [];

/** Emits, writes under test/.tmp-validator with the runtime resolved from source, and imports. */
const load = async (c: Contract, v: ResolvedVersion = c.versions[0]!): Promise<Validator> => {
  const file = emitValidator(project, c, v);
  const path = join(TMP, file.path);
  mkdirSync(join(path, ".."), { recursive: true });
  const runtime = relative(join(path, ".."), RUNTIME).replace(/^(?!\.)/, "./");
  writeFileSync(path, file.contents.replace('"treaty/runtime"', JSON.stringify(runtime)));
  writeFileSync(
    join(path, "../types.ts"),
    `export type ${/import type \{ (\w+) \}/.exec(file.contents)![1]} = { readonly [key: string]: unknown };\n`,
  );
  written.push(path);
  return (await import(pathToFileURL(path).href)) as Validator;
};

let V: { shapes: Validator; ruled: Validator; loose: Validator; other: Validator; other11: Validator; bounded: Validator; wide: Validator; alike: Validator };

beforeAll(async () => {
  rmSync(TMP, { recursive: true, force: true });
  V = {
    shapes: await load(shapes),
    ruled: await load(ruled),
    loose: await load(loose),
    other: await load(other),
    other11: await load(other, other.versions[1]),
    bounded: await load(bounded),
    wide: await load(wide),
    alike: await load(alike),
  };
});

afterAll(() => rmSync(TMP, { recursive: true, force: true }));

// ---- values ------------------------------------------------------------------------------------

const validShapes = (): Record<string, unknown> => ({
  contract: "shapes",
  version: "1.0",
  id: "TASK-42",
  name: "ab😀",
  status: "PARTIAL",
  score: 0.5,
  count: 95,
  ratio: 0.5,
  done: false,
  at: "2024-02-29T23:59:59.123+01:00",
  day: "2024-02-29",
  uid: "123e4567-e89b-12d3-a456-426614174000",
  mail: "a.b@example.com",
  link: "https://example.com/x?y=1",
  artifact: "s3+x.y-z://bucket/key",
  tags: ["a", "b"],
  grid: [
    [1, 2],
    [2, 1],
  ],
  labels: { x: 1, "a/b": 0 },
  meta: { source: "model", note: null },
  outcome: { kind: "error", message: "boom" },
  claims: [{ text: "t", confidence: 1 }],
  level: "L9",
  flag: null,
  parent: { contract: "agent.note", version: "1.1", text: "hi", lang: "en", extra: 1 },
});

const issuesOf = (validator: Validator, value: unknown): { path: string; code: string }[] =>
  validator.errors(value).map(({ path, code }) => ({ path, code }));

const withChange = (change: (v: Record<string, unknown>) => void): Record<string, unknown> => {
  const value = validShapes();
  change(value);
  return value;
};

// ---- tests -------------------------------------------------------------------------------------

describe("emitValidator", () => {
  it("writes validator.ts beside the version's types, importing the runtime and the root type", () => {
    const file = emitValidator(project, shapes, shapes.versions[0]!);
    expect(file.path).toBe("shapes/v1_0/validator.ts");
    expect(file.language).toBe("typescript");
    expect(file.contents).toMatch(/^\/\/ @generated by treaty v.* from idl\/shapes\.yaml\. DO NOT EDIT\.\n/);
    expect(file.contents).toContain('import type { ShapesV1_0 } from "./types.js";');
    expect(file.contents).toMatch(/import \{ type Issue, .*\} from "treaty\/runtime";/);
    expect(file.contents).toContain("export function check(value: unknown): value is ShapesV1_0 {");
    expect(file.contents).toContain("export function errors(value: unknown): Issue[] {");
  });

  it("is deterministic", () => {
    expect(emitValidator(project, shapes, shapes.versions[0]!).contents).toBe(
      emitValidator(project, shapes, shapes.versions[0]!).contents,
    );
  });

  it("accepts a valid payload with no issues", () => {
    expect(V.shapes.check(validShapes())).toBe(true);
    expect(V.shapes.errors(validShapes())).toEqual([]);
  });

  it.each<[string, (v: Record<string, unknown>) => void, string, string]>([
    ["a missing required field", (v) => delete v.id, "/id", "required"],
    ["a required field holding undefined", (v) => (v.id = undefined), "/id", "required"],
    ["a wrong envelope", (v) => (v.version = "1.1"), "/version", "const"],
    ["a wrong JSON type", (v) => (v.done = "false"), "/done", "type"],
    ["a pattern mismatch", (v) => (v.id = "TASK-4x"), "/id", "pattern"],
    ["a string too short in code points", (v) => (v.name = "😀"), "/name", "minLength"],
    ["a string too long in code points", (v) => (v.name = "😀😀😀😀😀"), "/name", "maxLength"],
    ["an enum value outside the enum", (v) => (v.status = "DONE"), "/status", "enum"],
    ["a non-string where an enum is", (v) => (v.status = 1), "/status", "enum"],
    ["a value outside a long enum", (v) => (v.level = "L10"), "/level", "enum"],
    ["a wrong constant", (v) => (v.flag = false), "/flag", "const"],
    ["a number below min", (v) => (v.score = -0.1), "/score", "min"],
    ["a number above max", (v) => (v.score = 1.5), "/score", "max"],
    ["a non-integer", (v) => (v.count = 5.5), "/count", "type"],
    ["an integer at the exclusive min", (v) => (v.count = 0), "/count", "exclusiveMin"],
    ["an integer at the exclusive max", (v) => (v.count = 100), "/count", "exclusiveMax"],
    ["an integer off the multiple", (v) => (v.count = 7), "/count", "multipleOf"],
    ["a number off a fractional multiple", (v) => (v.ratio = 0.35), "/ratio", "multipleOf"],
    ["NaN", (v) => (v.score = Number.NaN), "/score", "type"],
    ["Infinity", (v) => (v.ratio = Number.POSITIVE_INFINITY), "/ratio", "type"],
    ["a date-time without a timezone", (v) => (v.at = "2024-01-01T00:00:00"), "/at", "format"],
    ["a date that does not exist", (v) => (v.day = "2023-02-29"), "/day", "format"],
    ["a bad uuid", (v) => (v.uid = "123"), "/uid", "format"],
    ["a bad email", (v) => (v.mail = "nobody"), "/mail", "format"],
    ["a relative uri", (v) => (v.link = "/x"), "/link", "format"],
    ["a ref with another scheme", (v) => (v.artifact = "s3://bucket"), "/artifact", "pattern"],
    ["a ref with nothing after the scheme", (v) => (v.artifact = "s3+x.y-z://"), "/artifact", "pattern"],
    ["too few items", (v) => (v.tags = []), "/tags", "minItems"],
    ["too many items", (v) => (v.tags = ["a", "b", "c", "d"]), "/tags", "maxItems"],
    ["duplicate items", (v) => (v.tags = ["a", "a"]), "/tags", "unique"],
    [
      "deeply equal items",
      (v) =>
        (v.grid = [
          [1, 2],
          [1, 2],
        ]),
      "/grid",
      "unique",
    ],
    ["a wrong list item", (v) => (v.tags = ["a", 2]), "/tags/1", "type"],
    ["a wrong nested list item", (v) => (v.grid = [[1, "2"]]), "/grid/0/1", "type"],
    ["a wrong map value, key escaped", (v) => (v.labels = { "a/b~c": -1 }), "/labels/a~1b~0c", "min"],
    ["a map that is an array", (v) => (v.labels = []), "/labels", "type"],
    ["a missing nested field", (v) => (v.meta = {}), "/meta/source", "required"],
    ["null where not nullable", (v) => (v.meta = { source: null }), "/meta/source", "type"],
    ["an unknown key", (v) => (v.extra = 1), "/extra", "unknown"],
    ["an unknown nested key, escaped", (v) => (v.meta = { source: "s", "x~/y": 1 }), "/meta/x~0~1y", "unknown"],
    ["a missing union tag", (v) => (v.outcome = { message: "m" }), "/outcome/kind", "tag"],
    ["an unknown union tag", (v) => (v.outcome = { kind: "maybe" }), "/outcome/kind", "tag"],
    ["a wrong field in an inline variant", (v) => (v.outcome = { kind: "ok", value: "1" }), "/outcome/value", "type"],
    ["a missing field in a named variant", (v) => (v.outcome = { kind: "error" }), "/outcome/message", "required"],
    [
      "an unknown key in a variant",
      (v) => (v.outcome = { kind: "ok", value: 1, message: "m" }),
      "/outcome/message",
      "unknown",
    ],
    ["a wrong named type item", (v) => (v.claims = [{ text: "t", confidence: 2 }]), "/claims/0/confidence", "max"],
    ["a named type that is not an object", (v) => (v.claims = [null]), "/claims/0", "type"],
    [
      "a contract ref of no known version",
      (v) => (v.parent = { contract: "agent.note", version: "2.0", body: "b" }),
      "/parent/version",
      "const",
    ],
    [
      "a contract ref failing its best version",
      (v) => (v.parent = { contract: "agent.note", version: "1.1", text: "hi", lang: "eng" }),
      "/parent/lang",
      "pattern",
    ],
  ])("reports %s", (_, change, path, code) => {
    const value = withChange(change);
    expect(V.shapes.check(value)).toBe(false);
    expect(issuesOf(V.shapes, value)).toContainEqual({ path, code });
  });

  it("reports every issue, not only the first", () => {
    const value = withChange((v) => {
      delete v.id;
      v.name = "a";
      v.done = 1;
      v.extra = true;
      v.tags = ["x", "x", 3, "y"];
    });
    expect(issuesOf(V.shapes, value)).toEqual([
      { path: "/id", code: "required" },
      { path: "/name", code: "minLength" },
      { path: "/done", code: "type" },
      { path: "/tags", code: "maxItems" },
      { path: "/tags", code: "unique" },
      { path: "/tags/2", code: "type" },
      // The fourth item, past maxItems 3, is not examined, and an issue says so.
      { path: "/tags", code: "truncated" },
      { path: "/extra", code: "unknown" },
    ]);
  });

  it("describes what was expected, in stable words", () => {
    const value = withChange((v) => {
      v.id = "TASK-1x";
      v.status = "DONE";
      v.count = -5;
      v.meta = { source: "s", note: 3 };
    });
    expect(V.shapes.errors(value)).toEqual([
      {
        path: "/id",
        code: "pattern",
        expected: "string matching ^TASK-[0-9]+$",
        message: "pattern mismatch: expected string matching ^TASK-[0-9]+$",
      },
      {
        path: "/status",
        code: "enum",
        expected: "one of SUCCESS, PARTIAL, FAILED",
        message: "value not allowed: expected one of SUCCESS, PARTIAL, FAILED",
      },
      { path: "/count", code: "exclusiveMin", expected: "integer > 0", message: "too small: expected integer > 0" },
      { path: "/meta/note", code: "type", expected: "string or null", message: "wrong type: expected string or null" },
    ]);
  });

  it("never quotes the payload in messages", () => {
    const secret = "hunter2-SECRET";
    const value = withChange((v) => {
      v.id = secret;
      v.status = secret;
      v.name = secret;
      v.at = secret;
      v.artifact = secret;
      v.labels = { k: secret };
      v.outcome = { kind: secret };
      v.parent = { contract: "agent.note", version: secret, text: secret };
    });
    const issues = V.shapes.errors(value);
    expect(issues.length).toBeGreaterThan(5);
    for (const issue of issues) expect(`${issue.message} ${issue.expected}`).not.toContain("hunter2");
  });

  it("rejects a payload that is not an object at the root", () => {
    for (const value of [null, undefined, 1, "x", [], true]) {
      expect(V.shapes.check(value)).toBe(false);
      expect(issuesOf(V.shapes, value)).toEqual([{ path: "", code: "type" }]);
    }
  });

  it("accepts null only where a field is nullable", () => {
    expect(V.shapes.check(withChange((v) => (v.parent = null)))).toBe(true);
    expect(V.shapes.check(withChange((v) => (v.flag = null)))).toBe(true);
    expect(V.shapes.errors(withChange((v) => (v.flag = 1)))).toContainEqual(
      expect.objectContaining({ path: "/flag", code: "const", expected: "true or null" }),
    );
    expect(
      issuesOf(
        V.shapes,
        withChange((v) => (v.status = null)),
      ),
    ).toEqual([{ path: "/status", code: "enum" }]);
  });

  it("treats an optional field holding undefined as absent", () => {
    expect(V.shapes.check(withChange((v) => (v.score = undefined)))).toBe(true);
  });

  it("accepts any version of a contract reference's major, each with its own unknown-field policy", () => {
    expect(
      V.shapes.check(withChange((v) => (v.parent = { contract: "agent.note", version: "1.0", text: "t", more: [] }))),
    ).toBe(true);
    expect(V.shapes.check(withChange((v) => (v.parent = { contract: "agent.note", version: "1.1", text: "t" })))).toBe(
      true,
    );
    expect(V.shapes.check(withChange((v) => (v.parent = { contract: "agent.note", version: "1.0", text: "" })))).toBe(
      false,
    );
    // The best fit is 1.0 (one issue) rather than 1.1 (two).
    expect(
      issuesOf(
        V.shapes,
        withChange((v) => (v.parent = { contract: "agent.note", version: "1.0", text: "" })),
      ),
    ).toEqual([{ path: "/parent/text", code: "minLength" }]);
  });

  it("allows unknown keys everywhere when unknown fields are stripped", () => {
    expect(V.other.check({ contract: "agent.note", version: "1.0", text: "t", x: 1 })).toBe(true);
    expect(V.loose.check({ constructor: "c", inner: { x: 1, y: 2 }, extra: null })).toBe(true);
  });

  it("reads only own properties for fields named like Object.prototype members", () => {
    expect(V.loose.check({})).toBe(false);
    expect(issuesOf(V.loose, {})).toEqual([{ path: "/constructor", code: "required" }]);
    expect(V.loose.check({ constructor: "c" })).toBe(true);
    expect(issuesOf(V.loose, JSON.parse('{"constructor": "c", "toString": "x", "__proto__": 1}'))).toEqual([
      { path: "/toString", code: "type" },
      { path: "/__proto__", code: "type" },
    ]);
    expect(V.loose.check(JSON.parse('{"constructor": "c", "toString": 3, "__proto__": true}'))).toBe(true);
    const bare = Object.assign(Object.create(null) as object, { constructor: "c", inner: { x: 1 } });
    expect(V.loose.check(bare)).toBe(true);
    expect(issuesOf(V.loose, { constructor: "c", kinds: {} })).toEqual([{ path: "/kinds/valueOf", code: "tag" }]);
    expect(V.loose.check({ constructor: "c", kinds: { valueOf: "a/b~c" } })).toBe(true);
  });

  it("reports prototype-named keys as unknown where unknown keys are rejected", () => {
    const value = JSON.parse(
      JSON.stringify(validShapes()).replace(/^\{/, '{"__proto__": {"x": 1}, "constructor": 1, "toString": "t",'),
    ) as unknown;
    expect(V.shapes.check(value)).toBe(false);
    expect(issuesOf(V.shapes, value)).toEqual([
      { path: "/__proto__", code: "unknown" },
      { path: "/constructor", code: "unknown" },
      { path: "/toString", code: "unknown" },
    ]);
    const bare = Object.assign(Object.create(null) as object, validShapes());
    expect(V.shapes.check(bare)).toBe(true);
  });

  describe("rules", () => {
    const base = { contract: "ruled", version: "1.0", started_at: "2024-01-01T00:00:00Z" };

    it("passes when the rules hold or their fields are absent", () => {
      expect(V.ruled.check(base)).toBe(true);
      expect(V.ruled.check({ ...base, finished_at: "2024-01-01T00:00:01Z", a: "x" })).toBe(true);
      expect(
        V.ruled.check({
          ...base,
          finished_at: "2024-01-02T00:00:00Z",
          window: { from: "2024-01-01T00:00:00Z", to: "2024-01-01T01:00:00+00:30" },
        }),
      ).toBe(true);
      expect(V.ruled.errors(base)).toEqual([]);
    });

    it("orders date-times below the millisecond and through a leap second", () => {
      const at = { ...base, started_at: "2016-12-31T23:59:59.0001Z" };
      expect(V.ruled.check({ ...at, finished_at: "2016-12-31T23:59:59.0009Z" })).toBe(true);
      expect(V.ruled.check({ ...at, finished_at: "2016-12-31T23:59:59.0001000Z" })).toBe(false);
      expect(V.ruled.check({ ...at, finished_at: "2016-12-31T23:59:60Z" })).toBe(true);
      expect(V.ruled.check({ ...base, started_at: "2016-12-31T23:59:60Z", finished_at: "2030-01-01T00:00:00Z" })).toBe(true);
      expect(issuesOf(V.ruled, { ...base, started_at: "2016-12-31T23:59:60.5Z", finished_at: "2016-12-31T23:59:60.25Z" })).toEqual([
        { path: "/finished_at", code: "rule.before" },
      ]);
    });

    it.each<[string, Record<string, unknown>, { path: string; code: string }[]]>([
      ["before: equal times", { finished_at: "2024-01-01T00:00:00Z" }, [{ path: "/finished_at", code: "rule.before" }]],
      [
        "before: later first",
        { finished_at: "2024-01-01T01:00:00+02:00" },
        [{ path: "/finished_at", code: "rule.before" }],
      ],
      [
        "before, nested, and requires",
        { window: { from: "2024-01-01T02:00:00Z", to: "2024-01-01T01:00:00Z" } },
        [
          { path: "/window/to", code: "rule.before" },
          { path: "/finished_at", code: "rule.requires" },
        ],
      ],
      ["exclusive: at the second present field", { b: "x", c: "y" }, [{ path: "/c", code: "rule.exclusive" }]],
      ["exclusive: only once", { a: "x", b: "y", c: "z" }, [{ path: "/b", code: "rule.exclusive" }]],
      [
        "requires: each missing field",
        { window: { from: "2024-01-01T00:00:00Z" } },
        [
          { path: "/window/to", code: "rule.requires" },
          { path: "/finished_at", code: "rule.requires" },
        ],
      ],
    ])("%s", (_, extra, expected) => {
      const value = { ...base, ...extra };
      expect(V.ruled.check(value)).toBe(false);
      expect(issuesOf(V.ruled, value)).toEqual(expected);
    });

    it("are checked beside schema issues, not instead of them", () => {
      const value = { ...base, a: 1, b: "x", window: { from: "2024-01-01T00:00:00Z" }, finished_at: 3 };
      expect(issuesOf(V.ruled, value)).toEqual([
        { path: "/finished_at", code: "type" },
        { path: "/a", code: "type" },
        { path: "/b", code: "rule.exclusive" },
        { path: "/window/to", code: "rule.requires" },
      ]);
    });

    it("treat null as present and skip unreachable paths", () => {
      expect(issuesOf(V.ruled, { ...base, a: null, b: null })).toContainEqual({ path: "/b", code: "rule.exclusive" });
      expect(issuesOf(V.ruled, { ...base, window: "no" })).toEqual([{ path: "/window", code: "type" }]);
    });
  });

  it("never throws, and errors() is empty exactly when check() passes", () => {
    const validators = [V.shapes, V.ruled, V.loose, V.other];
    const agree = (value: unknown) => {
      for (const validator of validators) expect(validator.errors(value).length === 0).toBe(validator.check(value));
    };
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), agree), {
      numRuns: 2000,
      seed: 1,
    });
    const keys = Object.keys(validShapes());
    const mutant = fc.record({
      key: fc.constantFrom(...keys, "extra", "__proto__", "constructor"),
      value: fc.anything({ withNullPrototype: true }),
    });
    fc.assert(
      fc.property(fc.array(mutant, { maxLength: 3 }), (changes) => {
        const value = validShapes();
        for (const { key, value: replacement } of changes)
          Object.defineProperty(value, key, {
            value: replacement,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        agree(value);
      }),
      { numRuns: 2000, seed: 2 },
    );
  });

  it("emits code that type-checks under strict", () => {
    const program = ts.createProgram(written, {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2023.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const host = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" };
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.formatDiagnostic(d, host))).toEqual([]);
  });
});

// ---- agreement with Ajv ------------------------------------------------------------------------

const noteSchemas = {
  note_1_0: {
    type: "object",
    properties: {
      contract: { const: "agent.note" },
      version: { const: "1.0" },
      text: { type: "string", minLength: 1 },
    },
    required: ["contract", "version", "text"],
  },
  note_1_1: {
    type: "object",
    properties: {
      contract: { const: "agent.note" },
      version: { const: "1.1" },
      text: { type: "string", minLength: 1 },
      lang: { type: "string", pattern: "^[a-z]{2}$" },
    },
    required: ["contract", "version", "text"],
  },
};

const shapesSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    contract: { const: "shapes" },
    version: { const: "1.0" },
    id: { type: "string", pattern: "^TASK-[0-9]+$", minLength: 6, maxLength: 12 },
    name: { type: "string", minLength: 2, maxLength: 4 },
    status: { $ref: "#/$defs/TaskStatus" },
    score: { type: "number", minimum: 0, maximum: 1 },
    count: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 5 },
    ratio: { type: "number", multipleOf: 0.1 },
    done: { type: "boolean" },
    at: { type: "string", format: "date-time" },
    day: { type: "string", format: "date" },
    uid: { type: "string", format: "uuid" },
    mail: { type: "string", format: "email" },
    link: { type: "string", format: "uri" },
    artifact: { type: "string", pattern: "^s3\\+x\\.y-z://.+" },
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true },
    grid: { type: "array", items: { type: "array", items: { type: "number" } }, uniqueItems: true },
    labels: { type: "object", additionalProperties: { type: "integer", minimum: 0 } },
    meta: {
      type: "object",
      properties: { source: { type: "string" }, note: { anyOf: [{ type: "string" }, { type: "null" }] } },
      required: ["source"],
      additionalProperties: false,
    },
    outcome: {
      oneOf: [
        {
          type: "object",
          properties: { kind: { const: "ok" }, value: { type: "integer" } },
          required: ["kind", "value"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { kind: { const: "error" }, message: { type: "string" } },
          required: ["kind", "message"],
          additionalProperties: false,
        },
      ],
    },
    claims: { type: "array", items: { $ref: "#/$defs/Claim" } },
    level: { enum: ["L0", "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9"] },
    flag: { anyOf: [{ const: true }, { type: "null" }] },
    parent: { anyOf: [{ anyOf: [{ $ref: "#/$defs/note_1_0" }, { $ref: "#/$defs/note_1_1" }] }, { type: "null" }] },
  },
  required: ["contract", "version", "id", "name", "status", "done", "at", "meta", "outcome", "claims", "level", "flag"],
  additionalProperties: false,
  $defs: {
    TaskStatus: { enum: ["SUCCESS", "PARTIAL", "FAILED"] },
    Claim: {
      type: "object",
      properties: { text: { type: "string" }, confidence: { type: "number", minimum: 0, maximum: 1 } },
      required: ["text", "confidence"],
      additionalProperties: false,
    },
    ...noteSchemas,
  },
};

describe("agreement with Ajv on hand-written JSON Schemas", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);

  /** Values around `valid`: fields dropped, replaced by JSON or by near-miss strings and numbers. */
  const around = (valid: () => Record<string, unknown>, extraKeys: readonly string[]) => {
    const keys = [...Object.keys(valid()), ...extraKeys];
    const nearMiss = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(
        "",
        "😀",
        "ab😀x",
        "TASK-1",
        "TASK-12345678",
        "2024-02-30",
        "2024-01-01T24:00:00Z",
        "2016-12-31T23:59:60Z",
        "s3+x.y-z://k",
        "en",
        "x",
      ),
      fc.constantFrom(0, -0, 0.1, 0.3, 0.35, 1, 5, 95, 100, 1e21, -1, 2 ** 53),
      fc.constantFrom(
        [],
        [[1], [1]],
        [["a"]],
        { kind: "ok", value: 1 },
        { kind: "error" },
        { x: -1 },
        { source: "s", extra: 1 },
      ),
      fc.constantFrom(
        { contract: "agent.note", version: "1.0", text: "" },
        { contract: "agent.note", version: "1.1", text: "t", lang: "e" },
      ),
    );
    return fc
      .array(fc.record({ key: fc.constantFrom(...keys), drop: fc.boolean(), value: nearMiss }), { maxLength: 3 })
      .map((changes) => {
        const value = valid();
        for (const change of changes) {
          if (change.drop) delete value[change.key];
          else value[change.key] = change.value;
        }
        return value;
      });
  };

  const compare = (
    validator: () => Validator,
    schema: object,
    valid: () => Record<string, unknown>,
    extraKeys: readonly string[] = ["extra"],
  ) => {
    const validate = ajv.compile(schema);
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(around(valid, extraKeys), fc.jsonValue()), (value) => {
        const verdict = validator().check(value);
        expect(verdict, JSON.stringify(value)).toBe(validate(value));
        if (verdict) accepted++;
      }),
      { numRuns: 3000, seed: 3 },
    );
    expect(accepted).toBeGreaterThan(300);
  };

  it("every type kind and constraint", () => compare(() => V.shapes, shapesSchema, validShapes));

  it("a contract with stripped unknown fields", () =>
    compare(
      () => V.other11,
      { ...noteSchemas.note_1_1, $defs: {} },
      () => ({ contract: "agent.note", version: "1.1", text: "t", lang: "en" }),
      ["extra", "lang"],
    ));

  it("fields named like Object.prototype members, without an envelope", () => {
    const schema = {
      type: "object",
      properties: {
        constructor: { type: "string" },
        inner: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] },
      },
      required: ["constructor"],
    };
    // Ajv reads inherited members too (`{}` has a `constructor`, of the wrong type): the verdicts
    // still agree, through different issues.
    const validate = ajv.compile(schema);
    for (const json of [
      "{}",
      '{"constructor": "c"}',
      '{"constructor": 1}',
      '{"constructor": "c", "toString": 1}',
      '{"constructor": "c", "inner": {}}',
    ]) {
      const value = JSON.parse(json) as unknown;
      expect(V.loose.check(value), json).toBe(validate(value));
    }
  });
});

// Issue 14: what `errors` examines of a payload is bounded by what the contract allows, and an
// issue says what it left out. Reads are counted through getters, so these prove the bound, not a time.
describe("a wide object", () => {
  const ints = Object.fromEntries(wideFields.map((f, i) => [f.name, i]));
  const valid = { ...ints, inner: { ...ints } };

  it("checks its unknown keys in a Set built once, not a switch over every field", () => {
    const source = emitValidator(project, wide, wide.versions[0]!).contents;
    expect(source.match(/new Set<string>\(/g)?.length).toBe(2);
    expect(source).not.toContain('case "f39":');
  });

  it("accepts exactly the declared keys, at the root and inside", () => {
    expect(V.wide.check(valid)).toBe(true);
    expect(V.wide.errors(valid)).toEqual([]);
    expect(V.wide.check({ ...valid, f40: 1 })).toBe(false);
    expect(V.wide.errors({ ...valid, inner: { ...ints, extra: 1 } })).toEqual([expect.objectContaining({ path: "/inner/extra", code: "unknown" })]);
    // A key an object inherits is no key of its own: neither declared nor unknown.
    expect(V.wide.check({ ...valid, inner: Object.assign(Object.create({ stray: 1 }), ints) })).toBe(true);
  });
});

describe("inline types alike", () => {
  it("share one set of functions, named for the first", () => {
    const source = emitValidator(project, alike, alike.versions[0]!).contents;
    expect(source.match(/^function (is|err|take)_\w+\(/gm)).toEqual(
      ["is_root", "err_root", "take_root", "is_root_a", "err_root_a", "take_root_a", "is_root_c", "err_root_c", "take_root_c", "is_root_l", "err_root_l", "take_root_l"].map((name) => `function ${name}(`),
    );
  });

  it("report each at its own path", () => {
    const value = { a: { x: "1" }, b: { x: "2" }, c: { x: 3 }, l: [{ x: 1 }, { x: "4" }] };
    expect(V.alike.check(value)).toBe(false);
    expect(V.alike.errors(value).map((i) => `${i.path} ${i.code}`)).toEqual(["/a/x type", "/b/x type", "/c/x type", "/l/1/x type"]);
    expect(V.alike.check({ a: { x: 1 }, b: { x: 2 }, c: { x: "3" }, l: [{ x: 4 }] })).toBe(true);
  });
});

describe("errors on hostile payloads", () => {
  const envelope = { contract: "bounded", version: "1.0" };
  /** `count` distinct objects `{ n }` whose `n` counts its reads into `reads.n`. */
  const counted = (count: number, reads: { n: number }) =>
    Array.from({ length: count }, (_, i) => ({
      get n() {
        reads.n++;
        return i;
      },
    }));

  it("examines a list no further than its maxItems, unique included, and says how many it left", () => {
    const reads = { n: 0 };
    const value = { ...envelope, items: counted(10_000, reads) };
    expect(V.bounded.check(value)).toBe(false);
    const issues = V.bounded.errors(value);
    expect(issues.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "/items", code: "maxItems" },
      { path: "/items", code: "truncated" },
    ]);
    expect(issues[1]!.message).toBe("not examined: 9980 more items");
    // The first 20 items, read by the unique test, `is_` and `err_`: a few reads each, never 10,000.
    expect(reads.n).toBeLessThanOrEqual(20 * 4);
  });

  it("finds duplicates by canonical JSON, whatever the key order, reading each item once", () => {
    const reads = { n: 0 };
    const items = counted(2_000, reads);
    expect(V.bounded.check({ ...envelope, free: items })).toBe(true);
    // check reads each `n` twice: once hashing, once validating. Pairs would read it 2,000 times.
    expect(reads.n).toBe(2 * 2_000);
    const twice = [{ n: 1, m: [1, { a: 1, b: 2 }] }, { m: [1, { b: 2, a: 1 }], n: 1 }];
    expect(issuesOf(V.bounded, { ...envelope, free: twice })).toContainEqual({ path: "/free", code: "unique" });
    expect(V.bounded.check({ ...envelope, free: [{ n: 1 }, { n: 2 }, { n: 1.5 }] })).toBe(false);
    expect(issuesOf(V.bounded, { ...envelope, free: [{ n: 0 }, { n: -0 }] })).toContainEqual({ path: "/free", code: "unique" });
  });

  it("reports unknown keys up to the number the object declares, then counts the rest", () => {
    const value: Record<string, unknown> = { ...envelope };
    for (let i = 0; i < 100_000; i++) value[`k${i}`] = i;
    const issues = V.bounded.errors(value);
    const declared = 6; // contract, version and four fields
    expect(issues.filter((i) => i.code === "unknown")).toHaveLength(declared);
    expect(issues.at(-1)).toMatchObject({ path: "", code: "truncated", message: `not examined: ${100_000 - declared} more unknown fields` });
  });

  it("caps the issue list at MAX_ISSUES, then one truncated issue, and stops walking", async () => {
    const { MAX_ISSUES } = await import("../../src/runtime/index.js");
    const reads = { n: 0 };
    const counts: Record<string, unknown> = {};
    for (let i = 0; i < 10_000; i++) {
      Object.defineProperty(counts, `c${i}`, {
        enumerable: true,
        get: () => {
          reads.n++;
          return "not an int";
        },
      });
    }
    const issues = V.bounded.errors({ ...envelope, counts });
    expect(issues).toHaveLength(MAX_ISSUES + 1);
    expect(issues.at(-1)).toMatchObject({ path: "", code: "truncated", expected: `at most ${MAX_ISSUES} issues` });
    expect(reads.n).toBeLessThan(3 * MAX_ISSUES);
  });

  it("examines a string past its maxLength no further (its pattern is not run on it)", () => {
    expect(issuesOf(V.bounded, { ...envelope, code: "x".repeat(1_000_000) })).toEqual([{ path: "/code", code: "maxLength" }]);
    expect(issuesOf(V.bounded, { ...envelope, code: "x" })).toEqual([{ path: "/code", code: "pattern" }]);
  });
});
