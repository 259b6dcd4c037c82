// A minimal valid value of a type, synthesized from the schema when a version has no valid example:
// required fields only, the smallest lengths and counts, the first enum value and union variant
// (and, for a `unique` list's items, the next distinct values after the first).
// Deterministic. Strings with a pattern come from `samplePattern`; when a constraint cannot be met
// (a pattern outside its subset, a pattern with a format), the result says why instead.
import { rootFields } from "../ir/envelope.js";
import type { Contract, Field, JsonValue, NumericType, Project, ResolvedVersion, Rule, StringFormat, StringType, TypeNode } from "../ir/model.js";
import { versionsOfMajor } from "../ir/names.js";
import { refPattern } from "../ir/ref-pattern.js";
import { isMultipleOf } from "../runtime/multiple-of.js";
import { own } from "../runtime/shape.js";
import { putKey } from "../runtime/snapshot.js";
import { samplePattern } from "./pattern-sample.js";
import { MAX_BUILT_LENGTH } from "../testing/cases-file.js";

export type Synthesized = { readonly value: JsonValue } | { readonly reason: string };

/** A fixed valid value of each string format. */
export const FORMAT_SAMPLES: Readonly<Record<StringFormat, string>> = {
  "date-time": "2030-01-01T00:00:00Z",
  date: "2030-01-01",
  uuid: "00000000-0000-4000-8000-000000000000",
  uri: "https://example.com/",
  email: "user@example.com",
  "uri-template": "https://example.com/items/{id}{?page}",
  byte: "dHJlYXR5",
  int64: "9223372036854775807",
  hostname: "api.example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  duration: "P1DT2H",
  time: "12:00:00Z",
};

/**
 * A string just outside a format, beside the obviously invalid one every format gets: where a
 * checker is most likely to be too lenient (a range edge, a missing pad, a leap second off 23:59).
 */
export const FORMAT_NEAR_MISSES: Readonly<Partial<Record<StringFormat, string>>> = {
  "uri-template": "https://example.com/items/{id",
  byte: "dHJlYXR5d",
  int64: "9223372036854775808",
  hostname: "api-.example.com",
  ipv4: "192.0.2.256",
  ipv6: "2001:db8::1::1",
  duration: "PT",
  time: "12:00:60Z",
};

/**
 * A value of a `before` rule's field (a timestamp, or a string of format date or date-time) in
 * the field's own format: the samples' day, or the day after it.
 */
export const instantOf = (field: Field | undefined, later: boolean): string => {
  const date = field?.type.kind === "string" && field.type.format === "date";
  const day = later ? "2030-01-02" : "2030-01-01";
  return date ? day : `${day}T00:00:00Z`;
};

const codePoints = (s: string): number => [...s].length;

/** Why a value `length` characters or items long is not made, when it is too long to build. */
export const tooLong = (length: number, unit: "characters" | "items"): string | undefined =>
  length > MAX_BUILT_LENGTH ? `a value of ${length.toLocaleString("en")} ${unit} is over the ${MAX_BUILT_LENGTH.toLocaleString("en")} treaty builds for a test` : undefined;

/** Whether `s` meets the length and pattern constraints of `t` (formats are judged by the caller). */
export const fitsString = (t: StringType, s: string): boolean =>
  (t.minLength === undefined || codePoints(s) >= t.minLength) &&
  (t.maxLength === undefined || codePoints(s) <= t.maxLength) &&
  (t.pattern === undefined || new RegExp(t.pattern, "u").test(s));

/** Whether `n` meets every constraint of `t`; `multipleOf` exactly as the generated validator decides it. */
export const fitsNumber = (t: NumericType, n: number): boolean =>
  Number.isFinite(n) &&
  (t.kind === "number" || Number.isInteger(n)) &&
  (t.min === undefined || n >= t.min) &&
  (t.max === undefined || n <= t.max) &&
  (t.exclusiveMin === undefined || n > t.exclusiveMin) &&
  (t.exclusiveMax === undefined || n < t.exclusiveMax) &&
  (t.multipleOf === undefined || isMultipleOf(n, t.multipleOf));

/** The adjacent double: the smallest step from `n` in `direction`. */
export const nextDouble = (n: number, direction: 1 | -1): number => {
  if (n === 0) return direction * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, n > 0 === (direction > 0) ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
};

/** How many points of a `multipleOf` grid `nearestFitting` tries before giving up. */
const GRID_TRIES = 64;

/**
 * The number nearest `from` in `direction` (`from` included) that meets every constraint of `t`,
 * or undefined when none is near. With a `multipleOf` (or an `int`) the candidates are the grid's
 * points `k * step` and the doubles around them, since `0.7` is no multiple of `0.1` in floating
 * point while `0.8` is; without one, `from` and the double next to it (past an exclusive bound).
 */
