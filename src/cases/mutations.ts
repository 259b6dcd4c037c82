// Mutations derived from a version's schema, each from the version's base value and each expected
// to fail with one issue code (or, for a bound's edge, to pass): a required field dropped, a wrong
// JSON type, a value outside an enum or constant, each bound crossed by the smallest step while
// the bound itself passes, a pattern or format broken, an unknown key, each rule broken. Nested
// objects, the first item of a list and the first entry of a map are mutated; an optional field
// the base value lacks, or one item of an empty list or map, is put in (synthesized) and mutated there.
// Long values are described (`make`), and a bound's edge too long to build is left out, saying so.
import { rootFields } from "../ir/envelope.js";
import type { Contract, Field, JsonValue, ListType, NumericType, ResolvedVersion, Rule, StringType, TypeNode } from "../ir/model.js";
import { refPattern } from "../ir/ref-pattern.js";
import { maxDepthOf, recursiveTypes } from "../ir/recursion.js";
import { escapePointer } from "../runtime/issue.js";
import type { Made } from "../testing/cases-file.js";
import type { Edit, Expectation, MutationCase } from "./model.js";
import { nonMatching, surrounded } from "./pattern-sample.js";
import { tooDeep } from "./too-deep.js";
import { isMultipleOf } from "../runtime/multiple-of.js";
import { fieldAtPath, instantOf, nearestFitting, nextDouble, stringOfLength, tooLong, type Synthesizer } from "./synthesize.js";

/** The key added where unknown keys are rejected; any name the object does not declare would do. */
export const UNKNOWN_KEY = "unexpected_key";

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
  const add = (title: string, edits: readonly Edit[], expect?: Expectation): void => {
    if (expect === undefined && inserted.some((i) => !i.edgesPass)) return;
    // An edit replaced by a later one at the same path (another union variant put in) is left out.
    const later = [...inserted.map((i) => i.edit), ...edits];
    const insert = inserted.map((i) => i.edit).filter((edit, k) => !later.slice(k + 1).some((e) => pathOf(e) === pathOf(edit)));
    const all = [...insert, ...edits];
    cases.push(expect === undefined ? { title, edits: all } : { title, edits: all, expect });
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
  const fieldsOf = (type: TypeNode): readonly Field[] | undefined =>
    type.kind === "object" ? type.fields : type.kind === "named" ? version.types.get(type.name)!.fields : undefined;

  /** A value of another JSON type, and the code the validator reports for it. */
  const wrongType = (type: TypeNode): { value: JsonValue; code: string } => {
    switch (type.kind) {
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
        return { value: {}, code: "type" };
      case "enum":
      case "const":
        return { value: 42, code: type.kind };
      default:
        return { value: [], code: "type" };
    }
  };

  const outsideEnum = (values: readonly string[]): string => {
    let candidate = "NOT_A_VALUE";
    while (values.includes(candidate)) candidate += "_";
    return candidate;
  };

  const otherConstant = (value: string | number | boolean): string | number | boolean =>
    typeof value === "string" ? `${value}-other` : typeof value === "number" ? value + 1 : !value;

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
    if (t.pattern !== undefined) {
      const bad = nonMatching(t.pattern);
      if (bad !== undefined) rejects(site, `not matching ${t.pattern}`, bad, "pattern");
      // A match with text around it fails only while the anchors hold.
      const around = surrounded(t.pattern);
      if (around !== undefined) rejects(site, `with text around a match of ${t.pattern}`, around, "pattern");
    }
    if (t.format !== undefined) rejects(site, `that is not a valid ${t.format}`, `invalid ${t.format}`, "format");
  };

  const numericMutations = (t: NumericType, site: Site): void => {
    const int = t.kind === "int";
    /**
     * The edge passes (or, when `multipleOf` rules the edge out, the valid value nearest it on the
     * inside) and the crossed value fails with the bound's code.
     */
    const bound = (limit: number | undefined, code: string, edge: number, inward: 1 | -1, crossed: number, words: [string, string]): void => {
      if (limit === undefined) return;
      const inside = nearestFitting(t, edge, inward);
      if (inside === edge) accepts(site, `${words[0]} ${code} ${limit}`, edge);
      else if (inside !== undefined && t.multipleOf !== undefined) accepts(site, `at ${inside}, the multiple of ${t.multipleOf} nearest ${code} ${limit}`, inside);
      rejects(site, `${words[1]} ${code} ${limit}`, crossed, code);
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
    if (items.length > 0) valueMutations(t.of, items[0]!, item(site, 0));
    else if ((t.maxItems ?? 1) >= 1) insertedMutations(set(site, [sample]), true, () => valueMutations(t.of, sample, item(site, 0)));
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
      case "map": {
        const [first] = isObject(value) ? Object.keys(value).sort() : [];
        if (first !== undefined) {
          valueMutations(type.of, (value as JsonObject)[first]!, child(site, first));
          return;
        }
        // An empty map gets one entry to mutate.
        const entry = synthesized(type.of);
        if (entry !== undefined) insertedMutations(set(site, { [MAP_KEY]: entry }), true, () => valueMutations(type.of, entry, child(site, MAP_KEY)));
        return;
      }
      case "object":
        if (isObject(value)) objectMutations(type.fields, [], value, site);
        return;
      case "named":
        // A recursive type's value put in inside one of its own is mutated already in the outer one: stop there.
        if (!isObject(value) || (inserted.length > 0 && walking.includes(type.name))) return;
        if (recursive.has(type.name) && !walking.some((n) => recursive.has(n))) tooDeepMutation(type.name, site);
        within(type.name, () => objectMutations(fieldsOf(type)!, [], value, site));
        return;
      case "union": {
        if (!isObject(value)) return;
        const tag = child(site, type.tag);
        rejects(tag, `outside the variants of ${site.name || "the payload"}`, outsideEnum(type.variants.map((v) => v.value)), "tag");
        // The value's own variant in place; every other one put in (synthesized, with its tag) first.
        for (const variant of type.variants) {
          const fields = fieldsOf(variant.type)!;
          const named = variant.type.kind === "named" ? variant.type.name : undefined;
          const mutate = (v: JsonObject): void => within(named, () => objectMutations(fields, [type.tag], v, site));
          if (variant.value === value[type.tag]) mutate(value);
          else if (named === undefined || !walking.includes(named)) {
            const made = synthesized({ ...type, variants: [variant] });
            if (isObject(made)) insertedMutations(set(site, made), true, () => mutate(made));
          }
        }
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

  const objectMutations = (fields: readonly Field[], extraKeys: readonly string[], value: JsonObject, site: Site): void => {
    for (const field of fields) {
      const at = child(site, field.name);
      const present = Object.hasOwn(value, field.name);
      if (present && !field.optional) add(`rejects a missing ${at.name}`, [{ remove: at.path }], { path: at.path, code: "required" });
      const wrong = wrongType(field.type);
      rejects(at, "of the wrong type", wrong.value, wrong.code);
      const current = value[field.name];
      if (present && current !== null && current !== undefined) {
        if (field.nullable !== undefined) accepts(at, `null (${field.nullable})`, null);
        valueMutations(field.type, current, at);
      } else if (!present) absentFieldMutations(field, at);
    }
    if (contract.unknownFields === "reject") {
      let key = UNKNOWN_KEY;
      const known = [...extraKeys, ...fields.map((f) => f.name)];
      while (known.includes(key)) key += "_";
      const at = child(site, key);
      add(`rejects an unknown key ${site.name === "" ? "at the top level" : `in ${site.name}`}`, [set(at, true)], { path: at.path, code: "unknown" });
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
