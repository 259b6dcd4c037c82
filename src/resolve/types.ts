// Type expressions and their constraints, from YAML to `TypeNode`.
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { didYouMean } from "../diagnostics/suggest.js";
import {
  STRING_FORMATS,
  type Field,
  type OneOfType,
  type Sensitivity,
  type SourceLocation,
  type TypeNode,
  type UnionVariant,
} from "../ir/model.js";
import { FIELD_NAME, FIELD_NAME_RULE } from "../ir/names.js";
import { JSON_DEPTH_LIMIT } from "../runtime/json-value.js";
import { BOUND_PAIRS, boundsMeet, IDL_LIMITS } from "./limits.js";
import { patternVerdict } from "./pattern-safety.js";
import type { Entry, Reader } from "./reader.js";
import { OPEN_OBJECT_KEYS, parseOpenObject } from "./open-objects.js";

export interface TypeScope {
  readonly enums: ReadonlySet<string>;
  readonly types: ReadonlySet<string>;
}

const SCALAR_KINDS = ["string", "int", "number", "bool", "timestamp"] as const;
const COMPOSITE_KINDS = ["list", "map", "object", "union", "const", "json", "tuple"] as const;
export const BUILTIN_TYPES: readonly string[] = [...SCALAR_KINDS, ...COMPOSITE_KINDS];

/** Other languages' and JSON Schema's names for built-in types: `unknown-type` suggests the IDL's. */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  integer: "int",
  long: "int",
  float: "number",
  double: "number",
  boolean: "bool",
  str: "string",
  array: "list",
  dict: "map",
  record: "map",
  datetime: "timestamp",
  "date-time": "timestamp",
};

const NUMERIC_CONSTRAINTS = ["min", "max", "exclusiveMin", "exclusiveMax", "multipleOf"] as const;
/** The constraint keys each type kind takes beside `type`. */
export const CONSTRAINTS: Readonly<Record<string, readonly string[]>> = {
  string: ["minLength", "maxLength", "pattern", "format"],
  int: NUMERIC_CONSTRAINTS,
  number: NUMERIC_CONSTRAINTS,
  list: ["of", "minItems", "maxItems", "unique"],
  map: ["of", "keys"],
  object: ["fields", ...OPEN_OBJECT_KEYS],
  union: ["tag", "variants"],
  const: ["value"],
  json: ["maxDepth", "maxBytes"],
  tuple: ["items"],
};
export const ALL_CONSTRAINTS = [...new Set(Object.values(CONSTRAINTS).flat())];
/** Constraints that `constrain` may replace (structure keys like `of` and `fields` are not constraints). */
export const REPLACEABLE_CONSTRAINTS: readonly string[] = [
  ...CONSTRAINTS["string"]!,
  ...NUMERIC_CONSTRAINTS,
  "minItems",
  "maxItems",
  "unique",
  ...CONSTRAINTS["json"]!,
];

export const FIELD_KEYS = ["type", "optional", "nullable", "default", "description", "sensitivity", "deprecated", "role", "lint"];
const SENSITIVITIES: readonly Sensitivity[] = ["pii", "secret", "internal"];
// Redaction works on fields: a sensitive list or map field is redacted whole.
const SENSITIVITY_COVERS = " (on a list or map field it covers every item)";

