// The official MCP 2026-07-28 examples against the contracts `treaty import` writes from the
// whole schema (one contract per object definition). Each example passes its type's generated
// validator as it passes Ajv on the source; mutations of it get the same verdict from both where
// the type was imported without a diagnostic, and where it was not, the contract accepts at least
// what the source does (the import only leaves out in the direction that accepts more); and each
// decodes and encodes back through the generated registry unchanged, nothing stripped, since
// imported objects keep the keys the source lets them have.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { snakeCase } from "../../src/import/convert.js";
import { mutated } from "../support/arbitrary.js";
import { holdsProtoKey, importPublished, SOURCES, type ImportedSource } from "../support/imported-source.js";

const EXAMPLES = join(import.meta.dirname, "../reference/agent-protocols/mcp/examples-2026-07-28");
/** Mutations tried per example. */
const RUNS = 40;

const examples = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((file) => ({ file, type: file.split("__")[0]!, contract: `mcp.${snakeCase(file.split("__")[0]!)}`, value: JSON.parse(readFileSync(join(EXAMPLES, file), "utf8")) as unknown }));

let mcp: ImportedSource;
beforeAll(async () => {
  mcp = await importPublished(SOURCES.mcp);
}, 300_000);

describe("MCP 2026-07-28, imported whole", () => {
  it("every object definition is a contract, and every example's type is one of them", () => {
    const defs = mcp.document["$defs"] as Record<string, { type?: unknown }>;
    const objects = Object.keys(defs).filter((name) => defs[name]!.type === "object");
    expect(mcp.files.map((f) => f.contract).sort()).toEqual(expect.arrayContaining(objects.map((name) => `mcp.${snakeCase(name)}`)));
    expect(examples.length).toBeGreaterThanOrEqual(129);
    expect(examples.filter((e) => !mcp.files.some((f) => f.contract === e.contract)).map((e) => e.file)).toEqual([]);
  });

  it("every official example passes its type's generated validator, and Ajv on the source", async () => {
    const verdicts = [];
    for (const example of examples) {
      const check = await mcp.check(example.contract);
      verdicts.push({ file: example.file, treaty: check(example.value), ajv: mcp.referee(`#/$defs/${example.type}`)(example.value) });
    }
    expect(verdicts.filter((v) => !v.treaty || !v.ajv)).toEqual([]);
  });

  it("mutations of each example get Ajv's verdict (exact types), or pass wherever Ajv passes them (types imported with a diagnostic)", async () => {
    const counts = { exact: { examples: 0, mutations: 0 }, widened: { examples: 0, mutations: 0 }, rejected: 0 };
    for (const example of examples) {
      const file = mcp.files.find((f) => f.contract === example.contract)!;
      const check = await mcp.check(example.contract);
      const referee = mcp.referee(file.pointer);
      const tally = counts[file.exact ? "exact" : "widened"];
      tally.examples++;
      fc.assert(
        fc.property(mutated(fc.constant(example.value)), (value) => {
          fc.pre(!holdsProtoKey(value));
          const ajv = referee(value);
          const treaty = check(value);
          tally.mutations++;
          if (!ajv) counts.rejected++;
          if (file.exact) expect({ file: example.file, value, treaty }).toEqual({ file: example.file, value, treaty: ajv });
          else if (ajv) expect({ file: example.file, value, treaty }).toEqual({ file: example.file, value, treaty: true });
        }),
        { numRuns: RUNS },
      );
    }
    console.log(
      `MCP 2026-07-28 examples: ${counts.exact.mutations} mutations of the ${counts.exact.examples} examples of exact types got Ajv's verdict; ${counts.widened.mutations} of the ${counts.widened.examples} of types imported with a diagnostic passed wherever Ajv passed them; Ajv rejected ${counts.rejected}`,
    );
    expect(counts.exact.examples).toBeGreaterThanOrEqual(64);
    expect(counts.exact.mutations).toBeGreaterThan(64 * RUNS * 0.9);
    // Both sides of the boundary were tried.
    expect(counts.rejected).toBeGreaterThan(examples.length * RUNS * 0.2);
  }, 240_000);

  it("every example decodes and encodes back unchanged through the generated registry, nothing stripped", async () => {
    const registry = await mcp.registry();
    const trips = examples.map((example) => {
      const decoded = registry.decode(example.contract, example.value, { version: "1.0" });
      const encoded = decoded.ok ? registry.encode(example.contract, decoded.value, "1.0") : decoded;
      return { file: example.file, decoded: decoded.value, stripped: decoded.stripped, encoded: encoded.value };
    });
    expect(trips).toEqual(examples.map((e) => ({ file: e.file, decoded: e.value, stripped: [], encoded: e.value })));
  });
});
