import { resolve, sep } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { loadConfig, type TreatyConfig } from "../config/config.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { formatReport } from "../diagnostics/report.js";

export interface CliIo {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  readonly positionals: readonly string[];
}

/** One `treaty <name>` command; its `usage` lines are what `--help` prints for it. */
export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  /** How many positional arguments it takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

export const printDiagnostics = (io: CliIo, diagnostics: readonly Diagnostic[]): void => io.stderr(formatReport(diagnostics, "text"));

export const stringOption = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * treaty's config for the project in `io.cwd`, with the command's `--idl` and `--out` flags over
 * it; undefined after printing what is wrong with it.
 */
export const readConfig = (args: ParsedArgs, io: CliIo): TreatyConfig | undefined => {
  const loaded = loadConfig(io.cwd);
  if (!loaded.value) {
    printDiagnostics(io, loaded.diagnostics);
    return undefined;
  }
  const config = { ...loaded.value, idl: stringOption(args, "idl") ?? loaded.value.idl, out: stringOption(args, "out") ?? loaded.value.out };
  const overlap = outDirOverlap(io.cwd, config);
  if (overlap) {
    printDiagnostics(io, [createDiagnostic("out-dir-overlaps", undefined, { out: config.out, reason: overlap })]);
    return undefined;
  }
  return config;
};

/** Why the output directory cannot be treaty's alone, if it cannot. */
const outDirOverlap = (root: string, config: TreatyConfig): string | undefined => {
  const out = resolve(root, config.out);
  const idl = resolve(root, config.idl);
  if (out === resolve(root)) return "is the project root";
  if (out === idl) return "is the contracts directory";
  if (idl.startsWith(out + sep)) return "contains the contracts directory";
  return undefined;
};
