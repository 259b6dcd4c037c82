// fast-check arbitraries built from an emitted JSON Schema (the subset treaty emits), independent
// of treaty's own model, plus mutations that probe around each constraint.
import fc from "fast-check";
import { withinJsonBounds } from "./json-bounds.js";

type Schema = Record<string, unknown>;

const isBounds = (value: unknown): value is { maxDepth?: number; maxBytes?: number } => typeof value === "object" && value !== null;

const resolveRef = (root: Schema, ref: string): Schema => {
  const name = decodeURIComponent(ref.replace(/^#\/\$defs\//, "")).replace(/~1/g, "/").replace(/~0/g, "~");
  const target = (root["$defs"] as Record<string, Schema> | undefined)?.[name];
  if (!target) throw new Error(`unresolved ${ref}`);
  return target;
};

/**
 * Generated strings and lists stay this short whatever their maximum (a contract may allow a
 * billion items); the edges of such bounds are the generated tests' cases, not these values'.
 */
const LONGEST = 64;
const tooLongToBuild = (s: Schema): boolean => ((s["minLength"] as number | undefined) ?? 0) > 100_000 || ((s["minItems"] as number | undefined) ?? 0) > 100_000;

const stringArbitrary = (s: Schema): fc.Arbitrary<string> => {
  const min = (s["minLength"] as number | undefined) ?? 0;
  const max = s["maxLength"] as number | undefined;
  const length = (v: string) => {
    const n = [...v].length;
    return n >= min && (max === undefined || n <= max);
  };
  let base: fc.Arbitrary<string>;
  switch (s["format"]) {
    case "date-time":
      base = fc
        .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString());
      break;
    case "date":
      base = fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2200-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      break;
    case "uuid":
      base = fc.uuid();
      break;
    case "uri":
      base = fc.webUrl();
      break;
    case "email":
      base = fc.emailAddress();
      break;
    case "uri-template":
      base = fc
        .tuple(fc.webUrl(), fc.constantFrom("", "{id}", "{?page,limit}", "{/path*}", "{+base:10}"))
        .map(([url, expression]) => url.replace(/[^A-Za-z0-9:/._~-]/g, "") + expression);
      break;
    case "byte":
      base = fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes).toString("base64"));
      break;
    case "int64":
      base = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String);
      break;
    case "hostname":
      base = fc.domain();
      break;
    case "ipv4":
      base = fc.ipV4();
      break;
    case "ipv6":
      base = fc.ipV6();
      break;
    case "duration":
      base = fc
        .tuple(fc.nat(99), fc.nat(23), fc.nat(59), fc.boolean())
        .map(([days, hours, minutes, weeks]) => (weeks ? `P${days}W` : `P${days}DT${hours}H${minutes}M`));
      break;
    case "time":
      base = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2000-01-02T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(11));
      break;
    default:
      base =
        typeof s["pattern"] === "string"
          ? fc.stringMatching(new RegExp(s["pattern"] as string, "u"))
          : fc.string({ unit: "grapheme", minLength: min, maxLength: Math.min(max ?? Math.max(min, 12), Math.max(min, LONGEST)) });
  }
  return base.filter(length);
};

const numberArbitrary = (s: Schema, integer: boolean): fc.Arbitrary<number> => {
  const min = s["minimum"] as number | undefined;
  const max = s["maximum"] as number | undefined;
  const xmin = s["exclusiveMinimum"] as number | undefined;
  const xmax = s["exclusiveMaximum"] as number | undefined;
  const multipleOf = s["multipleOf"] as number | undefined;
  const low = Math.max(min ?? -1e6, xmin !== undefined ? xmin + (integer ? 1 : 0) : -1e6);
  const high = Math.min(max ?? 1e6, xmax !== undefined ? xmax - (integer ? 1 : 0) : 1e6);
  if (multipleOf !== undefined) {
    return fc.integer({ min: Math.ceil(low / multipleOf), max: Math.floor(high / multipleOf) }).map((k) => k * multipleOf).filter((v) => (xmin === undefined || v > xmin) && (xmax === undefined || v < xmax));
  }
  if (integer) return fc.integer({ min: Math.ceil(low), max: Math.floor(high) });
  return fc.double({ min: low, max: high, minExcluded: xmin !== undefined, maxExcluded: xmax !== undefined, noNaN: true, noDefaultInfinity: true });
};

