import { createDiagnostic, formatDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { TREATY_VERSION } from "../version.js";
import type { CliIo } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { parseCommandLine, unknownCommand } from "./parse-command-line.js";

export type { CliIo } from "./command.js";

const help = (): string => `treaty ${TREATY_VERSION}: compile YAML contracts into validators, types and schemas

Usage:
${COMMANDS.map((c) => c.usage).join("\n")}
  treaty --help | --version

Exit status: 0 on success, 1 on errors in the contracts or stale output, 2 on bad usage,
70 on an internal error (a bug in treaty; set TREATY_DEBUG=1 for its stack trace).
`;

const usageError = (io: CliIo, diagnostics: readonly Diagnostic[], command?: string): number => {
  io.stderr(`${diagnostics.map((d) => `treaty: ${formatDiagnostic(d)}\n`).join("")}Run 'treaty ${command ? `${command} ` : ""}--help' for usage.\n`);
  return 2;
};

/** Runs one command; returns the exit status. Never throws on bad input. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [first, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) {
    if (first === "help" || first === "--help" || first === "-h") {
      io.stdout(help());
      return 0;
    }
    if (first === undefined) {
      // A usage error like any other (a coded line on stderr), with the whole usage after it.
      io.stderr(`treaty: ${formatDiagnostic(createDiagnostic("missing-command", undefined, { known: COMMANDS.map((c) => c.name).join(", ") }))}\n\n${help()}`);
      return 2;
    }
    if (first === "--version" || first === "-v") {
      io.stdout(`${TREATY_VERSION}\n`);
      return 0;
    }
    return usageError(io, [unknownCommand(first, COMMANDS.map((c) => c.name))]);
  }
  const parsed = parseCommandLine(command, rest);
  const args = parsed.value;
  if (!args) return usageError(io, parsed.diagnostics, command.name);
  if (args.values["help"]) {
    io.stdout(`Usage:\n${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    // Bad input never lands here (it is reported as diagnostics); this is a bug in treaty.
    io.stderr(`treaty: internal error: ${(error as Error).message}\nPlease report this with the contract that caused it.\n`);
    if (process.env["TREATY_DEBUG"]) io.stderr(`${(error as Error).stack}\n`);
    return 70;
  }
};
