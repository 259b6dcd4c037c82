import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { Contract, Field, Project, ResolvedVersion, TypeNode } from "../../src/ir/model.js";
import { toJsonSchema } from "../../src/emit/json-schema.js";
import { emitTypeBox, schemaConstName } from "../../src/emit/typebox.js";
import { rootTypeName } from "../../src/ir/names.js";

// ---- IR fixture (shared shape with typebox.test.ts and types.test.ts) ----
const loc = { file: "idl/test.yaml", line: 1, col: 1 };
const field = (name: string, type: TypeNode, extra: Partial<Field> = {}): Field => ({
  name,
  type,
  optional: false,
  loc,
  ...extra,
});
const opt = (name: string, type: TypeNode, extra: Partial<Field> = {}): Field =>
  field(name, type, { optional: true, ...extra });
const version = (v: string, fields: Field[], extra: Partial<ResolvedVersion> = {}): ResolvedVersion => ({
  version: v,
  major: Number(v.split(".")[0]),
  minor: Number(v.split(".")[1]),
  status: "published",
  fields,
  enums: new Map(),
  types: new Map(),
  rules: [],
  examples: [],
  changes: [],
  loc,
  ...extra,
});
const contract = (name: string, versions: ResolvedVersion[], extra: Partial<Contract> = {}): Contract => ({
  name,
  file: `idl/${name}.yaml`,
  unknownFields: "reject",
  envelope: "embedded",
  canonical: versions[versions.length - 1]!.version,
  versions,
  loc,
  ...extra,
});

const errorEnums = new Map([
  [
    "ErrorClass",
    {
      name: "ErrorClass",
      values: [
        { name: "TRANSIENT", meaning: "Try again.", loc },
        { name: "INVALID_INPUT", meaning: "Fix the input.", loc },
      ],
      loc,
    },
  ],
]);
const errorTypes = new Map([
  ["Detail", { name: "Detail", fields: [field("path", { kind: "string" }), opt("message", { kind: "string" })], loc }],
]);
const errorFields = [
  field("class", { kind: "enum", name: "ErrorClass" }),
  field("retryable", { kind: "bool" }),
  field("message", { kind: "string", maxLength: 500 }),
  opt("details", { kind: "list", of: { kind: "named", name: "Detail" } }),
];
const operationError = contract(
  "operation.error",
  [
    version("1.0", errorFields, { enums: errorEnums, types: errorTypes }),
    version("1.1", [...errorFields, opt("retry_after_ms", { kind: "int", min: 0 })], {
      enums: errorEnums,
      types: errorTypes,
    }),
  ],
  { unknownFields: "strip", summary: "A typed error." },
);

