// The proof that an untagged union's variants are disjoint, and the cheap tests it yields: `check`
// reports the pairs it cannot separate, validators select a variant with the tests and check only
// that one, so their issues point inside it. Disjoint means: different JSON types (an integer is a
// number too), constants and enum values none of which the other accepts, or, for two objects, a
// required field whose type the other's field of that name excludes, or which the other (rejecting
// unknown keys) cannot have, or strings of patterns no string matches both of (pattern-language.ts:
// `^usr_` and `^org_`). Anything finer (bounds) is not proved: it counts as overlap.
import type { Contract, Field, OneOfType, OpenObject, ResolvedVersion, TypeNode } from "./model.js";
import { objectPolicy } from "./open-objects.js";
import { patternsDisjoint } from "./pattern-language.js";
import { refPattern } from "./ref-pattern.js";

/** A JSON value's sort: its JSON type, with numbers split so that `int` and `number` compare. */
export type Sort = "string" | "integer" | "fraction" | "boolean" | "null" | "array" | "object";
export type Primitive = string | number | boolean | null;

/** The values a type may take, as far as the proof looks: their sorts and, if finite, the values. */
export interface Atom {
  readonly sorts: ReadonlySet<Sort>;
  readonly values?: readonly Primitive[];
  /** Of its strings, only those that match this pattern (`u` flag, a search). */
  readonly pattern?: string;
}

/**
 * A test on a value: one of `values`; not a string, or one matching `pattern`; or, on an object,
 * its field `field` present (with `atom`: and of that atom, or absent when `absentPasses`).
 * `negate` turns it around.
 */
export type Test =
  | { readonly kind: "values"; readonly values: readonly Primitive[]; readonly negate: boolean }
  | { readonly kind: "pattern"; readonly pattern: string }
  | { readonly kind: "field"; readonly field: string; readonly atom?: Atom; readonly absentPasses: boolean; readonly negate: boolean };

/** How a validator selects one variant: a value of its sorts passing every test is of no other variant. */
export interface VariantSelector {
  readonly sorts: ReadonlySet<Sort>;
  readonly tests: readonly Test[];
}

export interface Overlap {
  /** 0-based variant indexes, first < second. */
  readonly first: number;
  readonly second: number;
  readonly why: string;
}

/** What the proof knows of one variant. */
export interface Described extends Atom {
  /** For an object: its declared fields, and whether it rejects others. */
  readonly fields?: ReadonlyMap<string, { readonly required: boolean; readonly atom: Atom }>;
  readonly closed?: boolean;
}

const SORT_WORDS: Readonly<Record<Sort, string>> = {
  string: "strings",
  integer: "integers",
  fraction: "numbers with a fraction",
  boolean: "booleans",
  null: "null",
  array: "arrays",
  object: "objects",
};

export const sortOfValue = (value: Primitive): Sort =>
  value === null ? "null" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "fraction") : (typeof value as "string" | "boolean");

const sorts = (...list: Sort[]): ReadonlySet<Sort> => new Set(list);

/**
 * What the proof knows of a type at `version`; an object is closed when its policy rejects unknown
 * keys. A field's own type is described `shallow` (its JSON types and values): the proof looks one
 * object deep, which also keeps it finite on recursive types.
 */
const describe = (type: TypeNode, version: ResolvedVersion, contract: Pick<Contract, "unknownFields">, shallow = false): Described => {
  const objectOf = (object: (OpenObject & { readonly fields: readonly Field[] }) | undefined): Described =>
    shallow
      ? { sorts: sorts("object") }
      : {
          sorts: sorts("object"),
          fields: new Map((object?.fields ?? []).map((f) => [f.name, { required: !f.optional, atom: fieldAtom(f, version, contract) }])),
          closed: objectPolicy(contract, object).unknownFields === "reject",
        };
  switch (type.kind) {
    case "string":
      return type.pattern === undefined ? { sorts: sorts("string") } : { sorts: sorts("string"), pattern: type.pattern };
    case "ref":
      return { sorts: sorts("string"), pattern: refPattern(type.scheme) };
    case "timestamp":
      return { sorts: sorts("string") };
    case "int":
      return { sorts: sorts("integer") };
    case "number":
      return { sorts: sorts("integer", "fraction") };
    case "bool":
      return { sorts: sorts("boolean") };
    case "const":
      return { sorts: sorts(sortOfValue(type.value)), values: [type.value] };
    case "enum":
      return { sorts: sorts("string"), values: version.enums.get(type.name)?.values.map((v) => v.name) ?? [] };
    case "list":
    case "tuple":
      return { sorts: sorts("array") };
    case "json":
      return { sorts: sorts("null", "boolean", "integer", "fraction", "string", "array", "object") };
    case "map":
    case "contract":
      return { sorts: sorts("object") };
    case "object":
      return objectOf(type);
    case "named":
      return objectOf(version.types.get(type.name));
    case "union": {
      // Only its tag is looked at: the other fields differ by variant.
      const tag: Atom = { sorts: sorts("string"), values: type.variants.map((v) => v.value) };
      return { sorts: sorts("object"), fields: new Map([[type.tag, { required: true, atom: tag }]]), closed: false };
    }
    case "oneOf": {
      const all = type.variants.map((v) => describe(v.type, version, contract, shallow));
      return { sorts: new Set(all.flatMap((d) => [...d.sorts])) };
    }
  }
};

