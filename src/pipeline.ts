// load → resolve → check (+ agents) → lint → adapt (+ stubs) → plan → emit → format → write; stops after a stage that reported an error.
import { relative, sep } from "node:path";
import { adapt, checkChangeDefaults } from "./adapt/adapt.js";
import { agentStubFiles } from "./agent/agent-stubs.js";
import { checkAgents } from "./agent/check-agents.js";
import { check } from "./check/check.js";
import { hasErrors, sortDiagnostics, type Diagnostic, type StageResult } from "./diagnostics/diagnostic.js";
import { emit } from "./emit/emit.js";
import { PACKAGE_BUILD_DIR } from "./emit/package.js";
import { format } from "./format/format.js";
import { createFormatCache, findCacheDir } from "./format/format-cache.js";
import type { Contract, Project } from "./ir/model.js";
import { lint } from "./lint/lint.js";
import { load } from "./load/load.js";
import { projectDiagnostics } from "./project/project.js";
import { plan, type GeneratedPackage } from "./plan/plan.js";
import { resolve } from "./resolve/resolve.js";
import { adapterStubFile, maintainStubs, type AddedStub } from "./stubs/maintain-stubs.js";
import { write, type WriteReport } from "./write/write.js";

export interface CompileOptions {
  /** Paths in diagnostics and headers are relative to this directory. */
  readonly root: string;
  readonly idlDir: string;
  /** The config's `llm` setting: the providers of a contract that names none. */
  readonly llm?: Contract["llm"];
}

export interface GenerateOptions extends CompileOptions {
  readonly outDir: string;
  /** Write nothing; report what would change. */
  readonly check: boolean;
  /** The config's `package` setting: the output directory becomes this npm package. */
  readonly package?: GeneratedPackage;
  /** Write the generated regression tests (default true); without them nothing imports vitest. */
  readonly tests?: boolean;
}

export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Absent when an error stopped the pipeline before `write`. */
  readonly report?: WriteReport;
  readonly project?: Project;
  /** Stubs added to the hand-written adapters and agent files; each throws until someone writes it. */
  readonly stubs?: readonly AddedStub[];
}

/**
 * load → resolve → check → lint: the project's model and every diagnostic about its contracts.
 * The model is absent only when the files could not be read or resolved.
 */
export const compile = (options: CompileOptions): StageResult<Project | undefined> => {
  const diagnostics: Diagnostic[] = [];
  const loaded = load(options.root, options.idlDir);
  diagnostics.push(...loaded.diagnostics);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
  const resolved = resolve(loaded.value, options.llm);
  diagnostics.push(...resolved.diagnostics);
  if (hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
  // From here the model is whole: errors about it (a bump too small, say) still leave it usable for
  // reports, so the caller decides from the diagnostics whether to go on.
  const checked = check(resolved.value);
  diagnostics.push(...checked.diagnostics, ...checkChangeDefaults(checked.value), ...checkAgents(checked.value));
  // Provider limits are checked on a whole model only: a projection reads every type it reaches.
  if (!hasErrors(diagnostics)) diagnostics.push(...projectDiagnostics(checked.value), ...lint(checked.value).diagnostics);
  return { value: checked.value, diagnostics: sortDiagnostics(diagnostics) };
};

export const generate = async (options: GenerateOptions): Promise<GenerateResult> => {
  const compiled = compile(options);
  const project = compiled.value;
  if (!project || hasErrors(compiled.diagnostics)) return { diagnostics: compiled.diagnostics };
  // Adapters, and the hand-written stubs they call: a stub missing under --check stops here.
  const adapters = adapt(project, options).value;
  const stubFiles = [...[...adapters.contracts.values()].map(adapterStubFile), ...agentStubFiles(project, options)];
  const stubs = await maintainStubs(stubFiles, { root: options.root, check: options.check });
  const planned = plan(project, adapters, { package: options.package, tests: options.tests ?? true, dirs: options });
  const diagnostics = sortDiagnostics([...compiled.diagnostics, ...stubs.diagnostics, ...planned.diagnostics]);
  if (hasErrors(diagnostics)) return { diagnostics };
  const jobs = planned.value;
  const source = relative(options.root, options.idlDir).split(sep).join("/") || ".";
  const emitted = await emit(project, jobs, source);
  // `--check` reads cached formatting but writes nothing, not even to the cache.
  const cache = createFormatCache(findCacheDir(options.root), { readOnly: options.check });
  const formatted = await format(emitted.value, cache);
  // The package's build output carries the headers it was compiled from, but is not treaty's to remove.
  const skip = options.package ? [PACKAGE_BUILD_DIR] : [];
  const written = write(options.outDir, formatted.value, { check: options.check, skip });
  return { diagnostics, report: written.value, project, stubs: stubs.value };
};
