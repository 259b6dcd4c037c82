// Decoding what a provider sent (`from`): the nulls OpenAI writes for absent fields go, by the
// mapping of the version the reply is read as, and then the contract's own validator decides, so a
// constraint the projection dropped still fails at its path. Referees: Ajv on the provider's
// projection (what the provider would let through), the generated operation.error validator.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import * as taskResultV1_2 from "../../generated/task.result/v1_2/index.js";
import { check as isOperationError } from "../../generated/operation.error/v1_0/validator.js";
import { contractDir, versionId } from "../../src/ir/names.js";
import { compile } from "../../src/pipeline.js";
import { createRuntime, type ContractRegistration, type Failure, type Registry } from "../../src/runtime/index.js";
import { reaskMessage } from "../../src/runtime/redact.js";
import { arbitraryFor } from "../support/arbitrary.js";
import { schemaOf, writeUnder } from "../support/provider-writer.js";
import { targets } from "../support/targets.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const RUNS = Number(process.env["TREATY_PROPERTY_RUNS"] ?? 100);

/** The seed's task.result 1.2 reply as OpenAI strict writes it: every optional field present, null for absent. */
const openaiReply = (overrides: Record<string, unknown> = {}) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: "Done.", claims: [{ claim_id: "c1", text: "A claim.", evidence_refs: ["src://doc/1"] }] },
  quality: null,
  usage: null,
  ...overrides,
});

const failed = (outcome: { ok: boolean }): Failure => {
  if (outcome.ok) throw new Error(`expected a failure: ${JSON.stringify(outcome)}`);
  return outcome as Failure;
};

/** What OpenAI would let through: Ajv over the schema OpenAI is given. */
const openaiAccepts = (() => {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  return ajv.compile(taskResultV1_2.llm.openai.response_format.json_schema.schema);
})();

