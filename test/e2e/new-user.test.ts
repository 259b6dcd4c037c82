// What a new user does, end to end, outside this repository, following the README literally:
// treaty packed once, installed from the producer's vendor/ (the README's own install commands),
// `treaty init` (which makes the package an ES module one), codegen, a consumer that type-checks
// against the generated code and a top-level-await script that runs under node, the scaffolded CI
// workflow's own steps in a fresh clone that has no treaty checkout beside it (`npm ci` from
// vendor/), a new minor version whose LLM projections their referees accept (and whose OpenAI-style
// replies decode, with the dropped maxLength still enforced), a contract over a
// provider limit, an edit to a published version, and the generated package imported by name
// from a second workspace package and run with plain node, agents and their bodies included; two
// agents over the app's own contracts (codegen's stubs written by hand), with both optional peers installed, driven by a scripted model
// through runAgentLoop and by the MCP SDK's client: each refusal before the side effect, the events
// read back from the SQLite file; and MCP's 2026-07-28 schema brought in with `treaty import` as the
// README shows, generated into that package, every official example validated by its generated
// validator and by Ajv on the source, and decoded and encoded back unchanged.
// Cost: npm runs offline-preferred with a cache kept between runs (os.tmpdir()); the CI clone runs
// beside the later steps; bins the README does not name are run directly, not through npx.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LLM_PROVIDERS as PROVIDERS, type LlmProvider } from "../../src/ir/model.js";
import { expectRefereesAccept } from "../support/referees.js";
import { schemaOf } from "../support/provider-writer.js";
import type { CasesFile } from "../../src/testing/index.js";

const ROOT = join(import.meta.dirname, "../..");
const WORK = mkdtempSync(join(tmpdir(), "treaty-e2e-"));
// The README's layout: the producer repo beside a checkout of treaty, where `npm pack` ran.
const TREATY = join(WORK, "treaty");
const APP = join(WORK, "app");
// A CI runner's checkout: nothing of treaty's beside it.
const CI = join(WORK, "runner", "app");
const CONTRACT = "idl/orders/order.placed.yaml";
const GENERATED_PACKAGE = "@acme/orders-contracts";
const README = readFileSync(join(ROOT, "README.md"), "utf8");

// Installing from the registry is most of the cost; a cache outside the temp dir makes reruns fast.
const NPM_CACHE = join(tmpdir(), "treaty-e2e-npm-cache");

/** The environment a user's shell has: none of the npm or vitest variables of the run around this test. */
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST|TREATY_|NODE_OPTIONS$)/i.test(key)));
  return { ...env, npm_config_cache: NPM_CACHE, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", npm_config_prefer_offline: "true" };
};

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const failure = (command: string, args: readonly string[], status: number, result: Run & { error?: unknown }): Error =>
  new Error(`${command} ${args.join(" ")} exited ${result.status} (expected ${status})\n${result.stdout}\n${result.stderr}\n${result.error ?? ""}`);

/** Runs a command in `cwd`; fails the test with its output when it does not exit with `status`. */
const run = (command: string, args: readonly string[], { cwd = APP, status = 0 } = {}): Run => {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== status) throw failure(command, args, status, result);
  return result;
};

/** `run`, without waiting: for steps that need nothing from those running meanwhile. */
const runAsync = (command: string, args: readonly string[], { cwd = APP, status = 0 } = {}): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === status ? resolve({ status: code, stdout, stderr }) : reject(failure(command, args, status, { status: code, stdout, stderr }))));
  });

const npm = (args: readonly string[], options?: { cwd?: string; status?: number }): Run => run("npm", args, options);
/** A shell command line, as a user types it from the README or CI runs it from the workflow. */
const sh = (line: string, options?: { cwd?: string; status?: number }): Run => run("sh", ["-ec", line], options);
/** A bin installed in the app, run without npx's startup. */
const bin = (name: string, args: readonly string[], options?: { cwd?: string; status?: number }): Run => run(join(APP, "node_modules/.bin", name), args, options);

