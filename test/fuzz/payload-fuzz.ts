// Payloads at the value level against Ajv: for every contract version of idl/ and of the good
// fixtures, values generated from its emitted JSON Schema, mutated around its constraints (both
// from test/support/arbitrary.ts) and mutated here into hostile shapes (huge, deep, odd keys and
// characters), each checked by the generated validator and by Ajv with the rules annotation.
// They must agree, and `errors()` must be empty exactly when `check` is true.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { contractDir, versionId } from "../../src/ir/names.js";
import { maxDepthOf, recursiveTypes } from "../../src/ir/recursion.js";
import { compile } from "../../src/pipeline.js";
import { arbitraryFor, mutated } from "../support/arbitrary.js";
import { addInt64StringFormat } from "../support/int64-format.js";
import { addJsonBounds, jsonDepth } from "../support/json-bounds.js";
import { rulesHold } from "../support/rules-hold.js";
import { canonicalJson } from "../../src/runtime/index.js";
import { targets } from "../support/targets.js";
import { createRandom, type Random } from "./random.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface Validator {
  check(value: unknown): boolean;
  errors(value: unknown): unknown[];
  read(value: unknown): unknown;
}

export interface PayloadFinding {
  readonly version: string;
  readonly detail: string;
  readonly value: string;
}

export interface PayloadFuzzReport {
  readonly payloads: number;
  readonly accepted: number;
  readonly versions: number;
  readonly findings: PayloadFinding[];
}

const deep = (depth: number, array: boolean): unknown => {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = array ? [value] : { a: value };
  return value;
};

/** JSON values that are hard on a validator; `__proto__` as an own key, as JSON.parse makes it. */
const HOSTILE_VALUES: readonly (() => unknown)[] = [
  () => null,
  () => -0,
  () => 2 ** 53 + 2,
  () => 1e308,
  () => -1e-308,
  () => 0.1 + 0.2,
  () => "",
  () => "x".repeat(100_000),
  () => "\u0000\u2028\ud800",
  () => "😀".repeat(50),
  () => [],
  () => Array.from({ length: 5_000 }, (_, i) => i),
  () => ({}),
  () => JSON.parse('{"__proto__": {"polluted": true}}'),
  () => JSON.parse('{"constructor": "x", "toString": 1}'),
  () => deep(5_000, true),
  () => deep(5_000, false),
  () => true,
];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A copy of `value` with one hostile change somewhere inside it. */
const hostile = (random: Random, value: unknown): unknown => {
  const replace = () => random.pick(HOSTILE_VALUES)();
  if (Array.isArray(value) && value.length > 0 && random.chance(0.7)) {
    const copy = [...value];
    const i = random.int(copy.length);
    copy[i] = hostile(random, copy[i]);
    return copy;
  }
  if (isRecord(value) && random.chance(0.8)) {
    const keys = Object.keys(value);
    const copy: Record<string, unknown> = JSON.parse(JSON.stringify(value));
    switch (random.int(4)) {
      case 0:
        if (keys.length > 0) delete copy[random.pick(keys)];
        return copy;
      case 1:
        Object.defineProperty(copy, random.pick(["__proto__", "constructor", "extra", "a\u2028b", ""]), { value: replace(), enumerable: true, configurable: true, writable: true });
        return copy;
      default:
        if (keys.length === 0) return replace();
        {
          const key = random.pick(keys);
          copy[key] = hostile(random, value[key]);
        }
        return copy;
    }
  }
  return replace();
};

export interface PayloadFuzzOptions {
  readonly seed: number;
  readonly count: number;
  readonly seconds: number;
  /** Only the projects of these names (`idl`, `good-...`); all when absent. */
  readonly only?: readonly string[];
}

export const fuzzPayloads = async (options: PayloadFuzzOptions): Promise<PayloadFuzzReport> => {
  const random = createRandom(options.seed);
  // `depthBound`: the smallest `maxDepth` of the version's recursive types, which JSON Schema cannot
  // say; a value nested deeper may be refused by treaty where Ajv accepts it, never the reverse.
  const versions: { name: string; validator: Validator; reference: (v: unknown) => boolean; depthBound: number; samples: unknown[] }[] = [];
  for (const target of targets.filter((t) => !options.only || options.only.includes(t.name))) {
    const project = compile({ root: target.root, idlDir: join(target.root, "idl") }).value;
    for (const contract of project?.contracts ?? []) {
      for (const version of contract.versions) {
        const dir = join(target.out, contractDir(contract.name), versionId(version.version));
        const schema = JSON.parse(readFileSync(join(dir, "schema.json"), "utf8")) as Record<string, unknown>;
        const ajv = new Ajv2020({ strict: false, allErrors: true, ownProperties: true });
        addFormats(ajv);
        addInt64StringFormat(ajv);
        addJsonBounds(ajv);
        const ajvValidate = ajv.compile(schema);
        const validator = (await import(join(dir, "validator.ts"))) as Validator;
        const valid = arbitraryFor(schema);
        const samples = [...version.examples.map((e) => e.value), ...fc.sample(valid, { numRuns: 20, seed: options.seed }), ...fc.sample(mutated(valid), { numRuns: 20, seed: options.seed })];
        const depthBound = Math.min(Infinity, ...[...recursiveTypes(version)].map((name) => maxDepthOf(version.types.get(name)!)));
        versions.push({ name: `${target.name}: ${contract.name} ${version.version}`, validator, reference: (v) => ajvValidate(v) && rulesHold(schema, v), depthBound, samples });
      }
    }
  }
  const report = { payloads: 0, accepted: 0, versions: versions.length, findings: [] as PayloadFinding[] };
  const deadline = performance.now() + options.seconds * 1000;
  const show = (v: unknown): string => {
    let text: string;
    try {
      text = JSON.stringify(v) ?? String(v);
    } catch {
      text = "(a value JSON.stringify cannot print: nested too deep)";
    }
    return text.length > 2_000 ? `${text.slice(0, 2_000)}… (${text.length} characters)` : text;
  };
  for (let i = 0; i < options.count && performance.now() < deadline; i++) {
    const version = versions[i % versions.length]!;
    const base = random.pick(version.samples);
    // Half the samples as they are (generated valid or mutated by the support arbitraries), half made hostile.
    const value = random.chance(0.5) ? base : hostile(random, base);
    report.payloads++;
    let accepted: boolean;
    let issues: number;
    let read: unknown;
    try {
      accepted = version.validator.check(value);
      issues = version.validator.errors(value).length;
      read = version.validator.read(value);
    } catch (error) {
      report.findings.push({ version: version.name, detail: `threw: ${(error as Error).message}`, value: show(value) });
      continue;
    }
    if (accepted) report.accepted++;
    const exact = version.depthBound === Infinity || jsonDepth(value) <= version.depthBound;
    if (exact ? accepted !== version.reference(value) : accepted && !version.reference(value)) report.findings.push({ version: version.name, detail: `check says ${accepted}, Ajv ${!accepted}`, value: show(value) });
    if ((issues === 0) !== accepted) report.findings.push({ version: version.name, detail: `errors() has ${issues} issues, check says ${accepted}`, value: show(value) });
    if ((read !== undefined) !== accepted) report.findings.push({ version: version.name, detail: `read() ${accepted ? "refused" : "accepted"} it, check says ${accepted}`, value: show(value) });
    else if (accepted && canonicalJson(read) !== canonicalJson(value)) report.findings.push({ version: version.name, detail: "read() returned another value", value: show(value) });
  }
  return report;
};
