// JSON Schema mutants for `treaty import`: a seed schema (a case of the compatibility suites, or a
// definition of a published document with the definitions it names) with one to four of its
// subschemas given a hostile keyword, replaced, removed, wrapped, nested deeper, pointed elsewhere by
// `$ref` or grafted from another seed; or its text cut or spliced. What a source schema nobody here
// wrote could hold, kept valid JSON mostly so that the mutants reach past the parser.
import { mutateText } from "./contract-mutants.js";
import type { Random } from "./random.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

const NUMBERS: readonly number[] = [0, -1, 1, 0.5, 0.1, 3, 7, 64, 255, 1e9, 5e9, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 1e21, 1e300, -1e300, -0.5, 1e-7, 1e-300];
const NAMES: readonly string[] = [
  "a", "id", "type", "$ref", "properties", "items", "", " ", "x".repeat(300), "a/b", "~0", "~1", "a~b", "%25", "%", "a b", "a.b", "1x", "-x", "$x",
  "hasOwnProperty", "constructor", "__proto__", "toString", "prototype", "then", "JsonValue", "Issue", "const", "default", "enum", "class",
  "a\nb", "a\u2028b", "\u202eevil", "\ufeff", "\u0000", "\u{1F600}", "e\u0301", "\u05D0", "a*/b", 'q"uote', "t`ick", "${x}", "b\\s",
];
const PATTERNS: readonly string[] = ["^[a-z]+$", "^(a+)+$", "(", "[", "\\", "^\\p{L}+$", "^(?<n>a)\\k<n>$", "a{2,1}", "^\\d{1000000}$", "(?=a)", "\\u{1F600}", "^.*$", "[[:alpha:]]", "\\Z"];
const FORMATS: readonly string[] = ["date-time", "date", "time", "duration", "email", "uri", "uri-reference", "uuid", "ipv4", "ipv6", "hostname", "int32", "int64", "float", "double", "byte", "binary", "password", "regex", "json-pointer", "bogus", ""];
const TYPES: readonly Json[] = ["string", "integer", "number", "boolean", "null", "object", "array", "bogus", 5, ["string", "null"], ["integer", "string"], [], ["object", "array", "null"], ["number", "integer"], null];
const REFS: readonly string[] = ["#", "#/", "#/$defs", "#/definitions/missing", "#/properties", "other.json#/x", "https://example.com/s.json", "#%zz", "#/$defs/a~2b", "urn:x", "", "#/components/schemas/Missing"];

/** Every object (subschema or not) of `root` with the path to it, parents first. */
const objectsOf = (root: Json): { node: JsonObject; path: string[] }[] => {
  const found: { node: JsonObject; path: string[] }[] = [];
  const stack: { value: Json; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0 && found.length < 20_000) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, String(i)] }));
    else if (isObject(value)) {
      found.push({ node: value, path });
      for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: [...path, k] });
    }
  }
  return found;
};

