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
      for (const outcome of [registry.decode(contract, input, { from }), createRuntime(registry).decode(contract, JSON.stringify(input), { from })]) {
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

type Schema = Record<string, unknown>;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const admitsNull = (s: Schema): boolean => ((s["anyOf"] as Schema[] | undefined) ?? []).some((b) => b["type"] === "null");

/**
 * `value` as OpenAI strict must write it under `schema` (its projection): null for each absent
 * property at a `widened` pointer, walking into the `anyOf` branch the value is written in (Ajv
 * decides which). Undefined when the value cannot be written so: an absent property that may be
 * null but not for "absent" (optional and nullable) cannot be left out.
 */
const writeAsOpenAI = (ajv: Ajv2020, schema: Schema, value: unknown, widened: readonly string[], at = ""): unknown => {
  const branches = (schema["anyOf"] as Schema[] | undefined)?.filter((b) => b["type"] !== "null");
  if (branches) {
    for (const branch of branches) {
      const written = writeAsOpenAI(ajv, branch, value, widened, at);
      if (written !== undefined && ajv.validate(branch, written)) return written;
    }
    return undefined;
  }
  if (Array.isArray(value) && isRecord(schema["items"])) {
    const items = value.map((item) => writeAsOpenAI(ajv, schema["items"] as Schema, item, widened, `${at}/*`));
    return items.includes(undefined) ? undefined : items;
  }
  if (!isRecord(value) || !isRecord(schema["properties"])) return value;
  const properties = schema["properties"] as Record<string, Schema>;
  // Keys the schema does not name stay, for Ajv to reject in a branch that is closed.
  const out: Record<string, unknown> = { ...value };
  for (const [key, property] of Object.entries(properties)) {
    const pointer = `${at}/${key}`;
    if (key in value) {
      const written = value[key] === null ? null : writeAsOpenAI(ajv, property, value[key], widened, pointer);
      if (written === undefined) return undefined;
      out[key] = written;
    } else if (widened.includes(pointer)) out[key] = null;
    else if (admitsNull(property)) return undefined;
  }
  return out;
};

// Over every contract version of idl/ and the good fixtures: a valid value written the OpenAI way
// (under its projection, which Ajv checks) decodes (from: "openai") to what the value itself decodes to.
for (const target of targets) {
  const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
  describe(`${target.name}: decode from openai`, () => {
    for (const contract of project.contracts) {
      for (const version of contract.versions) {
        it(`${contract.name} ${version.version}`, async () => {
          const dir = join(target.out, contractDir(contract.name), versionId(version.version));
          const { registry: built } = (await import(join(target.out, "index.ts"))) as { registry: Registry<Record<string, ContractRegistration>> };
          const { check } = (await import(join(dir, "validator.ts"))) as { check: (v: unknown) => boolean };
          const llm = (await import(join(dir, "llm.ts"))) as { openai?: { widened: readonly string[]; response_format: { json_schema: { schema: Schema } } } };
          const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as Schema;
          const given = contract.envelope === "none" ? { version: version.version } : {};
          const runtime = createRuntime(built);
          const ajv = new Ajv2020({ strict: false });
          addFormats(ajv);
          const projected = llm.openai && ajv.compile(llm.openai.response_format.json_schema.schema);
          let written = 0;
          fc.assert(
            // As JSON: what a provider sends has no -0 or undefined.
            fc.property(arbitraryFor(schema).filter((v) => check(v)).map((v) => JSON.parse(JSON.stringify(v)) as unknown), (value) => {
              const plain = built.decode(contract.name, structuredClone(value), given);
              expect(plain.ok).toBe(true);
              if (!llm.openai || !projected) {
                expect(built.decode(contract.name, structuredClone(value), { ...given, from: "openai" })).toMatchObject({ kind: "unknown-provider" });
                return;
              }
              const sent = writeAsOpenAI(ajv, llm.openai.response_format.json_schema.schema, value, llm.openai.widened);
              // A map's entries, or an absent optional nullable field, cannot be written under the projection.
              if (sent === undefined || !projected(sent)) return;
              written++;
              const kept = structuredClone(sent);
              expect(built.decode(contract.name, sent, { ...given, from: "openai" })).toEqual(plain);
              expect(sent).toEqual(kept);
              expect(runtime.decode(contract.name, JSON.stringify(sent), { ...given, from: "openai" })).toEqual({ ...plain, repairs: [] });
            }),
            { numRuns: RUNS },
          );
          if (llm.openai) expect(written, "values written the OpenAI way").toBeGreaterThan(0);
        });
      }
    }
  });
}
