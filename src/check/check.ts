// Checks that need the whole resolved project: names across files, references between contracts,
// recursion, rules and defaults against the fields they name.
import { basename } from "node:path";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { locAt, type Contract, type Field, type JsonValue, type Project, type ResolvedVersion, type Rule, type TypeNode } from "../ir/model.js";
import { contractTypeName } from "../ir/names.js";
import { unaddressableAt } from "../resolve/changes.js";
import { cycleThrough, infiniteCycles, recursiveTypes, recursiveVariants } from "../ir/recursion.js";
import { IDL_LIMITS } from "../resolve/limits.js";
import { jsonFault } from "../runtime/json-value.js";
import { bumpRules } from "./bump-rules.js";
import { findUnionOverlaps } from "./union-overlap.js";

export { cycleThrough };

/** The type a dotted path leads to at `version`, walking inline objects and named types. */
const fieldAtPath = (version: ResolvedVersion, path: string): Field | undefined => {
  let fields: readonly Field[] = version.fields;
  let found: Field | undefined;
  for (const name of path.split(".")) {
    found = fields.find((f) => f.name === name);
    if (!found) return undefined;
    const type = found.type;
    fields = type.kind === "object" ? type.fields : type.kind === "named" ? (version.types.get(type.name)?.fields ?? []) : [];
  }
  return found;
};

const isTimeLike = (type: TypeNode): boolean =>
  type.kind === "timestamp" || (type.kind === "string" && (type.format === "date-time" || type.format === "date"));

/** Why `value` does not fit `type` (its JSON shape and enum membership), or undefined when it fits. */
export const mismatch = (value: JsonValue, type: TypeNode, version: ResolvedVersion): string | undefined => {
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  switch (type.kind) {
    case "string":
    case "timestamp":
    case "ref":
      return typeof value === "string" ? undefined : "expected a string";
    case "int":
      return Number.isInteger(value) ? undefined : "expected an integer";
    case "number":
      return typeof value === "number" ? undefined : "expected a number";
    case "bool":
      return typeof value === "boolean" ? undefined : "expected true or false";
    case "const":
      return value === type.value ? undefined : `expected ${JSON.stringify(type.value)}`;
    case "enum": {
      const values = version.enums.get(type.name)?.values.map((v) => v.name) ?? [];
      return typeof value === "string" && values.includes(value) ? undefined : `expected one of ${values.join(", ")}`;
    }
    case "list":
      if (!Array.isArray(value)) return "expected a list";
      for (const item of value) {
        const problem = mismatch(item, type.of, version);
        if (problem) return problem;
      }
      return undefined;
    case "map":
      if (!isObject) return "expected a mapping";
      for (const item of Object.values(value)) {
        const problem = mismatch(item, type.of, version);
        if (problem) return problem;
      }
      return undefined;
    case "json":
      return jsonFault(value, type.maxDepth, type.maxBytes) === undefined ? undefined : "expected a JSON value within its maxDepth and maxBytes";
    case "tuple":
      if (!Array.isArray(value) || value.length !== type.items.length) return `expected a list of ${type.items.length} items`;
      for (const [i, item] of type.items.entries()) {
        const problem = mismatch(value[i]!, item, version);
        if (problem) return problem;
      }
      return undefined;
    case "object":
    case "named": {
      if (!isObject) return "expected a mapping";
      const fields = type.kind === "object" ? type.fields : (version.types.get(type.name)?.fields ?? []);
      for (const field of fields) {
        const item = value[field.name];
        if (item === undefined) {
          if (!field.optional) return `missing '${field.name}'`;
          continue;
        }
        if (item === null && field.nullable !== undefined) continue;
        const problem = mismatch(item, field.type, version);
        if (problem) return `${field.name}: ${problem}`;
      }
      return undefined;
    }
    case "oneOf":
      return type.variants.some((v) => mismatch(value, v.type, version) === undefined) ? undefined : "expected a value of one of the union's variants";
    case "union":
    case "contract":
      return isObject ? undefined : "expected a mapping";
  }
};

