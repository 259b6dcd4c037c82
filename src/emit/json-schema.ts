import { posix } from "node:path";
import { rootFields } from "../ir/envelope.js";
import type {
  Contract,
  ContractRefType,
  EnumDef,
  Field,
  JsonType,
  NamedType,
  Project,
  ResolvedVersion,
  Rule,
  TypeNode,
  UnionType,
  UnionVariant,
} from "../ir/model.js";
import { contractDir, contractTypeName, rootTypeName, versionId, versionsOfMajor } from "../ir/names.js";
import { refPattern } from "../ir/ref-pattern.js";
import { objectPolicy, type ObjectPolicy } from "../ir/open-objects.js";
import { generatedComment, jsonFile, type EmittedFile } from "./file-builder.js";

/** A JSON Schema (2020-12) as a plain object; key order is the order it is printed in. */
export type JsonSchema = Record<string, unknown>;

/**
 * Where a `$defs` entry comes from. Emitters that split a document across files (TypeBox, types)
 * declare `local` defs themselves, import `root` defs from the other version's files, inline
 * `contract` defs, and never reach `foreign` defs (only other roots use them).
 */
export type DefOrigin =
  | { readonly kind: "local" }
  | { readonly kind: "root"; readonly contract: Contract; readonly version: ResolvedVersion }
  | { readonly kind: "contract" }
  | { readonly kind: "foreign" };

export interface SchemaDef {
  readonly schema: JsonSchema;
  readonly origin: DefOrigin;
}

/** A version's schema split into its root and the definitions it uses (sorted by name). */
export interface SchemaDocument {
  /** The root schema without `$defs`, starting with `$comment` and `$schema`. */
  readonly root: JsonSchema;
  readonly defs: ReadonlyMap<string, SchemaDef>;
}

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const DEFS_POINTER = "#/$defs/";

/** One contract version whose fields are being translated. */
interface Scope {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
  /** Prepended to def names of the scope's enums and types: "" in the document's own version. */
  readonly prefix: string;
  readonly origin: DefOrigin;
  /** The rules JSON Schema enforces, by the dotted path of the inline object that holds them. */
  readonly rulesAt: ReadonlyMap<string, readonly Rule[]>;
}

interface Context {
  readonly project: Project;
  readonly defs: Map<string, SchemaDef>;
  /** Names of the document's own enums and types, which contract-ref defs must not take. */
  readonly localNames: ReadonlySet<string>;
}

/** Drops undefined values so optional keywords vanish without disturbing key order. */
const defined = (entries: Record<string, unknown>): JsonSchema =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

const nonEmpty = <T>(items: readonly T[]): readonly T[] | undefined => (items.length > 0 ? items : undefined);


const paragraphs = (parts: readonly (string | undefined)[]): string | undefined => {
  const kept = parts.map((part) => part?.trim()).filter((part): part is string => !!part);
  return kept.length > 0 ? kept.join("\n\n") : undefined;
};

const withPeriod = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const lastSegment = (path: string): string => path.slice(path.lastIndexOf(".") + 1);

const childPath = (at: string, name: string): string => (at === "" ? name : `${at}.${name}`);

/** The dotted path of the inline object holding the field at `path`, if every step is one. */
const parentObject = (fields: readonly Field[], path: string): string | undefined => {
  const segments = path.split(".");
  let current = fields;
  for (const [index, segment] of segments.entries()) {
    const field = current.find((candidate) => candidate.name === segment);
    if (!field) return undefined;
    if (index === segments.length - 1) return segments.slice(0, -1).join(".");
    if (field.type.kind !== "object") return undefined;
    current = field.type.fields;
  }
  return undefined;
};

/**
 * Where the JSON Schema enforces `rule`: the dotted path of the inline object holding all its
 * fields ("" for the root), or undefined when the schema only records it under `x-treaty-rules`
 * (always for `before`, which JSON Schema cannot compare).
 */
