// Projections: what each LLM provider is told of a contract version, within the provider's
// documented subset (`limits/`), and the ledger of every constraint it cannot take. Read from the
// typed model only; the emitter prints the result, `compile` reports the diagnostics.
import { createDiagnostic, formatDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { rootFields } from "../ir/envelope.js";
import type { Contract, EnumDef, Field, SourceLocation, JsonType, JsonValue, LlmProvider, NamedType, OneOfType, OpenObject, Project, ResolvedVersion, Rule, TypeNode } from "../ir/model.js";
import { distinguishDescribed, distinguishVariants, variantLabel } from "../ir/one-of-variants.js";
import { objectPolicy } from "../ir/open-objects.js";
import { versionsOfMajor } from "../ir/names.js";
import { maxDepthOf, recursiveTypes } from "../ir/recursion.js";
import { refPattern } from "../ir/ref-pattern.js";
import { describeBranch } from "../ir/one-of-json-schema.js";
import { escapePointer } from "../runtime/issue.js";
import { checkRequestBudget, type BudgetBreach } from "./budget.js";
import { ANTHROPIC_LIMITS } from "./limits/anthropic.js";
import { GEMINI_LIMITS } from "./limits/gemini.js";
import { MCP_LIMITS } from "./limits/mcp.js";
import { OPENAI_LIMITS } from "./limits/openai.js";
import type { JsonSchema, Keyword, LedgerEntry, NullPlan, Projection, ProviderLimits } from "./model.js";

const PROVIDER_LIMITS: Readonly<Record<LlmProvider, ProviderLimits>> = {
  openai: OPENAI_LIMITS,
  anthropic: ANTHROPIC_LIMITS,
  gemini: GEMINI_LIMITS,
  mcp: MCP_LIMITS,
};

/** One contract version being projected: where the fields come from (contract refs switch it). */
interface Scope {
  readonly contract: Contract;
  readonly version: ResolvedVersion;
}

interface Context {
  readonly project: Project;
  readonly limits: ProviderLimits;
  /** The version projected; a limit crossed anywhere is reported against it. */
  readonly home: Scope;
  readonly ledger: LedgerEntry[];
  readonly widened: string[];
  readonly diagnostics: Diagnostic[];
  readonly totals: { properties: number; chars: number; enumValues: number; deepest: number };
  /** The named types being projected above this point (`contract:type`): a projection inlines them, so a recursive one cannot go. */
  readonly expanding: Set<string>;
  /** Where the provider takes `$defs`: the recursive types reached, each projected once (`defName`). */
  readonly defs: Map<string, JsonSchema>;
  /** The recursive types of each version reached (the home version's and embedded contracts'). */
  readonly recursive: Map<ResolvedVersion, ReadonlySet<string>>;
  /** The home version's field through which the projection entered another contract, while it is in one. */
  entered: Field | undefined;
}

/**
 * Where a diagnostic of this projection goes: at `loc` when it is in the home contract's file, else
 * at the home field that leads into the other contract (its own file is not where the fix goes: the
 * home contract's `llm: { providers }` is, and the other contract may project to that provider fine).
 */
const placed = (ctx: Context, loc: SourceLocation): SourceLocation => (loc.file === ctx.home.contract.file ? loc : (ctx.entered?.loc ?? ctx.home.version.loc));

/** The recursive types of `scope`'s version, worked out once per projection. */
const recursiveIn = (ctx: Context, scope: Scope): ReadonlySet<string> => {
  let found = ctx.recursive.get(scope.version);
  if (found === undefined) ctx.recursive.set(scope.version, (found = recursiveTypes(scope.version)));
  return found;
};

/** A recursive type's key in `$defs`: its name in the home version, qualified by contract and version elsewhere (a name treaty's types cannot have). */
const defName = (ctx: Context, scope: Scope, type: NamedType): string =>
  scope === ctx.home ? type.name : `${scope.contract.name}.v${scope.version.version.replace(".", "_")}.${type.name}`;

/** A projected type: its schema, its null plan, and the constraints it left out, in words. */
interface Projected {
  readonly schema: JsonSchema;
  readonly nulls?: NullPlan;
  readonly dropped: readonly string[];
}

const defined = (entries: Record<string, JsonValue | undefined>): JsonSchema =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as JsonSchema;

export const paragraphs = (parts: readonly (string | undefined)[]): string | undefined => {
  const kept = parts.map((part) => part?.trim()).filter((part): part is string => !!part);
  return kept.length > 0 ? kept.join("\n\n") : undefined;
};

const nonEmpty = (items: readonly string[]): string[] | undefined => (items.length > 0 ? [...items] : undefined);

const withPeriod = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

const child = (at: string, name: string): string => `${at}/${escapePointer(name)}`;

/** A dotted field path of a rule as a JSON pointer from the payload root. */
const pointer = (path: string): string => `/${path.split(".").join("/")}`;

const optOut = (provider: LlmProvider): string => `or leave ${provider} out (llm: { providers: [...] })`;

const KEYWORD_OF = {
  minLength: "minLength",
  maxLength: "maxLength",
  pattern: "pattern",
  min: "minimum",
  max: "maximum",
  exclusiveMin: "exclusiveMinimum",
  exclusiveMax: "exclusiveMaximum",
  multipleOf: "multipleOf",
  maxItems: "maxItems",
  unique: "uniqueItems",
} as const satisfies Record<string, Keyword>;

const count = (n: JsonValue, noun: string): string => `${String(n)} ${noun}${n === 1 ? "" : "s"}`;

const WORDS: Record<string, (value: JsonValue) => string> = {
  minLength: (n) => `at least ${count(n, "character")}`,
  maxLength: (n) => `at most ${count(n, "character")}`,
  pattern: (p) => `matches the regular expression ${String(p)}`,
  min: (n) => `at least ${String(n)}`,
  max: (n) => `at most ${String(n)}`,
  exclusiveMin: (n) => `greater than ${String(n)}`,
  exclusiveMax: (n) => `less than ${String(n)}`,
  multipleOf: (n) => `a multiple of ${String(n)}`,
  minItems: (n) => `at least ${count(n, "item")}`,
  maxItems: (n) => `at most ${count(n, "item")}`,
  unique: () => "no two items equal",
  format: (f) => `a valid ${String(f)} string`,
  maxDepth: (n) => `nested at most ${count(n, "level")} deep`,
  maxBytes: (n) => `at most ${count(n, "byte")} as JSON`,
  json: () => "any JSON value, though only a string, number, boolean or null can be written here",
};

/**
 * `json`: any value, said as the empty schema. Its bounds have no keyword anywhere, so they go to
 * the ledger. A provider whose objects must all be closed cannot say an open object at all: it is
 * told the scalars, a subset of what the contract accepts, and the ledger says so.
 */
const jsonProjection = (ctx: Context, at: string, node: JsonType): Projected => {
  const closed = ctx.limits.closedObjects;
  const base: JsonSchema = closed ? { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }] } : {};
  return constrain(ctx, at, base, [
    ["json", closed ? true : undefined, false],
    ["maxDepth", closed ? undefined : node.maxDepth, false],
    ["maxBytes", node.maxBytes, false],
  ]);
};

