// recheck's verdicts on contract patterns, kept in the cache directory: starting recheck costs about
// 0.4 s a process, and a run whose patterns were all judged before need not start it. Only an
// accelerator: the file is keyed by the compiler's fingerprint (which covers recheck's version) and
// carries a checksum of its verdicts, so a missing, stale, corrupt or truncated file is no verdicts
// at all and every pattern is checked as if there were no cache.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { durableVerdicts, rememberVerdicts, type PatternVerdict } from "../resolve/pattern-safety.js";
import { contentHash } from "../write/write.js";
import { writeCacheFile } from "./cache-file.js";
import { compilerFingerprint } from "./fingerprint.js";

/** Pattern and verdict (null: proved linear), in JSON. */
type Entries = [string, string | null][];

const FORMAT = 1;

const verdictsPath = (cacheDir: string): string => join(cacheDir, "pattern-verdicts.json");

const checksum = (key: string, entries: Entries): string => contentHash(JSON.stringify([FORMAT, key, entries]));

const isEntries = (value: unknown): value is Entries =>
  Array.isArray(value) &&
  value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && (e[1] === null || typeof e[1] === "string"));

/** How many verdicts the cache held when read: a run that reached no new one leaves the file as it is. */
let read = 0;

/** Seeds the pattern checker with the verdicts the cache holds for this compiler; nothing when it holds none that verify. */
export const loadPatternVerdicts = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  try {
    const parsed = JSON.parse(readFileSync(verdictsPath(cacheDir), "utf8")) as { format?: unknown; key?: unknown; entries?: unknown; sum?: unknown };
    const key = compilerFingerprint();
    if (parsed.format !== FORMAT || parsed.key !== key || !isEntries(parsed.entries) || parsed.sum !== checksum(key, parsed.entries)) return;
    rememberVerdicts(parsed.entries.map(([pattern, verdict]): [string, PatternVerdict] => [pattern, verdict ?? undefined]));
    read = parsed.entries.length;
  } catch {
    // unreadable: every pattern is checked
  }
};

/** Best effort, like the manifest: the verdicts of this process (those of earlier runs included) for the next run. */
export const savePatternVerdicts = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  const entries: Entries = durableVerdicts().map(([pattern, verdict]) => [pattern, verdict ?? null]);
  if (entries.length === read) return;
  const key = compilerFingerprint();
  if (writeCacheFile(verdictsPath(cacheDir), JSON.stringify({ format: FORMAT, key, entries, sum: checksum(key, entries) }))) read = entries.length;
};
