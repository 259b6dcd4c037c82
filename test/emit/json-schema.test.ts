import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { Contract, Field, Project, ResolvedVersion, TypeNode } from "../../src/ir/model.js";
import { emitJsonSchema, ruleHome, toJsonSchema } from "../../src/emit/json-schema.js";

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
const schemaOf = (c: Contract, v: ResolvedVersion = c.versions[0]!) => toJsonSchema(project, c, v);
const props = (schema: Record<string, unknown>) => schema.properties as Record<string, Record<string, unknown>>;
const defs = (schema: Record<string, unknown>) => schema.$defs as Record<string, Record<string, unknown>>;

describe("toJsonSchema", () => {
  const schema = schemaOf(taskResult);

  it("starts with the generated comment, the dialect, the root title and the contract's description", () => {
    expect(Object.keys(schema).slice(0, 4)).toEqual(["$comment", "$schema", "title", "description"]);
    expect(schema.$comment).toMatch(/^@generated by treaty v\S+ from idl\/task\.result\.yaml\. DO NOT EDIT\.$/);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.title).toBe("TaskResultV1_0");
    expect(schema.description).toBe("What a worker returns.\n\nThe orchestrator decides from `status`.");
  });

  it("puts the envelope constants first and lists required fields in field order", () => {
    expect(Object.keys(props(schema)).slice(0, 3)).toEqual(["contract", "version", "task_id"]);
    expect(props(schema).contract).toMatchObject({ const: "task.result" });
    expect(props(schema).version).toMatchObject({ const: "1.0" });
    expect((schema.required as string[]).slice(0, 4)).toEqual(["contract", "version", "task_id", "status"]);
    expect(schema.required).not.toContain("verification");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.hasOwn(props(schema), "__proto__")).toBe(true);
  });

  it("maps scalar types and their constraints", () => {
    const p = props(schema);
    expect(p.task_id).toEqual({
      type: "string",
      pattern: "^TASK-[0-9]+$",
      description: "Stable id of the task.",
      "x-treaty-role": "idempotency_key",
    });
    expect(p.attempts).toEqual({ type: "integer", minimum: 0, maximum: 100 });
    expect(p.score).toEqual({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(p.weight).toEqual({ type: "number", multipleOf: 0.5, default: 1 });
    expect(p.done).toEqual({ type: "boolean" });
    expect(p.started_at).toEqual({ type: "string", format: "date-time" });
    expect(p.artifact).toEqual({ type: "string", pattern: "^artifact\\+v1\\.x://.+" });
    expect(p.mode).toEqual({ const: "fast" });
    expect(p.owner_email).toEqual({ type: "string", format: "email", "x-treaty-sensitivity": "pii" });
  });

  it("maps lists and maps", () => {
    expect(props(schema).tags).toEqual({
      type: "array",
      items: { type: "string", minLength: 1, maxLength: 8 },
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
    });
    expect(props(schema).labels).toEqual({ type: "object", additionalProperties: { type: "integer" } });
  });

  it("wraps nullable fields, $refs included, and says what null means", () => {
    expect(props(schema).verification).toEqual({
      anyOf: [{ $ref: "#/$defs/Verification" }, { type: "null" }],
      description: "Null means: not verified yet.",
    });
    expect(props(schema).result).toMatchObject({
      anyOf: [{ type: "object" }, { type: "null" }],
      description: "Null means: redacted by policy.",
    });
  });

  it("marks deprecated fields", () => {
    expect(props(schema).legacy_id).toEqual({
      type: "string",
      description: "Deprecated since 1.0: use task_id.",
      deprecated: true,
    });
  });

  it("maps a union to oneOf variants that start with their tag constant", () => {
    const variants = (props(schema).shape as { oneOf: Record<string, unknown>[] }).oneOf;
    expect(variants).toHaveLength(2);
    expect(variants[0]).toEqual({
      type: "object",
      properties: { kind: { const: "circle" }, radius: { type: "number", exclusiveMinimum: 0 } },
      required: ["kind", "radius"],
      additionalProperties: false,
    });
    expect(Object.keys(props(variants[1]!))[0]).toBe("kind");
    expect((variants[1]!.required as string[])[0]).toBe("kind");
  });

  it("defines the enums and types it uses, and only those", () => {
    expect(props(schema).status).toEqual({ $ref: "#/$defs/TaskStatus" });
    expect(props(schema).primary_claim).toEqual({ $ref: "#/$defs/Claim", description: "The main claim." });
    expect(defs(schema).TaskStatus).toEqual({
      title: "TaskStatus",
      description:
        "Terminal state of a task.\n\n- SUCCESS: All outputs are present.\n- PARTIAL: Some outputs are present.\n- FAILED: No usable output.",
      type: "string",
      enum: ["SUCCESS", "PARTIAL", "FAILED"],
      "x-treaty-fallback": "FAILED",
    });
    expect(defs(schema).Claim).toMatchObject({
      title: "Claim",
      description: "A checked statement.",
      type: "object",
      additionalProperties: false,
    });
    expect(defs(schema).Unused).toBeUndefined();
    // Circle is only a union variant, inlined with its tag.
    expect(defs(schema).Circle).toBeUndefined();
  });

  it("refers to another contract's major through every version's root, with that contract's own policies", () => {
    expect(props(schema).error).toEqual({ $ref: "#/$defs/OperationErrorV1" });
    expect(defs(schema).OperationErrorV1).toMatchObject({
      anyOf: [{ $ref: "#/$defs/OperationErrorV1_0" }, { $ref: "#/$defs/OperationErrorV1_1" }],
    });
    const v1 = defs(schema).OperationErrorV1_1!;
    expect(v1.title).toBe("OperationErrorV1_1");
    expect(props(v1).version).toMatchObject({ const: "1.1" });
    expect(props(v1).class).toEqual({ $ref: "#/$defs/OperationErrorV1_1_ErrorClass" });
    expect(v1.additionalProperties).toBeUndefined();
    expect(defs(schema).OperationErrorV1_1_ErrorClass).toMatchObject({ enum: ["TRANSIENT", "INVALID_INPUT"] });
    expect(Object.keys(defs(schema))).toEqual([...Object.keys(defs(schema))].sort());
  });

  it("enforces rules over one object's fields and records the others", () => {
    expect(schema.allOf).toEqual([{ not: { required: ["a", "b"] } }]);
    expect(schema.dependentRequired).toEqual({ a: ["owner_email"] });
    expect((props(schema).result as { anyOf: Record<string, unknown>[] }).anyOf[0]!.dependentRequired).toEqual({
      note: ["draft"],
    });
    expect(schema["x-treaty-rules"]).toEqual([
      { before: ["started_at", "finished_at"] },
      { exclusive: ["a", "result.note"] },
    ]);
  });

  it("leaves out the envelope and the additionalProperties ban when the contract says so", () => {
    const bareSchema = schemaOf(bare);
    expect(Object.keys(props(bareSchema))).toEqual(["n"]);
    expect(bareSchema.additionalProperties).toBeUndefined();
    expect(bareSchema.$defs).toBeUndefined();
  });

  it("gives a contract-ref def another name when a local type has taken it", () => {
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
    const clashSchema = toJsonSchema({ contracts: [...project.contracts, clash] }, clash, clash.versions[0]!);
    expect(props(clashSchema).e).toEqual({ $ref: "#/$defs/OperationErrorV1_Contract" });
    expect(props(clashSchema).t).toEqual({ $ref: "#/$defs/OperationErrorV1" });
  });

  it("ends in a $ref when a contract reaches itself", () => {
    const tree = contract("tree.node", [
      version("1.0", [
        field("label", { kind: "string" }),
        opt("child", { kind: "contract", contract: "tree.node", major: 1 }),
      ]),
    ]);
    const treeSchema = toJsonSchema({ contracts: [tree] }, tree, tree.versions[0]!);
    const validate = createAjv().compile(treeSchema);
    const node = (child?: object) => ({ contract: "tree.node", version: "1.0", label: "x", ...(child && { child }) });
    expect(validate(node(node(node())))).toBe(true);
    expect(validate(node(node({ ...node(), label: 1 })))).toBe(false);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(schemaOf(taskResult))).toBe(JSON.stringify(schema));
  });
});

