// JSON Schema → treaty's IDL. Each schema node becomes the IDL's nearest exact equivalent; what the
// IDL cannot say is left out with a diagnostic at its JSON pointer, always in the direction that
// accepts more (a constraint dropped, an unknown key stripped), never one that rejects what the
// source accepts. So for everything imported without a diagnostic, the generated validator and the
// source schema agree.
import { createDiagnostic, type Diagnostic, type Params } from "../diagnostics/diagnostic.js";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { PLACEHOLDER_MEANING as PLACEHOLDER } from "../ir/names.js";
import { isSchemaObject, pointerSegments, type Schema, type SchemaSource } from "./source.js";

/** A type as the IDL writes it in a mapping: `{ type: string, maxLength: 40 }`, `{ type: list, of: ... }`. */
export type IdlType = { readonly type: string; readonly [key: string]: unknown };

/** A field: its type's mapping plus the field's own keys; a bare type name when it has nothing else. */
export type IdlField = IdlType | string;

export interface IdlObject {
  readonly description?: string;
  readonly fields: Record<string, IdlField>;
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
  readonly unknownFields: "reject" | "strip";
  readonly enums: ReadonlyMap<string, IdlEnum>;
  readonly types: ReadonlyMap<string, IdlObject>;
  readonly fields: Record<string, IdlField>;
  /** Nothing it reaches was reported: its validator accepts exactly what the source schema does. */
  readonly exact: boolean;
  /** Some named type it reaches refers back to itself (LLM projections cannot take it). */
  readonly recursive: boolean;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;
/** The string formats the IDL has, by JSON Schema's name. */
const FORMATS = new Set(["date-time", "date", "uuid", "uri", "email"]);
/** Keywords that describe and never reject; carried where the IDL has a place (description), else ignored as validators ignore them. */
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "$anchor", "title", "description", "examples", "example", "default", "deprecated", "readOnly", "writeOnly", "xml", "externalDocs", "discriminator", "$defs", "definitions"]);

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
  /** Names of the named types being converted (each is added to `types` after the types it uses). */
  private readonly converting = new Set<string>();
  /** Whether some object accepts keys it does not list, or something was left out of an object. */
  open = false;
  /** Whether some named type refers back to itself. */
  recursive = false;
  /** Pointers of objects that reject unknown keys. */
  readonly closed: string[] = [];

  constructor(
    private readonly source: SchemaSource,
    private readonly report: (code: DiagnosticCode, pointer: string, params: Params) => void,
  ) {}

  private notExpressible(pointer: string, what: string, consequence: string): void {
    this.report("import-not-expressible", pointer, { what, pointer, consequence });
  }

  private uniqueName(base: string, taken: (name: string) => boolean): string {
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
    let node: unknown = this.source.document;
    for (const segment of pointerSegments(ref)) node = isSchemaObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[segment] : undefined;
    if (node === undefined) {
      this.notExpressible(pointer, `the reference ${ref}, which points at nothing`, "the field is left out");
      return undefined;
    }
    return { pointer: ref === "#" ? "#" : ref, schema: node };
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
    const name = this.uniqueName(pascalCase(hint), (n) => this.types.has(n) || this.enums.has(n) || this.converting.has(n) || !TYPE_NAME.test(n));
    // Named before its fields are converted, so a `$ref` back into it (a recursive type) is its name.
    this.typeOf.set(pointer, name);
    this.converting.add(name);
    const fields = this.objectFields(schema, pointer, name);
    this.converting.delete(name);
    this.types.set(name, { ...(describe(schema) && { description: describe(schema) }), fields });
    return name;
  }

  private namedEnum(pointer: string, values: readonly string[], schema: Schema, hint: string): string {
    const known = this.enumOf.get(pointer);
    if (known) return known;
    const name = this.uniqueName(pascalCase(hint), (n) => this.types.has(n) || this.enums.has(n));
    this.enumOf.set(pointer, name);
    this.enums.set(name, { ...(describe(schema) && { description: describe(schema) }), values: Object.fromEntries(values.map((v) => [v, PLACEHOLDER])) });
    return name;
  }

  /** The fields of an object schema (its `properties`, `required` and, through `allOf`, its parts'). */
  objectFields(schema: Schema, pointer: string, name: string): Record<string, IdlField> {
    const merged = this.mergedObject(schema, pointer);
    const fields: Record<string, IdlField> = {};
    if (!merged) return fields;
    for (const [key, property] of merged.properties) {
      const at = `${property.pointer}`;
      if (!FIELD_NAME.test(key)) {
        this.open = true;
        this.notExpressible(at, `the property name ${JSON.stringify(key)} (field names match ${FIELD_NAME})`, "the field is left out and the key is stripped as unknown");
        continue;
      }
      const field = this.field(property.schema, at, `${name}_${key}`, !merged.required.has(key));
      if (field === undefined) {
        this.open = true;
        continue;
      }
      fields[key] = field;
    }
    for (const key of merged.required) {
      if (!merged.properties.has(key)) this.notExpressible(`${pointer}/required`, `required property ${JSON.stringify(key)} with no schema in properties`, "it is not required");
    }
    return fields;
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
      }
      this.checkObjectKeywords(part, at);
      const props = part["properties"];
      if (isSchemaObject(props)) {
        for (const [key, value] of Object.entries(props)) {
          if (properties.has(key)) this.notExpressible(`${at}/properties/${key}`, `property ${JSON.stringify(key)} given by two parts of an allOf`, "the first part's schema is kept");
          else properties.set(key, { schema: value, pointer: `${at}/properties/${escape(key)}` });
        }
      }
      if (Array.isArray(part["required"])) for (const key of part["required"]) if (typeof key === "string") required.add(key);
      const parts = part["allOf"];
      if (Array.isArray(parts)) parts.forEach((p, i) => isSchemaObject(p) && add(p, `${at}/allOf/${i}`, seen));
    };
    add(schema, pointer, new Set([pointer]));
    return { properties, required };
  }

  private checkObjectKeywords(schema: Schema, pointer: string): void {
    const additional = schema["additionalProperties"];
    if (additional === false) this.closed.push(pointer);
    else {
      this.open = true;
      if (!acceptsAnything(additional) && schema["properties"] !== undefined) {
        this.notExpressible(`${pointer}/additionalProperties`, "typed additional properties beside declared ones", "unknown keys pass unchecked");
      }
    }
    for (const keyword of ["oneOf", "anyOf", "not", "if", "enum", "const", "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"]) {
      if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
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
    if (schema === true || (isSchemaObject(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)))) {
      this.notExpressible(pointer, "a value of any type", "the field is left out and the key is stripped as unknown");
      return undefined;
    }
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
    const nullableOf = this.nullableVariant(schema, pointer, hint);
    if (nullableOf !== undefined) return nullableOf || undefined;
    if (schema["oneOf"] !== undefined || schema["anyOf"] !== undefined) return this.union(schema, pointer, hint);
    if (Array.isArray(schema["allOf"])) {
      if (typeOf(schema) !== undefined && typeOf(schema) !== "object") {
        this.notExpressible(`${pointer}/allOf`, `allOf on a ${typeOf(schema)}`, "the field is left out");
        return undefined;
      }
      return { type: { type: "object", fields: this.objectFields(schema, pointer, pascalCase(hint)) } };
    }
    if ("const" in schema) return this.constant(schema, pointer);
    if (Array.isArray(schema["enum"])) return this.enumeration(schema, pointer, hint);
    const types = Array.isArray(schema["type"]) ? (schema["type"] as unknown[]) : schema["type"] === undefined ? [] : [schema["type"]];
    const nullable = types.includes("null") || (this.source.dialect === "openapi-3.0" && schema["nullable"] === true);
    const rest = types.filter((t) => t !== "null");
    if (rest.length > 1) {
      this.notExpressible(`${pointer}/type`, `a value of type ${rest.join(" or ")}`, "the field is left out and the key is stripped as unknown");
      return undefined;
    }
    const kind = rest[0] ?? inferredType(schema);
    const converted = this.typed(kind, schema, pointer, hint);
    return converted && (nullable ? { ...converted, nullable: true } : converted);
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
      return converted ? { ...converted, nullable: true } : false;
    }
    return undefined;
  }

  private referenced(ref: unknown, pointer: string, hint: string): Converted | undefined {
    const target = this.target(ref, pointer);
    if (!target) return undefined;
    const name = this.definitionName(target.pointer) ?? hint;
    const schema = target.schema;
    // An object with properties is a named type; a map (additionalProperties alone) is written where it is used.
    if (isSchemaObject(schema) && isObjectSchema(schema) && !(schema["properties"] === undefined && isSchemaObject(schema["additionalProperties"]))) {
      return { type: this.namedType(target.pointer, schema, name) };
    }
    if (this.inProgress.has(target.pointer)) {
      this.report("import-recursive", pointer, { name, pointer });
      return undefined;
    }
    this.inProgress.add(target.pointer);
    try {
      return this.type(schema, target.pointer, name);
    } finally {
      this.inProgress.delete(target.pointer);
    }
  }

  private constant(schema: Schema, pointer: string): Converted | undefined {
    const value = schema["const"];
    if (!isScalarValue(value)) {
      this.notExpressible(`${pointer}/const`, `const ${JSON.stringify(value)} (a const is a string, number or boolean)`, "the field is left out");
      return undefined;
    }
    return { type: { type: "const", value } };
  }

  private enumeration(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const values = schema["enum"] as unknown[];
    const nonNull = values.filter((v) => v !== null);
    if (nonNull.length > 0 && nonNull.every((v) => typeof v === "string") && new Set(nonNull).size === nonNull.length) {
      const name = this.namedEnum(pointer, nonNull as string[], schema, this.definitionName(pointer) ?? hint);
      return { type: name, ...(nonNull.length < values.length && { nullable: true }) };
    }
    if (nonNull.length === 1 && isScalarValue(nonNull[0])) return { type: { type: "const", value: nonNull[0] }, ...(nonNull.length < values.length && { nullable: true }) };
    this.notExpressible(`${pointer}/enum`, `an enum of ${values.map((v) => JSON.stringify(v)).join(", ")} (enums are distinct strings)`, "the field is left out");
    return undefined;
  }

  /** A tagged union: every variant an object with the same required property fixed to a distinct string. */
  private union(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const keyword = schema["oneOf"] !== undefined ? "oneOf" : "anyOf";
    const variants = schema[keyword];
    if (!Array.isArray(variants) || variants.length === 0) {
      this.notExpressible(`${pointer}/${keyword}`, `an empty ${keyword}`, "the field is left out");
      return undefined;
    }
    const resolved = variants.map((v, i) => {
      const at = `${pointer}/${keyword}/${i}`;
      if (isSchemaObject(v) && typeof v["$ref"] === "string") {
        const target = this.target(v["$ref"], `${at}/$ref`);
        return target && isSchemaObject(target.schema) ? { schema: target.schema, pointer: target.pointer, name: this.definitionName(target.pointer) } : undefined;
      }
      return isSchemaObject(v) ? { schema: v, pointer: at, name: undefined } : undefined;
    });
    const tag = resolved.every((v) => v !== undefined) ? commonTag(resolved.map((v) => v!.schema)) : undefined;
    if (!tag) {
      this.notExpressible(`${pointer}/${keyword}`, `${keyword === "anyOf" ? "an" : "a"} ${keyword} whose variants are not objects told apart by one required property of distinct string constants (untagged unions are not in the IDL yet)`, "the field is left out and the key is stripped as unknown");
      return undefined;
    }
    const out: Record<string, unknown> = {};
    resolved.forEach((variant, i) => {
      const { schema: v, pointer: at, name } = variant!;
      const fields = this.objectFields(v, at, name ?? `${hint}_${tag.values[i]}`);
      delete fields[tag.property];
      out[tag.values[i]!] = { ...(describe(v) && { description: describe(v) }), fields };
    });
    return { type: { type: "union", tag: tag.property, variants: out } };
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
        this.notExpressible(pointer, "a value that can only be null", "the field is left out");
        return undefined;
      default:
        this.notExpressible(pointer, `type ${JSON.stringify(kind)}`, "the field is left out");
        return undefined;
    }
  }

  private string(schema: Schema, pointer: string): IdlType {
    const out: Record<string, unknown> = { type: "string" };
    for (const [from, to] of [["minLength", "minLength"], ["maxLength", "maxLength"], ["pattern", "pattern"]] as const) if (schema[from] !== undefined) out[to] = schema[from];
    const format = schema["format"];
    if (typeof format === "string") {
      if (FORMATS.has(format)) out["format"] = format;
      else this.notExpressible(`${pointer}/format`, `format ${JSON.stringify(format)}`, "the constraint is left out: the imported contract accepts more");
    }
    for (const keyword of ["contentEncoding", "contentMediaType", "contentSchema"]) if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    return out as IdlType;
  }

  private number(type: "int" | "number", schema: Schema, pointer: string): IdlType {
    const out: Record<string, unknown> = { type };
    if (schema["minimum"] !== undefined) out[schema["exclusiveMinimum"] === true ? "exclusiveMin" : "min"] = schema["minimum"];
    if (schema["maximum"] !== undefined) out[schema["exclusiveMaximum"] === true ? "exclusiveMax" : "max"] = schema["maximum"];
    if (typeof schema["exclusiveMinimum"] === "number") out["exclusiveMin"] = schema["exclusiveMinimum"];
    if (typeof schema["exclusiveMaximum"] === "number") out["exclusiveMax"] = schema["exclusiveMaximum"];
    if (schema["multipleOf"] !== undefined) out["multipleOf"] = schema["multipleOf"];
    void pointer;
    return out as IdlType;
  }

  private array(schema: Schema, pointer: string, hint: string): Converted | undefined {
    for (const keyword of ["prefixItems", "contains", "minContains", "maxContains", "additionalItems"]) {
      if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
    }
    const items = schema["items"];
    if (Array.isArray(items)) {
      this.notExpressible(`${pointer}/items`, "a tuple (items as a list)", "the field is left out");
      return undefined;
    }
    const of = items === undefined ? undefined : this.type(items, `${pointer}/items`, `${hint}_item`);
    if (!of) {
      if (items === undefined) this.notExpressible(pointer, "a list of any values", "the field is left out and the key is stripped as unknown");
      return undefined;
    }
    if (of.nullable) {
      this.notExpressible(`${pointer}/items`, "list items that may be null", "the field is left out and the key is stripped as unknown");
      return undefined;
    }
    const out: Record<string, unknown> = { type: "list", of: of.type };
    if (schema["minItems"] !== undefined) out["minItems"] = schema["minItems"];
    if (schema["maxItems"] !== undefined) out["maxItems"] = schema["maxItems"];
    if (schema["uniqueItems"] === true) out["unique"] = true;
    return { type: out as IdlType };
  }

  private object(schema: Schema, pointer: string, hint: string): Converted | undefined {
    const additional = schema["additionalProperties"];
    // Any object: under `unknown_fields: strip` an object of no fields is exactly that.
    if (schema["properties"] === undefined && schema["allOf"] === undefined && acceptsAnything(additional) && this.definitionName(pointer) === undefined) {
      this.checkObjectKeywords(schema, pointer);
      this.open = true;
      return { type: { type: "object", fields: {} } };
    }
    if (schema["properties"] === undefined && isSchemaObject(additional)) {
      for (const keyword of ["patternProperties", "propertyNames", "minProperties", "maxProperties"]) {
        if (schema[keyword] !== undefined) this.notExpressible(`${pointer}/${keyword}`, keyword, "the constraint is left out: the imported contract accepts more");
      }
      const of = this.type(additional, `${pointer}/additionalProperties`, `${hint}_value`);
      if (!of || of.nullable) {
        if (of?.nullable) this.notExpressible(`${pointer}/additionalProperties`, "map values that may be null", "the field is left out and the key is stripped as unknown");
        return undefined;
      }
      return { type: { type: "map", of: of.type } };
    }
    const name = this.definitionName(pointer);
    if (name !== undefined) {
      return { type: this.namedType(pointer, schema, name) };
    }
    return { type: { type: "object", fields: this.objectFields(schema, pointer, pascalCase(hint)) } };
  }
}

