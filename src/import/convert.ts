// JSON Schema → treaty's IDL. Each schema node becomes the IDL's nearest exact equivalent; what the
// IDL cannot say is left out with a diagnostic at its JSON pointer, always in the direction that
// accepts more (a constraint dropped, a field left out whose key is then kept unchecked), never one that rejects what the
// source accepts. So for everything imported without a diagnostic, the generated validator and the
// source schema agree.
import { createDiagnostic, type Diagnostic, type Params } from "../diagnostics/diagnostic.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { distinguishDescribed } from "../ir/one-of-variants.js";
import { describeBranch } from "../ir/one-of-json-schema.js";
import { describeConverted } from "./one-of.js";
import { STRING_FORMATS, type UnknownFields } from "../ir/model.js";
import { FIELD_NAME, FIELD_NAME_RULE, PLACEHOLDER_MEANING as PLACEHOLDER } from "../ir/names.js";
import { BOUND_PAIRS, boundsMeet, IDL_LIMITS } from "../resolve/limits.js";
import { patternVerdict } from "../resolve/pattern-safety.js";
import { escapePointer, isSchemaObject, nodeAtPointer, refPointer, type Schema, type SchemaSource } from "./source.js";

/** A type as the IDL writes it in a mapping: `{ type: string, maxLength: 40 }`, `{ type: list, of: ... }`. */
export type IdlType = { readonly type: string; readonly [key: string]: unknown };

/** A field: its type's mapping plus the field's own keys; a bare type name when it has nothing else. */
export type IdlField = IdlType | string;

/** An object's own `unknown_fields` (elided where it is the contract's) and `additional`, then its fields. */
export interface IdlObjectBody {
  readonly unknown_fields?: UnknownFields;
  readonly additional?: IdlType | string;
  readonly fields: Record<string, IdlField>;
}

export interface IdlObject extends IdlObjectBody {
  readonly description?: string;
}

export interface IdlEnum {
  readonly description?: string;
  readonly values: Record<string, string>;
}


export interface ImportedContract {
  readonly name: string;
  /** Where its root is in the source. */
  readonly pointer: string;
  readonly description?: string;
  /** The root object's policy; objects that differ say their own. */
  readonly unknownFields: UnknownFields;
  readonly enums: ReadonlyMap<string, IdlEnum>;
  readonly types: ReadonlyMap<string, IdlObject>;
  readonly fields: Record<string, IdlField>;
  /** Nothing it reaches was reported: its validator accepts exactly what the source schema does. */
  readonly exact: boolean;
  /** Some named type it reaches refers back to itself (LLM projections cannot take it). */
  readonly recursive: boolean;
}

const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** The string formats the IDL has, by JSON Schema's name. */
const FORMATS: ReadonlySet<string> = new Set(STRING_FORMATS);
/** Keywords that describe and never reject; carried where the IDL has a place (description), else ignored as validators ignore them. */
const ANNOTATIONS = new Set(["$schema", "$id", "id", "$comment", "$anchor", "title", "description", "examples", "example", "default", "deprecated", "readOnly", "writeOnly", "xml", "externalDocs", "discriminator", "$defs", "definitions"]);

/** Keywords `type()` reports and leaves out wherever they are: not distributed into a oneOf's branches. */
const REPORTED = new Set(["not", "if", "then", "else", "$dynamicRef", "$recursiveRef", "unevaluatedItems"]);
/** Every JSON type but null, integer being within number: what a schema without `type` may be. */
const ANY_TYPES = ["string", "number", "boolean", "array", "object"] as const;
/** The keywords about each type: they constrain a value of that type and pass any other. */
const KEYWORDS_OF: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema"]),
  number: new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
  boolean: new Set(),
  array: new Set(["items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems"]),
  object: new Set(["properties", "additionalProperties", "patternProperties", "required", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"]),
};
/** Keywords that constrain a value, but those `type()` reports wherever they are; any other (`x-codegen-package`) is one no validator reads. */
const ASSERTING: ReadonlySet<string> = new Set(["type", "enum", "const", "allOf", "anyOf", "oneOf", "nullable", ...Object.values(KEYWORDS_OF).flatMap((set) => [...set])]);
/** OpenAPI's number formats: about numbers only (ajv-formats), so a string passes them whatever it holds. */
const NUMBER_FORMATS: ReadonlySet<string> = new Set(["int32", "int64", "float", "double"]);

/** How deep conversions may go inside one another: the IDL's limit, counted as resolve counts it (see `nested`). */
const MAX_CONVERSION_NESTING = IDL_LIMITS.depth;

/**
 * Types one contract's conversion writes at most. A definition that is no object has no name in the
 * IDL and is written where it is used: definitions using the next one twice (a tuple of two, a
 * union of a list and a map of it) double what is written per level, 2^40 types for 40 of them.
 * Past the budget, json. Published schemas write at most a few hundred per contract.
 */
export const MAX_WRITTEN_TYPES = 2_000;

/** `call_tool-result` → `CallToolResult`; a name that starts with a digit gets a `T`. */
export const pascalCase = (name: string): string => {
  const joined = name
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== "")
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
  return joined === "" ? "T" : /^[0-9]/.test(joined) ? `T${joined}` : joined;
};

/** `CallToolResult` → `call_tool_result`. */
export const snakeCase = (name: string): string => {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return snake === "" ? "t" : /^[0-9]/.test(snake) ? `t_${snake}` : snake;
};

interface Converted {
  readonly type: IdlType | string;
  /** The node accepts null besides the type. */
  readonly nullable?: boolean;
}

/** One contract's conversion: the named types and enums it needs, each converted once. */
class Converter {
  readonly enums = new Map<string, IdlEnum>();
  readonly types = new Map<string, IdlObject>();
  /** Named types by the pointer of their schema, so a definition used twice is one type. */
  private readonly typeOf = new Map<string, string>();
  private readonly enumOf = new Map<string, string>();
  /** Definitions being converted: a `$ref` back to one is recursion. */
  private readonly inProgress = new Set<string>();
  /** Pointers of objects a property was left out of: their unknown keys must be kept, whatever the source says of others. */
  private readonly leftOut = new Set<string>();
  /** Names of the named types being converted (each is added to `types` after the types it uses). */
  private readonly converting = new Set<string>();
  /** Whether some named type refers back to itself. */
  recursive = false;
  /** Calls of `type` under way, one inside another. */
  private nesting = 0;
  /** Types written so far (see `MAX_WRITTEN_TYPES`), and whether the budget was spent. */
  private written = 0;
  private overBudget = false;

  constructor(
    private readonly source: SchemaSource,
    private readonly report: (code: DiagnosticCode, pointer: string, params: Params) => void,
  ) {}

  private notExpressible(pointer: string, what: string, consequence: string): void {
    this.report("import-not-expressible", pointer, { what, pointer, consequence });
  }

  /**
   * `base`, or `base` numbered, as no type or enum is named (one whose fields are being converted
   * included: its name is in none of the maps yet, and an enum met among them must not take it).
   */
  private uniqueName(base: string): string {
    const taken = (n: string): boolean => this.types.has(n) || this.enums.has(n) || this.converting.has(n) || !TYPE_NAME.test(n);
    let name = base;
    for (let i = 2; taken(name); i++) name = `${base}${i}`;
    return name;
  }

  /** The schema a local `$ref` points at, or undefined after saying why not. */
  private target(ref: unknown, pointer: string): { pointer: string; schema: unknown } | undefined {
    if (typeof ref !== "string" || !ref.startsWith("#")) {
      this.notExpressible(pointer, `the reference ${JSON.stringify(ref)} (only references within the document are imported)`, "the field is left out");
      return undefined;
    }
    const at = refPointer(ref);
    const node = this.resolved(ref);
    if (at === undefined || node === undefined) {
      this.notExpressible(pointer, `the reference ${ref}, which points at nothing`, "the field is left out");
      return undefined;
    }
    return { pointer: at, schema: node };
  }

  private definitionName(pointer: string): string | undefined {
    for (const [name, def] of this.source.definitions) if (def.pointer === pointer) return name;
    return undefined;
  }

  /** The named type for the object schema at `pointer`, converted on first use. */
  private namedType(pointer: string, schema: Schema, hint: string): string {
    const known = this.typeOf.get(pointer);
    if (known && this.converting.has(known)) this.recursive = true;
    if (known) return known;
    const name = this.uniqueName(pascalCase(hint));
    // Named before its fields are converted, so a `$ref` back into it (a recursive type) is its name.
    this.typeOf.set(pointer, name);
    this.converting.add(name);
    const body = this.objectBody(schema, pointer, name);
    this.converting.delete(name);
    this.types.set(name, { ...(describe(schema) && { description: describe(schema) }), ...body });
    return name;
  }

  private namedEnum(pointer: string, values: readonly string[], schema: Schema, hint: string): string {
    const known = this.enumOf.get(pointer);
    if (known) return known;
    const name = this.uniqueName(pascalCase(hint));
    this.enumOf.set(pointer, name);
    this.enums.set(name, { ...(describe(schema) && { description: describe(schema) }), values: Object.fromEntries(values.map((v) => [v, PLACEHOLDER])) });
    return name;
  }

