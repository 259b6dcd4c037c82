// A command's arguments, read by node's parseArgs in its lenient mode: its strict mode throws Node's
// own prose ("To specify a positional argument starting with a '-', ..."), while each mistake here is
// a usage diagnostic with a stable code that names the valid flags.
import { parseArgs } from "node:util";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { plural, type Command, type ParsedArgs } from "./command.js";

/** What every command takes beside its own flags. */
const HELP = { help: { type: "boolean", short: "h" } } as const;

const expectedCount = ({ min, max }: Command["positionals"]): string =>
  max === 0 ? "no arguments" : min === max ? plural(max, "argument") : `${min} to ${max} arguments`;

/** `treaty <first>` where <first> is no command: the closest command, and the list of them. */
export const unknownCommand = (name: string, commands: readonly string[]): Diagnostic =>
  name.startsWith("-")
    ? createDiagnostic("unknown-flag", undefined, { flag: name, command: "treaty", suggestion: "", known: "--help, --version (a command's flags go after it)" })
    : createDiagnostic("unknown-command", undefined, { name, suggestion: didYouMean(name, commands), known: commands.join(", ") });

/** The command's flags and arguments, or the diagnostics of every mistake in them. */
export const parseCommandLine = (command: Command, args: readonly string[]): StageResult<ParsedArgs | undefined> => {
  const options: Command["options"] = { ...command.options, ...HELP };
  const flags = Object.keys(options).map((name) => `--${name}`);
  const { values, positionals, tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const option = options[token.name];
    const flag = token.rawName;
    if (option === undefined) {
      diagnostics.push(createDiagnostic("unknown-flag", undefined, { flag, command: command.name, suggestion: didYouMean(flag, flags), known: flags.join(", ") }));
      continue;
    }
    if (seen.has(token.name) && !option.multiple) diagnostics.push(createDiagnostic("flag-repeated", undefined, { flag }));
    seen.add(token.name);
    // A value that looks like a flag is taken for a forgotten one (`--format --idl x`); `--format=-x` says it is meant.
    // An empty one (`--idl=`, `--defs ""`) names nothing: no flag takes it (`--idl=` read the whole directory).
    // One mistake, one line: a missing value is not also a value the flag does not take (`--format=`).
    if (option.type === "string" && (token.value === undefined || token.value === "" || (!token.inlineValue && token.value.startsWith("-")))) {
      diagnostics.push(createDiagnostic("flag-needs-value", undefined, { flag }));
    } else if (option.type === "boolean" && token.value !== undefined) {
      diagnostics.push(createDiagnostic("flag-takes-no-value", undefined, { flag, value: token.value }));
    } else if (option.choices && token.value !== undefined && !option.choices.includes(token.value)) {
      diagnostics.push(createDiagnostic("flag-value-not-allowed", undefined, { flag, value: token.value, suggestion: didYouMean(token.value, option.choices), allowed: option.choices.join(", ") }));
    } else if (option.validate && token.value !== undefined) {
      const wrong = option.validate(token.value);
      if (wrong) diagnostics.push(wrong);
    }
  }
  if (values["help"] !== true) {
    for (const [name, option] of Object.entries(command.options)) {
      if (option.required && !seen.has(name)) diagnostics.push(createDiagnostic("flag-required", undefined, { command: command.name, flag: `--${name}` }));
      for (const [other, reason] of Object.entries(option.conflicts ?? {})) {
        if (seen.has(name) && seen.has(other)) diagnostics.push(createDiagnostic("flags-conflict", undefined, { flag: `--${name}`, other: `--${other}`, reason }));
      }
    }
  }
  if (diagnostics.length === 0 && values["help"] !== true && (positionals.length < command.positionals.min || positionals.length > command.positionals.max)) {
    const got = positionals.length === 0 ? "none" : positionals.map((p) => `'${p}'`).join(" ");
    diagnostics.push(createDiagnostic("argument-count", undefined, { command: command.name, expected: expectedCount(command.positionals), got }));
  }
  return diagnostics.length === 0 ? { value: { values, positionals }, diagnostics } : { value: undefined, diagnostics };
};
