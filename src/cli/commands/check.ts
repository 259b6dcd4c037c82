import { resolve } from "node:path";
import { hasErrors } from "../../diagnostics/diagnostic.js";
import { compile } from "../../pipeline.js";
import { plural, printDiagnostics, stringOption, type Command } from "../command.js";

export const checkCommand: Command = {
  name: "check",
  usage: `  treaty check [--idl <dir>]
      Report the contracts' diagnostics without generating anything.`,
  options: { idl: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const compiled = compile({ root: io.cwd, idlDir: resolve(io.cwd, stringOption(args, "idl") ?? "idl") });
    printDiagnostics(io, compiled.diagnostics);
    if (hasErrors(compiled.diagnostics)) return 1;
    io.stderr(`treaty: ${plural(compiled.value?.contracts.length ?? 0, "contract")} checked\n`);
    return 0;
  },
};
