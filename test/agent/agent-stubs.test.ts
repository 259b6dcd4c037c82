// The hand-owned file beside an agent: created with `execute` and a stub per custom rule, extended
// when a rule is added, never rewritten; `--check` reports what is missing; it type-checks strictly.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const FILE = "idl/demo/finder.agent.ts";
const contracts = {
  "idl/demo/demo.query.yaml": `contract: demo.query
owner: demo
versions:
  "1.0":
    fields:
      ref: { type: string, pattern: "^X[0-9]+$" }
`,
  "idl/demo/demo.result.yaml": `contract: demo.result
owner: demo
versions:
  "1.0":
    fields:
      refs: { type: list, maxItems: 5, of: { type: string, pattern: "^X[0-9]+$" } }
`,
};
const agent = (rules: string): string => `agent: demo.finder
tool: finder
summary: Finds refs.
input: demo.query@1
output: demo.result@1
action: query
provides: ["refs[]"]
rules:
${rules}`;

const exported = (text: string): string[] => [...text.matchAll(/^export (?:async )?function ([\w$]+)/gm)].map((m) => m[1]!);

describe("an agent's hand-written file", () => {
  const project = createProject({ ...contracts, "idl/demo/finder.agent.yaml": agent("  - custom: refIsKnown\n") });
  afterAll(() => project.remove());

  it("is created with execute and each custom rule, typed by the generated module", async () => {
    const { status, stderr } = await project.treaty("generate");
    expect(status).toBe(0);
    expect(stderr).toContain(`treaty: added agent function execute to ${FILE}`);
    const text = project.read(FILE);
    expect(exported(text)).toEqual(["execute", "refIsKnown"]);
    expect(text).toContain("export async function execute(input: generated.Input): Promise<generated.Output> {");
    expect(text).toContain("export async function refIsKnown(input: generated.Input): Promise<treaty.AgentRuleResult> {");
    expect(project.typecheck(["generated/agents/index.ts", FILE])).toEqual([]);
  });

  it("keeps written bodies and adds a new rule's stub; --check reports a missing one at its rule", async () => {
    const written = project.read(FILE).replace(/(refIsKnown[^{]*\{\n)\s+throw[^\n]*\n/, '$1  return input.ref === "X1" ? { ok: true } : { ok: false, path: "/ref", message: "unknown" };\n');
    project.write(FILE, written);
    project.write("idl/demo/finder.agent.yaml", agent("  - custom: refIsKnown\n  - custom: refIsFresh\n"));
    const checked = await project.treaty("generate", "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(`idl/demo/finder.agent.yaml:10:5 - error missing-stub: agent function 'refIsFresh' is missing from ${FILE}`);
    expect((await project.treaty("generate")).status).toBe(0);
    const text = project.read(FILE);
    expect(text.startsWith(written.trimEnd())).toBe(true);
    expect(exported(text)).toEqual(["execute", "refIsKnown", "refIsFresh"]);
  });

  it("is wired into the generated module: rules call it, execute is it", async () => {
    const module = await project.clone().load<{ agent: { rules: { name: string; check(input: unknown): Promise<unknown> }[] } }>("generated/agents/demo.finder.ts");
    const known = module.agent.rules.find((r) => r.name === "refIsKnown")!;
    expect(await known.check({ ref: "X2" })).toEqual({ ok: false, path: "/ref", message: "unknown" });
  });

  it("is created again, with every stub, when deleted", async () => {
    rmSync(join(project.root, FILE));
    expect(existsSync(join(project.root, FILE))).toBe(false);
    expect((await project.treaty("generate")).status).toBe(0);
    expect(exported(project.read(FILE))).toEqual(["execute", "refIsKnown", "refIsFresh"]);
  });
});
