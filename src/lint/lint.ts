// The seed's anti-patterns as lint rules. Each finding is a warning at the field, example or
// contract it concerns; `lint: { rule: reason }` on the contract or the field turns a rule off.
import type { LintRule } from "../diagnostics/codes.js";
import { createDiagnostic, type Diagnostic, type Params, type StageResult } from "../diagnostics/diagnostic.js";
import { locAt, type Contract, type Field, type JsonValue, type NumericType, type Project, type ResolvedVersion, type SourceLocation, type TypeNode } from "../ir/model.js";
import { escapePointer } from "../runtime/issue.js";
import { isMultipleOf } from "../runtime/multiple-of.js";
import { PLACEHOLDER_MEANING } from "../ir/names.js";

/** Fields whose value drives control flow: they deserve a closed enum and no silent default. */
const CONTROL_FIELD = /^(status|state|mode|kind|type|phase|stage|action|decision|outcome|verdict|class|category|severity)$|_(status|state|mode|kind|type)$/;
/** Field names that usually mean content carried inline. */
const BLOB_FIELD = /(^|_)(blob|base64|content|contents|document|file|pdf|image|attachment|payload|body|bytes|data)$/;

/** Whether the digits of `text` pass the Luhn check every payment card number passes (an ISBN-13 mostly does not). */
const luhn = (text: string): boolean => {
  const digits = text.replace(/\D/g, "");
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    const d = Number(digits[i]) * (double ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return sum % 10 === 0;
};

/** What looks like a secret or personal data in text that reaches an LLM provider; a match must also pass the check beside it, if any. */
const SENSITIVE: readonly (readonly [RegExp, string, ((match: string) => boolean)?])[] = [
  [/\b[A-Za-z0-9._%+-]+@(?!(?:[A-Za-z0-9-]+\.)*example\.(?:com|org|net)\b)(?![A-Za-z0-9-]+\.(?:example|test|invalid|localhost)\b)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/, "an e-mail address"],
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}\b|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,}\b|\bxox[abpr]-[A-Za-z0-9-]{10,}\b/, "an API key"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/, "a token"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/\b(?:\d[ -]?){13,16}\b/g, "a card number", luhn],
];

const sensitiveIn = (text: string): string | undefined =>
  SENSITIVE.find(([pattern, , holds]) => (holds === undefined ? pattern.test(text) : [...text.matchAll(pattern)].some(([match]) => holds(match))))?.[1];

/** Every string inside a JSON value. */
/** The strings in `value`, each with its JSON pointer (after `at`). */
const strings = (value: JsonValue, at = ""): [text: string, pointer: string][] =>
  typeof value === "string"
    ? [[value, at]]
    : Array.isArray(value)
      ? value.flatMap((item, i) => strings(item, `${at}/${i}`))
      : value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([key, item]) => strings(item, `${at}/${escapePointer(key)}`))
        : [];

interface Finding {
  readonly rule: LintRule;
  readonly loc: SourceLocation;
  readonly params: Params;
  /** The field it concerns, whose own `lint:` may turn it off. */
  readonly field?: Field;
}

const isControl = (field: Field): boolean => CONTROL_FIELD.test(field.name);

/** Whether `type` is, or holds as a list's, map's or tuple's item, a `json` with no bound. */
const holdsUnboundedJson = (type: TypeNode): boolean =>
  type.kind === "json"
    ? type.maxDepth === undefined && type.maxBytes === undefined
    : type.kind === "list" || type.kind === "map"
      ? holdsUnboundedJson(type.of)
      : type.kind === "tuple" && type.items.some(holdsUnboundedJson);

/** The types `type` holds: a list's or map's items, a tuple's, an untagged union's variants. */
const heldTypes = (type: TypeNode): readonly TypeNode[] =>
  type.kind === "list" || type.kind === "map"
    ? [type.of]
    : type.kind === "tuple"
      ? type.items
      : type.kind === "oneOf"
        ? type.variants.map((variant) => variant.type)
        : [];

/** Whether `type` holds, as a list's, map's or tuple's item or an untagged union's variant, a string with no bound. */
const holdsUnboundedString = (type: TypeNode): boolean =>
  type.kind === "string" ? type.maxLength === undefined && type.pattern === undefined && type.format === undefined : heldTypes(type).some(holdsUnboundedString);

/** Whether `type` is, or holds as a list's, map's or tuple's item or an untagged union's variant, a list with no maxItems. */
const holdsUnboundedList = (type: TypeNode): boolean => (type.kind === "list" && type.maxItems === undefined) || heldTypes(type).some(holdsUnboundedList);

/** The numeric types `type` is or holds as a list's, map's or tuple's item or an untagged union's variant. */
const numericTypes = (type: TypeNode): NumericType[] => (type.kind === "int" || type.kind === "number" ? [type] : heldTypes(type).flatMap(numericTypes));

/**
 * The first of the multiples of `step` as written in decimal (step × 1, × 2, ... × 1,000, with the
 * step's decimals) that `isMultipleOf` rejects: 0.07 for 0.01. None for an integer step or one a
 * power of two divides into an integer (0.5, 0.125), which binary floating point holds exactly.
 */
const inexactMultiple = (step: number): number | undefined => {
  if (Number.isInteger(step * 2 ** 30)) return undefined;
  const decimals = /\.(\d+)$/.exec(String(step))?.[1]?.length;
  if (decimals === undefined || decimals > 20) return undefined;
  for (let i = 1; i <= 1000; i++) {
    const written = Number((i * step).toFixed(decimals));
    if (!isMultipleOf(written, step)) return written;
  }
  return undefined;
};