describe("decode from a provider", () => {
  it("an OpenAI reply with nulls for absent fields decodes to the canonical value", () => {
    const { quality, usage, ...plain } = openaiReply();
    expect(openaiAccepts(openaiReply())).toBe(true);
    const expected = registry.decode("task.result", structuredClone(plain));
    expect(expected.ok).toBe(true);
    const reply = openaiReply();
    expect(registry.decode("task.result", reply, { from: "openai" })).toEqual(expected);
    expect(reply, "the reply itself is not changed").toEqual(openaiReply());
    expect(createRuntime(registry).decode("task.result", JSON.stringify(openaiReply()), { from: "openai" })).toEqual({ ...expected, repairs: [] });
    // Without `from`, the nulls are what the contract rejects.
    expect(failed(registry.decode("task.result", openaiReply())).issues.map((i) => [i.path, i.code])).toEqual([["/quality", "type"], ["/usage", "type"]]);
  });

  it("a reply breaking the maxLength the OpenAI projection dropped fails with maxLength at its path", () => {
    expect(taskResultV1_2.llm.openai.ledger).toContainEqual(expect.objectContaining({ path: "/task_id", constraint: "maxLength" }));
    const reply = openaiReply({ task_id: `TASK-${"1".repeat(64)}` });
    expect(openaiAccepts(reply)).toBe(true);
    const failure = failed(createRuntime(registry).decode("task.result", JSON.stringify(reply), { from: "openai" }));
    expect(failure).toMatchObject({ kind: "schema", stage: "schema", error: { class: "INVALID_INPUT", code: "SCHEMA_INVALID" } });
    expect(failure.issues.map((i) => [i.path, i.code])).toEqual([["/task_id", "maxLength"]]);
  });

  it("applies the mapping of the version the reply is read as", () => {
    // 1.1 widened `quality`; 1.0 has no such field, so its null there stays and is an unknown key
    // (a path 1.0 does not name is masked).
    const { usage, ...v1_1 } = openaiReply({ version: "1.1" });
    expect(registry.decode("task.result", v1_1, { from: "openai" })).toMatchObject({ ok: true, readAs: "1.1" });
    const v1_0 = { ...v1_1, version: "1.0" };
    expect(failed(registry.decode("task.result", v1_0, { from: "openai" })).issues.map((i) => [i.path, i.code])).toEqual([["/*", "unknown"]]);
  });

  it("is the identity for a provider whose projection widened nothing", () => {
    // Anthropic keeps optional fields optional: a null there is the model's mistake, which the contract rejects.
    expect(taskResultV1_2.llm.anthropic.widened).toEqual([]);
    const { quality, usage, ...plain } = openaiReply();
    expect(registry.decode("task.result", plain, { from: "anthropic" })).toMatchObject({ ok: true });
    expect(failed(registry.decode("task.result", openaiReply(), { from: "anthropic" })).issues.map((i) => i.path)).toEqual(["/quality", "/usage"]);
  });

  it("a provider the contract is not projected to is UNKNOWN_PROVIDER, listing those it is", () => {
    // operation.error keeps gemini and mcp only (`llm: { providers: [...] }`).
    const error = { contract: "operation.error", version: "1.0", error_id: "ERR-1", code: "X", class: "TRANSIENT", retryable: true, message_safe: "x", source: "a.b" };
    for (const [contract, input, from, known] of [
      ["operation.error", error, "openai", ["gemini", "mcp"]],
      ["task.result", openaiReply(), "nope", ["openai", "anthropic", "gemini", "mcp"]],
    ] as const) {
      const runtime = createRuntime(registry);
      for (const outcome of [registry.decode(contract, input, { from }), runtime.decode(contract, JSON.stringify(input), { from }), runtime.decode(contract, input, { from })]) {
        const failure = failed(outcome);
        expect(failure).toMatchObject({ kind: "unknown-provider", stage: "envelope", known, error: { class: "UNSUPPORTED_VERSION", code: "UNKNOWN_PROVIDER", retryable: false } });
        expect(isOperationError(failure.error)).toBe(true);
      }
    }
  });

  it("withRepair re-asks with the dropped constraint's path, and decodes the next OpenAI reply", async () => {
    const replies = [openaiReply({ task_id: `TASK-${"1".repeat(64)}` }), openaiReply()];
    const requests: { attempt: number; reask?: string }[] = [];
    const answer = await createRuntime(registry).withRepair({
      contract: "task.result",
      from: "openai",
      produce: (request) => {
        requests.push(request);
        return JSON.stringify(replies[request.attempt - 1]);
      },
    });
    expect(answer).toMatchObject({ ok: true, readAs: "1.2" });
    const issues = [{ path: "/task_id", code: "maxLength", message: expect.any(String), expected: expect.any(String) }];
    expect(answer.attempts.map((a) => [a.outcome, a.issues.map((i) => [i.path, i.code])])).toEqual([["INVALID_INPUT", [["/task_id", "maxLength"]]], ["ok", []]]);
    expect(requests[1]!.reask).toBe(reaskMessage("task.result", "1.2", answer.attempts[0]!.issues, taskResultV1_2.shape));
    expect(answer.attempts[0]!.issues).toEqual(issues);
  });
});

describe("decode a map a provider wrote as entries", async () => {
  // demo.order 1.0: `attributes` is an optional map of numbers >= 0, which closed-object providers get as entries.
  const { registry: orders } = (await import("../fixtures/good-refs-strip/expected/index.js")) as { registry: Registry<Record<string, ContractRegistration>> };
  const { llm } = (await import("../fixtures/good-refs-strip/expected/demo.order/v1_0/index.js")) as { llm: Record<string, any> };
  const order = { contract: "demo.order", version: "1.0", order_id: "O-1", placed_at: "2030-01-01T00:00:00Z", items: [{ sku: "A1", quantity: 1 }] };
  const entries = (...pairs: [string, unknown][]) => pairs.map(([key, value]) => ({ key, value }));

  it("turns the entries back into the object", () => {
    const sent = { ...order, attributes: entries(["weight", 2], ["size", 1]), failure: null };
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    expect(ajv.validate(llm["openai"].response_format.json_schema.schema, sent)).toBe(true);
    const decoded = orders.decode("demo.order", sent, { from: "openai" });
    expect(decoded).toEqual(orders.decode("demo.order", { ...order, attributes: { weight: 2, size: 1 } }));
    expect(decoded.ok).toBe(true);
    expect(llm["fromOpenAI"](sent)).toEqual({ ...order, attributes: { weight: 2, size: 1 } });
  });

  it("a key named twice fails with unique at the map, as the ledger says", () => {
    for (const provider of ["openai", "anthropic"]) {
      expect(llm[provider].ledger).toContainEqual(expect.objectContaining({ path: "/attributes", constraint: "unique" }));
      const sent = { ...order, attributes: entries(["weight", 2], ["weight", 3]), ...(provider === "openai" && { failure: null }) };
      for (const failure of [failed(orders.decode("demo.order", sent, { from: provider })), failed(createRuntime(orders).decode("demo.order", sent, { from: provider }))]) {
        expect(failure).toMatchObject({ kind: "schema", error: { code: "SCHEMA_INVALID" } });
        expect(failure.issues.map((i) => [i.path, i.code])).toEqual([["/attributes", "unique"]]);
      }
    }
  });

  it("a value breaking a bound Anthropic does not take fails at its key", () => {
    expect(llm["anthropic"].ledger).toContainEqual(expect.objectContaining({ path: "/attributes/*", constraint: "min" }));
    const sent = { ...order, attributes: entries(["weight", -1]) };
    for (const failure of [failed(orders.decode("demo.order", sent, { from: "anthropic" })), failed(createRuntime(orders).decode("demo.order", sent, { from: "anthropic" }))]) {
      // The key is masked: attributes does not declare its keys names (`keys: { sensitivity: none }`).
      expect(failure.issues.map((i) => [i.path, i.code])).toEqual([["/attributes/*", "min"]]);
    }
  });
});