/** Schema levels (each `$ref`, property, item) before a value takes its ending branch. */
const RECURSION_DEPTH = 16;

/** Values valid against `schema` (its formats, patterns, bounds and shapes). */
export const arbitraryFor = (root: Schema, schema: Schema = root, depth = 0): fc.Arbitrary<unknown> => {
  // Past this depth a recursive schema takes its ending branch (null, an empty list, no optional
  // field), so values stay finite and within the validators' depth bound.
  const ending = depth > RECURSION_DEPTH;
  if (typeof schema["$ref"] === "string") return arbitraryFor(root, resolveRef(root, schema["$ref"]), depth + 1);
  if ("const" in schema) return fc.constant(schema["const"]);
  if (Array.isArray(schema["enum"])) return fc.constantFrom(...(schema["enum"] as unknown[]));
  for (const key of ["anyOf", "oneOf"]) {
    if (!Array.isArray(schema[key])) continue;
    const variants = schema[key] as Schema[];
    // Ending: null, else the variants that refer to no definition (a literal ends an expression).
    const ends = ending ? variants.filter((s) => s["type"] === "null" || !JSON.stringify(s).includes('"$ref"')) : [];
    return fc.oneof(...(ends.length > 0 ? ends : variants).map((s) => arbitraryFor(root, s, depth + 1)));
  }
  // A `json` value within the bounds JSON Schema cannot state (the bounds' own tests cross them).
  if (isBounds(schema["x-treaty-json"])) {
    const bounds = schema["x-treaty-json"];
    // Mostly scalars: every key inside a json value is a place a mutation may land and pass.
    const json = fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 0 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: Math.min(bounds.maxDepth ?? 2, 2) }) });
    return json.filter((v) => withinJsonBounds(bounds, v));
  }
  if (Array.isArray(schema["prefixItems"])) return fc.tuple(...(schema["prefixItems"] as Schema[]).map((s) => arbitraryFor(root, s, depth + 1)));
  switch (schema["type"]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "array": {
      if (ending && ((schema["minItems"] as number | undefined) ?? 0) === 0) return fc.constant([]);
      const items = arbitraryFor(root, (schema["items"] as Schema | undefined) ?? {}, depth + 1);
      const constraints = {
        minLength: (schema["minItems"] as number | undefined) ?? 0,
        maxLength: Math.min((schema["maxItems"] as number | undefined) ?? Math.max(3, (schema["minItems"] as number | undefined) ?? 0), Math.max((schema["minItems"] as number | undefined) ?? 0, LONGEST)),
      };
      return schema["uniqueItems"] ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case "object": {
      const properties = (schema["properties"] as Record<string, Schema> | undefined) ?? {};
      const required = (schema["required"] as string[] | undefined) ?? [];
      const additional = schema["additionalProperties"];
      if (Object.keys(properties).length === 0 && typeof additional === "object" && additional !== null) {
        if (ending) return fc.constant({});
        const pattern = (schema["propertyNames"] as Schema | undefined)?.["pattern"];
        const keys = typeof pattern === "string" ? fc.stringMatching(new RegExp(pattern, "u"), { maxLength: 8 }) : fc.string({ maxLength: 8 });
        // Half way to the ending depth a map holds one key at most: maps nested forty deep
        // (good-nested-unbounded) otherwise made values of up to 3^16 keys, two minutes a run.
        return fc.dictionary(keys, arbitraryFor(root, additional as Schema, depth + 1), { maxKeys: depth > RECURSION_DEPTH / 2 ? 1 : 3 });
      }
      // An optional property no value of which can be built (a minimum of billions) is left out.
      const buildable = Object.entries(properties).filter(([k, s]) => required.includes(k) || (!ending && !tooLongToBuild(s)));
      const record = fc.record(
        Object.fromEntries(buildable.map(([k, s]) => [k, arbitraryFor(root, s, depth + 1)])),
        { requiredKeys: required },
      );
      // A kept object (`x-treaty-unknown-fields: keep`, or typed by `additionalProperties`) gets
      // undeclared keys too, with values of that type (any JSON without one).
      const kept = schema["x-treaty-unknown-fields"] === "keep" || (typeof additional === "object" && additional !== null);
      if (!kept) return record;
      // Scalars and one key at most: mutations pick among all of a value's paths, and should mostly hit declared ones.
      const extraValue = typeof additional === "object" && additional !== null ? arbitraryFor(root, additional as Schema, depth + 1) : fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null));
      const extraKey = fc.string({ maxLength: 8 }).filter((k) => !Object.hasOwn(properties, k));
      return fc.tuple(record, fc.dictionary(extraKey, extraValue, { maxKeys: 1 })).map(([declared, extra]) => ({ ...extra, ...declared }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};

/** A JSON pointer's segments for every location inside `value`. */
const locations = (value: unknown, path: (string | number)[] = []): (string | number)[][] => {
  const out = [path];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...locations(v, [...path, i])));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) out.push(...locations(v, [...path, k]));
  return out;
};

