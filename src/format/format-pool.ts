import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { EmittedFile } from "../emit/file-builder.js";
import type { FormatRequest, FormatResponse } from "./format-worker.js";
import { formatKey, type FormatCache } from "./format-cache.js";
import { directLayout } from "./json-layout.js";
import { prettierFormat } from "./prettier-format.js";

/** Formats files off the main thread, so emitting the next files overlaps formatting the last. */
export interface FormatPool {
  /** The formatted contents of `file`, from the cache or a worker. */
  format(file: EmittedFile): Promise<string>;
  /** Ends the workers. */
  close(): Promise<void>;
}

const WORKER = new URL("./format-worker.js", import.meta.url);
/**
 * Files formatted on the main thread before workers start: each worker loads prettier (about what
 * formatting 30 files costs), which a run that changed one contract does not earn back.
 */
const IN_THREAD_FIRST = 64;

/**
 * One worker a core, started once `IN_THREAD_FIRST` files were not in the cache (a run that finds
 * everything formatted, or changed little, starts none). Without a built worker (treaty run from its sources, as the
 * tests do), formats on the main thread: the output is the same.
 */
export const createFormatPool = (cache: FormatCache): FormatPool => {
  const inThread = !existsSync(fileURLToPath(WORKER));
  const pending = new Map<number, { resolve: (formatted: string) => void; reject: (error: Error) => void }>();
  let workers: { worker: Worker; busy: number }[] | undefined;
  let next = 0;
  let misses = 0;
  const start = (): { worker: Worker; busy: number }[] =>
    Array.from({ length: availableParallelism() }, () => {
      const worker = new Worker(WORKER);
      const entry = { worker, busy: 0 };
      worker.on("message", (response: FormatResponse) => {
        const waiting = pending.get(response.id)!;
        pending.delete(response.id);
        entry.busy--;
        if ("formatted" in response) waiting.resolve(response.formatted);
        else waiting.reject(new Error(`prettier failed: ${response.error}`));
      });
      worker.on("error", (error) => {
        for (const waiting of pending.values()) waiting.reject(error);
        pending.clear();
      });
      return entry;
    });
  const formatted = async (file: EmittedFile): Promise<string> => {
    if (inThread || ++misses <= IN_THREAD_FIRST) return prettierFormat(file.contents, file.language);
    workers ??= start();
    const id = next++;
    // The least busy worker: files differ a hundredfold in size.
    const chosen = workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    chosen.busy++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      chosen.worker.postMessage({ id, contents: file.contents, language: file.language } satisfies FormatRequest);
    });
  };
  return {
    format: async (file) => {
      const direct = directLayout(file);
      if (direct !== undefined) return direct;
      const key = formatKey(file);
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const contents = await formatted(file);
      cache.set(key, contents);
      return contents;
    },
    close: async () => {
      await Promise.all((workers ?? []).map((w) => w.worker.terminate()));
    },
  };
};
