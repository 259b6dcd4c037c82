// An agent names `contract@MAJOR`: its paths are checked against, and its payloads validated as, the
// newest minor of that major. A path a later minor added is valid; an input an earlier minor's
// producer still sends is refused at schema_in, at its version, before any side effect.
import { afterAll, describe, expect, it } from "vitest";
import { createPipeline, type AgentContract } from "../../src/runtime/index.js";
import { createMemoryStore } from "../../src/store/index.js";
import { createProject } from "../adapt/project.js";

const contracts = {
  "idl/demo/demo.query.yaml": `contract: demo.query
owner: demo
versions:
  "1.0":
    fields:
      ref: { type: string, pattern: "^X[0-9]+$" }
  "1.1":
    changes:
      - add: tag
        type: { type: string, pattern: "^T[0-9]+$" }
        optional: true
`,
  "idl/demo/demo.result.yaml": `contract: demo.result
owner: demo
versions:
  "1.0":
    fields:
      refs: { type: list, maxItems: 5, of: { type: string, pattern: "^X[0-9]+$" } }
  "1.1":
    changes:
      - add: tags
        type: { type: list, maxItems: 5, of: { type: string, pattern: "^T[0-9]+$" } }
        optional: true
`,
  // `tags[]` is 1.1's only: the agent names the major, so it is there.
  "idl/demo/finder.agent.yaml": `agent: demo.finder
tool: finder
input: demo.query@1
output: demo.result@1
action: query
provides: ["refs[]", "tags[]"]
`,
  "idl/demo/finder.agent.ts": `import type * as generated from "../../generated/agents/demo.finder.js";
export async function execute(input: generated.Input): Promise<generated.Output> {
  return { contract: "demo.result", version: "1.1", refs: [input.ref], tags: input.tag === undefined ? [] : [input.tag] };
}
`,
  // Both ends of the link are 1.1's only.
  "idl/demo/tagger.agent.yaml": `agent: demo.tagger
tool: tagger
input: demo.query@1
output: demo.result@1
action: query
consumes:
  - { path: tag, from: demo.finder, as: "tags[]" }
`,
  "idl/demo/tagger.agent.ts": `import type * as generated from "../../generated/agents/demo.tagger.js";
export async function execute(input: generated.Input): Promise<generated.Output> {
  return { contract: "demo.result", version: "1.1", refs: [input.ref] };
}
`,
};

describe("an agent over a contract with two minors", () => {
  const project = createProject(contracts);
  afterAll(() => project.remove());

  it("checks its paths against the newest minor: paths 1.1 added are valid", async () => {
    const { status, stderr } = await project.treaty("check");
    expect(status).toBe(0);
    expect(stderr).not.toMatch(/error|warning/);
  });

  it("fails a path no minor of the major has, naming the newest", async () => {
    const bad = project.clone();
    bad.write("idl/demo/tagger.agent.yaml", contracts["idl/demo/tagger.agent.yaml"].replace('as: "tags[]"', 'as: "labels[]"'));
    bad.write("idl/demo/finder.agent.yaml", contracts["idl/demo/finder.agent.yaml"].replace('"tags[]"', '"labels[]"'));
    const { status, stderr } = await bad.treaty("check");
    expect(status).toBe(1);
    expect(stderr).toMatch(/^idl\/demo\/finder\.agent\.yaml:6:\d+ - error unknown-field: .*demo\.result 1\.1/m);
    bad.remove();
  });

  it("validates payloads as the newest minor: an earlier minor's input is refused at schema_in, at /version, before execute", async () => {
    expect((await project.treaty("generate")).status).toBe(0);
    const { agents } = await project.load<{ agents: Record<"demo.finder" | "demo.tagger", AgentContract> }>("generated/agents/index.ts");
    expect([agents["demo.finder"].input.version, agents["demo.finder"].output.version]).toEqual(["1.1", "1.1"]);
    let executed = 0;
    const finder = { ...agents["demo.finder"], execute: (input: unknown) => (executed++, agents["demo.finder"].execute(input)) };
    const session = createPipeline({ agents: { ...agents, "demo.finder": finder }, store: createMemoryStore() });
    const old = await session.run("demo.finder", { contract: "demo.query", version: "1.0", ref: "X1" });
    expect(old.ok ? "ok" : [old.gate, old.error.code, old.issues.map((i) => i.path)]).toEqual(["schema_in", "SCHEMA_INVALID", ["/version"]]);
    expect(executed).toBe(0);
    // The same call as 1.1 runs, and what only 1.1 carries links the two agents.
    expect(await session.run("demo.finder", { contract: "demo.query", version: "1.1", ref: "X1", tag: "T7" })).toMatchObject({ ok: true, output: { tags: ["T7"] } });
    expect(await session.run("demo.tagger", { contract: "demo.query", version: "1.1", ref: "X2", tag: "T7" })).toMatchObject({ ok: true });
    expect(await session.run("demo.tagger", { contract: "demo.query", version: "1.1", ref: "X2", tag: "T8" })).toMatchObject({ ok: false, gate: "consistency" });
  });
});
