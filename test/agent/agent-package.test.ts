// The `package` setting with agents and hand-written adapters: the generated package builds with its
// own tsconfig (tsc, as `npm run build` does there), carrying the hand-written modules its code
// imports, and a consumer importing it by name gets agents that run and decode that goes through
// the custom adapter.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempProject } from "../support/temp-project.js";

const ROOT = join(import.meta.dirname, "../..");
const SLOW = 180_000;

const run = (command: string, args: string[], cwd: string) => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
};

describe("a generated package with agents", () => {
  // A CommonJS repo (no "type"), for which `treaty init` suggests the package setting, with
  // contracts in contracts/ and treaty installed: the hand-written files still build as ES modules.
  const root = tempProject("agent-package", {
    "package.json": '{ "name": "producer", "private": true }\n',
    "treaty.config.json": '{ "idl": "contracts", "out": "generated", "package": { "name": "@acme/contracts", "version": "1.0.0" } }\n',
  });
  for (const domain of ["booking", "agents"]) cpSync(join(ROOT, "idl", domain), join(root, "contracts", domain), { recursive: true });
  // An agent body that uses what real ones do, Node's globals and built-in modules (the producer's
  // @types/node): the package's own build compiles it as the producer's does.
  const body = join(root, "contracts/booking/offer_builder.agent.ts");
  writeFileSync(body, `${readFileSync(body, "utf8")}\nimport { randomUUID } from "node:crypto";\nexport const traced = (): string => {\n  console.debug("traced");\n  return randomUUID();\n};\n`);
  mkdirSync(join(root, "node_modules/@acme"), { recursive: true });
  symlinkSync(ROOT, join(root, "node_modules/treaty"), "dir");
  symlinkSync(join(ROOT, "node_modules/@types"), join(root, "node_modules/@types"), "dir");
  symlinkSync(join(root, "generated"), join(root, "node_modules/@acme/contracts"), "dir");

  it("builds with its own tsconfig, the agents' bodies and the custom adapters compiled in", async () => {
    expect((await cli(["generate"], root)).status).toBe(0);
    const tsconfig = readFileSync(join(root, "generated/tsconfig.json"), "utf8");
    expect(tsconfig).toContain('"rootDir": ".."');
    run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "generated"], root);
    const manifest = JSON.parse(readFileSync(join(root, "generated/package.json"), "utf8")) as { exports: Record<string, { types: string; default: string }> };
    expect(manifest.exports["./agents"]).toEqual({ types: "./dist/generated/agents/index.d.ts", default: "./dist/generated/agents/index.js" });
    // Every export the manifest names was built.
    for (const entry of Object.values(manifest.exports).filter((e) => typeof e === "object")) {
      for (const file of [entry.types, entry.default]) expect(existsSync(join(root, "generated", file)), file).toBe(true);
    }
    expect(existsSync(join(root, "generated/dist/contracts/booking/offer_builder.agent.js"))).toBe(true);
    expect(existsSync(join(root, "generated/dist/contracts/agents/agent.task.adapters.js"))).toBe(true);
    // The build's output is not treaty's: the generated files are still current.
    expect((await cli(["generate", "--check"], root)).status).toBe(0);
  }, SLOW);

  it("runs, imported by name with plain node: the agents through the gates, decode through a custom adapter", () => {
    const script = [
      'import { agents } from "@acme/contracts/agents";',
      'import { registry } from "@acme/contracts";',
      'import { createPipeline } from "treaty/runtime";',
      'import { createMemoryStore } from "treaty/store";',
      'const { ["booking.ticket_issuance"]: _, ...noApprovals } = agents;',
      'const intent = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };',
      "const session = createPipeline({ agents: noApprovals, intent, store: createMemoryStore() });",
      'const search = await session.run("booking.availability_search", { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 });',
      'const fabricated = await session.run("booking.offer_builder", { contract: "booking.offer_selection", version: "1.0", offer_id: "OF-ZZZ999", passenger_names: ["Ada Lovelace"] });',
      'const held = await session.run("booking.offer_builder", { contract: "booking.offer_selection", version: "1.0", offer_id: search.output.offers[0].offer_id, passenger_names: ["Ada Lovelace"] });',
      'const task = { contract: "agent.task", version: "2.0", task_id: "SUB-42", parent_task_id: "ROOT-1", goal: "Summarise.", inputs: { artifact_refs: [], evidence_refs: [] }, constraints: [], budget: { deadline_ms: 1500 }, output_contract: "research.answer.v2" };',
      'const decoded = registry.decode("agent.task", task);',
      "console.log(JSON.stringify({ agents: Object.keys(agents), search: search.ok, fabricated: fabricated.ok ? 'ok' : fabricated.error.code, held: held.ok && held.output.contract, deadline: decoded.ok && decoded.value.budget }));",
    ].join("\n");
    const printed = JSON.parse(run(process.execPath, ["--input-type=module", "--eval", script], root)) as unknown;
    expect(printed).toEqual({
      agents: ["booking.airport_code_resolver", "booking.availability_search", "booking.offer_builder", "booking.ticket_issuance"],
      search: true,
      fabricated: "CONSISTENCY_VIOLATED",
      held: "booking.order",
      // 2.0's 1,500 ms in 3.0's whole seconds: the hand-written adapter ran.
      deadline: { deadline_s: 2 },
    });
  }, SLOW);
});