const fieldAtom = (field: Field, version: ResolvedVersion, contract: Pick<Contract, "unknownFields">): Atom => {
  const { sorts: of, values, pattern } = describe(field.type, version, contract, true);
  const matching = pattern === undefined ? {} : { pattern };
  if (field.nullable === undefined) return values ? { sorts: of, values } : { sorts: of, ...matching };
  const withNull = new Set([...of, "null" as const]);
  return values ? { sorts: withNull, values: [...values, null] } : { sorts: withNull, ...matching };
};

/** Patterns compiled for `matchesPattern`, a few hundred at most (a long-lived process starts over). */
const compiled = new Map<string, RegExp>();
const COMPILED = 512;
/** Whether `value` is not a string or matches `pattern`, as generated code tests it. */
const matchesPattern = (pattern: string, value: unknown): boolean => {
  if (typeof value !== "string") return true;
  let re = compiled.get(pattern);
  if (re === undefined) {
    if (compiled.size >= COMPILED) compiled.clear();
    compiled.set(pattern, (re = new RegExp(pattern, "u")));
  }
  return re.test(value);
};

const accepts = (atom: Atom, value: Primitive): boolean =>
  atom.sorts.has(sortOfValue(value)) && (atom.values === undefined || atom.values.includes(value)) && (atom.pattern === undefined || matchesPattern(atom.pattern, value));

/** Why some string is of both atoms (each of sort string, neither finite); undefined when none is. */
const stringOverlap = (a: Atom, b: Atom): string | undefined => {
  if (a.pattern === undefined || b.pattern === undefined) {
    const only = a.pattern ?? b.pattern;
    return only === undefined ? `both accept ${SORT_WORDS.string}` : `both accept strings matching /${only}/`;
  }
  const verdict = patternsDisjoint(a.pattern, b.pattern);
  if (verdict === undefined) return `whether a string matches both /${a.pattern}/ and /${b.pattern}/ was not decided (a backreference, a lookaround or too large an automaton)`;
  return verdict.disjoint ? undefined : `both accept ${JSON.stringify(verdict.witness)}`;
};

/** Why some value is of both atoms; undefined when none is. */
const atomOverlap = (a: Atom, b: Atom): string | undefined => {
  const common = [...a.sorts].filter((s) => b.sorts.has(s));
  if (common.length === 0) return undefined;
  const finite = a.values ?? b.values;
  if (finite !== undefined) {
    const other = a.values ? b : a;
    const shared = finite.find((value) => accepts(other, value));
    return shared === undefined ? undefined : `both accept ${JSON.stringify(shared)}`;
  }
  // Strings may be told apart by their patterns; any other common sort overlaps.
  if (common[0] !== "string") return `both accept ${SORT_WORDS[common[0]!]}`;
  const other = common.find((s) => s !== "string");
  return stringOverlap(a, b) ?? (other === undefined ? undefined : `both accept ${SORT_WORDS[other]}`);
};

