import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { OneLine, type EmittedFile } from "../emit/file-builder.js";
import type { FormatRequest, FormatResponse } from "./format-worker.js";
import { formatKey, statementsKey, type FormatCache } from "./format-cache.js";
import { declaresData, directLayout, layoutDeclaration } from "./json-layout.js";
import { layoutCode } from "./code-layout.js";
import { STATEMENT_CUT as CUT, formatText } from "./format-text.js";
import { joinStatements, leadingLineComments, splitStatements, type Statements } from "./statements.js";

/**
 * Formats files off the main thread, so emitting the next files overlaps formatting the last. A
 * TypeScript file is formatted as its top-level statements (src/format/statements.ts), each
 * distinct one once a run: a contract's versions repeat most of theirs.
 */
export interface FormatPool {
  /** The formatted contents of `file`, from the cache or a worker. */
  format(file: EmittedFile): Promise<string>;
  /** Ends the workers, and waits for the cache to hold what they formatted. */
  close(): Promise<void>;
}

const WORKER = new URL("./format-worker.js", import.meta.url);
/**
 * Characters (about 64 files) formatted on the main thread before workers start: each worker loads
 * prettier (about what formatting 30 files costs), which a run that changed one contract does not earn back.
 */
const IN_THREAD_FIRST = 512 * 1024;
/**
 * Characters of a declaration of data from which a worker lays it out rather than the main thread,
 * once workers run: the main thread, which emits, is the busier (an LLM projection's declarations
 * were a tenth of its time at 1,000 contracts); a small one costs more to send than to print.
 */
const OFFLOAD = 2 * 1024;
/**
 * Characters of requests sent to a worker in one message: each message wakes the worker, which on
 * 2 cores took the main thread's core (11,800 messages of a cold run at 1,000 contracts, 6–10 s of the
 * main thread's wall time in postMessage). A smaller batch is sent once the thread is between tasks.
 */
const POSTED = 64 * 1024;
/** Characters of statements formatted in one call at most: a file's share of the workers. */
const BATCH = 128 * 1024;
/**
 * Characters of statements kept formatted for reuse in a run (with their results about 16 MB), so
 * memory stays bounded: the versions of the contracts being emitted (about 20) share most of them,
 * and the main thread's heap grows to a multiple of what it holds (16 MB of text held: 60 MB more
 * peak at 1,000 contracts).
 */
const HELD_STATEMENTS = 4 * 2 ** 20;
/** Characters of imports and exports kept printed for reuse in a run. */
const HELD_WIRINGS = 2 ** 20;

/**
 * Values (objects, arrays, literals) of a JSON file's data up to which a worker lays it out from its
 * text: a larger one is laid out here from its data, which keeps its text unwritten (a 20,000-field
 * contract's JSON files are 80 MB of text, and the worker's tree of one held 400 MB more at its peak).
 */
const OFFLOAD_VALUES = 16_384;

/** Whether `value` holds at most `max` values, counted until it holds more. */
const holdsAtMost = (value: unknown, max: number): boolean => {
  let left = max;
  const within = (item: unknown): boolean => {
    if (--left < 0) return false;
    const inner = item instanceof OneLine ? item.value : item;
    if (inner === null || typeof inner !== "object") return true;
    for (const next of Array.isArray(inner) ? inner : Object.values(inner)) if (!within(next)) return false;
    return true;
  };
  return within(value);
};

/** A worker, the requests it was sent and has not answered, and those not yet sent. */
interface Entry {
  readonly worker: Worker;
  busy: number;
  batch: FormatRequest[];
  batched: number;
}

/** The first line of a statement that is not a comment. */
const codeLine = (text: string): string | undefined => text.split("\n", 8).find((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line));
/**
 * Whether `text` imports or exports names (a file's wiring, short and in every file): printed here
 * in prettier's layout, since sent to a worker, one would keep a file of data declarations from
 * being printed without the cache.
 */
