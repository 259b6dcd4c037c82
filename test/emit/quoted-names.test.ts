// Field names that are not identifiers, and names every object inherits, through generated code:
// `__proto__` and `constructor` are data, never the prototype or Object. (Ajv skips a `__proto__`
// property schema, so the differential tests cannot referee it; these checks do, by hand.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { redact, type VersionShape } from "../../src/runtime/index.js";

const ROOT = join(import.meta.dirname, "../..");

const IDL = `contract: demo.names
owner: tests
versions:
  "1.0":
    fields:
      "__proto__": { type: string, maxLength: 5, optional: true, sensitivity: pii }
      "constructor": { type: int, optional: true }
      "toString": { type: string, maxLength: 5, optional: true }
      "io.example/with space": { type: object, optional: true, fields: { "$ref": { type: string, maxLength: 9 } } }
      "a\`b\${c}": { type: bool, optional: true }
  "1.1":
    from: "1.0"
    changes:
      - add: note
        type: string
        maxLength: 5
        optional: true
`;

interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): { path: string; code: string }[];
}

let dir: string;
let v10: Validator;
let adapters: Record<string, (v: unknown, log: { dropped: unknown[] }) => Record<string, unknown>>;
let shape: VersionShape;

beforeAll(async () => {
  mkdirSync(join(ROOT, ".scratch"), { recursive: true });
  dir = mkdtempSync(join(ROOT, ".scratch", "quoted-names-"));
  mkdirSync(join(dir, "idl"));
  writeFileSync(join(dir, "idl", "demo.names.yaml"), IDL);
  let stderr = "";
  const status = await runCli(["generate"], { cwd: dir, stdout: () => {}, stderr: (t) => (stderr += t) });
  expect(status, stderr).toBe(0);
  v10 = (await import(join(dir, "generated/demo.names/v1_0/validator.ts"))) as Validator;
  adapters = (await import(join(dir, "generated/demo.names/adapters.ts"))) as typeof adapters;
  shape = ((await import(join(dir, "generated/demo.names/v1_0/shape.ts"))) as Record<string, VersionShape>)["DemoNamesV1_0Shape"]!;
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const envelope = { contract: "demo.names", version: "1.0" };
const parse = (extra: string): unknown => JSON.parse(`{"contract":"demo.names","version":"1.0"${extra}}`);

describe("names that are not identifiers", () => {
  it("validate as own data: absent inherited names are absent, present ones are checked", () => {
    expect(v10.check(envelope)).toBe(true);
    expect(v10.check(parse(`,"__proto__":"abc","constructor":3,"toString":"x"`))).toBe(true);
    expect(v10.errors(parse(`,"__proto__":42`))).toEqual([expect.objectContaining({ path: "/__proto__", code: "type" })]);
    expect(v10.errors(parse(`,"constructor":"x"`))).toEqual([expect.objectContaining({ path: "/constructor", code: "type" })]);
    expect(v10.errors(parse(`,"io.example/with space":{"$ref":5}`))).toEqual([expect.objectContaining({ path: "/io.example~1with space/$ref", code: "type" })]);
    expect(v10.check(parse(`,"a\`b\${c}":true`))).toBe(true);
    // Only own keys count: an inherited `constructor` of the wrong type is no field.
    expect(v10.check(Object.assign(Object.create({ constructor: "x" }), envelope))).toBe(true);
  });

  it("adapt as data: a `__proto__` field stays an own property, absent ones are not copied from Object.prototype", () => {
    const log = { dropped: [] as unknown[] };
    const up = adapters["upgradeV1_1"]!(parse(`,"__proto__":"abc","a\`b\${c}":false`), log);
    expect(Object.getPrototypeOf(up)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(up, "__proto__")?.value).toBe("abc");
    expect(up["a`b${c}"]).toBe(false);
    const bare = adapters["upgradeV1_1"]!(envelope, log);
    expect(Object.keys(bare)).toEqual(["contract", "version"]);
    const down = adapters["downgradeV1_1"]!({ contract: "demo.names", version: "1.1", note: "n" }, log);
    expect(Object.keys(down)).toEqual(["contract", "version"]);
    expect(log.dropped).toEqual([{ version: "1.1", path: "/note" }]);
  });

  it("redact as data: a pii `__proto__` becomes its marker, never the prototype", () => {
    const copy = redact(parse(`,"__proto__":"abc","constructor":3`), shape, { internal: false }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toMatch(/^\[pii:/);
    expect(copy["constructor"]).toBe(3);
  });
});