describe("the schema under Ajv 2020", () => {
  it("compiles for every version of every contract, annotation keywords included", () => {
    for (const c of project.contracts)
      for (const v of c.versions) expect(() => createAjv().compile(toJsonSchema(project, c, v))).not.toThrow();
  });

  it("needs strict: false, because strict mode rejects the x-treaty annotation keywords", () => {
    expect(() => formats.default(new Ajv2020()).compile(schemaOf(taskResult))).toThrow(/unknown keyword/);
  });

  const validate = createAjv().compile(schemaOf(taskResult));
  const withChanges = (changes: Record<string, unknown>, drop: string[] = []) => {
    const value: Record<string, unknown> = { ...validTaskResult, ...changes };
    for (const key of drop) delete value[key];
    return value;
  };

  it("accepts a valid payload, with optional fields absent or present", () => {
    expect(validate(validTaskResult)).toBe(true);
    expect(validate(withChanges({}, ["verification", "error", "started_at", "finished_at"]))).toBe(true);
    expect(
      validate(
        withChanges({
          result: null,
          verification: "PASS",
          weight: 1.5,
          a: true,
          owner_email: "a@b.co",
          primary_claim: validTaskResult.result.claims[0],
        }),
      ),
    ).toBe(true);
    expect(
      validate(
        withChanges({ shape: { kind: "square", side: 0 }, error: { ...validTaskResult.error, version: "1.0" } }),
      ),
    ).toBe(true);
    // operation.error strips unknown fields, so v1.0 does not look at a v1.1 field.
    expect(validate(withChanges({ error: { ...validTaskResult.error, version: "1.0", retry_after_ms: -1 } }))).toBe(
      true,
    );
  });

  it.each<[string, Record<string, unknown>, string[]?]>([
    ["a missing required field", {}, ["status"]],
    ["a wrong envelope", { version: "1.1" }],
    ["an unknown key", { extra: 1 }],
    ["a value outside the enum", { status: "DONE" }],
    ["a pattern mismatch", { task_id: "task-1" }],
    ["a non-integer", { attempts: 1.5 }],
    ["a number out of range", { attempts: 101 }],
    ["an exclusive bound", { score: 1 }],
    ["a non-multiple", { weight: 0.3 }],
    ["a bad date-time", { started_at: "yesterday" }],
    ["a ref with another scheme", { artifact: "artifact://a" }],
    ["too many items", { tags: ["a", "b", "c", "d"] }],
    ["duplicate items", { tags: ["a", "a"] }],
    ["an item too long", { tags: ["abcdefghi"] }],
    ["a map value of the wrong type", { labels: { x: "1" } }],
    ["null where null is not allowed", { status: null }],
    ["an unknown union tag", { shape: { kind: "triangle" } }],
    ["a variant field of the other variant", { shape: { kind: "circle", side: 1 } }],
    ["a wrong constant", { mode: "slow" }],
    ["a bad email", { owner_email: "nobody" }],
    ["a bad named type", { primary_claim: { claim_id: "x", text: "t", evidence_refs: ["src://a"] } }],
    [
      "an unknown key in a named type",
      { primary_claim: { claim_id: "c1", text: "t", evidence_refs: ["src://a"], x: 1 } },
    ],
    ["an unknown key in an inline object", { result: { ...validTaskResult.result, x: 1 } }],
    ["a bad other contract", { error: { ...validTaskResult.error, class: "OOPS" } }],
    ["a bound of an other contract's version", { error: { ...validTaskResult.error, retry_after_ms: -1 } }],
    ["both exclusive fields", { a: true, b: false, owner_email: "a@b.co" }],
    ["a field without the one it requires", { a: true }],
    ["a nested field without the one it requires", { result: { summary: "s", claims: [], note: "n" } }],
    ["a bad uuid", { run_id: "nope" }],
    ["a bad date", { day: "2024-13-01" }],
    ["a bad uri", { link: "not a uri" }],
  ])("rejects %s", (_, changes, drop) => {
    expect(validate(withChanges(changes, drop))).toBe(false);
  });

  it("ignores the rules it cannot express", () => {
    expect(validate(withChanges({ started_at: "2024-02-01T00:00:00Z" }))).toBe(true);
  });
});

