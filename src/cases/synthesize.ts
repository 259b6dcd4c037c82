// A minimal valid value of a type, synthesized from the schema when a version has no valid example:
// required fields only, the smallest lengths and counts, the first enum value and union variant.
// Deterministic. Strings with a pattern come from `samplePattern`; when a constraint cannot be met
// (a pattern outside its subset, a pattern with a format), the result says why instead.
import { rootFields } from "../ir/envelope.js";
import type { Contract, Field, JsonValue, NumericType, Project, ResolvedVersion, Rule, StringFormat, StringType, TypeNode } from "../ir/model.js";
import { versionsOfMajor } from "../ir/names.js";
import { refPattern } from "../ir/ref-pattern.js";
import { samplePattern } from "./pattern-sample.js";

export type Synthesized = { readonly value: JsonValue } | { readonly reason: string };

/** A fixed valid value of each string format. */
export const FORMAT_SAMPLES: Readonly<Record<StringFormat, string>> = {
  "date-time": "2030-01-01T00:00:00Z",
  date: "2030-01-01",
  uuid: "00000000-0000-4000-8000-000000000000",
  uri: "https://example.com/",
  email: "user@example.com",
};

const codePoints = (s: string): number => [...s].length;

/** Whether `s` meets the length and pattern constraints of `t` (formats are judged by the caller). */
export const fitsString = (t: StringType, s: string): boolean =>
  (t.minLength === undefined || codePoints(s) >= t.minLength) &&
  (t.maxLength === undefined || codePoints(s) <= t.maxLength) &&
  (t.pattern === undefined || new RegExp(t.pattern, "u").test(s));

const isMultiple = (value: number, of: number): boolean => {
  const quotient = value / of;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
};

/** Whether `n` meets every constraint of `t`. */
export const fitsNumber = (t: NumericType, n: number): boolean =>
  Number.isFinite(n) &&
  (t.kind === "number" || Number.isInteger(n)) &&
  (t.min === undefined || n >= t.min) &&
  (t.max === undefined || n <= t.max) &&
  (t.exclusiveMin === undefined || n > t.exclusiveMin) &&
  (t.exclusiveMax === undefined || n < t.exclusiveMax) &&
  (t.multipleOf === undefined || isMultiple(n, t.multipleOf));

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
    const s = stringOfLength(t, length);
    return s === undefined ? { reason: `treaty cannot synthesize a string matching ${t.pattern}` } : { value: s };
  }
  const s = stringOfLength(t, Math.min(Math.max(t.minLength ?? 0, 1), t.maxLength ?? 1));
  return s === undefined ? { reason: "no string meets its length constraints" } : { value: s };
};

/** 0 when it fits, else the first fitting of: the lower bound, the middle, the upper bound (on the `multipleOf` grid). */
const synthesizeNumber = (t: NumericType): Synthesized => {
  const step = t.multipleOf ?? (t.kind === "int" ? 1 : undefined);
  const up = (n: number): number => (step === undefined ? n : Math.ceil(n / step) * step);
  const down = (n: number): number => (step === undefined ? n : Math.floor(n / step) * step);
  const lower = t.min ?? t.exclusiveMin;
  const upper = t.max ?? t.exclusiveMax;
  const candidates = [
    0,
    ...(lower === undefined ? [] : [up(lower), up(lower) + (step ?? 1)]),
    ...(lower === undefined || upper === undefined ? [] : [up((lower + upper) / 2)]),
    ...(upper === undefined ? [] : [down(upper), down(upper) - (step ?? 1)]),
  ];
  const n = candidates.find((c) => fitsNumber(t, c));
  return n === undefined ? { reason: "no number meets its bounds" } : { value: n };
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

export const createSynthesizer = (project: Project): Synthesizer => {
  const objectOf = (contract: Contract, version: ResolvedVersion, fields: readonly Field[], extra: Record<string, JsonValue> = {}): Synthesized => {
    const out: Record<string, JsonValue> = { ...extra };
    for (const field of fields.filter((f) => !f.optional)) {
      const inner = value(contract, version, field.type);
      if ("reason" in inner) return { reason: `${field.name}: ${inner.reason}` };
      out[field.name] = inner.value;
    }
    return { value: out };
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
        if (type.unique && count > 1) return { reason: "treaty cannot synthesize distinct list items" };
        const item = value(contract, version, type.of);
        return "reason" in item ? item : { value: Array.from({ length: count }, () => item.value) };
      }
      case "map":
        return { value: {} };
      case "object":
        return objectOf(contract, version, type.fields);
      case "named":
        return objectOf(contract, version, version.types.get(type.name)!.fields);
      case "union": {
        const variant = type.variants[0]!;
        const fields = variant.type.kind === "object" ? variant.type.fields : version.types.get(variant.type.name)!.fields;
        return objectOf(contract, version, fields, { [type.tag]: variant.value });
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
      path.split(".").reduce<JsonValue | undefined>((v, k) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v[k] : undefined), obj);
    const set = (path: string, v: JsonValue): void => {
      const keys = path.split(".");
      const parent = keys.slice(0, -1).reduce<JsonValue | undefined>((o, k) => (o !== null && typeof o === "object" && !Array.isArray(o) ? o[k] : undefined), obj);
      if (parent !== undefined && parent !== null && typeof parent === "object" && !Array.isArray(parent)) parent[keys.at(-1)!] = v;
    };
    switch (rule.kind) {
      case "before":
        // Both present (both required): the first a day before the second.
        if (get(rule.first) !== undefined && get(rule.second) !== undefined) {
          set(rule.first, "2030-01-01T00:00:00Z");
          set(rule.second, "2030-01-02T00:00:00Z");
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
          set(then, v.value);
        }
        return undefined;
      }
    }
  };
  return { value, payload };
};