  /** An object schema as the IDL writes it: what it does with unknown keys, and its fields. */
  objectBody(schema: Schema, pointer: string, name: string): IdlObjectBody {
    const fields = this.objectFields(schema, pointer, name);
    return { ...this.unknownKeys(schema, pointer, name), fields };
  }

  /**
   * `additionalProperties` as the IDL says it: false rejects, absent or any value keeps (JSON
   * Schema's default: the keys are data, passed on unchanged), a schema keeps them typed by
   * `additional`. An object a property was left out of keeps its unknown keys unchecked, as does
   * one with patternProperties (left out, reported: the keys they admit are not unknown to the
   * source), so the import never rejects what the source accepts.
   */
  unknownKeys(schema: Schema, pointer: string, hint: string): Omit<IdlObjectBody, "fields"> {
    const additional = schema["additionalProperties"];
    const leftOut = this.leftOut.has(pointer) || (isSchemaObject(schema["patternProperties"]) && Object.keys(schema["patternProperties"]).length > 0);
    if (additional === false) return { unknown_fields: leftOut ? "keep" : "reject" };
    if (acceptsAnything(additional)) return { unknown_fields: "keep" };
    const at = `${pointer}/additionalProperties`;
    if (leftOut) {
      this.notExpressible(at, "typed additional properties in an object some of whose properties were left out", "unknown keys are kept unchecked");
      return { unknown_fields: "keep" };
    }
    const of = this.type(additional, at, `${hint}_additional`);
    if (of?.nullable) this.notExpressible(at, "additional properties that may be null", "unknown keys are kept unchecked");
    return of === undefined || of.nullable ? { unknown_fields: "keep" } : { unknown_fields: "keep", additional: of.type };
  }

  /**
   * The kinds of value `schema`'s allOf parts are about (references followed, nested allOfs
   * included): `object` for a part with an object's keywords, the part's type (or the type its
   * keywords imply) otherwise; a part of annotations only is about no kind. `declared`: only the
   * types parts say (`type: object`), which alone keep values of other types out.
   */
  private allOfKinds(schema: Schema, declared = false, seen = new Set<unknown>()): string[] {
    const kinds: string[] = [];
    for (const part of Array.isArray(schema["allOf"]) ? (schema["allOf"] as unknown[]) : []) {
      let target = part;
      if (isSchemaObject(part) && typeof part["$ref"] === "string") target = this.resolved(part["$ref"]) ?? part;
      if (!isSchemaObject(target) || seen.has(target)) continue;
      seen.add(target);
      // A list of types (`type: [integer, string]`) is about each; it keeps the others out only when it is one.
      const listed = Array.isArray(target["type"]) ? typeList(target["type"]) : undefined;
      if (listed !== undefined) kinds.push(...(declared && listed.length > 1 ? [] : listed));
      const kind = listed !== undefined ? undefined : (typeOf(target) ?? (declared ? undefined : isObjectSchema(target) ? "object" : inferredType(target)));
      if (kind !== undefined) kinds.push(kind);
      kinds.push(...this.allOfKinds(target, declared, seen));
    }
    return kinds;
  }

  /**
   * The schema keeps every value that is no object out: `type: object`, or (without `type`) an
   * allOf one of whose parts says it. A union of objects is no object schema.
   */
  declaresObject(schema: Schema): boolean {
    if (schema["oneOf"] !== undefined || schema["anyOf"] !== undefined) return false;
    return typeOf(schema) === "object" || (schema["type"] === undefined && this.allOfKinds(schema, true).includes("object"));
  }

  /** The fields of an object schema (its `properties`, `required` and, through `allOf`, its parts'). */
  objectFields(schema: Schema, pointer: string, name: string): Record<string, IdlField> {
    const merged = this.mergedObject(schema, pointer);
    const fields: Record<string, IdlField> = {};
    if (!merged) return fields;
    for (const [key, property] of merged.properties) {
      const at = `${property.pointer}`;
      if (!FIELD_NAME.test(key)) {
        this.leftOut.add(pointer);
        this.notExpressible(at, `the property name ${JSON.stringify(key)} (field names are ${FIELD_NAME_RULE})`, "the field is left out and its key is kept unchecked, as an unknown one");
        continue;
      }
      const field = this.field(property.schema, at, `${name}_${key}`, !merged.required.has(key));
      if (field === undefined) {
        this.leftOut.add(pointer);
        continue;
      }
      setOwn(fields, key, field);
    }
    for (const key of merged.required) if (!merged.properties.has(key)) this.requiredAdditional(schema, key, pointer, name, fields);
    return fields;
  }

  /**
   * A required key that `properties` does not give: a field typed as the object's other keys are
   * (`additionalProperties`, any value when absent). Reported where that is no field: a key that is
   * no field name, or one patternProperties (left out) may type, or one additionalProperties: false
   * forbids (the object then accepts nothing).
   */
  private requiredAdditional(schema: Schema, key: string, pointer: string, name: string, fields: Record<string, IdlField>): void {
    const additional = schema["additionalProperties"];
    const patterns = isSchemaObject(schema["patternProperties"]) && Object.keys(schema["patternProperties"]).length > 0;
    if (!FIELD_NAME.test(key) || patterns || additional === false || Object.hasOwn(fields, key)) {
      this.notExpressible(`${pointer}/required`, `required property ${JSON.stringify(key)} with no schema in properties`, "it is not required");
      return;
    }
    const field = this.field(additional ?? true, `${pointer}/additionalProperties`, `${name}_${key}`, false);
    if (field === undefined) this.leftOut.add(pointer);
    else setOwn(fields, key, field);
  }

  /**
   * An object schema with its `allOf` parts (objects, or references to objects) merged into one
   * list of properties; undefined after a diagnostic when the parts cannot be merged.
   */
  private mergedObject(schema: Schema, pointer: string): { properties: Map<string, { schema: unknown; pointer: string }>; required: Set<string> } | undefined {
    const properties = new Map<string, { schema: unknown; pointer: string }>();
    const required = new Set<string>();
    const add = (part: Schema, at: string, seen: Set<string>): void => {
      if (part["$ref"] !== undefined) {
        const target = this.target(part["$ref"], `${at}/$ref`);
        if (target && isSchemaObject(target.schema) && !seen.has(target.pointer)) add(target.schema, target.pointer, new Set([...seen, target.pointer]));
        else if (target && target.schema !== true && !isSchemaObject(target.schema)) this.acceptsNothingPart(`${at}/$ref`);
      }
      this.checkObjectKeywords(part, at, at !== pointer);
      const props = part["properties"];
      if (isSchemaObject(props)) {
        for (const [key, value] of Object.entries(props)) {
          const here = { schema: value, pointer: `${at}/properties/${escapePointer(key)}` };
          const before = properties.get(key);
          const both = before && narrower(before, here);
          if (before && !both) this.notExpressible(`${at}/properties/${escapePointer(key)}`, `property ${JSON.stringify(key)} given by two parts of an allOf`, "the first part's schema is kept");
          else properties.set(key, both ?? here);
        }
      }
      if (Array.isArray(part["required"])) for (const key of part["required"]) if (typeof key === "string") required.add(key);
      const parts = part["allOf"];
      if (Array.isArray(parts)) parts.forEach((p, i) => (isSchemaObject(p) ? add(p, `${at}/allOf/${i}`, seen) : p !== true && this.acceptsNothingPart(`${at}/allOf/${i}`)));
    };
    add(schema, pointer, new Set([pointer]));
    return { properties, required };
  }

  /** A part of an allOf that accepts nothing (`false`), so the whole accepts nothing: the IDL has no such object. */
  private acceptsNothingPart(pointer: string): void {
    this.notExpressible(pointer, "a part of an allOf that accepts nothing (so the object accepts nothing)", "the part is left out: the imported contract accepts more");
  }

