import { createDiagnostic, formatDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { TREATY_VERSION } from "../version.js";
import type { CliIo, Command } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { parseCommandLine, unknownCommand } from "./parse-command-line.js";

export type { CliIo } from "./command.js";

const help = (): string => `treaty ${TREATY_VERSION}: compile YAML contracts into validators, types and schemas

Usage:
${COMMANDS.map((c) => c.usage).join("\n")}
  treaty help [<command>] | --help | --version

Exit status: 0 on success, 1 on errors in the contracts or stale output, 2 on bad usage,
70 on an internal error (a bug in treaty; set TREATY_DEBUG=1 for its stack trace).
`;

/** One command's usage: what `treaty <command> --help` and `treaty help <command>` print. */
const commandHelp = (command: Command): string => `Usage:\n${command.usage}\n`;

const HELP = ["help", "--help", "-h"];

const usageError = (io: CliIo, diagnostics: readonly Diagnostic[], command?: string): number => {
  io.stderr(`${diagnostics.map((d) => `treaty: ${formatDiagnostic(d)}\n`).join("")}Run 'treaty ${command ? `${command} ` : ""}--help' for usage.\n`);
  return 2;
};

/** Runs one command; returns the exit status. Never throws on bad input. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [first, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) {
    if (first !== undefined && HELP.includes(first)) {
      // `treaty help check` is `treaty check --help`; `treaty help` alone, the whole usage.
      const [name, ...more] = rest;
      if (more.length > 0) return usageError(io, [createDiagnostic("argument-count", undefined, { command: "help", expected: "0 to 1 arguments", got: rest.map((a) => `'${a}'`).join(" ") })]);
      const named = COMMANDS.find((c) => c.name === name);
      if (named) io.stdout(commandHelp(named));
      else if (name === undefined || HELP.includes(name)) io.stdout(help());
      else return usageError(io, [unknownCommand(name, COMMANDS.map((c) => c.name))]);
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
    io.stdout(commandHelp(command));
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
