// One contract file → one `Contract`: names, enums, types, and a full model per version.
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { didYouMean } from "../diagnostics/suggest.js";
import {
  COMMAND_EFFECTS,
  COMPATIBILITY_LEVELS,
  CONTRACT_KINDS,
  LLM_PROVIDERS,
  UNKNOWN_FIELDS,
  locAt,
  type LlmProvider,
  type Change,
  type Contract,
  type EnumDef,
  type EnumValue,
  type Example,
  type NamedType,
  type ResolvedVersion,
  type Rule,
  type SourceLocation,
} from "../ir/model.js";
import { escapePointer } from "../runtime/issue.js";
import { compareVersions, CONTRACT_NAME, CONTRACT_NAME_RULE, RESERVED_CONTRACT_NAMES } from "../ir/names.js";
import type { SourceFile } from "../load/load.js";
import { applyChange, carryRules, type VersionModel } from "./changes.js";
import { createReader, type Entry, type Reader } from "./reader.js";
import { checkNameLength, IDL_LIMITS } from "./limits.js";
import { OPEN_OBJECT_KEYS, parseOpenObject } from "./open-objects.js";
import { ALL_CONSTRAINTS, createTypeParser, REPLACEABLE_CONSTRAINTS, type TypeParser } from "./types.js";

const TOP_KEYS = [
  "contract", "summary", "description", "owner", "kind", "effect", "unknown_fields", "compatibility", "envelope", "canonical",
  "enums", "types", "versions", "examples", "lint", "llm",
];
const VERSION_KEYS = ["status", "description", "fields", "changes", "from", "rules"];
const CHANGE_OPS = ["add", "remove", "rename", "require", "relax", "retype", "constrain", "enum", "custom", "nest", "hoist", "wrap", "head"];
const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;
const VERSION = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;
// Names are any strings, so a segment is anything but the separator (a name with `.` has no path).
const PATH = /^[^.]+(\.[^.]+)*$/;

/** A scalar as written in the source (`1.0` rather than the number 1). */
const sourceText = (node: Node | null): string | undefined => {
  if (!isScalar(node)) return undefined;
  return (node as { source?: string }).source ?? String(node.value);
};

const byKey = (entries: readonly Entry[]): Map<string, Entry> => new Map(entries.map((e) => [e.key, e]));

const parseEnums = (r: Reader, node: Node | null): Map<string, EnumDef> => {
  const enums = new Map<string, EnumDef>();
  for (const entry of r.entries(node, "enums") ?? []) {
    if (!TYPE_NAME.test(entry.key)) {
      r.report("invalid-name", entry.keyNode, { what: "enum name", name: entry.key, rule: String(TYPE_NAME) });
      continue;
    }
    const where = `enum '${entry.key}'`;
    const keys = byKey(r.entries(entry.value, where, ["description", "values", "fallback"]) ?? []);
    const values: EnumValue[] = [];
    const valuesEntry = keys.get("values");
    if (!valuesEntry) r.report("missing-key", entry.keyNode, { where, key: "values" });
    else if (isMap(valuesEntry.value) && valuesEntry.value.items.length === 0) r.report("empty-enum", valuesEntry.keyNode, { name: entry.key });
    else {
      for (const value of r.entries(valuesEntry.value, `values of ${where}`) ?? []) {
        const meaning = isScalar(value.value) && typeof value.value.value === "string" ? value.value.value.trim() : "";
        if (meaning === "") r.report("enum-value-without-meaning", value.keyNode, { value: value.key, name: entry.key });
        else values.push({ name: value.key, meaning, loc: r.loc(value.keyNode) });
      }
    }
    const def: { -readonly [K in keyof EnumDef]: EnumDef[K] } = { name: entry.key, values, loc: r.loc(entry.keyNode) };
    const description = keys.get("description");
    if (description) def.description = r.string(description.value, `description of ${where}`);
    const fallback = keys.get("fallback");
    if (fallback) {
      const name = r.string(fallback.value, `fallback of ${where}`);
      if (name !== undefined && !values.some((v) => v.name === name)) {
        r.report("unknown-enum-value", fallback.value, { name: entry.key, value: name, suggestion: didYouMean(name, values.map((v) => v.name)) });
      } else def.fallback = name;
    }
    if (def.description === undefined) delete def.description;
    if (def.fallback === undefined) delete def.fallback;
    enums.set(entry.key, def);
  }
  return enums;
};

