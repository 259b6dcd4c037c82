// Mutations derived from a version's schema, each from the version's base value and each expected
// to fail with one issue code (or, for a bound's edge, to pass): a required field dropped, a wrong
// JSON type, a value outside an enum or constant, each bound crossed by the smallest step (to the
// next multiple with a `multipleOf`) while the bound itself passes, a pattern or format broken, an
// unknown key, each rule broken. Nested objects, the first item of a list and the first entry of a
// map are mutated; an optional field the base value lacks, or one item of an empty list or map, is
// put in (synthesized) and mutated there.
// Long values are described (`make`), and a bound's edge too long to build is left out, saying so.
import { rootFields } from "../ir/envelope.js";
import type { Contract, Field, JsonType, JsonValue, ListType, NumericType, OpenObject, ResolvedVersion, Rule, StringType, TupleType, TypeNode } from "../ir/model.js";
import { objectPolicy } from "../ir/open-objects.js";
import { JSON_DEPTH_LIMIT } from "../runtime/json-value.js";
import { refPattern } from "../ir/ref-pattern.js";
import { maxDepthOf, recursiveTypes } from "../ir/recursion.js";
import { escapePointer } from "../runtime/issue.js";
import { build, type Made } from "../testing/cases-file.js";
import type { Edit, Expectation, MutationCase } from "./model.js";
import { nonMatching, samplePattern, withTextBeside } from "./pattern-sample.js";
import { tooDeep } from "./too-deep.js";
import { isMultipleOf } from "../runtime/multiple-of.js";
import { own } from "../runtime/shape.js";
import { putKey } from "../runtime/snapshot.js";
import { hasDuplicates } from "../runtime/unique.js";
import { distinguishVariants, selectVariant, variantLabel, type VariantSelector } from "../ir/one-of-variants.js";
import { FORMAT_NEAR_MISSES, fieldAtPath, fitsString, instantOf, nearestFitting, nextDouble, stringOfLength, tooLong, type Synthesizer } from "./synthesize.js";

/** The key added where unknown keys are rejected; any name the object does not declare would do. */
export const UNKNOWN_KEY = "unexpected_key";

/** Values tried, in order, for one an untagged union selects no variant for. */
const NO_VARIANT_CANDIDATES: readonly JsonValue[] = [[], {}, "42", 42, 0.5, true, { [UNKNOWN_KEY]: true }];

/** `value`, which sits at pointer `at`, with the edits at or below `at` applied; undefined when none is. */
const editedAt = (value: JsonValue, at: string, edits: readonly Edit[]): { readonly value: JsonValue | undefined } | undefined => {
  const mine = edits.filter((e) => pathOf(e) === at || pathOf(e).startsWith(`${at}/`));
  if (mine.length === 0) return undefined;
  let root: JsonValue | undefined = structuredClone(value);
  for (const edit of mine) {
    const to = ("remove" in edit ? undefined : "make" in edit ? build(edit.make) : edit.value) as JsonValue | undefined;
    const keys = pathOf(edit).slice(at.length).split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (keys.length === 0) {
      root = to;
      continue;
    }
    const parent = keys.slice(0, -1).reduce<JsonValue | undefined>((v, k) => (isObject(v) || Array.isArray(v) ? own(v as JsonObject, k) : undefined), root);
    if (!isObject(parent) && !Array.isArray(parent)) continue;
    if (to === undefined) delete (parent as JsonObject)[keys.at(-1)!];
    else putKey(parent as JsonObject, keys.at(-1)!, to);
  }
  return { value: root };
};

/** The key of the entry put into an empty map. */
const MAP_KEY = "key";

// A run of one character this long or longer is described as `{ repeat, times }`; a list of this
// many equal items or more as `{ list, times }`.
const LONG_RUN = 16;
const LONG_LIST = 4;

/** `s` as parts, its long runs of one character described; undefined when it has none. */
export const describeText = (s: string): Made | undefined => {
  const parts: (string | { repeat: string; times: number })[] = [];
  let long = false;
  for (const [run, char] of s.matchAll(/(.)\1*/gsu) as IterableIterator<[string, string]>) {
    const times = run.length / char.length;
    if (times >= LONG_RUN) {
      parts.push({ repeat: char, times });
      long = true;
    } else if (typeof parts.at(-1) === "string") parts[parts.length - 1] += run;
    else parts.push(run);
  }
  return long ? { text: parts } : undefined;
};

