// A cold run over ordinary contracts (several versions, adapters derived from their changes, LLM
// projections with null mappings) and an agent never calls prettier: every statement is laid out
// by treaty, which saves loading prettier and warming it up in each run. What it writes is still
// exactly what prettier prints.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { format } from "prettier";
import { parseDocument } from "yaml";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { tempProject } from "../support/temp-project.js";

// Test files share a worker's modules (vitest.config.ts): `fresh` imports the pipeline afresh, so
// that it formats through this mock.
vi.mock("../../src/format/prettier-format.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/format/prettier-format.js")>();
  return { ...real, prettierFormat: vi.fn(real.prettierFormat) };
});

const ROOT = join(import.meta.dirname, "../..");
const SEED = readFileSync(join(ROOT, "idl/task/task.result.yaml"), "utf8");

/** The seed contract with its first `count` versions only (and only their examples), named `name`. */
const firstVersions = (count: number, name: string): string => {
  const doc = parseDocument(SEED);
  const versions = (doc.get("versions") as { items: { key: { value: string } }[] }).items;
  const dropped = versions.slice(count).map((pair) => pair.key.value);
  for (const version of dropped) doc.deleteIn(["versions", version]);
  const examples = doc.get("examples") as { items: { get(key: string): unknown }[] };
  examples.items = examples.items.filter((example) => !dropped.includes(String(example.get("version"))));
  doc.set("contract", name);
  return doc.toString();
};

/** An agent of idl/ with the contracts it reads and writes, and its hand-written code. */
const AGENT = Object.fromEntries(
  ["booking.airport_query.yaml", "booking.airport.yaml", "airport_code_resolver.agent.yaml", "airport_code_resolver.agent.ts"].map((file) => [
    `idl/booking/${file}`,
    readFileSync(join(ROOT, "idl/booking", file), "utf8"),
  ]),
);

/** The pipeline and the formatter, imported afresh: both see the mock of prettier-format.js. */
const fresh = async () => {
  vi.resetModules();
  const { generate } = await import("../../src/generate.js");
  const { formatText } = await import("../../src/format/format-text.js");
  const { prettierFormat } = await import("../../src/format/prettier-format.js");
  return { generate, formatText, prettierFormat: vi.mocked(prettierFormat) };
};

let saved: string | undefined;
beforeEach((context) => {
  // An empty cache of this test's own: a shared one would answer from files formatted before.
  saved = process.env["TREATY_CACHE_DIR"];
  process.env["TREATY_CACHE_DIR"] = tempProject(`cache-${context.task.id}`);
});
afterEach(() => {
  process.env["TREATY_CACHE_DIR"] = saved;
});

describe("a cold generate", () => {
  it("of contracts of several versions and an agent never calls prettier, and writes what prettier prints", async () => {
    const { generate, prettierFormat } = await fresh();
    // task.result's 2.0 fills an absent field in a ternary that breaks; the agent reads paths of its payloads.
    const files = { "idl/a.yaml": firstVersions(3, "demo.a"), "idl/b.yaml": firstVersions(2, "demo.b"), "idl/c.yaml": firstVersions(4, "demo.c"), ...AGENT };
    const root = tempProject("prettier-free", { "package.json": '{ "name": "p", "private": true }\n', ...files });
    const result = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(prettierFormat).not.toHaveBeenCalled();
    const out = join(root, "generated");
    const written = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(ts|json)$/.test(e.name));
    expect(written.map((e) => e.name)).toContain("booking.airport_code_resolver.ts");
    expect(written.length).toBeGreaterThan(20);
    for (const entry of written) {
      const path = join(entry.parentPath, entry.name);
      const text = readFileSync(path, "utf8");
      const parser = entry.name.endsWith(".json") ? "json" : "typescript";
      expect(text, relative(out, path)).toBe(await format(text, { ...PRETTIER_OPTIONS, parser }));
    }
  });

  it("is watched: a statement outside what treaty lays out goes to prettier (the control)", async () => {
    const { formatText, prettierFormat } = await fresh();
    expect(await formatText("const f = (x) => x;\n", "typescript")).toBe("const f = (x) => x;\n");
    expect(prettierFormat).toHaveBeenCalledTimes(1);
  });
});
