// A cold run stages tens of thousands of files, and each write is a system call that held the main
// thread, the busiest of the run, while the formatting worker beside it sat idle part of the time.
// Past the first files, the writer hands each staged file to a worker of its own: the main thread
// posts the text and goes on emitting; the commit waits for the worker to have written everything.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

/** What the worker is told (in batches): a file to write, its directories made first. */
export interface WriteRequest {
  readonly path: string;
  readonly contents: string;
}

/** What the worker says of a write that failed. */
export interface WriteFailure {
  readonly path: string;
  readonly code: string;
}

/** The worker's data: how many writes it finished (a shared counter), and where it reports failures. */
export interface WriterData {
  readonly finished: Int32Array;
  readonly failures: MessagePort;
}

type MessagePort = InstanceType<typeof MessageChannel>["port1"];

export interface BackgroundWrites {
  write(path: string, contents: string): void;
  /** Waits for every write posted; the first that failed, if any. */
  settle(): WriteFailure | undefined;
  /** Ends the worker (after `settle`, or to drop what it still has to do). */
  close(): void;
}

const WORKER = new URL("./write-worker.js", import.meta.url);
/** How long the commit waits for a worker that finishes no write (one file never takes this long). */
const STALL_MS = 60_000;
/** Characters of text posted to the worker and not yet written, at most. */
const MAX_QUEUED = 32 * 2 ** 20;
/** A batch is posted once it holds this many characters, or this many files. */
const BATCH = 256 * 1024;
const BATCH_FILES = 64;

/** A worker writing files; undefined where there is no built worker (treaty run from its sources, as the tests do): the caller writes in its thread. */
export const createBackgroundWrites = (): BackgroundWrites | undefined => {
  if (!existsSync(fileURLToPath(WORKER))) return undefined;
  const finished = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  // No inherited flags (see format-pool.ts); a small young generation: it holds one file at a time.
  const worker = new Worker(WORKER, { execArgv: [], workerData: { finished, failures: port2 } satisfies WriterData, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  worker.unref();
  let posted = 0;
  // The texts posted and not yet written, held in the worker's queue: bounded, or a slow disk would
  // have the whole tree in memory. Sizes by position, and the first not known to be written.
  const sizes: number[] = [];
  let retired = 0;
  let queued = 0;
  let stopped: string | undefined;
  worker.on("error", (error) => (stopped = `a writing worker failed: ${error.message}`));
  worker.on("exit", (code) => (stopped ??= `a writing worker stopped (exit code ${code})`));
  /**
   * Sleeps until the worker has finished `target` writes. The thread's events wait meanwhile (the
   * worker's exit among them), so a worker that finishes nothing for STALL_MS is taken for dead.
   */
  const waitFor = (target: number): void => {
    let progress = Date.now();
    for (let done = Atomics.load(finished, 0); done < target; ) {
      if (stopped !== undefined) throw new Error(stopped);
      Atomics.wait(finished, 0, done, 1000);
      const now = Atomics.load(finished, 0);
      if (now !== done) progress = Date.now();
      else if (Date.now() - progress > STALL_MS) throw new Error(`a writing worker finished no write in ${STALL_MS / 1000} s`);
      done = now;
    }
  };
  // Files go to the worker a batch at a time: a message costs the main thread about 30 µs whatever
  // it holds, a file's write about as much.
  let batch: WriteRequest[] = [];
  let batched = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    worker.postMessage(batch);
    batch = [];
    batched = 0;
  };
  const retire = (): void => {
    for (const done = Atomics.load(finished, 0); retired < done; retired++) queued -= sizes[retired]!;
  };
  return {
    write: (path, contents) => {
      retire();
      // Past the bound, the oldest texts are waited for (all of them, for one text larger than the bound).
      let left = queued;
      let until = retired;
      while (left > 0 && left + contents.length > MAX_QUEUED) left -= sizes[until++]!;
      if (until > retired) {
        flush();
        waitFor(until);
        retire();
      }
      batch.push({ path, contents });
      batched += contents.length;
      sizes.push(contents.length);
      queued += contents.length;
      posted++;
      if (batched >= BATCH || batch.length >= BATCH_FILES) flush();
    },
    settle: () => {
      flush();
      // The main thread has nothing else to do at the commit: it sleeps until the count is reached.
      waitFor(posted);
      return receiveMessageOnPort(port1)?.message as WriteFailure | undefined;
    },
    close: () => {
      port1.close();
      void worker.terminate();
    },
  };
};
