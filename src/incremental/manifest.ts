// What the last run produced, kept in the cache directory so that a rerun regenerates only what
// changed: per source file its hash, the contracts it reaches, its hand-written stub files, its
// outputs and diagnostics; per output file its hash and the size and time it was written with.
// Only an accelerator: a missing, stale, corrupt or truncated manifest means a full run, and every
// entry is checked against the disk before it is trusted.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { contentHash, type FileStamp } from "../write/write.js";

const FORMAT = 1;

/** A contract or agent file and what the last run made of it. */
export interface NodeRecord {
  /** The hash of the file's text. */
  readonly hash: string;
  /** The contract or agent it declares. */
  readonly name: string;
  readonly agent: boolean;
  /** The source files of every contract it reaches through references (transitively). */
  readonly deps: readonly string[];
  /** Hand-written files whose stubs it needs, with their hashes (null: absent). */
  readonly stubs: Readonly<Record<string, string | null>>;
  /** Output files it produced (relative to the output directory). */
  readonly outputs: readonly string[];
  /** The diagnostics located in it or in its stub files. */
  readonly diagnostics: readonly Diagnostic[];
  readonly versions: number;
}

export interface Manifest {
  readonly format: typeof FORMAT;
  /** The hash of everything that shapes output besides the sources (treaty's code, options). */
  readonly key: string;
  /** When it was written: a file modified at or after it is hashed rather than trusted by its time. */
  readonly writtenAt: number;
  /** By source path (relative to the root, as diagnostics print it). */
  readonly nodes: Readonly<Record<string, NodeRecord>>;
  /** Files of the project as a whole (the root index, agents, package files), and diagnostics located nowhere else. */
  readonly project: { readonly outputs: readonly string[]; readonly diagnostics: readonly Diagnostic[] };
  readonly stamps: Readonly<Record<string, FileStamp>>;
  /**
   * The modification time of every directory holding an output ("." the output directory): one
   * that changed may hold a file no run produced, which only a full run finds (and removes).
   */
  readonly dirs: Readonly<Record<string, number>>;
}

/** One manifest per output directory. */
export const manifestPath = (cacheDir: string, outDir: string): string =>
  join(cacheDir, "manifests", `${contentHash(resolvePath(outDir)).slice(0, 32)}.json`);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");
const isDiagnostics = (value: unknown): value is Diagnostic[] =>
  Array.isArray(value) && value.every((d) => isObject(d) && typeof d["code"] === "string" && typeof d["message"] === "string" && typeof d["severity"] === "string");
const isStamp = (value: unknown): value is FileStamp =>
  isObject(value) && typeof value["hash"] === "string" && typeof value["size"] === "number" && typeof value["mtimeMs"] === "number";
const isNode = (value: unknown): value is NodeRecord =>
  isObject(value) &&
  typeof value["hash"] === "string" &&
  typeof value["name"] === "string" &&
  typeof value["agent"] === "boolean" &&
  isStrings(value["deps"]) &&
  isObject(value["stubs"]) &&
  Object.values(value["stubs"]).every((h) => h === null || typeof h === "string") &&
  isStrings(value["outputs"]) &&
  isDiagnostics(value["diagnostics"]) &&
  typeof value["versions"] === "number";

/** Whether `value` has the manifest's shape, down to every entry: anything else is no manifest at all. */
const isManifest = (value: unknown): value is Manifest =>
  isObject(value) &&
  value["format"] === FORMAT &&
  typeof value["key"] === "string" &&
  typeof value["writtenAt"] === "number" &&
  isObject(value["nodes"]) &&
  Object.values(value["nodes"]).every(isNode) &&
  isObject(value["project"]) &&
  isStrings(value["project"]["outputs"]) &&
  isDiagnostics(value["project"]["diagnostics"]) &&
  isObject(value["stamps"]) &&
  Object.values(value["stamps"]).every(isStamp) &&
  isObject(value["dirs"]) &&
  Object.values(value["dirs"]).every((t) => typeof t === "number");

/** The manifest the last run left for `outDir` under `key`, or undefined (none, another key, unreadable). */
export const readManifest = (cacheDir: string | undefined, outDir: string, key: string): Manifest | undefined => {
  if (cacheDir === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifestPath(cacheDir, outDir), "utf8"));
    return isManifest(parsed) && parsed.key === key ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/** Best effort, like the format cache: a cache that cannot be written makes the next run a full one. */
export const writeManifest = (cacheDir: string | undefined, outDir: string, manifest: Omit<Manifest, "format" | "writtenAt" | "dirs">): void => {
  if (cacheDir === undefined) return;
  const dirs: Record<string, number> = {};
  for (const path of Object.keys(manifest.stamps)) {
    for (let dir = dirname(path); !(dir in dirs); dir = dirname(dir)) {
      try {
        dirs[dir] = statSync(join(outDir, dir)).mtimeMs;
      } catch {
        return; // the tree changed under this run: the next one is a full run
      }
      if (dir === ".") break;
    }
  }
  const path = manifestPath(cacheDir, outDir);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, JSON.stringify({ format: FORMAT, writtenAt: Date.now(), ...manifest, dirs }));
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
};

/**
 * Whether `path` still holds what `stamp` says: by size and modification time when those match and
 * the file was not touched at or after the manifest was written (it could have changed within the
 * clock's tick), else by hashing it.
 */
export const holds = (path: string, stamp: FileStamp, writtenAt: number): boolean => {
  try {
    const stat = statSync(path);
    if (stat.size !== stamp.size) return false;
    if (stat.mtimeMs === stamp.mtimeMs && stat.mtimeMs < writtenAt) return true;
    return contentHash(readFileSync(path)) === stamp.hash;
  } catch {
    return false;
  }
};

/** Whether every directory of the tree is as the manifest saw it: no file appeared in or left it since. */
export const dirsHold = (outDir: string, manifest: Manifest): boolean =>
  Object.entries(manifest.dirs).every(([dir, mtimeMs]) => {
    try {
      const now = statSync(join(outDir, dir)).mtimeMs;
      return now === mtimeMs && now < manifest.writtenAt;
    } catch {
      return false;
    }
  });

/** The hash of a hand-written file, null when it is absent. */
export const fileHash = (path: string): string | null => {
  try {
    return contentHash(readFileSync(path));
  } catch {
    return null;
  }
};
