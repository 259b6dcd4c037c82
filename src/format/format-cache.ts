import { createHash } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EmittedFile } from "../emit/file-builder.js";
import { TREATY_VERSION } from "../version.js";
import { createPackStore, type CacheLimits } from "./pack-store.js";
import { PRETTIER_OPTIONS, PRETTIER_VERSION, parserOf } from "./prettier-format.js";

/**
 * Formatted files by the hash of everything their formatting depends on, so a hit is byte-identical
 * to formatting again. Best effort: an unreadable entry is a miss, an unwritable directory is ignored.
 */
export interface FormatCache {
  get(key: string): string | undefined;
  /** Held for this run's later `get`s at once; on disk for the next run after `close`. */
  set(key: string, formatted: string): void;
  /** Finishes what this run wrote (one pack, see `createFormatCache`) and lets go of the cache's files. */
  close(): void;
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

/** Where the formatted files are kept, in packs (see pack-store.ts): one file a run that formatted something. */
const PACKS = "format-packs";
/** Where treaty kept an entry a file before packs: nothing reads it now, and the first run that writes a pack removes it. */
const LEGACY = "formatted";

/**
 * A cache in `dir` (undefined: caches nothing). With `readOnly`, never writes (for `--check`).
 * `limits`: how many packs and bytes it keeps (tests make them small).
 */
export const createFormatCache = (dir: string | undefined, options: { readOnly: boolean; limits?: CacheLimits }): FormatCache => {
  if (dir === undefined) return { get: () => undefined, set: () => {}, close: () => {} };
  const store = createPackStore(join(dir, PACKS), options);
  return {
    get: store.get,
    set: store.set,
    close: () => {
      if (!store.close()) return;
      try {
        rmSync(join(dir, LEGACY), { recursive: true, force: true });
      } catch {
        // best effort: nothing reads it
      }
    },
  };
};
