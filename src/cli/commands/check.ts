import { hasErrors, sortDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatReport, REPORT_FORMATS, type ReportFormat } from "../../diagnostics/report.js";
import { againstRef, projectAtRef } from "../../history/against.js";
import { compile } from "../../pipeline.js";
import { locatedFromCwd, plural, readConfig, stringOption, type Command } from "../command.js";

export const checkCommand: Command = {
  name: "check",
  usage: `  treaty check [--against <git-ref>] [--format text|json|github] [--idl <dir>]
      Report the contracts' diagnostics, version bump rules and lint findings without
      generating anything. With --against, versions published at that git ref must be
      unchanged (documentation edits and 'status: draft' versions excepted) and still present,
      and versions new since the ref warn, once, of the breaks their contract's
      'compatibility' does not promise (without --against those are not reported).
      --format github prints workflow annotations (::error file=...,line=...,col=...::).`,
  options: { against: { type: "string" }, format: { type: "string", choices: REPORT_FORMATS }, idl: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const format = (stringOption(args, "format") ?? "text") as ReportFormat;
    const config = readConfig(args, io);
    if (!config) return 1;
    const { root, idlDir, llm } = config;
    const compiled = compile({ root, idlDir, llm });
    const diagnostics: Diagnostic[] = [...compiled.diagnostics];
    const ref = stringOption(args, "against");
    if (ref !== undefined && compiled.value) {
      const then = projectAtRef(root, idlDir, ref);
      if (!then.value) diagnostics.push(...then.diagnostics);
      else diagnostics.push(...againstRef(compiled.value, then.value, ref));
    }
    const sorted = sortDiagnostics(diagnostics);
    (format === "text" ? io.stderr : io.stdout)(formatReport(locatedFromCwd(io, root, sorted), format));
    if (hasErrors(sorted)) return 1;
    if (format === "text") io.stderr(`treaty: ${plural(compiled.value?.contracts.length ?? 0, "contract")} checked${ref ? ` against ${ref}` : ""}\n`);
    return 0;
  },
};
