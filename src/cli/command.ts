import type { ParseArgsConfig } from "node:util";
import { formatDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";

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

export const printDiagnostics = (io: CliIo, diagnostics: readonly Diagnostic[]): void => {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length > 0) io.stderr(`${plural(errors, "error")}, ${plural(warnings, "warning")}\n`);
};

export const stringOption = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
};