/** Whether npm warned of treaty's install scripts (npm 11: `npm warn install-scripts   treaty@0.1.0 (prepare: ...)`). */
const treatyScriptWarning = (stderr: string): boolean => /^npm warn.*\btreaty@\S+ \((preinstall|install|postinstall|prepare):/m.test(stderr);

const read = (path: string): string => readFileSync(join(APP, path), "utf8");
const writeFile = (path: string, text: string): void => {
  mkdirSync(join(APP, path, ".."), { recursive: true });
  writeFileSync(join(APP, path), text);
};
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The README's producer steps. */
const producerSteps = (): string => {
  const start = README.indexOf("\n## Using treaty in a producer repo\n");
  return README.slice(start, README.indexOf("\n## ", start + 1));
};

/**
 * `npm pack` in a copy of this repository (its `prepack` cleans and builds, which must not pull
 * dist/ from under the tests running beside this one); the copy's node_modules links to this
 * repository's packages (not to its caches).
 */
const packTreaty = (): void => {
  for (const path of ["package.json", "tsconfig.json", "README.md", "src", "templates", "idl/idl.schema.json"]) {
    cpSync(join(ROOT, path), join(TREATY, path), { recursive: true });
  }
  mkdirSync(join(TREATY, "node_modules"));
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry !== ".cache") symlinkSync(join(ROOT, "node_modules", entry), join(TREATY, "node_modules", entry));
  }
  npm(["pack"], { cwd: TREATY });
};

// Timeouts are generous: the first run downloads from the registry, CI has two cores.
const SLOW = 15 * 60_000;

beforeAll(() => {
  packTreaty();
  mkdirSync(APP);
}, SLOW);

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** The scaffolded workflow's steps in the CI clone, started once the app is committed. */
let ciRun: Promise<Run[]> | undefined;

