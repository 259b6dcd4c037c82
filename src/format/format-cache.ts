import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EmittedFile } from "../emit/file-builder.js";
import { TREATY_VERSION } from "../version.js";
import { makeDirs } from "../write/write.js";
import { PRETTIER_OPTIONS, PRETTIER_VERSION, parserOf } from "./prettier-format.js";

/**
 * Formatted files by the hash of everything their formatting depends on, so a hit is byte-identical
 * to formatting again. Best effort: an unreadable entry is a miss, an unwritable directory is ignored.
 */
export interface FormatCache {
  get(key: string): string | undefined;
  /** Written before it returns (or given up: an unwritable cache stops writing). */
  set(key: string, formatted: string): void;
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

/**
 * A cache in `dir` (undefined: caches nothing). With `readOnly`, never writes (for `--check`).
 * Entries are written as they are set, synchronously (written through `fs/promises` they cost the
 * main thread more and the process twice the CPU); a read of an entry whose directory did not
 * exist when the run began costs no system call unless this run wrote the entry, so a cold run
 * reads only what it wrote.
 */
export const createFormatCache = (dir: string | undefined, options: { readOnly: boolean }): FormatCache => {
  if (dir === undefined) return { get: () => undefined, set: () => {} };
  const root = join(dir, "formatted");
  const entry = (key: string): string => join(root, key.slice(0, 2), key.slice(2));
  let writable = !options.readOnly;
  // The entries' directories (`formatted/<first two hex digits>`) there were: read once, on first use.
  let present: Set<string> | undefined;
  // Directories this run made, and the entries it wrote there (the only ones they hold).
  const made = new Set<string>();
  const written = new Set<string>();
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
  // Written to a temporary file then renamed: a reader never sees half an entry, concurrent writers agree on its contents.
  const temporary = (path: string): string => `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  return {
    get: (key) => {
      const prefix = key.slice(0, 2);
      if (made.has(prefix) ? !written.has(key) : !directories().has(prefix)) return undefined;
      try {
        return readFileSync(entry(key), "utf8");
      } catch {
        return undefined;
      }
    },
    set: (key, formatted) => {
      if (!writable) return;
      const path = entry(key);
      const temp = temporary(path);
      const prefix = key.slice(0, 2);
      try {
        if (!directories().has(prefix) && !made.has(prefix)) {
          makeDirs(dirname(path));
          made.add(prefix);
        }
        writeFileSync(temp, formatted);
        renameSync(temp, path);
        if (made.has(prefix)) written.add(key);
      } catch {
        writable = false; // not writable here: run uncached rather than fail
      }
    },
  };
};