const parseTypes = (r: Reader, entries: readonly Entry[], parser: TypeParser): Map<string, NamedType> => {
  const types = new Map<string, NamedType>();
  for (const entry of entries) {
    const where = `type '${entry.key}'`;
    const keys = byKey(r.entries(entry.value, where, ["description", "fields", "maxDepth", ...OPEN_OBJECT_KEYS]) ?? []);
    const fieldsEntry = keys.get("fields");
    if (!fieldsEntry) {
      if (isMap(entry.value)) r.report("missing-key", entry.keyNode, { where, key: "fields" });
      continue;
    }
    const fields = parser.parseFields(fieldsEntry.value, `fields of ${where}`);
    const open = parseOpenObject(r, keys.get("unknown_fields"), keys.get("additional"), parser.parseTypeSpec);
    if (!fields || !open) continue;
    const description = keys.get("description");
    const descriptionText = description && r.string(description.value, `description of ${where}`);
    const loc = r.loc(entry.keyNode);
    const maxDepthEntry = keys.get("maxDepth");
    const maxDepth = maxDepthEntry && r.count(maxDepthEntry.value, `maxDepth of ${where}`);
    if (maxDepth !== undefined && (maxDepth < 1 || maxDepth > IDL_LIMITS.maxDepth)) {
      r.report("limit-exceeded", maxDepthEntry!.value, { what: `maxDepth of ${where}`, actual: `${maxDepth}`, max: `${IDL_LIMITS.maxDepth} (and at least 1)` });
    }
    types.set(entry.key, {
      name: entry.key,
      ...(descriptionText === undefined ? {} : { description: descriptionText }),
      fields,
      ...open,
      ...(maxDepth === undefined ? {} : { maxDepth, locs: { maxDepth: r.loc(maxDepthEntry!.keyNode) } }),
      loc,
    });
  }
  return types;
};

const parsePathValue = (r: Reader, node: Node | null, where: string): string | undefined => {
  const path = r.string(node, where);
  if (path !== undefined && !PATH.test(path)) {
    r.report("invalid-name", node, { what: "field path", name: path, rule: "dotted field names (a.b.c)" });
    return undefined;
  }
  return path;
};

const parseEnumValues = (r: Reader, node: Node | null, where: string): EnumValue[] =>
  (r.entries(node, where) ?? []).flatMap((value) => {
    const meaning = isScalar(value.value) && typeof value.value.value === "string" ? value.value.value.trim() : "";
    if (meaning !== "") return [{ name: value.key, meaning, loc: r.loc(value.keyNode) }];
    r.report("enum-value-without-meaning", value.keyNode, { value: value.key, name: where });
    return [];
  });

