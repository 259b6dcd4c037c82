import { parseArgs } from "node:util";
import { TREATY_VERSION } from "../version.js";
import type { CliIo, ParsedArgs } from "./command.js";
import { COMMANDS } from "./commands/index.js";

export type { CliIo } from "./command.js";

const help = (): string => `treaty ${TREATY_VERSION}: compile YAML contracts into validators, types and schemas

Usage:
${COMMANDS.map((c) => c.usage).join("\n")}
  treaty --help | --version

Exit status: 0 on success, 1 on errors in the contracts or stale output, 2 on bad usage,
70 on an internal error (a bug in treaty; set TREATY_DEBUG=1 for its stack trace).
`;

const GLOBAL = { help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" } } as const;

const usageError = (io: CliIo, message: string): number => {
  io.stderr(`treaty: ${message}\nRun 'treaty --help' for usage.\n`);
  return 2;
};

/** Runs one command; returns the exit status. Never throws on bad input. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [first, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === first);
  if (!command) {
    if (first === undefined || first === "help" || first === "--help" || first === "-h") {
      io.stdout(help());
      return first === undefined ? 2 : 0;
    }
    if (first === "--version" || first === "-v") {
      io.stdout(`${TREATY_VERSION}\n`);
      return 0;
    }
    return usageError(io, `unknown command '${first}'`);
  }
  let args: ParsedArgs;
  try {
    args = parseArgs({ args: rest, options: { ...command.options, ...GLOBAL }, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (args.values["help"]) {
    io.stdout(`Usage:\n${command.usage}\n`);
    return 0;
  }
  const count = args.positionals.length;
  if (count < command.positionals.min || count > command.positionals.max) {
    return usageError(io, `'${command.name}' takes ${command.positionals.max === 0 ? "no" : `${command.positionals.min} to ${command.positionals.max}`} arguments`);
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