const commit = (message: string): void => {
  run("git", ["add", "."]);
  run("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "--quiet", "-m", message]);
};

describe("a new producer repo, following the README", () => {
  it("step 1 installs treaty from vendor/, without an install-script warning", () => {
    const install = /```sh\n([\s\S]*?)```/.exec(producerSteps())![1]!.replace(/^ +/gm, "");
    expect(install).toContain("vendor/");
    const { stderr } = sh(install);
    expect(treatyScriptWarning(stderr), stderr).toBe(false);
    expect(JSON.parse(read("package.json"))).toEqual({ dependencies: { treaty: "file:vendor/treaty-0.1.0.tgz" } });
  }, SLOW);

  it("treaty init scaffolds it and makes the package an ES module one, saying so", () => {
    const { stderr } = run("npx", ["treaty", "init"]);
    for (const path of ["treaty.config.json", CONTRACT, "tsconfig.json", "vitest.config.mts", ".github/workflows/contracts.yml"]) {
      expect(stderr).toContain(`created ${path}`);
    }
    expect(stderr).toMatch(/^updated package\.json \(.*"type": "module": no "type"/m);
    expect(JSON.parse(read("package.json"))).toMatchObject({ type: "module", dependencies: { treaty: "file:vendor/treaty-0.1.0.tgz" } });
  }, SLOW);

  it("installs, generates, and publishes 1.0 in a commit", () => {
    npm(["install"]);
    npm(["run", "codegen"]);
    expect(readdirSync(join(APP, "generated/order.placed"))).toEqual(["adapters.ts", "index.ts", "order.placed.cases.json", "order.placed.test.ts", "registration.ts", "v1_0"]);
    // init's .gitignore keeps node_modules/ out; vendor/, the lock file and generated/ are committed.
    // The consumer's build output below is this app's own to ignore.
    expect(read(".gitignore")).toContain("node_modules/\n");
    writeFile(".gitignore", `${read(".gitignore")}dist/\n`);
    run("git", ["init", "--quiet", "--initial-branch", "main"]);
    commit("contracts 1.0");
  }, SLOW);

  it("a new minor version passes check --against the commit and regenerates; a fresh clone runs the CI workflow", () => {
    const contract = read(CONTRACT);
    const added = [
      '  "1.1":',
      "    changes:",
      "      - add: note",
      "        optional: true",
      "        type: { type: string, maxLength: 500 }",
      "      - add: paid_at",
      "        optional: true",
      "        type: timestamp",
      "      - add: shipped_at",
      "        optional: true",
      "        type: timestamp",
      "    rules:",
      "      - before: [paid_at, shipped_at]",
      "",
    ].join("\n");
    writeFile(CONTRACT, contract.replace("\nexamples:", `${added}\nexamples:`));
    bin("treaty", ["check", "--against", "HEAD"]);
    npm(["run", "codegen"]);
    expect(readdirSync(join(APP, "generated/order.placed"))).toContain("v1_1");
    // The new version has its own cases, compatibility cases reading 1.0 into 1.1 among them; CI runs them.
    const cases = JSON.parse(read("generated/order.placed/order.placed.cases.json")) as CasesFile;
    expect(cases.versions).toEqual(["1.0", "1.1"]);
    expect(cases.cases.filter((c) => c.versions.includes("1.1")).map((c) => c.title)).toContain("rejects note above maxLength 500");
    expect(cases.compatibility.map((c) => c.version)).toContain("1.0");
    commit("contracts 1.1");
    expect(run("git", ["ls-files"]).stdout.split("\n")).toEqual(expect.arrayContaining(["vendor/treaty-0.1.0.tgz", "package-lock.json", "generated/index.ts"]));
    // A CI checkout: what is committed, and no treaty checkout beside it.
    run("git", ["clone", "--quiet", APP, CI], { cwd: WORK });
    const workflow = parse(readFileSync(join(CI, ".github/workflows/contracts.yml"), "utf8")) as { jobs: Record<string, { steps: { run?: string }[] }> };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run] : [])));
    expect(steps[0]).toBe("npm ci");
    expect(steps).toContain("npx vitest run");
    // The steps run one after another in the clone, while the app goes on; the last test awaits them.
    ciRun = steps.reduce<Promise<Run[]>>(async (done, step) => [...(await done), await runAsync("sh", ["-ec", step], { cwd: CI })], Promise.resolve([]));
    // A rejection is reported where it is awaited, not as an unhandled one meanwhile.
    ciRun.catch(() => undefined);
  }, SLOW);

  it("the example's four LLM projections pass their referees; a contract over a provider limit fails check at its line", () => {
    // 1.1 has optional fields, maxLength, numeric bounds, an enum with meanings and a before rule.
    const projection = (version: string, provider: LlmProvider): Record<string, any> => {
      const { $comment, ...fragment } = JSON.parse(read(`generated/order.placed/${version}/llm/${provider}.json`)) as Record<string, any>;
      expect($comment).toMatch(/@generated by treaty/);
      return fragment;
    };
    for (const version of ["v1_0", "v1_1"]) for (const provider of PROVIDERS) expectRefereesAccept(provider, projection(version, provider));
    const openai = projection("v1_1", "openai");
    expect(openai.widened).toEqual(expect.arrayContaining(["/note", "/paid_at", "/shipped_at"]));
    const currency = (provider: LlmProvider) => (schemaOf(provider, projection("v1_1", provider)) as { properties: Record<string, any> }).properties["currency"];
    expect(currency("openai").anyOf).toContainEqual({ const: "EUR", description: "Euro." });
    expect(currency("gemini").description).toContain("EUR: Euro.");
    const entries = (provider: LlmProvider) => (projection("v1_1", provider).ledger as { path: string; constraint: string }[]).map((e) => `${e.path} ${e.constraint}`);
    expect(entries("openai")).toContain("/note maxLength");
    expect(entries("anthropic")).toEqual(expect.arrayContaining(["/total_cents min", "/items/*/quantity min", "/items maxItems"]));
    for (const provider of PROVIDERS) expect(entries(provider)).toContain("/shipped_at rule.before");
    // check reports them without a finding: one line of counts, and every ledger with --projections.
    const checked = bin("treaty", ["check", "--projections"]).stderr;
    expect(checked).toContain("  1.1 anthropic: ");
    expect(checked).toMatch(/^treaty: LLM projections \(contracts per provider\): openai 1, anthropic 1, gemini 1, mcp 1; /m);

    // Eleven levels of objects: deeper than OpenAI's strict mode takes.
    const deep = "idl/orders/order.deep.yaml";
    const levels = Array.from({ length: 11 }, (_, i) => `${"    ".repeat(i)}      level${i}:\n${"    ".repeat(i)}        type: object\n${"    ".repeat(i)}        fields:`);
    writeFile(deep, ["contract: order.deep", "owner: orders-team", "versions:", '  "1.0":', "    fields:", ...levels, `${"    ".repeat(11)}      leaf: { type: bool }`, ""].join("\n"));
    const { stderr } = bin("treaty", ["check"], { status: 1 });
    // Reported at the field whose object is the eleventh level (the root is the first).
    const lastLevel = read(deep).split("\n").findIndex((line) => line.trim() === "level9:") + 1;
    expect(stderr).toMatch(new RegExp(`^idl/orders/order\\.deep\\.yaml:${lastLevel}:\\d+ - error llm-limit-exceeded: openai allows at most 10 levels of object nesting`, "m"));
    rmSync(join(APP, deep));
  }, SLOW);

  it("a consumer type-checks against the generated code, and a top-level-await script runs under node", () => {
    writeFile(
      "src/consumer.ts",
      [
        'import { decode } from "../generated/index.js";',
        'import { check, errors, type OrderPlacedV1_0 } from "../generated/order.placed/v1_0/index.js";',
        "",
        'const order: OrderPlacedV1_0 = { contract: "order.placed", version: "1.0", order_id: "ORD-1", currency: "EUR", total_cents: 100, items: [{ sku: "A-1", quantity: 2 }] };',
        "const input: unknown = JSON.parse(JSON.stringify(order));",
        'export const currency: "EUR" | "USD" | undefined = check(input) ? input.currency : undefined;',
        "export const problems: readonly string[] = errors(input).map((issue) => issue.path);",
        'const decoded = decode("order.placed", input);',
        "export const id: string | undefined = decoded.ok ? decoded.value.order_id : undefined;",
        "// And the compiler catches a consumer that misuses the types: tsc fails on an unused directive.",
        "// @ts-expect-error GBP is not a Currency",
        'export const wrong: OrderPlacedV1_0["currency"] = "GBP";',
        "",
      ].join("\n"),
    );
    // The README's runtime: an async hook makes decode a promise, awaited at the top level (ES modules only).
    writeFile(
      "src/main.ts",
      [
        'import { createRuntime } from "treaty/runtime";',
        'import { registry } from "../generated/index.js";',
        "",
        "const runtime = createRuntime(registry, { policy: async () => ({ ok: true }) });",
        'const text = JSON.stringify({ contract: "order.placed", version: "1.0", order_id: "ORD-9", currency: "USD", total_cents: 1, items: [{ sku: "C-3", quantity: 1 }] });',
        'const outcome = await runtime.decode("order.placed", text);',
        "// What OpenAI's strict mode sends for 1.1: null for each optional field left out.",
        'const reply = { contract: "order.placed", version: "1.1", order_id: "ORD-7", currency: "EUR", total_cents: 5, items: [{ sku: "B-2", quantity: 1 }], note: null, paid_at: null, shipped_at: null };',
        'const fromOpenAI = await runtime.decode("order.placed", JSON.stringify(reply), { from: "openai" });',
        "// maxLength is not in OpenAI's projection (it is in the ledger): the contract still enforces it.",
        'const tooLong = await runtime.decode("order.placed", JSON.stringify({ ...reply, note: "x".repeat(501) }), { from: "openai" });',
        "console.log(JSON.stringify({",
        "  ok: outcome.ok,",
        "  id: outcome.ok ? outcome.value.order_id : undefined,",
        "  openai: fromOpenAI.ok ? fromOpenAI.value : fromOpenAI.error.code,",
        "  tooLong: tooLong.ok ? \"accepted\" : tooLong.issues.map((issue) => `${issue.path} ${issue.code}`),",
        "}));",
        "",
      ].join("\n"),
    );
    // One tsc run type-checks the consumer, the script and generated/ (1.0, 1.1, the tests), and emits them for node.
    bin("tsc", ["--noEmit", "false", "--outDir", "dist"]);
    expect(JSON.parse(run("node", ["dist/src/main.js"]).stdout)).toEqual({
      ok: true,
      id: "ORD-9",
      // The canonical 1.1 value: the nulls OpenAI had to send for absent fields are absent again.
      openai: { contract: "order.placed", version: "1.1", order_id: "ORD-7", currency: "EUR", total_cents: 5, items: [{ sku: "B-2", quantity: 1 }] },
      tooLong: ["/note maxLength"],
    });
  }, SLOW);

  it("two agents over its own contracts, driven through the loop and over MCP: refusals before any side effect, the events in SQLite", () => {
    const schema = "# yaml-language-server: $schema=../../node_modules/treaty/idl/idl.schema.json";
    const agentSchema = "# yaml-language-server: $schema=../../node_modules/treaty/idl/agent.schema.json";
    const orderId = '{ type: string, pattern: "^ORD-[0-9]{1,8}$", description: An order id. }';
    writeFile("idl/orders/order.lookup.yaml", [schema, "contract: order.lookup", "summary: Look an order up by its id.", "owner: orders-team", "kind: command", "versions:", '  "1.0":', "    fields:", `      order_id: ${orderId}`, ""].join("\n"));
    writeFile("idl/orders/order.status.yaml", [schema, "contract: order.status", "summary: An order as it stands.", "owner: orders-team", "kind: result", "versions:", '  "1.0":', "    fields:", `      order_id: ${orderId}`, "      total_cents: { type: int, min: 0, description: What the customer paid. }", ""].join("\n"));
    writeFile(
      "idl/orders/refund.request.yaml",
      [schema, "contract: refund.request", "summary: Refund an order in full; the money leaves and cannot be taken back.", "owner: orders-team", "kind: command", "versions:", '  "1.0":', "    fields:", '      request_id: { type: string, pattern: "^RF-[0-9]{1,8}$", role: idempotency_key, description: One id per refund asked for. }', `      order_id: ${orderId}`, ""].join("\n"),
    );
    writeFile(
      "idl/orders/refund.issued.yaml",
      [schema, "contract: refund.issued", "summary: A refund sent to the customer.", "owner: orders-team", "kind: result", "versions:", '  "1.0":', "    fields:", `      order_id: ${orderId}`, "      amount_cents: { type: int, min: 0, description: The amount refunded. }", "      confidence: { type: number, min: 0, max: 1, description: How sure the refunder is that the refund went out. }", ""].join("\n"),
    );
    writeFile("idl/orders/order_lookup.agent.yaml", [agentSchema, "agent: orders.order_lookup", "tool: order_lookup", "summary: Looks an order up by its id.", "owner: orders-team", "input: order.lookup@1", "output: order.status@1", "action: query", "provides: [order_id]", ""].join("\n"));
    writeFile(
      "idl/orders/order_refund.agent.yaml",
      [agentSchema, "agent: orders.order_refund", "tool: order_refund", "summary: Refunds an order in full; it cannot be undone.", "owner: orders-team", "input: refund.request@1", "output: refund.issued@1", "action: mutation_irreversible", "confidence: { threshold: 0.95, field: confidence }", "consumes:", "  - { path: order_id, from: orders.order_lookup, as: order_id }", ""].join("\n"),
    );
    npm(["run", "codegen"]);
    expect(readdirSync(join(APP, "generated/agents")).sort()).toEqual(["index.ts", "orders.order_lookup.ts", "orders.order_refund.ts"]);
    // codegen created the hand-written stubs, each throwing until written; the user writes the bodies.
    for (const [stub, body] of [
      ["idl/orders/order_lookup.agent.ts", 'return { contract: "order.status", version: "1.0", order_id: input.order_id, total_cents: 4200 };'],
      ["idl/orders/order_refund.agent.ts", 'executions += 1;\n  return { contract: "refund.issued", version: "1.0", order_id: input.order_id, amount_cents: 4200, confidence: 0.99 };'],
    ] as const) {
      const text = read(stub);
      expect(text).toMatch(/export async function execute\(input: generated\.Input\): Promise<generated\.Output> \{\n\s*throw new [\w.]*AgentNotImplemented\([^\n]*\);\n\}/);
      const written = text.replace(/throw new [\w.]*AgentNotImplemented\([^\n]*\);/, body);
      writeFile(stub, stub.includes("refund") ? `${written}\n/** How many refunds went out: the side effect a refusal must not reach. */\nexport let executions = 0;\n` : written);
    }
    // Both optional peers in one install, as the README names them.
    const sdk = /`@modelcontextprotocol\/sdk` (\d+)\.x/.exec(README)![1]!;
    expect(README).toContain("npm install better-sqlite3@12");
    npm(["install", "better-sqlite3@12", `@modelcontextprotocol/sdk@${sdk}`]);
    writeFile(
      "src/agents.ts",
      [
        'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
        'import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";',
        'import { createApprovals, createPipeline, runAgentLoop, type AnthropicMessage, type ApprovalToken, type ToolUseBlock } from "treaty/runtime";',
        'import { createMcpServer } from "treaty/mcp";',
        'import { openSqliteStore } from "treaty/store-sqlite";',
        'import { agents } from "../generated/agents/index.js";',
        'import * as refund from "../idl/orders/order_refund.agent.js";',
        "",
        'const FILE = "var/events.sqlite";',
        'const approvals = createApprovals({ secret: "a host secret of at least thirty-two bytes, kept out of sinks" });',
        'const lookup = { contract: "order.lookup", version: "1.0", order_id: "ORD-1" };',
        'const request = { contract: "refund.request", version: "1.0", request_id: "RF-1", order_id: "ORD-1" };',
        'const fabricated = { ...request, order_id: "ORD-666" };',
        "// The calls a model makes, in order: a made-up id, the lookup, the refund without an approval, with one, and with it again.",
        'const script = [["order_refund", fabricated], ["order_lookup", lookup], ["order_refund", request], ["order_refund", request], ["order_refund", request]] as const;',
        "/** The human's answers, one per refund call: no, no, yes, and the token already used. */",
        "const approver = () => {",
        '  const answers = ["no", "no", "yes", "replay"];',
        "  let token: ApprovalToken | undefined;",
        "  return ({ session, agent, input }: { session: string; agent: string; input: unknown }): ApprovalToken | undefined => {",
        '    if (agent !== "orders.order_refund") return undefined;',
        "    const answer = answers.shift();",
        '    if (answer === "yes") token = approvals.issue({ session, agent, input, ttl: 60_000 });',
        '    return answer === "yes" || answer === "replay" ? token : undefined;',
        "  };",
        "};",
        "const executed: number[] = [];",
        "",
        "// (1) A scripted model through the loop.",
        "const store = openSqliteStore(FILE);",
        "const loopSession = createPipeline({ agents, store, approvals });",
        "const seen: unknown[] = [];",
        "let turn = 0;",
        "const outcome = await runAgentLoop({",
        "  session: loopSession,",
        "  agents,",
        "  maxTurns: 8,",
        '  messages: [{ role: "user", content: "Refund order ORD-1." }],',
        "  approve: approver(),",
        "  model: async (messages: readonly AnthropicMessage[]) => {",
        "    const last = messages.at(-1)!;",
        '    if (turn > 0 && typeof last.content !== "string") for (const block of last.content) if (block.type === "tool_result") seen.push(JSON.parse(block.content as string));',
        "    executed.push(refund.executions);",
        "    const call = script[turn];",
        "    turn += 1;",
        '    return call ? [{ type: "tool_use", id: `call-${turn}`, name: call[0], input: call[1] } satisfies ToolUseBlock] : [{ type: "text", text: "Refunded." }];',
        "  },",
        "});",
        "",
        "// (2) The MCP SDK's own client, in another session over the same file.",
        "const mcpSession = createPipeline({ agents, store, approvals });",
        "const server = createMcpServer({ session: mcpSession, agents, approve: approver() });",
        "const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();",
        'const client = new Client({ name: "app", version: "1.0.0" });',
        "await server.connect(serverSide);",
        "await client.connect(clientSide);",
        "const listed = (await client.listTools()).tools.map((tool) => tool.name);",
        "const mcp: unknown[] = [];",
        "const mcpExecuted: number[] = [];",
        "for (const [name, args] of script) {",
        "  // A refund of its own: RF-1 succeeded in the loop's session, and would be replayed from the store without running.",
        '  const call = name === "order_refund" ? { ...args, request_id: "RF-2" } : args;',
        "  // The output, or the refusal (isError), as the JSON of the text block.",
        "  const result = await client.callTool({ name, arguments: call });",
        "  mcp.push({ isError: result.isError ?? false, ...JSON.parse((result.content as { text: string }[])[0]!.text) });",
        "  mcpExecuted.push(refund.executions);",
        "}",
        "await client.close();",
        "store.close();",
        "",
        "// The file, opened again.",
        "const events = openSqliteStore(FILE);",
        "const summarize = (session: string) => events.query({ session }).map((event) => `${event.agent} ${event.outcome} ${event.code ?? \"\"}`.trim()).sort();",
        "const brief = (result: any) => result.ok === false ? `${result.gate} ${result.code} ${result.class}` : `ok ${result.contract}`;",
        "console.log(JSON.stringify({",
        "  stop: outcome.stop,",
        "  turns: outcome.turns,",
        "  loop: seen.map(brief),",
        "  executed,",
        "  listed,",
        "  mcp: mcp.map(brief),",
        "  mcpExecuted,",
        "  leaked: JSON.stringify(seen.concat(mcp)).includes(\"ORD-666\"),",
        "  events: { loop: summarize(loopSession.id), mcp: summarize(mcpSession.id), count: events.aggregate({}).count },",
        "}));",
        "events.close();",
        "",
      ].join("\n"),
    );
    mkdirSync(join(APP, "var"), { recursive: true });
    bin("tsc", ["--noEmit", "false", "--outDir", "dist"]);
    const printed = JSON.parse(run("node", ["dist/src/agents.js"]).stdout) as unknown;
    const refusals = ["consistency CONSISTENCY_VIOLATED INVALID_INPUT", "ok order.status", "approval APPROVAL_MISSING PERMISSION_DENIED", "ok refund.issued", "approval APPROVAL_REPLAYED PERMISSION_DENIED"];
    // One event per call, refused or not (sorted: calls within one millisecond are ordered by their random ids).
    const events = [
      "orders.order_lookup ok",
      "orders.order_refund INVALID_INPUT CONSISTENCY_VIOLATED",
      "orders.order_refund PERMISSION_DENIED APPROVAL_MISSING",
      "orders.order_refund PERMISSION_DENIED APPROVAL_REPLAYED",
      "orders.order_refund ok",
    ];
    expect(printed).toEqual({
      stop: "end_turn",
      turns: 6,
      loop: refusals,
      // Before each model turn: the refund ran once, on the approved call, and never on a refused one.
      executed: [0, 0, 0, 0, 1, 1],
      listed: ["order_lookup", "order_refund"],
      mcp: refusals,
      mcpExecuted: [1, 1, 1, 2, 2],
      leaked: false,
      events: { loop: events, mcp: events, count: 10 },
    });
  }, SLOW);

  it("an edit to a published version fails check --against HEAD at its location", () => {
    const published = read(CONTRACT);
    const edited = published.replace("maxLength: 32\n        role: idempotency_key", "maxLength: 64\n        role: idempotency_key");
    expect(edited).not.toBe(published);
    writeFile(CONTRACT, edited);
    const { stderr } = bin("treaty", ["check", "--against", "HEAD"], { status: 1 });
    const located = /^idl\/orders\/order\.placed\.yaml:(\d+):(\d+) - error published-version-changed: .*1\.0/m.exec(stderr);
    expect(located, stderr).not.toBeNull();
    // It points into version 1.0, at or after its key.
    const versionLine = published.split("\n").indexOf('  "1.0":') + 1;
    expect(Number(located![1])).toBeGreaterThanOrEqual(versionLine);
    writeFile(CONTRACT, published);
  }, SLOW);
});

