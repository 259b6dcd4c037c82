// `treaty compat` as a user runs it: a report with both verdicts, exit 0; exit 1 on unreadable input.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "../../dist/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "treaty-compat-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const treaty = (...args: string[]) => spawnSync(process.execPath, [CLI, "compat", ...args], { cwd: dir, encoding: "utf8" });
const write = (name: string, value: unknown): string => {
  writeFileSync(join(dir, name), typeof value === "string" || value instanceof Buffer ? value : JSON.stringify(value));
  return name;
};

const older = write("old.json", { type: "object", properties: { a: { type: "integer" } }, required: ["a"], additionalProperties: false });
const newer = write("new.json", {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "string" } },
  required: ["a", "b"],
  additionalProperties: false,
});

it("prints each difference with both verdicts and a summary, and exits 0 even when breaking", () => {
  const { status, stdout } = treaty(older, newer);
  expect(status).toBe(0);
  expect(stdout).toContain("/a  type-widened  backward: compatible  forward: breaking");
  expect(stdout).toContain("/b  field-added  backward: breaking  forward: breaking");
  expect(stdout.trim().split("\n").at(-1)).toBe("BACKWARD: breaking  FORWARD: breaking  (2 differences)");
});

it("--format json prints the verdicts and the differences", () => {
  const report = JSON.parse(treaty(older, newer, "--format", "json").stdout);
  expect(report).toMatchObject({ backward: "breaking", forward: "breaking" });
  expect(report.differences.map((d: { kind: string }) => d.kind)).toEqual(["type-widened", "field-added"]);
});

it("an input that cannot be read, parsed or imported exits 1 with the reason and no stack trace", () => {
  const cases: [string, RegExp][] = [
    ["missing.json", /^missing\.json:1:1 - error read-failed: cannot read missing\.json: no such file$/m],
    // Where it breaks, as a contract's or a config's error says it.
    [write("broken.json", '{\n  "type": "object",\n  "properties": { "a": }\n}'), /^broken\.json:3:24 - error json-syntax: not valid JSON: expected a JSON value, found "}"$/m],
    [write("latin.json", Buffer.from('{"description": "caf\u00e9"}', "latin1")), /^latin\.json:1:21 - error read-failed: cannot read latin\.json: not UTF-8 text/m],
    [write("dynamic.json", { $dynamicRef: "#meta" }), /^error compat-not-comparable: cannot compare dynamic\.json: \$dynamicRef is not supported$/m],
  ];
  for (const [file, message] of cases) {
    const { status, stderr } = treaty(older, file);
    expect(status).toBe(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  }
});

it("with --format json, what cannot be compared is one JSON document on stdout, never text", () => {
  const failed = treaty("missing.json", write("broken2.json", "{ \"type\": }"), "--format", "json");
  expect([failed.status, failed.stderr]).toEqual([1, ""]);
  expect(JSON.parse(failed.stdout)).toMatchObject({
    errors: 2,
    diagnostics: [
      { code: "read-failed", loc: { file: "missing.json", line: 1, col: 1 } },
      { code: "json-syntax", loc: { file: "broken2.json", line: 1, col: 11 } },
    ],
  });
  const dynamic = treaty(older, write("dynamic2.json", { $dynamicRef: "#meta" }), "--format", "json");
  expect([dynamic.status, dynamic.stderr]).toEqual([1, ""]);
  expect(JSON.parse(dynamic.stdout).diagnostics).toMatchObject([{ code: "compat-not-comparable" }]);
  // A definition that cannot be compared is reported inside the report, beside the ones that could.
  const defs = write("defs.json", { $defs: { A: { type: "string" } } });
  const partial = treaty(defs, defs, "--defs", "A,B", "--format", "json");
  expect([partial.status, partial.stderr]).toEqual([1, ""]);
  const report = JSON.parse(partial.stdout);
  expect(report.definitions.map((d: { name: string }) => d.name)).toEqual(["A"]);
  expect(report.diagnostics).toMatchObject([{ code: "compat-not-comparable", message: expect.stringContaining("definition B") }]);
});

it("an unknown --format is a usage error", () => {
  expect(treaty(older, newer, "--format", "yaml").status).toBe(2);
});