export const ruleHome = (fields: readonly Field[], rule: Rule): string | undefined => {
  if (rule.kind === "before") return undefined;
  const paths = rule.kind === "exclusive" ? rule.fields : [rule.if, ...rule.then];
  const homes = new Set(paths.map((path) => parentObject(fields, path)));
  return homes.size === 1 ? [...homes][0] : undefined;
};

const ruleAnnotation = (rule: Rule): JsonSchema => {
  switch (rule.kind) {
    case "before":
      return { before: [rule.first, rule.second] };
    case "exclusive":
      return { exclusive: rule.fields };
    case "requires":
      return { requires: { if: rule.if, then: rule.then } };
  }
};

/** `exclusive` as one `not required` per pair; `requires` as `dependentRequired`. */
const ruleKeywords = (rules: readonly Rule[]): JsonSchema => {
  const exclusions: JsonSchema[] = [];
  const dependent = new Map<string, string[]>();
  for (const rule of rules) {
    if (rule.kind === "exclusive") {
      const names = rule.fields.map(lastSegment);
      names.forEach((a, i) => names.slice(i + 1).forEach((b) => exclusions.push({ not: { required: [a, b] } })));
    } else if (rule.kind === "requires") {
      const then = dependent.get(lastSegment(rule.if)) ?? [];
      for (const name of rule.then.map(lastSegment)) if (!then.includes(name)) then.push(name);
      dependent.set(lastSegment(rule.if), then);
    }
  }
  return defined({
    allOf: nonEmpty(exclusions),
    dependentRequired: dependent.size > 0 ? Object.fromEntries(dependent) : undefined,
  });
};

const createScope = (contract: Contract, version: ResolvedVersion, prefix: string, origin: DefOrigin): Scope => {
  const fields = rootFields(contract, version);
  const rulesAt = new Map<string, Rule[]>();
  for (const rule of version.rules) {
    const home = ruleHome(fields, rule);
    if (home !== undefined) rulesAt.set(home, [...(rulesAt.get(home) ?? []), rule]);
  }
  return { contract, version, prefix, origin, rulesAt };
};

/** Registers `name` before building it, so a def that reaches itself again ends in a `$ref`. */
const reference = (ctx: Context, name: string, origin: DefOrigin, build: () => JsonSchema): JsonSchema => {
  if (!ctx.defs.has(name)) {
    ctx.defs.set(name, { schema: {}, origin });
    ctx.defs.set(name, { schema: build(), origin });
  }
  return { $ref: `${DEFS_POINTER}${name}` };
};

const lookup = <T>(map: ReadonlyMap<string, T>, name: string, what: string): T => {
  const found = map.get(name);
  if (found === undefined) throw new Error(`treaty bug: unresolved ${what} '${name}' reached the emitter`);
  return found;
};

const enumDescription = (def: EnumDef): string | undefined =>
  paragraphs([def.description, def.values.map((value) => `- ${value.name}: ${value.meaning}`).join("\n")]);

const enumSchema = (ctx: Context, scope: Scope, name: string): JsonSchema => {
  const def = lookup(scope.version.enums, name, "enum");
  return reference(ctx, scope.prefix + name, scope.origin, () =>
    defined({
      title: scope.prefix + name,
      description: enumDescription(def),
      type: "string",
      enum: def.values.map((value) => value.name),
      "x-treaty-fallback": def.fallback,
    }),
  );
};

const namedSchema = (ctx: Context, scope: Scope, name: string): JsonSchema => {
  const type: NamedType = lookup(scope.version.types, name, "type");
  return reference(ctx, scope.prefix + name, scope.origin, () => ({
    ...defined({ title: scope.prefix + name, description: type.description?.trim() }),
    ...objectSchema(ctx, scope, type.fields, undefined, objectPolicy(scope.contract, type)),
  }));
};

const contractDescription = (contract: Contract): string | undefined =>
  paragraphs([contract.summary, contract.description]);

/** A version's payload: its root fields plus the rules that JSON Schema cannot enforce. */
const rootSchema = (ctx: Context, scope: Scope): JsonSchema => {
  const fields = rootFields(scope.contract, scope.version);
  const recorded = scope.version.rules.filter((rule) => ruleHome(fields, rule) === undefined);
  return defined({
    title: rootTypeName(scope.contract.name, scope.version.version),
    description: contractDescription(scope.contract),
    ...objectSchema(ctx, scope, fields, "", objectPolicy(scope.contract)),
    "x-treaty-rules": nonEmpty(recorded.map(ruleAnnotation)),
  });
};