const isWiring = (text: string): boolean => /^(?:import |export (?:type )?[{*])/.test(codeLine(text) ?? "");

/** A statement's layout that its emitter knew (`EmittedFile.laidOut`), after any line comments before it (a file's header). */
const knownLayout = (laidOut: ReadonlyMap<string, string>, text: string): string | undefined => {
  const exact = laidOut.get(text);
  if (exact !== undefined) return exact;
  const { comments, rest } = leadingLineComments(text);
  const statement = comments === "" ? undefined : laidOut.get(rest);
  return statement === undefined ? undefined : `${comments}${statement}`;
};

/**
 * One worker a core but the main thread's, which emits the files and is the busiest (on 2 cores a second
 * worker only took turns with it: the 300-contract and 20,000-field cold runs cost 5-6% more CPU
 * and 110 MB more memory, interleaved), started once `IN_THREAD_FIRST` characters were not in the cache (a run that finds
 * everything formatted, or changed little, starts none). Without a built worker (treaty run from its sources, as the
 * tests do), formats on the main thread: the output is the same.
 */
export const createFormatPool = (cache: FormatCache): FormatPool => {
  const inThread = !existsSync(fileURLToPath(WORKER));
  const pending = new Map<number, { resolve: (value: string | undefined) => void; reject: (error: Error) => void }>();
  let workers: Entry[] | undefined;
  let next = 0;
  let misses = 0;
  let flushing = false;
  const start = (): Entry[] =>
    Array.from({ length: Math.max(1, availableParallelism() - 1) }, () => {
      // No inherited flags: a parent run as `node --input-type=module -e ...` would make the worker
      // run that script instead of the formatter.
      // A young generation of 16 MB rather than V8's default (about three times that): each worker's
      // share of the peak memory of a cold run of 1,000 contracts (1,025–1,131 MB → 969 MB).
      const worker = new Worker(WORKER, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 16 } });
      const entry: Entry = { worker, busy: 0, batch: [], batched: 0 };
      worker.on("message", (responses: readonly FormatResponse[]) => {
        for (const response of responses) {
          const waiting = pending.get(response.id)!;
          pending.delete(response.id);
          entry.busy--;
          if ("error" in response) waiting.reject(new Error(`prettier failed: ${response.error}`));
          else waiting.resolve("formatted" in response ? response.formatted : response.laidOut);
        }
      });
      // A worker that fails or stops with work outstanding fails that work: never a promise left pending.
      const fail = (error: Error): void => {
        for (const waiting of pending.values()) waiting.reject(error);
        pending.clear();
      };
      worker.on("error", fail);
      worker.on("exit", (code) => {
        if (pending.size > 0) fail(new Error(`a formatting worker stopped (exit code ${code}) with work outstanding`));
      });
      return entry;
    });
  /** Posts each worker's batch (once the thread is between tasks, or once a batch is large enough to start on). */
  const flush = (): void => {
    flushing = false;
    for (const entry of workers ?? []) {
      if (entry.batch.length === 0) continue;
      entry.worker.postMessage(entry.batch);
      entry.batch = [];
      entry.batched = 0;
    }
  };
  /** `request` (its id aside) for the least busy worker, started at the first: files differ a hundredfold in size. */
  const post = <T>(request: Omit<FormatRequest, "id">): Promise<T> => {
    workers ??= start();
    const id = next++;
    const chosen = workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    chosen.busy++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: string | undefined) => void, reject });
      chosen.batch.push({ id, ...request });
      chosen.batched += request.contents.length;
      if (chosen.batched >= POSTED) flush();
      else if (!flushing) {
        flushing = true;
        setImmediate(flush);
      }
    });
  };
  const run = async (contents: string, language: EmittedFile["language"]): Promise<string> => {
    if (inThread || (misses += contents.length) <= IN_THREAD_FIRST) return formatText(contents, language);
    return post<string>({ contents, language });
  };
  /**
   * Statements formatted in one call, cut apart again at a marker comment between them: prettier's
   * cost per call (normalizing its options) is that of a few statements. Should the marker not come
   * back as it went in, each is formatted alone.
   */
  const batch = async (texts: readonly string[]): Promise<string[]> => {
    if (texts.length === 1) return [await run(texts[0]!, "typescript")];
    const parts = (await run(texts.join(CUT), "typescript")).split(CUT);
    return parts.length === texts.length ? parts : Promise.all(texts.map((text) => run(text, "typescript")));
  };
  /** `texts` in batches of about `BATCH` characters, so the statements of one large file format on every worker. */
  const batches = async (texts: readonly string[]): Promise<string[]> => {
    const groups: string[][] = [[]];
    let size = 0;
    for (const text of texts) {
      if (size >= BATCH) {
        groups.push([]);
        size = 0;
      }
      groups.at(-1)!.push(text);
      size += text.length;
    }
    return (await Promise.all(groups.map(batch))).flat();
  };
  // Imports and exports printed on this thread, by their text, for this run: most are alike in every
  // contract's files. Only those: holding every statement printed here (up to HELD_STATEMENTS) kept
  // a 20,000-field contract's run 130 MB higher.
  const wirings = new Map<string, string | null>();
  let wiringsHeld = 0;
  const wiring = (text: string): string | undefined => {
    if (!isWiring(text)) return undefined;
    let printed = wirings.get(text);
    if (printed === undefined) {
      if (wiringsHeld > HELD_WIRINGS) {
        wirings.clear();
        wiringsHeld = 0;
      }
      wirings.set(text, (printed = layoutCode(text) ?? null));
      wiringsHeld += text.length;
    }
    return printed ?? undefined;
  };
  // Formatted statements by their text, for this run: held in memory, up to a bound.
  const statements = new Map<string, Promise<string>>();
  let held = 0;
  /** `texts` formatted; those `earlier` holds (by their cache keys, `keys`) are not formatted again. */
  const formatStatements = (texts: readonly string[], keys: readonly string[], earlier: ReadonlyMap<string, string>): Promise<string[]> => {
    if (held > HELD_STATEMENTS) {
      statements.clear();
      held = 0;
    }
    texts.forEach((text, i) => {
      const known = earlier.get(keys[i]!);
      if (known !== undefined && !statements.has(text)) statements.set(text, Promise.resolve(known));
    });
    const fresh = [...new Set(texts.filter((text) => !statements.has(text)))];
    if (fresh.length > 0) {
      const done = batches(fresh);
      fresh.forEach((text, i) => {
        statements.set(text, done.then((parts) => parts[i]!));
        held += text.length;
      });
    }
    return Promise.all(texts.map((text) => statements.get(text)!));
  };
  /**
   * The statements the cache holds for the file at `path` as the last run that formatted it left them
   * (empty when it holds none whose checksum verifies: a spoiled entry is no entry).
   */
  const earlierStatements = (path: string): Map<string, string> => {
    try {
      // The pack checksums the entry (pack-store.ts): a spoiled one is no entry.
      const entry = JSON.parse(cache.get(statementsKey(path)) ?? "null") as { statements?: unknown } | null;
      const held = entry?.statements;
      if (!Array.isArray(held)) return new Map();
      return new Map((held as unknown[]).filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === "string" && typeof e[1] === "string"));
    } catch {
      return new Map();
    }
  };
  /**
   * A TypeScript file's statements, each declaration of data and each import or export of names printed in prettier's layout without it
   * (a large declaration by a worker, once workers run: the main thread is the busier), undefined for the rest; undefined when the
   * file cannot be cut (see statements.ts).
   */
  const cut = (file: EmittedFile): { pieces: Statements[]; direct: (string | Promise<string> | undefined)[] } | undefined => {
    const pieces = file.language === "typescript" ? splitStatements(file.contents) : [];
    if (pieces.length === 0 || (pieces.length === 1 && file.laidOut === undefined)) return undefined;
    const known = (text: string): string | undefined => (file.laidOut === undefined ? undefined : knownLayout(file.laidOut, text));
    const direct = (text: string): string | Promise<string> | undefined => {
      const laidOut = known(text);
      if (laidOut !== undefined) return laidOut;
      // A large declaration of data (an LLM projection of a wide contract) is laid out by a worker when there is one.
      if (workers !== undefined && text.length >= OFFLOAD && declaresData(text)) return run(text, "typescript");
      return layoutDeclaration(text) ?? wiring(text);
    };
    return { pieces, direct: pieces.map((piece) => (piece.part === undefined ? direct(piece.text) : undefined)) };
  };
  /** `file` formatted: the statements `direct` does not print through the workers (a piece at a time), else the whole file. */
  const formatted = async (file: EmittedFile, statements: ReturnType<typeof cut>): Promise<string> => {
    if (statements) {
      const { pieces } = statements;
      // Awaited below, after the rest is formatted; should that fail first, it is the file's failure.
      const direct = Promise.all(statements.direct);
      direct.catch(() => undefined);
      try {
        const texts = pieces.filter((_, i) => statements.direct[i] === undefined).map((piece) => piece.text);
        const keys = texts.map((text) => formatKey({ contents: text, language: "typescript" }));
        const formatted = await formatStatements(texts, keys, earlierStatements(file.path));
        const held = keys.map((key, i) => [key, formatted[i]!]);
        cache.set(statementsKey(file.path), JSON.stringify({ statements: held }));
        let next = 0;
        return joinStatements(pieces, (await direct).map((text) => text ?? formatted[next++]!));
      } catch {
        // A cut inside a construct: the file as one below, which reports a real syntax error.
      }
    }
    return run(file.contents, file.language);
  };
  return {
    format: async (file) => {
      // JSON is laid out without prettier (json-layout.ts): by a worker from its text once workers run, else (or when large) here from its data.
      const offload = file.language === "json" && workers !== undefined && file.data !== undefined && holdsAtMost(file.data, OFFLOAD_VALUES);
      const direct = offload ? await post<string | undefined>({ contents: file.contents, language: "json", layoutOnly: true }) : directLayout(file);
      if (direct !== undefined) return direct;
      // A file its emitter wrote in prettier's layout whole.
      const whole = file.laidOut?.get(file.contents);
      if (whole !== undefined) return whole;
      // Looked up before it is cut: a warm run's hit costs a hash and a read (cutting first cost a
      // full run over idl/ 19% more CPU). A file of data declarations only (the LLM projections, the
      // shapes) is then printed as JSON is, and not cached: printing it costs less than writing its
      // entry (at 300 contracts the cache held as many bytes as the output).
      const key = formatKey(file);
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const statements = cut(file);
      if (statements?.direct.every((text) => text !== undefined)) return joinStatements(statements.pieces, await Promise.all(statements.direct as (string | Promise<string>)[]));
      const contents = await formatted(file, statements);
      cache.set(key, contents);
      return contents;
    },
    close: async () => {
      await Promise.all((workers ?? []).map((w) => w.worker.terminate()));
    },
  };
};
