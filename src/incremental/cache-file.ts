// Files of the cache directory (the manifest, the pattern verdicts) written whole or not at all.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Writes `contents` to `path` through a temporary file renamed over it, so a reader never sees half
 * of it. Best effort: false when the cache cannot be written (read-only, full, or its path running
 * through a file), after removing what was begun; never throws.
 */
export const writeCacheFile = (path: string, contents: string): boolean => {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
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
