// `treaty import`: a JSON Schema or OpenAPI document → contract files in the IDL. Read the source,
// choose the roots (the document's root, the definitions named, or every object definition),
// convert each into a contract with the types it reaches, render it as YAML.
import { existsSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { createDiagnostic, hasErrors, sortDiagnostics, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { check } from "../check/check.js";
import { parseSources } from "../load/load.js";
import type { LlmProvider, Project } from "../ir/model.js";
import { infiniteCycles, type InfiniteType } from "../ir/recursion.js";
import { projectVersion } from "../project/project.js";
import { resolve } from "../resolve/resolve.js";
import { convert, snakeCase, type IdlField, type IdlType, type ImportedContract, type ImportRoot } from "./convert.js";
import { renderContract } from "./render.js";
import { isSchemaObject, readSchemaSource, rootSchema, type SchemaSource } from "./source.js";

export interface ImportOptions {
  /** The project root: diagnostics and headers name files relative to it. */
  readonly root: string;
  /** The source document, absolute. */
  readonly file: string;
  readonly text: string;
  /** Where the contract files go, absolute. */
  readonly outDir: string;
  /** Definitions to import, each its own contract; default: the root, or every object definition. */
  readonly defs?: readonly string[];
  /** The contract's name (one root), or the prefix of each definition's contract (several). Default: the out directory's name as the prefix, and the source file's name after it for a root. */
  readonly contract?: string;
  /** The IDL's editor schema, relative to `outDir`, for the files' first line. */
  readonly schemaPath?: string;
}

export interface ImportedFile {
  /** Absolute. */
  readonly path: string;
  readonly contract: string;
  readonly text: string;
  /** Nothing it reaches was reported: its validator accepts exactly what the source schema does. */
  readonly exact: boolean;
  /** Its root in the source. */
  readonly pointer: string;
}

/** `field` without the defaults it or any object inside it gives. */
const fieldWithoutDefaults = (field: IdlField): IdlField => {
  if (typeof field === "string") return field;
  const { default: _dropped, ...rest } = field;
  const out: Record<string, unknown> = { ...rest };
  for (const key of ["of", "values", "additional"]) if (rest[key] !== undefined) out[key] = fieldWithoutDefaults(rest[key] as IdlField);
  if (Array.isArray(rest["variants"])) out["variants"] = (rest["variants"] as IdlField[]).map(fieldWithoutDefaults);
  if (rest["fields"] !== undefined) out["fields"] = fieldsWithoutDefaults(rest["fields"] as Record<string, IdlField>);
  return out as IdlType;
};
const fieldsWithoutDefaults = (fields: Record<string, IdlField>): Record<string, IdlField> => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, fieldWithoutDefaults(f)]));
const withoutDefaults = (contract: ImportedContract): ImportedContract => ({
  ...contract,
  fields: fieldsWithoutDefaults(contract.fields),
  types: new Map([...contract.types].map(([name, type]) => [name, { ...type, fields: fieldsWithoutDefaults(type.fields) }])),
});

/** `field` written optional: a bare type name becomes `{ type: Name, optional: true }`. */
const optionalField = (field: IdlField): IdlField => (typeof field === "string" ? { type: field, optional: true } : { ...field, optional: true });

/**
 * The named types of each contract of `project` that only an infinite value fills (a JSON Schema
 * may require a property of its own type; no finite value satisfies it, and check refuses the
 * type), each with its cycle and the fields that make it so.
 */
const unendingTypes = (project: Project): Map<string, Map<string, InfiniteType>> => {
  const byContract = new Map<string, Map<string, InfiniteType>>();
  for (const contract of project.contracts) {
    const types = new Map<string, InfiniteType>();
    for (const version of contract.versions) {
      for (const [name, infinite] of infiniteCycles(version)) if (!types.has(name)) types.set(name, infinite);
    }
    if (types.size > 0) byContract.set(contract.name, types);
  }
  return byContract;
};

/** `contract` with the fields of `unending` (by type) written optional. */
const withOptionalFields = (contract: ImportedContract, unending: ReadonlyMap<string, { readonly fields: readonly string[] }>): ImportedContract => ({
  ...contract,
  types: new Map(
    [...contract.types].map(([name, type]) => {
      const fields = unending.get(name)?.fields ?? [];
      return [name, fields.length === 0 ? type : { ...type, fields: Object.fromEntries(Object.entries(type.fields).map(([f, field]) => [f, fields.includes(f) ? optionalField(field) : field])) }];
    }),
  ),
});