const REF = /^ref<([a-z][a-z0-9+.-]*)>$/;
const CONTRACT_REF = /^([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)@(\d+)$/;

export const createTypeParser = (r: Reader, scope: TypeScope) => {
  /** How many types `build` is inside: every nested list, map, object or union passes through it. */
  let depth = 0;
  /**
   * Where the field being parsed names each contract it references (`other@1`, in a list's `of`, a
   * union's variant...), by `ref.<name>@<major>`: the first of each, for the diagnostics about it.
   */
  let refLocs: Record<string, SourceLocation> | undefined;

  const kindOfExpression = (expr: string, node: Node): TypeNode | string | undefined => {
    if ((BUILTIN_TYPES as readonly string[]).includes(expr)) return expr;
    const ref = REF.exec(expr);
    if (ref) return { kind: "ref", scheme: ref[1]! };
    const contract = CONTRACT_REF.exec(expr);
    if (contract) {
      const key = `ref.${contract[1]}@${contract[2]}`;
      if (refLocs !== undefined && !Object.hasOwn(refLocs, key)) refLocs[key] = r.loc(node);
      return { kind: "contract", contract: contract[1]!, major: Number(contract[2]) };
    }
    if (scope.enums.has(expr)) return { kind: "enum", name: expr };
    if (scope.types.has(expr)) return { kind: "named", name: expr };
    if (expr.startsWith("ref<")) {
      r.report("invalid-name", node, { what: "reference scheme in", name: expr, rule: "ref<scheme> with scheme /^[a-z][a-z0-9+.-]*$/" });
      return undefined;
    }
    r.report("unknown-type", node, {
      name: expr,
      // An own alias only: `constructor` is a name a user may write, not Object.prototype's member.
      suggestion: didYouMean(Object.hasOwn(TYPE_ALIASES, expr.toLowerCase()) ? TYPE_ALIASES[expr.toLowerCase()]! : expr, [...BUILTIN_TYPES, ...scope.enums, ...scope.types]),
    });
    return undefined;
  };

  /**
   * A type from its expression (`typeNode`) and the entries beside it that hold its constraints.
   * `owner` is the node diagnostics about missing keys point at.
   */
  const build = (typeNode: Node | null, constraints: readonly Entry[], owner: Node): TypeNode | undefined => {
    if (depth > IDL_LIMITS.depth) {
      r.report("limit-exceeded", typeNode ?? owner, { what: "the nesting of this type", actual: `deeper than ${IDL_LIMITS.depth} levels`, max: `${IDL_LIMITS.depth} levels` });
      return undefined;
    }
    depth++;
    try {
      return buildType(typeNode, constraints, owner);
    } finally {
      depth--;
    }
  };

  const buildType = (typeNode: Node | null, constraints: readonly Entry[], owner: Node): TypeNode | undefined => {
    if (isMap(typeNode)) {
      const nested = parseTypeSpec(typeNode);
      for (const c of constraints) r.report("constraint-not-applicable", c.keyNode, { key: c.key, type: "given as a mapping", suggestion: "; put it inside the `type:` mapping" });
      return nested;
    }
    const expr = r.string(typeNode, "a type");
    if (expr === undefined) return undefined;
    const resolved = kindOfExpression(expr, typeNode!);
    if (resolved === undefined) return undefined;
    const kind = typeof resolved === "string" ? resolved : resolved.kind;
    const allowed = CONSTRAINTS[kind] ?? [];
    const given = new Map<string, Entry>();
    for (const c of constraints) {
      if (allowed.includes(c.key)) given.set(c.key, c);
      else r.report("constraint-not-applicable", c.keyNode, { key: c.key, type: expr, suggestion: didYouMean(c.key, allowed) });
    }
    if (typeof resolved !== "string") return resolved;
    const need = (key: string): Entry | undefined => {
      const entry = given.get(key);
      if (!entry) r.report("missing-key", owner, { where: `type ${kind}`, key });
      return entry;
    };
    switch (kind) {
      case "string":
      case "int":
      case "number":
        return checkBounds({ kind, ...readConstraints(kind, given) } as TypeNode, given, owner);
      case "bool":
      case "timestamp":
        return { kind };
      case "list": {
        const of = need("of");
        const item = of && parseTypeSpec(of.value, "a list's items");
        if (!item) return undefined;
        return checkBounds({ kind, of: item, ...readConstraints(kind, given) } as TypeNode, given, owner);
      }
      case "map": {
        const of = need("of");
        const item = of && parseTypeSpec(of.value, "a map's values");
        const keys = given.get("keys");
        const { visible, pattern } = keys === undefined ? {} : parseMapKeys(keys.value);
        return item && { kind, of: item, ...(visible && { keysVisible: true as const }), ...(pattern !== undefined && { keyPattern: pattern }) };
      }
      case "object": {
        const fields = need("fields");
        const parsed = fields && parseFields(fields.value, "fields");
        const open = parseOpenObject(r, given.get("unknown_fields"), given.get("additional"), parseTypeSpec);
        return parsed && open && { kind, fields: parsed, ...open };
      }
      case "union": {
        // A list of variants is an untagged union; a mapping (tag value → variant) a tagged one.
        const variants = given.get("variants");
        if (variants && isSeq(variants.value)) return parseOneOf(given.get("tag"), variants);
        return parseUnion(need("tag"), need("variants"));
      }
      case "json":
        return { kind, ...readConstraints(kind, given) };
      case "tuple":
        return parseTuple(need("items"));
      case "const": {
        const entry = need("value");
        if (!entry) return undefined;
        const value = isScalar(entry.value) ? entry.value.value : undefined;
        if (value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) {
          return { kind, value };
        }
        r.report("invalid-value", entry.value, { where: "a const's value", expected: "a string, number, boolean or null" });
        return undefined;
      }
    }
    return undefined;
  };

  /**
   * A map's `keys:`: `sensitivity: none` (keys are masked unless a contract declares them names
   * rather than data) and/or a `pattern` every key matches, checked as a string's pattern is.
   */
  const parseMapKeys = (node: Node | null): { visible?: boolean; pattern?: string } => {
    const where = "a map's 'keys'";
    const entries = r.entries(node, where, ["sensitivity", "pattern"]);
    if (entries === undefined) return {};
    const sensitivity = entries.find((e) => e.key === "sensitivity");
    const pattern = entries.find((e) => e.key === "pattern");
    if (!sensitivity && !pattern) {
      r.report("missing-key", node!, { where, key: "sensitivity' or 'pattern" });
      return {};
    }
    const out: { visible?: boolean; pattern?: string } = {};
    if (pattern) {
      const read = readConstraints("string", new Map([["pattern", pattern]]))["pattern"];
      if (typeof read === "string") out.pattern = read;
    }
    if (!sensitivity) return out;
    if (isScalar(sensitivity.value) && sensitivity.value.value === "none") out.visible = true;
    else r.report("invalid-value", sensitivity.value, { where: "'sensitivity' of a map's keys", expected: "none (map keys are masked unless declared so)" });
    return out;
  };

  /** Reads the scalar constraints of `kind` among `given`; structure keys are read by `build`. */
  const readConstraints = (kind: string, given: ReadonlyMap<string, Entry>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of given) {
      const where = `'${key}'`;
      switch (key) {
        case "minLength":
        case "maxLength":
        case "minItems":
        case "maxItems": {
          const value = r.count(entry.value, where);
          if (value !== undefined && value > IDL_LIMITS.count) r.report("limit-exceeded", entry.value, { what: where, actual: value, max: `${IDL_LIMITS.count} (2^32 − 1)` });
          else out[key] = value;
          break;
        }
        case "min":
        case "max":
        case "exclusiveMin":
        case "exclusiveMax": {
          const value = r.number(entry.value, where);
          if (value !== undefined && kind === "int" && !Number.isInteger(value) && (key === "min" || key === "max")) {
            r.report("invalid-value", entry.value, { where, expected: "an integer for an int field" });
          }
          if (value !== undefined && kind === "int" && Math.abs(value) > IDL_LIMITS.integer) {
            r.report("limit-exceeded", entry.value, { what: `the size of ${where} of an int`, actual: value, max: `${IDL_LIMITS.integer} (2^53 − 1, the largest integer a JavaScript number holds exactly)` });
            break;
          }
          out[key] = value;
          break;
        }
        case "multipleOf": {
          const value = r.number(entry.value, where);
          if (value !== undefined && value <= 0) r.report("invalid-value", entry.value, { where, expected: "a number above 0" });
          else out[key] = value;
          break;
        }
        case "pattern": {
          const pattern = r.string(entry.value, where);
          if (pattern === undefined) break;
          try {
            new RegExp(pattern, "u");
          } catch (error) {
            r.report("invalid-pattern", entry.value, { detail: (error as Error).message });
            break;
          }
          const unsafe = patternVerdict(pattern);
          if (unsafe === undefined) out[key] = pattern;
          else r.report("unsafe-pattern", entry.value, { pattern, why: unsafe });
          break;
        }
        case "format": {
          const format = r.string(entry.value, where);
          if (format === undefined) break;
          if ((STRING_FORMATS as readonly string[]).includes(format)) out[key] = format;
          else r.report("unknown-format", entry.value, { name: format, known: STRING_FORMATS.join(", "), suggestion: didYouMean(format, STRING_FORMATS) });
          break;
        }
        case "unique":
          out[key] = r.bool(entry.value, where);
          break;
        case "maxDepth":
        case "maxBytes":
          out[key] = readJsonBound(key, entry);
          break;
      }
    }
    for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
    return out;
  };

  /** A `json` bound: a positive integer, and a depth no deeper than the validators' hard cap. */
  const readJsonBound = (key: "maxDepth" | "maxBytes", entry: Entry): number | undefined => {
    const value = r.number(entry.value, `'${key}'`);
    if (value === undefined) return undefined;
    const max = key === "maxDepth" ? JSON_DEPTH_LIMIT : IDL_LIMITS.integer;
    if (!Number.isInteger(value) || value < 1) r.report("invalid-value", entry.value, { where: `'${key}'`, expected: "a positive integer" });
    else if (value > max) r.report("limit-exceeded", entry.value, { what: `'${key}'`, actual: value, max: `${max}` });
    else return value;
    return undefined;
  };

  /** `items: [T1, T2, ...]`: a tuple's positions, at least one. */
  const parseTuple = (items: Entry | undefined): TypeNode | undefined => {
    const seq = items && r.seq(items.value, "a tuple's items");
    if (!seq) return undefined;
    if (seq.items.length === 0) {
      r.report("empty-tuple", items.keyNode);
      return undefined;
    }
    const parsed = seq.items.map((item) => parseTypeSpec(item as Node | null, "a tuple's item"));
    return parsed.every((t) => t !== undefined) ? { kind: "tuple", items: parsed as TypeNode[] } : undefined;
  };

  /** Bounds that no value meets, reported at the lower one's value (`given` holds the entries read). */
  const checkBounds = (type: TypeNode, given: ReadonlyMap<string, Entry>, owner: Node): TypeNode => {
    const t = type as unknown as Record<string, number | undefined>;
    for (const [min, max] of BOUND_PAIRS) {
      const low = t[min];
      const high = t[max];
      if (low !== undefined && high !== undefined && !boundsMeet(min, low, max, high)) r.report("min-above-max", given.get(min)?.value, { min, minValue: low, max, maxValue: high }, owner);
    }
    return type;
  };

  const parseUnion = (tag: Entry | undefined, variants: Entry | undefined): TypeNode | undefined => {
    if (!tag || !variants) return undefined;
    const tagName = r.string(tag.value, "a union's tag");
    const entries = r.entries(variants.value, "variants");
    if (tagName === undefined || !entries) return undefined;
    if (entries.length === 0) {
      r.report("empty-union", variants.keyNode);
      return undefined;
    }
    const out: UnionVariant[] = [];
    for (const entry of entries) {
      const loc = r.loc(entry.keyNode);
      let type: UnionVariant["type"] | undefined;
      if (isMap(entry.value)) {
        const body = r.entries(entry.value, `variant '${entry.key}'`, ["fields", "description", ...OPEN_OBJECT_KEYS]);
        const fieldsEntry = body?.find((e) => e.key === "fields");
        if (!fieldsEntry) r.report("missing-key", entry.value, { where: `variant '${entry.key}'`, key: "fields" });
        const fields = fieldsEntry && parseFields(fieldsEntry.value, "fields");
        const open = parseOpenObject(r, body?.find((e) => e.key === "unknown_fields"), body?.find((e) => e.key === "additional"), parseTypeSpec);
        if (fields && open) type = { kind: "object", fields, ...open };
      } else {
        const resolved = build(entry.value, [], entry.keyNode);
        if (resolved?.kind === "named") type = resolved;
        else if (resolved) r.report("invalid-value", entry.value, { where: `variant '${entry.key}'`, expected: "a named type or { fields }" });
      }
      if (!type) continue;
      const tagField = type.kind === "object" ? type.fields.find((f) => f.name === tagName) : undefined;
      if (tagField) {
        // At the field the variant declares, the one to remove or rename.
        r.reportAt("union-tag-conflict", tagField.loc, { variant: entry.key, tag: tagName });
        continue;
      }
      out.push({ value: entry.key, type, loc });
    }
    return out.length === entries.length ? { kind: "union", tag: tagName, variants: out } : undefined;
  };

  /** `variants:` as a list: each a type spec; an untagged union inside is flattened into this one. */
  const parseOneOf = (tag: Entry | undefined, variants: Entry): OneOfType | undefined => {
    if (tag) {
      r.report("invalid-value", tag.keyNode, {
        where: "'tag' beside a list of variants",
        expected: "absent (a list of variants is an untagged union; a tagged union maps each tag value to its variant)",
      });
      return undefined;
    }
    const items = isSeq(variants.value) ? (variants.value.items as (Node | null)[]) : [];
    if (items.length < 2) {
      r.report("invalid-value", variants.keyNode, { where: "the variants of an untagged union", expected: "a list of at least 2 types" });
      return undefined;
    }
    const out: OneOfType["variants"][number][] = [];
    let complete = true;
    for (const item of items) {
      const type = parseTypeSpec(item, "a union variant");
      if (!type) complete = false;
      else if (type.kind === "oneOf") out.push(...type.variants);
      else out.push({ type, loc: r.loc(item, variants.keyNode) });
    }
    return complete ? { kind: "oneOf", variants: out } : undefined;
  };

  /** `string`, `Claim`, or `{ type: list, of: Claim, minItems: 1 }`; `where` names it in diagnostics. */
  const parseTypeSpec = (node: Node | null, where = "a type"): TypeNode | undefined => {
    if (!isMap(node)) return build(node, [], node!);
    const entries = r.entries(node, where, [...FIELD_KEYS, ...ALL_CONSTRAINTS]);
    if (!entries) return undefined;
    // A field's own settings written on its type (a list's items, say): the field is where they go.
    const misplaced = entries.filter((e) => e.key !== "type" && FIELD_KEYS.includes(e.key));
    for (const e of misplaced) r.report("field-key-on-type", e.keyNode, { key: e.key, where, note: e.key === "sensitivity" ? SENSITIVITY_COVERS : "" });
    const typeEntry = entries.find((e) => e.key === "type");
    if (!typeEntry) {
      r.report("missing-key", node, { where, key: "type" });
      return undefined;
    }
    return build(typeEntry.value, entries.filter((e) => e !== typeEntry && !misplaced.includes(e)), node);
  };

  /** A field from its shorthand (`status: TaskStatus`) or its mapping. */
  const parseField = (name: string, nameNode: Node, node: Node | null, extraKeys: readonly string[] = []): Field | undefined => {
    const loc = r.loc(nameNode);
    if (!isMap(node)) {
      const type = build(node, [], nameNode);
      return type && { name, type, optional: false, loc, locs: { type: r.loc(node, nameNode) } };
    }
    const entries = r.entries(node, `field '${name}'`, [...FIELD_KEYS, ...ALL_CONSTRAINTS, ...extraKeys]);
    if (!entries) return undefined;
    const byKey = new Map(entries.map((e) => [e.key, e]));
    const typeEntry = byKey.get("type");
    if (!typeEntry) {
      r.report("missing-key", nameNode, { where: `field '${name}'`, key: "type" });
      return undefined;
    }
    const constraints = entries.filter((e) => !FIELD_KEYS.includes(e.key) && !extraKeys.includes(e.key));
    // The values diagnostics name, found later against the version (a default of the wrong type, an
    // unknown contract, a `use` of no field): each points at its value, not at the field's name.
    const locs: Record<string, SourceLocation> = { type: r.loc(typeEntry.value, typeEntry.keyNode) };
    const outer = refLocs;
    refLocs = locs;
    let type: TypeNode | undefined;
    try {
      type = build(typeEntry.value, constraints, nameNode);
    } finally {
      refLocs = outer;
    }
    const field: { -readonly [K in keyof Field]: Field[K] } = { name, type: type!, optional: false, loc, locs };
    const optional = byKey.get("optional");
    if (optional) field.optional = r.bool(optional.value, `'optional' of '${name}'`) ?? false;
    const nullable = byKey.get("nullable");
    if (nullable) {
      const value = isScalar(nullable.value) ? nullable.value.value : undefined;
      if (typeof value === "string" && value.trim() !== "") field.nullable = value;
      else r.report("nullable-without-meaning", nullable.keyNode, { field: name });
    }
    const defaultEntry = byKey.get("default");
    if (defaultEntry) {
      if (!field.optional) r.report("default-on-required", defaultEntry.keyNode, { field: name });
      field.default = r.json(defaultEntry.value);
      locs["default"] = r.loc(defaultEntry.value, defaultEntry.keyNode);
    }
    const description = byKey.get("description");
    if (description) field.description = r.string(description.value, `'description' of '${name}'`);
    const sensitivity = byKey.get("sensitivity");
    if (sensitivity) field.sensitivity = r.oneOf(sensitivity.value, `'sensitivity' of '${name}'`, SENSITIVITIES);
    const role = byKey.get("role");
    if (role) field.role = r.string(role.value, `'role' of '${name}'`);
    const lint = byKey.get("lint");
    if (lint) field.lintIgnore = r.lintIgnores(lint.value);
    const deprecated = byKey.get("deprecated");
    if (deprecated) {
      const d = r.entries(deprecated.value, `'deprecated' of '${name}'`, ["since", "use"]);
      const since = d?.find((e) => e.key === "since");
      const use = d?.find((e) => e.key === "use");
      if (d && !since) r.report("missing-key", deprecated.value, { where: `'deprecated' of '${name}'`, key: "since" });
      if (since) {
        const sinceText = isScalar(since.value) ? ((since.value as { source?: string }).source ?? String(since.value.value)) : undefined;
        const useName = use && r.string(use.value, "'use'");
        if (sinceText !== undefined) field.deprecated = useName === undefined ? { since: sinceText } : { since: sinceText, use: useName };
        if (useName !== undefined) locs["deprecated.use"] = r.loc(use!.value, use!.keyNode);
      }
    }
    for (const key of Object.keys(field) as (keyof Field)[]) if (field[key] === undefined) delete field[key];
    return type ? (field as Field) : undefined;
  };

  const parseFields = (node: Node | null, where: string): Field[] | undefined => {
    const entries = r.entries(node, where);
    if (!entries) return undefined;
    const fields: Field[] = [];
    let complete = true;
    for (const entry of entries) {
      if (!FIELD_NAME.test(entry.key)) {
        r.report("invalid-name", entry.keyNode, { what: "field name", name: entry.key, rule: FIELD_NAME_RULE });
        complete = false;
        continue;
      }
      const field = parseField(entry.key, entry.keyNode, entry.value);
      if (field) fields.push(field);
      else complete = false;
    }
    return complete ? fields : undefined;
  };

  return { parseTypeSpec, parseField, parseFields, readConstraints, build };
};

export type TypeParser = ReturnType<typeof createTypeParser>;
