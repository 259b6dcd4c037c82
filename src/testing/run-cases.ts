// Runs a contract's generated cases file (cases-file.ts) against its generated validators and
// adapters: the generated test module reads the file through `readCases` and registers one vitest
// test per case, `it(test.name, test.run)`. Nothing here imports vitest: each test runs in the
// context the framework hands it (its `expect` and `skip`).
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { Issue } from "../runtime/issue.js";
import { createRegistry, type ContractRegistration } from "../runtime/registry.js";
import { build, type Case, type CasesFile, type CaseValue, type CompatibilityCase, type Edit, type Made } from "./cases-file.js";

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

/** The keys a JSON pointer names, root first ("" names none). */
const pointerKeys = (pointer: string): string[] => (pointer === "" ? [] : pointer.split("/").slice(1).map(unescape));

// Defined, not assigned: a key such as `__proto__` stays an own property.
const define = (target: Container, key: string, value: unknown): void => void Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });

/**
 * Runs `use` on `base` with `edits` applied in place, then undoes them, last first, also when `use`
 * throws. In place rather than on a copy: a case then costs the depth of its edits, not the size
 * of the base (a copy of a 2,000-field base per case was most of a wide contract's test time).
 * An undone removal puts the key back last, which no validator tells apart.
 */
const withEdits = <T>(base: unknown, edits: readonly Edit[], use: (value: unknown) => T): T => {
  let root = base;
  const undo: (() => void)[] = [];
  try {
    for (const edit of edits) {
      const pointer = "remove" in edit ? edit.remove : edit.set;
      const to = "remove" in edit ? undefined : "make" in edit ? build(edit.make) : edit.value;
      if (pointer === "") {
        root = to;
        continue;
      }
      const keys = pointerKeys(pointer);
      const parent = keys.slice(0, -1).reduce((v, k) => (v as Container)[k], root) as Container;
      const key = keys.at(-1)!;
      const had = Object.hasOwn(parent, key);
      const old = parent[key];
      undo.push(() => (had ? define(parent, key, old) : void delete parent[key]));
      if ("remove" in edit) delete parent[key];
      else define(parent, key, to);
    }
    return use(root);
  } finally {
    for (const step of undo.reverse()) step();
  }
};

/** The value at JSON pointer `pointer` of `root`, and whether it is there (an own key all the way down). */
const at = (root: unknown, pointer: string): { readonly found: boolean; readonly value: unknown } => {
  let value = root;
  for (const key of pointerKeys(pointer)) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return { found: false, value: undefined };
    value = (value as Container)[key];
  }
  return { found: true, value };
};

/** Cases in one batch at most: their issues together stay well under errors()' cap (MAX_ISSUES, 100). */
const BATCH_SIZE = 32;

interface BatchResult {
  /** What errors() reported of the batch's value. */
  readonly reported: readonly Issue[];
  /** Edges only: the cases the value passed for (check, errors and read all agreed, read's copy at their edits too). */
  readonly passed: ReadonlySet<Case>;
}

/** Cases of one version run together (see `batchOf` in readCases): edges that must pass, or faults whose issues errors() must report. */
interface Batch {
  readonly kind: "edges" | "faults";
  readonly cases: Case[];
  /** The top-level keys its cases edit. */
  readonly keys: Set<string>;
  result: BatchResult | undefined;
}

/** Characters or items of a built value past which its case runs alone: a batch holds a few dozen. */
const BATCH_BUILT_LENGTH = 4096;

/** The length of the string or list `made` describes. */
const madeLength = (made: Made): number =>
  "text" in made ? made.text.reduce((n, part) => n + (typeof part === "string" ? part.length : part.repeat.length * part.times), 0) : made.times;

/**
 * The top-level keys `c` edits, when it may run in a batch: it edits the base (no long built
 * value, nothing at the root itself) and expects an issue, if any, under those keys that no rule reports.
 */