/** Every field of a fields list, nested ones included, with its dotted path. */
const walkFields = function* (fields: readonly Field[], prefix = ""): Generator<[string, Field, readonly Field[]]> {
  for (const field of fields) {
    const path = prefix + field.name;
    yield [path, field, fields];
    for (const object of inlineObjects(field.type)) yield* walkFields(object.fields, `${path}.`);
  }
};

/** The inline objects a field's type holds: itself, or through lists, maps, tuples and union variants. */
const inlineObjects = function* (type: TypeNode): Generator<Extract<TypeNode, { kind: "object" }>> {
  switch (type.kind) {
    case "object":
      yield type;
      break;
    case "list":
    case "map":
      yield* inlineObjects(type.of);
      break;
    case "tuple":
      for (const item of type.items) yield* inlineObjects(item);
      break;
    case "union":
    case "oneOf":
      for (const variant of type.variants) yield* inlineObjects(variant.type);
      break;
    default:
  }
};

/** Named types that reach themselves through required fields only: no finite value of them exists. */
const findRecursion = (version: ResolvedVersion): Diagnostic[] => [
  ...[...infiniteCycles(version)].map(([name, { cycle }]) => createDiagnostic("recursive-type", version.types.get(name)!.loc, { name, path: cycle.join(" → ") })),
  ...recursiveVariants(version).map((v) => createDiagnostic("recursive-variant", v.loc, { name: v.type.kind === "named" ? v.type.name : "", value: v.value })),
  ...notRecursiveWithMaxDepth(version),
];

/** `maxDepth:` bounds how deep a recursive type nests in itself; on any other type it would do nothing. */
const notRecursiveWithMaxDepth = (version: ResolvedVersion): Diagnostic[] => {
  const recursive = recursiveTypes(version);
  return [...version.types.values()]
    .filter((t) => t.maxDepth !== undefined && !recursive.has(t.name))
    .map((t) => createDiagnostic("max-depth-not-recursive", locAt(t, "maxDepth"), { name: t.name }));
};

/**
 * Rules against the fields they name at `version`: a contract's own rules, or an agent's on its input.
 * `label` names the version in messages: an agent's names its input contract too, as its other checks do.
 */
export const checkRules = (version: ResolvedVersion, rules: readonly Rule[], label = version.version): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  for (const rule of rules) {
    const paths = rule.kind === "before" ? [rule.first, rule.second] : rule.kind === "exclusive" ? rule.fields : [rule.if, ...rule.then];
    for (const [at, path] of paths.entries()) {
      const loc = locAt(rule, `paths.${at}`);
      const field = fieldAtPath(version, path);
      const unaddressable = field ? undefined : unaddressableAt(version.fields, path);
      if (unaddressable !== undefined) {
        diagnostics.push(createDiagnostic("unaddressable-field", loc, { path, name: unaddressable }));
      } else if (!field) {
        const siblings = fieldAtPath(version, path.split(".").slice(0, -1).join("."));
        const names = path.includes(".") ? (siblings?.type.kind === "object" ? siblings.type.fields.map((f) => f.name) : []) : version.fields.map((f) => f.name);
        diagnostics.push(createDiagnostic("unknown-field", loc, { path, version: label, suggestion: didYouMean(path.split(".").pop()!, names) }));
      } else if (rule.kind === "before" && !isTimeLike(field.type)) {
        diagnostics.push(createDiagnostic("rule-type-mismatch", loc, { rule: "before", path, expected: "a timestamp or a date string" }));
      }
    }
  }
  return diagnostics;
};

