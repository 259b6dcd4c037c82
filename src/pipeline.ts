// load → resolve → check → lint → plan → emit → format → write; stops after a stage that reported an error.
import { relative, sep } from "node:path";
import { check } from "./check/check.js";
import { hasErrors, sortDiagnostics, type Diagnostic, type StageResult } from "./diagnostics/diagnostic.js";
import { emit } from "./emit/emit.js";
import { format } from "./format/format.js";
import type { Project } from "./ir/model.js";
import { lint } from "./lint/lint.js";
import { load } from "./load/load.js";
import { plan } from "./plan/plan.js";
import { resolve } from "./resolve/resolve.js";
import { write, type WriteReport } from "./write/write.js";

export interface CompileOptions {
  /** Paths in diagnostics and headers are relative to this directory. */
  readonly root: string;
  readonly idlDir: string;
}

export interface GenerateOptions extends CompileOptions {
  readonly outDir: string;
  /** Write nothing; report what would change. */
  readonly check: boolean;
}

export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Absent when an error stopped the pipeline before `write`. */
  readonly report?: WriteReport;
  readonly project?: Project;
}

/** load → resolve → check → lint: the project's model and every diagnostic about its contracts. */
export const compile = (options: CompileOptions): StageResult<Project | undefined> => {
  const diagnostics: Diagnostic[] = [];
  const loaded = load(options.root, options.idlDir);
  diagnostics.push(...loaded.diagnostics);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
  const resolved = resolve(loaded.value);
  diagnostics.push(...resolved.diagnostics);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
  const checked = check(resolved.value);
  diagnostics.push(...checked.diagnostics);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
  const linted = lint(checked.value);
  diagnostics.push(...linted.diagnostics);
  return { value: hasErrors(diagnostics) ? undefined : linted.value, diagnostics: sortDiagnostics(diagnostics) };
};

export const generate = async (options: GenerateOptions): Promise<GenerateResult> => {
  const compiled = compile(options);
  const project = compiled.value;
  if (!project) return { diagnostics: compiled.diagnostics };
  const jobs = plan(project).value;
  const source = relative(options.root, options.idlDir).split(sep).join("/") || ".";
  const emitted = await emit(project, jobs, source);
  const formatted = await format(emitted.value);
  const written = write(options.outDir, formatted.value, { check: options.check });
  return { diagnostics: compiled.diagnostics, report: written.value, project };
};
