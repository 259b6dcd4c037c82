// load → resolve of a project's sources, the front of the pipeline: each file parses and resolves on
// its own (resolve.ts), so a large project's files are shared out between this thread and worker
// threads (resolve-worker.ts), and the shares put together as one thread would have made them.
// YAML parsing is most of a cold run's compiling (about 4.5 s at 1,000 contracts on one thread) and
// the formatting workers have nothing to do yet; the model a worker sends back costs a tenth of
// what it took to make (20 MB at 1,000 contracts: 0.25 s to send, 0.35 s to take).
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { deserialize, serialize } from "node:v8";
import { Worker } from "node:worker_threads";
import { hasErrors, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { Contract, Project } from "../ir/model.js";
import { parseSources } from "../load/load.js";
import type { RawSource } from "../load/read-sources.js";
import { durableVerdicts, prefetchVerdicts, rememberVerdicts, type PatternVerdict } from "./pattern-safety.js";
import { assemble, defaultLlm, resolveEach, type Resolved } from "./resolve.js";

/** A share of the sources loaded, and resolved unless loading found an error. */
export interface Share {
  readonly loaded: readonly Diagnostic[];
  readonly resolved?: Resolved;
}

/** The sources loaded and resolved: what loading said, and the model unless it found an error in any file. */
export interface Front {
  readonly loaded: readonly Diagnostic[];
  readonly resolved?: StageResult<Project>;
}

/** What a worker is given, and what it sends back. */
export interface ShareRequest {
  readonly sources: readonly RawSource[];
  readonly llm: Contract["llm"];
  /** The pattern verdicts this thread holds (those of earlier runs): a worker does not check those patterns again. */
  readonly verdicts: readonly (readonly [string, PatternVerdict])[];
}
export type ShareResponse = { readonly share: Share; readonly verdicts: readonly (readonly [string, PatternVerdict])[] } | { readonly error: string };

/** One share loaded and resolved; a share whose loading failed is not resolved (nothing past loading is reported then). */
export const loadShare = (sources: readonly RawSource[], llm: Contract["llm"]): Share => {
  // The pattern checker judges what the files declare while they are parsed and resolved.
  prefetchVerdicts(sources.map((source) => source.text));
  const loaded = parseSources(sources);
  if (hasErrors(loaded.diagnostics)) return { loaded: loaded.diagnostics };
  return { loaded: loaded.diagnostics, resolved: resolveEach(loaded.value, llm) };
};

/** Shares (in the order of their sources) put together: a loading error anywhere stops there, as on one thread. */
const together = (shares: readonly Share[]): Front => {
  const loaded = shares.flatMap((s) => s.loaded);
  if (hasErrors(loaded)) return { loaded };
  return { loaded, resolved: assemble(shares.map((s) => s.resolved!)) };
};

/** The sources loaded and resolved on this thread; `llm` is `resolve`'s. */
export const resolveSources = (sources: readonly RawSource[], llm: Contract["llm"] = defaultLlm()): Front => together([loadShare(sources, llm)]);

const WORKER = new URL("./resolve-worker.js", import.meta.url);
/**
 * Characters of source a share holds at least: a worker loads the parser and the resolver first
 * (about 0.1 s, what parsing 300 KB of YAML costs), so a project smaller than two shares (the
 * usual one) is read on this thread alone.
 */
const SHARE = 512 * 1024;

/** `sources` (`total` characters) cut into at most `count` runs of about equal text, in their order. */
const cut = (sources: readonly RawSource[], total: number, count: number): RawSource[][] => {
  const shares: RawSource[][] = [[]];
  let size = 0;
  for (const source of sources) {
    if (size >= (total / count) * shares.length && shares.length < count) shares.push([]);
    shares.at(-1)!.push(source);
    size += source.text.length;
  }
  return shares.filter((s) => s.length > 0);
};

/** A worker's share: resolved there, and sent back with the pattern verdicts it reached. */
const inWorker = (request: ShareRequest): Promise<Share> =>
  new Promise<Share>((resolve, reject) => {
    // No inherited flags (see format-pool.ts): a parent run with `-e` would make the worker run that script.
    const worker = new Worker(WORKER, { execArgv: [], workerData: request });
    let answered = false;
    worker.once("message", (response: ShareResponse) => {
      answered = true;
      void worker.terminate();
      if ("error" in response) return reject(new Error(`a resolving worker failed: ${response.error}`));
      rememberVerdicts(response.verdicts);
      resolve(response.share);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`a resolving worker stopped (exit code ${code}) without its share`));
    });
  });

/**
 * The sources loaded and resolved as `resolveSources` does, a project of more than one share's text
 * split between this thread and one worker a core but this one. `workers` says how many took a
 * share. Without a built worker (treaty run from its sources, as the tests do), all on this thread.
 */
export const resolveSourcesInParallel = async (sources: readonly RawSource[], llm: Contract["llm"] = defaultLlm()): Promise<Front & { readonly workers: number }> => {
  const total = sources.reduce((n, s) => n + s.text.length, 0);
  const count = Math.min(availableParallelism(), Math.floor(total / SHARE), sources.length);
  if (count < 2 || !existsSync(fileURLToPath(WORKER))) return { ...resolveSources(sources, llm), workers: 0 };
  const [own, ...others] = cut(sources, total, count);
  const verdicts = durableVerdicts();
  const sent = others.map((share) => inWorker({ sources: share, llm, verdicts }));
  // Their failure is awaited below, after this thread's share: never an unhandled rejection meanwhile.
  for (const s of sent) s.catch(() => undefined);
  // This thread's share as a worker's comes: objects the deserializer makes have other hidden classes
  // than the resolver's, and a model of both made every later stage polymorphic (a cold run at 1,000
  // contracts spent 5 s more CPU than it saved).
  const mine = deserialize(serialize(loadShare(own!, llm))) as Share;
  return { ...together([mine, ...(await Promise.all(sent))]), workers: sent.length };
};