/** A pair of tests, each passed by every value of its variant and failed by every value of the other, or why there is none. */
const separate = (a: Described, b: Described): readonly [Test, Test] | string => {
  const overlap = atomOverlap(a, b);
  if (overlap === undefined) {
    // Both tests positive where both sides are finite: a value of neither then selects nothing.
    // Neither finite, their strings are told apart by their patterns.
    const test = (d: Described, other: Described): Test =>
      d.values
        ? { kind: "values", values: d.values, negate: false }
        : other.values
          ? { kind: "values", values: other.values, negate: true }
          : { kind: "pattern", pattern: d.pattern! };
    return [test(a, b), test(b, a)];
  }
  if (!a.fields || !b.fields || [...a.sorts].some((s) => s !== "object") || [...b.sorts].some((s) => s !== "object")) return overlap;
  /** A required field of `one` that tells it from `other`: [one's test, other's test]. */
  const witness = (one: Described, other: Described): readonly [Test, Test] | undefined => {
    for (const [field, mine] of one.fields!) {
      if (!mine.required) continue;
      const theirs = other.fields!.get(field);
      if (theirs === undefined) {
        if (other.closed) return [{ kind: "field", field, absentPasses: false, negate: false }, { kind: "field", field, absentPasses: false, negate: true }];
      } else if (atomOverlap(mine.atom, theirs.atom) === undefined) {
        return [
          { kind: "field", field, atom: mine.atom, absentPasses: false, negate: false },
          { kind: "field", field, atom: theirs.atom, absentPasses: !theirs.required, negate: false },
        ];
      }
    }
    return undefined;
  };
  const reversed = witness(b, a);
  return (
    witness(a, b) ??
    (reversed && [reversed[1], reversed[0]]) ??
    "both accept objects, and no required field of one is missing from the other or of a type the other's field excludes"
  );
};

/** Whether `value` passes `test`. */
const passes = (test: Test, value: unknown): boolean => {
  if (test.kind === "pattern") return matchesPattern(test.pattern, value);
  const holds = (): boolean => {
    if (test.kind === "values") return test.values.includes(value as Primitive);
    const field = typeof value === "object" && value !== null && Object.hasOwn(value, test.field) ? (value as Record<string, unknown>)[test.field] : undefined;
    if (field === undefined) return test.absentPasses;
    return test.atom === undefined || (isPrimitive(field) ? accepts(test.atom, field) : test.atom.sorts.has(Array.isArray(field) ? "array" : "object"));
  };
  return holds() !== test.negate;
};

const isPrimitive = (value: unknown): value is Primitive => value === null || ["string", "number", "boolean"].includes(typeof value);

/** The sort of any JSON value. */
export const sortOf = (value: unknown): Sort => (isPrimitive(value) ? sortOfValue(value) : Array.isArray(value) ? "array" : "object");

/** The index of the variant `selectors` select for `value`, if any: the one variant it can be of. */
export const selectVariant = (selectors: readonly VariantSelector[], value: unknown): number | undefined => {
  const index = selectors.findIndex((s) => s.sorts.has(sortOf(value)) && s.tests.every((t) => passes(t, value)));
  return index < 0 ? undefined : index;
};

/**
 * The selector of each variant of `type` at `version`, and every pair of variants the proof cannot
 * tell apart (selectors are only sound when there is none).
 */
export const distinguishVariants = (
  type: OneOfType,
  version: ResolvedVersion,
  contract: Pick<Contract, "unknownFields">,
): { readonly selectors: readonly VariantSelector[]; readonly overlaps: readonly Overlap[] } =>
  distinguishDescribed(type.variants.map((v) => describe(v.type, version, contract)));

/** The same for variants described by another source (the importer's JSON Schema branches). */
export const distinguishDescribed = (described: readonly Described[]): { readonly selectors: readonly VariantSelector[]; readonly overlaps: readonly Overlap[] } => {
  const tests: Test[][] = described.map(() => []);
  const overlaps: Overlap[] = [];
  for (let i = 0; i < described.length; i++) {
    for (let j = i + 1; j < described.length; j++) {
      const a = described[i]!;
      const b = described[j]!;
      if (![...a.sorts].some((s) => b.sorts.has(s))) continue; // the sort tests separate them
      const pair = separate(a, b);
      if (typeof pair === "string") overlaps.push({ first: i, second: j, why: pair });
      else {
        tests[i]!.push(pair[0]);
        tests[j]!.push(pair[1]);
      }
    }
  }
  return { selectors: described.map((d, i) => ({ sorts: d.sorts, tests: tests[i]! })), overlaps };
};

/** A variant as a diagnostic names it: its position (1-based) and its type. */
export const variantLabel = (type: OneOfType, index: number): string => {
  const t = type.variants[index]!.type;
  const what =
    t.kind === "named" || t.kind === "enum" ? t.name : t.kind === "const" ? `const ${JSON.stringify(t.value)}` : t.kind === "oneOf" ? "union" : t.kind;
  return `${index + 1} (${what})`;
};