describe("ruleHome", () => {
  const fields = taskResultV1.fields;
  it("finds the object that holds every field of a rule", () => {
    expect(ruleHome(fields, { kind: "exclusive", fields: ["a", "b"], loc })).toBe("");
    expect(ruleHome(fields, { kind: "requires", if: "result.note", then: ["result.draft"], loc })).toBe("result");
  });
  it("gives up on before, on fields of different objects, and on paths through anything but inline objects", () => {
    expect(ruleHome(fields, { kind: "before", first: "started_at", second: "finished_at", loc })).toBeUndefined();
    expect(ruleHome(fields, { kind: "exclusive", fields: ["a", "result.note"], loc })).toBeUndefined();
    expect(
      ruleHome(fields, { kind: "exclusive", fields: ["primary_claim.text", "primary_claim.claim_id"], loc }),
    ).toBeUndefined();
  });
});

describe("emitJsonSchema", () => {
  it("writes the schema as indented JSON with a final newline", () => {
    const file = emitJsonSchema(project, taskResult, taskResultV1);
    expect(file.path).toBe("task.result/v1_0/schema.json");
    expect(file.language).toBe("json");
    expect(file.contents.endsWith("}\n")).toBe(true);
    expect(JSON.parse(file.contents)).toEqual(schemaOf(taskResult));
  });
});
