// The generated validators against an independent one: Ajv (with ajv-formats) compiled from the
// emitted JSON Schema must accept exactly what `check` accepts, on every example, on JS values
// JSON cannot write (inherited fields, NaN, ±Infinity) and on values generated from and mutated
// around each schema. `errors` is empty exactly when `check` is true. The one expected difference:
// treaty rejects NaN and ±Infinity (JSON has neither), which Ajv with `strict: false` accepts as
// numbers (and Infinity as an integer); `finite` below counts exactly that.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, type Issue, type JsonValue } from "../src/runtime/index.js";
import { contractDir, versionId } from "../src/ir/names.js";
import { compile } from "../src/pipeline.js";
import { arbitraryFor, mutated } from "./support/arbitrary.js";
import { addInt64StringFormat } from "./support/int64-format.js";
import { addJsonBounds } from "./support/json-bounds.js";
import { rulesHold } from "./support/rules-hold.js";
import { targets } from "./support/targets.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
// Generated + mutated = 2,000 values per version (48,000 in all), most of the cost being fast-check's
// generation; TREATY_PROPERTY_RUNS raises it for a deeper run (FC_SEED varies the values).
const RUNS = Number(process.env["TREATY_PROPERTY_RUNS"] ?? 1_000);

interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): Issue[];
  read(value: unknown): unknown;
}

/** The objects and arrays `value` holds, itself included. */
const containers = (value: unknown, into = new Set<object>()): Set<object> => {
  if (typeof value !== "object" || value === null || into.has(value)) return into;
  into.add(value);
  for (const item of Object.values(value)) containers(item, into);
  return into;
};

/**
 * `read` agrees with `check`, and what it returns is the value as JSON sees it (own enumerable
 * keys; key order aside) in containers of its own: nothing of the input is handed over.
 */
const readAgrees = (validator: Validator, value: unknown, accepted: boolean): void => {
  const copy = validator.read(value);
  if ((copy !== undefined) !== accepted) expect.fail(`read() disagrees with check (${accepted}): ${JSON.stringify(value)}`);
  if (!accepted) return;
  if (canonicalJson(copy as JsonValue) !== canonicalJson(JSON.parse(JSON.stringify(value)) as JsonValue)) {
    expect.fail(`read() returned ${JSON.stringify(copy)} for ${JSON.stringify(value)}`);
  }
  const inputs = containers(value);
  const shared = [...containers(copy)].filter((c) => inputs.has(c));
  if (shared.length > 0) expect.fail(`read() handed over containers of the input: ${JSON.stringify(value)}`);
};

/** No NaN or ±Infinity anywhere in `value`: the one thing treaty rejects that Ajv accepts. */
const finite = (value: unknown): boolean =>
  typeof value === "number" ? Number.isFinite(value) : typeof value !== "object" || value === null || Object.values(value).every(finite);

/** Every way to make `value` a JS value JSON cannot write: each object inherited instead of own, or given an inherited extra key, each number NaN or ±Infinity. */
const jsVariants = (value: unknown): unknown[] => {
  const variants: unknown[] = [];
  const walk = (at: unknown, replace: (v: unknown) => unknown): void => {
    if (typeof at === "number") for (const odd of [NaN, Infinity, -Infinity]) variants.push(replace(odd));
    if (typeof at !== "object" || at === null) return;
    if (Array.isArray(at)) {
      at.forEach((item, i) => walk(item, (v) => replace(at.map((x, j) => (j === i ? v : x)))));
      return;
    }
    variants.push(replace(Object.create(at)));
    variants.push(replace(Object.assign(Object.create({ inherited: 1 }), at)));
    for (const key of Object.keys(at)) walk((at as Record<string, unknown>)[key], (v) => replace({ ...at, [key]: v }));
  };
  walk(value, (v) => v);
  return variants;
};

for (const target of targets) {
  const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value!;
  describe(`${target.name}: generated check agrees with Ajv`, () => {
    for (const contract of project.contracts) {
      for (const version of contract.versions) {
        const dir = join(target.out, contractDir(contract.name), versionId(version.version));
        it(`${contract.name} ${version.version}`, async () => {
          const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as Record<string, unknown>;
          // ownProperties: a key like `constructor` counts only when the payload itself has it, as in JSON.
          const ajv = new Ajv2020({ strict: false, allErrors: true, ownProperties: true });
          addFormats(ajv);
          addInt64StringFormat(ajv);
          addJsonBounds(ajv);
          const ajvValidate = ajv.compile(schema);
          const reference = (v: unknown) => ajvValidate(v) && rulesHold(schema, v) && finite(v);
          const validator = (await import(join(dir, "validator.ts"))) as Validator;
          const agree = (value: unknown) => {
            const accepted = validator.check(value);
            // The value is printed only on a disagreement: stringifying each of 5,000 values costs more than checking it.
            if (accepted !== reference(value)) expect.fail(`check says ${accepted}, Ajv ${!accepted}: ${JSON.stringify(value)}`);
            if ((validator.errors(value).length === 0) !== accepted) expect.fail(`errors() disagrees with check (${accepted}): ${JSON.stringify(value)}`);
            readAgrees(validator, value, accepted);
            return accepted;
          };

          for (const example of version.examples) {
            expect(agree(example.value), JSON.stringify(example.value)).toBe(example.valid);
            if (example.expect) {
              expect(validator.errors(example.value)).toContainEqual(expect.objectContaining(example.expect));
            }
          }

          // JS values, not JSON: fields only inherited are absent, inherited enumerable keys are not
          // the value's, and NaN and ±Infinity are no numbers (Ajv's strictNumbers, its default).
          for (const example of version.examples.filter((e) => e.valid)) {
            for (const variant of jsVariants(example.value)) agree(variant);
          }

          const valid = arbitraryFor(schema);
          let accepted = 0;
          fc.assert(fc.property(valid, (v) => void (agree(v) && accepted++)), { numRuns: RUNS });
          let rejected = 0;
          fc.assert(fc.property(mutated(valid), (v) => void (agree(v) || rejected++)), { numRuns: RUNS });
          // The generators must exercise both outcomes, or agreement proves little. (Values are
          // generated from the schema alone, so rules across fields reject some of them.)
          expect(accepted).toBeGreaterThan(RUNS * 0.1);
          expect(rejected).toBeGreaterThan(RUNS * 0.2);
        });
      }
    }
  });
}