const versionRootSchema = (ctx: Context, contract: Contract, version: ResolvedVersion): JsonSchema => {
  const name = rootTypeName(contract.name, version.version);
  return reference(ctx, name, { kind: "root", contract, version }, () =>
    rootSchema(ctx, createScope(contract, version, `${name}_`, { kind: "foreign" })),
  );
};

const contractSchema = (ctx: Context, ref: ContractRefType): JsonSchema => {
  const contract = ctx.project.contracts.find((candidate) => candidate.name === ref.contract);
  if (!contract) throw new Error(`treaty bug: unknown contract '${ref.contract}' reached the emitter`);
  const base = `${contractTypeName(ref.contract)}V${ref.major}`;
  // Local enum and type names have no `_`, so only they can take a contract-ref def's name.
  const name = ctx.localNames.has(base) ? `${base}_Contract` : base;
  return reference(ctx, name, { kind: "contract" }, () => ({
    description: `Any known version of ${ref.contract}@${ref.major}.`,
    anyOf: versionsOfMajor(contract, ref.major).map((version) => versionRootSchema(ctx, contract, version)),
  }));
};

const variantSchema = (ctx: Context, scope: Scope, union: UnionType, variant: UnionVariant): JsonSchema => {
  const object = variant.type.kind === "object" ? variant.type : lookup(scope.version.types, variant.type.name, "type");
  const tag: Field = {
    name: union.tag,
    type: { kind: "const", value: variant.value },
    optional: false,
    loc: variant.loc,
  };
  return objectSchema(ctx, scope, [tag, ...object.fields], undefined, objectPolicy(scope.contract, object));
};

/** `at`: the dotted path of this node when only inline objects lead to it from the root. */
const typeSchema = (ctx: Context, scope: Scope, node: TypeNode, at: string | undefined): JsonSchema => {
  switch (node.kind) {
    case "string":
      return defined({
        type: "string",
        minLength: node.minLength,
        maxLength: node.maxLength,
        pattern: node.pattern,
        format: node.format,
      });
    case "int":
    case "number":
      return defined({
        type: node.kind === "int" ? "integer" : "number",
        minimum: node.min,
        maximum: node.max,
        exclusiveMinimum: node.exclusiveMin,
        exclusiveMaximum: node.exclusiveMax,
        multipleOf: node.multipleOf,
      });
    case "bool":
      return { type: "boolean" };
    case "timestamp":
      return { type: "string", format: "date-time" };
    case "ref":
      return { type: "string", pattern: refPattern(node.scheme) };
    case "list":
      return defined({
        type: "array",
        items: typeSchema(ctx, scope, node.of, undefined),
        minItems: node.minItems,
        maxItems: node.maxItems,
        uniqueItems: node.unique ? true : undefined,
      });
    case "map":
      return defined({
        type: "object",
        additionalProperties: typeSchema(ctx, scope, node.of, undefined),
        propertyNames: node.keyPattern === undefined ? undefined : { pattern: node.keyPattern },
      });
    case "json":
      return jsonSchemaOfJson(node);
    case "tuple":
      return {
        type: "array",
        prefixItems: node.items.map((item) => typeSchema(ctx, scope, item, undefined)),
        items: false,
        minItems: node.items.length,
        maxItems: node.items.length,
      };
    case "object":
      return objectSchema(ctx, scope, node.fields, at, objectPolicy(scope.contract, node));
    case "union":
      return { oneOf: node.variants.map((variant) => variantSchema(ctx, scope, node, variant)) };
    case "oneOf":
      return { oneOf: node.variants.map((variant) => typeSchema(ctx, scope, variant.type, undefined)) };
    case "const":
      return { const: node.value };
    case "enum":
      return enumSchema(ctx, scope, node.name);
    case "named":
      return namedSchema(ctx, scope, node.name);
    case "contract":
      return contractSchema(ctx, node);
  }
};