/** `additionalProperties` absent, `true` or `{}` (annotations only): any value. */
const acceptsAnything = (schema: unknown): boolean => schema === undefined || schema === true || (isSchemaObject(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)));

const escape = (segment: string): string => segment.replace(/~/g, "~0").replace(/\//g, "~1");

const isScalarValue = (value: unknown): value is string | number | boolean => typeof value === "string" || typeof value === "number" || typeof value === "boolean";

const describe = (schema: Schema): string | undefined => {
  const text = schema["description"] ?? schema["title"];
  return typeof text === "string" && text.trim() !== "" ? text.trim() : undefined;
};

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
    let fields: Record<string, IdlField> = {};
    if (isObjectSchema(schema) || inferredType(schema) === "object") fields = converter.objectFields(schema, root.pointer, hint);
    else report("import-root-not-object", root.pointer, { pointer: root.pointer, name: root.name });
    for (const pointer of converter.closed) {
      if (converter.open) ++reported && report("import-not-expressible", pointer, { what: "an object that rejects unknown keys, in a contract whose other objects accept them", pointer, consequence: "its unknown keys are stripped as in the rest of the contract (unknown_fields is per contract in the IDL)" });
    }
    const description = describe(schema);
    return {
      name: root.name,
      pointer: root.pointer,
      ...(description && { description }),
      unknownFields: converter.open ? "strip" : "reject",
      enums: converter.enums,
      types: converter.types,
      fields,
      exact: reported === 0,
      recursive: converter.recursive,
    };
  });
  return { contracts, diagnostics: [...diagnostics.values()] };
};