const fieldFindings = (field: Field, path: string, contract: Contract, version: ResolvedVersion): Finding[] => {
  const findings: Finding[] = [];
  const at = (rule: LintRule, params: Params): Finding => ({ rule, loc: field.loc, params, field });
  const type = field.type;
  if (field.default !== undefined && (isControl(field) || type.kind === "enum")) findings.push(at("default-on-control-field", { field: path }));
  if (type.kind === "string" && isControl(field) && type.pattern === undefined) findings.push(at("open-string-enum", { field: path }));
  if (type.kind === "string" && type.maxLength === undefined && type.pattern === undefined && type.format === undefined) {
    findings.push(at(BLOB_FIELD.test(field.name) ? "blob-not-ref" : "unbounded-string", { field: path }));
  } else if (BLOB_FIELD.test(field.name) && type.kind === "string" && (type.maxLength ?? 0) > 10_000) {
    findings.push(at("blob-not-ref", { field: path }));
  } else if (type.kind !== "string" && holdsUnboundedString(type)) {
    // Inside a list, map or tuple: each item is as unbounded as the field would be.
    findings.push(at("unbounded-string", { field: path }));
  }
  if (holdsUnboundedList(type)) findings.push(at("unbounded-list", { field: path }));
  for (const numeric of numericTypes(type)) {
    const value = numeric.multipleOf === undefined ? undefined : inexactMultiple(numeric.multipleOf);
    if (value !== undefined) findings.push(at("inexact-multiple-of", { field: path, step: String(numeric.multipleOf), value: String(value) }));
  }
  if (contract.kind === "command" && holdsUnboundedJson(type)) findings.push(at("unbounded-json", { field: path }));
  if (field.nullable === PLACEHOLDER_MEANING) findings.push(at("placeholder-meaning", { where: `what null means for '${path}'`, placeholder: PLACEHOLDER_MEANING }));
  const texts: [string, string][] = [];
  if (type.kind === "string" && type.pattern !== undefined) texts.push([type.pattern, `the pattern of '${path}'`]);
  if (type.kind === "const" && typeof type.value === "string") texts.push([type.value, `the constant of '${path}'`]);
  if (field.default !== undefined) for (const [text] of strings(field.default)) texts.push([text, `the default of '${path}'`]);
  if (type.kind === "enum") {
    for (const value of version.enums.get(type.name)?.values ?? []) texts.push([value.name, `a value of enum '${type.name}'`]);
  }
  for (const [text, where] of texts) {
    const what = sensitiveIn(text);
    if (what) findings.push(at("sensitive-value-in-schema", { where, what }));
  }
  return findings;
};

/** Fields with their dotted paths, through inline objects, list items and named types. */
const walk = function* (fields: readonly Field[], version: ResolvedVersion, prefix = "", seen = new Set<string>()): Generator<[Field, string]> {
  for (const field of fields) {
    const path = prefix + field.name;
    yield [field, path];
    const inner = (type: TypeNode): readonly Field[] => {
      if (type.kind === "object") return type.fields;
      if (type.kind === "list" || type.kind === "map") return inner(type.of);
      if (type.kind === "tuple") return type.items.flatMap(inner);
      if (type.kind === "named" && !seen.has(type.name)) {
        seen.add(type.name);
        return version.types.get(type.name)?.fields ?? [];
      }
      return [];
    };
    yield* walk(inner(field.type), version, `${path}.`, seen);
  }
};

const versionFindings = (contract: Contract, version: ResolvedVersion): Finding[] => {
  const findings: Finding[] = [];
  if (version.fields.length >= 2 && version.fields.every((f) => f.optional)) {
    findings.push({ rule: "everything-optional", loc: version.loc, params: { version: version.version } });
  }
  for (const [field, path] of walk(version.fields, version)) findings.push(...fieldFindings(field, path, contract, version));
  for (const example of version.examples) {
    for (const [text, pointer] of strings(example.value, "value")) {
      const what = sensitiveIn(text);
      if (what) findings.push({ rule: "sensitive-value-in-schema", loc: locAt(example, pointer), params: { where: `an example of ${version.version}`, what } });
    }
  }
  for (const def of version.enums.values()) {
    for (const value of def.values) {
      if (value.meaning === PLACEHOLDER_MEANING) findings.push({ rule: "placeholder-meaning", loc: value.loc, params: { where: `value '${value.name}' of enum '${def.name}'`, placeholder: PLACEHOLDER_MEANING } });
    }
  }
  if (!contract.owner) findings.push({ rule: "no-owner", loc: contract.loc, params: { name: contract.name } });
  return findings;
};

export const lint = (project: Project): StageResult<Project> => {
  const diagnostics = new Map<string, Diagnostic>();
  for (const contract of project.contracts) {
    for (const version of contract.versions) {
      for (const finding of versionFindings(contract, version)) {
        if (contract.lintIgnore?.has(finding.rule) || finding.field?.lintIgnore?.has(finding.rule)) continue;
        const diagnostic = createDiagnostic(finding.rule, finding.loc, finding.params);
        // A field shared by several versions is reported once, where it is written.
        diagnostics.set(`${diagnostic.code}|${diagnostic.loc?.line}|${diagnostic.loc?.col}|${diagnostic.message}`, diagnostic);
      }
    }
  }
  return { value: project, diagnostics: [...diagnostics.values()] };
};