const batchKeys = (c: Case): string[] | undefined => {
  if (!("edits" in c) || c.edits.length === 0 || c.roundTrip) return undefined;
  const keys = new Set<string>();
  for (const edit of c.edits) {
    if ("make" in edit && madeLength(edit.make) > BATCH_BUILT_LENGTH) return undefined;
    const pointer = "remove" in edit ? edit.remove : edit.set;
    if (pointer === "") return undefined;
    keys.add(pointerKeys(pointer)[0]!);
  }
  if (c.expect !== undefined && (c.expect.path === "" || c.expect.code.startsWith("rule.") || !keys.has(pointerKeys(c.expect.path)[0]!))) return undefined;
  return [...keys];
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

  /** `use` of the case's value at `version`. */
  const withValue = <T>(c: CaseValue, version: string, use: (value: unknown) => T): T => {
    if ("value" in c) return use(c.value);
    const base = cases.bases[version];
    if (base === undefined || !("value" in base)) throw new Error(`${contract} ${version} has no base value to edit`);
    return withEdits(base.value, c.edits, use);
  };

  /**
   * Whether read()'s copy equals `value`: whole, or (a base with `edits`, whose base a case with no
   * edits compares whole) at the edited pointers only, so a wide base is not compared per case.
   */
  const sameCopy = (taken: unknown, value: unknown, edits: readonly Edit[] | undefined): boolean => {
    if (edits === undefined || edits.length === 0) return isDeepStrictEqual(taken, value);
    return edits.every((edit) => {
      const pointer = "remove" in edit ? edit.remove : edit.set;
      const a = at(taken, pointer);
      const b = at(value, pointer);
      return a.found === b.found && isDeepStrictEqual(a.value, b.value);
    });
  };

  /** What read() got wrong of `value`, which check() judged `passed`; empty when nothing. */
  const readProblems = (version: string, value: unknown, passed: boolean, edits: readonly Edit[] | undefined): string[] => {
    const { read } = validator(version);
    if (read === undefined) return [];
    // read() checks as it copies: it must agree with check, and hand over what it was given.
    const taken = read(value);
    if ((taken !== undefined) !== passed) return [`${version}: read() ${passed ? "refused" : "accepted"} it`];
    return passed && !sameCopy(taken, value, edits) ? [`${version}: read() returned ${JSON.stringify(taken)}`] : [];
  };

  /**
   * What is wrong with `value` at `version`, given what the case expects; empty when nothing is.
   * `reported`: what errors() found on a value holding this case's edits among others' (see
   * `batchOf`), checked first; errors() of `value` alone decides when it lacks the expected issue.
   */
  const problems = (version: string, value: unknown, expect: Case["expect"], edits?: readonly Edit[], reported?: readonly Issue[]): string[] => {
    const { errors, check } = validator(version);
    const passed = check(value);
    const found = (issues: readonly Issue[]): boolean => issues.some((issue) => issue.path === expect!.path && issue.code === expect!.code);
    if (expect === undefined) {
      const issues = errors(value);
      return [...(issues.length > 0 ? [`${version}: errors() reported ${JSON.stringify(issues)}`] : []), ...(passed ? [] : [`${version}: check() rejected it`]), ...readProblems(version, value, passed, edits)];
    }
    const issues = reported !== undefined && found(reported) ? reported : errors(value);
    return [
      ...(found(issues) ? [] : [`${version}: no ${expect.code} issue at ${JSON.stringify(expect.path)}; errors() reported ${JSON.stringify(issues)}`]),
      ...(passed ? [`${version}: check() accepted it`] : []),
      ...readProblems(version, value, passed, edits),
    ];
  };

  // A wide contract's cases are mostly one field's edge or fault each, and every call walks the
  // whole value: 2,000 fields made 63,000 case-versions of three full walks each. So cases that
  // edit distinct top-level fields are also run together, in batches (one value with every
  // case's edits): a batch of edges that passes whole passes each of its cases, and errors() of a
  // batch of faults is the first place each case looks for its issue. Top-level fields are checked
  // apart from one another, so a case's issue under its own fields comes from its own edit; an
  // issue a rule reports is tied to other fields, and such cases run alone. Whatever a batch does
  // not settle, a case's own value does: check() and read() always see each fault alone (they stop
  // at the first), and a batch is only a shortcut to what the case alone would show.
  const batches = new Map<string, Map<Case, Batch>>();
  /** The batch of `c` at `version`, or undefined when it runs alone. */
  const batchOf = (c: Case, version: string): Batch | undefined => {
    let byCase = batches.get(version);
    if (byCase === undefined) {
      byCase = new Map();
      batches.set(version, byCase);
      const open: Batch[] = [];
      for (const other of cases.cases) {
        const keys = other.versions.includes(version) ? batchKeys(other) : undefined;
        if (keys === undefined) continue;
        const kind = other.expect === undefined ? "edges" : "faults";
        let batch = open.find((b) => b.kind === kind && keys.every((key) => !b.keys.has(key)));
        if (batch === undefined) {
          batch = { kind, cases: [], keys: new Set(), result: undefined };
          open.push(batch);
        }
        batch.cases.push(other);
        for (const key of keys) batch.keys.add(key);
        byCase.set(other, batch);
        if (batch.cases.length === BATCH_SIZE) open.splice(open.indexOf(batch), 1);
      }
    }
    const batch = byCase.get(c);
    return batch !== undefined && batch.cases.length > 1 ? batch : undefined;
  };
  /** What the batch's value shows at `version`: errors() of it, and for edges, the cases whose edits all held. */
  const batchResult = (batch: Batch, version: string): BatchResult => {
    if (batch.result !== undefined) return batch.result;
    const edits = batch.cases.flatMap((c) => ("edits" in c ? c.edits : []));
    batch.result = withValue({ edits }, version, (value): BatchResult => {
      const { errors, check, read } = validator(version);
      const reported = errors(value);
      if (batch.kind === "faults" || reported.length > 0 || !check(value)) return { reported, passed: new Set() };
      const taken = read === undefined ? value : read(value);
      if (taken === undefined) return { reported, passed: new Set() };
      return { reported, passed: new Set(batch.cases.filter((c) => "edits" in c && sameCopy(taken, value, c.edits))) };
    });
    return batch.result;
  };

  /** What is wrong with case `c` at `version`. */
  const caseProblems = (c: Case & CaseValue, version: string): string[] => {
    const batch = c.roundTrip ? undefined : batchOf(c, version);
    const result = batch === undefined ? undefined : batchResult(batch, version);
    if (result !== undefined && result.passed.has(c)) return [];
    return withValue(c, version, (value) => [...problems(version, value, c.expect, "edits" in c ? c.edits : undefined, result?.reported), ...(c.roundTrip ? roundTripProblems(version, value) : [])]);
  };

  const caseTest = (c: Case): RunnableCase => ({
    name: `${versionLabel(cases.versions, c.versions)} ${c.title}`,
    run: ({ expect, skip }) => {
      if ("skip" in c) return skip(c.skip);
      const found = c.versions.flatMap((version) => caseProblems(c, version));
      expect(found, found.join("; ")).toEqual([]);
    },
  });

  /** What goes wrong reading `value` (valid at `version`) into the canonical model and writing it back there: anything but what it strips. */
  const roundTripProblems = (version: string, value: unknown): string[] => {
    // A path whose result may not fit the canonical model (it revalidates) may refuse the value by design.
    if (validator(version).revalidate) return [];
    const decoded = registry.decode(contract, structuredClone(value), { version });
    if (!decoded.ok) return [`${version}: did not decode: ${JSON.stringify(decoded.error)}`];
    const encoded = registry.encode(contract, decoded.value, version);
    if (!encoded.ok) return [`${version}: did not encode back: ${JSON.stringify(encoded.error)}`];
    if (!validator(version).lossless) return problems(version, encoded.value, undefined);
    // What decode strips (unknown keys of strip objects) is all that may not come back.
    const unchanged = withEdits(value, decoded.stripped.map((path): Edit => ({ remove: path })), (kept) => isDeepStrictEqual(encoded.value, kept));
    return unchanged ? [] : [`${version}: came back as ${JSON.stringify(encoded.value)}`];
  };

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
    const value = (): unknown => withValue(c, c.version, structuredClone);
    const valid = (version: string, of: () => unknown): RunnableCase["run"] => ({ expect }) => {
      const found = problems(version, of(), undefined);
      expect(found, found.join("; ")).toEqual([]);
    };
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

