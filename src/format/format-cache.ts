import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { EmittedFile } from "../emit/file-builder.js";
import { TREATY_VERSION } from "../version.js";
import { PRETTIER_OPTIONS, PRETTIER_VERSION, parserOf } from "./prettier-format.js";

/**
 * Formatted files by the hash of everything their formatting depends on, so a hit is byte-identical
 * to formatting again. Best effort: an unreadable entry is a miss, an unwritable directory is ignored.
 */
export interface FormatCache {
  get(key: string): string | undefined;
  set(key: string, formatted: string): void;
  /** Resolves once every entry `set` was given is written (or given up). */
  flush(): Promise<void>;
}

// What prettier's output depends on besides the contents and parser; treaty's version, so that an
// upgrade never reads entries an older treaty wrote.
const SALT = JSON.stringify({ treaty: TREATY_VERSION, prettier: PRETTIER_VERSION, options: PRETTIER_OPTIONS });

/** The cache key of an emitted (unformatted) file. */
export const formatKey = (file: Pick<EmittedFile, "contents" | "language">): string =>
  createHash("sha256").update(SALT).update("\0").update(parserOf(file.language)).update("\0").update(file.contents).digest("hex");

/**
 * The cache key of the statements last formatted for the file at `path` (relative to the output
 * directory), by their own keys: a file that changed keeps most of its statements.
 */
export const statementsKey = (path: string): string => createHash("sha256").update(SALT).update("\0statements of\0").update(path).digest("hex");

/**
 * `TREATY_CACHE_DIR` when set (a CI cache, or one cache for many throwaway projects), else
 * `node_modules/.cache/treaty` of the nearest package at or above `root` (as find-cache-dir does);
 * undefined if neither.
 */
export const findCacheDir = (root: string): string | undefined => {
  const chosen = process.env["TREATY_CACHE_DIR"];
  if (chosen) return chosen;
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "node_modules", ".cache", "treaty");
    if (dirname(dir) === dir) return undefined;
  }
};

/** Characters of entries being written at once; past it, an entry is written before `set` returns (memory stays bounded). */
const PENDING_CHARACTERS = 16 * 2 ** 20;

/**
 * A cache in `dir` (undefined: caches nothing). With `readOnly`, never writes (for `--check`).
 * Entries are written off the main thread (`flush` waits for them); a read of an entry whose
 * directory did not exist when the run began costs no system call, so a cold run reads nothing.
 */
export const createFormatCache = (dir: string | undefined, options: { readOnly: boolean }): FormatCache => {
  if (dir === undefined) return { get: () => undefined, set: () => {}, flush: async () => {} };
  const root = join(dir, "formatted");
  const entry = (key: string): string => join(root, key.slice(0, 2), key.slice(2));
  let writable = !options.readOnly;
  // The entries' directories (`formatted/<first two hex digits>`) there are: read once, on first use.
  let present: Set<string> | undefined;
  const directories = (): Set<string> => {
    if (present === undefined) {
      try {
        present = new Set(readdirSync(root));
      } catch {
        present = new Set();
      }
    }
    return present;
  };
  // Entries being written, by key: served from here until the file is there.
  const pending = new Map<string, string>();
  const writes = new Set<Promise<void>>();
  let pendingCharacters = 0;
  const made = new Map<string, Promise<unknown>>();
  // Written to a temporary file then renamed: a reader never sees half an entry, concurrent writers agree on its contents.
  const temporary = (path: string): string => `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const write = async (key: string, formatted: string): Promise<void> => {
    const path = entry(key);
    const temp = temporary(path);
    const prefix = key.slice(0, 2);
    let directory = made.get(prefix);
    if (directory === undefined) made.set(prefix, (directory = mkdir(dirname(path), { recursive: true })));
    await directory;
    await writeFile(temp, formatted);
    await rename(temp, path);
    directories().add(prefix);
  };
  return {
    get: (key) => {
      const held = pending.get(key);
      if (held !== undefined) return held;
      if (!directories().has(key.slice(0, 2))) return undefined;
      try {
        return readFileSync(entry(key), "utf8");
      } catch {
        return undefined;
      }
    },
    set: (key, formatted) => {
      if (!writable || pending.has(key)) return;
      if (pendingCharacters > PENDING_CHARACTERS) {
        try {
          const path = entry(key);
          const temp = temporary(path);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(temp, formatted);
          renameSync(temp, path);
          directories().add(key.slice(0, 2));
        } catch {
          writable = false; // not writable here: run uncached rather than fail
        }
        return;
      }
      pending.set(key, formatted);
      pendingCharacters += formatted.length;
      const done: Promise<void> = write(key, formatted)
        .catch(() => {
          writable = false;
        })
        .finally(() => {
          pending.delete(key);
          pendingCharacters -= formatted.length;
          writes.delete(done);
        });
      writes.add(done);
    },
    flush: async () => {
      while (writes.size > 0) await Promise.all(writes);
    },
  };
};