const NASTY: unknown[] = [
  null, true, false, 0, -1, 1, 1.5, -0.5, 5, 10, 100, 1000, 1e6, -1e6, 2 ** 53, "", " ", "x", "SUCCESS", "success",
  "TASK-1", "TASK-", "c1", "artifact://a", "artifact://", "src://x", "2026-01-01T00:00:00Z", "2026-13-01T00:00:00Z",
  "2026-01-01", "not-an-email", "a@b.co", "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f", "x".repeat(2001), "x".repeat(4001),
  [], [1], ["a", "a"], {}, { a: 1 }, "\u{1F600}".repeat(3),
];

type Mutation = (value: unknown) => unknown;

const clone = <T>(v: T): T => structuredClone(v);

const atPath = (root: unknown, path: (string | number)[], update: (parent: Record<string | number, unknown>, key: string | number) => void): unknown => {
  if (path.length === 0) return root;
  const copy = clone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  update(parent, path[path.length - 1]!);
  return copy;
};

/** A valid value, then one small change somewhere in it: a dropped key, an extra key, a swapped value. */
export const mutated = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  valid.chain((value) => {
    const paths = locations(value).filter((p) => p.length > 0);
    if (paths.length === 0) return fc.constantFrom<unknown>(...NASTY);
    const mutation: fc.Arbitrary<Mutation> = fc.oneof(
      fc.constantFrom(...paths).map((path): Mutation => (v) => atPath(v, path, (parent, key) => (Array.isArray(parent) ? parent.splice(key as number, 1) : delete parent[key]))),
      fc.tuple(fc.constantFrom(...paths), fc.oneof(fc.constantFrom(...NASTY), fc.jsonValue({ maxDepth: 1 }))).map(
        ([path, replacement]): Mutation => (v) => atPath(v, path, (parent, key) => (parent[key] = replacement)),
      ),
      fc.tuple(fc.constantFrom(...paths), fc.constantFrom(-1, 1, 0.5, -0.000001)).map(
        ([path, delta]): Mutation => (v) => atPath(v, path, (parent, key) => {
          if (typeof parent[key] === "number") parent[key] = (parent[key] as number) + delta;
          else if (typeof parent[key] === "string") parent[key] = delta > 0 ? `${parent[key] as string}x` : (parent[key] as string).slice(0, -1);
        }),
      ),
      fc.tuple(fc.constantFrom(...[[], ...paths]), fc.constantFrom("extra", "__proto__", "constructor", "toString", "hasOwnProperty")).map(
        ([path, key]): Mutation => (v) => {
          const target = path.length === 0 ? clone(v) : v;
          const add = (o: unknown) => {
            if (typeof o === "object" && o !== null && !Array.isArray(o)) Object.defineProperty(o, key, { value: 1, enumerable: true, configurable: true, writable: true });
          };
          if (path.length === 0) {
            add(target);
            return target;
          }
          return atPath(v, path, (parent, k) => add(parent[k]));
        },
      ),
    );
    return mutation.map((m) => m(value));
  });