/**
 * `json`: any value, so no keyword; the bounds JSON Schema cannot state are said in the description
 * and kept under `x-treaty-json`, which also tells the TypeScript emitter to write `JsonValue`.
 */
const jsonSchemaOfJson = (node: JsonType): JsonSchema => {
  const bounds = [
    node.maxDepth === undefined ? undefined : `nested at most ${node.maxDepth} levels deep`,
    node.maxBytes === undefined ? undefined : `at most ${node.maxBytes} bytes as JSON`,
  ].filter((part) => part !== undefined);
  return {
    description: `Any JSON value${bounds.length > 0 ? `, ${bounds.join(", ")}` : ""}.`,
    "x-treaty-json": defined({ maxDepth: node.maxDepth, maxBytes: node.maxBytes }),
  };
};

const fieldDescription = (field: Field): string | undefined =>
  paragraphs([
    field.description,
    field.deprecated &&
      `Deprecated since ${field.deprecated.since}${field.deprecated.use ? `: use ${field.deprecated.use}` : ""}.`,
    field.nullable !== undefined ? `Null means: ${withPeriod(field.nullable)}` : undefined,
  ]);

/** Field annotations sit on the nullable wrapper when there is one, else beside the type's keywords. */
const fieldSchema = (ctx: Context, scope: Scope, field: Field, at: string | undefined): JsonSchema => {
  const schema = typeSchema(ctx, scope, field.type, at);
  const annotations = defined({
    description: fieldDescription(field),
    default: field.default,
    deprecated: field.deprecated ? true : undefined,
    "x-treaty-sensitivity": field.sensitivity,
    "x-treaty-role": field.role,
  });
  return field.nullable === undefined
    ? { ...schema, ...annotations }
    : { anyOf: [schema, { type: "null" }], ...annotations };
};

/** `policy`: reject closes the object; strip and keep leave it open; keep's `additional` types the rest. */
const objectSchema = (ctx: Context, scope: Scope, fields: readonly Field[], at: string | undefined, policy: ObjectPolicy): JsonSchema =>
  defined({
    type: "object",
    // fromEntries defines own properties, so a field named `__proto__` stays a field.
    properties: Object.fromEntries(
      fields.map((field) => [
        field.name,
        fieldSchema(ctx, scope, field, at === undefined ? undefined : childPath(at, field.name)),
      ]),
    ),
    required: nonEmpty(fields.filter((field) => !field.optional).map((field) => field.name)),
    additionalProperties:
      policy.unknownFields === "reject" ? false : policy.additional === undefined ? undefined : typeSchema(ctx, scope, policy.additional, undefined),
    // JSON Schema cannot tell keep from strip (both accept unknown keys); types.ts and readers of the schema can.
    "x-treaty-unknown-fields": policy.unknownFields === "keep" ? "keep" : undefined,
    ...ruleKeywords(at === undefined ? [] : (scope.rulesAt.get(at) ?? [])),
  });

