// A hand-built IR shared by the JSON Schema, TypeBox and types emitter tests: every type kind and
// constraint, enums, named types, a contract reference, strip and reject.
import { LLM_PROVIDERS, type Contract, type Field, type Project, type ResolvedVersion, type TypeNode } from "../../src/ir/model.js";

export const loc = { file: "idl/test.yaml", line: 1, col: 1 };
export const field = (name: string, type: TypeNode, extra: Partial<Field> = {}): Field => ({
  name,
  type,
  optional: false,
  loc,
  ...extra,
});
export const opt = (name: string, type: TypeNode, extra: Partial<Field> = {}): Field =>
  field(name, type, { optional: true, ...extra });
export const version = (v: string, fields: Field[], extra: Partial<ResolvedVersion> = {}): ResolvedVersion => ({
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
export const contract = (name: string, versions: ResolvedVersion[], extra: Partial<Contract> = {}): Contract => ({
  name,
  file: `idl/${name}.yaml`,
  unknownFields: "reject",
  compatibility: "backward",
  envelope: "embedded",
  canonical: versions[versions.length - 1]!.version,
  llm: { providers: LLM_PROVIDERS },
  versions,
  loc,
  ...extra,
});

export const errorEnums = new Map([
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
export const errorTypes = new Map([
  ["Detail", { name: "Detail", fields: [field("path", { kind: "string" }), opt("message", { kind: "string" })], loc }],
]);
export const errorFields = [
  field("class", { kind: "enum", name: "ErrorClass" }),
  field("retryable", { kind: "bool" }),
  field("message", { kind: "string", maxLength: 500 }),
  opt("details", { kind: "list", of: { kind: "named", name: "Detail" } }),
];
export const operationError = contract(
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

export const claimFields = [
  field("claim_id", { kind: "string", pattern: "^c[0-9]+$" }),
  field("text", { kind: "string", maxLength: 40 }),
  field("evidence_refs", { kind: "list", of: { kind: "ref", scheme: "src" }, minItems: 1, unique: true }),
];
export const taskResultV1 = version(
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
export const taskResult = contract("task.result", [taskResultV1], {
  summary: "What a worker returns.",
  description: "The orchestrator decides from `status`.\n",
});
export const bare = contract("bare.event", [version("1.0", [field("n", { kind: "int" })])], {
  envelope: "none",
  unknownFields: "strip",
});
export const project: Project = { contracts: [bare, operationError, taskResult] };

export const validTaskResult = {
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
