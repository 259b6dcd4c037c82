// load → resolve → check (+ agents) → lint → adapt (+ stubs) → plan → emit → format → write; stops after a stage that reported an error.
// `generate` (generate.ts) is incremental: a manifest of the last run (src/incremental) names the
// contracts whose inputs or outputs changed, and `regenerate` compiles only those (with what they
// reference) and emits them.
import { join, relative, sep } from "node:path";
import { adapt, checkChangeDefaults } from "./adapt/adapt.js";
import { agentStubFiles } from "./agent/agent-stubs.js";
import { checkAgents } from "./agent/check-agents.js";
import { check, contractRefs } from "./check/check.js";
import { hasErrors, sortDiagnostics, type Diagnostic, type StageResult } from "./diagnostics/diagnostic.js";
import { PACKAGE_BUILD_DIR } from "./emit/package.js";
import { createFormatPool } from "./format/format-pool.js";
import { createFormatCache } from "./format/format-cache.js";
import { countsOf, type GenerateOptions, type GenerateResult } from "./generate.js";
import { loadPatternVerdicts, savePatternVerdicts } from "./incremental/pattern-verdicts.js";
import { loadEmitterMemos, saveEmitterMemos } from "./incremental/emitter-memos.js";
import { fileHash, writeManifest, type Manifest, type NodeDraft } from "./incremental/manifest.js";
import type { Contract, Project } from "./ir/model.js";
import { lint } from "./lint/lint.js";
import { readSources, type RawSource } from "./load/load.js";
import { projectDiagnostics } from "./project/project.js";
import { jobOwner, plan, type FileJob } from "./plan/plan.js";
import { resolveSources, resolveSourcesInParallel, type Front } from "./resolve/resolve-sources.js";
import { adapterStubFile, maintainStubs, type AddedStub } from "./stubs/maintain-stubs.js";
import type { OutputLock } from "./write/lock-output.js";
import { createTreeWriter, type TreeWriter } from "./write/write.js";

export { generate, type GenerateOptions, type GenerateResult, type Progress } from "./generate.js";

export interface CompileOptions {
  /** Paths in diagnostics and headers are relative to this directory. */
  readonly root: string;
  readonly idlDir: string;
  /** The config's `llm` setting: the providers of a contract that names none. */
  readonly llm?: Contract["llm"];
}

/**
 * load → resolve → check → lint: the project's model and every diagnostic about its contracts.
 * The model is absent only when the files could not be read or resolved.
 */
