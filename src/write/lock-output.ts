// One `generate` at a time writes into an output directory. Two at once shared its staging
// directory: each took what the other had staged for a killed run's leftovers and dropped it, and
// one of them exited 70 (or both 1). A run holds a lock file beside the directory, made with `wx`
// and holding its pid, from before it finishes a killed run's change until after its manifest is
// written; another run waits for it. The lock of a run that died is taken over: its pid runs no
// more, or (on Linux, where the lock also holds the process's start time) the process with its pid
// started at another time: a pid reused by an unrelated process (in containers often) is no holder.
import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { errorCode, existingDir, makeDirs, WriteBlocked } from "./write.js";

/** The lock of `outDir`: beside it, as its staging directory is. */
export const lockPath = (outDir: string): string => join(dirname(outDir), `.${basename(outDir)}.treaty-lock`);

/** Another run holds the lock of the output directory (past the wait, or took it over from this one). */
export class OutputLocked extends Error {
  constructor(
    readonly lock: string,
    /** The holder's pid; undefined when its lock is not written yet. */
    readonly pid: number | undefined,
  ) {
    super(`${lock} is held by ${pid === undefined ? "another process" : `pid ${pid}`}`);
  }
}

export interface OutputLock {
  /** Throws `OutputLocked` when the lock is no longer this run's: asked at the commit point, so that a run that lost it writes nothing. */
  assertHeld(): void;
  release(): void;
}

export interface LockOptions {
  /** How long to wait for a live holder before `OutputLocked`. */
  readonly waitMs: number;
  /** Called once, with the holder's pid, when the run starts to wait. */
  readonly onWait?: (pid: number | undefined) => void;
  /** Stops the wait (`OutputLocked`): a watch stopped with Ctrl-C while its run waits. */
  readonly signal?: AbortSignal;
}

const POLL_MS = 100;
/** A lock still empty this long after it was made belongs to a run killed between making and writing it. */
const UNWRITTEN_STALE_MS = 10_000;

/** The locks this process holds: its own pid in a lock it does not hold is a dead run's (pids are reused, in containers often). */
const held = new Set<string>();

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM"; // another user's process
  }
};

/**
 * When process `pid` started (field 22 of /proc/<pid>/stat, in clock ticks since boot): with the pid,
 * it names one process, where a pid alone is reused. Undefined where there is no /proc (macOS,
 * Windows) or it cannot be read: the lock is then the pid alone.
 */
export const startTimeOf = (pid: number): string | undefined => {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Field 2, the command's name in parentheses, may hold spaces and ')': the fields after it follow its last ')'.
  const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[22 - 3];
  return start !== undefined && /^[0-9]+$/.test(start) ? start : undefined;
};

/** What a lock of process `pid` holds: `<pid>\n`, or `<pid> <start time>\n` where it is known. */
const lockText = (pid: number): string => {
  const start = startTimeOf(pid);
  return start === undefined ? `${pid}\n` : `${pid} ${start}\n`;
};

/** The process with pid `pid` started at another time than the lock's `start`: the lock's process died, and its pid went to another. */
const reused = (pid: number, start: string | undefined): boolean => {
  if (start === undefined) return false;
  const now = startTimeOf(pid);
  return now !== undefined && now !== start;
};

interface Holder {
  readonly text: string;
  readonly pid: number | undefined;
  readonly stale: boolean;
}

/** Who holds `lock`; undefined when it went meanwhile. */
const holderOf = (lock: string): Holder | undefined => {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(lock).mtimeMs;
    text = readFileSync(lock, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw new WriteBlocked(lock, errorCode(error));
  }
  const written = /^([1-9][0-9]*)(?: ([0-9]+))?\n$/.exec(text);
  const pid = written ? Number(written[1]) : undefined;
  const stale =
    pid === undefined ? Date.now() - mtimeMs > UNWRITTEN_STALE_MS
    : pid === process.pid ? !held.has(lock)
    : !alive(pid) || reused(pid, written![2]);
  return { text, pid, stale };
};

/**
 * Removes a stale lock, and only it: moved aside first, so that two runs taking it over at once do
 * not remove the lock the first of them made; a lock moved aside that is not the stale one is put
 * back (its run would otherwise find it lost at its commit point).
 */
const removeStale = (lock: string, stale: string): void => {
  const aside = `${lock}.${process.pid}`;
  try {
    renameSync(lock, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return; // another run took it over first
    throw new WriteBlocked(existingDir(dirname(lock)), errorCode(error));
  }
  try {
    if (readFileSync(aside, "utf8") !== stale) linkSync(aside, lock);
  } catch {
    // a new lock was made meanwhile: the run whose lock this was finds it lost and writes nothing
  }
  rmSync(aside, { force: true });
};

/**
 * One wait for a live `holder` of `lock`: a poll's pause, `onWait` told the first time, and
 * `OutputLocked` once `waitMs` from the first wait have passed (or the wait is stopped).
 */
const waiter = (lock: string, options: LockOptions): ((holder: Holder) => Promise<void>) => {
  const deadline = Date.now() + options.waitMs;
  let waiting = false;
  return async (holder) => {
    if (Date.now() >= deadline || options.signal?.aborted) throw new OutputLocked(lock, holder.pid);
    if (!waiting) options.onWait?.(holder.pid);
    waiting = true;
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), undefined, { signal: options.signal }).catch(() => {});
  };
};

/** Takes the lock of `outDir`, waiting while a live run holds it; throws `OutputLocked` past `waitMs`, `WriteBlocked` where no lock can be made. */
export const lockOutput = async (outDir: string, options: LockOptions): Promise<OutputLock> => {
  const lock = lockPath(outDir);
  const mine = lockText(process.pid);
  const wait = waiter(lock, options);
  try {
    makeDirs(dirname(lock));
  } catch (error) {
    throw new WriteBlocked(existingDir(dirname(lock)), errorCode(error));
  }
  for (;;) {
    try {
      writeFileSync(lock, mine, { flag: "wx" });
      held.add(lock);
      return {
        assertHeld: () => {
          const holder = holderOf(lock);
          if (holder?.text !== mine) throw new OutputLocked(lock, holder?.pid);
        },
        release: () => {
          held.delete(lock);
          if (holderOf(lock)?.text === mine) rmSync(lock, { force: true });
        },
      };
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw new WriteBlocked(existingDir(dirname(lock)), errorCode(error));
    }
    const holder = holderOf(lock);
    if (holder === undefined) continue;
    if (holder.stale) {
      removeStale(lock, holder.text);
      continue;
    }
    await wait(holder);
  }
};

/**
 * Waits, writing nothing, while a live run holds the lock of `outDir`: for `--check`, which takes no
 * lock (it writes nothing, and a read-only checkout could not make one) but beside a run that is
 * writing listed the files that run was replacing as stale. A stale lock is not waited for, nor
 * removed; an unreadable one is not waited for. Throws `OutputLocked` past `waitMs`.
 */
export const awaitWriters = async (outDir: string, options: LockOptions): Promise<void> => {
  const lock = lockPath(outDir);
  const wait = waiter(lock, options);
  for (;;) {
    let holder: Holder | undefined;
    try {
      holder = holderOf(lock);
    } catch {
      return;
    }
    if (holder === undefined || holder.stale) return;
    await wait(holder);
  }
};