const checkVersion = (project: Project, contract: Contract, version: ResolvedVersion): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  const fieldSets = [
    ...walkFields(version.fields),
    ...[...version.types.values()].flatMap((t) => [...walkFields(t.fields, `${t.name}.`)]),
  ];
  for (const [, field, siblings] of fieldSets) {
    if (field.default !== undefined) {
      const problem = mismatch(field.default, field.type, version);
      if (problem && !(field.default === null && field.nullable !== undefined)) {
        diagnostics.push(createDiagnostic("default-type-mismatch", locAt(field, "default"), { field: field.name, detail: problem }));
      }
    }
    if (field.deprecated?.use !== undefined && !siblings.some((f) => f.name === field.deprecated!.use)) {
      diagnostics.push(
        createDiagnostic("unknown-field", locAt(field, "deprecated.use"), {
          path: field.deprecated.use,
          version: version.version,
          suggestion: didYouMean(field.deprecated.use, siblings.map((f) => f.name)),
        }),
      );
    }
    const refs: TypeNode[] = [field.type];
    while (refs.length > 0) {
      const type = refs.pop()!;
      if (type.kind === "list" || type.kind === "map") refs.push(type.of);
      if (type.kind === "oneOf") refs.push(...type.variants.map((v) => v.type));
      if (type.kind === "tuple") refs.push(...type.items);
      if (type.kind !== "contract") continue;
      const target = project.contracts.find((c) => c.name === type.contract);
      // At the reference itself (in a list's `of`, a variant...), else at the field's type.
      const at = locAt(field, `ref.${type.contract}@${type.major}`);
      const loc = at === field.loc ? locAt(field, "type") : at;
      if (!target) {
        diagnostics.push(createDiagnostic("unknown-contract", loc, { name: type.contract, suggestion: didYouMean(type.contract, project.contracts.map((c) => c.name)) }));
      } else if (!target.versions.some((v) => v.major === type.major)) {
        diagnostics.push(createDiagnostic("unknown-version", loc, { version: `${type.major}.x`, contract: type.contract, suggestion: "" }));
      }
    }
  }
  if (contract.envelope === "embedded") {
    for (const field of version.fields) {
      if (field.name === "contract" || field.name === "version") diagnostics.push(createDiagnostic("reserved-field", field.loc, { field: field.name }));
    }
  }
  diagnostics.push(...checkRules(version, version.rules), ...findUnionOverlaps(contract, version));
  return [...diagnostics, ...findRecursion(version)];
};

/** The contracts each contract's fields reference (`other@N`), at any version. */
export const contractRefs = (contract: Contract): string[] => {
  const names = new Set<string>();
  const visit = (type: TypeNode): void => {
    if (type.kind === "contract") names.add(type.contract);
    else if (type.kind === "list" || type.kind === "map") visit(type.of);
    else if (type.kind === "tuple") type.items.forEach(visit);
    else if (type.kind === "object") type.fields.forEach((f) => visit(f.type));
    else if (type.kind === "union" || type.kind === "oneOf") type.variants.forEach((v) => visit(v.type));
  };
  for (const version of contract.versions) {
    version.fields.forEach((f) => visit(f.type));
    for (const named of version.types.values()) named.fields.forEach((f) => visit(f.type));
  }
  return [...names].sort();
};

/** Contracts that reach themselves through contract references: their generated modules would import each other in a cycle. */
const findContractCycles = (project: Project): Diagnostic[] => {
  const refs = new Map(project.contracts.map((c) => [c.name, contractRefs(c)]));
  const diagnostics: Diagnostic[] = [];
  for (const contract of project.contracts) {
    const cycle = cycleThrough(contract.name, (name) => refs.get(name) ?? []);
    if (cycle) diagnostics.push(createDiagnostic("recursive-contract", contract.loc, { name: contract.name, path: cycle.join(" → ") }));
  }
  return diagnostics;
};

/** How a type measures written out: its containers from here to its deepest leaf, and its nodes. */
interface Extent {
  readonly depth: number;
  readonly size: number;
}

const LEAF: Extent = { depth: 0, size: 1 };

/** `parts` side by side, inside a container of their own. */
const enclose = (parts: readonly Extent[]): Extent => ({
  depth: 1 + parts.reduce((deepest, p) => Math.max(deepest, p.depth), 0),
  size: 1 + parts.reduce((sum, p) => sum + p.size, 0),
});

/**
 * Fields nested deeper, and versions larger, than the IDL allows once named types and contract
 * references are expanded, as emitters print them (resolve bounds each type as written): a named
 * type used twice by the next, down a chain of them, doubles per level, and projections and
 * generated tests would take exponential time on it. Each named type and contract major is measured
 * once, so this is linear in the project.
 */