/** One entry of `changes:`; undefined (reported) when it cannot be read. */
const parseChange = (r: Reader, node: Node | null, parser: TypeParser): Change | undefined => {
  if (!isMap(node)) {
    r.report("invalid-value", node, { where: "a change", expected: "a mapping with one operation key" });
    return undefined;
  }
  const keys = node.items.map((p) => sourceText(p.key as Node));
  // An enum change's own `add` and `remove` keys share names with field operations.
  const ops = keys.includes("enum") ? ["enum"] : keys.filter((k): k is string => k !== undefined && CHANGE_OPS.includes(k));
  if (ops.length !== 1) {
    const first = sourceText(node.items[0]?.key as Node) ?? "";
    r.report("unknown-change", ops.length === 0 ? (node.items[0]?.key as Node) ?? node : node, {
      suggestion: ops.length === 0 ? didYouMean(first, CHANGE_OPS) : ` (found ${ops.join(", ")})`,
    });
    return undefined;
  }
  const op = ops[0]!;
  const loc = r.loc(node);
  // Where the values a change names stand, so that applying it reports each at its own (`Change`).
  const locs: Record<string, SourceLocation> = {};
  const at = (key: string, value: Node | null, fallback: Node): void => void (locs[key] = r.loc(value, fallback));
  const where = `change '${op}'`;
  const withKeys = (extra: readonly string[]) => {
    const entries = r.entries(node, where, [op, "description", ...extra]);
    return entries && byKey(entries);
  };
  switch (op) {
    case "add": {
      // parseField reads (and checks) the keys; only the path is read here.
      const opNode = node.items.find((p) => sourceText(p.key as Node) === op)!.value as Node | null;
      const path = parsePathValue(r, opNode, where);
      if (!path) return undefined;
      at("path", opNode, node);
      const field = parser.parseField(path.split(".").pop()!, opNode!, node, [op]);
      return field && { op, path, field, loc, locs };
    }
    case "remove":
    case "require":
    case "relax":
    case "head": {
      const keys = withKeys(["default"]);
      const path = keys && parsePathValue(r, keys.get(op)!.value, where);
      if (!path) return undefined;
      at("path", keys.get(op)!.value, node);
      const defaultEntry = keys.get("default");
      return defaultEntry ? { op, path, default: r.json(defaultEntry.value), loc, locs } : { op, path, loc, locs };
    }
    case "wrap": {
      const keys = withKeys(["default", "minItems", "maxItems", "unique"]);
      const path = keys && parsePathValue(r, keys.get(op)!.value, where);
      if (!path) return undefined;
      at("path", keys.get(op)!.value, node);
      const given = parser.readConstraints("list", new Map([...keys].filter(([key]) => key !== op && key !== "default")));
      const list = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as { minItems?: number; maxItems?: number; unique?: boolean };
      const defaultEntry = keys.get("default");
      return { op, path, ...list, ...(defaultEntry ? { default: r.json(defaultEntry.value) } : {}), loc, locs };
    }
    case "rename":
    case "nest":
    case "hoist": {
      const keys = withKeys([]);
      const body = keys && byKey(r.entries(keys.get(op)!.value, where, ["from", "to"]) ?? []);
      if (!body) return undefined;
      for (const key of ["from", "to"]) if (!body.has(key)) r.report("missing-key", keys.get(op)!.value, { where, key });
      const from = body.get("from") && parsePathValue(r, body.get("from")!.value, "rename's 'from'");
      const to = body.get("to") && parsePathValue(r, body.get("to")!.value, "rename's 'to'");
      for (const key of ["from", "to"]) if (body.has(key)) at(key, body.get(key)!.value, node);
      return from && to ? { op, from, to, loc, locs } : undefined;
    }
    case "retype": {
      const entries = r.entries(node, where, [op, "description", "type", ...ALL_CONSTRAINTS]);
      const opEntry = entries?.find((e) => e.key === op);
      const path = opEntry && parsePathValue(r, opEntry.value, where);
      const typeEntry = entries?.find((e) => e.key === "type");
      if (entries && !typeEntry) r.report("missing-key", node, { where, key: "type" });
      if (!path || !typeEntry) return undefined;
      at("path", opEntry.value, node);
      const constraints = entries!.filter((e) => e.key !== op && e.key !== "type" && e.key !== "description");
      const type = parser.build(typeEntry.value, constraints, node);
      return type && { op, path, type, loc, locs };
    }
    case "constrain": {
      const entries = r.entries(node, where, [op, "description", ...REPLACEABLE_CONSTRAINTS]);
      const opEntry = entries?.find((e) => e.key === op);
      const path = opEntry && parsePathValue(r, opEntry.value, where);
      if (!path || !entries) return undefined;
      at("path", opEntry!.value, node);
      const given = entries.filter((e) => REPLACEABLE_CONSTRAINTS.includes(e.key));
      const cleared = given.filter((e) => isScalar(e.value) && e.value.value === null);
      const constraints: Record<string, string | number | boolean | null> = {};
      for (const e of cleared) constraints[e.key] = null;
      const kind = given.some((e) => ["min", "max", "exclusiveMin", "exclusiveMax", "multipleOf"].includes(e.key)) ? "number" : "string";
      Object.assign(constraints, parser.readConstraints(kind, new Map(given.filter((e) => !cleared.includes(e)).map((e) => [e.key, e]))));
      return { op, path, constraints, loc, locs };
    }
    case "enum": {
      const keys = withKeys(["add", "remove", "map", "fallback"]);
      if (!keys) return undefined;
      const name = r.string(keys.get(op)!.value, where);
      if (name === undefined) return undefined;
      at("name", keys.get(op)!.value, node);
      const add = keys.has("add") ? parseEnumValues(r, keys.get("add")!.value, name) : [];
      for (const value of add) locs[`add.${value.name}`] = value.loc;
      if (keys.has("remove")) at("remove", keys.get("remove")!.keyNode, node);
      const removeSeq = keys.has("remove") ? r.seq(keys.get("remove")!.value, "'remove' of an enum change") : undefined;
      const remove = (removeSeq?.items ?? []).flatMap((item) => {
        const value = r.string(item as Node, "an enum value");
        if (value !== undefined) at(`remove.${value}`, item as Node, node);
        return value === undefined ? [] : [value];
      });
      const map: Record<string, string> = {};
      for (const entry of keys.has("map") ? (r.entries(keys.get("map")!.value, "'map' of an enum change") ?? []) : []) {
        const to = r.string(entry.value, `'map' of ${entry.key}`);
        if (to === undefined) continue;
        map[entry.key] = to;
        at(`map.${entry.key}`, entry.keyNode, node);
        at(`map.${entry.key}.to`, entry.value, entry.keyNode);
      }
      const fallback = keys.has("fallback") ? r.string(keys.get("fallback")!.value, "'fallback'") : undefined;
      if (fallback !== undefined) at("fallback", keys.get("fallback")!.value, node);
      return fallback === undefined ? { op, name, add, remove, map, loc, locs } : { op, name, add, remove, map, fallback, loc, locs };
    }
    case "custom": {
      const keys = withKeys([]);
      const description = keys && r.string(keys.get(op)!.value, "a custom change");
      return description === undefined ? undefined : { op, description, loc, locs };
    }
  }
  return undefined;
};

