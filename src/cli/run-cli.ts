import { resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { formatDiagnostic, hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { compile, generate } from "../pipeline.js";
import { TREATY_VERSION } from "../version.js";

export interface CliIo {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

const HELP = `treaty ${TREATY_VERSION}: compile YAML contracts into validators, types and schemas

Usage:
  treaty generate [--check] [--idl <dir>] [--out <dir>]
      Compile every contract under --idl (default: idl) into --out (default: generated).
      Files treaty no longer produces are removed. With --check, write nothing and exit 1
      listing the files that are stale.
  treaty check [--idl <dir>]
      Report the contracts' diagnostics without generating anything.
  treaty --help | --version

Exit status: 0 on success, 1 on errors in the contracts or stale output, 2 on bad usage,
70 on an internal error (a bug in treaty; set TREATY_DEBUG=1 for its stack trace).
`;

const OPTIONS = {
  check: { type: "boolean" },
  idl: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

const printDiagnostics = (io: CliIo, diagnostics: readonly Diagnostic[]): void => {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length > 0) io.stderr(`${plural(errors, "error")}, ${plural(warnings, "warning")}\n`);
};

/** Runs one command; returns the exit status. Never throws on bad input. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`treaty: ${(error as Error).message}\nRun 'treaty --help' for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.stdout(`${TREATY_VERSION}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === "help") {
    io.stdout(HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (rest.length > 0 || (command !== "generate" && command !== "check") || (command === "check" && (values.out !== undefined || values.check))) {
    io.stderr(`treaty: unexpected '${[command, ...rest].join(" ")}'\nRun 'treaty --help' for usage.\n`);
    return 2;
  }
  const root = io.cwd;
  const idlDir = resolvePath(root, values.idl ?? "idl");
  try {
    if (command === "check") {
      const compiled = compile({ root, idlDir });
      printDiagnostics(io, compiled.diagnostics);
      if (!hasErrors(compiled.diagnostics)) io.stderr(`treaty: ${plural(compiled.value?.contracts.length ?? 0, "contract")} checked\n`);
      return hasErrors(compiled.diagnostics) ? 1 : 0;
    }
    const started = performance.now();
    const result = await generate({ root, idlDir, outDir: resolvePath(root, values.out ?? "generated"), check: values.check ?? false });
    printDiagnostics(io, result.diagnostics);
    const report = result.report;
    if (!report) return 1;
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const changed = [...report.created.map((p) => `created ${p}`), ...report.updated.map((p) => `stale   ${p}`), ...report.removed.map((p) => `removed ${p}`)];
    const contracts = result.project?.contracts ?? [];
    const versions = contracts.reduce((n, c) => n + c.versions.length, 0);
    if (values.check) {
      if (changed.length === 0) {
        io.stderr(`treaty: generated files are current (${plural(contracts.length, "contract")}, ${plural(versions, "version")})\n`);
        return 0;
      }
      const lines = [...report.created.map((p) => `missing ${p}`), ...report.updated.map((p) => `stale   ${p}`), ...report.removed.map((p) => `extra   ${p}`)];
      io.stderr(`${lines.join("\n")}\ntreaty: ${lines.length} generated file${lines.length === 1 ? " is" : "s are"} out of date; run 'treaty generate'\n`);
      return 1;
    }
    io.stderr(
      `treaty: ${plural(contracts.length, "contract")}, ${plural(versions, "version")}: ${report.created.length} created, ${report.updated.length} updated, ${report.removed.length} removed, ${report.unchanged} unchanged in ${seconds}s\n`,
    );
    return 0;
  } catch (error) {
    // Bad input never lands here (it is reported as diagnostics); this is a bug in treaty.
    io.stderr(`treaty: internal error: ${(error as Error).message}\nPlease report this with the contract that caused it.\n`);
    if (process.env["TREATY_DEBUG"]) io.stderr(`${(error as Error).stack}\n`);
    return 70;
  }
};