const claimFields = [
  field("claim_id", { kind: "string", pattern: "^c[0-9]+$" }),
  field("text", { kind: "string", maxLength: 40 }),
  field("evidence_refs", { kind: "list", of: { kind: "ref", scheme: "src" }, minItems: 1, unique: true }),
];
const taskResultV1 = version(
  "1.0",
  [
    field(
      "task_id",
      { kind: "string", pattern: "^TASK-[0-9]+$" },
      { role: "idempotency_key", description: "Stable id of the task." },
    ),
    field("status", { kind: "enum", name: "TaskStatus" }),
    opt("verification", { kind: "enum", name: "Verification" }, { nullable: "not verified yet" }),
    field("attempts", { kind: "int", min: 0, max: 100 }),
    field("score", { kind: "number", exclusiveMin: 0, exclusiveMax: 1 }),
    opt("weight", { kind: "number", multipleOf: 0.5 }, { default: 1 }),
    field("done", { kind: "bool" }),
    opt("started_at", { kind: "timestamp" }),
    opt("finished_at", { kind: "timestamp" }),
    field("artifact", { kind: "ref", scheme: "artifact+v1.x" }),
    field("tags", {
      kind: "list",
      of: { kind: "string", minLength: 1, maxLength: 8 },
      minItems: 1,
      maxItems: 3,
      unique: true,
    }),
    field("labels", { kind: "map", of: { kind: "int" } }),
    field(
      "result",
      {
        kind: "object",
        fields: [
          field("summary", { kind: "string", maxLength: 200 }, { sensitivity: "internal" }),
          field("claims", { kind: "list", of: { kind: "named", name: "Claim" } }),
          opt("note", { kind: "string" }),
          opt("draft", { kind: "string" }),
        ],
      },
      { nullable: "redacted by policy" },
    ),
    field("shape", {
      kind: "union",
      tag: "kind",
      variants: [
        { value: "circle", type: { kind: "named", name: "Circle" }, loc },
        { value: "square", type: { kind: "object", fields: [field("side", { kind: "number", min: 0 })] }, loc },
      ],
    }),
    field("mode", { kind: "const", value: "fast" }),
    opt("owner_email", { kind: "string", format: "email" }, { sensitivity: "pii" }),
    opt("legacy_id", { kind: "string" }, { deprecated: { since: "1.0", use: "task_id" } }),
    opt("error", { kind: "contract", contract: "operation.error", major: 1 }),
    opt("primary_claim", { kind: "named", name: "Claim" }, { description: "The main claim." }),
    opt("run_id", { kind: "string", format: "uuid" }),
    opt("day", { kind: "string", format: "date" }),
    opt("link", { kind: "string", format: "uri" }),
    // A name that is special to JavaScript objects.
    opt("__proto__", { kind: "string" }),
    opt("a", { kind: "bool" }),
    opt("b", { kind: "bool" }),
  ],
  {
    enums: new Map([
      [
        "TaskStatus",
        {
          name: "TaskStatus",
          description: "Terminal state of a task.",
          fallback: "FAILED",
          values: [
            { name: "SUCCESS", meaning: "All outputs are present.", loc },
            { name: "PARTIAL", meaning: "Some outputs are present.", loc },
            { name: "FAILED", meaning: "No usable output.", loc },
          ],
          loc,
        },
      ],
      [
        "Verification",
        {
          name: "Verification",
          values: [
            { name: "PASS", meaning: "Passed.", loc },
            { name: "FAIL", meaning: "Failed.", loc },
          ],
          loc,
        },
      ],
      ["Unused", { name: "Unused", values: [{ name: "X", meaning: "Never referenced.", loc }], loc }],
    ]),
    types: new Map([
      ["Claim", { name: "Claim", description: "A checked statement.", fields: claimFields, loc }],
      ["Circle", { name: "Circle", fields: [field("radius", { kind: "number", exclusiveMin: 0 })], loc }],
    ]),
    rules: [
      { kind: "before", first: "started_at", second: "finished_at", loc },
      { kind: "exclusive", fields: ["a", "b"], loc },
      { kind: "requires", if: "a", then: ["owner_email"], loc },
      { kind: "requires", if: "result.note", then: ["result.draft"], loc },
      { kind: "exclusive", fields: ["a", "result.note"], loc },
    ],
  },
);
const taskResult = contract("task.result", [taskResultV1], {
  summary: "What a worker returns.",
  description: "The orchestrator decides from `status`.\n",
});
const bare = contract("bare.event", [version("1.0", [field("n", { kind: "int" })])], {
  envelope: "none",
  unknownFields: "strip",
});
const project: Project = { contracts: [bare, operationError, taskResult] };

const validTaskResult = {
  contract: "task.result",
  version: "1.0",
  task_id: "TASK-1",
  status: "SUCCESS",
  verification: null,
  attempts: 3,
  score: 0.5,
  done: true,
  started_at: "2024-01-01T00:00:00Z",
  finished_at: "2024-01-02T00:00:00Z",
  artifact: "artifact+v1.x://a/1",
  tags: ["a", "b"],
  labels: { x: 1 },
  result: { summary: "ok", claims: [{ claim_id: "c1", text: "t", evidence_refs: ["src://a"] }], note: "n", draft: "d" },
  shape: { kind: "circle", radius: 2 },
  mode: "fast",
  error: {
    contract: "operation.error",
    version: "1.1",
    class: "TRANSIENT",
    retryable: true,
    message: "m",
    retry_after_ms: 5,
    extra: 1,
  },
};
// ---- end of IR fixture ----

