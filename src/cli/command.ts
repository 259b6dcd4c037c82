import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { findProjectRoot, loadConfig, type TreatyConfig } from "../config/config.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport, type ReportFormat } from "../diagnostics/report.js";
import { realPath } from "../write/real-path.js";

export interface CliIo {
  readonly cwd: string;
  /** stderr is a terminal a person watches (not CI): long work may show a progress line there. */
  readonly interactive?: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * A flag as parseArgs takes it, plus what treaty checks before the command runs: the values a
 * string flag allows (`choices`, or `validate`: what is wrong with a value, if anything), whether
 * the command needs it (`required`), and the flags it cannot be given with (`conflicts`, with why).
 */
export type FlagSpec = NonNullable<ParseArgsConfig["options"]>[string] & {
  readonly choices?: readonly string[];
  readonly validate?: (value: string) => Diagnostic | undefined;
  readonly required?: boolean;
  readonly conflicts?: { readonly [flag: string]: string };
};

/** One `treaty <name>` command; its `usage` lines are what `--help` prints for it. */
export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly options: { readonly [name: string]: FlagSpec };
  /** How many positional arguments it takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** `path`, relative to `root`, as the user sees it: relative to where they ran treaty, `/`-separated. */
export const fromCwd = (io: CliIo, root: string, path: string): string => relative(io.cwd, resolve(root, path)).split(sep).join("/") || ".";

/**
 * Diagnostics with their files relative to the cwd, so a terminal opens them (tsc and eslint print
 * paths so); the model's paths are relative to the project root. A `<ref>:<path>` location names a
 * file at a git ref (ref names have no ':'), not one in the working tree, and stays as it is.
 */
export const locatedFromCwd = (io: CliIo, root: string, diagnostics: readonly Diagnostic[]): Diagnostic[] =>
  diagnostics.map((d) => (d.loc && !d.loc.file.includes(":") ? { ...d, loc: { ...d.loc, file: fromCwd(io, root, d.loc.file) } } : d));

/**
 * Prints diagnostics whose files are relative to `root` (the project root; the cwd by default) in
 * `format`: text to stderr, json and github (read by a program) to stdout, with `extra`'s keys in json.
 */
export const printDiagnostics = (io: CliIo, diagnostics: readonly Diagnostic[], root = io.cwd, format: ReportFormat = "text", extra?: Readonly<Record<string, unknown>>): void =>
  (format === "text" ? io.stderr : io.stdout)(formatReport(locatedFromCwd(io, root, diagnostics), format, extra));

export const stringOption = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
};

/** treaty's settings, with the directories a command works in resolved. */
export interface ProjectConfig extends TreatyConfig {
  /** Where the settings are (see `findProjectRoot`): the config's paths, diagnostics and generated headers are relative to it. */
  readonly root: string;
  /** Absolute. `--idl` and `--out` are relative to the cwd, as on any command line; the config's `idl` and `out` to the root. */
  readonly idlDir: string;
  readonly outDir: string;
}

/**
 * treaty's config for the project the cwd is in, with the command's `--idl` and `--out` flags over
 * it (`idl` and `out` as the user wrote them); undefined after printing what is wrong with it, in
 * the `--format` the command reports in.
 */
export const readConfig = (args: ParsedArgs, io: CliIo, format: ReportFormat = "text"): ProjectConfig | undefined => {
  const root = findProjectRoot(io.cwd);
  const loaded = loadConfig(root);
  const settings = loaded.value;
  if (!settings) {
    printDiagnostics(io, loaded.diagnostics, root, format);
    return undefined;
  }
  const typed = { idl: stringOption(args, "idl"), out: stringOption(args, "out") };
  const config: ProjectConfig = {
    ...settings,
    idl: typed.idl ?? settings.idl,
    out: typed.out ?? settings.out,
    root,
    idlDir: typed.idl === undefined ? resolve(root, settings.idl) : resolve(io.cwd, typed.idl),
    outDir: typed.out === undefined ? resolve(root, settings.out) : resolve(io.cwd, typed.out),
  };
  const overlap = outDirOverlap(config);
  if (overlap) {
    printDiagnostics(io, [createDiagnostic("out-dir-overlaps", undefined, { out: config.out, reason: overlap })], io.cwd, format);
    return undefined;
  }
  return config;
};

/** Why the output directory cannot be treaty's alone, if it cannot: compared where each leads, as a symlink would write into what it points to. */
const outDirOverlap = (config: ProjectConfig): string | undefined => {
  const [root, idlDir, outDir] = [config.root, config.idlDir, config.outDir].map(realPath) as [string, string, string];
  const via = outDir === config.outDir ? "" : " once symlinks are followed";
  if (outDir === root) return `is the project root${via}`;
  if (outDir === idlDir) return `is the contracts directory${via}`;
  if (inside(idlDir, outDir)) return `contains the contracts directory${via}`;
  if (inside(root, outDir)) return `contains the project root${via}`;
  return undefined;
};

/** Whether `path` is below `dir` (both absolute): by `relative`, as a prefix test misses a root such as `/`. */
const inside = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};
