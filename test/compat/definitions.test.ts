// `treaty compat` on schemas that only define types: definition by definition, with the ones added
// and removed, proved on three published MCP schemas (draft-07 `definitions`, then 2020-12 `$defs`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "../../dist/cli/main.js");
const MCP = join(import.meta.dirname, "../reference/agent-protocols/mcp");
const dir = mkdtempSync(join(tmpdir(), "treaty-compat-defs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const treaty = (...args: string[]) => spawnSync(process.execPath, [CLI, "compat", ...args], { cwd: dir, encoding: "utf8" });
const write = (name: string, value: unknown): string => {
  writeFileSync(join(dir, name), JSON.stringify(value));
  return name;
};

interface Report {
  backward: string;
  forward: string;
  definitions: { name: string; status: string; backward: string; forward: string; differences: { kind: string; path: string }[] }[];
  diagnostics?: { code: string; message: string }[];
}

/** Each pair of published MCP schemas, with a definition the later one changed and the fields it gained or lost. */
const PAIRS = [
  { from: "2025-06-18", to: "2025-11-25", defsKey: "definitions", changed: "Tool", kind: "field-added", paths: ["/icons", "/execution"], unchanged: 10 },
  // 2026-07-28 dropped the task extension's `execution` and let tool schemas be any JSON Schema object.
  { from: "2025-11-25", to: "2026-07-28", defsKey: "$defs", changed: "Tool", kind: "field-removed", paths: ["/execution", "/inputSchema/properties", "/outputSchema/properties"], unchanged: 20 },
] as const;

for (const pair of PAIRS) describe(`MCP ${pair.from} → ${pair.to}`, () => {
  const oldFile = join(MCP, `schema-${pair.from}.json`);
  const newFile = join(MCP, `schema-${pair.to}.json`);
  const oldDefs = (JSON.parse(readFileSync(oldFile, "utf8")) as Record<string, Record<string, unknown>>)[pair.defsKey]!;
  const newDefs = (JSON.parse(readFileSync(newFile, "utf8")) as { $defs: Record<string, unknown> }).$defs;
  const run = treaty(oldFile, newFile, "--format", "json");
  const report = JSON.parse(run.stdout) as Report;
  const named = (status: string) => report.definitions.filter((d) => d.status === status).map((d) => d.name);

  it("compares every definition of either schema, though neither has a root, and exits 0", () => {
    expect(run.status).toBe(0);
    expect(report.definitions.map((d) => d.name)).toEqual([...new Set([...Object.keys(oldDefs), ...Object.keys(newDefs)])].sort());
  });

  it("reports the definitions added and removed, as the two files' key sets differ", () => {
    expect(named("added")).toEqual(Object.keys(newDefs).filter((name) => !(name in oldDefs)).sort());
    expect(named("removed")).toEqual(Object.keys(oldDefs).filter((name) => !(name in newDefs)).sort());
    for (const d of report.definitions.filter((d) => d.status === "added")) expect([d.backward, d.forward]).toEqual(["compatible", "breaking"]);
    for (const d of report.definitions.filter((d) => d.status === "removed")) expect([d.backward, d.forward]).toEqual(["breaking", "compatible"]);
  });

  it("a definition written the same in both, with every definition it reaches, is unchanged; one edited is changed with its differences", () => {
    // Objects kept open, untagged unions, recursive types: none of it may make a difference out of nothing.
    const reach = (defs: Record<string, unknown>, name: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(name) || !(name in defs)) return seen;
      seen.add(name);
      for (const [, ref] of JSON.stringify(defs[name]).matchAll(/"#\/(?:\$defs|definitions)\/([^"]+)"/g)) reach(defs, ref!, seen);
      return seen;
    };
    const same = Object.keys(oldDefs).filter((name) => {
      const [before, after] = [reach(oldDefs, name), reach(newDefs, name)];
      return name in newDefs && before.size === after.size && [...before].every((d) => after.has(d) && JSON.stringify(oldDefs[d]) === JSON.stringify(newDefs[d]));
    });
    expect(same.length).toBeGreaterThan(pair.unchanged);
    expect(same.filter((name) => !named("unchanged").includes(name))).toEqual([]);
    const changed = report.definitions.find((d) => d.name === pair.changed)!;
    expect(changed.status).toBe("changed");
    expect(changed.differences.filter((d) => d.kind === pair.kind).map((d) => d.path)).toEqual(expect.arrayContaining([...pair.paths]));
  });

  it("the text report lists what changed and counts the rest", () => {
    const { stdout } = treaty(oldFile, newFile);
    expect(stdout).toMatch(new RegExp(`^${pair.changed} {2}changed {2}backward: \\w+ {2}forward: \\w+$`, "m"));
    expect(stdout).toMatch(new RegExp(`^ {2}${pair.paths[0]} {2}${pair.kind} {2}`, "m"));
    const counts = `${named("changed").length} changed, ${named("added").length} added, ${named("removed").length} removed`;
    expect(stdout.trim().split("\n").at(-1)).toMatch(new RegExp(`in ${report.definitions.length} definitions: ${counts}\\)$`));
  });
});

describe("definitions of small schemas", () => {
  const older = write("old-defs.json", {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: {
      Inner: { type: "integer" },
      Outer: { type: "object", properties: { inner: { $ref: "#/$defs/Inner" } }, required: ["inner"] },
      "a/b~c": { type: "string" },
      Gone: { type: "boolean" },
    },
  });
  const newer = write("new-defs.json", {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: {
      Inner: { type: "string" },
      Outer: { type: "object", properties: { inner: { $ref: "#/$defs/Inner" } }, required: ["inner"] },
      "a/b~c": { type: "string", maxLength: 3 },
      Extra: { type: "null" },
    },
  });
  const json = (...args: string[]) => {
    const run = treaty(...args, "--format", "json");
    return { status: run.status, stderr: run.stderr, report: JSON.parse(run.stdout) as Report };
  };

  it("a change to a referenced definition shows where it is referenced too", () => {
    const { report } = json(older, newer);
    const outer = report.definitions.find((d) => d.name === "Outer")!;
    expect(outer.status).toBe("changed");
    expect(outer.differences.map((d) => [d.path, d.kind])).toEqual([["/inner", "type-changed"]]);
  });

  it("names that need escaping in a JSON pointer are found", () => {
    const { report } = json(older, newer, "--defs", "a/b~c");
    expect(report.definitions.map((d) => [d.name, d.status, d.differences.map((x) => x.kind)])).toEqual([["a/b~c", "changed", ["constraint-narrowed"]]]);
  });

  it("--defs compares the named definitions only, also in schemas that have a root", () => {
    const rooted = (name: string, defs: object) => write(name, { type: "object", properties: { x: { $ref: "#/$defs/Inner" } }, $defs: defs });
    const a = rooted("rooted-old.json", { Inner: { type: "integer" }, Other: { type: "integer" } });
    const b = rooted("rooted-new.json", { Inner: { type: "number" }, Other: { type: "string" } });
    const { status, report } = json(a, b, "--defs", "Inner");
    expect(status).toBe(0);
    expect(report.definitions.map((d) => [d.name, d.status, d.backward, d.forward])).toEqual([["Inner", "changed", "compatible", "breaking"]]);
    // Without --defs, a schema with a root is compared at its root.
    expect(treaty(a, b).stdout).toContain("/x  type-widened");
  });

  it("a name neither schema defines, or a definition that cannot be imported, exits 1 and the others are still compared", () => {
    const broken = write("broken-defs.json", { $defs: { Inner: { $dynamicRef: "#meta" }, Outer: { type: "integer" } } });
    // In text, on stderr beside the report; in JSON, the report's diagnostics.
    expect(treaty(older, newer, "--defs", "Inner,Nope").stderr).toContain("error compat-not-comparable: cannot compare definition Nope: neither old-defs.json nor new-defs.json defines it");
    const missing = json(older, newer, "--defs", "Inner,Nope");
    expect([missing.status, missing.stderr]).toEqual([1, ""]);
    expect(missing.report.diagnostics).toMatchObject([{ code: "compat-not-comparable", message: "cannot compare definition Nope: neither old-defs.json nor new-defs.json defines it" }]);
    expect(missing.report.definitions.map((d) => d.name)).toEqual(["Inner"]);
    const unreadable = treaty(older, broken);
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toContain("error compat-not-comparable: cannot compare definition Inner of broken-defs.json: $dynamicRef is not supported");
    expect(unreadable.stderr).not.toMatch(/\n\s+at /);
    const unreadableJson = json(older, broken);
    expect([unreadableJson.status, unreadableJson.stderr]).toEqual([1, ""]);
    expect(unreadableJson.report.definitions.map((d) => d.name)).toContain("Outer");
    expect(unreadableJson.report.diagnostics).toMatchObject([{ code: "compat-not-comparable", message: expect.stringContaining("Inner of broken-defs.json") }]);
  });
});