export const nearestFitting = (t: NumericType, from: number, direction: 1 | -1): number | undefined => {
  const step = t.multipleOf ?? (t.kind === "int" ? 1 : undefined);
  if (step === undefined) return [from, nextDouble(from, direction)].find((n) => fitsNumber(t, n));
  if (fitsNumber(t, from)) return from;
  const first = direction > 0 ? Math.ceil(from / step) : Math.floor(from / step);
  for (let i = 0; i < GRID_TRIES; i++) {
    const point = (first + direction * i) * step;
    const around = [nextDouble(point, -direction as 1 | -1), point, Number(point.toPrecision(15)), nextDouble(point, direction)];
    const found = around.find((n) => fitsNumber(t, n) && (n - from) * direction >= 0);
    if (found !== undefined) return found;
  }
  return undefined;
};

/** `n` written in the letters a–z (a base-26 numeral), padded with `a` to `length`; undefined when longer. */
const lettersOf = (n: number, length: number): string | undefined => {
  let s = "";
  for (let k = n; k > 0 || s === ""; k = Math.floor(k / 26)) s = String.fromCharCode(97 + (k % 26)) + s;
  return s.length > length ? undefined : s.padStart(length, "a");
};

/** A string of `length` code points meeting `t`, when treaty can make one. */
export const stringOfLength = (t: StringType, length: number): string | undefined => {
  if (t.format !== undefined) return undefined;
  const s = t.pattern === undefined ? "x".repeat(length) : samplePattern(t.pattern, length);
  return s !== undefined && fitsString(t, s) ? s : undefined;
};

const synthesizeString = (t: StringType): Synthesized => {
  if (t.format !== undefined) {
    const sample = FORMAT_SAMPLES[t.format];
    return fitsString(t, sample) ? { value: sample } : { reason: `no ${t.format} string meets its other constraints` };
  }
  if (t.pattern !== undefined) {
    const shortest = samplePattern(t.pattern);
    const length = Math.max(shortest === undefined ? 0 : codePoints(shortest), t.minLength ?? 0);
    const over = tooLong(length, "characters");
    if (over) return { reason: over };
    const s = stringOfLength(t, length);
    return s === undefined ? { reason: `treaty cannot synthesize a string matching ${t.pattern}` } : { value: s };
  }
  // One character, unless maxLength is 0 or minLength asks for more.
  const length = Math.max(t.minLength ?? 0, Math.min(1, t.maxLength ?? 1));
  const over = tooLong(length, "characters");
  if (over) return { reason: over };
  const s = stringOfLength(t, length);
  return s === undefined ? { reason: "no string meets its length constraints" } : { value: s };
};

/** 0 when it fits, else the valid number nearest the lower bound, the middle, or the upper bound. */
const synthesizeNumber = (t: NumericType): Synthesized => {
  const lower = t.min ?? t.exclusiveMin;
  const upper = t.max ?? t.exclusiveMax;
  const candidates = [
    () => (fitsNumber(t, 0) ? 0 : undefined),
    () => (lower === undefined ? undefined : nearestFitting(t, lower, 1)),
    () => (lower === undefined || upper === undefined ? undefined : nearestFitting(t, (lower + upper) / 2, 1)),
    () => (upper === undefined ? undefined : nearestFitting(t, upper, -1)),
  ];
  for (const candidate of candidates) {
    const n = candidate();
    if (n !== undefined) return { value: n };
  }
  return { reason: "no number meets its bounds" };
};

/** The field at a dotted path of `version`, through inline objects and named types. */
export const fieldAtPath = (version: ResolvedVersion, path: string): Field | undefined => {
  let fields = version.fields;
  let field: Field | undefined;
  for (const key of path.split(".")) {
    field = fields.find((f) => f.name === key);
    if (field === undefined) return undefined;
    fields = field.type.kind === "object" ? field.type.fields : field.type.kind === "named" ? version.types.get(field.type.name)!.fields : [];
  }
  return field;
};

export interface Synthesizer {
  /** A minimal valid value of `type` as `version` of `contract` reads it. */
  value(contract: Contract, version: ResolvedVersion, type: TypeNode): Synthesized;
  /** A minimal valid payload of `version`, rules included. */
  payload(contract: Contract, version: ResolvedVersion): Synthesized;
}

/** Why a value of a recursive type nested in itself is not made: the way out is a null further up. */
const RECURSION = "a recursive type nests in itself";

