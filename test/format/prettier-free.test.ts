// A cold run over ordinary contracts (several versions, adapters derived from their changes, LLM
// projections with null mappings) never calls prettier: every statement is laid out by treaty,
// which saves loading prettier and warming it up in each run. What it writes is still exactly what
// prettier prints. An agent is the control: its file goes to prettier.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { format } from "prettier";
import { parseDocument } from "yaml";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PRETTIER_OPTIONS } from "../../src/format/prettier-format.js";
import { tempProject } from "../support/temp-project.js";

// Test files share a worker's modules (vitest.config.ts): `run` imports the pipeline afresh, so that
// it formats through this mock.
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

/** `files` generated into a project of their own; where it is, and how often prettier was called. */
const run = async (files: Record<string, string>): Promise<{ root: string; prettierCalls: number }> => {
  vi.resetModules();
  const { generate } = await import("../../src/generate.js");
  const { prettierFormat } = await import("../../src/format/prettier-format.js");
  const root = tempProject("prettier-free", { "package.json": '{ "name": "p", "private": true }\n', ...files });
  const result = await generate({ root, idlDir: join(root, "idl"), outDir: join(root, "generated"), check: false });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { root, prettierCalls: vi.mocked(prettierFormat).mock.calls.length };
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
  it("of contracts of several versions each never calls prettier, and writes what prettier prints", async () => {
    // task.result's 2.0 fills an absent field in a ternary that breaks.
    const { root, prettierCalls } = await run({ "idl/a.yaml": firstVersions(3, "demo.a"), "idl/b.yaml": firstVersions(2, "demo.b"), "idl/c.yaml": firstVersions(4, "demo.c") });
    expect(prettierCalls).toBe(0);
    const out = join(root, "generated");
    const written = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(ts|json)$/.test(e.name));
    expect(written.length).toBeGreaterThan(20);
    for (const entry of written) {
      const path = join(entry.parentPath, entry.name);
      const text = readFileSync(path, "utf8");
      const parser = entry.name.endsWith(".json") ? "json" : "typescript";
      expect(text, relative(out, path)).toBe(await format(text, { ...PRETTIER_OPTIONS, parser }));
    }
  });

  it("calls prettier for a statement treaty does not lay out itself (the control)", async () => {
    // An agent as data holds functions with block bodies and template literals: outside code-layout's subset.
    const idl = (path: string): string => readFileSync(join(ROOT, "idl/booking", path), "utf8");
    const { prettierCalls } = await run(Object.fromEntries(["booking.airport_query.yaml", "booking.airport.yaml", "airport_code_resolver.agent.yaml", "airport_code_resolver.agent.ts"].map((f) => [`idl/booking/${f}`, idl(f)])));
    expect(prettierCalls).toBeGreaterThan(0);
  });
});