  /** `part`: the schema is a part of an allOf, whose `additionalProperties` the merged object cannot take. */
  private checkObjectKeywords(schema: Schema, pointer: string, part = false, handled: readonly string[] = []): void {
    if (part && !acceptsAnything(schema["additionalProperties"])) {
      this.notExpressible(`${pointer}/additionalProperties`, "additionalProperties in a part of an allOf", "unknown keys follow the merged object's own additionalProperties");
    }
    for (const keyword of ["oneOf", "anyOf", "not", "if", "enum", "const", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"]) {
      if (schema[keyword] !== undefined && !handled.includes(keyword)) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    }
  }

  /** A property's field, or undefined (after a diagnostic) when its type cannot be written at all. */
  field(schema: unknown, pointer: string, hint: string, optional: boolean): IdlField | undefined {
    const converted = this.type(schema, pointer, hint);
    if (!converted) return undefined;
    const extra: Record<string, unknown> = {};
    if (optional) extra["optional"] = true;
    if (converted.nullable) extra["nullable"] = PLACEHOLDER;
    const s = isSchemaObject(schema) ? schema : {};
    const description = describe(s);
    if (description) extra["description"] = description;
    if (optional && s["default"] !== undefined && isScalarValue(s["default"])) extra["default"] = s["default"];
    if (Object.keys(extra).length === 0) return converted.type;
    return typeof converted.type === "string" ? { type: converted.type, ...extra } : { ...converted.type, ...extra };
  }

  /** The IDL type of a schema node. */
  type(schema: unknown, pointer: string, hint: string): Converted | undefined {
    return this.nested(pointer, () => this.typeOfSchema(schema, pointer, hint));
  }

  /**
   * `convert`, one level deeper as the IDL counts levels (a type, and each variant of a union made
   * from one schema's list of types). A net under every way a schema can hold itself that the
   * guards by pointer miss (a branch that merges in, through a `$ref`, the schema it is a branch of
   * gets a new pointer each time), and under the IDL's limit on nesting: past it, json.
   */
  private nested(pointer: string, convert: () => Converted | undefined): Converted | undefined {
    if (this.written >= MAX_WRITTEN_TYPES) {
      if (!this.overBudget) this.notExpressible(pointer, `a contract whose types, written out, number more than ${MAX_WRITTEN_TYPES} (definitions that are no objects are written where they are used, so ones that use the next twice double per level)`, "this and what follows past it is written as json, any JSON value");
      this.overBudget = true;
      return { type: "json" };
    }
    this.written++;
    if (this.nesting >= MAX_CONVERSION_NESTING) {
      this.notExpressible(pointer, `a schema nested more than ${MAX_CONVERSION_NESTING} levels deep as the import writes it (a reference that merges in what holds it, say)`, "it is written as json, any JSON value");
      return { type: "json" };
    }
    this.nesting++;
    try {
      return convert();
    } finally {
      this.nesting--;
    }
  }

  private typeOfSchema(schema: unknown, pointer: string, hint: string): Converted | undefined {
    if (acceptsAnything(schema)) return { type: "json" };
    if (!isSchemaObject(schema)) {
      this.notExpressible(pointer, "a schema that accepts nothing", "the field is left out");
      return undefined;
    }
    for (const keyword of ["not", "if", "then", "else", "$dynamicRef", "$recursiveRef", "unevaluatedItems"]) {
      if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    }
    const ref = schema["$ref"];
    if (ref !== undefined) {
      const siblings = Object.keys(schema).filter((k) => k !== "$ref" && !ANNOTATIONS.has(k));
      // Draft-07 ignores keywords beside $ref; 2020-12 applies them, as an allOf would.
      if (siblings.length > 0 && this.source.dialect !== "draft-07") return this.type({ allOf: [{ $ref: ref }, Object.fromEntries(siblings.map((k) => [k, schema[k]]))] }, pointer, hint);
      return this.referenced(ref, `${pointer}/$ref`, hint);
    }
    const keyword = schema["oneOf"] !== undefined ? "oneOf" : schema["anyOf"] !== undefined ? "anyOf" : undefined;
    if (keyword !== undefined) {
      // Keywords beside the branches apply to each of them.
      const beside = Object.keys(schema).filter((k) => k !== keyword && ASSERTING.has(k));
      if (beside.length > 0) return this.distributed(schema, keyword, beside, pointer, hint);
    }
    const nullableOf = this.nullableVariant(schema, pointer, hint);
    if (nullableOf !== undefined) return nullableOf || undefined;
    if (keyword !== undefined) return this.union(schema, pointer, hint);
    if (Array.isArray(schema["allOf"])) {
      if (typeOf(schema) !== undefined && typeOf(schema) !== "object") {
        this.notExpressible(`${pointer}/allOf`, `allOf on a ${typeOf(schema)}`, "the field is left out");
        return undefined;
      }
      // Parts about a value that is not an object (`[{type: string}, {minLength: 2}]`) are no object's fields.
      if (schema["type"] === undefined && this.allOfKinds(schema).some((kind) => kind !== "object")) {
        const merged = mergedScalar(schema);
        if (merged !== undefined) return this.type(merged, pointer, hint);
        this.notExpressible(`${pointer}/allOf`, "an allOf whose parts are not all object schemas, nor independent keywords of one value", "the field is left out");
        return undefined;
      }
      // Object parts none of which says `type: object`: a value that is no object passes them all.
      if (schema["type"] === undefined && !this.allOfKinds(schema, true).includes("object")) return this.anyType(schema, pointer, hint);
      return this.inlineObject(schema, pointer, hint);
    }
    if ("const" in schema || Array.isArray(schema["enum"])) return this.literal(schema, pointer, hint);
    const types = Array.isArray(schema["type"]) ? (schema["type"] as unknown[]) : schema["type"] === undefined ? [] : [schema["type"]];
    // No type: each keyword applies to its own type, and a value of any other type passes it.
    if (types.length === 0) return this.anyType(schema, pointer, hint);
    const nullable = types.includes("null") || (this.source.dialect === "openapi-3.0" && schema["nullable"] === true);
    const rest = types.filter((t) => t !== "null");
    if (rest.length > 1) return this.typeList(rest, nullable, schema, pointer, hint);
    const converted = this.typed(rest[0] ?? "null", schema, pointer, hint);
    return converted && (nullable ? { ...converted, nullable: true } : converted);
  }

  /** `type: [...]`: an untagged union of each type (they are disjoint but for integer within number), keywords applying by type. */
  private typeList(kinds: readonly unknown[], nullable: boolean, schema: Schema, pointer: string, hint: string): Converted | undefined {
    if (kinds.includes("integer") && kinds.includes("number")) {
      this.notExpressible(`${pointer}/type`, `a value of type ${kinds.join(" or ")} (an integer is a number too)`, "the field is left out and its key is kept unchecked, as an unknown one");
      return undefined;
    }
    const variants = kinds.map((kind) => this.nested(pointer, () => this.typed(kind, schema, pointer, hint)));
    if (variants.some((v) => v === undefined)) return undefined;
    return unionOf(variants.map((v) => v!.type), nullable);
  }

  /**
   * A schema without `type`: any JSON value when none of its keywords is about one type, else
   * the union of every type, each with the keywords about it (`{ pattern: "^a" }` accepts 3 and
   * null), as JSON Schema applies them. A format is about strings or about numbers, never both.
   */
  private anyType(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const kinds = ANY_TYPES.filter((kind) => Object.keys(schema).some((k) => KEYWORDS_OF[kind]!.has(k)));
    if (kinds.length === 0 && !Array.isArray(schema["allOf"])) return { type: "json" };
    const format = schema["format"];
    const variants = ANY_TYPES.map((kind) => {
      const own = typeof format === "string" && NUMBER_FORMATS.has(format) !== (kind === "number") ? omit(schema, "format") : schema;
      return this.nested(pointer, () => this.typed(kind, own, pointer, hint));
    });
    if (variants.some((v) => v === undefined)) return undefined;
    return unionOf(variants.map((v) => v!.type), true);
  }

  /**
   * A oneOf or anyOf with keywords beside it (`{ type: object, required: [id], oneOf: [...] }`):
   * those keywords hold for whichever branch matches, so each branch becomes the branch and them
   * (a branch whose type they exclude matches nothing: `false`). When some branch cannot be merged
   * with them, they are left out, reported, and the branches imported alone.
   */
  private distributed(schema: Schema, keyword: "oneOf" | "anyOf", beside: readonly string[], pointer: string, hint: string): Converted | undefined {
    const annotations = Object.fromEntries(Object.entries(schema).filter(([k]) => ANNOTATIONS.has(k)));
    const branches = schema[keyword];
    const shared = Object.fromEntries(beside.map((k) => [k, schema[k]]));
    const merged = Array.isArray(branches) ? branches.map((branch) => this.withBranch(shared, branch)) : undefined;
    if (merged === undefined || merged.some((m) => m === undefined)) {
      for (const k of beside) this.notExpressible(`${pointer}/${k}`, `${k} beside ${keyword === "oneOf" ? "a oneOf" : "an anyOf"} whose branches it cannot be merged into`, "the constraint is left out: the imported contract accepts more");
      return this.type({ ...annotations, [keyword]: branches }, pointer, hint);
    }
    return this.type({ ...annotations, [keyword]: merged }, pointer, hint);
  }

  /**
   * A branch of a oneOf/anyOf with `shared` (the keywords beside them) added: the branch itself
   * when it says all of them already (so a named definition stays named), `false` when their
   * types exclude each other, undefined when they cannot be told as one schema.
   */
  private withBranch(shared: Schema, branch: unknown): unknown {
    if (branch === true) return shared;
    if (branch === false) return false;
    if (!isSchemaObject(branch)) return undefined;
    let own: Schema = branch;
    if (branch["$ref"] !== undefined) {
      const target = typeof branch["$ref"] === "string" ? this.resolved(branch["$ref"]) : undefined;
      if (!Object.keys(branch).every((k) => k === "$ref" || ANNOTATIONS.has(k))) return undefined;
      if (isSchemaObject(target) && Object.keys(shared).every((k) => (k === "type" ? typeWithin(target, shared, this.source.dialect) : sameJson(target[k], shared[k])))) return branch;
      if (target === true || target === false) return this.withBranch(shared, target);
      if (!isSchemaObject(target) || target["$ref"] !== undefined) return undefined;
      own = target;
    }
    return mergedSchemas(shared, own, this.source.dialect);
  }

  /** `anyOf`/`oneOf` of a type and `null`, or `type: [T, "null"]`: the type, nullable. false: handled, nothing to write. */
  private nullableVariant(schema: Schema, pointer: string, hint: string): Converted | false | undefined {
    for (const keyword of ["anyOf", "oneOf"]) {
      const variants = schema[keyword];
      if (!Array.isArray(variants) || variants.length !== 2) continue;
      const nullAt = variants.findIndex((v) => isSchemaObject(v) && v["type"] === "null" && Object.keys(v).every((k) => k === "type" || ANNOTATIONS.has(k)));
      if (nullAt < 0) continue;
      const other = variants[1 - nullAt];
      const converted = this.type(other, `${pointer}/${keyword}/${1 - nullAt}`, hint);
      if (!converted) return false;
      // Null matching both branches of a oneOf matches not one: the oneOf rejects it.
      if (keyword === "oneOf" && converted.type === "json") return this.nullTwice(`${pointer}/${keyword}`, keyword) ?? false;
      if (keyword === "oneOf" && isNullConst(converted.type)) return this.nothing(`${pointer}/${keyword}`, keyword) ?? false;
      return { ...converted, nullable: keyword === "anyOf" || !(converted.nullable || isNullConst(converted.type)) };
    }
    return undefined;
  }

  /**
   * An object written where it is used. One whose allOf merges in an object that holds it (`allOf:
   * [{ $ref: "#" }]` under the root) would be written inside itself without end: where it comes
   * back it is any JSON value, as recursion through no named object is.
   */
  private inlineObject(schema: Schema, pointer: string, hint: string): Converted {
    if (this.inProgress.has(pointer)) {
      this.report("import-recursive", pointer, { name: pascalCase(hint), pointer });
      return { type: "json" };
    }
    this.inProgress.add(pointer);
    try {
      return { type: { type: "object", ...this.objectBody(schema, pointer, pascalCase(hint)) } };
    } finally {
      this.inProgress.delete(pointer);
    }
  }

  private referenced(ref: unknown, pointer: string, hint: string): Converted | undefined {
    const target = this.target(ref, pointer);
    if (!target) return undefined;
    const name = this.definitionName(target.pointer) ?? hint;
    const schema = target.schema;
    // An object with properties is a named type; a map (additionalProperties alone) is written where it is used.
    if (isSchemaObject(schema) && this.declaresObject(schema) && !(schema["properties"] === undefined && isSchemaObject(schema["additionalProperties"]))) {
      // A named type is the object alone: null (OpenAPI 3.0's `nullable: true` on it) is the field's to take.
      const nullable = allowedTypes(schema, this.source.dialect)?.includes("null") === true;
      return { type: this.namedType(target.pointer, schema, name), ...(nullable && { nullable: true }) };
    }
    // Recursion through no object (MCP's JSONValue: a list or map of itself) cannot be a named
    // type: where it refers back it is any JSON value, which accepts more, never less.
    if (this.inProgress.has(target.pointer)) {
      this.report("import-recursive", pointer, { name, pointer });
      return { type: "json" };
    }
    this.inProgress.add(target.pointer);
    try {
      return this.type(schema, target.pointer, name);
    } finally {
      this.inProgress.delete(target.pointer);
    }
  }

  /**
   * `const` or `enum`: the values listed that the schema's other keywords accept too (`type:
   * string` beside `enum: ["a", 1]` is `"a"` alone). Keywords this cannot decide of a value are
   * left out, reported.
   */
  private literal(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const listed = "const" in schema ? [schema["const"]] : (schema["enum"] as unknown[]);
    const inEnum = (value: unknown) => !("const" in schema && Array.isArray(schema["enum"])) || (schema["enum"] as unknown[]).some((v) => sameJson(v, value));
    const undecided = Object.keys(schema).filter((k) => ASSERTING.has(k) && !DECIDED.has(k) && (k !== "format" || listed.some((v) => typeof v === "string")));
    for (const keyword of undecided) this.notExpressible(`${pointer}/${keyword}`, `${keyword} beside ${"const" in schema ? "const" : "enum"}`, "the constraint is left out: the imported contract accepts more");
    const values = listed.filter((value) => inEnum(value) && admits(schema, value, this.source.dialect));
    if (values.length === 0 && listed.length > 0) {
      this.notExpressible(pointer, `a schema that accepts nothing (no value it lists passes its other keywords)`, "the field is left out");
      return undefined;
    }
    return "const" in schema ? this.constant(values[0], pointer) : this.enumeration(values, schema, pointer, hint);
  }

  private constant(value: unknown, pointer: string): Converted | undefined {
    if (!isScalarValue(value) && value !== null) {
      this.notExpressible(`${pointer}/const`, `const ${JSON.stringify(value)} (a const is a string, number, boolean or null)`, "the field is left out");
      return undefined;
    }
    return { type: { type: "const", value } };
  }

  private enumeration(values: readonly unknown[], schema: Schema, pointer: string, hint: string): Converted | undefined {
    const nonNull = values.filter((v) => v !== null);
    if (nonNull.length > 0 && nonNull.every((v) => typeof v === "string") && new Set(nonNull).size === nonNull.length) {
      const name = this.namedEnum(pointer, nonNull as string[], schema, this.definitionName(pointer) ?? hint);
      return { type: name, ...(nonNull.length < values.length && { nullable: true }) };
    }
    if (nonNull.length === 0 && values.length > 0) return { type: { type: "const", value: null } };
    if (nonNull.length === 1 && isScalarValue(nonNull[0])) return { type: { type: "const", value: nonNull[0] }, ...(nonNull.length < values.length && { nullable: true }) };
    const what = values.length === 0 ? "an empty enum (no value matches it)" : `an enum of ${values.map((v) => JSON.stringify(v)).join(", ")} (enums are distinct strings)`;
    this.notExpressible(`${pointer}/enum`, what, "the field is left out");
    return undefined;
  }

  /** A tagged union: every variant an object with the same required property fixed to a distinct string. */
  private union(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const keyword = schema["oneOf"] !== undefined ? "oneOf" : "anyOf";
    const all = schema[keyword];
    if (!Array.isArray(all) || all.length === 0) {
      this.notExpressible(`${pointer}/${keyword}`, `an empty ${keyword}`, "the field is left out");
      return undefined;
    }
    // A branch that accepts nothing (`false`) matches no value: without it the oneOf or anyOf is the same.
    const live = all.map((schema: unknown, i) => ({ schema, i })).filter((b) => !this.acceptsNothing(b.schema));
    if (live.length === 0) {
      this.notExpressible(`${pointer}/${keyword}`, `${keyword === "anyOf" ? "an" : "a"} ${keyword} no branch of which accepts anything, a schema that accepts nothing`, "the field is left out");
      return undefined;
    }
    const variants = live.map((b) => b.schema);
    const resolved = live.map(({ schema: v, i }) => {
      const at = `${pointer}/${keyword}/${i}`;
      if (isSchemaObject(v) && typeof v["$ref"] === "string") {
        const target = this.target(v["$ref"], `${at}/$ref`);
        return target && isSchemaObject(target.schema) ? { schema: target.schema, pointer: target.pointer, name: this.definitionName(target.pointer) } : undefined;
      }
      return isSchemaObject(v) ? { schema: v, pointer: at, name: undefined } : undefined;
    });
    // An anyOf one of whose branches accepts every value the others do is that branch.
    const widest = keyword === "anyOf" ? variants.findIndex((w) => variants.every((n) => n === w || includes(w, n, (ref) => this.resolved(ref)))) : -1;
    if (widest >= 0) return this.type(variants[widest], `${pointer}/${keyword}/${live[widest]!.i}`, hint);
    // A tag tells objects apart; a variant that lets other values through (no `type: object`) is no tagged variant.
    const objects = resolved.every((v) => v !== undefined && this.declaresObject(v.schema));
    const tag = objects ? commonTag(resolved.map((v) => v!.schema)) : undefined;
    // Variants that are all named definitions stay named (an untagged union of them), as does one no tag tells apart.
    if (!tag || resolved.every((v) => v?.name !== undefined)) return this.untagged(live, keyword, pointer, hint);
    const out: Record<string, unknown> = {};
    resolved.forEach((variant, i) => {
      const { schema: v, pointer: at, name } = variant!;
      const body = this.objectBody(v, at, name ?? `${hint}_${tag.values[i]}`);
      delete body.fields[tag.property];
      setOwn(out, tag.values[i]!, { ...(describe(v) && { description: describe(v) }), ...body });
    });
    return { type: { type: "union", tag: tag.property, variants: out } };
  }

  /** `false`, or a reference to it. */
  private acceptsNothing(schema: unknown): boolean {
    if (isSchemaObject(schema) && typeof schema["$ref"] === "string" && Object.keys(schema).every((k) => k === "$ref" || ANNOTATIONS.has(k))) return this.resolved(schema["$ref"]) === false;
    return schema === false;
  }

  /**
   * An untagged union, when its branches are provably disjoint (import/one-of.ts); branches that
   * are only null make it nullable. A oneOf two of whose branches accept null rejects null.
   */
  private untagged(variants: readonly { schema: unknown; i: number }[], keyword: string, pointer: string, hint: string): Converted | undefined {
    const at = `${pointer}/${keyword}`;
    const isNull = (v: unknown): boolean => isSchemaObject(v) && v["type"] === "null" && Object.keys(v).every((k) => k === "type" || ANNOTATIONS.has(k));
    const branches = variants.filter((b) => !isNull(b.schema));
    const nulls = variants.length - branches.length;
    // How many branches accept null decides whether the union does: one, or any number for an anyOf.
    const acceptsNull = (count: number) => (keyword === "oneOf" ? count === 1 : count > 0);
    if (branches.length === 0) return acceptsNull(nulls) ? { type: { type: "const", value: null } } : this.nothing(at, keyword);
    if (branches.length === 1) {
      const only = this.type(branches[0]!.schema, `${at}/${branches[0]!.i}`, hint);
      if (only?.type === "json" && keyword === "oneOf" && nulls > 0) return this.nullTwice(at, keyword);
      if (only && isNullConst(only.type) && keyword === "oneOf") return this.nothing(at, keyword);
      return only && { ...only, nullable: acceptsNull(nulls + (only.nullable ? 1 : 0)) };
    }
    const { overlaps } = distinguishDescribed(branches.map((b) => describeBranch(b.schema, (ref) => this.resolved(ref))));
    const [overlap] = overlaps;
    if (overlap) {
      const [first, second] = [branches[overlap.first]!.i, branches[overlap.second]!.i];
      this.notExpressible(at, `${keyword === "anyOf" ? "an" : "a"} ${keyword} whose variants ${first} and ${second} may both match one value (${overlap.why})`, "the field is left out and its key is kept unchecked, as an unknown one");
      return undefined;
    }
    const converted = branches.map((b) => this.type(b.schema, `${at}/${b.i}`, `${hint}_${b.i + 1}`));
    if (converted.some((c) => c === undefined)) return undefined;
    // A branch written as any JSON value (recursion that refers back) is the whole union (as in `unionOf`).
    if (converted.some((c) => c!.type === "json")) return keyword === "oneOf" && nulls > 0 ? this.nullTwice(at, keyword) : { type: "json" };
    const holdsNull = nulls + converted.filter((c) => c!.nullable || isNullConst(c!.type)).length;
    // Null in two branches of a oneOf: no branch may take it.
    const kept = branches.flatMap((b, k) => (acceptsNull(holdsNull) || keyword === "anyOf" || !isNullConst(converted[k]!.type) ? [{ ...b, type: converted[k]!.type }] : []));
    const types = kept.map((b) => b.type);
    if (types.length === 1) return { type: types[0]!, ...(acceptsNull(holdsNull) && { nullable: true }) };
    // The proof again, on the variants as written: the conversion may have left a field out or widened it.
    const written = kept.map((b) => describeConverted(b.type, false, this) ?? describeBranch(b.schema, (ref) => this.resolved(ref)));
    const [late] = distinguishDescribed(written).overlaps;
    if (late) {
      this.notExpressible(at, `${keyword === "anyOf" ? "an" : "a"} ${keyword} whose variants ${kept[late.first]!.i} and ${kept[late.second]!.i} may both match one value as the IDL writes them (${late.why})`, "the field is left out and its key is kept unchecked, as an unknown one");
      return undefined;
    }
    return { type: { type: "union", variants: types }, ...(acceptsNull(holdsNull) && { nullable: true }) };
  }

  /** A oneOf or anyOf no branch of which a value can match: reported, left out. */
  private nothing(at: string, keyword: string): undefined {
    this.notExpressible(at, `${keyword === "anyOf" ? "an" : "a"} ${keyword} that accepts nothing`, "the field is left out");
    return undefined;
  }

  /** A oneOf of null and a branch written as any JSON value: every value but null, which the IDL cannot say. */
  private nullTwice(at: string, keyword: string): undefined {
    this.notExpressible(at, `a ${keyword} of null and a branch that accepts any value (so every value but null)`, "the field is left out and its key is kept unchecked, as an unknown one");
    return undefined;
  }

  /** The schema a local `$ref` points at, or undefined, saying nothing (the proof counts it as anything). */
  private resolved(ref: string): unknown {
    const pointer = refPointer(ref);
    if (pointer === undefined) return undefined;
    return nodeAtPointer(this.source.document, pointer);
  }

  private typed(kind: unknown, schema: Schema, pointer: string, hint: string): Converted | undefined {
    switch (kind) {
      case "string":
        return { type: this.string(schema, pointer) };
      case "integer":
      case "number":
        return { type: this.number(kind === "integer" ? "int" : "number", schema, pointer) };
      case "boolean":
        return { type: { type: "bool" } };
      case "array":
        return this.array(schema, pointer, hint);
      case "object":
        return this.object(schema, pointer, hint);
      case "null":
        return { type: { type: "const", value: null } };
      default:
        this.notExpressible(pointer, `type ${JSON.stringify(kind)}`, "the field is left out");
        return undefined;
    }
  }

  /**
   * `schema[keyword]` when `check` takes it as written (`fits`), else undefined after saying it is
   * left out: a bound past what the IDL holds (`maximum: 1e20` of an int), a length no array has.
   */
  private checked<T>(schema: Schema, keyword: string, pointer: string, fits: (value: unknown) => value is T, rule: string): T | undefined {
    const value = schema[keyword];
    if (value === undefined || fits(value)) return value as T | undefined;
    this.notExpressible(`${pointer}/${keyword}`, `${keyword} ${JSON.stringify(value)} (${rule})`, "the constraint is left out: the imported contract accepts more");
    return undefined;
  }

  /** `schema.pattern` when generated validators may run it, as `check` decides; else undefined after saying why not. */
  private pattern(schema: Schema, pointer: string): string | undefined {
    const pattern = schema["pattern"];
    if (pattern === undefined) return undefined;
    const why = typeof pattern === "string" ? patternProblem(pattern) : "is not a string";
    if (why === undefined) return pattern as string;
    this.notExpressible(`${pointer}/pattern`, `the pattern ${JSON.stringify(pattern)}, which ${why},`, "the constraint is left out: the imported contract accepts more");
    return undefined;
  }

  private string(schema: Schema, pointer: string): IdlType {
    const out: Record<string, unknown> = { type: "string" };
    for (const keyword of ["minLength", "maxLength"]) {
      const count = this.checked(schema, keyword, pointer, isCount, COUNT_RULE);
      if (count !== undefined) out[keyword] = count;
    }
    const pattern = this.pattern(schema, pointer);
    if (pattern !== undefined) out["pattern"] = pattern;
    const format = schema["format"];
    if (typeof format === "string") {
      // A number format checks no string: treaty's int64 string (an integer as text) would reject what the source accepts.
      if (FORMATS.has(format) && !NUMBER_FORMATS.has(format)) out["format"] = format;
      else if (NUMBER_FORMATS.has(format)) this.notExpressible(`${pointer}/format`, `format ${JSON.stringify(format)} on a string (a format of numbers in JSON Schema, which any string passes)`, "the string is imported without a format: the imported contract accepts more");
      else this.notExpressible(`${pointer}/format`, `format ${JSON.stringify(format)}`, "the constraint is left out: the imported contract accepts more");
    }
    for (const keyword of ["contentEncoding", "contentMediaType", "contentSchema"]) if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    return this.satisfiable(out, pointer);
  }

  /**
   * `out` without the bounds no value meets (`minimum: 5, maximum: 1`; an integer's `minimum: 0.5,
   * maximum: 0.7`), which `check` refuses as min-above-max: the source's value can then only be
   * absent, and the IDL writes no field of that kind, so the pair is left out and said.
   */
  private satisfiable(out: Record<string, unknown>, pointer: string): IdlType {
    for (const [min, max] of BOUND_PAIRS) {
      const [low, high] = [out[min], out[max]];
      if (typeof low !== "number" || typeof high !== "number") continue;
      if (boundsMeet(min, low, max, high)) continue;
      this.notExpressible(pointer, `bounds no value meets (${min} ${low} above ${max} ${high})`, "the bounds are left out: the imported contract accepts more");
      delete out[min];
      delete out[max];
    }
    return out as IdlType;
  }

  private number(type: "int" | "number", schema: Schema, pointer: string): IdlType {
    // OpenAPI's number formats, as ajv-formats checks them: int32 and int64 an integer (int32 within 32 bits), float and double any number.
    const format = schema["format"];
    const integer = format === "int32" || format === "int64";
    const isInt = integer || type === "int";
    const out: Record<string, unknown> = { type: isInt ? "int" : type };
    // (An exclusiveMinimum of true is draft-04's and OpenAPI 3.0's: it makes `minimum` exclusive.)
    const bound = (keyword: string): number | undefined =>
      typeof schema[keyword] === "boolean" ? undefined : isInt ? this.checked(schema, keyword, pointer, isIntBound, INT_BOUND_RULE) : this.checked(schema, keyword, pointer, isNumber, "a bound is a number");
    const [minimum, maximum, exclusiveMin, exclusiveMax] = [bound("minimum"), bound("maximum"), bound("exclusiveMinimum"), bound("exclusiveMaximum")];
    // An int's inclusive bounds are integers: `minimum: 0.5` of an integer is 1, exactly.
    if (minimum !== undefined) out[schema["exclusiveMinimum"] === true ? "exclusiveMin" : "min"] = isInt && schema["exclusiveMinimum"] !== true ? Math.ceil(minimum) : minimum;
    if (maximum !== undefined) out[schema["exclusiveMaximum"] === true ? "exclusiveMax" : "max"] = isInt && schema["exclusiveMaximum"] !== true ? Math.floor(maximum) : maximum;
    if (exclusiveMin !== undefined) out["exclusiveMin"] = exclusiveMin;
    if (exclusiveMax !== undefined) out["exclusiveMax"] = exclusiveMax;
    const multipleOf = this.checked(schema, "multipleOf", pointer, (v): v is number => isNumber(v) && v > 0, "a number above 0");
    if (multipleOf !== undefined) out["multipleOf"] = multipleOf;
    if (format === "int32") {
      // The narrower of the schema's bound and 32 bits'; an exclusive bound outside 32 bits gives way to the inclusive one.
      for (const [inclusive, exclusive, limit, tighter] of [["min", "exclusiveMin", INT32_MIN, Math.max], ["max", "exclusiveMax", INT32_MAX, Math.min]] as const) {
        const own = out[exclusive];
        if (typeof own === "number" && tighter(own, limit) === own) continue;
        delete out[exclusive];
        out[inclusive] = typeof out[inclusive] === "number" ? tighter(out[inclusive] as number, limit) : limit;
      }
    } else if (typeof format === "string" && !integer && format !== "float" && format !== "double") {
      this.notExpressible(`${pointer}/format`, `format ${JSON.stringify(format)} on a number`, "the constraint is left out: the imported contract accepts more");
    }
    return this.satisfiable(out, pointer);
  }

  private array(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const positional = Array.isArray(schema["prefixItems"]) ? "prefixItems" : Array.isArray(schema["items"]) ? "items" : undefined;
    if (positional !== undefined) return this.tuple(schema, pointer, hint, positional);
    for (const keyword of ["prefixItems", "contains", "minContains", "maxContains", "additionalItems"]) {
      if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    }
    const items = schema["items"];
    // `items: false`: no item passes, so the list is empty.
    if (items === false && !(typeof schema["minItems"] === "number" && schema["minItems"] > 0)) return { type: { type: "list", of: "json", maxItems: 0 } };
    const of = items === undefined ? { type: "json" } : this.type(items, `${pointer}/items`, `${hint}_item`);
    if (!of) return undefined;
    if (of.nullable) {
      this.notExpressible(`${pointer}/items`, "list items that may be null", "the field is left out and its key is kept unchecked, as an unknown one");
      return undefined;
    }
    const out: Record<string, unknown> = { type: "list", of: of.type };
    for (const keyword of ["minItems", "maxItems"]) {
      const count = this.checked(schema, keyword, pointer, isCount, COUNT_RULE);
      if (count !== undefined) out[keyword] = count;
    }
    if (schema["uniqueItems"] === true) out["unique"] = true;
    return { type: this.satisfiable(out, pointer) };
  }

  /** A map's `propertyNames: { pattern }` as its `keys: { pattern }`; any other key schema is reported. */
  private keyPattern(schema: Schema, pointer: string): string | undefined {
    const names = schema["propertyNames"];
    if (names === undefined) return undefined;
    const keywords = isSchemaObject(names) ? Object.keys(names).filter((k) => !ANNOTATIONS.has(k)) : [];
    if (isSchemaObject(names) && typeof names["pattern"] === "string" && keywords.every((k) => k === "pattern" || (k === "type" && names["type"] === "string"))) return this.pattern(names, `${pointer}/propertyNames`);
    this.notExpressible(`${pointer}/propertyNames`, "propertyNames other than a pattern", "the constraint is left out: the imported contract accepts more");
    return undefined;
  }

  /**
   * `prefixItems` (2020-12) or `items: [...]` (draft-07): a tuple when nothing may follow the
   * positions (`items: false`, `additionalItems: false`) and every position must be there
   * (`minItems` its length), the IDL's tuples being of fixed length.
   */
  private tuple(schema: Schema, pointer: string, hint: string, keyword: "prefixItems" | "items"): Converted | undefined {
    const positions = schema[keyword] as unknown[];
    const rest = keyword === "prefixItems" ? "items" : "additionalItems";
    const n = positions.length;
    for (const other of ["contains", "minContains", "maxContains", "uniqueItems"]) {
      if (schema[other] !== undefined) this.notExpressible(`${pointer}/${other}`, other, "the constraint is left out: the imported contract accepts more");
    }
    if (n === 0 || schema[rest] !== false || schema["minItems"] !== n || (schema["maxItems"] !== undefined && (schema["maxItems"] as number) < n)) {
      this.notExpressible(`${pointer}/${keyword}`, `an array of positions that is not of fixed length (tuples need ${rest}: false and minItems equal to their ${n} positions)`, "the field is left out and its key is kept unchecked, as an unknown one");
      return undefined;
    }
    const items: (IdlType | string)[] = [];
    for (const [i, position] of positions.entries()) {
      const item = this.type(position, `${pointer}/${keyword}/${i}`, `${hint}_${i}`);
      if (!item) return undefined;
      if (item.nullable) {
        this.notExpressible(`${pointer}/${keyword}/${i}`, "a tuple position that may be null", "the field is left out and its key is kept unchecked, as an unknown one");
        return undefined;
      }
      items.push(item.type);
    }
    return { type: { type: "tuple", items } };
  }

  private object(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const additional = schema["additionalProperties"];
    // Any object: an object of no fields that keeps every key is exactly that.
    if (schema["properties"] === undefined && schema["allOf"] === undefined && schema["required"] === undefined && acceptsAnything(additional) && this.definitionName(pointer) === undefined) {
      this.checkObjectKeywords(schema, pointer);
      return { type: { type: "object", unknown_fields: "keep", fields: {} } };
    }
    // A map: no key is required (a required one is a field of an object whose other keys are typed).
    if (schema["properties"] === undefined && schema["allOf"] === undefined && schema["required"] === undefined && isSchemaObject(additional)) {
      const keyPattern = this.keyPattern(schema, pointer);
      this.checkObjectKeywords(schema, pointer, false, ["propertyNames"]);
      const of = this.type(additional, `${pointer}/additionalProperties`, `${hint}_value`);
      if (!of || of.nullable) {
        if (of?.nullable) this.notExpressible(`${pointer}/additionalProperties`, "map values that may be null", "the field is left out and its key is kept unchecked, as an unknown one");
        return undefined;
      }
      return { type: { type: "map", of: of.type, ...(keyPattern !== undefined && { keys: { pattern: keyPattern } }) } };
    }
    const name = this.definitionName(pointer);
    if (name !== undefined) {
      return { type: this.namedType(pointer, schema, name) };
    }
    return this.inlineObject(schema, pointer, hint);
  }
}

/**
 * Drops `unknown_fields` where it is the contract's (without `additional`, which says keep
 * itself), from named types and from every inline object, variant and item below `node`.
 */
const elidePolicy = (node: unknown, contract: UnknownFields): void => {
  if (Array.isArray(node)) node.forEach((item) => elidePolicy(item, contract));
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  if ("fields" in record && record["unknown_fields"] === contract && record["additional"] === undefined) delete record["unknown_fields"];
  Object.values(record).forEach((value) => elidePolicy(value, contract));
};

/** Keywords that, added to a schema, may let through what its others reject (`properties` beside `additionalProperties: false`, `$ref` in draft-07). */
const WIDENING = new Set(["properties", "patternProperties", "prefixItems", "items", "additionalItems", "if", "contains", "minContains", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies"]);

/** `narrow` says every constraint `wide` says (the same JSON) and only adds ones that narrow: each of its values is one of `wide`'s. */
const repeats = (narrow: unknown, wide: unknown): boolean => {
  if (!isSchemaObject(narrow) || !isSchemaObject(wide)) return false;
  const constraints = (schema: Schema) => Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  const wideKeys = constraints(wide);
  return (
    wideKeys.every((k) => k in narrow && JSON.stringify(narrow[k]) === JSON.stringify(wide[k])) &&
    constraints(narrow).every((k) => wideKeys.includes(k) || !WIDENING.has(k))
  );
};

/**
 * Two parts of an allOf that give one property: the value must match both, which one of them
 * says alone when it accepts anything or repeats every constraint of the other (MCP's
 * `{ type: integer }` and `{ type: integer, const: -32020 }`); undefined otherwise.
 */
const narrower = <T extends { readonly schema: unknown }>(a: T, b: T): T | undefined => {
  // The one kept carries the other's description when it has none.
  const keep = (chosen: T, other: T): T =>
    isSchemaObject(chosen.schema) && isSchemaObject(other.schema) && !describe(chosen.schema) && describe(other.schema) ? { ...chosen, schema: { description: describe(other.schema), ...chosen.schema } } : chosen;
  if (acceptsAnything(b.schema) || repeats(a.schema, b.schema)) return keep(a, b);
  if (acceptsAnything(a.schema) || repeats(b.schema, a.schema)) return keep(b, a);
  return undefined;
};

/** Keywords of an object schema `includes` reads; one with others is not compared. */
const PLAIN_OBJECT = new Set(["type", "properties", "required", "additionalProperties"]);

/**
 * Every value `narrow` accepts, `wide` accepts too (a sufficient test, not a complete one): the
 * same constraints and more, or two plain objects where `narrow` requires what `wide` does and
 * each of `wide`'s properties takes what `narrow` lets that key hold (A2A's `TaskNotFoundError`,
 * `code: { const: -32001 }`, within `JSONRPCError`, `code: { type: integer }`, both open).
 */
const includes = (wide: unknown, narrow: unknown, resolve: (ref: string) => unknown, comparing = new Set<string>()): boolean => {
  // Two recursive types compared again, property by property: not proved (so the test ends).
  const pair = JSON.stringify([wide, narrow]);
  if (comparing.has(pair)) return false;
  const target = (schema: unknown): unknown => (isSchemaObject(schema) && typeof schema["$ref"] === "string" && Object.keys(schema).every((k) => k === "$ref" || ANNOTATIONS.has(k)) ? resolve(schema["$ref"]) : schema);
  const [w, n] = [target(wide), target(narrow)];
  if (acceptsAnything(w) || repeats(n, w)) return true;
  const plain = (schema: unknown): schema is Schema =>
    isSchemaObject(schema) && schema["type"] === "object" && isSchemaObject(schema["properties"]) && Object.keys(schema).every((k) => PLAIN_OBJECT.has(k) || ANNOTATIONS.has(k)) && (acceptsAnything(schema["additionalProperties"]) || schema["additionalProperties"] === false);
  if (!plain(w) || !plain(n)) return false;
  const required = (schema: Schema) => (Array.isArray(schema["required"]) ? (schema["required"] as unknown[]) : []);
  const [wProps, nProps] = [w["properties"] as Schema, n["properties"] as Schema];
  const nClosed = n["additionalProperties"] === false;
  if (w["additionalProperties"] === false && (!nClosed || Object.keys(nProps).some((k) => !Object.hasOwn(wProps, k)))) return false;
  return (
    required(w).every((k) => required(n).includes(k)) &&
    Object.entries(wProps).every(([k, schema]) => (Object.hasOwn(nProps, k) ? includes(schema, nProps[k], resolve, new Set([...comparing, pair])) : nClosed || acceptsAnything(schema)))
  );
};

/** Keywords about objects and arrays, whose parts interact (`properties` with another part's `additionalProperties`). */
const STRUCTURAL = new Set(["properties", "additionalProperties", "patternProperties", "required", "propertyNames", "items", "prefixItems", "additionalItems", "contains", "unevaluatedProperties", "unevaluatedItems", "if", "then", "else", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "dependentSchemas", "dependencies"]);

/**
 * `schema` with its allOf parts merged into one schema, when that is the same schema: each part a
 * plain schema asserting keywords no other part asserts (`type` may repeat when equal), none about
 * an object's or array's parts; else undefined. Annotations are the first part's.
 */
const mergedScalar = (schema: Schema): Schema | undefined => {
  const { allOf, ...own } = schema;
  const merged: Record<string, unknown> = {};
  for (const part of [own, ...(allOf as unknown[])]) {
    if (!isSchemaObject(part)) return undefined;
    for (const [key, value] of Object.entries(part)) {
      if (ANNOTATIONS.has(key)) {
        if (!(key in merged)) merged[key] = value;
        continue;
      }
      if (STRUCTURAL.has(key)) return undefined;
      if (key === "type" && key in merged) {
        // Each part's types, the value's: those in all of them (none, and the allOf cannot be said).
        const common = commonTypes(typeList(merged[key]), typeList(value));
        if (common.length === 0) return undefined;
        merged[key] = common.length === 1 ? common[0] : common;
        continue;
      }
      if (key in merged) return undefined;
      merged[key] = value;
    }
  }
  return merged;
};

/**
 * `type`'s value as a list of names. An entry that is no string is kept as its JSON text, which
 * names no type (it is reported where the type is converted): `String` of an object whose own
 * `toString` is no function throws.
 */
const typeList = (type: unknown): string[] => (Array.isArray(type) ? type : [type]).map((t) => (typeof t === "string" ? t : JSON.stringify(t) ?? "undefined"));

/** The types `schema` allows (OpenAPI 3.0's `nullable` adding null), or undefined: any. */
const allowedTypes = (schema: Schema, dialect: SchemaSource["dialect"]): string[] | undefined => {
  const declared = schema["type"] === undefined ? undefined : typeList(schema["type"]);
  return declared && dialect === "openapi-3.0" && schema["nullable"] === true ? [...declared, "null"] : declared;
};

/** The types both lists allow (an integer is a number). */
const commonTypes = (a: readonly string[], b: readonly string[]): string[] => {
  const within = (t: string, list: readonly string[]) => list.includes(t) || (t === "integer" && list.includes("number"));
  return [...new Set([...a.filter((t) => within(t, b)), ...b.filter((t) => within(t, a))])];
};

/** Every type `narrow` allows, `wide` allows. */
const typeWithin = (narrow: Schema, wide: Schema, dialect: SchemaSource["dialect"]): boolean => {
  const [n, w] = [allowedTypes(narrow, dialect), allowedTypes(wide, dialect)];
  return w === undefined || (n !== undefined && commonTypes(n, w).length === n.length);
};

/** Keywords about an object's unknown keys or an array's later items: they read the other keywords of their own schema. */
const READS_SIBLINGS = ["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems", "items"];

/**
 * One schema that accepts what both `a` and `b` do, or undefined when this cannot say it
 * (the same keyword with two values, but for `required`, `properties` of distinct keys and
 * `allOf`; a keyword that reads its schema's others, such as `additionalProperties`, beside one
 * the other part adds); `false` when their types have no value in common. Annotations are `b`'s.
 */
const mergedSchemas = (a: Schema, b: Schema, dialect: SchemaSource["dialect"]): Schema | false | undefined => {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(b).filter(([k]) => ANNOTATIONS.has(k)));
  const asserting = (schema: Schema) => Object.keys(schema).filter((k) => !ANNOTATIONS.has(k) && k !== "type" && k !== "nullable");
  for (const [one, other] of [[a, b], [b, a]] as const) {
    if (READS_SIBLINGS.some((k) => one[k] !== undefined) && asserting(other).some((k) => one[k] === undefined || (k !== "required" && !sameJson(one[k], other[k])))) return undefined;
  }
  for (const key of new Set([...asserting(a), ...asserting(b)])) {
    const [x, y] = [a[key], b[key]];
    if (x === undefined || y === undefined || sameJson(x, y)) out[key] = x ?? y;
    else if (key === "required" && Array.isArray(x) && Array.isArray(y)) out[key] = [...new Set([...x, ...y])];
    else if (key === "allOf" && Array.isArray(x) && Array.isArray(y)) out[key] = [...x, ...y];
    else if (key === "properties" && isSchemaObject(x) && isSchemaObject(y) && Object.keys(x).every((k) => !Object.hasOwn(y, k) || sameJson(x[k], y[k]))) out[key] = { ...x, ...y };
    else return undefined;
  }
  const [ta, tb] = [allowedTypes(a, dialect), allowedTypes(b, dialect)];
  const types = ta && tb ? commonTypes(ta, tb) : (ta ?? tb);
  if (types !== undefined) {
    if (types.length === 0) return false;
    out["type"] = types.length === 1 ? types[0] : types;
  }
  return out;
};

/** Keywords `admits` decides of a listed value; those about arrays and objects decide nothing of a scalar. */
const DECIDED = new Set(["const", "enum", "type", "nullable", ...KEYWORDS_OF["number"]!, "minLength", "maxLength", "pattern", ...KEYWORDS_OF["array"]!, ...KEYWORDS_OF["object"]!]);

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The JSON Schema type names `value` has: an integer is an integer and a number. */
const typesOfValue = (value: unknown): string[] => {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
};

/**
 * Whether `value` (one an enum or const lists) passes `schema`'s type and its keywords about
 * strings and numbers; one about arrays or objects is taken to pass (a listed array or object is
 * not expressible anyway), as is a pattern validators would not run (reported where it is read).
 */
const admits = (schema: Schema, value: unknown, dialect: SchemaSource["dialect"]): boolean => {
  const types = allowedTypes(schema, dialect);
  if (types !== undefined && !typesOfValue(value).some((t) => types.includes(t))) return false;
  if (typeof value === "string") {
    const length = [...value].length;
    if (isNumber(schema["minLength"]) && length < schema["minLength"]) return false;
    if (isNumber(schema["maxLength"]) && length > schema["maxLength"]) return false;
    const pattern = schema["pattern"];
    if (typeof pattern === "string" && patternProblem(pattern) === undefined && !new RegExp(pattern, "u").test(value)) return false;
  }
  if (typeof value === "number") {
    const [min, max, exMin, exMax, multipleOf] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].map((k) => schema[k]);
    if (isNumber(min) && (schema["exclusiveMinimum"] === true ? value <= min : value < min)) return false;
    if (isNumber(max) && (schema["exclusiveMaximum"] === true ? value >= max : value > max)) return false;
    if (isNumber(exMin) && value <= exMin) return false;
    if (isNumber(exMax) && value >= exMax) return false;
    if (isNumber(multipleOf) && multipleOf > 0 && !Number.isInteger(value / multipleOf)) return false;
  }
  return true;
};

/** `schema` without `keyword`. */
const omit = (schema: Schema, keyword: string): Schema => Object.fromEntries(Object.entries(schema).filter(([k]) => k !== keyword));

/** `additionalProperties` absent, `true` or `{}` (annotations only): any value. */
const acceptsAnything = (schema: unknown): boolean => schema === undefined || schema === true || (isSchemaObject(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)));

