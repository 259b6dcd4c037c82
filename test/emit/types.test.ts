import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { Contract, Field, Project, ResolvedVersion, TypeNode } from "../../src/ir/model.js";
import { emitTypes } from "../../src/emit/types.js";

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

/** Writes every version's types.ts of `project` plus `extra` files and type-checks them under strict. */
const typeCheck = async (checked: Project, extra: Record<string, string> = {}): Promise<string[]> => {
  const outDir = mkdtempSync(join(tmpdir(), "treaty-types-"));
  symlinkSync(resolve("node_modules"), join(outDir, "node_modules"), "dir");
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "module" }));
  const emitted = await Promise.all(checked.contracts.flatMap((c) => c.versions.map((v) => emitTypes(checked, c, v))));
  const files = [...emitted.map((file) => [file.path, file.contents] as const), ...Object.entries(extra)];
  for (const [path, contents] of files) {
    mkdirSync(dirname(join(outDir, path)), { recursive: true });
    writeFileSync(join(outDir, path), contents);
  }
  const program = ts.createProgram(
    files.map(([path]) => join(outDir, path)),
    {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    },
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? `${d.file.fileName.slice(outDir.length + 1)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
    );
};

describe("emitTypes", () => {
  it("writes types.ts with the header and type-only imports of other contracts' versions", async () => {
    const file = await emitTypes(project, taskResult, taskResultV1);
    expect(file.path).toBe("task.result/v1_0/types.ts");
    expect(file.language).toBe("typescript");
    const lines = file.contents.split("\n");
    expect(lines[0]).toMatch(/^\/\/ @generated by treaty v\S+ from idl\/task\.result\.yaml\. DO NOT EDIT\.$/);
    expect(lines).toContain('import type { OperationErrorV1_0 } from "../../operation.error/v1_0/types.js";');
    expect(file.contents).toMatch(/error\?: \(?OperationErrorV1_0 \| OperationErrorV1_1\)?/);
  });

  it("exports the root, the named types and the enums under their own names, and nothing else", async () => {
    const { contents } = await emitTypes(project, taskResult, taskResultV1);
    const exported = [...contents.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]);
    expect(exported).toEqual(["TaskResultV1_0", "TaskStatus", "Verification", "Claim"]);
    expect(contents).toContain('export type TaskStatus = ("SUCCESS" | "PARTIAL" | "FAILED")');
  });

  it("documents fields, enum values and deprecations in JSDoc", async () => {
    const { contents } = await emitTypes(project, taskResult, taskResultV1);
    expect(contents).toMatch(
      /\* Terminal state of a task\.\n \* ?\n \* - SUCCESS: All outputs are present\.\n \* - PARTIAL: Some outputs are present\.\n \* - FAILED: No usable output\.\n \*\/\nexport type TaskStatus/,
    );
    expect(contents).toMatch(/\* Stable id of the task\.\n \*\/\ntask_id: string/);
    expect(contents).toMatch(/\* The main claim\.\n \*\/\nprimary_claim\?: Claim/);
    expect(contents).toMatch(/\* @deprecated\n \* Deprecated since 1\.0: use task_id\.\n \*\/\nlegacy_id\?: string/);
    expect(contents).toMatch(/\* Null means: not verified yet\.\n \*\/\nverification\?: \(Verification \| null\)/);
  });

  it("gives index signatures to maps only", async () => {
    const { contents } = await emitTypes(project, taskResult, taskResultV1);
    expect(contents.match(/\[k: string\]/g)).toHaveLength(1);
    expect(contents).toMatch(/labels: \{\n\[k: string\]: number \| undefined\n\}/);
    const strip = await emitTypes(project, operationError, operationError.versions[1]!);
    expect(strip.contents).not.toContain("[k: string]");
  });

  it("type-checks under strict and accepts valid payloads but not invalid ones", async () => {
    // Types describe payloads after unknown fields are stripped, so the sample keeps none.
    const { extra: _, ...error } = validTaskResult.error;
    const usage = `import type { TaskResultV1_0 } from "./task.result/v1_0/types.js";
export const valid: TaskResultV1_0 = ${JSON.stringify({ ...validTaskResult, error })};
// @ts-expect-error: not a TaskStatus
export const badStatus: TaskResultV1_0 = ${JSON.stringify({ ...validTaskResult, status: "DONE" })};
// @ts-expect-error: task_id is required
export const missing: TaskResultV1_0 = ${JSON.stringify({ ...validTaskResult, task_id: undefined })};
// @ts-expect-error: no such key
export const unknown: TaskResultV1_0 = ${JSON.stringify({ ...validTaskResult, extra: 1 })};
`;
    expect(await typeCheck(project, { "usage.ts": usage })).toEqual([]);
  }, 30_000);

  it("handles a contract that contains itself and a local type named like a contract-ref def", async () => {
    const tree = contract("tree.node", [
      version("1.0", [
        field("label", { kind: "string" }),
        opt("child", { kind: "contract", contract: "tree.node", major: 1 }),
      ]),
    ]);
    const clash = contract("clash.test", [
      version(
        "1.0",
        [
          field("e", { kind: "contract", contract: "operation.error", major: 1 }),
          field("t", { kind: "named", name: "OperationErrorV1" }),
        ],
        {
          types: new Map([
            ["OperationErrorV1", { name: "OperationErrorV1", fields: [field("x", { kind: "int" })], loc }],
          ]),
        },
      ),
    ]);
    const checked: Project = { contracts: [clash, operationError, tree] };
    const treeTypes = await emitTypes(checked, tree, tree.versions[0]!);
    expect(treeTypes.contents).not.toContain("import");
    expect(treeTypes.contents).toContain("child?: TreeNodeV1_0");
    expect(await typeCheck(checked)).toEqual([]);
  }, 30_000);
});