// ajv-formats is CommonJS: under NodeNext its plugin is the default export's `default`.
const createAjv = () => formats.default(new Ajv2020({ strict: false, allErrors: true }));

const CANDIDATES: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  0.5,
  2,
  101,
  "",
  "x",
  "abcdefghi",
  "TASK-2",
  "c9",
  "src://y",
  "artifact+v1.x://b",
  "1.0",
  "1.1",
  "2024-01-01",
  "2024-01-01T00:00:00Z",
  "a@b.co",
  "FAILED",
  "PASS",
  "TRANSIENT",
  "square",
  [],
  {},
  ["a", "a"],
  { kind: "square", side: 1 },
];

/** The value itself, then every value that differs from it at exactly one place. */
const mutations = function* (value: unknown): Generator<unknown> {
  yield value;
  yield* CANDIDATES;
  if (Array.isArray(value)) {
    yield [];
    if (value.length > 0) yield [...value, value[0]];
    for (const [index, item] of value.entries()) {
      for (const mutant of mutations(item)) yield value.map((other, i) => (i === index ? mutant : other));
    }
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    yield { ...value, zz: 1 };
    for (const [key, item] of entries) {
      yield Object.fromEntries(entries.filter(([other]) => other !== key));
      for (const mutant of mutations(item))
        yield Object.fromEntries(entries.map(([other, v]) => [other, other === key ? mutant : v]));
    }
  }
};

const fullTaskResult = {
  ...validTaskResult,
  verification: "PASS",
  weight: 1.5,
  owner_email: "a@b.co",
  legacy_id: "old",
  primary_claim: { claim_id: "c2", text: "x", evidence_refs: ["src://b", "src://c"] },
  run_id: "5f0c8a5e-4a8e-4a57-9f3a-1f1f5d6b3c11",
  day: "2024-01-31",
  link: "https://example.com/a",
  a: true,
  shape: { kind: "square", side: 3 },
  error: {
    contract: "operation.error",
    version: "1.0",
    class: "INVALID_INPUT",
    retryable: false,
    message: "m",
    details: [{ path: "/a" }],
  },
};
const samples = new Map<string, readonly unknown[]>([
  ["task.result@1.0", [validTaskResult, fullTaskResult]],
  ["operation.error@1.0", [{ ...fullTaskResult.error, details: [{ path: "/a", message: "bad" }] }]],
  ["operation.error@1.1", [validTaskResult.error]],
  ["bare.event@1.0", [{ n: 1 }]],
]);

/** Every emitted schema.ts of the project, written where `typebox` resolves. */
let outDir = "";
beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), "treaty-typebox-"));
  symlinkSync(resolve("node_modules"), join(outDir, "node_modules"), "dir");
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "module" }));
  for (const c of project.contracts) {
    for (const v of c.versions) {
      const file = emitTypeBox(project, c, v);
      mkdirSync(dirname(join(outDir, file.path)), { recursive: true });
      writeFileSync(join(outDir, file.path), file.contents);
    }
  }
});

