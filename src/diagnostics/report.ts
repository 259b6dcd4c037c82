import { formatDiagnostic, type Diagnostic } from "./diagnostic.js";

export type ReportFormat = "text" | "json" | "github";
export const REPORT_FORMATS: readonly ReportFormat[] = ["text", "json", "github"];

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

// GitHub workflow commands: https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions
const escapeData = (text: string): string => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

const githubAnnotation = (d: Diagnostic): string => {
  const properties = [
    ...(d.loc ? [`file=${escapeProperty(d.loc.file)}`, `line=${d.loc.line}`, `col=${d.loc.col}`] : []),
    `title=${escapeProperty(`treaty ${d.code}`)}`,
  ];
  return `::${d.severity} ${properties.join(",")}::${escapeData(d.message)}`;
};

/** Diagnostics as the user asked to see them; `text` and `github` end with a count line; `json` carries `extra`'s keys too. */
export const formatReport = (diagnostics: readonly Diagnostic[], format: ReportFormat, extra: Readonly<Record<string, unknown>> = {}): string => {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  switch (format) {
    case "json":
      return `${JSON.stringify({ errors, warnings, diagnostics, ...extra }, null, 2)}\n`;
    case "github":
      return diagnostics.map((d) => `${githubAnnotation(d)}\n`).join("");
    case "text":
      return diagnostics.length === 0 ? "" : `${diagnostics.map((d) => `${formatDiagnostic(d)}\n`).join("")}${count(errors, "error")}, ${count(warnings, "warning")}\n`;
  }
};
