// Runs a contract's generated cases file (cases-file.ts) against its generated validators and
// adapters: the generated test module reads the file through `readCases` and registers one vitest
// test per case, `it(test.name, test.run)`. Nothing here imports vitest: each test runs in the
// context the framework hands it (its `expect` and `skip`).
import { readFileSync } from "node:fs";
import { createRegistry, type ContractRegistration } from "../runtime/registry.js";
import { build, type Case, type CasesFile, type CaseValue, type CompatibilityCase, type Edit } from "./cases-file.js";

/** The part of a test framework's `expect` the runner uses (vitest's, as a test's context has it). */
export type CaseExpect = (actual: unknown, message?: string) => { toEqual(expected: unknown): void };

/** The part of a test's context the runner uses: vitest's `TestContext` fits. */
export interface CaseContext {
  readonly expect: CaseExpect;
  readonly skip: (note?: string) => never;
}

/** One test: its name (the versions it runs against, then what it checks), and what it runs. */
export interface RunnableCase {
  readonly name: string;
  readonly run: (context: CaseContext) => void;
}

export interface CaseGroup {
  readonly name: string;
  readonly cases: readonly RunnableCase[];
}

export interface CaseSuite {
  /** The contract's cases, then (when it has older versions) their way through the canonical version. */
  readonly groups: readonly CaseGroup[];
}

const unescape = (segment: string): string => segment.replace(/~1/g, "/").replace(/~0/g, "~");

type Container = { [key: string]: unknown };

/**
 * A copy of `value` with `change` applied to the parent of `pointer`: only the objects and lists on
 * the path are copied, so a case costs the depth of its edit, not the size of the base.
 */
const along = (value: unknown, keys: readonly string[], change: (parent: Container, key: string) => void): unknown => {
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Container) }) as Container;
  const [key, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) change(copy, key);
  else define(copy, key, along(copy[key], rest, change));
  return copy;
};

// Defined, not assigned: a key such as `__proto__` stays an own property.
const define = (target: Container, key: string, value: unknown): void => void Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });

const applyEdit = (value: unknown, edit: Edit): unknown => {
  const pointer = "remove" in edit ? edit.remove : edit.set;
  const keys = pointer.split("/").slice(1).map(unescape);
  if ("remove" in edit) return along(value, keys, (parent, key) => void delete parent[key]);
  return along(value, keys, (parent, key) => define(parent, key, "make" in edit ? build(edit.make) : edit.value));
};

/** Versions as a reader scans them: runs of consecutive versions as `1.0–1.5`. */
const versionLabel = (all: readonly string[], versions: readonly string[]): string => {
  const runs: string[][] = [];
  let previous = -2;
  for (const version of versions) {
    const index = all.indexOf(version);
    if (index === previous + 1 && runs.length > 0) runs.at(-1)!.push(version);
    else runs.push([version]);
    previous = index;
  }
  return runs.map((run) => (run.length === 1 ? run[0]! : `${run[0]}–${run.at(-1)}`)).join(", ");
};

/**
 * The cases of `file` (a path relative to `moduleUrl`, the test module's `import.meta.url`) as
 * tests of `registration`: the contract's generated registration, whose validators and adapters
 * the cases run against.
 */
export const readCases = (registration: ContractRegistration, moduleUrl: string, file: string): CaseSuite => {
  const cases = JSON.parse(readFileSync(new URL(file, moduleUrl), "utf8")) as CasesFile;
  if (cases.contract !== registration.name) throw new Error(`${file} holds the cases of ${cases.contract}, not ${registration.name}: run treaty generate`);
  const contract = registration.name;
  const registry = createRegistry({ [contract]: registration });
  const validator = (version: string) => {
    const found = registration.versions[version];
    if (found === undefined) throw new Error(`${contract} has no version ${version}: run treaty generate`);
    return found;
  };

  const valueOf = (c: CaseValue, version: string): unknown => {
    if ("value" in c) return c.value;
    const base = cases.bases[version];
    if (base === undefined || !("value" in base)) throw new Error(`${contract} ${version} has no base value to edit`);
    return c.edits.reduce<unknown>(applyEdit, base.value);
  };

  /** What is wrong with `value` at `version`, given what the case expects; empty when nothing is. */
  const problems = (version: string, value: unknown, expect: Case["expect"]): string[] => {
    const { errors, check } = validator(version);
    const issues = errors(value);
    const passed = check(value);
    const reported = `errors() reported ${JSON.stringify(issues)}`;
    if (expect === undefined) return [...(issues.length > 0 ? [`${version}: ${reported}`] : []), ...(passed ? [] : [`${version}: check() rejected it`])];
    const found = issues.some((issue) => issue.path === expect.path && issue.code === expect.code);
    return [...(found ? [] : [`${version}: no ${expect.code} issue at ${JSON.stringify(expect.path)}; ${reported}`]), ...(passed ? [`${version}: check() accepted it`] : [])];
  };

  const caseTest = (c: Case): RunnableCase => ({
    name: `${versionLabel(cases.versions, c.versions)} ${c.title}`,
    run: ({ expect, skip }) => {
      if ("skip" in c) return skip(c.skip);
      expect(c.versions.flatMap((version) => problems(version, valueOf(c, version), c.expect))).toEqual([]);
    },
  });

  const toCanonical = (value: unknown, version: string): unknown => {
    const decoded = registry.decode(contract, value, { version });
    if (!decoded.ok) throw new Error(`${version} did not decode: ${JSON.stringify(decoded.error)}`);
    return decoded.value;
  };
  const fromCanonical = (value: unknown, version: string): unknown => {
    const encoded = registry.encode(contract, value, version);
    if (!encoded.ok) throw new Error(`${version} did not encode: ${JSON.stringify(encoded.error)}`);
    return encoded.value;
  };

  const compatibilityTests = (c: CompatibilityCase): RunnableCase[] => {
    // A fresh copy per test: adapters may share what they do not change.
    const value = (): unknown => structuredClone(valueOf(c, c.version));
    const valid = (version: string, of: () => unknown): RunnableCase["run"] => ({ expect }) => expect(problems(version, of(), undefined)).toEqual([]);
    const canonical = cases.canonical;
    return [
      { name: `${c.title} decodes to ${canonical} and validates there`, run: valid(canonical, () => toCanonical(value(), c.version)) },
      c.lossless
        ? { name: `${c.title} round-trips through ${canonical} unchanged`, run: ({ expect }) => expect(fromCanonical(toCanonical(value(), c.version), c.version)).toEqual(value()) }
        : { name: `${c.title} encodes back to ${c.version} and validates there`, run: valid(c.version, () => fromCanonical(toCanonical(value(), c.version), c.version)) },
      ...c.newer.map((version) => ({ name: `${c.title} encodes to ${version} and validates there`, run: valid(version, () => fromCanonical(toCanonical(value(), c.version), version)) })),
    ];
  };

  const groups: CaseGroup[] = [{ name: contract, cases: cases.cases.map(caseTest) }];
  if (cases.compatibility.length > 0) {
    groups.push({ name: `${contract}: older versions through the canonical ${cases.canonical} and back`, cases: cases.compatibility.flatMap(compatibilityTests) });
  }
  return { groups };
};

