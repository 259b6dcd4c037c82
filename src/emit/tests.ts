// `generated/<contract>/<contract>.test.ts`: the cases `deriveCases` chose, as vitest tests that
// read like hand-written ones: one `describe` per version, one `it` per case, named for what it
// checks. Values are inline; long runs of one character or item are written as `repeat`/`fill`.
import type { CompatibilityCase, ContractCases, Edit, ValueCase, VersionCases } from "../cases/model.js";
import type { JsonValue } from "../ir/model.js";
import { contractTypeName, testsFile, versionId } from "../ir/names.js";
import { createFileBuilder, type EmittedFile, type FileBuilder } from "./file-builder.js";

const q = (value: unknown): string => JSON.stringify(value);

// A run of one character this long or longer is written as `"x".repeat(n)`; a list of this many
// equal items or more as `Array(n).fill(item)`.
const LONG_RUN = 16;
const LONG_LIST = 4;

const stringCode = (s: string): string => {
  const run = /(.)\1*/gsu;
  let longest: RegExpExecArray | undefined;
  for (const match of s.matchAll(run)) if (!longest || match[0].length > longest[0].length) longest = match as RegExpExecArray;
  if (!longest || [...longest[0]].length < LONG_RUN) return q(s);
  const [before, after] = [s.slice(0, longest.index), s.slice(longest.index + longest[0].length)];
  const repeat = `${q(longest[1])}.repeat(${[...longest[0]].length})`;
  return [before === "" ? [] : [stringCode(before)], [repeat], after === "" ? [] : [stringCode(after)]].flat().join(" + ");
};

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON value as a TypeScript expression. */
export const valueCode = (value: JsonValue): string => {
  if (typeof value === "string") return stringCode(value);
  if (value === null || typeof value !== "object") return q(value);
  if (Array.isArray(value)) {
    const [first] = value;
    if (first !== undefined && value.length >= LONG_LIST && value.every((v) => q(v) === q(first))) return `Array(${value.length}).fill(${valueCode(first)})`;
    return `[${value.map(valueCode).join(", ")}]`;
  }
  const entries = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : q(k)}: ${valueCode(v)}`);
  return `{ ${entries.join(", ")} }`;
};

const editCode = (code: string, edit: Edit): string =>
  edit.op === "set" ? `withValue(${code}, ${q(edit.path)}, ${valueCode(edit.value)})` : `without(${code}, ${q(edit.path)})`;

const it = (title: string, body: string): string => `it(${q(title)}, () => {\n    ${body}\n  });`;

/** Titles made unique within one `describe` by a counter. */
const uniqueTitles = (): ((title: string) => string) => {
  const seen = new Map<string, number>();
  return (title) => {
    const n = (seen.get(title) ?? 0) + 1;
    seen.set(title, n);
    return n === 1 ? title : `${title} (${n})`;
  };
};

const check = (validator: string, value: string, expect: ValueCase["expect"]): string =>
  expect === undefined ? `expectValid(${validator}, ${value});` : `expectIssue(${validator}, ${value}, ${q(expect.path)}, ${q(expect.code)});`;

const versionTests = (cases: VersionCases, b: FileBuilder): string[] => {
  const id = versionId(cases.version.version);
  b.importValue("./index.js", id);
  const label = cases.version.version;
  const unique = uniqueTitles();
  const values = cases.values.map((c) => {
    const value = cases.base && c.value === cases.base.value ? "base" : valueCode(c.value);
    return it(unique(`${label} ${c.title}`), check(id, value, c.expect));
  });
  const mutations = cases.mutations.map((m) => it(unique(`${label} ${m.title}`), check(id, m.edits.reduce(editCode, "base"), m.expect)));
  const missing = cases.missing === undefined ? [] : [`it.todo(${q(`${label} mutations need a valid example: ${cases.missing}`)});`];
  return [...values, ...mutations, ...missing];
};

const compatibilityTests = (contract: ContractCases, c: CompatibilityCase, unique: (title: string) => string, b: FileBuilder): string[] => {
  const canonical = versionId(contract.contract.canonical);
  const own = versionId(c.version);
  b.importValue("./index.js", canonical);
  b.importValue("./index.js", own);
  const value = valueCode(c.value);
  const decode = it(unique(`${c.title} decodes to ${contract.contract.canonical} and validates there`), `expectValid(${canonical}, toCanonical(${value}, ${q(c.version)}));`);
  const back = c.lossless
    ? it(
        unique(`${c.title} round-trips through ${contract.contract.canonical} unchanged`),
        `const value = ${value};\n    expect(fromCanonical(toCanonical(value, ${q(c.version)}), ${q(c.version)})).toEqual(value);`,
      )
    : it(unique(`${c.title} encodes back to ${c.version} and validates there`), `expectValid(${own}, fromCanonical(toCanonical(${value}, ${q(c.version)}), ${q(c.version)}));`);
  const onward = c.newer.map((version) => {
    const id = versionId(version);
    b.importValue("./index.js", id);
    return it(unique(`${c.title} encodes to ${version} and validates there`), `expectValid(${id}, fromCanonical(toCanonical(${value}, ${q(c.version)}), ${q(version)}));`);
  });
  return [decode, back, ...onward];
};

/** `generated/<contract>/<contract>.test.ts` for one contract. */
export const emitTests = (cases: ContractCases): EmittedFile => {
  const { contract } = cases;
  const b = createFileBuilder(testsFile(contract.name), contract.file);
  for (const name of ["describe", "expect", "it"]) b.importValue("vitest", name);
  b.importValue("treaty/runtime", "createRegistry");
  b.importType("treaty/runtime", "Issue");
  b.importValue("./index.js", "registration");
  const canonicalType = contractTypeName(contract.name);
  b.importType("./index.js", canonicalType);
  const versions = cases.versions.map((v) => ({
    title: q(`${contract.name} ${v.version.version}`),
    base: v.base && valueCode(v.base.value),
    baseDoc:
      v.base?.source === "synthesized"
        ? `A minimal valid ${v.version.version} value treaty synthesized (the version has no valid example): every mutation below starts from it.`
        : `The first valid example of ${v.version.version}: every mutation below starts from it.`,
    tests: versionTests(v, b),
  }));
  const unique = uniqueTitles();
  const compatibility = cases.compatibility.flatMap((c) => compatibilityTests(cases, c, unique, b));
  return b.render("tests", {
    contract: contract.name,
    canonical: contract.canonical,
    name: q(contract.name),
    canonicalType,
    versions,
    compatibility,
    compatibilityTitle: q(`${contract.name}: older versions through the canonical ${contract.canonical} and back`),
  });
};