const display = (root: string, path: string): string => relative(root, path).split(sep).join("/");

/** `idl/mcp` → `mcp`: a contract name segment from a directory or file name. */
const segment = (name: string): string => snakeCase(name.replace(/\.(json|ya?ml)$/i, ""));

const isObjectDefinition = (schema: unknown): boolean =>
  isSchemaObject(schema) && (schema["type"] === "object" || (schema["type"] === undefined && (schema["properties"] !== undefined || schema["allOf"] !== undefined)));

/**
 * Roots whose contracts would have one name (`FooBar` and `foo-bar` are both `foo_bar`): each
 * after the first is an error at its definition, naming the first. Renaming one (`foo_bar2`) would
 * import a contract under a name nobody chose, and which it gets would turn on the source's order.
 */
const nameClashes = (source: SchemaSource, roots: readonly ImportRoot[]): Diagnostic[] => {
  const first = new Map<string, ImportRoot>();
  const diagnostics: Diagnostic[] = [];
  for (const root of roots) {
    const earlier = first.get(root.name);
    if (earlier) diagnostics.push(createDiagnostic("import-name-clash", source.locate(root.pointer), { first: earlier.pointer, second: root.pointer, name: root.name }));
    else first.set(root.name, root);
  }
  return diagnostics;
};

const chooseRoots = (source: SchemaSource, options: ImportOptions): StageResult<ImportRoot[]> => {
  const prefix = options.contract ?? segment(basename(options.outDir));
  if (options.defs) {
    const diagnostics: Diagnostic[] = [];
    const roots: ImportRoot[] = [];
    // A definition named twice is imported once.
    const names = [...new Set(options.defs)];
    for (const name of names) {
      const def = source.definitions.get(name);
      if (!def) diagnostics.push(createDiagnostic("import-unknown-definition", source.locate("#"), { name, suggestion: didYouMean(name, source.definitions.keys()) }));
      else roots.push({ name: names.length === 1 && options.contract ? options.contract : `${prefix}.${snakeCase(name)}`, pointer: def.pointer, schema: def.schema });
    }
    return { value: roots, diagnostics: [...diagnostics, ...nameClashes(source, roots)] };
  }
  if (source.hasRoot) return { value: [{ name: options.contract ?? `${prefix}.${segment(basename(options.file))}`, ...rootSchema(source) }], diagnostics: [] };
  const roots = [...source.definitions]
    .filter(([, def]) => isObjectDefinition(def.schema))
    .map(([name, def]) => ({ name: `${prefix}.${snakeCase(name)}`, pointer: def.pointer, schema: def.schema }));
  if (roots.length === 0) return { value: [], diagnostics: [createDiagnostic("import-no-root", source.locate("#"), { file: source.file })] };
  return { value: roots, diagnostics: nameClashes(source, roots) };
};

/**
 * The errors `treaty check` would report on the files. The conversion leaves out, with a warning,
 * what the IDL cannot take; what it misses (a type nested past the IDL's depth, say) is an error
 * here, before anything is written, and never a contract that fails its first check.
 */
const checkImported = (root: string, files: readonly ImportedFile[]): StageResult<Project | undefined> => {
  const errors = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.severity === "error");
  const loaded = parseSources(files.map((f) => ({ path: display(root, f.path), text: f.text })));
  if (hasErrors(loaded.diagnostics)) return { value: undefined, diagnostics: errors(loaded.diagnostics) };
  const resolved = resolve(loaded.value);
  if (hasErrors(resolved.diagnostics)) return { value: undefined, diagnostics: errors(resolved.diagnostics) };
  const checked = check(resolved.value);
  return { value: checked.value, diagnostics: errors(checked.diagnostics) };
};

/**
 * The LLM providers each contract of `project` fits, by name, where that is fewer than it names:
 * a contract past a provider's limits (OpenAI's ten levels of nesting, a thousand enum values)
 * leaves that provider out, so the import never writes a contract `check` refuses. Each provider
 * left out is a warning at the definition, with the first limit it crosses.
 */