export const createSynthesizer = (project: Project): Synthesizer => {
  /** The named types being synthesized above this point: a required nullable field ends a recursive one. */
  const expanding = new Set<string>();
  const objectOf = (contract: Contract, version: ResolvedVersion, fields: readonly Field[], extra: Record<string, JsonValue> = {}): Synthesized => {
    const out: Record<string, JsonValue> = { ...extra };
    for (const field of fields.filter((f) => !f.optional)) {
      const inner = value(contract, version, field.type);
      // A required nullable field is where a recursive type ends. Keys are put, not assigned: a
      // field `__proto__` is then a key of the value, not its prototype.
      if ("reason" in inner && inner.reason === RECURSION && field.nullable !== undefined) putKey(out, field.name, null);
      else if ("reason" in inner) return { reason: `${field.name}: ${inner.reason}` };
      else putKey(out, field.name, inner.value);
    }
    return { value: out };
  };

  /** A named type's fields, unless the type is already being made above (a recursive type nests in itself). */
  const namedObject = (contract: Contract, version: ResolvedVersion, name: string, extra?: Record<string, JsonValue>): Synthesized => {
    const key = `${contract.name}@${version.version}:${name}`;
    if (expanding.has(key)) return { reason: RECURSION };
    expanding.add(key);
    const made = objectOf(contract, version, version.types.get(name)!.fields, extra);
    expanding.delete(key);
    return made;
  };

  const value = (contract: Contract, version: ResolvedVersion, type: TypeNode): Synthesized => {
    switch (type.kind) {
      case "string":
        return synthesizeString(type);
      case "int":
      case "number":
        return synthesizeNumber(type);
      case "bool":
        return { value: false };
      case "timestamp":
        return { value: FORMAT_SAMPLES["date-time"] };
      case "ref": {
        const s = samplePattern(refPattern(type.scheme));
        return s === undefined ? { reason: `treaty cannot synthesize a ${type.scheme}:// reference` } : { value: s };
      }
      case "list": {
        const count = type.minItems ?? 0;
        if (count === 0) return { value: [] };
        const over = tooLong(count, "items");
        if (over) return { reason: over };
        if (type.unique && count > 1) return distinct(contract, version, type.of, count);
        const item = value(contract, version, type.of);
        return "reason" in item ? item : { value: Array.from({ length: count }, () => item.value) };
      }
      case "map":
        return { value: {} };
      case "json":
        return { value: null };
      case "tuple": {
        const items: JsonValue[] = [];
        for (const item of type.items) {
          const made = value(contract, version, item);
          if ("reason" in made) return made;
          items.push(made.value);
        }
        return { value: items };
      }
      case "object":
        return objectOf(contract, version, type.fields);
      case "named":
        return namedObject(contract, version, type.name);
      case "union": {
        // The first variant that can be made: a recursive type's ending one, past the first.
        let made: Synthesized = { reason: "no variant can be made" };
        for (const variant of type.variants) {
          const extra = { [type.tag]: variant.value };
          made = variant.type.kind === "object" ? objectOf(contract, version, variant.type.fields, extra) : namedObject(contract, version, variant.type.name, extra);
          if ("value" in made) return made;
        }
        return made;
      }
      case "oneOf": {
        // The first variant a value can be built for.
        const built = type.variants.map((v) => value(contract, version, v.type));
        return built.find((b) => !("reason" in b)) ?? built[0]!;
      }
      case "const":
        return { value: type.value };
      case "enum":
        return { value: version.enums.get(type.name)!.values[0]!.name };
      case "contract": {
        const target = project.contracts.find((c) => c.name === type.contract)!;
        const newest = versionsOfMajor(target, type.major).at(-1)!;
        return payload(target, newest);
      }
    }
  };

  /**
   * `count` valid values of `type`, pairwise distinct (a `unique` list's items), as a list: further
   * enum values, numbers up the grid from the minimal one, strings of other characters or lengths,
   * timestamps a day apart, objects differing in one required field; else why not.
   */
  const distinct = (contract: Contract, version: ResolvedVersion, type: TypeNode, count: number): Synthesized => {
    const none: Synthesized = { reason: `treaty cannot synthesize ${count} distinct values of a ${type.kind === "named" ? type.name : type.kind}` };
    const taken = (values: readonly JsonValue[]): Synthesized => (values.length >= count ? { value: values.slice(0, count) } : none);
    switch (type.kind) {
      case "enum":
        return taken(version.enums.get(type.name)!.values.map((v) => v.name));
      case "bool":
        return taken([false, true]);
      case "timestamp":
        return count > 28 ? none : taken(Array.from({ length: count }, (_, i) => `2030-01-${String(i + 1).padStart(2, "0")}T00:00:00Z`));
      case "int":
      case "number": {
        const first = synthesizeNumber(type);
        if ("reason" in first) return first;
        const values = [first.value as number];
        const step = type.multipleOf ?? 1;
        // Up the grid, then down from the first where the upper bound stops it.
        for (const direction of [1, -1] as const) {
          let at = first.value as number;
          while (values.length < count) {
            const next = nearestFitting(type, at + direction * step, direction) ?? nearestFitting(type, nextDouble(at, direction), direction);
            if (next === undefined || values.includes(next)) break;
            values.push(next);
            at = next;
          }
        }
        return taken(values);
      }
      case "string":
      case "ref": {
        const first = value(contract, version, type);
        if ("reason" in first) return first;
        const values = new Set<JsonValue>([first.value]);
        const shortest = [...(first.value as string)].length;
        if (type.kind === "string" && type.pattern === undefined && type.format === undefined) {
          // The same length in letters (aaa, aab, ...) while they fit it.
          for (let i = 0; values.size < count; i++) {
            const s = lettersOf(i, shortest);
            if (s === undefined) break;
            values.add(s);
          }
        }
        // Longer samples of the pattern (or of the plain string), one per length.
        const pattern = type.kind === "ref" ? refPattern(type.scheme) : type.pattern;
        const max = type.kind === "string" ? (type.maxLength ?? shortest + count) : shortest + count;
        for (let length = shortest + 1; values.size < count && length <= Math.min(max, shortest + count + 16); length++) {
          const s = pattern === undefined ? (type.kind === "string" ? stringOfLength(type, length) : undefined) : samplePattern(pattern, length);
          if (s !== undefined && (type.kind === "ref" || fitsString(type, s))) values.add(s);
        }
        return taken([...values]);
      }
      case "object":
      case "named": {
        const fields = type.kind === "object" ? type.fields : version.types.get(type.name)!.fields;
        const first = value(contract, version, type);
        if ("reason" in first) return first;
        // The first required field that takes `count` distinct values varies; the rest stay.
        for (const field of fields) {
          if (field.optional) continue;
          const varied = distinct(contract, version, field.type, count);
          if ("reason" in varied) continue;
          return { value: (varied.value as JsonValue[]).map((v) => ({ ...(first.value as Record<string, JsonValue>), [field.name]: v })) };
        }
        return none;
      }
      default:
        return none;
    }
  };

  const payload = (contract: Contract, version: ResolvedVersion): Synthesized => {
    const base = objectOf(contract, version, rootFields(contract, version));
    if ("reason" in base) return base;
    const obj = base.value as Record<string, JsonValue>;
    for (const rule of version.rules) {
      const broken = satisfy(contract, version, rule, obj);
      if (broken) return { reason: broken };
    }
    return base;
  };

  /** Makes a payload of required fields only meet `rule`; says why when it cannot. */
  const satisfy = (contract: Contract, version: ResolvedVersion, rule: Rule, obj: Record<string, JsonValue>): string | undefined => {
    const get = (path: string): JsonValue | undefined =>
      path.split(".").reduce<JsonValue | undefined>((v, k) => (v !== null && typeof v === "object" && !Array.isArray(v) ? own(v, k) : undefined), obj);
    /** Puts `v` at the dotted `path`, synthesizing the absent objects on the way; says why when it cannot. */
    const set = (path: string, v: JsonValue): string | undefined => {
      const keys = path.split(".");
      let parent = obj;
      for (const [i, key] of keys.slice(0, -1).entries()) {
        const current = own(parent, key);
        if (current === null || typeof current !== "object" || Array.isArray(current)) {
          const at = keys.slice(0, i + 1).join(".");
          const field = fieldAtPath(version, at);
          const made = field && value(contract, version, field.type);
          if (made === undefined || "reason" in made) return `cannot fill ${at}${made === undefined ? "" : `: ${made.reason}`}`;
          putKey(parent, key, made.value);
        }
        parent = parent[key] as Record<string, JsonValue>;
      }
      putKey(parent, keys.at(-1)!, v);
      return undefined;
    };
    switch (rule.kind) {
      case "before":
        // Both present (both required): the first a day before the second, each in its own format.
        if (get(rule.first) !== undefined && get(rule.second) !== undefined) {
          set(rule.first, instantOf(fieldAtPath(version, rule.first), false));
          set(rule.second, instantOf(fieldAtPath(version, rule.second), true));
        }
        return undefined;
      case "exclusive":
        return rule.fields.filter((f) => get(f) !== undefined).length > 1 ? `the required fields ${rule.fields.join(", ")} exclude each other` : undefined;
      case "requires": {
        if (get(rule.if) === undefined) return undefined;
        for (const then of rule.then) {
          const field = fieldAtPath(version, then);
          if (field === undefined) return `cannot fill ${then}`;
          const v = value(contract, version, field.type);
          if ("reason" in v) return v.reason;
          const unfilled = set(then, v.value);
          if (unfilled) return unfilled;
        }
        return undefined;
      }
    }
  };
  return { value, payload };
};