describe("the generated package in a workspace", () => {
  it("a second workspace package imports it by name, type-checks and runs with plain node", () => {
    writeFile("treaty.config.json", json({ idl: "idl", out: "generated", package: { name: GENERATED_PACKAGE, version: "1.0.0" } }));
    const manifest = JSON.parse(read("package.json")) as Record<string, unknown>;
    writeFile("package.json", json({ ...manifest, workspaces: ["generated", "consumer"] }));
    writeFile(
      "consumer/package.json",
      json({ name: "consumer", version: "0.0.0", private: true, type: "module", dependencies: { [GENERATED_PACKAGE]: "1.0.0" } }),
    );
    writeFile(
      "consumer/tsconfig.json",
      json({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: [], rootDir: "src", outDir: "dist" },
        include: ["src"],
      }),
    );
    writeFile(
      "consumer/src/main.ts",
      [
        `import { decode } from "${GENERATED_PACKAGE}";`,
        `import { versions, type OrderPlaced } from "${GENERATED_PACKAGE}/order.placed";`,
        // The agents, with the bodies written in the app's idl/, built into the package.
        `import { agents } from "${GENERATED_PACKAGE}/agents";`,
        'import { createPipeline } from "treaty/runtime";',
        'import { createMemoryStore } from "treaty/store";',
        "",
        'const payload = { contract: "order.placed", version: "1.0", order_id: "ORD-7", currency: "USD", total_cents: 5, items: [{ sku: "B-2", quantity: 1 }] };',
        'const decoded = decode("order.placed", payload);',
        "if (!decoded.ok) throw new Error(decoded.error.message_safe);",
        "const order: OrderPlaced = decoded.value;",
        "const session = createPipeline({ agents: { \"orders.order_lookup\": agents[\"orders.order_lookup\"] }, store: createMemoryStore() });",
        'const lookup = await session.run("orders.order_lookup", { contract: "order.lookup", version: "1.0", order_id: "ORD-1" });',
        "const looked = lookup.ok ? lookup.output.total_cents : lookup.error.code;",
        'export const summary = { order: order.order_id, path: decoded.path, valid: versions["1.1"].check(order), known: Object.keys(versions), agents: Object.keys(agents), looked };',
        "",
      ].join("\n"),
    );
    // The README's commands for a workspace.
    npm(["run", "codegen"]);
    expect(JSON.parse(read("generated/package.json"))).toMatchObject({ name: GENERATED_PACKAGE, type: "module" });
    npm(["install"]);
    npm(["run", "build", "--workspace", GENERATED_PACKAGE]);
    // The build's output is not treaty's: the generated files are still current.
    bin("treaty", ["generate", "--check"]);
    bin("tsc", ["-p", "consumer"]);
    const script = 'const { summary } = await import("./consumer/dist/main.js"); console.log(JSON.stringify(summary));';
    const printed = JSON.parse(run("node", ["--input-type=module", "--eval", script]).stdout) as unknown;
    expect(printed).toEqual({ order: "ORD-7", path: ["1.0", "1.1"], valid: true, known: ["1.0", "1.1"], agents: ["orders.order_lookup", "orders.order_refund"], looked: 4200 });
  }, SLOW);
});