/**
 * Keeps each constraint the provider takes as its JSON Schema keyword; every other one goes to
 * the ledger (at `at`, under the issue code the contract's validator reports) and into words.
 */
const constrain = (
  ctx: Context,
  at: string,
  base: JsonSchema,
  constraints: readonly (readonly [keyof typeof WORDS, JsonValue | undefined, boolean])[],
): Projected => {
  const schema: JsonSchema = { ...base };
  const dropped: string[] = [];
  for (const [code, value, kept] of constraints) {
    if (value === undefined) continue;
    const words = WORDS[code]!(value);
    if (kept) {
      const keyword = code === "format" ? "format" : code === "minItems" ? "minItems" : KEYWORD_OF[code as keyof typeof KEYWORD_OF];
      schema[keyword] = value;
    } else {
      ctx.ledger.push({ path: at === "" ? "/" : at, constraint: code, value, words });
      dropped.push(words);
    }
  }
  return { schema, dropped };
};

const takes = (ctx: Context, code: keyof typeof KEYWORD_OF): boolean => ctx.limits.keywords.has(KEYWORD_OF[code]);

const lookup = <T>(map: ReadonlyMap<string, T>, name: string, what: string): T => {
  const found = map.get(name);
  if (found === undefined) throw new Error(`treaty bug: unresolved ${what} '${name}' reached the projection`);
  return found;
};

const countEnum = (ctx: Context, def: EnumDef): void => {
  const chars = def.values.reduce((sum, value) => sum + value.name.length, 0);
  ctx.totals.chars += chars;
  ctx.totals.enumValues += def.values.length;
  const { maxEnumValues, largeEnum, provider } = ctx.limits;
  if (maxEnumValues !== undefined && ctx.totals.enumValues > maxEnumValues && ctx.totals.enumValues - def.values.length <= maxEnumValues) {
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", placed(ctx, def.loc), { provider, limit: "enum values in one schema", max: maxEnumValues, actual: `${ctx.totals.enumValues} with enum '${def.name}'`, fix: optOut(provider) }));
  }
  if (largeEnum && def.values.length > largeEnum.values && chars > largeEnum.chars) {
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", placed(ctx, def.loc), { provider, limit: `characters of values in one enum of more than ${largeEnum.values} values`, max: largeEnum.chars, actual: `${chars} in enum '${def.name}'`, fix: optOut(provider) }));
  }
};

