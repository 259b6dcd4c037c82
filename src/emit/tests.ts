// A contract's regression tests, as data and a few lines of code: `<contract>.cases.json` holds
// the cases `deriveCases` chose, each written once with every version it holds in (a case
// derived alike from six versions is one entry run against six validators, so the file grows
// with the contract, not with contract × versions), and `<contract>.test.ts` hands them to
// vitest through `treaty/testing`, one test per case, named for what it checks.
import type { ContractCases, VersionCases } from "../cases/model.js";
import type { JsonValue } from "../ir/model.js";
import { casesFile, testsFile } from "../ir/names.js";
import type { Base, Case, CasesFile, CaseValue, CompatibilityCase, Expectation, Skipped } from "../testing/cases-file.js";
import { createFileBuilder, generatedComment, jsonFile, OneLine, writtenLaidOut, type EmittedFile } from "./file-builder.js";

/** Titles made unique within one version by a counter. */
const uniqueTitles = (): ((title: string) => string) => {
  const seen = new Map<string, number>();
  return (title) => {
    const n = (seen.get(title) ?? 0) + 1;
    seen.set(title, n);
    return n === 1 ? title : `${title} (${n})`;
  };
};

/** A case of one version, before the versions alike are merged. */
type Entry = (CaseValue | Skipped) & { readonly title: string; readonly expect?: Expectation; readonly roundTrip?: true };

/** One version's cases, before they are merged with the other versions' alike. */
const versionEntries = (v: VersionCases): Entry[] => {
  const unique = uniqueTitles();
  // The base itself is written once, under `bases`; a case of the base names it by no edits.
  const valueOf = (value: JsonValue): CaseValue => (v.base && value === v.base.value ? { edits: [] } : { value });
  const values = v.values.map((c): Entry => ({ title: unique(c.title), ...valueOf(c.value), ...(c.expect && { expect: c.expect }) }));
  const mutations = v.mutations.map((m): Entry => ({ ...m, title: unique(m.title) }));
  const missing = v.missing === undefined ? [] : [{ title: "mutations need a valid example", skip: v.missing }];
  return [...values, ...mutations, ...missing];
};

/**
 * Whether `x` and `y` are written alike (what `JSON.stringify` would make of each): the same keys in
 * the same order, the same values. Compared in place, where stringifying every entry to key a map
 * was a 20,000-field contract's largest cost in emitting its tests.
 */
const writtenAlike = (x: unknown, y: unknown): boolean => {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x)) {
    const ys = y as unknown[];
    if (x.length !== ys.length) return false;
    for (let i = 0; i < x.length; i++) if (!writtenAlike(x[i], ys[i])) return false;
    return true;
  }
  // Keys whose value is undefined are not written. Walked in step, with no list of pairs: that was
  // most of what merging a wide contract's cases allocated.
  const xo = x as Record<string, unknown>;
  const yo = y as Record<string, unknown>;
  const xk = Object.keys(xo);
  const yk = Object.keys(yo);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < xk.length && xo[xk[i]!] === undefined) i++;
    while (j < yk.length && yo[yk[j]!] === undefined) j++;
    if (i === xk.length || j === yk.length) return i === xk.length && j === yk.length;
    if (xk[i] !== yk[j] || !writtenAlike(xo[xk[i]!], yo[yk[j]!])) return false;
    i++;
    j++;
  }
};

/** Entries alike in every version merged into one, listing its versions, in the order first seen. */
const mergeVersions = (versions: readonly VersionCases[]): Case[] => {
  const merged: { entry: Entry; versions: string[] }[] = [];
  // Alike entries have the same title (it is written): only those are compared.
  const byTitle = new Map<string, { entry: Entry; versions: string[] }[]>();
  for (const v of versions) {
    for (const entry of versionEntries(v)) {
      const titled = byTitle.get(entry.title);
      const found = titled?.find((m) => writtenAlike(m.entry, entry));
      if (found) found.versions.push(v.version.version);
      else {
        const added = { entry, versions: [v.version.version] };
        merged.push(added);
        if (titled) titled.push(added);
        else byTitle.set(entry.title, [added]);
      }
    }
  }
  // `versions` second, after the title, so a reviewer reads where a case holds before what it does.
  return merged.map(({ entry: { title, ...rest }, versions }) => ({ title, versions, ...rest }));
};

const baseOf = (v: VersionCases): Base => (v.base ? { from: v.base.from, value: v.base.value } : { missing: v.missing! });

const FORMAT =
  "Each case runs against every version in `versions`: its `value`, or that version's base (`bases`) with `edits` applied " +
  "(`make` describes a long value: `repeat` a character `times`, a `list` of `times` copies). Without `expect` the value must pass; " +
  "with it, errors() reports `code` at `path` and check() agrees. `skip` says why a case is left out. See treaty's README, Generated tests.";

/** `generated/<contract>/<contract>.cases.json`. */
export const emitTestCases = (cases: ContractCases): EmittedFile => {
  const { contract } = cases;
  const bases = new Map(cases.versions.map((v) => [v.version.version, v] as const));
  const compatibility = cases.compatibility.map(({ title, version, value, lossless, newer }): CompatibilityCase => {
    const base = bases.get(version)?.base;
    return { title, version, ...(base && value === base.value ? { edits: [] } : { value }), lossless, newer };
  });
  const file: CasesFile = {
    $comment: `${generatedComment(contract.file)} ${FORMAT}`,
    contract: contract.name,
    canonical: contract.canonical,
    versions: cases.versions.map((v) => v.version.version),
    bases: Object.fromEntries(cases.versions.map((v) => [v.version.version, baseOf(v)])),
    cases: mergeVersions(cases.versions),
    compatibility,
  };
  // One case a line (prettier breaks the long ones by key), the rest as JSON.stringify lays it out.
  const list = (items: readonly object[]): string => (items.length === 0 ? "[]" : `[\n${items.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`);
  const { cases: all, compatibility: older, ...head } = file;
  const top = (): string => JSON.stringify(head, null, 2).replace(/\n}$/, "");
  const oneLine = (items: readonly object[]): OneLine[] => items.map((item) => new OneLine(item));
  return jsonFile(casesFile(contract.name), { ...head, cases: oneLine(all), compatibility: oneLine(older) }, () => `${top()},\n  "cases": ${list(all)},\n  "compatibility": ${list(older)}\n}\n`);
};

/** `generated/<contract>/<contract>.test.ts`: reads the cases file and runs it. */
export const emitTests = (cases: ContractCases): EmittedFile => {
  const { contract } = cases;
  const b = createFileBuilder(testsFile(contract.name), contract.file);
  for (const name of ["describe", "it"]) b.importValue("vitest", name);
  b.importValue("treaty/testing", "readCases");
  b.importValue("./registration.js", "registration");
  const file = casesFile(contract.name).split("/").at(-1)!;
  // The template is written in prettier's layout; only the call naming the cases file may be too
  // wide for its line, and then prettier puts each argument on a line of its own.
  const args = ["registration", "import.meta.url", JSON.stringify(`./${file}`)];
  const call = `const suite = readCases(${args.join(", ")});`;
  const suite = call.length <= 100 ? call : `const suite = readCases(\n${args.map((arg) => `  ${arg},\n`).join("")});`;
  const emitted = b.render("tests", { contract: contract.name, canonical: contract.canonical, file, suite });
  // Names of contracts and files are printable ASCII (ir/names.ts), so the widths above are certain.
  return { ...emitted, laidOut: writtenLaidOut(emitted.contents) };
};
