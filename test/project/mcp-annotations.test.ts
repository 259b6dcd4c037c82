// An MCP tool's annotations come from what the contract declares, never guessed: a command's
// `effect`, and an idempotency key. Each declaration, and its absence, shows in the projection.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { projectVersion } from "../../src/project/project.js";

const root = mkdtempSync(join(tmpdir(), "treaty-mcp-annotations-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The MCP annotations of a one-version contract with `head` at its top and `fields` in 1.0. */
const annotations = (name: string, head: string, fields: string): unknown => {
  const dir = join(root, name, "idl");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.yaml`), `contract: ${name}\nowner: demo-team\n${head}versions:\n  "1.0":\n    fields:\n${fields}`);
  const project = compile({ root: join(root, name), idlDir: dir });
  expect(project.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const contract = project.value!.contracts[0]!;
  const projected = projectVersion(project.value!, contract, contract.versions[0]!, "mcp").value as unknown as { request: { tool: { annotations?: unknown } } };
  return projected.request.tool.annotations;
};

const ID = '      id: { type: string, pattern: "^T-[0-9]+$", maxLength: 20 }\n';
const KEY = '      id: { type: string, pattern: "^T-[0-9]+$", maxLength: 20, role: idempotency_key }\n';

it("a command's effect gives readOnlyHint and destructiveHint; an idempotency key gives idempotentHint", () => {
  expect(annotations("demo.lookup", "kind: command\neffect: read-only\n", ID)).toEqual({ readOnlyHint: true });
  expect(annotations("demo.add", "kind: command\neffect: additive\n", KEY)).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
  expect(annotations("demo.purge", "kind: command\neffect: destructive\n", ID)).toEqual({ readOnlyHint: false, destructiveHint: true });
});

it("without a declaration there is no hint: a command is not read-only, nothing else is said", () => {
  expect(annotations("demo.act", "kind: command\n", ID)).toEqual({ readOnlyHint: false });
  expect(annotations("demo.done", "kind: event\n", ID)).toBeUndefined();
});