const enumSchema = (ctx: Context, def: EnumDef): JsonSchema => {
  countEnum(ctx, def);
  if (ctx.limits.enumMeanings === "anyOf") {
    return defined({
      description: def.description?.trim(),
      anyOf: def.values.map((value) => ({ const: value.name, description: value.meaning.trim() })),
    });
  }
  return defined({
    type: "string",
    description: paragraphs([def.description, def.values.map((value) => `- ${value.name}: ${value.meaning.trim()}`).join("\n")]),
    enum: def.values.map((value) => value.name),
  });
};

const constSchema = (ctx: Context, value: string | number | boolean | null): JsonSchema => {
  ctx.totals.chars += String(value).length;
  // Every provider takes the null type; not every one takes `const`.
  if (value === null) return { type: "null" };
  if (ctx.limits.const) return { const: value };
  const type = typeof value === "string" ? "string" : typeof value === "boolean" ? "boolean" : Number.isInteger(value) ? "integer" : "number";
  return { type, enum: [value] };
};

const typeProjection = (ctx: Context, scope: Scope, node: TypeNode, at: string, depth: number, field: Field | undefined, example: unknown): Projected => {
  switch (node.kind) {
    case "string":
      return constrain(ctx, at, { type: "string" }, [
        ["minLength", node.minLength, takes(ctx, "minLength")],
        ["maxLength", node.maxLength, takes(ctx, "maxLength")],
        ["pattern", node.pattern, takes(ctx, "pattern")],
        ["format", node.format, node.format !== undefined && ctx.limits.formats.has(node.format)],
      ]);
    case "int":
    case "number":
      return constrain(ctx, at, { type: node.kind === "int" ? "integer" : "number" }, [
        ["min", node.min, takes(ctx, "min")],
        ["max", node.max, takes(ctx, "max")],
        ["exclusiveMin", node.exclusiveMin, takes(ctx, "exclusiveMin")],
        ["exclusiveMax", node.exclusiveMax, takes(ctx, "exclusiveMax")],
        ["multipleOf", node.multipleOf, takes(ctx, "multipleOf")],
      ]);
    case "bool":
      return { schema: { type: "boolean" }, dropped: [] };
    case "timestamp":
      return constrain(ctx, at, { type: "string" }, [["format", "date-time", ctx.limits.formats.has("date-time")]]);
    case "ref":
      return constrain(ctx, at, { type: "string" }, [["pattern", refPattern(node.scheme), takes(ctx, "pattern")]]);
    case "list": {
      const items = typeProjection(ctx, scope, node.of, child(at, "*"), depth, field, undefined);
      const listed = constrain(ctx, at, { type: "array", items: withWords(items.schema, items.dropped) }, [
        ["minItems", node.minItems, node.minItems !== undefined && node.minItems <= ctx.limits.maxMinItems],
        ["maxItems", node.maxItems, takes(ctx, "maxItems")],
        ["unique", node.unique ? true : undefined, takes(ctx, "unique")],
      ]);
      return { ...listed, nulls: items.nulls && { kind: "items", inner: items.nulls } };
    }
    case "map": {
      // One object deeper either way: an entry `{ key, value }` (closed objects), or the map's own object.
      nestedObject(ctx, scope, at, depth + 1, field);
      const values = typeProjection(ctx, scope, node.of, child(at, "*"), depth + 1, field, undefined);
      const keyPattern = node.keyPattern;
      // A key pattern is the entries' `pattern` (closed objects), `propertyNames` where the provider
      // takes it, else words; the validator reports a bad key as `key` at the entry.
      const keyWords = keyPattern === undefined ? undefined : `each key matching ${keyPattern}`;
      const keyKept = keyPattern !== undefined && (ctx.limits.closedObjects ? takes(ctx, "pattern") : ctx.limits.keywords.has("propertyNames"));
      if (keyWords !== undefined && !keyKept) ctx.ledger.push({ path: child(at, "*"), constraint: "key", value: keyPattern!, words: keyWords });
      const keyDropped = keyWords !== undefined && !keyKept ? [keyWords] : [];
      if (ctx.limits.closedObjects) {
        // Open keys cannot be said in a closed object: the map goes as a list of entries, which
        // the decode mapping turns back into the object; a key twice is its failure (`unique`).
        ctx.totals.properties += 2;
        ctx.totals.chars += "key".length + "value".length;
        const words = "each key at most once";
        ctx.ledger.push({ path: at === "" ? "/" : at, constraint: "unique", words });
        const key: JsonSchema = keyKept ? { type: "string", pattern: keyPattern! } : { type: "string" };
        const entry = { type: "object", properties: { key, value: withWords(values.schema, values.dropped) }, required: ["key", "value"], additionalProperties: false };
        return {
          schema: { type: "array", description: "A map, written as a list of entries: one { key, value } per key.", items: entry },
          nulls: { kind: "entries", ...(values.nulls ? { inner: values.nulls } : {}) },
          dropped: [words, ...keyDropped],
        };
      }
      return {
        schema: defined({ type: "object", additionalProperties: withWords(values.schema, values.dropped), propertyNames: keyKept ? { pattern: keyPattern! } : undefined }),
        nulls: values.nulls && { kind: "values", inner: values.nulls },
        dropped: keyDropped,
      };
    }
    case "json":
      return jsonProjection(ctx, at, node);
    case "tuple": {
      // Without `prefixItems` a tuple goes as a closed object keyed by position ("0", "1", ...),
      // which says each position exactly; the decode mapping makes it the array again.
      const positional = ctx.limits.keywords.has("prefixItems");
      const inner = positional ? depth : depth + 1;
      if (!positional) nestedObject(ctx, scope, at, inner, field);
      const projected = node.items.map((item, i) => typeProjection(ctx, scope, item, child(at, String(i)), inner, field, undefined));
      const items = projected.map((item) => withWords(item.schema, item.dropped));
      const positions = projected.flatMap((item, index) => (item.nulls ? [{ index, inner: item.nulls }] : []));
      const length = items.length;
      if (positional) {
        const nulls: NullPlan | undefined = positions.length > 0 ? { kind: "positions", object: false, length, positions } : undefined;
        return { schema: { type: "array", prefixItems: items, items: false, minItems: length, maxItems: length }, nulls, dropped: [] };
      }
      const keys = items.map((_, i) => String(i));
      ctx.totals.properties += length;
      ctx.totals.chars += keys.join("").length;
      return {
        schema: {
          type: "object",
          description: `A tuple of ${length} items, written as an object keyed by position ("0" is the first).`,
          properties: Object.fromEntries(items.map((item, i) => [keys[i]!, item])),
          required: keys,
          additionalProperties: false,
        },
        nulls: { kind: "positions", object: true, length, positions },
        dropped: [],
      };
    }
    case "object":
      return objectProjection(ctx, scope, node.fields, at, depth + 1, field, example, node);
    case "union": {
      const variants = node.variants.map((variant) => {
        const object = variant.type.kind === "object" ? variant.type : lookup(scope.version.types, variant.type.name, "type");
        const tag: Field = { name: node.tag, type: { kind: "const", value: variant.value }, optional: false, loc: variant.loc };
        return { value: variant.value, projected: objectProjection(ctx, scope, [tag, ...object.fields], at, depth + 1, field, undefined, object) };
      });
      const planned = variants.filter((variant) => variant.projected.nulls);
      return {
        schema: { anyOf: variants.map((variant) => variant.projected.schema) },
        nulls: planned.length > 0 ? { kind: "tagged", tag: node.tag, variants: planned.map((v) => ({ value: v.value, inner: v.projected.nulls! })) } : undefined,
        dropped: [],
      };
    }
    case "oneOf": {
      // Every provider takes anyOf (OpenAI strict not oneOf); proved disjoint, it accepts what oneOf does.
      const variants = node.variants.map((variant, i) => typeProjection(ctx, scope, variant.type, at, depth, field, i === 0 ? example : undefined));
      const schemas = variants.map((variant) => withWords(variant.schema, variant.dropped));
      // Variants told apart by patterns the provider does not take: a reply may be of none of them.
      const dropped = !takes(ctx, "pattern") && selectsByPattern(scope, node) ? [UNION_BY_PATTERN] : [];
      if (dropped.length > 0) ctx.ledger.push({ path: at === "" ? "/" : at, constraint: "union", words: UNION_BY_PATTERN });
      return { schema: { anyOf: schemas }, nulls: oneOfPlan(ctx, node, variants, schemas), dropped };
    }
    case "const":
      return { schema: constSchema(ctx, node.value), dropped: [] };
    case "enum":
      return { schema: enumSchema(ctx, lookup(scope.version.enums, node.name, "enum")), dropped: [] };
    case "named": {
      const type = lookup(scope.version.types, node.name, "type");
      if (ctx.limits.recursiveDefs && recursiveIn(ctx, scope).has(node.name)) return recursiveDef(ctx, scope, type, at, depth, field);
      const key = `${scope.contract.name}:${node.name}`;
      if (ctx.expanding.has(key)) return recursionNotProjected(ctx, scope, type);
      ctx.expanding.add(key);
      const projected = objectProjection(ctx, scope, type.fields, at, depth + 1, field, example, type);
      ctx.expanding.delete(key);
      return { ...projected, schema: describedAs(type.description, projected.schema) };
    }
    case "contract": {
      const contract = ctx.project.contracts.find((candidate) => candidate.name === node.contract);
      if (!contract) throw new Error(`treaty bug: unknown contract '${node.contract}' reached the projection`);
      const entered = ctx.entered;
      ctx.entered ??= field;
      const versions = versionsOfMajor(contract, node.major).map((version) => ({
        version,
        projected: objectProjection(ctx, { contract, version }, rootFields(contract, version), at, depth + 1, field, undefined),
      }));
      ctx.entered = entered;
      // Versions are told apart by their `version` constant; without an envelope nothing tells
      // them apart, and every version's nulls are removed.
      const planned = versions.filter((v) => v.projected.nulls);
      const nulls: NullPlan | undefined =
        planned.length === 0
          ? undefined
          : contract.envelope === "embedded"
            ? { kind: "tagged", tag: "version", variants: planned.map((v) => ({ value: v.version.version, inner: v.projected.nulls! })) }
            : { kind: "each", plans: planned.map((v) => v.projected.nulls!) };
      return {
        schema: versions.length === 1 ? versions[0]!.projected.schema : { description: `Any known version of ${node.contract}@${node.major}.`, anyOf: versions.map((v) => v.projected.schema) },
        nulls,
        dropped: [],
      };
    }
  }
};

