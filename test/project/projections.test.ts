// Every projection of every version (idl/ and the good fixtures) against its referees: the
// provider SDKs' own schema code, a checker of the documented rules, the MCP schema's `Tool`; then
// properties: a contract value written the provider's way is valid under the projection and maps
// back to itself; a projection value is valid under the contract or fails only where the ledger says.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contractDir, versionId } from "../../src/ir/names.js";
import { compile } from "../../src/pipeline.js";
import type { Issue } from "../../src/runtime/index.js";
import { arbitraryFor } from "../support/arbitrary.js";
import { addInt64StringFormat } from "../support/int64-format.js";
import { expectRefereesAccept } from "../support/referees.js";
import { schemaOf, writeUnder } from "../support/provider-writer.js";
import { targets } from "../support/targets.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ROOT = join(import.meta.dirname, "../..");
const RUNS = Number(process.env["TREATY_PROPERTY_RUNS"] ?? 200);

type Schema = Record<string, unknown>;
type Llm = Record<string, unknown>;
interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): Issue[];
}

const matches = (pattern: string, path: string, within = false): boolean => {
  const a = pattern.split("/");
  const b = path.split("/");
  return (within ? a.length <= b.length : a.length === b.length) && a.every((seg, i) => seg === "*" || seg === b[i]);
};

for (const target of targets) {
  const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
  // A project whose contracts all opt out of every provider has no projection to check.
  if (!project.contracts.some((c) => c.llm.providers.length > 0)) continue;
  describe(`${target.name}: LLM projections`, () => {
    for (const contract of project.contracts) {
      for (const version of contract.versions) {
        const dir = join(target.out, contractDir(contract.name), versionId(version.version));
        for (const provider of contract.llm.providers) {
          it(`${contract.name} ${version.version} ${provider}`, async () => {
            const llm = (await import(join(dir, "llm.ts"))) as Llm;
            const validator = (await import(join(dir, "validator.ts"))) as Validator;
            const projection = llm[provider] as Record<string, any>;
            const { $comment, ...json } = JSON.parse(readFileSync(join(dir, "llm", `${provider}.json`), "utf8")) as Schema;
            expect(json).toEqual(projection);
            // llm.ts declares OpenAI's schema once, for the response format and the tool alike.
            if (provider === "openai") expect(projection.tool.function.parameters).toBe(projection.response_format.json_schema.schema);
            // Referees: the SDKs' own transforms need to change nothing; the documented rules hold; MCP's Tool schema.
            expectRefereesAccept(provider, projection);
            const schema = schemaOf(provider, projection);

            // ownProperties: a field named `constructor` is present only as the value's own key, as in JSON.
            const ajv = new Ajv2020({ strict: false, allErrors: true, ownProperties: true });
            addFormats(ajv);
            addInt64StringFormat(ajv);
            const projected = ajv.compile(schema);
            const ledger = projection.ledger as { path: string; constraint: string }[];
            const mapping = (llm["from"] as Record<string, ((v: unknown, issues: Issue[]) => unknown) | null>)[provider];
            const fromProvider = (v: unknown, issues: Issue[] = []): unknown => (mapping ? mapping(v, issues) : v);
            const widened = projection.widened as string[];

            const contractSchema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as Schema;
            let written = 0;
            fc.assert(
              fc.property(arbitraryFor(contractSchema).filter((v) => validator.check(v)), (value) => {
                const under = writeUnder(ajv, schema, value, widened);
                if (under === undefined) return;
                written++;
                if (!projected(under.sent)) expect.fail(`projection rejects ${JSON.stringify(under.sent)}: ${JSON.stringify(projected.errors)}`);
                // Optional fields that are also nullable cannot be left out: their null keeps its meaning.
                expect(fromProvider(under.sent)).toEqual(under.meant);
              }),
              { numRuns: RUNS },
            );
            expect(written, "contract values the provider can write").toBeGreaterThan(0);
            fc.assert(
              fc.property(arbitraryFor(schema), (value) => {
                // A map naming a key twice fails in the mapping (`unique`), before the validator.
                const issues: Issue[] = [];
                const back = fromProvider(value, issues);
                for (const issue of issues.length > 0 ? issues : validator.errors(back)) {
                  // `truncated` breaks no constraint: it says what errors() left unexamined past the others.
                  if (issue.code === "truncated") continue;
                  // A recursive type's depth bound holds under its path: `depth` is reported at the value one level past it, deeper down.
                  if (!ledger.some((e) => e.constraint === issue.code && matches(e.path, issue.path, issue.code === "depth"))) {
                    expect.fail(`${issue.code} at ${issue.path} is not in the ledger: ${JSON.stringify(back)}`);
                  }
                }
              }),
              { numRuns: RUNS },
            );
          });
        }
      }
    }
  });
}

// The README: each ledger entry's words "are also in the field's description". Read from the
// projection files as written, for every target and provider: the words of each entry appear in
// a description of the schema (a map's key words in the map's, a rule's in the root's).
describe("every ledger entry's words are in a description", () => {
  const descriptions = (schema: unknown, into: string[] = []): string[] => {
    if (Array.isArray(schema)) for (const item of schema) descriptions(item, into);
    else if (typeof schema === "object" && schema !== null) {
      for (const [key, value] of Object.entries(schema)) {
        if (key === "description" && typeof value === "string") into.push(value);
        else descriptions(value, into);
      }
    }
    return into;
  };
  for (const target of targets) {
    it(target.name, () => {
      const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
      for (const contract of project.contracts) {
        for (const version of contract.versions) {
          for (const provider of contract.llm.providers) {
            const file = join(target.out, contractDir(contract.name), versionId(version.version), "llm", `${provider}.json`);
            const { ledger, $comment: _, widened: __, ...request } = JSON.parse(readFileSync(file, "utf8")) as { ledger: { path: string; words: string }[]; $comment: string; widened: string[] };
            const text = descriptions(request).join("\n");
            for (const entry of ledger) expect(text, `${contract.name} ${version.version} ${provider} ${entry.path}`).toContain(entry.words);
          }
        }
      }
    });
  }
});
