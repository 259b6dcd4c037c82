// The official MCP 2026-07-28 examples against the contracts `treaty import` writes from that
// schema: the import only ever leaves out what the IDL cannot say in the direction that accepts
// more, so every example of an imported type must pass its generated validator, as it passes Ajv
// on the source schema; and, since open objects keep their unknown keys, each example decodes and
// encodes back unchanged (nothing stripped) wherever its contract was imported whole.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { expect, it } from "vitest";
import { importSchema } from "../../src/import/import.js";
import { snakeCase } from "../../src/import/convert.js";
import { generate } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const MCP = join(import.meta.dirname, "../reference/agent-protocols/mcp");
const SCHEMA = join(MCP, "schema-2026-07-28.json");
const EXAMPLES = join(MCP, "examples-2026-07-28");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

it("every official example of an imported MCP type passes its generated validator, as it passes Ajv on the source", async () => {
  const document = JSON.parse(readFileSync(SCHEMA, "utf8")) as { $defs: Record<string, { type?: unknown }> };
  const examples = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, type: file.split("__")[0]!, value: JSON.parse(readFileSync(join(EXAMPLES, file), "utf8")) as unknown }));
  // Types that are objects are contracts; the others (unions such as ContentBlock) are reached through them.
  const objectTypes = [...new Set(examples.map((e) => e.type))].filter((type) => document.$defs[type]?.type === "object");
  expect(objectTypes.length).toBeGreaterThan(50);

  const root = tempProject("import-mcp-examples", { "package.json": `{ "treaty": { "tests": false } }\n` });
  const imported = importSchema({ root, file: SCHEMA, text: readFileSync(SCHEMA, "utf8"), outDir: join(root, "idl/mcp"), defs: objectTypes, contract: "mcp" });
  expect(imported.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  for (const file of imported.value) {
    mkdirSync(join(file.path, ".."), { recursive: true });
    writeFileSync(file.path, file.text);
  }
  const generated = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false, tests: false });
  expect(generated.diagnostics.filter((d) => d.severity === "error")).toEqual([]);

  const ajv = new Ajv2020({ strict: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(document, "mcp");
  const verdicts: { file: string; treaty: boolean; ajv: boolean }[] = [];
  for (const example of examples.filter((e) => objectTypes.includes(e.type))) {
    const validator = join(root, "generated", `mcp.${snakeCase(example.type)}`, "v1_0", "validator.ts");
    const { check } = (await import(pathToFileURL(validator).href)) as { check: (v: unknown) => boolean };
    verdicts.push({ file: example.file, treaty: check(example.value), ajv: ajv.validate({ $ref: `mcp#/$defs/${example.type}` }, example.value) });
  }
  expect(verdicts.length).toBeGreaterThan(90);
  expect(verdicts.filter((v) => !v.treaty || !v.ajv)).toEqual([]);

  // decode → encode, through the generated registry, for the types imported without a diagnostic.
  const exact = new Set(imported.value.filter((f) => f.exact).map((f) => f.contract));
  const registry = (await import(pathToFileURL(join(root, "generated", "index.ts")).href)) as {
    decode: (contract: string, value: unknown, options: { version: string }) => { ok: boolean; value?: unknown; stripped?: readonly string[] };
    encode: (contract: string, value: unknown, version: string) => { ok: boolean; value?: unknown };
  };
  const trips: { file: string; decoded: unknown; stripped: readonly string[] | undefined; encoded: unknown }[] = [];
  const expected: typeof trips = [];
  for (const example of examples.filter((e) => exact.has(`mcp.${snakeCase(e.type)}`))) {
    const contract = `mcp.${snakeCase(example.type)}`;
    const decoded = registry.decode(contract, example.value, { version: "1.0" });
    const encoded = decoded.ok ? registry.encode(contract, decoded.value, "1.0") : decoded;
    trips.push({ file: example.file, decoded: decoded.value, stripped: decoded.stripped, encoded: encoded.value });
    expected.push({ file: example.file, decoded: example.value, stripped: [], encoded: example.value });
  }
  expect(trips.length).toBeGreaterThan(15);
  expect(trips).toEqual(expected);
}, 240_000);
