// Keeps the hand-owned `idl/<domain>/<contract>.adapters.ts` in step with the stubs the adapters
// need: creates the file when missing, adds missing stubs, and reports stubs no change needs any
// more. Code already in the file is never changed. With `check`, writes nothing and reports
// missing stubs as errors.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SourceFile } from "ts-morph";
import type { ContractAdapters, ProjectAdapters } from "../adapt/model.js";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { GENERATED, RUNTIME, stubsFileHeader, stubSource } from "./stub-source.js";

/** A stub `maintainStubs` added. */
export interface AddedStub {
  /** The stubs file, relative to the project root. */
  readonly file: string;
  readonly name: string;
}

export interface StubsOptions {
  /** Stub files are found relative to this directory (the project root). */
  readonly root: string;
  /** Write nothing; report missing stubs as errors. */
  readonly check: boolean;
}

/** The names treaty gives stubs; exported declarations named so belong to it. */
const STUB_NAME = /^(?:(?:upgrade|downgrade)V\d+_\d+[$A-Za-z0-9_]*|customV\d+_\d+)$/;

/** Top-level exports as a first look: `export function name`, `export const name`. */
const EXPORT_LINE = /^export\s+(?:async\s+)?(?:function\*?|const|let|var)\s+([$A-Za-z_][$A-Za-z0-9_]*)/gm;

/** The file at a glance exports exactly the stubs needed: nothing to add or report, no need to parse it. */
const plainlyInStep = (text: string, needed: ReadonlySet<string>): boolean => {
  const stubs = [...text.matchAll(EXPORT_LINE)].map((m) => m[1]!).filter((name) => STUB_NAME.test(name));
  return stubs.length === needed.size && stubs.every((name) => needed.has(name));
};

type TsMorph = typeof import("ts-morph");
let tsMorph: Promise<TsMorph> | undefined;
// ts-morph takes a while to load; only projects with hand-written adapters pay for it.
const loadTsMorph = (): Promise<TsMorph> => (tsMorph ??= import("ts-morph"));

const readOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

/** Exported declarations by name, with where their names are. */
const exportedNames = (file: SourceFile): Map<string, { line: number; col: number }> => {
  const names = new Map<string, { line: number; col: number }>();
  for (const [name, declarations] of file.getExportedDeclarations()) {
    const node = declarations[0];
    if (!node) continue;
    const { line, column } = file.getLineAndColumnAtPos(node.getStart());
    names.set(name, { line, col: column });
  }
  return names;
};

/** Adds `import type * as generated` and `import * as treaty` when the file lacks them. */
const ensureImports = (file: SourceFile, adapters: ContractAdapters): void => {
  const namespaces = new Set(file.getImportDeclarations().map((d) => d.getNamespaceImport()?.getText()));
  if (!namespaces.has(GENERATED)) file.addImportDeclaration({ isTypeOnly: true, namespaceImport: GENERATED, moduleSpecifier: adapters.layout.toGenerated });
  if (!namespaces.has(RUNTIME)) file.addImportDeclaration({ namespaceImport: RUNTIME, moduleSpecifier: "treaty/runtime" });
};

const writeAtomically = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.treaty-tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
};

const maintainOne = async (adapters: ContractAdapters, options: StubsOptions, added: AddedStub[]): Promise<Diagnostic[]> => {
  const { layout } = adapters;
  const path = join(options.root, layout.file);
  const existing = readOrUndefined(path);
  if (existing === undefined && adapters.stubs.length === 0) return [];
  const needed = new Set(adapters.stubs.map((s) => s.name));
  if (existing !== undefined && plainlyInStep(existing, needed)) return [];
  const morph = await loadTsMorph();
  const project = new morph.Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: morph.IndentationText.TwoSpaces, quoteKind: morph.QuoteKind.Double },
  });
  const file = project.createSourceFile("adapters.ts", existing ?? stubsFileHeader(adapters));
  const declared = exportedNames(file);
  const diagnostics: Diagnostic[] = [];
  for (const [name, at] of declared) {
    if (STUB_NAME.test(name) && !needed.has(name)) diagnostics.push(createDiagnostic("orphan-stub", { file: layout.file, ...at }, { name }));
  }
  const missing = adapters.stubs.filter((s) => !declared.has(s.name));
  if (missing.length === 0) return diagnostics;
  if (options.check) return [...diagnostics, ...missing.map((s) => createDiagnostic("missing-stub", s.loc, { name: s.name, file: layout.file }))];
  ensureImports(file, adapters);
  for (const stub of missing) {
    file.addStatements(`\n${stubSource(adapters, stub)}`);
    added.push({ file: layout.file, name: stub.name });
  }
  const text = file.getFullText();
  writeAtomically(path, text.endsWith("\n") ? text : `${text}\n`);
  return diagnostics;
};

/** Brings every contract's stubs file up to date (or, with `check`, reports what is missing). */
export const maintainStubs = async (adapters: ProjectAdapters, options: StubsOptions): Promise<StageResult<readonly AddedStub[]>> => {
  const diagnostics: Diagnostic[] = [];
  const added: AddedStub[] = [];
  for (const contract of adapters.contracts.values()) {
    try {
      diagnostics.push(...(await maintainOne(contract, options, added)));
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
      diagnostics.push(createDiagnostic("read-failed", undefined, { what: contract.layout.file, detail: (error as Error).message }));
    }
  }
  return { value: added, diagnostics };
};