const fittingProviders = (project: Project, source: SchemaSource, contracts: readonly ImportedContract[]): StageResult<Map<string, LlmProvider[]>> => {
  const fitting = new Map<string, LlmProvider[]>();
  const diagnostics: Diagnostic[] = [];
  for (const contract of project.contracts) {
    const imported = contracts.find((c) => c.name === contract.name);
    if (!imported) continue;
    const kept = contract.llm.providers.filter((provider) => {
      const crossed = contract.versions.flatMap((version) => projectVersion(project, contract, version, provider).diagnostics).find((d) => d.severity === "error");
      if (crossed) diagnostics.push(createDiagnostic("import-provider-left-out", source.locate(imported.pointer), { pointer: imported.pointer, provider, detail: crossed.message.replace(/: (simplify the contract|give the union a tag).*$/, "") }));
      return crossed === undefined;
    });
    if (kept.length < contract.llm.providers.length) fitting.set(contract.name, kept);
  }
  return { value: fitting, diagnostics };
};

/** The contract files to write, or the errors that stop the import (nothing is written then). */
export const importSchema = (options: ImportOptions): StageResult<ImportedFile[]> => {
  const read = readSchemaSource(display(options.root, options.file), options.text);
  const source = read.value;
  if (!source) return { value: [], diagnostics: read.diagnostics };
  const chosen = chooseRoots(source, options);
  if (hasErrors(chosen.diagnostics)) return { value: [], diagnostics: chosen.diagnostics };
  const converted = convert(source, chosen.value);
  const diagnostics: Diagnostic[] = [...chosen.diagnostics, ...converted.diagnostics];
  let contracts = converted.contracts;
  const render = (providers: ReadonlyMap<string, readonly LlmProvider[]>): ImportedFile[] =>
    contracts.map((contract) => ({
      path: join(options.outDir, `${contract.name}.yaml`),
      contract: contract.name,
      text: renderContract(contract, source, options.schemaPath, providers.get(contract.name)),
      exact: contract.exact,
      pointer: contract.pointer,
    }));
  let files = render(new Map());
  let checked = checkImported(options.root, files);
  // JSON Schema does not ask a default to satisfy its schema; the IDL does (adapters put it in):
  // a contract with a default that does not fit is written without its defaults, which accept nothing.
  const misfits = new Map(checked.diagnostics.filter((d) => d.code === "default-type-mismatch").map((d) => [files.find((f) => display(options.root, f.path) === d.loc?.file)?.contract, d] as const));
  if (misfits.size > 0) {
    for (const contract of contracts) {
      const misfit = misfits.get(contract.name);
      if (misfit) diagnostics.push(createDiagnostic("import-not-expressible", source.locate(contract.pointer), { what: `a default its schema does not accept (${misfit.message})`, pointer: contract.pointer, consequence: "the contract's defaults are left out" }));
    }
    contracts = contracts.map((c) => (misfits.has(c.name) ? withoutDefaults(c) : c));
    files = render(new Map());
    checked = checkImported(options.root, files);
  }
  // A schema may also require a property of its own type, which no finite value satisfies (it
  // accepts nothing); the IDL refuses such a type: its fields on the cycle are written optional.
  const unending = checked.value ? unendingTypes(checked.value) : new Map<string, never>();
  if (unending.size > 0) {
    for (const contract of contracts) {
      for (const [name, { cycle, fields }] of unending.get(contract.name) ?? []) {
        const what = `a type that contains itself through required fields only (${cycle.join(" → ")}), which no finite value satisfies`;
        diagnostics.push(createDiagnostic("import-not-expressible", source.locate(contract.pointer), { what, pointer: contract.pointer, consequence: `${name}'s ${fields.length === 1 ? "field" : "fields"} ${fields.join(", ")} ${fields.length === 1 ? "is" : "are"} written optional` }));
      }
    }
    contracts = contracts.map((c) => (unending.has(c.name) ? withOptionalFields(c, unending.get(c.name)!) : c));
    files = render(new Map());
    checked = checkImported(options.root, files);
  }
  diagnostics.push(...checked.diagnostics);
  if (checked.value && !hasErrors(checked.diagnostics)) {
    const fitting = fittingProviders(checked.value, source, converted.contracts);
    if (fitting.value.size > 0) {
      diagnostics.push(...fitting.diagnostics);
      files = render(fitting.value);
    }
  }
  for (const file of files) if (existsSync(file.path)) diagnostics.push(createDiagnostic("import-file-exists", undefined, { file: display(options.root, file.path) }));
  const sorted = sortDiagnostics(diagnostics);
  return hasErrors(sorted) ? { value: [], diagnostics: sorted } : { value: files, diagnostics: sorted };
};