export const compile = (options: CompileOptions): StageResult<Project | undefined> => {
  const read = readSources(options.root, options.idlDir);
  if (hasErrors(read.diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(read.diagnostics) };
  const compiled = compileSources(read.value, options.llm);
  // The reading's warnings (a symlink loop not followed) with the contracts' own.
  return { value: compiled.value, diagnostics: sortDiagnostics([...read.diagnostics, ...compiled.diagnostics]) };
};

/** `compile` of sources already read: all of a project's, or (an incremental run) some of them and what they reference. */
const compileSources = (sources: readonly RawSource[], llm: Contract["llm"] | undefined): StageResult<Project | undefined> => compileFront(resolveSources(sources, llm));

/** The same, a large project loaded and resolved on more than one thread (resolve-sources.ts). */
const compileSourcesInParallel = async (sources: readonly RawSource[], llm: Contract["llm"] | undefined): Promise<StageResult<Project | undefined>> =>
  compileFront(await resolveSourcesInParallel(sources, llm));

/** check → lint of the sources loaded and resolved. */
const compileFront = (front: Front): StageResult<Project | undefined> => {
  const diagnostics: Diagnostic[] = [...front.loaded];
  const resolved = front.resolved;
  if (resolved === undefined || hasErrors(diagnostics)) return { value: undefined, diagnostics: sortDiagnostics(diagnostics) };
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

/** The source files of the contracts each contract reaches through its references, transitively. */
const reachedSources = (project: Project): Map<string, string[]> => {
  const byName = new Map(project.contracts.map((c) => [c.name, c]));
  const reached = new Map<string, string[]>();
  for (const contract of project.contracts) {
    const seen = new Set<string>();
    const pending = contractRefs(contract);
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      const target = byName.get(name);
      if (!target || seen.has(target.file)) continue;
      seen.add(target.file);
      pending.push(...contractRefs(target));
    }
    seen.delete(contract.file);
    reached.set(contract.file, [...seen].sort());
  }
  return reached;
};

/** The files a run regenerates: all of a project, or the contracts of `only`. */
interface Scope {
  readonly project: Project;
  /** Contract names; undefined: the whole project, its own files and agents included. */
  readonly only?: ReadonlySet<string>;
}

interface Prepared {
  readonly diagnostics: readonly Diagnostic[];
  readonly stubs: readonly AddedStub[];
  readonly jobs: readonly FileJob[];
  /** The hand-written stub files of each contract and agent in scope (by its source file), relative to the root. */
  readonly stubFiles: ReadonlyMap<string, readonly string[]>;
}

/** adapt (+ stubs) → plan, for the contracts in scope. */
const prepare = async (scope: Scope, options: GenerateOptions): Promise<Prepared> => {
  const { project, only } = scope;
  // Adapters, and the hand-written stubs they call: a stub missing under --check stops here.
  const adapters = adapt(project, options).value;
  const inScope = (name: string | undefined): boolean => (only ? name !== undefined && only.has(name) : true);
  const contracts = [...adapters.contracts.values()].filter((a) => inScope(a.contract.name));
  const agents = only ? [] : (project.agents ?? []);
  const contractStubs = contracts.map(adapterStubFile);
  const agentStubs = only ? [] : agentStubFiles(project, options);
  const stubs = await maintainStubs([...contractStubs, ...agentStubs], { root: options.root, check: options.check });
  const planned = plan(project, adapters, { package: options.package, tests: options.tests ?? true, dirs: options });
  return {
    diagnostics: [...stubs.diagnostics, ...planned.diagnostics],
    stubs: stubs.value,
    jobs: planned.value.filter((job) => inScope(jobOwner(job))),
    stubFiles: new Map([
      ...contracts.map((a, i) => [a.contract.file, [contractStubs[i]!.file]] as const),
      ...agents.map((agent, i) => [agent.file, [agentStubs[i]!.file]] as const),
    ]),
  };
};

/** Files emitted but not yet formatted and written: enough to keep every worker busy, few enough to hold. */
const IN_FLIGHT = 32;

/** emit → format → write of every job, a file at a time (the tree is never held in memory); formatting runs in workers. */
const produce = async (project: Project, jobs: readonly FileJob[], writer: TreeWriter, options: GenerateOptions, cacheDir: string | undefined): Promise<void> => {
  const { emitFile } = await import("./emit/emit.js");
  const source = relative(options.root, options.idlDir).split(sep).join("/") || ".";
  // `--check` reads cached formatting but writes nothing, not even to the cache.
  const cache = createFormatCache(cacheDir, { readOnly: options.check });
  const pool = createFormatPool(cache);
  const owners = new Set(jobs.map(jobOwner).filter((o) => o !== undefined));
  const done = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  try {
    for (const job of jobs) {
      if (failure) break;
      const emitted = await emitFile(project, job, source);
      const task: Promise<void> = pool
        .format(emitted)
        .then((contents) => writer.put(emitted.path, contents))
        .catch((error: unknown) => void (failure ??= { error }))
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      const owner = jobOwner(job);
      if (owner !== undefined && !done.has(owner)) {
        done.add(owner);
        options.onProgress?.({ phase: "emitting", done: done.size - 1, total: owners.size });
      }
    }
    await Promise.all(inFlight);
  } finally {
    try {
      await pool.close();
    } finally {
      cache.close();
    }
  }
  if (failure) throw failure.error;
  options.onProgress?.({ phase: "writing", done: owners.size, total: owners.size });
};

/** Diagnostics by the source file they belong to (a contract's own file, or one of its stub files); undefined: the project's. */
const attribute = (diagnostics: readonly Diagnostic[], owners: ReadonlyMap<string, string>): Map<string | undefined, Diagnostic[]> => {
  const byOwner = new Map<string | undefined, Diagnostic[]>();
  for (const d of diagnostics) {
    const owner = d.loc ? owners.get(d.loc.file) : undefined;
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), d]);
  }
  return byOwner;
};

