import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { printDiagnostics, readConfig, stringOption, type Command } from "../command.js";

const DIFF_FORMATS = ["markdown", "json"] as const;
type DiffFormat = (typeof DIFF_FORMATS)[number];

export const diffCommand: Command = {
  name: "diff",
  usage: `  treaty diff --against <git-ref> [--format markdown|json] [--exit-zero] [--idl <dir>]
      Print a reviewer's summary of the contract changes since the ref: new, edited and
      removed versions, each change with its backward and forward verdicts and the bump it
      needs, deprecations and findings (check --against's included). --format json prints
      the same as data, and what stops it as check --format json does. Exits 1 when a
      finding is an error (check --against would fail: a minor that breaks what its contract
      promises, a changed or removed published version) or no summary can be made; with
      --exit-zero, 0 whenever the summary is printed.`,
  options: { against: { type: "string", required: true }, format: { type: "string", choices: DIFF_FORMATS }, "exit-zero": { type: "boolean" }, idl: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const ref = stringOption(args, "against")!;
    const format = (stringOption(args, "format") ?? "markdown") as DiffFormat;
    // A failure in the format asked for: with --format json, the diagnostics as JSON on stdout.
    const failures = format === "json" ? "json" : "text";
    const config = readConfig(args, io, failures);
    if (!config) return 1;
    const { root, idlDir, llm } = config;
    // The compiler loads when a command runs (not for --help, nor for another command).
    const [{ compile }, { againstRef, projectAtRef }, { diffReport, reviewMarkdown }] = await Promise.all([
      import("../../pipeline.js"),
      import("../../history/against.js"),
      import("../../history/review.js"),
    ]);
    const compiled = compile({ root, idlDir, llm });
    const then = projectAtRef(root, idlDir, ref);
    if (!compiled.value || !then.value) {
      printDiagnostics(io, compiled.value ? then.diagnostics : compiled.diagnostics.filter((d) => d.severity === "error"), root, failures);
      return 1;
    }
    const findings: Diagnostic[] = [...compiled.diagnostics, ...againstRef(compiled.value, then.value, ref)];
    const report = diffReport(compiled.value, then.value, ref, findings);
    io.stdout(format === "json" ? `${JSON.stringify(report, null, 2)}\n` : reviewMarkdown(report));
    return hasErrors(findings) && args.values["exit-zero"] !== true ? 1 : 0;
  },
};
