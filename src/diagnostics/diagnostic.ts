import type { SourceLocation } from "../ir/model.js";
import { printable } from "../runtime/printable.js";
import { DIAGNOSTIC_CODES, type DiagnosticCode, type Severity } from "./codes.js";

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** Absent only for diagnostics about the project as a whole (no contracts found, say). */
  readonly loc?: SourceLocation;
}

export type Params = Readonly<Record<string, string | number>>;

/** Every stage returns its value and what it found wrong; the pipeline stops after an error. */
export interface StageResult<T> {
  readonly value: T;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Every diagnostic is made here, so every echoed name, key, path and detail passes `printable`:
 * user text on one line and shown as written, a key unable to break the one-line format.
 */
export const createDiagnostic = (code: DiagnosticCode, loc: SourceLocation | undefined, params: Params = {}): Diagnostic => {
  const spec = DIAGNOSTIC_CODES[code];
  const message = spec.message.replace(/\{(\w+)\}/g, (_, name: string) => printable(String(params[name] ?? "")));
  const severity = spec.severity;
  return loc ? { code, severity, message, loc: { ...loc, file: printable(loc.file) } } : { code, severity, message };
};

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean =>
  diagnostics.some((d) => d.severity === "error");

/** `idl/task/task.result.yaml:12:5`: how every report prints a place, so they all point alike. */
export const formatLocation = (loc: SourceLocation): string => `${loc.file}:${loc.line}:${loc.col}`;

/** `idl/task/task.result.yaml:12:5 - error unknown-type: type 'Claimx' is not defined (did you mean 'Claim'?)` */
export const formatDiagnostic = (d: Diagnostic): string => `${d.loc ? `${formatLocation(d.loc)} - ` : ""}${d.severity} ${d.code}: ${d.message}`;

/** Diagnostics in a stable order: by file, position, then code. */
export const sortDiagnostics = (diagnostics: readonly Diagnostic[]): Diagnostic[] =>
  [...diagnostics].sort(
    (a, b) =>
      (a.loc?.file ?? "").localeCompare(b.loc?.file ?? "") ||
      (a.loc?.line ?? 0) - (b.loc?.line ?? 0) ||
      (a.loc?.col ?? 0) - (b.loc?.col ?? 0) ||
      a.code.localeCompare(b.code),
  );
