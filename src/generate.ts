// `generate`: the pipeline of pipeline.ts, run only where the last run's manifest (src/incremental)
// does not prove the output current. A run that finds nothing changed reads the sources, the
// manifest and the output files' stamps, and loads nothing of the compiler: the stages (and YAML,
// Handlebars, prettier) are imported when something is to be compiled.
import { join, relative, sep } from "node:path";
import { createDiagnostic, hasErrors, sortDiagnostics, type Diagnostic } from "./diagnostics/diagnostic.js";
import { findCacheDir } from "./format/format-cache.js";
import { compilerFingerprint } from "./incremental/fingerprint.js";
import { dirsHold, fileHash, holds, readManifest, type Manifest, type NodeRecord, type OutputStamp } from "./incremental/manifest.js";
import type { Project } from "./ir/model.js";
import { readSources } from "./load/read-sources.js";
import type { CompileOptions } from "./pipeline.js";
import type { GeneratedPackage } from "./plan/plan.js";
import type { AddedStub } from "./stubs/maintain-stubs.js";
import { awaitWriters, lockOutput, OutputLocked, type OutputLock } from "./write/lock-output.js";
import { realPath } from "./write/real-path.js";
import { contentHash, notADirectory, recoverInterrupted, WriteBlocked, type WriteReport } from "./write/write.js";

/** How far a run is: `done` of `total` contracts in `phase`. */
export interface Progress {
  readonly phase: "reading" | "compiling" | "emitting" | "writing";
  readonly done: number;
  readonly total: number;
}

export interface GenerateOptions extends CompileOptions {
  readonly outDir: string;
  /** Write nothing; report what would change. */
  readonly check: boolean;
  /** The config's `package` setting: the output directory becomes this npm package. */
  readonly package?: GeneratedPackage;
  /** Write the generated regression tests (default true); without them nothing imports vitest. */
  readonly tests?: boolean;
  readonly onProgress?: (progress: Progress) => void;
  /** How long to wait for another run writing into `outDir` before `generate-locked` (default 60 s). */
  readonly lockWaitMs?: number;
  /** Called when the run starts to wait for another one writing into `outDir`, with its pid. */
  readonly onLockWait?: (pid: number | undefined) => void;
  /** Stops a wait for another run (then `generate-locked`). */
  readonly signal?: AbortSignal;
}

export interface GenerateResult {
  readonly diagnostics: readonly Diagnostic[];
  /** Absent when an error stopped the pipeline before `write`. */
  readonly report?: WriteReport;
  /** The whole model, when the run compiled all of it (a run that found few changes compiles only those). */
  readonly project?: Project;
  /** Stubs added to the hand-written adapters and agent files; each throws until someone writes it. */
  readonly stubs?: readonly AddedStub[];
  /** The project's size, also when only some of it was compiled. */
  readonly counts?: { readonly contracts: number; readonly versions: number };
  /** How many contracts this run compiled and emitted (all of them in a full run, none when nothing changed). */
  readonly regenerated?: number;
}

/** What shapes output besides the sources and the hand-written stub files: the manifest is valid only under the same key. */
const manifestKey = (options: GenerateOptions): string =>
  contentHash(
    JSON.stringify({
      compiler: compilerFingerprint(),
      root: options.root,
      idlDir: options.idlDir,
      outDir: options.outDir,
      llm: options.llm ?? null,
      package: options.package ?? null,
      tests: options.tests ?? true,
    }),
  );

/** `path` as a diagnostic's message shows it: relative to the project. */
const shown = (options: GenerateOptions, path: string): string => relative(options.root, path).split(sep).join("/") || ".";

/** `write-failed` for the output directory as given: `detail` names `at` (a path), relative to the project. */
const writeFailed = (given: GenerateOptions, at: string, detail: string): GenerateResult => ({
  diagnostics: [createDiagnostic("write-failed", undefined, { what: shown(given, given.outDir), detail: `${shown(given, at)} ${detail}` })],
});

/** How long a run waits for another one writing into the same output directory (a cold run of 1,000 contracts takes about 40 s). */
const LOCK_WAIT_MS = 60_000;