/** Defined, not assigned: a key `__proto__` (a field, a variant's tag) is an entry, not the object's prototype. */
const setOwn = (record: Record<string, unknown>, key: string, value: unknown): void => {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
};

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): value is number => isNumber(value) && Number.isInteger(value) && value >= 0 && value <= IDL_LIMITS.count;
const COUNT_RULE = `a length is an integer from 0 to ${IDL_LIMITS.count}`;
const isIntBound = (value: unknown): value is number => isNumber(value) && Math.abs(value) <= IDL_LIMITS.integer;
const INT_BOUND_RULE = `an int's bounds are within ±${IDL_LIMITS.integer}, the integers a JavaScript number holds exactly`;

/** Why validators cannot run `pattern` (ECMAScript's, as JSON Schema's are, with the `u` flag treaty's validators use), or undefined. */
const patternProblem = (pattern: string): string | undefined => {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    return `is no regular expression with the u flag (${(error as Error).message})`;
  }
  return patternVerdict(pattern);
};

const isScalarValue = (value: unknown): value is string | number | boolean => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

const describe = (schema: Schema): string | undefined => {
  const text = schema["description"] ?? schema["title"];
  return typeof text === "string" && text.trim() !== "" ? text.trim() : undefined;
};

/**
 * An untagged union of `types`. One of them written as any JSON value (a recursion that refers
 * back, past the conversion's depth) makes the union that value: json accepts what every other
 * variant does, so the union would overlap (which check refuses), and the contract accepts more.
 */