/**
 * The reply mapping of an untagged union: each variant's mapping applies to the values of that
 * variant only, selected as written for the provider. The variants are disjoint in the contract,
 * but the projection can make them alike (a map written as entries is a list, a tuple written by
 * position an object with keys "0", "1", a widened null another variant's meaning): where a
 * variant with a mapping cannot be told apart from another as written, a reply could not be read
 * back as the value the model meant, which is an error at the variant.
 */
const oneOfPlan = (ctx: Context, node: OneOfType, variants: readonly Projected[], schemas: readonly JsonSchema[]): NullPlan | undefined => {
  if (!variants.some((variant) => variant.nulls)) return undefined;
  const resolve = (ref: string): unknown => ctx.defs.get(ref.replace(/^#\/\$defs\//, ""));
  const { selectors, overlaps } = distinguishDescribed(schemas.map((schema) => describeBranch(schema, resolve, { closed: true })));
  const { provider } = ctx.limits;
  for (const { first, second, why } of overlaps) {
    if (!variants[first]!.nulls && !variants[second]!.nulls) continue; // as sent either way: the contract's validator decides
    const loc = node.variants[second]!.loc;
    ctx.diagnostics.push(createDiagnostic("llm-union-overlap", placed(ctx, loc), { provider, first: variantLabel(node, first), second: variantLabel(node, second), why, fix: optOut(provider) }));
  }
  return { kind: "select", variants: variants.flatMap((variant, i) => (variant.nulls ? [{ selector: selectors[i]!, inner: variant.nulls }] : [])) };
};

/** Projections inline named types, and no provider's subset is used here for `$ref` cycles yet: a recursive type is a limit crossed. */
const recursionNotProjected = (ctx: Context, scope: Scope, type: NamedType): Projected => {
  const { provider } = ctx.limits;
  if (!ctx.diagnostics.some((d) => d.message.includes(RECURSION_LIMIT))) {
    const actual = scope === ctx.home ? `type '${type.name}'` : `type '${type.name}' of ${scope.contract.name}`;
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", placed(ctx, type.loc), { provider, limit: RECURSION_LIMIT, max: 0, actual, fix: optOut(provider) }));
  }
  return { schema: {}, dropped: [] };
};

const RECURSION_LIMIT = "recursive types (projections inline named types)";

/**
 * A recursive type of the version projected, where the provider takes `$defs`: projected once (at
 * its first place, where the ledger names what it drops) and referred to by `$ref` everywhere.
 * Such providers read optional fields as they are, so a reply needs no null plan inside it.
 */
const recursiveDef = (ctx: Context, scope: Scope, type: NamedType, at: string, depth: number, field: Field | undefined): Projected => {
  const name = defName(ctx, scope, type);
  if (!ctx.defs.has(name)) {
    ctx.defs.set(name, {});
    // No keyword bounds a `$ref`'s recursion: the depth the validator enforces (`depth`) is in words.
    const bound = maxDepthOf(type);
    const words = WORDS.maxDepth!(bound);
    ctx.ledger.push({ path: at === "" ? "/" : at, constraint: "depth", value: bound, words });
    const projected = objectProjection(ctx, scope, type.fields, at, depth + 1, field, undefined);
    if (projected.nulls) throw new Error(`treaty bug: ${ctx.limits.provider} takes $defs but '${type.name}' needs a null plan`);
    ctx.defs.set(name, describedAs(paragraphs([type.description, `Must also be: ${words}.`]), projected.schema));
  }
  return { schema: { $ref: `#/$defs/${name}` }, dropped: [] };
};

/** `schema` with `description` first, before what its own description says. */
const describedAs = (description: string | undefined, schema: JsonSchema): JsonSchema => {
  const { description: own, ...rest } = schema;
  return defined({ description: paragraphs([description, typeof own === "string" ? own : undefined]), ...rest });
};

const UNION_BY_PATTERN = "of exactly one of these forms, each told apart by its pattern";

/** Whether the validator tells a variant of `node` from another by a pattern (its own, or a field's). */
const selectsByPattern = (scope: Scope, node: OneOfType): boolean =>
  distinguishVariants(node, scope.version, scope.contract).selectors.some((selector) =>
    selector.tests.some((test) => test.kind === "pattern" || (test.kind === "field" && test.atom?.pattern !== undefined)),
  );

const withWords = (schema: JsonSchema, dropped: readonly string[]): JsonSchema =>
  dropped.length === 0 ? schema : { ...schema, description: paragraphs([schema.description as string | undefined, `Must also be: ${dropped.join("; ")}.`])! };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An example value worth showing: a scalar from the version's first valid example, never a sensitive one. */
const exampleWords = (field: Field, example: unknown): string | undefined => {
  if (field.sensitivity === "secret" || field.sensitivity === "pii") return undefined;
  if (field.type.kind === "const" || field.type.kind === "enum") return undefined;
  return typeof example === "string" || typeof example === "number" || typeof example === "boolean" ? `Example: ${JSON.stringify(example)}.` : undefined;
};

const fieldProjection = (ctx: Context, scope: Scope, field: Field, at: string, depth: number, example: unknown): Projected & { readonly widened: boolean } => {
  // A sensitive field's children are never shown as examples either.
  const inner = field.sensitivity === "secret" || field.sensitivity === "pii" ? undefined : example;
  const projected = typeProjection(ctx, scope, field.type, at, depth, field, inner);
  // A type whose values include null (a `const: null`, a union with one) keeps its null: widened,
  // a null would mean absent, and the value the contract allows could not be written.
  const ownNull = field.nullable === undefined && takesNullItself(field.type);
  const widened = ctx.limits.allRequired && field.optional && field.nullable === undefined && !ownNull;
  if (widened) ctx.widened.push(at);
  const { description: typeDescription, ...schema } = projected.schema;
  const description = paragraphs([
    field.description,
    typeof typeDescription === "string" ? typeDescription : undefined,
    field.deprecated && `Deprecated since ${field.deprecated.since}${field.deprecated.use ? `: use ${field.deprecated.use}` : ""}.`,
    field.nullable !== undefined ? `Null means: ${withPeriod(field.nullable)}` : undefined,
    widened ? "Null means: absent." : undefined,
    ctx.limits.allRequired && field.optional && field.nullable !== undefined ? "The field cannot be left out here; null stands for its stated meaning." : undefined,
    ctx.limits.allRequired && field.optional && ownNull ? "The field cannot be left out here." : undefined,
    field.default !== undefined ? `Default when absent: ${JSON.stringify(field.default)}.` : undefined,
    exampleWords(field, inner),
    projected.dropped.length > 0 ? `Must also be: ${projected.dropped.join("; ")}.` : undefined,
  ]);
  const nullable = widened || field.nullable !== undefined;
  const alternatives = Array.isArray(schema.anyOf) && Object.keys(schema).length === 1 ? schema.anyOf : [schema];
  // A json field's scalars already take null.
  const takesNull = alternatives.some((alternative) => isPlainObject(alternative) && alternative["type"] === "null" && Object.keys(alternative).length === 1);
  const shaped = nullable ? (takesNull ? { anyOf: alternatives } : { anyOf: [...alternatives, { type: "null" }] }) : schema;
  return { schema: defined({ description, ...shaped }), nulls: projected.nulls, dropped: [], widened };
};

/** Whether null is a value of `type` itself (not of `json`, whose null an optional field gives up under openai, as documented). */
const takesNullItself = (type: TypeNode): boolean =>
  (type.kind === "const" && type.value === null) || (type.kind === "oneOf" && type.variants.some((variant) => takesNullItself(variant.type)));

/** `object`: the named or inline object whose unknown-key policy applies (none for a payload's root). */
/**
 * Counts an object the projection writes at `depth` (the root's is 1): a declared object, and the
 * objects a map or a tuple is written as (an entry, a map's own object, a tuple keyed by position).
 * Past the provider's nesting limit, the first time, a diagnostic.
 */
const nestedObject = (ctx: Context, scope: Scope, at: string, depth: number, owner: Field | undefined): void => {
  const { maxDepth, provider } = ctx.limits;
  if (maxDepth !== undefined && depth > maxDepth && ctx.totals.deepest <= maxDepth) {
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", placed(ctx, owner?.loc ?? scope.version.loc), { provider, limit: "levels of object nesting", max: maxDepth, actual: `${depth} at ${at}`, fix: optOut(provider) }));
  }
  ctx.totals.deepest = Math.max(ctx.totals.deepest, depth);
};

const objectProjection = (ctx: Context, scope: Scope, fields: readonly Field[], at: string, depth: number, owner: Field | undefined, example: unknown, object?: OpenObject): Projected => {
  const { maxProperties, provider } = ctx.limits;
  nestedObject(ctx, scope, at, depth, owner);
  ctx.totals.properties += fields.length;
  ctx.totals.chars += fields.reduce((sum, f) => sum + f.name.length, 0);
  if (maxProperties !== undefined && ctx.totals.properties > maxProperties && ctx.totals.properties - fields.length <= maxProperties) {
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", placed(ctx, owner?.loc ?? scope.version.loc), { provider, limit: "object properties in one schema", max: maxProperties, actual: ctx.totals.properties, fix: optOut(provider) }));
  }
  const projected = fields.map((field) => {
    const sample = isPlainObject(example) ? example[field.name] : undefined;
    return { field, ...fieldProjection(ctx, scope, field, child(at, field.name), depth, sample) };
  });
  const planned = projected.filter((p) => p.widened || p.nulls);
  const policy = objectPolicy(scope.contract, object);
  const closed = ctx.limits.closedObjects || policy.unknownFields === "reject";
  // A provider that closes every object cannot let a model write the keys a kept object carries:
  // the reply is still a valid value (it has none), and the ledger says what the model cannot write.
  const keptWords = closed && policy.unknownFields === "keep" ? "keys other than the declared fields are kept by the contract but cannot be written here" : undefined;
  if (keptWords !== undefined) ctx.ledger.push({ path: at === "" ? "/" : at, constraint: "unknown_fields", words: keptWords });
  const additional = !closed && policy.additional !== undefined ? typeProjection(ctx, scope, policy.additional, child(at, "*"), depth, owner, undefined) : undefined;
  const schema = defined({
    // As every ledger entry's words, also in the description at its path.
    description: keptWords && `Note: ${keptWords}.`,
    type: "object",
    properties: Object.fromEntries(projected.map((p) => [p.field.name, p.schema])),
    // Strict OpenAI writes `required` on every object, even an empty one (openai-node's toStrictJsonSchema does).
    required: ctx.limits.allRequired ? fields.map((f) => f.name) : nonEmpty(fields.filter((f) => !f.optional).map((f) => f.name)),
    additionalProperties: closed ? false : additional && withWords(additional.schema, additional.dropped),
  });
  return {
    schema,
    nulls: planned.length > 0 ? { kind: "object", fields: planned.map((p) => ({ name: p.field.name, widened: p.widened, ...(p.nulls ? { inner: p.nulls } : {}) })) } : undefined,
    dropped: [],
  };
};

const ruleEntries = (rule: Rule): LedgerEntry[] => {
  switch (rule.kind) {
    case "before":
      return [{ path: pointer(rule.second), constraint: "rule.before", words: `${rule.second} is later than ${rule.first}` }];
    case "exclusive": {
      const words = `at most one of ${rule.fields.join(", ")} is present`;
      return rule.fields.slice(1).map((f) => ({ path: pointer(f), constraint: "rule.exclusive", words }));
    }
    case "requires": {
      const words = `when ${rule.if} is present, so ${rule.then.length === 1 ? "is" : "are"} ${rule.then.join(", ")}`;
      return rule.then.map((f) => ({ path: pointer(f), constraint: "rule.requires", words }));
    }
  }
};

/** The provider's name for the contract: the name itself, else with dots as underscores, else a diagnostic. */
const projectionName = (ctx: Context, contract: Contract): string => {
  const rule = ctx.limits.name;
  if (!rule || rule.pattern.test(contract.name)) return contract.name;
  const name = contract.name.replace(/\./g, "_");
  if (!rule.pattern.test(name)) {
    ctx.diagnostics.push(createDiagnostic("llm-name-invalid", contract.loc, { provider: ctx.limits.provider, name, rule: rule.rule, fix: optOut(ctx.limits.provider) }));
  }
  return name;
};

/** The request fragment each provider's API takes, beside the ledger. */
const request = (limits: ProviderLimits, contract: Contract, version: ResolvedVersion, name: string, description: string | undefined, schema: JsonSchema): JsonSchema => {
  switch (limits.provider) {
    case "openai":
      return {
        response_format: { type: "json_schema", json_schema: defined({ name, description, strict: true, schema }) },
        tool: { type: "function", function: defined({ name, description, parameters: schema, strict: true }) },
      };
    case "anthropic":
      return { tool: defined({ name, description, input_schema: schema, strict: true }) };
    case "gemini":
      return { generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema } };
    case "mcp": {
      // Hints only from what the contract declares: a command asks for a side effect, its `effect`
      // says whether it destroys (MCP reads destructiveHint only when readOnlyHint is false); an
      // idempotency key makes a retry safe.
      const { effect } = contract;
      const annotations = defined({
        readOnlyHint: effect === "read-only" ? true : contract.kind === "command" ? false : undefined,
        destructiveHint: effect === undefined || effect === "read-only" ? undefined : effect === "destructive",
        idempotentHint: version.fields.some((field) => field.role === "idempotency_key") ? true : undefined,
      });
      return {
        tool: defined({
          name,
          title: `${contract.name} ${version.version}`,
          description,
          inputSchema: schema,
          annotations: Object.keys(annotations).length > 0 ? annotations : undefined,
        }),
      };
    }
  }
};

type VersionProjection = StageResult<Projection & { readonly request: JsonSchema }>;

// The projections of the contract last projected, by version and provider: `compile` projects
// every version for its diagnostics, and `generate` then emits the last contract's (a wide contract's
// only one) from them. One contract's at most, so memory stays bounded; the results are never changed.
let recent: { readonly project: Project; readonly contract: Contract; readonly byVersion: Map<ResolvedVersion, Map<LlmProvider, VersionProjection>> } | undefined;

/** One provider's projection of one version, with the limits it crosses as diagnostics. */
export const projectVersion = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider): VersionProjection => {
  if (recent?.project !== project || recent.contract !== contract) recent = { project, contract, byVersion: new Map() };
  let byProvider = recent.byVersion.get(version);
  if (byProvider === undefined) recent.byVersion.set(version, (byProvider = new Map()));
  let projected = byProvider.get(provider);
  if (projected === undefined) byProvider.set(provider, (projected = computeProjection(project, contract, version, provider)));
  return projected;
};