type Schema = Record<string, unknown>;

// Over every contract version of idl/ and the good fixtures, for each provider it is projected to:
// a valid value written the provider's way (under its projection, which Ajv checks) decodes with
// `from` to what the contract value it stands for decodes to.
for (const target of targets) {
  const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
  describe(`${target.name}: decode from openai`, () => {
    for (const contract of project.contracts) {
      for (const version of contract.versions) {
        it(`${contract.name} ${version.version}`, async () => {
          const dir = join(target.out, contractDir(contract.name), versionId(version.version));
          const { registry: built } = (await import(join(target.out, "index.ts"))) as { registry: Registry<Record<string, ContractRegistration>> };
          const { check } = (await import(join(dir, "validator.ts"))) as { check: (v: unknown) => boolean };
          const llm = (await import(join(dir, "llm.ts"))) as Record<string, Record<string, any>>;
          const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as Schema;
          const given = contract.envelope === "none" ? { version: version.version } : {};
          const runtime = createRuntime(built);
          const ajv = new Ajv2020({ strict: false });
          addFormats(ajv);
          const providers = contract.llm.providers.map((provider) => {
            const projected = schemaOf(provider, llm[provider]!);
            return { provider, projected, accepts: ajv.compile(projected), widened: llm[provider]!["widened"] as string[], written: 0 };
          });
          const unkept = (["openai", "anthropic", "gemini", "mcp"] as const).filter((p) => !contract.llm.providers.includes(p));
          fc.assert(
            // As JSON: what a provider sends has no -0 or undefined.
            fc.property(arbitraryFor(schema).filter((v) => check(v)).map((v) => JSON.parse(JSON.stringify(v)) as unknown), (value) => {
              for (const p of unkept) expect(built.decode(contract.name, value, { ...given, from: p })).toMatchObject({ kind: "unknown-provider" });
              for (const p of providers) {
                const under = writeUnder(ajv, p.projected, value, p.widened);
                if (under === undefined || !p.accepts(under.sent)) continue;
                p.written++;
                const meant = built.decode(contract.name, under.meant, given);
                expect(meant.ok).toBe(true);
                const kept = structuredClone(under.sent);
                expect(built.decode(contract.name, under.sent, { ...given, from: p.provider })).toEqual(meant);
                expect(under.sent, "the reply itself is not changed").toEqual(kept);
                expect(runtime.decode(contract.name, JSON.stringify(under.sent), { ...given, from: p.provider })).toEqual({ ...meant, repairs: [] });
                // A JS value takes the runtime's quick path: mapped, then checked and copied by `read`.
                expect(runtime.decode(contract.name, under.sent, { ...given, from: p.provider })).toEqual({ ...meant, repairs: [] });
                expect(under.sent, "the reply itself is not changed").toEqual(kept);
              }
            }),
            { numRuns: RUNS },
          );
          for (const p of providers) expect(p.written, `values written for ${p.provider}`).toBeGreaterThan(0);
        });
      }
    }
  });
}