const unionOf = (types: readonly (IdlType | string)[], nullable: boolean): Converted =>
  types.includes("json") ? { type: "json" } : { type: { type: "union", variants: types }, ...(nullable && { nullable: true }) };

const isNullConst = (type: IdlType | string): boolean => typeof type !== "string" && type.type === "const" && type["value"] === null;

const typeOf = (schema: Schema): string | undefined => (typeof schema["type"] === "string" ? schema["type"] : undefined);

const isObjectSchema = (schema: Schema): boolean => typeOf(schema) === "object" || (schema["type"] === undefined && (schema["properties"] !== undefined || schema["allOf"] !== undefined) && schema["oneOf"] === undefined && schema["anyOf"] === undefined);

/** The type a schema without `type` is about, from its keywords (`properties` → object). */
const inferredType = (schema: Schema): string | undefined => {
  if (schema["properties"] !== undefined || schema["additionalProperties"] !== undefined || schema["required"] !== undefined) return "object";
  if (schema["items"] !== undefined || schema["prefixItems"] !== undefined) return "array";
  if (schema["pattern"] !== undefined || schema["maxLength"] !== undefined || schema["minLength"] !== undefined || schema["format"] !== undefined) return "string";
  return undefined;
};

/** The property all variants require, each with a distinct string const (or one-value enum): a union's tag. */
const commonTag = (variants: readonly Schema[]): { property: string; values: string[] } | undefined => {
  const constOf = (schema: Schema, key: string): string | undefined => {
    const props = schema["properties"];
    const property = isSchemaObject(props) ? props[key] : undefined;
    if (!isSchemaObject(property)) return undefined;
    if (typeof property["const"] === "string") return property["const"];
    const values = property["enum"];
    return Array.isArray(values) && values.length === 1 && typeof values[0] === "string" ? values[0] : undefined;
  };
  const first = variants[0];
  const props = first && isSchemaObject(first["properties"]) ? Object.keys(first["properties"]) : [];
  for (const key of props) {
    if (!FIELD_NAME.test(key)) continue;
    const values = variants.map((v) => (Array.isArray(v["required"]) && v["required"].includes(key) ? constOf(v, key) : undefined));
    if (values.every((v) => v !== undefined) && new Set(values).size === values.length) return { property: key, values: values as string[] };
  }
  return undefined;
};