const findTooLarge = (project: Project): Diagnostic[] => {
  const byName = new Map(project.contracts.map((c) => [c.name, c]));
  const majors = new Map<string, Extent>();
  const fieldsExtent = (fields: readonly Field[], version: ResolvedVersion, named: Map<string, Extent>): Extent =>
    enclose(fields.map((f) => extentOf(f.type, version, named)));
  const extentOf = (type: TypeNode, version: ResolvedVersion, named: Map<string, Extent>): Extent => {
    switch (type.kind) {
      case "list":
      case "map":
        return enclose([extentOf(type.of, version, named)]);
      case "tuple":
        return enclose(type.items.map((item) => extentOf(item, version, named)));
      case "object":
        return fieldsExtent(type.fields, version, named);
      case "union":
      case "oneOf":
        return enclose(type.variants.map((v) => extentOf(v.type, version, named)));
      case "named": {
        const known = named.get(type.name);
        if (known !== undefined) return known;
        named.set(type.name, LEAF); // a recursive type is measured once round: how deep it nests is its maxDepth
        const extent = fieldsExtent(version.types.get(type.name)?.fields ?? [], version, named);
        named.set(type.name, extent);
        return extent;
      }
      case "contract": {
        const key = `${type.contract}@${type.major}`;
        const known = majors.get(key);
        if (known !== undefined) return known;
        majors.set(key, LEAF);
        const versions = byName.get(type.contract)?.versions.filter((v) => v.major === type.major) ?? [];
        const extent = enclose(versions.map((v) => fieldsExtent(v.fields, v, new Map())));
        majors.set(key, extent);
        return extent;
      }
      default:
        return LEAF;
    }
  };
  const diagnostics: Diagnostic[] = [];
  for (const contract of project.contracts) {
    for (const version of contract.versions) {
      const named = new Map<string, Extent>();
      let size = 0;
      for (const field of version.fields) {
        const extent = extentOf(field.type, version, named);
        if (extent.depth > IDL_LIMITS.depth) {
          diagnostics.push(
            createDiagnostic("limit-exceeded", field.loc, {
              what: `the nesting of '${field.name}' with its named types and contracts expanded`,
              actual: `${extent.depth} levels`,
              max: `${IDL_LIMITS.depth} levels`,
            }),
          );
        }
        // Reported once, at the field that crosses it.
        if (size <= IDL_LIMITS.expandedSize && size + extent.size > IDL_LIMITS.expandedSize) {
          diagnostics.push(
            createDiagnostic("limit-exceeded", field.loc, {
              what: `the size of version ${version.version} up to '${field.name}', in types with its named types and contracts expanded`,
              actual: extent.size > Number.MAX_SAFE_INTEGER ? "more than 2^53" : `${(size + extent.size).toLocaleString("en-US")}`,
              max: IDL_LIMITS.expandedSize.toLocaleString("en-US"),
            }),
          );
        }
        size += extent.size;
      }
    }
  }
  return diagnostics;
};

export const check = (project: Project): StageResult<Project> => {
  const diagnostics: Diagnostic[] = [...findContractCycles(project), ...findTooLarge(project)];
  const byName = new Map<string, Contract>();
  const byTypeName = new Map<string, Contract>();
  for (const contract of project.contracts) {
    const typeName = contractTypeName(contract.name);
    const clash = byTypeName.get(typeName);
    if (clash && clash.name !== contract.name) {
      diagnostics.push(createDiagnostic("name-collision", contract.loc, { name: contract.name, other: clash.name, typeName }));
    }
    byTypeName.set(typeName, contract);
    const other = byName.get(contract.name);
    if (other) diagnostics.push(createDiagnostic("duplicate-contract", contract.loc, { name: contract.name, other: other.file }));
    else byName.set(contract.name, contract);
    const fileName = basename(contract.file).replace(/\.ya?ml$/, "");
    if (fileName !== contract.name) {
      diagnostics.push(createDiagnostic("file-name-mismatch", contract.loc, { name: contract.name, file: contract.file, expected: `${contract.name}.yaml` }));
    }
    for (const version of contract.versions) diagnostics.push(...checkVersion(project, contract, version));
    diagnostics.push(...bumpRules(contract));
  }
  // Named types are shared by every version, so their findings repeat; report each once.
  const unique = new Map<string, Diagnostic>();
  for (const d of diagnostics) unique.set(`${d.code}|${d.loc?.file}|${d.loc?.line}|${d.loc?.col}|${d.message}`, d);
  return { value: project, diagnostics: [...unique.values()] };
};