describe("a schema someone else wrote, imported as the README's Importing a schema shows", () => {
  it("MCP 2026-07-28 imported, generated and built: every official example passes its generated validator and Ajv, and decodes and encodes back unchanged", () => {
    // The README's own first import line, run as written: the schema sits in the app as schema.json.
    // Every object definition becomes a contract (131), not only the 88 with examples (--defs): the
    // whole import must compile and build, and it costs about a minute on two cores.
    const section = README.slice(README.indexOf("\n### Importing a schema\n"), README.indexOf("\n## What is generated\n"));
    const line = /^npx treaty import schema\.json [^#\n]*/m.exec(section)![0].trim();
    expect(line).toBe("npx treaty import schema.json --out idl/mcp");
    const source = join(ROOT, "test/reference/agent-protocols/mcp");
    cpSync(join(source, "schema-2026-07-28.json"), join(APP, "schema.json"));
    cpSync(join(source, "examples-2026-07-28"), join(APP, "mcp-examples"), { recursive: true });
    const schema = JSON.parse(read("schema.json")) as { $defs: Record<string, { type?: unknown }> };
    const objects = Object.values(schema.$defs).filter((definition) => definition.type === "object").length;
    const imported = sh(line).stderr;
    expect(imported).toMatch(/^0 errors, \d+ warnings$/m);
    expect(imported).toContain(`treaty: imported ${objects} contracts into idl/mcp`);
    npm(["run", "codegen"]);
    // The app is the workspace of the step before: generated/ is @acme/orders-contracts, built for plain node.
    npm(["run", "build", "--workspace", GENERATED_PACKAGE]);
    // Ajv as a user gets it, the version treaty's own tests use.
    const devDependencies = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;
    npm(["install", "--workspace", "consumer", `ajv@${devDependencies["ajv"]}`, `ajv-formats@${devDependencies["ajv-formats"]}`]);
    writeFile(
      "consumer/mcp-examples.mjs",
      [
        'import { readdirSync, readFileSync } from "node:fs";',
        'import Ajv2020 from "ajv/dist/2020.js";',
        'import addFormats from "ajv-formats";',
        `import { decode, encode } from "${GENERATED_PACKAGE}";`,
        "",
        'const ajv = new Ajv2020({ strict: false });',
        "addFormats(ajv);",
        'ajv.addSchema(JSON.parse(readFileSync("schema.json", "utf8")), "mcp");',
        "// Each imported contract's header names the definition it came from.",
        "const contractOf = new Map();",
        'for (const file of readdirSync("idl/mcp")) {',
        '  const from = /^# Imported by treaty \\S+ from schema\\.json#\\/\\$defs\\/(\\S+) /m.exec(readFileSync(`idl/mcp/${file}`, "utf8"));',
        '  if (from) contractOf.set(from[1], file.replace(/\\.yaml$/, ""));',
        "}",
        "const results = [];",
        'for (const file of readdirSync("mcp-examples").sort()) {',
        '  const type = file.split("__")[0];',
        '  const example = JSON.parse(readFileSync(`mcp-examples/${file}`, "utf8"));',
        "  const contract = contractOf.get(type);",
        `  const { versions } = await import(\`${GENERATED_PACKAGE}/\${contract}\`);`,
        "  // No envelope: decode reads the payload as the contract's only version, 1.0.",
        "  const decoded = decode(contract, example);",
        '  const encoded = decoded.ok ? encode(contract, decoded.value, "1.0") : decoded;',
        "  results.push({",
        "    file,",
        "    contract,",
        '    treaty: versions["1.0"].check(example),',
        "    ajv: ajv.validate({ $ref: `mcp#/$defs/${type}` }, example),",
        "    stripped: decoded.ok ? decoded.stripped : decoded.kind,",
        "    decoded: decoded.value,",
        "    encoded: encoded.ok ? encoded.value : encoded.kind,",
        "  });",
        "}",
        "console.log(JSON.stringify(results));",
        "",
      ].join("\n"),
    );
    const results = JSON.parse(run("node", ["consumer/mcp-examples.mjs"]).stdout) as { file: string; contract?: string }[];
    const files = readdirSync(join(APP, "mcp-examples")).sort();
    expect(files.length).toBeGreaterThan(120);
    expect(results).toEqual(
      files.map((file) => {
        const example = JSON.parse(read(`mcp-examples/${file}`)) as unknown;
        return { file, contract: expect.stringMatching(/^mcp\.[a-z0-9_]+$/), treaty: true, ajv: true, stripped: [], decoded: example, encoded: example };
      }),
    );
  }, SLOW);
});

describe("the CI clone", () => {
  it("npm ci installs treaty from vendor/ without an install-script warning; generated/ is current, check passes, the generated tests pass", async () => {
    expect(ciRun).toBeDefined();
    const results = await ciRun!;
    expect(treatyScriptWarning(results[0]!.stderr), results[0]!.stderr).toBe(false);
    expect(JSON.parse(readFileSync(join(CI, "node_modules/treaty/package.json"), "utf8"))).toMatchObject({ name: "treaty" });
    // vitest colours its summary; what it says is the same without.
    const vitest = results.at(-1)!.stdout.replace(/\x1b\[[0-9;]*m/g, "");
    expect(vitest).toContain("generated/order.placed/order.placed.test.ts");
    expect(vitest).toMatch(/Tests +\d+ passed \(\d+\)/);
    expect(vitest).not.toMatch(/failed/);
  }, SLOW);
});
