// `treaty import`: the IDL it writes (goldens), the constructs it reports at their JSON pointers,
// and that for each contract imported without a diagnostic the generated validator agrees with
// Ajv on the source (on whole published schemas: figures.test.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv, type AnySchema } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import { importSchema, type ImportedFile } from "../../src/import/import.js";
import { compile, generate } from "../../src/pipeline.js";
import { arbitraryFor, mutated } from "../support/arbitrary.js";
import { holdsProtoKey } from "../support/imported-source.js";
import { cli, tempProject } from "../support/temp-project.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/import-basic");
const UPDATE = process.env["UPDATE"] === "1";
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

/** Compares with the golden file, or writes it under UPDATE=1. */
const golden = (path: string, actual: string): void => {
  if (UPDATE) {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(actual).toBe(readFileSync(path, "utf8"));
};

const importInto = (root: string, source: string, outDir: string, extra: { defs?: string[]; contract?: string } = {}) =>
  importSchema({ root, file: source, text: readFileSync(source, "utf8"), outDir, ...extra });

const writeAll = (files: readonly ImportedFile[]): void => {
  for (const file of files) {
    mkdirSync(join(file.path, ".."), { recursive: true });
    writeFileSync(file.path, file.text);
  }
};

const ajvWith = (make: () => Ajv) => () => {
  const ajv = make();
  addFormats(ajv);
  return ajv;
};

/**
 * Generates `files` in a project at `dir` and, for each, checks that its validator and Ajv (`ajv`)
 * on the source schema at its pointer give the same verdict on values generated from the emitted
 * schema and mutated around it, both verdicts occurring.
 */
const expectAgreement = async (dir: string, files: readonly ImportedFile[], sourceFile: string, ajv: Ajv): Promise<void> => {
  for (const f of files) {
    mkdirSync(join(dir, "idl"), { recursive: true });
    writeFileSync(join(dir, "idl", basename(f.path)), f.text);
  }
  writeFileSync(join(dir, "package.json"), `{ "type": "module", "treaty": { "tests": false } }\n`);
  const generated = await generate({ root: dir, idlDir: join(dir, "idl"), outDir: join(dir, "generated"), check: false, tests: false });
  expect(generated.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const document = JSON.parse(readFileSync(sourceFile, "utf8")) as AnySchema;
  ajv.addSchema(document, "source");
  for (const f of files) {
    const out = join(dir, "generated", f.contract, "v1_0");
    const { check } = (await import(pathToFileURL(join(out, "validator.ts")).href)) as { check: (v: unknown) => boolean };
    const emitted = JSON.parse(readFileSync(join(out, "schema.json"), "utf8")) as Record<string, unknown>;
    const referee = ajv.compile({ $ref: `source${f.pointer}` });
    const valid = arbitraryFor(emitted);
    const verdicts = { accepted: 0, rejected: 0 };
    fc.assert(
      fc.property(fc.oneof(valid, mutated(valid)), (value) => {
        fc.pre(!holdsProtoKey(value));
        const expected = referee(value);
        verdicts[expected ? "accepted" : "rejected"]++;
        expect({ contract: f.contract, value, treaty: check(value) }).toEqual({ contract: f.contract, value, treaty: expected });
      }),
      { numRuns: 150 },
    );
    // Both sides of the boundary were tried.
    expect(verdicts.accepted).toBeGreaterThan(10);
    expect(verdicts.rejected).toBeGreaterThan(10);
  }
};

describe("the IDL it writes", () => {
  for (const source of ["source.json", "unexpressible.json"]) {
    it(`${source}: the contracts and the diagnostics match the goldens`, () => {
      const name = basename(source, ".json");
      const imported = importInto(FIXTURE, join(FIXTURE, source), join(FIXTURE, "idl", name), name === "unexpressible" ? { contract: "odd.thing" } : {});
      expect(imported.value.length).toBeGreaterThan(0);
      for (const file of imported.value) golden(join(FIXTURE, "imported", name, `${file.contract}.yaml`), file.text);
      expect(readdirSync(join(FIXTURE, "imported", name)).filter((f) => f.endsWith(".yaml")).sort()).toEqual(imported.value.map((f) => `${f.contract}.yaml`).sort());
      golden(join(FIXTURE, "imported", name, "diagnostics.txt"), imported.diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join(""));
    });
  }

  it("a schema the IDL can say whole imports exactly, and compiles with only the review's warnings", () => {
    const root = tempProject("import-basic", { "package.json": `{ "treaty": {} }\n` });
    const imported = importInto(root, join(FIXTURE, "source.json"), join(root, "idl/shop"));
    // Only that its Order's Anthropic tool would cross a request budget alone (31 optional parameters).
    expect(imported.diagnostics.map((d) => [d.code, d.message.split(" (")[0]])).toEqual([["import-provider-left-out", "#/$defs/Order becomes a contract past anthropic's limits"]]);
    expect(imported.value.every((f) => f.exact)).toBe(true);
    writeAll(imported.value);
    const compiled = compile({ root, idlDir: join(root, "idl") });
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // Each meaning it could not know is flagged until someone writes it.
    const placeholders = compiled.diagnostics.filter((d) => d.code === "placeholder-meaning").map((d) => d.message);
    expect(placeholders).toEqual(expect.arrayContaining([expect.stringContaining("value 'shipped' of enum 'OrderStatus'"), expect.stringContaining("what null means for 'note'")]));
  });

  it("closed, kept and typed-kept objects (additionalProperties false, absent, a schema) agree with Ajv on the source", async () => {
    const root = tempProject("import-basic-open", { "package.json": `{ "treaty": {} }\n` });
    const imported = importInto(root, join(FIXTURE, "source.json"), join(root, "idl/shop"));
    const order = imported.value.find((f) => f.contract === "shop.order")!;
    expect(order.text).toMatch(/Line:\n    unknown_fields: reject\n/);
    expect(order.text).toMatch(/unknown_fields: keep\n        additional: \{ type: string, maxLength: 50 \}/);
    await expectAgreement(join(root, "agree"), imported.value, join(FIXTURE, "source.json"), ajvWith(() => new Ajv2020({ strict: false, logger: false }) as unknown as Ajv)());
  }, 120_000);

  it("an allOf of parts about a string (or number) is that one schema, never an object; parts that cannot merge are left out", async () => {
    const root = tempProject("import-allof-scalar", { "package.json": `{ "treaty": {} }\n` });
    const schema = (extra: object) => ({
      type: "object",
      required: ["code", "amount"],
      properties: {
        code: { allOf: [{ type: "string" }, { minLength: 2 }, { maxLength: 8, pattern: "^[A-Z]+$" }] },
        amount: { allOf: [{ type: "integer" }, { minimum: 0 }] },
        ...extra,
      },
      additionalProperties: false,
    });
    const exact = join(root, "scalar.json");
    writeFileSync(exact, `${JSON.stringify(schema({}))}\n`);
    const imported = importInto(root, exact, join(root, "idl/pay"), { contract: "pay.scalar" });
    expect(imported.diagnostics).toEqual([]);
    const text = imported.value[0]!.text;
    expect(text).toContain(`code: { type: string, minLength: 2, maxLength: 8, pattern: "^[A-Z]+$" }`);
    expect(text).toContain("amount: { type: int, min: 0 }");
    await expectAgreement(join(root, "agree"), imported.value, exact, ajvWith(() => new Ajv2020({ strict: false, logger: false }) as unknown as Ajv)());
    // Two types no value has: reported, and left out with its key unchecked (the contract accepts more, never less).
    const conflicting = join(root, "conflict.json");
    writeFileSync(conflicting, `${JSON.stringify(schema({ either: { allOf: [{ type: "string" }, { type: "integer" }] } }))}\n`);
    const reported = importInto(root, conflicting, join(root, "idl/pay2"), { contract: "pay.conflict" });
    expect(reported.diagnostics.map((d) => /at (#\/\S*)/.exec(d.message)?.[1])).toEqual(["#/properties/either/allOf"]);
    expect(reported.value[0]!.text).not.toContain("either:");
    expect(reported.value[0]!.text).toContain("unknown_fields: keep");
  }, 120_000);

  it("OpenAPI's number formats are what ajv-formats checks: int32 a 32-bit integer, int64 an integer, float and double any number", async () => {
    const root = tempProject("import-number-formats", { "package.json": `{ "treaty": {} }\n` });
    const source = join(root, "numbers.json");
    const properties = {
      plain: { type: "integer", format: "int32" },
      bounded: { type: "integer", format: "int32", minimum: 5, exclusiveMaximum: 1e10 },
      edge: { type: "integer", format: "int32", exclusiveMinimum: -(2 ** 31) },
      wide: { type: "number", format: "int64" },
      real: { type: "number", format: "double", maximum: 1.5 },
    };
    writeFileSync(source, `${JSON.stringify({ type: "object", required: Object.keys(properties), properties, additionalProperties: false })}\n`);
    const imported = importInto(root, source, join(root, "idl/num"), { contract: "num.formats" });
    expect(imported.diagnostics).toEqual([]);
    const text = imported.value[0]!.text;
    expect(text).toContain("plain: { type: int, min: -2147483648, max: 2147483647 }");
    expect(text).toContain("bounded: { type: int, min: 5, max: 2147483647 }");
    expect(text).toContain("edge: { type: int, exclusiveMin: -2147483648, max: 2147483647 }");
    expect(text).toContain("wide: { type: int }");
    expect(text).toContain("real: { type: number, max: 1.5 }");
    await expectAgreement(join(root, "agree"), imported.value, source, ajvWith(() => new Ajv2020({ strict: false, logger: false }) as unknown as Ajv)());
    writeFileSync(source, `${JSON.stringify({ type: "object", properties: { odd: { type: "number", format: "decimal128" } } })}\n`);
    const odd = importInto(root, source, join(root, "idl/odd"), { contract: "num.odd" });
    expect(odd.diagnostics.map((d) => /at (#\/\S*)/.exec(d.message)?.[1])).toEqual(["#/properties/odd/format"]);
  }, 120_000);

  it("OpenAPI 3.0's nullable on an object a $ref names makes the field nullable, as on a scalar", () => {
    const root = tempProject("import-openapi-nullable", { "package.json": `{ "treaty": {} }\n` });
    const source = join(root, "oa.json");
    const schemas = {
      Thing: { type: "object", properties: { r: { $ref: "#/components/schemas/Other" }, s: { $ref: "#/components/schemas/Str" } } },
      Other: { type: "object", nullable: true, properties: { q: { type: "string" } } },
      Str: { type: "string", nullable: true },
    };
    writeFileSync(source, `${JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas } })}\n`);
    const imported = importInto(root, source, join(root, "idl/oa"), { contract: "t.oa", defs: ["Thing"] });
    const text = imported.value[0]!.text;
    expect(text).toMatch(/ {6}r:\n {8}type: Other\n {8}optional: true\n {8}nullable: /);
    expect(text).toMatch(/ {6}s:\n {8}type: string\n {8}optional: true\n {8}nullable: /);
  });

  it("a oneOf of strings whose patterns no string matches both of is an untagged union; one string matching both is named", async () => {
    const root = tempProject("import-pattern-union", { "package.json": `{ "treaty": {} }\n` });
    const source = join(root, "ids.json");
    const owner = { oneOf: [{ type: "string", pattern: "^usr_[a-z0-9]+$", maxLength: 40 }, { type: "string", pattern: "^org_[a-z0-9]+$", maxLength: 40 }] };
    writeFileSync(source, `${JSON.stringify({ type: "object", required: ["owner"], properties: { owner }, additionalProperties: false })}\n`);
    const imported = importInto(root, source, join(root, "idl/ids"), { contract: "ids.owner" });
    expect(imported.diagnostics).toEqual([]);
    const text = imported.value[0]!.text;
    expect(text).toContain('- { type: string, maxLength: 40, pattern: "^usr_[a-z0-9]+$" }');
    expect(text).toContain('- { type: string, maxLength: 40, pattern: "^org_[a-z0-9]+$" }');
    await expectAgreement(join(root, "agree"), imported.value, source, ajvWith(() => new Ajv2020({ strict: false, logger: false }) as unknown as Ajv)());
    const either = { oneOf: [{ type: "string", pattern: "^a", maxLength: 9 }, { type: "string", pattern: "b$", maxLength: 9 }] };
    writeFileSync(source, `${JSON.stringify({ type: "object", properties: { either } })}\n`);
    const overlapping = importInto(root, source, join(root, "idl/either"), { contract: "ids.either" });
    writeFileSync(source, `${JSON.stringify({ type: "object", properties: { none: { enum: [] } } })}\n`);
    const empty = importInto(root, source, join(root, "idl/empty"), { contract: "ids.empty" });
    expect(empty.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("an empty enum (no value matches it) at #/properties/none/enum")]);
    expect(overlapping.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/#\/properties\/either\/oneOf .*both accept "ab"|both accept "ab".*#\/properties\/either\/oneOf/)]);
  }, 120_000);

  it("every construct it cannot say is reported at its place in the source, and the contract still compiles", () => {
    const root = tempProject("import-odd", { "package.json": `{ "treaty": {} }\n` });
    const imported = importInto(root, join(FIXTURE, "unexpressible.json"), join(root, "idl/odd"), { contract: "odd.thing" });
    const pointers = imported.diagnostics.map((d) => /(?:^|at )(#\/\S*)/.exec(d.message)?.[1]);
    expect(pointers).toEqual([
      "#/properties/id/type",
      // Two recursive objects neither of which is proved to hold the other (the proof ends).
      "#/properties/chain/anyOf",
      "#/properties/pair/items",
      "#/properties/either/oneOf",
      "#/properties/guarded/not",
      "#/properties/labels/patternProperties",
      "#/properties/keyed/propertyNames",
      // A oneOf one of whose branches includes the other is no union: a value of both matches neither (an anyOf would be the wider one).
      "#/properties/exactly_one/oneOf",
      // Two parts of an allOf that each constrain the property otherwise (one repeating the other's constraints is merged).
      "#/properties/both/allOf/1/properties/code",
      // A list of itself: `json` where it refers back; MCP's JSONValue, by way of JSONObject: a map of json (a union with a json branch is json).
      "#/definitions/Nested/anyOf/1/items/$ref",
      "#/definitions/JSONValue/anyOf/0/$ref",
      "#/definitions/JSONValue/anyOf/1/items/$ref",
    ]);
    // The line and column are where the pointer's key is written in the source.
    const text = readFileSync(join(FIXTURE, "unexpressible.json"), "utf8").split("\n");
    for (const d of imported.diagnostics) {
      const key = /#\/(?:.*\/)?([^/]+)$/.exec(/(?:^|at )(#\/\S*)/.exec(d.message)![1]!)![1]!;
      expect(text[d.loc!.line - 1]!.slice(0, d.loc!.col + key.length + 2)).toContain(`"${key}"`);
    }
    expect(imported.value.map((f) => f.exact)).toEqual([false]);
    writeAll(imported.value);
    expect(compile({ root, idlDir: join(root, "idl") }).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});

describe("treaty import on the command line", () => {
  it("writes the files and says where; never overwrites one; names what --defs does not find", async () => {
    const root = tempProject("import-cli", { "package.json": `{ "treaty": {} }\n`, "idl/.keep": "" });
    const source = join(FIXTURE, "source.json");
    const first = await cli(["import", source, "--out", "idl/shop"], root);
    expect(first).toMatchObject({ status: 0 });
    expect(first.stderr).toContain("treaty: imported 5 contracts into idl/shop");
    expect(readdirSync(join(root, "idl/shop")).sort()).toEqual(["shop.image_content.yaml", "shop.line.yaml", "shop.money.yaml", "shop.order.yaml", "shop.text_content.yaml"]);
    // Again: every file exists, so nothing is written and each is named.
    const before = readFileSync(join(root, "idl/shop/shop.order.yaml"), "utf8");
    writeFileSync(join(root, "idl/shop/shop.order.yaml"), `${before}# edited\n`);
    const again = await cli(["import", source, "--out", "idl/shop"], root);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("error import-file-exists: idl/shop/shop.order.yaml exists");
    expect(readFileSync(join(root, "idl/shop/shop.order.yaml"), "utf8")).toBe(`${before}# edited\n`);
    const unknown = await cli(["import", source, "--defs", "Ordr", "--out", "idl/other"], root);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/error import-unknown-definition: the source has no definition 'Ordr' \(did you mean 'Order'\?\)/);
    expect(existsSync(join(root, "idl/other"))).toBe(false);
    // One definition, named.
    const one = await cli(["import", source, "--defs", "Line", "--contract", "shop.order_line", "--out", "idl/lines"], root);
    expect(one.status).toBe(0);
    expect(readdirSync(join(root, "idl/lines"))).toEqual(["shop.order_line.yaml"]);
    const notSchema = tempProject("import-not-schema", { "package.json": `{ "treaty": {} }\n`, "list.json": "[1, 2]\n" });
    const bad = await cli(["import", "list.json"], notSchema);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^list\.json:1:1 - error import-not-a-schema: /m);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    rmSync(join(root, "idl"), { recursive: true, force: true });
  });

  it("reads a source as contract files are read: not UTF-8 is read-failed at its first bad byte, a byte-order mark is no column", async () => {
    const root = tempProject("import-encoding", { "package.json": `{ "treaty": {} }\n` });
    const schema = '{"type": "object", "properties": {"a": {"type": "string", "description": "caf\u00e9"}}}\n';
    writeFileSync(join(root, "latin.json"), Buffer.from(schema, "latin1"));
    const latin = await cli(["import", "latin.json", "--out", "idl/latin"], root);
    expect(latin.status).toBe(1);
    expect(latin.stderr).toContain("latin.json:1:78 - error read-failed: cannot read latin.json: not UTF-8 text (save the file as UTF-8)");
    expect(existsSync(join(root, "idl/latin"))).toBe(false);
    writeFileSync(join(root, "bom.json"), `\uFEFF${schema}`);
    expect((await cli(["import", "bom.json", "--out", "idl/bom"], root)).status).toBe(0);
    expect(readFileSync(join(root, "idl/bom/bom.bom.yaml"), "utf8")).toContain("description: café");
  });

  it("reads a .json source as JSON: malformed JSON is json-syntax at the first character JSON does not take, and nothing is written", async () => {
    const root = tempProject("import-json-syntax", { "package.json": `{ "treaty": {} }\n` });
    const cases: [string, string][] = [
      // YAML took these three as a schema, and imported it.
      ['{\n  "type": "object",\n  "properties": { "a": { "type": "string" }, }\n}\n', "3:46"],
      ['{\n  "type": "object",\n  "properties": { "a": }\n}\n', "3:24"],
      ['{\n  "type": "object", // the root\n  "properties": {}\n}\n', "2:21"],
      // YAML's words (yaml-syntax) for these two.
      ['{\n  "type": "object"\n  "properties": {}\n}\n', "3:3"],
      ['{\n  "type": "object",\n', "3:1"],
    ];
    for (const [i, [text, at]] of cases.entries()) {
      writeFileSync(join(root, `bad${i}.json`), text);
      const run = await cli(["import", `bad${i}.json`, "--out", `idl/bad${i}`], root);
      expect({ i, status: run.status }).toEqual({ i, status: 1 });
      expect(run.stderr).toMatch(new RegExp(`^bad${i}\\.json:${at} - error json-syntax: not valid JSON: expected `, "m"));
      expect(existsSync(join(root, `idl/bad${i}`))).toBe(false);
    }
    // YAML stays YAML.
    writeFileSync(join(root, "ok.yaml"), "type: object # the root\nproperties:\n  a: { type: string, }\n");
    expect((await cli(["import", "ok.yaml", "--out", "idl/ok"], root)).status).toBe(0);
  });
});