/** One entry of `rules:` (`before`, `exclusive`, `requires`); undefined (reported) when it cannot be read. */
export const parseRule = (r: Reader, item: Node): Rule | undefined => {
  const entries = r.entries(item, "a rule", ["before", "exclusive", "requires", "description"]);
  if (!entries) return undefined;
  const loc = r.loc(item);
  const kinds = entries.filter((e) => e.key !== "description");
  if (kinds.length !== 1) {
    r.report("invalid-value", item, { where: "a rule", expected: "one of before, exclusive, requires" });
    return undefined;
  }
  const { key, value } = kinds[0]!;
  // Where each path stands (`paths.<i>`), so that a rule naming no field points at that name.
  const locs: Record<string, SourceLocation> = {};
  const located = (n: Node | null, at: number, where: string): string | undefined => {
    locs[`paths.${at}`] = r.loc(n, item);
    return parsePathValue(r, n, where);
  };
  const paths = (n: Node | null, where: string, from = 0): string[] | undefined => {
    const seq = r.seq(n, where);
    if (!seq) return undefined;
    const out = seq.items.map((i, at) => located(i as Node, from + at, where));
    return out.every((p) => p !== undefined) ? (out as string[]) : undefined;
  };
  if (key === "before") {
    const fields = paths(value, "before");
    if (fields && fields.length !== 2) r.report("invalid-value", value, { where: "before", expected: "a list of two fields [earlier, later]" });
    else if (fields) return { kind: "before", first: fields[0]!, second: fields[1]!, loc, locs };
  } else if (key === "exclusive") {
    const fields = paths(value, "exclusive");
    if (fields && fields.length < 2) r.report("invalid-value", value, { where: "exclusive", expected: "a list of at least two fields" });
    else if (fields) return { kind: "exclusive", fields, loc, locs };
  } else {
    const body = byKey(r.entries(value, "requires", ["if", "then"]) ?? []);
    for (const k of ["if", "then"]) if (!body.has(k) && isMap(value)) r.report("missing-key", value, { where: "requires", key: k });
    const ifPath = body.get("if") && located(body.get("if")!.value, 0, "requires' 'if'");
    const thenNode = body.get("then")?.value ?? null;
    const then = isScalar(thenNode) ? [located(thenNode, 1, "requires' 'then'")] : (paths(thenNode, "requires' 'then'", 1) ?? [undefined]);
    if (ifPath && then.every((p) => p !== undefined)) return { kind: "requires", if: ifPath, then: then as string[], loc, locs };
  }
  return undefined;
};

const parseRules = (r: Reader, node: Node | null): Rule[] =>
  (r.seq(node, "rules")?.items ?? []).flatMap((item) => parseRule(r, item as Node) ?? []);