const pointer = (path: readonly string[]): string => `#${path.map((p) => `/${p.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("")}`;

const randomScalar = (random: Random): Json => {
  switch (random.int(5)) {
    case 0:
      return random.pick(NUMBERS) * (random.chance(0.2) ? -1 : 1);
    case 1:
      return random.pick(NAMES);
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    default:
      return random.pick(PATTERNS);
  }
};

/** A small schema of hostile or merely unusual keywords, `depth` levels at most. */
const randomSchema = (random: Random, donors: readonly Json[], depth: number): Json => {
  if (depth <= 0 || random.chance(0.3)) {
    switch (random.int(6)) {
      case 0:
        return random.chance(0.5);
      case 1:
        return {};
      case 2:
        return { type: random.pick(TYPES) };
      case 3:
        return { $ref: random.pick(REFS) };
      case 4: {
        const donor = objectsOf(random.pick(donors));
        return donor.length > 0 ? structuredClone(random.pick(donor).node) : {};
      }
      default:
        return { const: randomScalar(random) };
    }
  }
  const schema: JsonObject = {};
  for (let i = random.int(3); i >= 0; i--) schema[random.pick(KEYWORDS)] = keywordValue(random, donors, random.pick(KEYWORDS), depth - 1);
  return schema;
};

const KEYWORDS: readonly string[] = [
  "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format",
  "items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains", "properties", "required", "additionalProperties",
  "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies", "allOf", "anyOf",
  "oneOf", "not", "if", "then", "else", "$ref", "$defs", "definitions", "nullable", "discriminator", "default", "examples", "title", "description",
  "readOnly", "writeOnly", "deprecated", "unevaluatedProperties", "unevaluatedItems", "$id", "$anchor", "$dynamicRef", "contentEncoding", "x-extension",
];

const keywordValue = (random: Random, donors: readonly Json[], keyword: string, depth: number): Json => {
  const schemas = (): Json[] => Array.from({ length: random.int(4) }, () => randomSchema(random, donors, depth));
  const named = (): JsonObject => Object.fromEntries(Array.from({ length: random.int(4) }, () => [random.pick(NAMES), randomSchema(random, donors, depth)]));
  if (random.chance(0.1)) return randomScalar(random); // the keyword given a value of the wrong kind
  switch (keyword) {
    case "type":
      return random.pick(TYPES);
    case "enum":
      return Array.from({ length: random.int(5) }, () => (random.chance(0.2) ? { a: randomScalar(random) } : randomScalar(random)));
    case "const":
    case "default":
      return random.chance(0.2) ? [randomScalar(random)] : randomScalar(random);
    case "examples":
      return [randomScalar(random)];
    case "pattern":
      return random.pick(PATTERNS);
    case "format":
      return random.pick(FORMATS);
    case "items":
    case "additionalItems":
    case "contains":
    case "additionalProperties":
    case "propertyNames":
    case "not":
    case "if":
    case "then":
    case "else":
    case "unevaluatedProperties":
    case "unevaluatedItems":
      return random.chance(0.2) ? schemas() : randomSchema(random, donors, depth);
    case "prefixItems":
    case "allOf":
    case "anyOf":
    case "oneOf":
      return schemas();
    case "properties":
    case "patternProperties":
    case "dependentSchemas":
    case "$defs":
    case "definitions":
      return named();
    case "required":
      return Array.from({ length: random.int(4) }, () => (random.chance(0.1) ? 1 : random.pick(NAMES)));
    case "dependentRequired":
    case "dependencies":
      return { [random.pick(NAMES)]: random.chance(0.5) ? [random.pick(NAMES)] : randomSchema(random, donors, depth) };
    case "$ref":
    case "$dynamicRef":
      return random.pick(REFS);
    case "nullable":
    case "readOnly":
    case "writeOnly":
    case "deprecated":
    case "uniqueItems":
      return random.chance(0.8) ? random.chance(0.5) : "yes";
    case "discriminator":
      return { propertyName: random.pick(NAMES), ...(random.chance(0.5) && { mapping: { [random.pick(NAMES)]: random.pick(REFS) } }) };
    case "title":
    case "description":
    case "$id":
    case "$anchor":
    case "contentEncoding":
    case "x-extension":
      return random.pick(NAMES);
    default:
      return random.pick(NUMBERS) * (random.chance(0.15) ? -1 : 1);
  }
};

/** One mutation of `schema`, in place where it can be; returns the (possibly new) root. */
const mutateOnce = (random: Random, root: Json, donors: readonly Json[]): Json => {
  const objects = objectsOf(root);
  if (objects.length === 0) return random.chance(0.5) ? randomSchema(random, donors, 3) : { type: "object", properties: { a: root } };
  const { node, path } = random.pick(objects);
  const keys = Object.keys(node);
  switch (random.int(9)) {
    case 0:
    case 1: {
      // A keyword set to a hostile or unusual value.
      const keyword = random.chance(0.6) && keys.length > 0 ? random.pick(keys) : random.pick(KEYWORDS);
      node[keyword] = keywordValue(random, donors, keyword, 2);
      return root;
    }
    case 2:
      if (keys.length > 0) delete node[random.pick(keys)];
      return root;
    case 3: {
      // Pointed at another place of the same document, a parent included: a cycle.
      const target = random.pick(objects);
      node["$ref"] = random.chance(0.8) ? pointer(target.path) : random.pick(REFS);
      return root;
    }
    case 4: {
      // Wrapped in a combinator, or with itself as a member: the same schema reached two ways.
      const copy = structuredClone(node);
      for (const k of keys) delete node[k];
      node[random.pick(["allOf", "anyOf", "oneOf"])] = random.chance(0.5) ? [copy, randomSchema(random, donors, 2)] : [copy];
      return root;
    }
    case 5: {
      // Nested deeper, as far as a careless generator or an attacker might.
      let deep: Json = structuredClone(node);
      const levels = random.pick([2, 10, 70, 300]);
      const via = random.pick(["properties", "items", "allOf", "not"]);
      for (let i = 0; i < levels; i++) deep = via === "properties" ? { type: "object", properties: { n: deep } } : via === "items" ? { type: "array", items: deep } : via === "allOf" ? { allOf: [deep] } : { not: { not: deep } };
      Object.assign(node, { properties: { ...(isObject(node["properties"]) ? node["properties"] : {}), deep } });
      return root;
    }
    case 6: {
      // A subschema grafted from another seed.
      const donor = objectsOf(random.pick(donors));
      if (donor.length > 0) node[random.pick(["properties", "items", "additionalProperties", "not"])] = structuredClone(random.pick(donor).node);
      return root;
    }
    case 7: {
      // Many properties, or names that are hard to carry into code.
      const properties: JsonObject = isObject(node["properties"]) ? node["properties"] : {};
      const count = random.pick([1, 3, 200]);
      for (let i = 0; i < count; i++) properties[random.chance(0.5) ? `${random.pick(NAMES)}${i}` : random.pick(NAMES)] = randomSchema(random, donors, 1);
      node["properties"] = properties;
      if (random.chance(0.5)) node["required"] = Object.keys(properties).slice(0, random.int(10));
      return root;
    }
    default:
      // The whole node replaced.
      if (path.length === 0) return randomSchema(random, donors, 3);
      Object.keys(node).forEach((k) => delete node[k]);
      Object.assign(node, isObject(randomSchema(random, donors, 3)) ? (randomSchema(random, donors, 3) as JsonObject) : { type: random.pick(TYPES) });
      return root;
  }
};

/** The text of a mutant of `seed` (a parsed schema, not changed). */
export const mutateSchema = (random: Random, seed: Json, donors: readonly Json[]): string => {
  let root: Json = structuredClone(seed);
  for (let n = 1 + random.int(4); n > 0; n--) root = mutateOnce(random, root, donors);
  const text = JSON.stringify(root, null, random.chance(0.5) ? 2 : undefined);
  return random.chance(0.05) ? mutateText(random, text, ["{", "[", ",", '"', ":", "\\", "\u2028", "\ufeff", "}", "]"]) : text;
};

export type { Json };
