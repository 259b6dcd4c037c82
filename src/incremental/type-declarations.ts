// json-schema-to-typescript's declarations, kept in the cache directory: loading it costs about
// 50 ms a process (and compiling a wide type seconds), and a run whose types were all compiled before
// need not load it. Only an accelerator, as the pattern verdicts are: the file is keyed by the
// compiler's fingerprint (which covers json-schema-to-typescript's version) and carries a checksum,
// so a missing, stale, corrupt or truncated file is no declarations at all.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { declarationsToKeep, rememberDeclarations, seedDeclarations } from "../emit/types.js";
import { contentHash } from "../write/write.js";
import { writeCacheFile } from "./cache-file.js";
import { compilerFingerprint } from "./fingerprint.js";

/** The hash of what json-schema-to-typescript was given, and what it declared. */
type Entries = [string, string][];

const FORMAT = 1;

const declarationsPath = (cacheDir: string): string => join(cacheDir, "type-declarations.json");

const checksum = (key: string, entries: Entries): string => contentHash(JSON.stringify([FORMAT, key, entries]));

const isEntries = (value: unknown): value is Entries =>
  Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && typeof e[1] === "string");

const load = (cacheDir: string): void => {
  try {
    const parsed = JSON.parse(readFileSync(declarationsPath(cacheDir), "utf8")) as { format?: unknown; key?: unknown; entries?: unknown; sum?: unknown };
    const key = compilerFingerprint();
    if (parsed.format !== FORMAT || parsed.key !== key || !isEntries(parsed.entries) || parsed.sum !== checksum(key, parsed.entries)) return;
    rememberDeclarations(parsed.entries);
  } catch {
    // unreadable: every type is compiled
  }
};

/** The types emitter seeded, before it first needs a declaration, with those the cache holds for this compiler. */
export const loadTypeDeclarations = (cacheDir: string | undefined): void => {
  if (cacheDir !== undefined) seedDeclarations(() => load(cacheDir));
};

/** Best effort, like the manifest: the declarations known at the end of a run that compiled new ones, for the next run. */
export const saveTypeDeclarations = (cacheDir: string | undefined): void => {
  const entries = declarationsToKeep();
  if (cacheDir === undefined || entries === undefined) return;
  const key = compilerFingerprint();
  writeCacheFile(declarationsPath(cacheDir), JSON.stringify({ format: FORMAT, key, entries, sum: checksum(key, entries) }));
};
