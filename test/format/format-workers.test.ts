// The built pipeline formats in worker threads once a run has more to format than it does in
// thread. A worker must run the formatter whatever flags its parent was started with (`node
// --input-type=module -e ...` made it run the parent's script, and `generate` never settled), and a
// worker that stops with work outstanding must fail that work, never leave it pending.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import { join, relative } from "node:path";
import { generate } from "../../src/pipeline.js";
import { expect, it } from "vitest";
import { tempProject } from "../support/temp-project.js";

const PIPELINE = join(import.meta.dirname, "../../dist/pipeline.js");

/** A contract wide enough that its output is formatted by the workers. */
const wide = (fields: number): string => {
  // Past Anthropic's request budgets (optional parameters): its tool is left out.
  const lines = ["contract: demo.wide", "owner: tests", "llm: { providers: [openai, gemini, mcp] }", "versions:", '  "1.0":', "    fields:"];
  for (let i = 0; i < fields; i++) lines.push(`      f${i}: { type: object, fields: { a: { type: string, maxLength: ${8 + i} }, b: { type: int, min: 0, max: ${i + 1}, optional: true } } }`);
  return `${lines.join("\n")}\n`;
};

it.runIf(existsSync(PIPELINE))("generate settles when called from `node --input-type=module -e`, its workers formatting as the main thread does", async () => {
  const root = tempProject("format-workers", { "package.json": `{ "treaty": { "tests": false } }\n`, "idl/demo.wide.yaml": wide(800) });
  const script = `
    import { generate } from ${JSON.stringify(PIPELINE)};
    const root = process.argv[1];
    const result = await generate({ root, idlDir: root + "/idl", outDir: root + "/generated", check: false, tests: false });
    console.log(JSON.stringify({ errors: result.diagnostics.filter((d) => d.severity === "error").length, created: result.report?.created.length }));
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, root], { encoding: "utf8", env: { ...process.env, TREATY_CACHE_DIR: join(root, ".cache") }, timeout: 120_000 });
  // 13: the top-level await never settled.
  expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: "" });
  const result = JSON.parse(child.stdout) as { errors: number; created: number };
  expect(result.errors).toBe(0);
  expect(result.created).toBeGreaterThan(5);
  // What the workers formatted (the validators' statements, and llm.ts's declarations of data, each
  // from 2 KB, and the JSON files) is what the source pipeline, which formats on its own thread, writes.
  const inThread = tempProject("format-in-thread", { "package.json": `{ "treaty": { "tests": false } }\n`, "idl/demo.wide.yaml": wide(800) });
  const again = await generate({ root: inThread, idlDir: join(inThread, "idl"), outDir: join(inThread, "generated"), check: false, tests: false });
  expect(again.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const tree = (dir: string): Record<string, string> =>
    Object.fromEntries((readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => [relative(dir, join(e.parentPath, e.name)), readFileSync(join(e.parentPath, e.name), "utf8")]));
  const built = tree(join(root, "generated"));
  expect(Object.keys(built).filter((f) => f.endsWith(".json")).length).toBeGreaterThan(3);
  expect(built).toEqual(tree(join(inThread, "generated")));
}, 150_000);