export const generate = async (given: GenerateOptions): Promise<GenerateResult> => {
  // Written where it leads: into a symlink's target (made if it is not there yet), staged and locked
  // beside it, on its file system. A dangling link was renamed over, and the run exited 70.
  const options = { ...given, outDir: realPath(given.outDir) };
  const blocked = notADirectory(options.outDir);
  if (blocked !== undefined) return writeFailed(given, blocked.path, blocked.why);
  let lock: OutputLock | undefined;
  try {
    const waiting = { waitMs: options.lockWaitMs ?? LOCK_WAIT_MS, onWait: options.onLockWait, signal: options.signal };
    if (options.check) await awaitWriters(options.outDir, waiting);
    else {
      lock = await lockOutput(options.outDir, waiting);
      // What a killed run left is finished or undone first, so this run starts from a whole tree.
      recoverInterrupted(options.outDir);
    }
    return await generateLocked(options, lock);
  } catch (error) {
    if (error instanceof OutputLocked) {
      const holder = error.pid === undefined ? "another process" : `pid ${error.pid}`;
      return { diagnostics: [createDiagnostic("generate-locked", undefined, { what: shown(given, given.outDir), holder, lock: shown(given, error.lock) })] };
    }
    if (!(error instanceof WriteBlocked)) throw error;
    const reason =
      error.code === "EACCES" || error.code === "EPERM" || error.code === "EROFS"
        ? "is not writable"
        : error.code === "EISDIR"
          ? "is a directory where a generated file goes"
          : error.code === "ENOTDIR"
            ? "is a file where generated files need a directory"
            : "refused a file";
    return writeFailed(given, error.dir, `${reason} (${error.code})`);
  } finally {
    lock?.release();
  }
};

/** The run, once it holds the output directory's lock (or, with `--check`, once no run holds it). */
const generateLocked = async (options: GenerateOptions, lock: OutputLock | undefined): Promise<GenerateResult> => {
  options.onProgress?.({ phase: "reading", done: 0, total: 0 });
  const read = readSources(options.root, options.idlDir);
  if (hasErrors(read.diagnostics)) return { diagnostics: sortDiagnostics(read.diagnostics) };
  const sources = read.value;
  const hashes = new Map(sources.map((s) => [s.path, contentHash(s.text)]));
  const cacheDir = findCacheDir(options.root);
  const key = manifestKey(options);
  const manifest = readManifest(cacheDir, options.outDir, key);
  const dirty = manifest && dirtySources(manifest, hashes, options);
  // The reading's warnings (a symlink loop not followed) with the contracts' own.
  const withRead = (result: GenerateResult): GenerateResult =>
    read.diagnostics.length === 0 ? result : { ...result, diagnostics: sortDiagnostics([...read.diagnostics, ...result.diagnostics]) };
  if (manifest && dirty?.size === 0) return withRead(unchangedResult(manifest));
  const { regenerate } = await import("./pipeline.js");
  return withRead(await regenerate({ sources, hashes, key, cacheDir, lock, ...(manifest && dirty && { changed: { manifest, dirty } }) }, options));
};

/**
 * The sources whose outputs must be regenerated: changed themselves or in a contract they reach,
 * their stub files changed, or an output no longer as written. Undefined: only a full run is
 * sure to be right (files added or removed, the project's own files changed, agents involved).
 */
const dirtySources = (manifest: Manifest, hashes: ReadonlyMap<string, string>, options: GenerateOptions): Set<string> | undefined => {
  const nodes = new Map(Object.entries(manifest.nodes));
  if (nodes.size !== hashes.size || [...hashes.keys()].some((path) => !nodes.has(path))) return undefined;
  const base = join(options.outDir, "/");
  const current = (stamp: OutputStamp): boolean => holds(base, stamp, manifest.writtenAt);
  if (!manifest.project.outputs.every(current) || !dirsHold(options.outDir, manifest)) return undefined;
  const dirty = new Set<string>();
  for (const [path, node] of nodes) {
    const stale =
      node.hash !== hashes.get(path) ||
      node.deps.some((dep) => nodes.get(dep)?.hash !== hashes.get(dep) || !hashes.has(dep)) ||
      Object.entries(node.stubs).some(([file, hash]) => fileHash(join(options.root, file)) !== hash) ||
      !node.outputs.every(current);
    if (stale) dirty.add(path);
  }
  // Agents read any contract, and the project's diagnostics belong to no file: both need the whole project.
  if (dirty.size > 0 && (manifest.project.diagnostics.length > 0 || [...nodes.values()].some((n) => n.agent))) return undefined;
  return dirty;
};

/** The project's size, from the manifest's records. */
export const countsOf = (nodes: Readonly<Record<string, Pick<NodeRecord, "agent" | "versions">>>): { contracts: number; versions: number } => {
  const contracts = Object.values(nodes).filter((n) => !n.agent);
  return { contracts: contracts.length, versions: contracts.reduce((n, c) => n + c.versions, 0) };
};

/** A rerun that finds every input as the manifest has it and every output as it wrote it. */
const unchangedResult = (manifest: Manifest): GenerateResult => {
  const nodes = Object.values(manifest.nodes);
  return {
    diagnostics: sortDiagnostics([...nodes.flatMap((n) => n.diagnostics), ...manifest.project.diagnostics]),
    report: { created: [], updated: [], removed: [], unchanged: nodes.reduce((n, node) => n + node.outputs.length, manifest.project.outputs.length) },
    stubs: [],
    counts: countsOf(manifest.nodes),
    regenerated: 0,
  };
};
