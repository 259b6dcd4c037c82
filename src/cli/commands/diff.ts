import { hasErrors } from "../../diagnostics/diagnostic.js";
import { projectAtRef } from "../../history/against.js";
import { reviewSummary } from "../../history/review.js";
import { compile } from "../../pipeline.js";
import { printDiagnostics, readConfig, stringOption, type Command } from "../command.js";

export const diffCommand: Command = {
  name: "diff",
  usage: `  treaty diff --against <git-ref> [--idl <dir>]
      Print a reviewer's Markdown summary of the contract changes since the ref: new and
      edited versions, each change with its backward and forward verdicts and the bump it
      needs, deprecations and lint findings.`,
  options: { against: { type: "string" }, idl: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const ref = stringOption(args, "against");
    if (ref === undefined) {
      io.stderr("treaty: diff needs --against <git-ref>\n");
      return 2;
    }
    const config = readConfig(args, io);
    if (!config) return 1;
    const { root, idlDir } = config;
    const compiled = compile({ root, idlDir });
    const then = projectAtRef(root, idlDir, ref);
    if (!compiled.value || !then.value) {
      printDiagnostics(io, compiled.value ? then.diagnostics : compiled.diagnostics.filter((d) => d.severity === "error"), root);
      return 1;
    }
    io.stdout(reviewSummary(compiled.value, then.value, ref, compiled.diagnostics));
    return hasErrors(compiled.diagnostics) ? 1 : 0;
  },
};
