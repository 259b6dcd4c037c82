// Files of the cache directory (the manifest, the pattern verdicts, the type declarations, the
// compiled templates) written whole or not at all.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { contentHash, makeDirs } from "../write/write.js";
import { compilerFingerprint } from "./fingerprint.js";

/**
 * Writes `contents` to `path` through a temporary file renamed over it, so a reader never sees half
 * of it. Best effort: false when the cache cannot be written (read-only, full, or its path running
 * through a file), after removing what was begun; never throws.
 */
export const writeCacheFile = (path: string, contents: string): boolean => {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    makeDirs(dirname(path));
    writeFileSync(temp, contents);
    renameSync(temp, path);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // no directory to hold it: nothing was begun
    }
    return false;
  }
};

// What this compiler worked out in an earlier run (a verdict, a declaration, a compiled template),
// kept as `{ format, key, entries, sum }`: keyed by the compiler's fingerprint (its code and its
// dependencies' versions) and checksummed, so a missing, stale, corrupt or truncated file holds
// nothing. Only an accelerator: what it holds is what this compiler would work out again.
const checksum = (format: number, key: string, entries: unknown): string => contentHash(JSON.stringify([format, key, entries]));

/** The entries kept at `path` by this compiler in the file format `format`; undefined unless they verify. */
export const readKeptEntries = <T>(path: string, format: number, isEntries: (value: unknown) => value is T): T | undefined => {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as { format?: unknown; key?: unknown; entries?: unknown; sum?: unknown };
    const key = compilerFingerprint();
    return parsed.format === format && parsed.key === key && isEntries(parsed.entries) && parsed.sum === checksum(format, key, parsed.entries) ? parsed.entries : undefined;
  } catch {
    return undefined; // unreadable: nothing kept
  }
};

/** Keeps `entries` at `path` for the next run of this compiler; best effort, as `writeCacheFile`. */
export const writeKeptEntries = (path: string, format: number, entries: unknown): boolean => {
  const key = compilerFingerprint();
  return writeCacheFile(path, JSON.stringify({ format, key, entries, sum: checksum(format, key, entries) }));
};

/** An array of `[string, string]` pairs. */
export const isStringPairs = (value: unknown): value is [string, string][] =>
  Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && typeof e[1] === "string");