/** Records of the contracts and agents a run regenerated. */
const recordNodes = (project: Project, prepared: Prepared, diagnostics: readonly Diagnostic[], hashes: ReadonlyMap<string, string>, options: GenerateOptions, only?: ReadonlySet<string>): Map<string, NodeDraft> => {
  const reached = reachedSources(project);
  const owners = new Map<string, string>();
  const records = new Map<string, NodeDraft>();
  const outputs = new Map<string, string[]>();
  for (const job of prepared.jobs) {
    const owner = jobOwner(job);
    if (owner !== undefined) outputs.set(owner, [...(outputs.get(owner) ?? []), job.path]);
  }
  for (const contract of project.contracts) {
    if (only && !only.has(contract.name)) continue;
    owners.set(contract.file, contract.file);
    for (const file of prepared.stubFiles.get(contract.file) ?? []) owners.set(file, contract.file);
  }
  for (const agent of only ? [] : (project.agents ?? [])) {
    owners.set(agent.file, agent.file);
    for (const file of prepared.stubFiles.get(agent.file) ?? []) owners.set(file, agent.file);
  }
  const byOwner = attribute(diagnostics, owners);
  const stubHashes = (source: string): Record<string, string | null> =>
    Object.fromEntries((prepared.stubFiles.get(source) ?? []).map((f) => [f, fileHash(join(options.root, f))]));
  for (const contract of project.contracts) {
    if (only && !only.has(contract.name)) continue;
    const stubs = stubHashes(contract.file);
    records.set(contract.file, {
      hash: hashes.get(contract.file)!,
      name: contract.name,
      agent: false,
      deps: reached.get(contract.file) ?? [],
      stubs,
      outputs: outputs.get(contract.name) ?? [],
      diagnostics: byOwner.get(contract.file) ?? [],
      versions: contract.versions.length,
    });
  }
  for (const agent of only ? [] : (project.agents ?? [])) {
    records.set(agent.file, { hash: hashes.get(agent.file)!, name: agent.name, agent: true, deps: [], stubs: stubHashes(agent.file), outputs: [], diagnostics: byOwner.get(agent.file) ?? [], versions: 0 });
  }
  // A source that declares neither has no record: the next run finds the sources and records differ, and runs in full.
  return records;
};

/** What `generate` learned before compiling anything. */
export interface RegenerateInput {
  readonly sources: readonly RawSource[];
  /** The hash of each source's text, by its path. */
  readonly hashes: ReadonlyMap<string, string>;
  /** The manifest key of this run's options. */
  readonly key: string;
  readonly cacheDir: string | undefined;
  /** The last run's manifest and the sources it does not prove current; absent: a full run. */
  readonly changed?: { readonly manifest: Manifest; readonly dirty: ReadonlySet<string> };
  /** The run's lock of the output directory (absent with `--check`, which writes nothing). */
  readonly lock?: OutputLock;
}

/** The contracts `generate` could not prove current compiled and emitted: only the changed ones where that is sure to be right, else all. */
export const regenerate = async (input: RegenerateInput, options: GenerateOptions): Promise<GenerateResult> => {
  const { cacheDir, changed } = input;
  loadPatternVerdicts(cacheDir);
  loadEmitterMemos(cacheDir);
  const partial = changed ? await generateChanged(changed.manifest, changed.dirty, input, options) : undefined;
  const result = partial ?? (await generateAll(input, options));
  // `--check` writes nothing, not even to the cache.
  if (!options.check) {
    savePatternVerdicts(cacheDir);
    saveEmitterMemos(cacheDir);
  }
  return result;
};

/** Every contract regenerated; the output directory listed for files to remove. */
const generateAll = async (input: RegenerateInput, options: GenerateOptions): Promise<GenerateResult> => {
  const { sources, hashes, key, cacheDir, lock } = input;
  options.onProgress?.({ phase: "compiling", done: 0, total: sources.length });
  const compiled = await compileSourcesInParallel(sources, options.llm);
  const project = compiled.value;
  if (!project || hasErrors(compiled.diagnostics)) return { diagnostics: compiled.diagnostics };
  const prepared = await prepare({ project }, options);
  const diagnostics = sortDiagnostics([...compiled.diagnostics, ...prepared.diagnostics]);
  if (hasErrors(diagnostics)) return { diagnostics };
  // The package build's output is never treaty's, with the setting or after it is removed (its
  // compiled files carry the generated marker, and were half deleted); no contract is named dist.
  const writer = createTreeWriter(options.outDir, { check: options.check, skip: [PACKAGE_BUILD_DIR], lock });
  try {
    await produce(project, prepared.jobs, writer, options, cacheDir);
  } catch (error) {
    writer.abort();
    throw error;
  }
  const report = writer.commit();
  const records = recordNodes(project, prepared, diagnostics, hashes, options);
  if (!options.check) {
    const nodes = Object.fromEntries(records);
    const recorded = new Set([...records.values()].flatMap((r) => r.diagnostics));
    writeManifest(cacheDir, options.outDir, {
      key,
      nodes,
      project: { outputs: prepared.jobs.filter((j) => jobOwner(j) === undefined).map((j) => j.path), diagnostics: diagnostics.filter((d) => !recorded.has(d)) },
      stamps: writer.stamps(),
    });
  }
  const counts = { contracts: project.contracts.length, versions: project.contracts.reduce((n, c) => n + c.versions.length, 0) };
  return { diagnostics, report, project, stubs: prepared.stubs, counts, regenerated: project.contracts.length };
};

