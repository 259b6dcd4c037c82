// The first half of `load`: the contract files' texts, without parsing them (and without loading
// the YAML parser), which is all a run that finds nothing changed needs.
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { getSystemErrorMap } from "node:util";
import { createDiagnostic, hasErrors, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";

/** A contract file's text, before parsing. */
export interface RawSource {
  /** Relative to the project root, `/`-separated: what diagnostics and generated headers print. */
  readonly path: string;
  readonly text: string;
}

const isContractFile = (name: string): boolean => name.endsWith(".yaml") || name.endsWith(".yml");

/** The contract files under a directory, and why a directory under it was not read. */
interface Listing {
  readonly paths: string[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Every `*.yaml` under `dir`, symlinks followed: a linked file is read like any other, at its path
 * under `dir`; a linked directory is listed under the link's name (contracts shared between
 * projects: wherever it leads), unless it leads to a directory the walk is inside or one above it
 * (`..`, the project root, `/`): a loop, `symlink-loop`, not followed. An unreadable `dir` throws; a
 * directory below it is `read-failed`. `display` prints a path in a diagnostic.
 */
export const listContractFiles = (dir: string, display: (path: string) => string): Listing => {
  const paths: string[] = [];
  const diagnostics: Diagnostic[] = [];
  // `inside`: where the directories the walk is in lead, `dir` first.
  const walk = (current: string, inside: readonly string[]): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      let kind = entry.isFile() ? "file" : entry.isDirectory() ? "dir" : undefined;
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(path);
          kind = target.isFile() ? "file" : target.isDirectory() ? "dir" : undefined;
        } catch {
          // leads nowhere (or round a loop of links): a contract's name is read, and says why it cannot be
          kind = "file";
        }
      }
      if (kind === "file" && isContractFile(entry.name)) paths.push(path);
      if (kind !== "dir") continue;
      try {
        const real = entry.isSymbolicLink() ? realpathSync(path) : join(inside.at(-1)!, entry.name);
        // Above the walk, not only on it: followed, a link to the project root listed everything in
        // the project (node_modules included) before it came round to `dir` again.
        if (inside.some((dir) => isWithin(dir, real))) diagnostics.push(createDiagnostic("symlink-loop", undefined, { link: display(path), target: display(real) || "." }));
        else walk(path, [...inside, real]);
      } catch (error) {
        diagnostics.push(readFailed(display(path), unreadable(error, "directory")));
      }
    }
  };
  walk(dir, [realpathSync(dir)]);
  return { paths, diagnostics };
};

/** Whether `path` is `dir` or under it (both real paths). */
export const isWithin = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** Reads every `*.yaml` under `idlDir`, in a stable order. */
export const readSources = (root: string, idlDir: string): StageResult<RawSource[]> => {
  const display = (path: string): string => relative(root, path).split(sep).join("/");
  let listing: Listing;
  try {
    listing = listContractFiles(idlDir, display);
  } catch (error) {
    return { value: [], diagnostics: [readFailed(display(idlDir) || ".", unreadable(error, "directory"))] };
  }
  const paths = listing.paths.sort();
  const diagnostics: Diagnostic[] = listing.diagnostics;
  if (paths.length === 0 && !hasErrors(diagnostics)) {
    return { value: [], diagnostics: [...diagnostics, createDiagnostic("no-contracts", undefined, { dir: display(idlDir) || "." })] };
  }
  const value: RawSource[] = [];
  for (const path of paths) {
    const read = readText(path);
    if (typeof read === "string") value.push({ path: display(path), text: read });
    else diagnostics.push(readFailed(display(path), read));
  }
  return { value, diagnostics };
};

/** The file's text; undefined when it cannot be read (absent, say). */
export const readOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** A file's text, or why there is none (see `sourceText`). */
const readText = (path: string): string | Unreadable => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return unreadable(error);
  }
  return sourceText(bytes);
};

/** Why a file (or a directory) has no text, and where, if at a byte of it. */
export interface Unreadable {
  readonly detail: string;
  readonly at?: { readonly line: number; readonly col: number };
  /** A directory that could not be listed: it has no line to point at. */
  readonly directory?: boolean;
}

let systemErrors: Map<string, string> | undefined;

/**
 * Why reading a file (or listing a directory) threw `error`, in the words every `read-failed` says
 * it: the system's reason ("permission denied"), without the code and the absolute path that Node's
 * message carries.
 */
export const unreadable = (error: unknown, kind: "file" | "directory" = "file"): Unreadable => {
  const code = (error as NodeJS.ErrnoException).code;
  systemErrors ??= new Map([...getSystemErrorMap().values()]);
  const reason =
    code === "ENOENT" ? `no such ${kind}`
    : code === "EISDIR" ? "it is a directory, not a file"
    : code === "ENOTDIR" ? (kind === "file" ? "a directory on its path is a file" : "it is not a directory")
    : (code !== undefined && systemErrors.get(code)) || (error as Error).message;
  return kind === "directory" ? { detail: reason, directory: true } : { detail: reason };
};

/**
 * The one `read-failed` diagnostic, `cannot read <what>: <why>` (`what` is `path` unless said):
 * located at the file's first bad byte, or at the file itself, so a terminal opens it; a directory
 * has no line to point at.
 */
export const readFailed = (path: string, why: Unreadable, what = path): Diagnostic =>
  createDiagnostic("read-failed", why.directory ? undefined : { file: path, ...(why.at ?? { line: 1, col: 1 }) }, { what, detail: why.detail });

/**
 * A contract file's bytes as text, without a byte-order mark (columns count from the first
 * character an editor shows); not UTF-8 is unreadable (a byte read as U+FFFD would change what the
 * contract says without a word), at the line and column of its first bad byte.
 */
export const sourceText = (bytes: Uint8Array): string | Unreadable => {
  try {
    return UTF8.decode(bytes);
  } catch {
    // The longest prefix that decodes ends at the first bad byte.
    let good = 0;
    let bad = bytes.length;
    while (good < bad) {
      const mid = (good + bad + 1) >> 1;
      if (decodes(bytes.subarray(0, mid))) good = mid;
      else bad = mid - 1;
    }
    // A prefix may end inside a character whose bytes are valid: decoded as a stream, it is left out.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, good), { stream: true });
    return { detail: "not UTF-8 text (save the file as UTF-8)", at: positionAt(text, text.length) };
  }
};

/** The line and column (1-based) of `offset` in `text`. */
export const positionAt = (text: string, offset: number): { line: number; col: number } => {
  const lines = text.slice(0, offset).split("\n");
  return { line: lines.length, col: lines.at(-1)!.length + 1 };
};

const decodes = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
};