const computeProjection = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider): VersionProjection => {
  const limits = PROVIDER_LIMITS[provider];
  const home = { contract, version };
  const ctx: Context = { project, limits, home, ledger: [], widened: [], diagnostics: [], totals: { properties: 0, chars: 0, enumValues: 0, deepest: 0 }, expanding: new Set(), defs: new Map(), recursive: new Map(), entered: undefined };
  const example = version.examples.find((e) => e.valid)?.value;
  const root = objectProjection(ctx, home, rootFields(contract, version), "", 1, undefined, example);
  const rules = version.rules.flatMap(ruleEntries);
  ctx.ledger.push(...rules);
  const ruleWords = [...new Set(rules.map((entry) => entry.words))];
  const description = paragraphs([contract.summary, contract.description, ruleWords.length > 0 ? `Must also hold: ${ruleWords.join("; ")}.` : undefined]);
  if (limits.maxSchemaChars !== undefined && ctx.totals.chars > limits.maxSchemaChars) {
    ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", version.loc, { provider, limit: "characters of property names, enum values and constants", max: limits.maxSchemaChars, actual: ctx.totals.chars, fix: optOut(provider) }));
  }
  const schema = defined({ ...describedAs(description, root.schema), $defs: ctx.defs.size > 0 ? Object.fromEntries(ctx.defs) : undefined });
  const name = projectionName(ctx, contract);
  // A budget of a request's strict tools (checkRequestBudget) that this tool crosses alone: no request can hold it.
  if (provider === "anthropic") {
    for (const breach of checkRequestBudget([{ name, input_schema: schema, strict: true }])) {
      ctx.diagnostics.push(createDiagnostic("llm-limit-exceeded", version.loc, { provider, limit: `${BUDGET_WORDS[breach.budget]} over a request's strict tools`, max: breach.max, actual: `${breach.actual} in this tool alone`, fix: optOut(provider) }));
    }
  }
  return {
    value: {
      provider,
      name,
      ...(description !== undefined ? { description } : {}),
      schema,
      ledger: ctx.ledger,
      widened: ctx.widened,
      ...(root.nulls ? { nulls: root.nulls } : {}),
      request: request(limits, contract, version, name, description, schema),
    },
    diagnostics: ctx.diagnostics,
  };
};

const BUDGET_WORDS: Readonly<Record<BudgetBreach["budget"], string>> = { strictTools: "tools", optionalParameters: "optional parameters", unionParameters: "parameters of a union type" };

/**
 * Every version's projections, for the providers its contract keeps: what `compile` reports. A
 * type several versions share crosses a limit in each; it is reported once.
 */
export const projectDiagnostics = (project: Project): Diagnostic[] => {
  const all = project.contracts.flatMap((contract) =>
    contract.versions.flatMap((version) => contract.llm.providers.flatMap((provider) => projectVersion(project, contract, version, provider).diagnostics)),
  );
  return [...new Map(all.map((d) => [formatDiagnostic(d), d])).values()];
};