/** Where each scalar under `node` stands, by JSON pointer after `prefix`: what a finding in an example's value names. */
const scalarLocs = (r: Reader, node: Node | null, prefix: string, out: Record<string, SourceLocation> = {}): Record<string, SourceLocation> => {
  if (isScalar(node)) out[prefix] = r.loc(node);
  else if (isSeq(node)) node.items.forEach((item, i) => scalarLocs(r, item as Node, `${prefix}/${i}`, out));
  else if (isMap(node)) {
    for (const pair of node.items) if (isScalar(pair.key)) scalarLocs(r, pair.value as Node, `${prefix}/${escapePointer(String(pair.key.value))}`, out);
  }
  return out;
};

const parseExamples = (r: Reader, node: Node | null, versions: readonly string[], contract: string): Example[] => {
  const examples: Example[] = [];
  for (const item of r.seq(node, "examples")?.items ?? []) {
    const keys = byKey(r.entries(item as Node, "an example", ["version", "valid", "invalid", "expect", "description"]) ?? []);
    const loc = r.loc(item as Node);
    const versionEntry = keys.get("version");
    if (!versionEntry) {
      if (isMap(item)) r.report("missing-key", item as Node, { where: "an example", key: "version" });
      continue;
    }
    const version = sourceText(versionEntry.value);
    if (version === undefined || !versions.includes(version)) {
      r.report("unknown-version", versionEntry.value, { version: version ?? "", contract, suggestion: didYouMean(version ?? "", versions) });
      continue;
    }
    const valid = keys.get("valid");
    const invalid = keys.get("invalid");
    const descriptionEntry = keys.get("description");
    const description = descriptionEntry && r.string(descriptionEntry.value, "an example's description");
    const described = description === undefined ? {} : { description };
    if ((valid === undefined) === (invalid === undefined)) {
      r.report("invalid-example", item as Node);
      continue;
    }
    if (valid) {
      examples.push({ version, valid: true, value: r.json(valid.value), ...described, loc, locs: scalarLocs(r, valid.value, "value") });
      continue;
    }
    const expectEntry = keys.get("expect");
    if (!expectEntry) {
      r.report("example-expect-missing", item as Node);
      continue;
    }
    const expect = byKey(r.entries(expectEntry.value, "expect", ["path", "code"]) ?? []);
    for (const k of ["path", "code"]) if (!expect.has(k) && isMap(expectEntry.value)) r.report("missing-key", expectEntry.value, { where: "expect", key: k });
    const path = expect.get("path") && r.string(expect.get("path")!.value, "expect's path");
    const code = expect.get("code") && r.string(expect.get("code")!.value, "expect's code");
    if (path !== undefined && path !== "" && !path.startsWith("/")) {
      r.report("invalid-value", expect.get("path")!.value, { where: "expect's path", expected: "a JSON pointer (\"\" or starting with /)" });
      continue;
    }
    if (path !== undefined && code !== undefined) {
      examples.push({ version, valid: false, value: r.json(invalid!.value), expect: { path, code }, ...described, loc, locs: scalarLocs(r, invalid!.value, "value") });
    }
  }
  return examples;
};

/** `llm: { providers: [openai, mcp] }`: the providers the contract projects to, in the order listed; else `defaults`. */
const parseLlm = (r: Reader, node: Node | null, defaults: Contract["llm"]): Contract["llm"] => {
  const keys = byKey(r.entries(node, "llm", ["providers"]) ?? []);
  const providers: LlmProvider[] = [];
  const entry = keys.get("providers");
  for (const item of (entry && r.seq(entry.value, "llm's providers")?.items) ?? []) {
    const provider = r.oneOf(item as Node, "a provider", LLM_PROVIDERS);
    if (provider !== undefined && !providers.includes(provider)) providers.push(provider);
  }
  return entry ? { providers } : defaults;
};