/**
 * Regenerates the `dirty` contracts only, compiling them with the contracts they reach. Undefined
 * when the change reaches beyond them (a name changed, a new reference, an error, a diagnostic
 * located elsewhere): then a full run decides, so its diagnostics are exactly a full run's.
 */
const generateChanged = async (manifest: Manifest, dirty: ReadonlySet<string>, input: RegenerateInput, options: GenerateOptions): Promise<GenerateResult | undefined> => {
  const { sources, hashes, key, cacheDir, lock } = input;
  const loaded = new Set(dirty);
  for (const path of dirty) for (const dep of manifest.nodes[path]!.deps) loaded.add(dep);
  options.onProgress?.({ phase: "compiling", done: 0, total: loaded.size });
  const compiled = await compileSourcesInParallel(sources.filter((s) => loaded.has(s.path)), options.llm);
  const project = compiled.value;
  if (!project || hasErrors(compiled.diagnostics) || project.agents) return undefined;
  const only = new Set(project.contracts.filter((c) => dirty.has(c.file)).map((c) => c.name));
  const renamed = project.contracts.some((c) => dirty.has(c.file) && manifest.nodes[c.file]!.name !== c.name);
  // A new reference to a contract not compiled here was an error above (unknown-contract): full run.
  if (only.size !== dirty.size || renamed) return undefined;
  const prepared = await prepare({ project, only }, options);
  const all = [...compiled.diagnostics, ...prepared.diagnostics];
  // The contracts compiled only because a changed one reaches them report what they reported before.
  const placed = (d: Diagnostic): boolean => d.loc !== undefined && (loaded.has(d.loc.file) || [...prepared.stubFiles.values()].some((files) => files.includes(d.loc!.file)));
  if (hasErrors(all) || !all.every(placed)) return undefined;
  const fresh = all.filter((d) => !loaded.has(d.loc!.file) || dirty.has(d.loc!.file));
  // The other contracts' outputs are current (the manifest proved it): the writer hears only of this run's.
  const writer = createTreeWriter(options.outDir, { check: options.check, lock });
  try {
    await produce(project, prepared.jobs, writer, options, cacheDir);
  } catch (error) {
    writer.abort();
    throw error;
  }
  const replaced = [...dirty].flatMap((path) => manifest.nodes[path]!.outputs.map(([output]) => output));
  const written = writer.commit(replaced);
  const kept = Object.entries(manifest.nodes).filter(([path]) => !dirty.has(path));
  const unchanged = kept.reduce((n, [, node]) => n + node.outputs.length, manifest.project.outputs.length);
  const report = { ...written, unchanged: written.unchanged + unchanged };
  const records = recordNodes(project, prepared, fresh, hashes, options, only);
  if (!options.check) {
    const nodes = { ...Object.fromEntries(kept), ...Object.fromEntries(records) };
    writeManifest(cacheDir, options.outDir, { key, nodes, project: manifest.project, stamps: writer.stamps(), carried: { dirs: manifest.dirs, replaced } });
  }
  const diagnostics = sortDiagnostics([...Object.entries(manifest.nodes).filter(([path]) => !dirty.has(path)).flatMap(([, n]) => n.diagnostics), ...fresh]);
  return { diagnostics, report, stubs: prepared.stubs, counts: countsOf({ ...manifest.nodes, ...Object.fromEntries(records) }), regenerated: only.size };
};