const byName = <T>([a]: readonly [string, T], [b]: readonly [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

// The document of the version last asked about: its types.ts, schema.ts and schema.json are emitted
// one after another, and each built it again (0.7 s of a cold run of a 20,000-field contract). The
// document is shared: no caller changes it.
let lastDocument: { readonly project: Project; readonly version: ResolvedVersion; readonly document: SchemaDocument } | undefined;

export const buildSchemaDocument = (project: Project, contract: Contract, version: ResolvedVersion): SchemaDocument => {
  if (lastDocument?.project === project && lastDocument.version === version) return lastDocument.document;
  const document = newSchemaDocument(project, contract, version);
  lastDocument = { project, version, document };
  return document;
};

const newSchemaDocument = (project: Project, contract: Contract, version: ResolvedVersion): SchemaDocument => {
  const ctx: Context = {
    project,
    defs: new Map(),
    localNames: new Set([...version.enums.keys(), ...version.types.keys()]),
  };
  const scope = createScope(contract, version, "", { kind: "local" });
  const root = { $comment: generatedComment(contract.file), $schema: DRAFT_2020_12, ...rootSchema(ctx, scope) };
  return { root, defs: new Map([...ctx.defs].sort(byName)) };
};

export const toJsonSchema = (project: Project, contract: Contract, version: ResolvedVersion): JsonSchema => {
  const { root, defs } = buildSchemaDocument(project, contract, version);
  if (defs.size === 0) return root;
  return { ...root, $defs: Object.fromEntries([...defs].map(([name, def]) => [name, def.schema])) };
};

/** Path of a version's generated `file`, relative to the output root. */
export const versionFilePath = (contract: string, version: string, file: string): string =>
  `${contractDir(contract)}/${versionId(version)}/${file}`;

/** The specifier with which the generated file `from` imports the one at `to` (both `.ts`, root-relative). */
export const moduleSpecifier = (from: string, to: string): string => {
  const relative = posix.relative(posix.dirname(from), to).replace(/\.ts$/, ".js");
  return relative.startsWith(".") ? relative : `./${relative}`;
};

export const emitJsonSchema = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile =>
  jsonFile(versionFilePath(contract.name, version.version, "schema.json"), toJsonSchema(project, contract, version));

/** The name a `$ref` of an emitted schema points at, if `schema` is one. */
export const refName = (schema: JsonSchema): string | undefined =>
  typeof schema.$ref === "string" && schema.$ref.startsWith(DEFS_POINTER)
    ? schema.$ref.slice(DEFS_POINTER.length)
    : undefined;

export const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Applies `f` to each direct subschema, in the keywords emitted schemas use for them. */
/** How `value`, under `key` of a schema, holds subschemas: itself one, a list of them, or a map of them by name. */
const subschemaSlot = (key: string, value: unknown): "one" | "list" | "map" | undefined => {
  if ((key === "items" || key === "additionalProperties") && isSchema(value)) return "one";
  if ((key === "anyOf" || key === "oneOf" || key === "prefixItems") && Array.isArray(value)) return "list";
  if (key === "properties" && isSchema(value)) return "map";
  return undefined;
};

export const mapSubschemas = (schema: JsonSchema, f: (subschema: JsonSchema) => JsonSchema): JsonSchema =>
  Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      switch (subschemaSlot(key, value)) {
        case "one":
          return [key, f(value as JsonSchema)];
        case "list":
          return [key, (value as JsonSchema[]).map((item) => f(item))];
        case "map":
          return [key, Object.fromEntries(Object.entries(value as object).map(([name, item]) => [name, f(item as JsonSchema)]))];
        default:
          return [key, value];
      }
    }),
  );

/** Calls `f` with each subschema of `schema` (those `mapSubschemas` maps), building nothing. */
const forEachSubschema = (schema: JsonSchema, f: (subschema: JsonSchema) => void): void => {
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    switch (subschemaSlot(key, value)) {
      case "one":
        f(value as JsonSchema);
        break;
      case "list":
        for (const item of value as JsonSchema[]) f(item);
        break;
      case "map":
        for (const item of Object.values(value as object)) f(item as JsonSchema);
        break;
    }
  }
};

/**
 * The document's local defs in declaration order: each after the defs it uses (the checker rejects
 * recursive types, so there is no cycle).
 */
export const localDefOrder = (document: SchemaDocument): readonly string[] => {
  let order = defOrders.get(document);
  if (order === undefined) defOrders.set(document, (order = defOrderOf(document)));
  return order;
};

/** The order of each document asked about: types.ts and the TypeBox schemas both declare its defs. */
const defOrders = new WeakMap<SchemaDocument, readonly string[]>();

const defOrderOf = (document: SchemaDocument): readonly string[] => {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (schema: JsonSchema): void => {
    const name = refName(schema);
    const def = name === undefined ? undefined : document.defs.get(name);
    if (name !== undefined && def?.origin.kind === "local" && !seen.has(name)) {
      seen.add(name);
      visit(def.schema);
      order.push(name);
    }
    forEachSubschema(schema, visit);
  };
  visit(document.root);
  return order;
};
