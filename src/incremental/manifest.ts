// What the last run produced, kept in the cache directory so that a rerun regenerates only what
// changed: per source file its hash, the contracts it reaches, its hand-written stub files, its
// outputs and diagnostics; per output file (beside it, as one tuple: a rerun reads every one, so
// the file is kept small) a hash of its contents and the size and status change time it was
// written with (the change time, not the modification time, which `touch -r` or `cp -p` set back).
// Only an accelerator: a missing, stale, corrupt or truncated manifest means a full run, and every
// entry is checked against the disk before it is trusted.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { contentHash, type FileStamp } from "../write/write.js";
import { writeCacheFile } from "./cache-file.js";

const FORMAT = 3;

/**
 * An output file (its path relative to the output directory) and what it held when written: the
 * first 32 hex digits of its contents' SHA-256 (`stampHash`), its size and status change time.
 */
export type OutputStamp = readonly [path: string, hash: string, size: number, ctimeMs: number];

/** The part of a contents hash an output stamp holds: enough to tell a file from the one written, at half the size. */
const shortened = (hash: string): string => hash.slice(0, 32);

/** The hash an output stamp holds for `contents`. */
export const stampHash = (contents: string | Buffer): string => shortened(contentHash(contents));

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
  /** Output files it produced. */
  readonly outputs: readonly OutputStamp[];
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
  readonly project: { readonly outputs: readonly OutputStamp[]; readonly diagnostics: readonly Diagnostic[] };
  /**
   * The status change time of every directory holding an output ("." the output directory): one
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
const isStamp = (value: unknown): value is OutputStamp =>
  Array.isArray(value) && value.length === 4 && typeof value[0] === "string" && typeof value[1] === "string" && typeof value[2] === "number" && typeof value[3] === "number";
const isStamps = (value: unknown): value is OutputStamp[] => Array.isArray(value) && value.every(isStamp);
const isNode = (value: unknown): value is NodeRecord =>
  isObject(value) &&
  typeof value["hash"] === "string" &&
  typeof value["name"] === "string" &&
  typeof value["agent"] === "boolean" &&
  isStrings(value["deps"]) &&
  isObject(value["stubs"]) &&
  Object.values(value["stubs"]).every((h) => h === null || typeof h === "string") &&
  isStamps(value["outputs"]) &&
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
  isStamps(value["project"]["outputs"]) &&
  isDiagnostics(value["project"]["diagnostics"]) &&
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

/** A record as a run hands it to `writeManifest`: an output named by its path is stamped from the run's stamps, a stamped one carried over as it was. */
export type NodeDraft = Omit<NodeRecord, "outputs"> & { readonly outputs: readonly (string | OutputStamp)[] };

/** What a run hands `writeManifest`. */
export interface ManifestDraft {
  readonly key: string;
  readonly nodes: Readonly<Record<string, NodeDraft>>;
  readonly project: { readonly outputs: readonly (string | OutputStamp)[]; readonly diagnostics: readonly Diagnostic[] };
  /** By output path, as the tree writer took them after its commit: every file the run wrote or found unchanged. */
  readonly stamps: ReadonlyMap<string, FileStamp>;
  /**
   * An incremental run's: the last manifest's directory times, and the files it replaced or
   * removed. Only the directories of those and of `stamps` are looked at again; without it, every
   * directory of `stamps`.
   */
  readonly carried?: { readonly dirs: Manifest["dirs"]; readonly replaced: readonly string[] };
}

/** Best effort, like the format cache: a cache that cannot be written makes the next run a full one. */
export const writeManifest = (cacheDir: string | undefined, outDir: string, draft: ManifestDraft): void => {
  if (cacheDir === undefined) return;
  const stamped = (outputs: readonly (string | OutputStamp)[]): OutputStamp[] | undefined => {
    const stamps: OutputStamp[] = [];
    for (const output of outputs) {
      if (typeof output !== "string") {
        stamps.push(output);
        continue;
      }
      const stamp = draft.stamps.get(output);
      if (stamp === undefined) return undefined;
      stamps.push([output, shortened(stamp.hash), stamp.size, stamp.ctimeMs]);
    }
    return stamps;
  };
  const nodes: Record<string, NodeRecord> = {};
  for (const [source, node] of Object.entries(draft.nodes)) {
    const outputs = stamped(node.outputs);
    if (outputs === undefined) return; // an output went missing under this run: the next one is a full run
    nodes[source] = { ...node, outputs };
  }
  const projectOutputs = stamped(draft.project.outputs);
  const dirs = projectOutputs && directoryTimes(outDir, draft);
  if (dirs === undefined) return;
  const manifest: Manifest = { format: FORMAT, key: draft.key, writtenAt: Date.now(), nodes, project: { outputs: projectOutputs!, diagnostics: draft.project.diagnostics }, dirs };
  writeCacheFile(manifestPath(cacheDir, outDir), JSON.stringify(manifest));
};

/**
 * The status change time of every directory holding an output, and of their parents up to the
 * output directory ("."); undefined when one that must exist does not (the tree changed under the
 * run). Carried-over times stand for the directories no file of this run is in.
 */
const directoryTimes = (outDir: string, draft: ManifestDraft): Record<string, number> | undefined => {
  const dirs: Record<string, number> = { ...draft.carried?.dirs };
  const seen = new Set<string>();
  const look = (path: string, mustExist: boolean): boolean => {
    for (let dir = dirname(path); !seen.has(dir); dir = dirname(dir)) {
      seen.add(dir);
      try {
        dirs[dir] = statSync(join(outDir, dir)).ctimeMs;
      } catch {
        if (mustExist) return false;
        delete dirs[dir]; // emptied and removed by this run
      }
      if (dir === ".") break;
    }
    return true;
  };
  for (const path of draft.stamps.keys()) if (!look(path, true)) return undefined;
  for (const path of draft.carried?.replaced ?? []) look(path, false);
  return dirs;
};

/**
 * Whether the output directory (`base`, ending in a separator) still holds the file `stamp`
 * describes: by size and status change time when those match and the file was not changed at or
 * after the manifest was written (it could have changed within the clock's tick), else by hashing
 * it. `base` is joined by concatenation: a rerun asks this of every output, and `join` normalizing
 * each path cost a third as much as the stat itself.
 */
export const holds = (base: string, [path, hash, size, ctimeMs]: OutputStamp, writtenAt: number): boolean => {
  try {
    const file = base + path;
    const stat = statSync(file);
    if (stat.size !== size) return false;
    if (stat.ctimeMs === ctimeMs && stat.ctimeMs < writtenAt) return true;
    return stampHash(readFileSync(file)) === hash;
  } catch {
    return false;
  }
};

/** Whether every directory of the tree is as the manifest saw it: no file appeared in or left it since. */
export const dirsHold = (outDir: string, manifest: Manifest): boolean =>
  Object.entries(manifest.dirs).every(([dir, ctimeMs]) => {
    try {
      const now = statSync(join(outDir, dir)).ctimeMs;
      return now === ctimeMs && now < manifest.writtenAt;
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