export interface ImportRoot {
  /** The contract's name. */
  readonly name: string;
  readonly pointer: string;
  readonly schema: unknown;
}

/** One contract per root, each with the named types and enums it reaches. */
export const convert = (source: SchemaSource, roots: readonly ImportRoot[]): { contracts: ImportedContract[]; diagnostics: Diagnostic[] } => {
  const diagnostics = new Map<string, Diagnostic>();
  const report = (code: DiagnosticCode, pointer: string, params: Params): void => {
    const diagnostic = createDiagnostic(code, source.locate(pointer), params);
    diagnostics.set(`${code}\0${diagnostic.message}`, diagnostic);
  };
  const contracts = roots.map((root): ImportedContract => {
    let reported = 0;
    const converter = new Converter(source, (code, pointer, params) => {
      reported++;
      report(code, pointer, params);
    });
    const schema = isSchemaObject(root.schema) ? root.schema : {};
    const hint = pascalCase(root.name.split(".").at(-1)!);
    let body: IdlObjectBody = { unknown_fields: "reject", fields: {} };
    const types = Array.isArray(schema["type"]) ? (schema["type"] as unknown[]) : undefined;
    if ((isObjectSchema(schema) || inferredType(schema) === "object") && (types === undefined || types.includes("object"))) {
      body = converter.objectBody(schema, root.pointer, hint);
      // Without `type: object`, the object's keywords let every other value through.
      const untyped = types === undefined && !converter.declaresObject(schema);
      const others = [...(untyped ? ["a string, number, boolean, array or null (it says no type: object)"] : []), ...(types === undefined ? [] : typeList(types)).filter((t) => t !== "object"), ...(source.dialect === "openapi-3.0" && schema["nullable"] === true ? ["null"] : [])];
      // A payload is an object: the only place where the import rejects what the source accepts, so it is said.
      if (others.length > 0) {
        reported++;
        const at = untyped ? root.pointer : `${root.pointer}/${types ? "type" : "nullable"}`;
        report("import-not-expressible", at, { what: `a payload that may be ${others.join(" or ")}`, pointer: at, consequence: "a contract's payload is an object, so the contract rejects those" });
      }
    } else report("import-root-not-object", root.pointer, { pointer: root.pointer, name: root.name });
    // The contract's policy is the root's (a payload's root has no `additional`: its keys are kept unchecked).
    if (body.additional !== undefined) ++reported && report("import-not-expressible", `${root.pointer}/additionalProperties`, { what: "typed additional properties at a payload's root", pointer: `${root.pointer}/additionalProperties`, consequence: "unknown keys are kept unchecked" });
    const unknownFields = body.unknown_fields ?? "keep";
    const fields = body.fields;
    for (const type of converter.types.values()) elidePolicy(type, unknownFields);
    elidePolicy(fields, unknownFields);
    const description = describe(schema);
    return {
      name: root.name,
      pointer: root.pointer,
      ...(description && { description }),
      unknownFields,
      enums: converter.enums,
      types: converter.types,
      fields,
      exact: reported === 0,
      recursive: converter.recursive,
    };
  });
  return { contracts, diagnostics: [...diagnostics.values()] };
};