describe("emitTypeBox", () => {
  const file = emitTypeBox(project, taskResult, taskResultV1);

  it("writes schema.ts next to the version's other files, headed and importing TypeBox and other contracts", () => {
    expect(file.path).toBe("task.result/v1_0/schema.ts");
    expect(file.language).toBe("typescript");
    const lines = file.contents.split("\n");
    expect(lines[0]).toMatch(/^\/\/ @generated by treaty v\S+ from idl\/task\.result\.yaml\. DO NOT EDIT\.$/);
    expect(lines).toContain('import { Type } from "treaty/typebox";');
    expect(lines).toContain('import { OperationErrorV1_0Schema } from "../../operation.error/v1_0/schema.js";');
    expect(lines).toContain('import { OperationErrorV1_1Schema } from "../../operation.error/v1_1/schema.js";');
  });

  it("declares the contract's enums and types before the root that uses them, and compiles nothing", () => {
    const declared = [...file.contents.matchAll(/^export const (\w+) =/gm)].map((match) => match[1]);
    expect(declared).toEqual(["TaskStatusSchema", "VerificationSchema", "ClaimSchema", "TaskResultV1_0Schema"]);
    expect(file.contents).not.toMatch(/Compile/);
  });

  it("builds values with TypeBox's builders", () => {
    expect(file.contents).toContain("status: TaskStatusSchema,");
    expect(file.contents).toContain(
      'primary_claim: Type.Optional(Type.With(ClaimSchema, { description: "The main claim." }))',
    );
    expect(file.contents).toContain("labels: Type.Object({}, { additionalProperties: Type.Integer() })");
    expect(file.contents).toContain('["__proto__"]: Type.Optional(Type.String())');
  });

  it("type-checks under strict, with static types that fit valid payloads", () => {
    const { extra: _, ...error } = validTaskResult.error;
    const usage = join(outDir, "usage.ts");
    writeFileSync(
      usage,
      `import type { Static } from "typebox";
import { TaskResultV1_0Schema } from "./task.result/v1_0/schema.js";
export const valid: Static<typeof TaskResultV1_0Schema> = ${JSON.stringify({ ...fullTaskResult, error })};
// @ts-expect-error: not a TaskStatus
export const badStatus: Static<typeof TaskResultV1_0Schema> = ${JSON.stringify({ ...validTaskResult, error, status: "DONE" })};
`,
    );
    const files = [
      usage,
      ...project.contracts.flatMap((c) => c.versions.map((v) => join(outDir, emitTypeBox(project, c, v).path))),
    ];
    const program = ts.createProgram(files, {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      paths: { "treaty/typebox": [resolve("src/runtime/typebox.ts")] },
    });
    const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages).toEqual([]);
    expect(program.getSourceFiles().some((source) => source.fileName.includes("/typebox/"))).toBe(true);
  }, 30_000);

  it("refuses a contract that contains itself, which a const cannot", () => {
    const tree = contract("tree.node", [
      version("1.0", [opt("child", { kind: "contract", contract: "tree.node", major: 1 })]),
    ]);
    expect(() => emitTypeBox({ contracts: [tree] }, tree, tree.versions[0]!)).toThrow(/TreeNodeV1_0 contains itself/);
  });

  it.each([...samples.keys()])("accepts and rejects what the JSON Schema does for %s", async (key) => {
    const [name, versionNumber] = key.split("@") as [string, string];
    const c = project.contracts.find((candidate) => candidate.name === name)!;
    const v = c.versions.find((candidate) => candidate.version === versionNumber)!;
    const file = emitTypeBox(project, c, v);
    const module = (await import(pathToFileURL(join(outDir, file.path)).href)) as Record<string, unknown>;
    const typebox = createAjv().compile(
      JSON.parse(JSON.stringify(module[schemaConstName(rootTypeName(c.name, v.version))])),
    );
    const reference = createAjv().compile(toJsonSchema(project, c, v));
    let accepted = 0;
    let count = 0;
    for (const sample of samples.get(key)!) {
      expect(reference(sample)).toBe(true);
      for (const value of mutations(sample)) {
        count++;
        const expected = reference(value);
        if (expected) accepted++;
        expect({ value, accepted: typebox(value) }).toEqual({ value, accepted: expected });
      }
    }
    // The mutations reach both sides of the schema.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(count);
  });
});