const pathOf = (edit: Edit): string => ("remove" in edit ? edit.remove : edit.set);

type JsonObject = { [key: string]: JsonValue };

const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Where a mutation happens: its pointer and the name tests read (`result.claims[0].text`). */
interface Site {
  readonly path: string;
  readonly name: string;
}

const child = (site: Site, key: string): Site => ({
  path: `${site.path}/${escapePointer(key)}`,
  name: site.name === "" ? key : `${site.name}.${key}`,
});

const item = (site: Site, index: number): Site => ({ path: `${site.path}/${index}`, name: `${site.name}[${index}]` });

export const deriveMutations = (contract: Contract, version: ResolvedVersion, base: JsonValue, synthesizer: Synthesizer): MutationCase[] => {
  const cases: MutationCase[] = [];
  // While mutating values the base lacks: the edits that put them in, outermost first, and whether
  // an edge may still be expected to pass (not when a rule names the field: putting it in may break the rule).
  const inserted: { readonly edit: Edit; readonly edgesPass: boolean }[] = [];
  // While mutating inside untagged union variants, outermost first: where each is, the variant
  // being mutated, and its value there.
  const unions: { readonly site: Site; readonly selectors: readonly VariantSelector[]; readonly index: number; readonly value: JsonValue }[] = [];
  // While mutating an item of a `unique` list, outermost first: where the list is and its items.
  const uniqueLists: { readonly site: Site; readonly items: readonly JsonValue[] }[] = [];
  const add = (title: string, edits: readonly Edit[], given?: Expectation, roundTrip?: true): void => {
    let expect = given;
    if (expect === undefined && inserted.some((i) => !i.edgesPass)) return;
    // A mutation that leaves its variant fails at the union: no variant is selected. One that
    // selects another variant is left out (its verdict is that variant's).
    for (const u of unions) {
      const mutated = editedAt(u.value, u.site.path, edits);
      if (mutated === undefined) continue;
      const now = selectVariant(u.selectors, mutated.value);
      if (now === u.index) continue;
      if (now !== undefined || expect === undefined) return;
      expect = { path: u.site.path, code: "union" };
      break;
    }
    // An edge that makes the item equal to another of a unique list cannot pass: left out.
    if (expect === undefined) {
      for (const u of uniqueLists) {
        const mutated = editedAt(u.items as JsonValue, u.site.path, edits);
        if (mutated !== undefined && Array.isArray(mutated.value) && hasDuplicates(mutated.value)) return;
      }
    }
    // An edit replaced by a later one at the same path (another union variant put in) is left out.
    const later = [...inserted.map((i) => i.edit), ...edits];
    const insert = inserted.map((i) => i.edit).filter((edit, k) => !later.slice(k + 1).some((e) => pathOf(e) === pathOf(edit)));
    const all = [...insert, ...edits];
    cases.push(expect === undefined ? { title, edits: all, ...(roundTrip && { roundTrip }) } : { title, edits: all, expect });
  };
  /** A case left out because its value would be too long to build. */
  const skipped = (title: string, skip: string, expect?: Expectation): void => {
    if (expect === undefined && inserted.some((i) => !i.edgesPass)) return;
    cases.push(expect === undefined ? { title, skip } : { title, skip, expect });
  };
  /** Mutations of `value`, which the base lacks, after `edit` puts it in. */
  /** The named types whose values enclose the one being mutated. */
  const walking: string[] = [];
  /** Runs `mutate` inside a value of the named type `name` (none: an inline object). */
  const within = (name: string | undefined, mutate: () => void): void => {
    if (name !== undefined) walking.push(name);
    mutate();
    if (name !== undefined) walking.pop();
  };
  const recursive = recursiveTypes(version);
  /** Named types whose content is mutated already, where the base holds them as they are. */
  const mutatedTypes = new Set<string>();
  /** Recursive types whose depth bound has its case, once each. */
  const deepened = new Set<string>();
  const tooDeepMutation = (name: string, site: Site): void => {
    if (deepened.has(name)) return;
    deepened.add(name);
    const deep = tooDeep(version, name, (n) => synthesized({ kind: "named", name: n }));
    const what = `nested past its depth bound (${name} maxDepth ${maxDepthOf(version.types.get(name)!)})`;
    if (deep) add(`rejects ${site.name} ${what}`, [set(site, deep.value)], { path: site.path + deep.pointer, code: "depth" });
  };
  const insertedMutations = (edit: Edit, edgesPass: boolean, mutate: () => void): void => {
    inserted.push({ edit, edgesPass });
    mutate();
    inserted.pop();
  };
  const ruleFields = version.rules.flatMap((r) => (r.kind === "before" ? [r.first, r.second] : r.kind === "exclusive" ? r.fields : [r.if, ...r.then]));
  const namedByRule = (name: string): boolean => ruleFields.some((f) => f === name || f.startsWith(`${name}.`) || name.startsWith(`${f}.`));
  /** An edit putting `value` at `site`, a string's long runs described. */
  const set = (site: Site, value: JsonValue): Edit => {
    const text = typeof value === "string" ? describeText(value) : undefined;
    return text === undefined ? { set: site.path, value } : { set: site.path, make: text };
  };
  const rejectsWith = (site: Site, what: string, edit: Edit, code: string): void => add(`rejects ${site.name} ${what}`, [edit], { path: site.path, code });
  const acceptsWith = (site: Site, what: string, edit: Edit): void => add(`accepts ${site.name} ${what}`, [edit]);
  const rejects = (site: Site, what: string, value: JsonValue, code: string): void => rejectsWith(site, what, set(site, value), code);
  const accepts = (site: Site, what: string, value: JsonValue): void => acceptsWith(site, what, set(site, value));

  /** A minimal valid value of `type`, when treaty can make one. */
  const synthesized = (type: TypeNode): JsonValue | undefined => {
    const made = synthesizer.value(contract, version, type);
    return "value" in made ? made.value : undefined;
  };
  const enumValues = (name: string): readonly string[] => version.enums.get(name)!.values.map((v) => v.name);
  const objectOf = (type: TypeNode): (OpenObject & { readonly fields: readonly Field[] }) | undefined =>
    type.kind === "object" ? type : type.kind === "named" ? version.types.get(type.name)! : undefined;
  const fieldsOf = (type: TypeNode): readonly Field[] | undefined => objectOf(type)?.fields;

  /** A value of another JSON type, and the code the validator reports for it; for an untagged union, one no variant is selected for; none for `json`, which takes every type. */
  const wrongType = (type: TypeNode): { value: JsonValue; code: string } | undefined => {
    switch (type.kind) {
      case "oneOf": {
        const selectors = distinguishVariants(type, version, contract).selectors;
        const value = NO_VARIANT_CANDIDATES.find((candidate) => selectVariant(selectors, candidate) === undefined);
        return value === undefined ? undefined : { value, code: "union" };
      }
      case "json":
        return undefined;
      case "string":
      case "timestamp":
      case "ref":
        return { value: 42, code: "type" };
      case "int":
      case "number":
        return { value: "42", code: "type" };
      case "bool":
        return { value: "true", code: "type" };
      case "list":
      case "tuple":
        return { value: {}, code: "type" };
      case "enum":
        return { value: 42, code: "enum" };
      case "const":
        // Of another JSON type than the constant: 42 is the constant 42 itself.
        return { value: typeof type.value === "number" ? "42" : 42, code: "const" };
      default:
        return { value: [], code: "type" };
    }
  };

  const outsideEnum = (values: readonly string[]): string => {
    let candidate = "NOT_A_VALUE";
    while (values.includes(candidate)) candidate += "_";
    return candidate;
  };

  // A number one up, or from 2^53 on, where one up rounds back to the constant, its negation.
  const otherConstant = (value: string | number | boolean | null): string | number | boolean =>
    value === null ? false : typeof value === "string" ? `${value}-other` : typeof value === "number" ? (value + 1 !== value ? value + 1 : -value) : !value;

  /** A string of `length` (made by `make`) accepted or rejected at `site`, or left out when too long to build. */
  const lengthCase = (site: Site, what: string, length: number, make: () => string | undefined, code?: string): void => {
    const expect = code === undefined ? undefined : { path: site.path, code };
    const over = tooLong(length, "characters");
    if (over) return skipped(`${code === undefined ? "accepts" : "rejects"} ${site.name} ${what}`, over, expect);
    const s = make();
    if (s === undefined) return;
    if (code === undefined) accepts(site, what, s);
    else rejects(site, what, s, code);
  };

  const stringMutations = (t: StringType, site: Site): void => {
    if (t.minLength !== undefined && t.minLength > 0) {
      const n = t.minLength;
      lengthCase(site, `at minLength ${n}`, n, () => stringOfLength(t, n));
      lengthCase(site, `below minLength ${n}`, n - 1, () => stringOfLength({ kind: "string" }, n - 1), "minLength");
    }
    if (t.maxLength !== undefined) {
      const n = t.maxLength;
      lengthCase(site, `at maxLength ${n}`, n, () => stringOfLength(t, n));
      // The edge plus one character keeps the pattern where the pattern allows; length is what fails.
      lengthCase(site, `above maxLength ${n}`, n + 1, () => stringOfLength({ ...t, maxLength: undefined }, n + 1) ?? stringOfLength({ kind: "string" }, n + 1), "maxLength");
    }
    // Past maxLength the validator examines a string no further: a case breaking its pattern or
    // format is made only within that length.
    const lengthFits = (value: string): boolean => fitsString({ kind: "string", maxLength: t.maxLength }, value);
    if (t.pattern !== undefined) {
      const bad = nonMatching(t.pattern);
      if (bad !== undefined && lengthFits(bad)) rejects(site, `not matching ${t.pattern}`, bad, "pattern");
      // A match with text before it, and one with text after it, fail only while each anchor holds;
      // the text brings the string to its minLength, so that only the anchor rejects it.
      const minLength = t.minLength !== undefined && t.minLength > 1 ? t.minLength - 1 : undefined;
      for (const side of ["before", "after"] as const) {
        const beside = withTextBeside(t.pattern, side, minLength);
        if (beside !== undefined && lengthFits(beside)) rejects(site, `with text ${side} a match of ${t.pattern}`, beside, "pattern");
      }
    }
    if (t.format !== undefined) {
      // A space is no value of any format; the words say more where they fit.
      const invalid = [`invalid ${t.format}`, " "].find(lengthFits);
      if (invalid !== undefined) rejects(site, `that is not a valid ${t.format}`, invalid, "format");
    }
    const nearMiss = t.format === undefined ? undefined : FORMAT_NEAR_MISSES[t.format];
    if (nearMiss !== undefined && fitsString(t, nearMiss)) rejects(site, `just outside ${t.format} (${nearMiss})`, nearMiss, "format");
  };

  const numericMutations = (t: NumericType, site: Site): void => {
    const int = t.kind === "int";
    /**
     * The edge passes (or, when `multipleOf` rules the edge out, the valid value nearest it on the
     * inside) and the crossed value, or the nearest past it that fits the other constraints,
     * fails with the bound's code.
     */
    const bound = (limit: number | undefined, code: "min" | "max" | "exclusiveMin" | "exclusiveMax", edge: number, inward: 1 | -1, crossed: number, words: [string, string]): void => {
      if (limit === undefined) return;
      const inside = nearestFitting(t, edge, inward);
      if (inside === edge) accepts(site, `${words[0]} ${code} ${limit}`, edge);
      else if (inside !== undefined && t.multipleOf !== undefined) accepts(site, `at ${inside}, the multiple of ${t.multipleOf} nearest ${code} ${limit}`, inside);
      // The crossed value moves out to the nearest one meeting every other constraint: off the grid
      // of multipleOf it fails that too, and a validator that lost this bound would still reject it.
      const past = nearestFitting({ ...t, [code]: undefined }, crossed, -inward as 1 | -1) ?? crossed;
      // Past ±Number.MAX_VALUE there is no number to cross to (JSON has no Infinity).
      if (Number.isFinite(past)) rejects(site, `${words[1]} ${code} ${limit}`, past, code);
    };
    if (t.min !== undefined) {
      const edge = int ? Math.ceil(t.min) : t.min;
      bound(t.min, "min", edge, 1, int ? edge - 1 : nextDouble(edge, -1), ["at", "below"]);
    }
    if (t.max !== undefined) {
      const edge = int ? Math.floor(t.max) : t.max;
      bound(t.max, "max", edge, -1, int ? edge + 1 : nextDouble(edge, 1), ["at", "above"]);
    }
    if (t.exclusiveMin !== undefined) {
      const edge = int ? Math.floor(t.exclusiveMin) + 1 : nextDouble(t.exclusiveMin, 1);
      bound(t.exclusiveMin, "exclusiveMin", edge, 1, int ? edge - 1 : t.exclusiveMin, ["just above", "at"]);
    }
    if (t.exclusiveMax !== undefined) {
      const edge = int ? Math.ceil(t.exclusiveMax) - 1 : nextDouble(t.exclusiveMax, -1);
      bound(t.exclusiveMax, "exclusiveMax", edge, -1, int ? edge + 1 : t.exclusiveMax, ["just below", "at"]);
    }
    const valid = synthesized(t);
    if (t.multipleOf !== undefined && typeof valid === "number") {
      const off = valid + (int && t.multipleOf > 1 ? 1 : t.multipleOf / 2);
      if (!isMultipleOf(off, t.multipleOf)) rejects(site, `not a multiple of ${t.multipleOf}`, off, "multipleOf");
    }
  };

  const listMutations = (t: ListType, value: JsonValue, site: Site): void => {
    const items = Array.isArray(value) ? value : [];
    const sample = items[0] ?? synthesized(t.of);
    if (sample === undefined) return;
    /** `n` copies of the sample at `site`, accepted or rejected, or left out when too long to build. */
    const repeated = (what: string, n: number, code?: string): void => {
      const edit: Edit = n >= LONG_LIST ? { set: site.path, make: { list: sample, times: n } } : set(site, Array.from({ length: n }, () => sample));
      const over = tooLong(n, "items");
      if (over) skipped(`${code === undefined ? "accepts" : "rejects"} ${site.name} ${what}`, over, code === undefined ? undefined : { path: site.path, code });
      else if (code === undefined) acceptsWith(site, what, edit);
      else rejectsWith(site, what, edit, code);
    };
    // Repeated items break `unique`: an edge with more than one item is left out there.
    const edgeFits = (n: number): boolean => !t.unique || n <= 1;
    if (t.minItems !== undefined && t.minItems > 0) {
      if (edgeFits(t.minItems)) repeated(`at minItems ${t.minItems}`, t.minItems);
      repeated(`below minItems ${t.minItems}`, t.minItems - 1, "minItems");
    }
    if (t.maxItems !== undefined) {
      if (edgeFits(t.maxItems)) repeated(`at maxItems ${t.maxItems}`, t.maxItems);
      repeated(`above maxItems ${t.maxItems}`, t.maxItems + 1, "maxItems");
    }
    if (t.unique) repeated("with a duplicate item", 2, "unique");
    // An empty list gets one item to mutate.
    if (items.length > 1 && t.unique) {
      uniqueLists.push({ site, items });
      valueMutations(t.of, items[0]!, item(site, 0));
      uniqueLists.pop();
    } else if (items.length > 0) valueMutations(t.of, items[0]!, item(site, 0));
    else if ((t.maxItems ?? 1) >= 1) insertedMutations(set(site, [sample]), true, () => valueMutations(t.of, sample, item(site, 0)));
  };

  /** Each `json` bound met and crossed by one level or one byte; the hard depth cap too when no maxDepth is declared. */
  const jsonMutations = (t: JsonType, site: Site): void => {
    // `levels` arrays, each the only item of the one around it: 2 bytes a level, so depth cases
    // are made only where maxBytes leaves room for them.
    const nested = (levels: number): JsonValue => {
      let value: JsonValue = [];
      for (let level = 1; level < levels; level++) value = [value];
      return value;
    };
    const depthCases = (bound: number, code: string, what: string): void => {
      if (t.maxBytes !== undefined && 2 * bound > t.maxBytes) return;
      accepts(site, `nested to ${what}`, nested(bound));
      rejects(site, `nested past ${what}`, nested(bound + 1), code);
    };
    if (t.maxDepth !== undefined) depthCases(t.maxDepth, "maxDepth", `maxDepth ${t.maxDepth}`);
    else depthCases(JSON_DEPTH_LIMIT, "jsonDepth", `the depth limit ${JSON_DEPTH_LIMIT}`);
    if (t.maxBytes !== undefined) {
      const n = t.maxBytes;
      // A string takes its length plus two quotes; below 2 bytes only a digit fits.
      if (n < 2) {
        accepts(site, `at maxBytes ${n}`, 0);
        rejects(site, `above maxBytes ${n}`, 10, "maxBytes");
      } else {
        lengthCase(site, `at maxBytes ${n}`, n - 2, () => stringOfLength({ kind: "string" }, n - 2));
        lengthCase(site, `above maxBytes ${n}`, n - 1, () => stringOfLength({ kind: "string" }, n - 1), "maxBytes");
      }
    }
  };

  /** A tuple one item short and one item long, then each position's own mutations. */
  const tupleMutations = (t: TupleType, value: readonly JsonValue[], site: Site): void => {
    if (value.length !== t.items.length) return;
    rejects(site, "with an item missing", value.slice(0, -1), "minItems");
    rejects(site, "with an extra item", [...value, value[0]!], "maxItems");
    t.items.forEach((type, i) => {
      const wrong = wrongType(type);
      if (wrong) rejects(item(site, i), "of the wrong type", wrong.value, wrong.code);
      valueMutations(type, value[i]!, item(site, i));
    });
  };

  /** Mutations of a present value of `type` at `site`, beyond its type. */
  const valueMutations = (type: TypeNode, value: JsonValue, site: Site): void => {
    switch (type.kind) {
      case "string":
        if (typeof value === "string") stringMutations(type, site);
        return;
      case "int":
      case "number":
        if (typeof value === "number") numericMutations(type, site);
        return;
      case "timestamp":
        rejects(site, "that is not a valid date-time", "invalid date-time", "format");
        return;
      case "ref": {
        const bad = nonMatching(refPattern(type.scheme));
        if (bad !== undefined) rejects(site, `not starting with ${type.scheme}://`, bad, "pattern");
        return;
      }
      case "enum":
        rejects(site, `outside ${type.name}`, outsideEnum(enumValues(type.name)), "enum");
        return;
      case "const":
        rejects(site, `other than ${JSON.stringify(type.value)}`, otherConstant(type.value), "const");
        return;
      case "list":
        listMutations(type, value, site);
        return;
      case "json":
        jsonMutations(type, site);
        return;
      case "tuple":
        if (Array.isArray(value)) tupleMutations(type, value, site);
        return;
      case "map": {
        const [first] = isObject(value) ? Object.keys(value).sort() : [];
        const entry = first !== undefined ? (value as JsonObject)[first]! : synthesized(type.of);
        if (type.keyPattern !== undefined && entry !== undefined) {
          const bad = nonMatching(type.keyPattern);
          if (bad !== undefined) rejects(child(site, bad), `as a key not matching ${type.keyPattern}`, entry, "key");
          // A key with text beside a match fails only while the pattern's anchor at that side holds.
          for (const side of ["before", "after"] as const) {
            const beside = withTextBeside(type.keyPattern, side);
            if (beside !== undefined) rejects(child(site, beside), `as a key with text ${side} a match of ${type.keyPattern}`, entry, "key");
          }
        }
        if (first !== undefined) {
          valueMutations(type.of, entry!, child(site, first));
          return;
        }
        // An empty map gets one entry to mutate, under a key its pattern allows.
        const key = type.keyPattern === undefined ? MAP_KEY : samplePattern(type.keyPattern);
        if (entry !== undefined && key !== undefined && (type.keyPattern === undefined || new RegExp(type.keyPattern, "u").test(key))) {
          insertedMutations(set(site, { [key]: entry }), true, () => valueMutations(type.of, entry, child(site, key)));
        }
        return;
      }
      case "object":
        if (isObject(value)) objectMutations(type.fields, [], value, site, type);
        return;
      case "named": {
        // A recursive type's value put in inside one of its own is mutated already in the outer one: stop there.
        if (!isObject(value) || (inserted.length > 0 && walking.includes(type.name))) return;
        if (recursive.has(type.name) && !walking.some((n) => recursive.has(n))) tooDeepMutation(type.name, site);
        // One validator checks a named type wherever it occurs: its content is mutated where the base
        // first holds it as it is (nothing put in, no union around), not again at every other place
        // (a type nested in two fields of itself, twelve deep, made 40,000 cases).
        const asIs = inserted.length === 0 && unions.length === 0;
        if (asIs && mutatedTypes.has(type.name)) return;
        if (asIs) mutatedTypes.add(type.name);
        within(type.name, () => objectMutations(fieldsOf(type)!, [], value, site, objectOf(type)));
        return;
      }
      case "union": {
        if (!isObject(value)) return;
        const tag = child(site, type.tag);
        rejects(tag, `outside the variants of ${site.name || "the payload"}`, outsideEnum(type.variants.map((v) => v.value)), "tag");
        // The value's own variant in place; every other one put in (synthesized, with its tag) first.
        for (const variant of type.variants) {
          const object = objectOf(variant.type)!;
          const named = variant.type.kind === "named" ? variant.type.name : undefined;
          const mutate = (v: JsonObject): void => within(named, () => objectMutations(object.fields, [type.tag], v, site, object));
          if (variant.value === value[type.tag]) mutate(value);
          else if (named === undefined || !walking.includes(named)) {
            const made = synthesized({ ...type, variants: [variant] });
            if (isObject(made)) insertedMutations(set(site, made), true, () => mutate(made));
          }
        }
        return;
      }
      case "oneOf": {
        // Each variant's value accepted, and mutated inside that variant: the base's own in place.
        const selectors = distinguishVariants(type, version, contract).selectors;
        const own = selectVariant(selectors, value);
        const within = (index: number, at: JsonValue, mutate: () => void): void => {
          unions.push({ site, selectors, index, value: at });
          mutate();
          unions.pop();
        };
        type.variants.forEach((variant, i) => {
          if (i === own) return within(i, value, () => valueMutations(variant.type, value, site));
          const made = synthesized(variant.type);
          if (made === undefined) return;
          accepts(site, `as variant ${variantLabel(type, i)}`, made);
          insertedMutations(set(site, made), true, () => within(i, made, () => valueMutations(variant.type, made, site)));
        });
        return;
      }
      case "bool":
      case "contract":
        return;
    }
  };

  /** An optional field the base lacks: mutated from a synthesized value put in first. */
  const absentFieldMutations = (field: Field, at: Site): void => {
    const made = synthesized(field.type);
    if (made === undefined) return;
    insertedMutations(set(at, made), !namedByRule(at.name), () => {
      if (field.nullable !== undefined) accepts(at, `null (${field.nullable})`, null);
      valueMutations(field.type, made, at);
    });
  };

  /** `object`: the named or inline object whose unknown-key policy applies (none for the root). */
  const objectMutations = (fields: readonly Field[], extraKeys: readonly string[], value: JsonObject, site: Site, object?: OpenObject): void => {
    for (const field of fields) {
      const at = child(site, field.name);
      const present = Object.hasOwn(value, field.name);
      if (present && !field.optional) add(`rejects a missing ${at.name}`, [{ remove: at.path }], { path: at.path, code: "required" });
      const wrong = wrongType(field.type);
      if (wrong) rejects(at, "of the wrong type", wrong.value, wrong.code);
      const current = value[field.name];
      if (present && current !== null && current !== undefined) {
        if (field.nullable !== undefined) accepts(at, `null (${field.nullable})`, null);
        valueMutations(field.type, current, at);
      } else if (!present) absentFieldMutations(field, at);
    }
    let key = UNKNOWN_KEY;
    const known = [...extraKeys, ...fields.map((f) => f.name)];
    while (known.includes(key)) key += "_";
    const at = child(site, key);
    const where = site.name === "" ? "at the top level" : `in ${site.name}`;
    const policy = objectPolicy(contract, object);
    if (policy.unknownFields === "reject") add(`rejects an unknown key ${where}`, [set(at, true)], { path: at.path, code: "unknown" });
    // A kept key passes (decode keeps it: the generated round-trip tests see it come back); one of
    // another type than `additional` fails.
    if (policy.unknownFields === "keep") {
      const made = policy.additional === undefined ? true : synthesized(policy.additional);
      if (made !== undefined) add(`accepts an unknown key ${where} and keeps it`, [set(at, made)], undefined, true);
      if (policy.additional !== undefined) {
        const wrong = wrongType(policy.additional);
        if (wrong) add(`rejects an unknown key ${where} of another type than additional`, [set(at, wrong.value)], { path: at.path, code: wrong.code });
      }
    }
  };

  const root = isObject(base) ? base : {};
  objectMutations(rootFields(contract, version), [], root, { path: "", name: "" });
  for (const rule of version.rules) ruleMutations(contract, version, rule, root, synthesizer, add);
  return cases;
};

