import { hasErrors, sortDiagnostics, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { REPORT_FORMATS, type ReportFormat } from "../../diagnostics/report.js";
import { LLM_PROVIDERS } from "../../ir/model.js";
import type { ContractProjections, ProviderProjection } from "../../project/report.js";
import { plural, printDiagnostics, readConfig, stringOption, type Command } from "../command.js";

const providerLine = (p: ProviderProjection): string => {
  if (p.status === "opted-out") return `${p.provider}: opted out`;
  if (p.ledger.length === 0) return `${p.provider}: enforces everything`;
  return `${p.provider}: ${p.ledger.length} not enforced: ${p.ledger.map((e) => `${e.path} ${e.constraint}`).join(", ")}`;
};

/** `check --projections`: per contract, per version, one line per provider with what it leaves to the contract's validator. */
const projectionLines = (report: readonly ContractProjections[]): string =>
  report
    .map((c) => [`${c.contract} (${c.file})`, ...c.versions.flatMap((v) => v.providers.map((p) => `  ${v.version} ${providerLine(p)}`))].map((line) => `${line}\n`).join(""))
    .join("");

/**
 * `check`'s one line about projections: how many contracts go to each provider, and how many
 * constraints their newest versions leave to the contracts' validators. Information, not findings:
 * it stays one line however many contracts there are.
 */
const projectionSummary = (report: readonly ContractProjections[]): string => {
  const newest = report.flatMap((c) => c.versions.slice(-1));
  const counts = LLM_PROVIDERS.map((provider) => `${provider} ${newest.filter((v) => v.providers.some((p) => p.provider === provider && p.status === "projected")).length}`);
  const dropped = newest.flatMap((v) => v.providers).reduce((sum, p) => sum + (p.status === "projected" ? p.ledger.length : 0), 0);
  return `LLM projections (contracts per provider): ${counts.join(", ")}; ${plural(dropped, "constraint")} of the newest versions left to the contracts' validators (--projections lists them)`;
};

export const checkCommand: Command = {
  name: "check",
  usage: `  treaty check [--against <git-ref>] [--format text|json|github] [--projections] [--idl <dir>]
      Report the contracts' diagnostics, version bump rules and lint findings without
      generating anything. With --against, versions published at that git ref must be
      unchanged (documentation edits and 'status: draft' versions excepted) and still present,
      and versions new since the ref warn, once, of the breaks their contract's
      'compatibility' does not promise (without --against those are not reported).
      --format github prints workflow annotations (::error file=...,line=...,col=...::).
      Text ends with one line on the LLM projections; --projections lists, per contract
      version and provider, each constraint the provider does not enforce (to stderr);
      --format json includes them all as "projections".`,
  options: { against: { type: "string" }, format: { type: "string", choices: REPORT_FORMATS }, projections: { type: "boolean" }, idl: { type: "string" } },
  positionals: { min: 0, max: 0 },
  run: async (args, io) => {
    const format = (stringOption(args, "format") ?? "text") as ReportFormat;
    const config = readConfig(args, io, format);
    if (!config) return 1;
    const { root, idlDir, llm } = config;
    // The compiler loads when a command runs (not for --help, nor for another command).
    const [{ compile }, { againstRef, projectAtRef }, { projectionReport }, { missingValues }] = await Promise.all([
      import("../../pipeline.js"),
      import("../../history/against.js"),
      import("../../project/report.js"),
      import("../../cases/cases.js"),
    ]);
    const compiled = compile({ root, idlDir, llm });
    const diagnostics: Diagnostic[] = [...compiled.diagnostics];
    // What generate warns of where it derives the tests: a version they can check only by its examples.
    if (config.tests !== false && compiled.value && !hasErrors(compiled.diagnostics)) diagnostics.push(...missingValues(compiled.value));
    const ref = stringOption(args, "against");
    if (ref !== undefined && compiled.value) {
      const then = projectAtRef(root, idlDir, ref);
      if (!then.value) diagnostics.push(...then.diagnostics);
      else diagnostics.push(...againstRef(compiled.value, then.value, ref));
    }
    const sorted = sortDiagnostics(diagnostics);
    // Projections read a whole model; an error may leave it partial, and is what matters then.
    const projections = compiled.value && !hasErrors(sorted) ? projectionReport(compiled.value) : undefined;
    printDiagnostics(io, sorted, root, format, projections && { projections });
    if (hasErrors(sorted) || !projections) return 1;
    if (args.values["projections"] === true) io.stderr(projectionLines(projections));
    if (format === "text") {
      io.stderr(`treaty: ${plural(projections.length, "contract")} checked${ref ? ` against ${ref}` : ""}\n`);
      io.stderr(`treaty: ${projectionSummary(projections)}\n`);
    }
    return 0;
  },
};
