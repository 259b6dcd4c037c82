// Keeps hand-owned files in step with the stubs treaty needs there: the adapters files
// (`idl/<domain>/<contract>.adapters.ts`) and the agents' files (`<agent>.agent.ts`). Creates a file
// when missing, adds missing stubs, and reports stubs nothing needs any more. Code already in the
// file is never changed. With `check`, writes nothing and reports missing stubs as errors.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SourceFile } from "ts-morph";
import type { ContractAdapters } from "../adapt/model.js";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { SourceLocation } from "../ir/model.js";
import { readFailed, unreadable } from "../load/read-sources.js";
import { makeDirs } from "../write/write.js";
import { GENERATED, RUNTIME, stubsFileHeader, stubSource } from "./stub-source.js";

/** A stub `maintainStubs` added. */
export interface AddedStub {
  /** The stubs file, relative to the project root. */
  readonly file: string;
  readonly name: string;
  /** What it is: `adapter stub`, `agent function`. */
  readonly what: string;
}

export interface StubsOptions {
  /** Stub files are found relative to this directory (the project root). */
  readonly root: string;
  /** Write nothing; report missing stubs as errors. */
  readonly check: boolean;
}

/** A hand-owned file and the stubs treaty needs in it. */
export interface StubFile {
  /** Relative to the project root. */
  readonly file: string;
  /** What the stubs are, in diagnostics: `adapter stub`. */
  readonly what: string;
  /** The first lines of the file when treaty creates it. */
  readonly header: string;
  /** Namespace imports the stubs use, added when the file lacks them. */
  readonly imports: readonly { readonly namespace: string; readonly from: string; readonly typeOnly: boolean }[];
  /** Exported names of this form belong to treaty: reported when no longer needed. */
  readonly owned: RegExp;
  readonly stubs: readonly { readonly name: string; readonly source: string; readonly loc: SourceLocation }[];
}

/** The names treaty gives adapter stubs. */
const ADAPTER_STUB_NAME = /^(?:(?:upgrade|downgrade)V\d+_\d+[$A-Za-z0-9_]*|customV\d+_\d+)$/;

/** A contract's adapters file: its stubs with their typed signatures. */
export const adapterStubFile = (adapters: ContractAdapters): StubFile => ({
  file: adapters.layout.file,
  what: "adapter stub",
  header: stubsFileHeader(adapters),
  imports: [
    { namespace: GENERATED, from: adapters.layout.toGenerated, typeOnly: true },
    { namespace: RUNTIME, from: "treaty/runtime", typeOnly: false },
  ],
  owned: ADAPTER_STUB_NAME,
  stubs: adapters.stubs.map((stub) => ({ name: stub.name, source: stubSource(adapters, stub), loc: stub.loc })),
});

/** Top-level exports as a first look: `export function name`, `export const name`. */
const EXPORT_LINE = /^export\s+(?:async\s+)?(?:function\*?|const|let|var)\s+([$A-Za-z_][$A-Za-z0-9_]*)/gm;

/**
 * The file at a glance exports every stub needed and no stub-named export beyond them: nothing to
 * add or report, no need to parse it. (Needed names need not look like treaty's: an agent's custom
 * rules are named freely.)
 */
const plainlyInStep = (text: string, owned: RegExp, needed: ReadonlySet<string>): boolean => {
  const exported = new Set([...text.matchAll(EXPORT_LINE)].map((m) => m[1]!));
  return [...needed].every((name) => exported.has(name)) && [...exported].every((name) => needed.has(name) || !owned.test(name));
};

type TsMorph = typeof import("ts-morph");
let tsMorph: Promise<TsMorph> | undefined;
// ts-morph takes a while to load; only projects with hand-written adapters pay for it.
const loadTsMorph = (): Promise<TsMorph> => (tsMorph ??= import("ts-morph"));

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

/** Adds the namespace imports the stubs use (`import type * as generated`, ...) when the file lacks them. */
const ensureImports = (file: SourceFile, spec: StubFile): void => {
  const namespaces = new Set(file.getImportDeclarations().map((d) => d.getNamespaceImport()?.getText()));
  for (const { namespace, from, typeOnly } of spec.imports) {
    if (!namespaces.has(namespace)) file.addImportDeclaration({ isTypeOnly: typeOnly, namespaceImport: namespace, moduleSpecifier: from });
  }
};

const writeAtomically = (path: string, text: string): void => {
  makeDirs(dirname(path));
  const temp = `${path}.treaty-tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
};

const maintainOne = async (spec: StubFile, options: StubsOptions, added: AddedStub[]): Promise<Diagnostic[]> => {
  const path = join(options.root, spec.file);
  let existing: string | undefined;
  try {
    existing = readFileSync(path, "utf8");
  } catch (error) {
    // Absent: made below. There but unreadable: reported, never written over (it holds hand-written code).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return [readFailed(spec.file, unreadable(error))];
  }
  if (existing === undefined && spec.stubs.length === 0) return [];
  const needed = new Set(spec.stubs.map((s) => s.name));
  if (existing !== undefined && plainlyInStep(existing, spec.owned, needed)) return [];
  const morph = await loadTsMorph();
  const project = new morph.Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: morph.IndentationText.TwoSpaces, quoteKind: morph.QuoteKind.Double },
  });
  const file = project.createSourceFile("stubs.ts", existing ?? spec.header);
  const declared = exportedNames(file);
  const diagnostics: Diagnostic[] = [];
  for (const [name, at] of declared) {
    if (spec.owned.test(name) && !needed.has(name)) diagnostics.push(createDiagnostic("orphan-stub", { file: spec.file, ...at }, { name, what: spec.what }));
  }
  const missing = spec.stubs.filter((s) => !declared.has(s.name));
  if (missing.length === 0) return diagnostics;
  if (options.check) return [...diagnostics, ...missing.map((s) => createDiagnostic("missing-stub", s.loc, { name: s.name, file: spec.file, what: spec.what }))];
  ensureImports(file, spec);
  for (const stub of missing) {
    file.addStatements(`\n${stub.source}`);
    added.push({ file: spec.file, name: stub.name, what: spec.what });
  }
  const text = file.getFullText();
  writeAtomically(path, text.endsWith("\n") ? text : `${text}\n`);
  return diagnostics;
};

/** Brings every hand-owned stubs file up to date (or, with `check`, reports what is missing). */
export const maintainStubs = async (files: readonly StubFile[], options: StubsOptions): Promise<StageResult<readonly AddedStub[]>> => {
  const diagnostics: Diagnostic[] = [];
  const added: AddedStub[] = [];
  for (const spec of files) {
    try {
      diagnostics.push(...(await maintainOne(spec, options, added)));
    } catch (error) {
      // Reads are reported above; what the system refuses here is a write.
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== "string") throw error;
      diagnostics.push(createDiagnostic("write-failed", undefined, { what: spec.file, detail: `the system refused it (${code})` }));
    }
  }
  return { value: added, diagnostics };
};