/** A rule broken from the base value: the fields it names set or removed, where their parents exist. */
const ruleMutations = (
  contract: Contract,
  version: ResolvedVersion,
  rule: Rule,
  base: JsonObject,
  synthesizer: Synthesizer,
  add: (title: string, edits: readonly Edit[], expect?: Expectation) => void,
): void => {
  const pointer = (path: string): string => path.split(".").map((s) => `/${escapePointer(s)}`).join("");
  const lookup = (path: string): JsonValue | undefined =>
    path.split(".").reduce<JsonValue | undefined>((v, k) => (isObject(v) && Object.hasOwn(v, k) ? v[k] : undefined), base);
  const parentExists = (path: string): boolean => {
    const keys = path.split(".");
    return keys.length === 1 || isObject(lookup(keys.slice(0, -1).join(".")));
  };
  /** The field's base value, or a synthesized one. */
  const present = (path: string): JsonValue | undefined => {
    const current = lookup(path);
    if (current !== undefined && current !== null) return current;
    const field = fieldAtPath(version, path);
    const made = field && synthesizer.value(contract, version, field.type);
    return made && "value" in made ? made.value : undefined;
  };
  switch (rule.kind) {
    case "before": {
      if (!parentExists(rule.first) || !parentExists(rule.second)) return;
      add(
        `rejects ${rule.second} earlier than ${rule.first} (rule before)`,
        [
          { set: pointer(rule.first), value: instantOf(fieldAtPath(version, rule.first), true) },
          { set: pointer(rule.second), value: instantOf(fieldAtPath(version, rule.second), false) },
        ],
        { path: pointer(rule.second), code: "rule.before" },
      );
      return;
    }
    case "exclusive": {
      const [first, second] = rule.fields;
      if (first === undefined || second === undefined || !parentExists(first) || !parentExists(second)) return;
      const [a, b] = [present(first), present(second)];
      if (a === undefined || b === undefined) return;
      // The other fields of the rule go, so that `second` is the second one present.
      const others = rule.fields.slice(2).filter((f) => lookup(f) !== undefined);
      add(
        `rejects ${first} together with ${second} (rule exclusive)`,
        [...others.map((f): Edit => ({ remove: pointer(f) })), { set: pointer(first), value: a }, { set: pointer(second), value: b }],
        { path: pointer(second), code: "rule.exclusive" },
      );
      return;
    }
    case "requires": {
      if (!parentExists(rule.if)) return;
      const condition = present(rule.if);
      if (condition === undefined) return;
      for (const then of rule.then) {
        // Where an object on its path is absent, so is `then` already.
        const remove: Edit[] = parentExists(then) ? [{ remove: pointer(then) }] : [];
        add(
          `rejects ${rule.if} without ${then} (rule requires)`,
          [{ set: pointer(rule.if), value: condition }, ...remove],
          { path: pointer(then), code: "rule.requires" },
        );
      }
      return;
    }
  }
};
