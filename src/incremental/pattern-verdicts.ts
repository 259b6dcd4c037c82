// recheck's verdicts on contract patterns, kept in the cache directory: starting recheck costs about
// 0.4 s a process, and a run whose patterns were all judged before need not start it. Only an
// accelerator (cache-file.ts): a missing, stale, corrupt or truncated file is no verdicts at all and
// every pattern is checked as if there were no cache.
import { join } from "node:path";
import { durableVerdicts, rememberVerdicts, type PatternVerdict } from "../resolve/pattern-safety.js";
import { readKeptEntries, writeKeptEntries } from "./cache-file.js";

/** Pattern and verdict (null: proved linear), in JSON. */
type Entries = [string, string | null][];

const FORMAT = 1;

const verdictsPath = (cacheDir: string): string => join(cacheDir, "pattern-verdicts.json");

const isEntries = (value: unknown): value is Entries =>
  Array.isArray(value) &&
  value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && (e[1] === null || typeof e[1] === "string"));

/** How many verdicts the cache held when read: a run that reached no new one leaves the file as it is. */
let read = 0;

/** Seeds the pattern checker with the verdicts the cache holds for this compiler; nothing when it holds none that verify. */
export const loadPatternVerdicts = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  const entries = readKeptEntries(verdictsPath(cacheDir), FORMAT, isEntries);
  if (entries === undefined) return;
  rememberVerdicts(entries.map(([pattern, verdict]): [string, PatternVerdict] => [pattern, verdict ?? undefined]));
  read = entries.length;
};

/** Best effort, like the manifest: the verdicts of this process (those of earlier runs included) for the next run. */
export const savePatternVerdicts = (cacheDir: string | undefined): void => {
  if (cacheDir === undefined) return;
  const entries: Entries = durableVerdicts().map(([pattern, verdict]) => [pattern, verdict ?? null]);
  if (entries.length === read) return;
  if (writeKeptEntries(verdictsPath(cacheDir), FORMAT, entries)) read = entries.length;
};