/** Resolves one parsed file. Returns undefined when the file is too broken to name a contract. */
export const resolveContract = (file: SourceFile, llm: Contract["llm"]): { contract: Contract | undefined; reader: Reader } => {
  const r = createReader(file);
  const rootNode = file.doc.contents as Node | null;
  const entries = r.entries(rootNode, "a contract", TOP_KEYS);
  if (!entries) return { contract: undefined, reader: r };
  const top = byKey(entries);
  const text = (key: string): string | undefined => (top.has(key) ? r.string(top.get(key)!.value, `'${key}'`) : undefined);

  for (const key of ["contract", "versions"]) if (!top.has(key)) r.report("missing-key", rootNode, { where: "a contract", key });
  const name = text("contract");
  if (name !== undefined && !CONTRACT_NAME.test(name)) {
    r.report("invalid-name", top.get("contract")!.value, { what: "contract name", name, rule: CONTRACT_NAME_RULE });
  } else if (name !== undefined && RESERVED_CONTRACT_NAMES.has(name)) {
    r.report("reserved-name", top.get("contract")!.value, { what: "contract", name, output: `directory ${name}/`, why: RESERVED_CONTRACT_NAMES.get(name)! });
  } else if (name !== undefined) checkNameLength(r, top.get("contract")!.value, "contract name", name);
  const kind = top.has("kind") ? r.oneOf(top.get("kind")!.value, "'kind'", CONTRACT_KINDS) : undefined;
  const effect = top.has("effect") ? r.oneOf(top.get("effect")!.value, "'effect'", COMMAND_EFFECTS) : undefined;
  if (effect !== undefined && kind !== "command") r.report("effect-not-command", top.get("effect")!.keyNode, { kind: kind ?? "not set" });
  const unknownFields = top.has("unknown_fields") ? r.oneOf(top.get("unknown_fields")!.value, "'unknown_fields'", UNKNOWN_FIELDS) : "reject";
  const compatibility = top.has("compatibility") ? r.oneOf(top.get("compatibility")!.value, "'compatibility'", COMPATIBILITY_LEVELS) : "backward";
  const envelope = top.has("envelope") ? r.oneOf(top.get("envelope")!.value, "'envelope'", ["embedded", "none"] as const) : "embedded";

  const enums = top.has("enums") ? parseEnums(r, top.get("enums")!.value) : new Map<string, EnumDef>();
  const typeEntries = top.has("types") ? (r.entries(top.get("types")!.value, "types") ?? []) : [];
  const validTypeEntries = typeEntries.filter((e) => {
    if (TYPE_NAME.test(e.key)) return true;
    r.report("invalid-name", e.keyNode, { what: "type name", name: e.key, rule: String(TYPE_NAME) });
    return false;
  });
  for (const e of validTypeEntries) if (enums.has(e.key)) r.report("invalid-name", e.keyNode, { what: "type name", name: e.key, rule: "a name no enum uses" });
  const parser = createTypeParser(r, { enums: new Set(enums.keys()), types: new Set(validTypeEntries.map((e) => e.key)) });
  const types = parseTypes(r, validTypeEntries, parser);

  const versions: ResolvedVersion[] = [];
  const declared: string[] = [];
  const versionEntries = top.has("versions") ? (r.entries(top.get("versions")!.value, "versions") ?? []) : [];
  if (top.has("versions") && versionEntries.length === 0 && isMap(top.get("versions")!.value)) {
    r.report("missing-key", top.get("versions")!.keyNode, { where: "versions", key: "a first version" });
  }
  for (const entry of versionEntries) {
    const version = entry.key;
    const match = VERSION.exec(version);
    if (!match) {
      r.report("bad-version-key", entry.keyNode, { version });
      continue;
    }
    const [major, minor] = [match[1]!, match[2]!]; // no leading zeros: the longer is the larger
    const largest = major.length > minor.length || (major.length === minor.length && major > minor) ? major : minor;
    if (Number(largest) > IDL_LIMITS.versionNumber) {
      r.report("limit-exceeded", entry.keyNode, { what: `the MAJOR or MINOR of version ${version}`, actual: largest, max: IDL_LIMITS.versionNumber });
      continue;
    }
    if (declared.includes(version)) {
      r.report("duplicate-version", entry.keyNode, { version });
      continue;
    }
    const previous = declared[declared.length - 1];
    if (previous !== undefined && compareVersions(version, previous) < 0) {
      r.report("versions-out-of-order", entry.keyNode, { version, previous });
    }
    declared.push(version);
    const keys = byKey(r.entries(entry.value, `version ${version}`, VERSION_KEYS) ?? []);
    const loc = r.loc(entry.keyNode);
    const status = keys.has("status") ? (r.oneOf(keys.get("status")!.value, "'status'", ["published", "draft"] as const) ?? "published") : "published";
    const fieldsEntry = keys.get("fields");
    const changesEntry = keys.get("changes");
    const fromEntry = keys.get("from");
    const rules = keys.has("rules") ? parseRules(r, keys.get("rules")!.value) : [];
    if (fieldsEntry && changesEntry) {
      r.report("fields-and-changes", entry.keyNode, { version });
      continue;
    }
    const base = { version, major: Number(match[1]), minor: Number(match[2]), status, types, examples: [] as Example[], loc };
    if (fieldsEntry) {
      const fields = parser.parseFields(fieldsEntry.value, `fields of ${version}`);
      if (fields) versions.push({ ...base, fields, enums, rules, changes: [] });
      continue;
    }
    if (!changesEntry) {
      if (isMap(entry.value) || entry.value === null) r.report("missing-key", entry.keyNode, { where: `version ${version}`, key: "fields' or 'changes" });
      continue;
    }
    if (versions.length === 0 && declared.length === 1) {
      r.report("first-version-changes", entry.keyNode, { version });
      continue;
    }
    const fromText = fromEntry ? sourceText(fromEntry.value) : undefined;
    const start = fromText === undefined ? versions[versions.length - 1] : versions.find((v) => v.version === fromText);
    if (fromText !== undefined && (!start || compareVersions(fromText, version) >= 0)) {
      r.report("unknown-version", fromEntry!.value, { version: fromText, contract: name ?? "", suggestion: didYouMean(fromText, versions.map((v) => v.version)) });
      continue;
    }
    if (!start) continue; // the version it builds on did not resolve; that was reported
    const changes: Change[] = [];
    let model: VersionModel | undefined = { fields: start.fields, enums: start.enums };
    for (const item of r.seq(changesEntry.value, `changes of ${version}`)?.items ?? []) {
      const change = parseChange(r, item as Node, parser);
      if (!change) {
        model = undefined;
        continue;
      }
      changes.push(change);
      if (model) model = applyChange((code, params, at) => r.reportAt(code, at === undefined ? change.loc : locAt(change, at), params), version, model, change);
    }
    if (model) {
      versions.push({ ...base, fields: model.fields, enums: model.enums, rules: carryRules(start.rules, changes, rules), from: start.version, changes });
    }
  }

  const known = versions.map((v) => v.version);
  const examples = top.has("examples") ? parseExamples(r, top.get("examples")!.value, declared, name ?? "") : [];
  const withExamples = versions.map((v) => ({ ...v, examples: examples.filter((e) => e.version === v.version) }));
  const newest = known[known.length - 1];
  let canonical = newest ?? "";
  if (top.has("canonical")) {
    const pinned = sourceText(top.get("canonical")!.value);
    if (pinned === undefined || !declared.includes(pinned)) {
      r.report("unknown-version", top.get("canonical")!.value, { version: pinned ?? "", contract: name ?? "", suggestion: didYouMean(pinned ?? "", declared) });
    } else canonical = pinned;
  }
  if (name === undefined || !unknownFields || !compatibility || !envelope) return { contract: undefined, reader: r };
  const contract: { -readonly [K in keyof Contract]: Contract[K] } = {
    name,
    file: file.path,
    unknownFields,
    compatibility,
    envelope,
    canonical,
    llm: top.has("llm") ? parseLlm(r, top.get("llm")!.value, llm) : llm,
    versions: withExamples,
    loc: r.loc(top.get("contract")!.keyNode),
  };
  const summary = text("summary");
  const description = text("description");
  const owner = text("owner");
  if (summary !== undefined) contract.summary = summary;
  if (description !== undefined) contract.description = description;
  if (owner !== undefined) contract.owner = owner;
  if (kind !== undefined) contract.kind = kind;
  if (effect !== undefined && kind === "command") contract.effect = effect;
  if (top.has("lint")) contract.lintIgnore = r.lintIgnores(top.get("lint")!.value);
  if (top.has("unknown_fields")) contract.locs = { unknown_fields: r.loc(top.get("unknown_fields")!.value, top.get("unknown_fields")!.keyNode) };
  return { contract, reader: r };
};
