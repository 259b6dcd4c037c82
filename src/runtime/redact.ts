// PLACEHOLDER (session 2 base): the redaction helper owns this file and replaces the bodies.
// The signatures below are the contract between the decode pipeline and redaction.
import type { Issue } from "./issue.js";

/** What the runtime knows of one version's fields: sensitivity tags and enum meanings by position. */
export type VersionShape = unknown;

/** Who reads the redacted copy: `internal` sinks may see `internal` fields; nobody sees `secret`. */
export interface RedactOptions {
  readonly internal: boolean;
}

/**
 * A deep copy of `value` (a payload of the version `shape` describes) with `secret` values
 * removed, `pii` values replaced by a marker with a stable hash, and `internal` values kept only
 * for internal readers. Without a shape, nothing of the value is kept.
 */
export const redact = (value: unknown, shape: VersionShape | undefined, options: RedactOptions): unknown => {
  void value;
  void shape;
  void options;
  return "[redacted]";
};

/** The message that asks a producer (an LLM) to try again: each failing path, what was expected, allowed enum values with meanings. */
export const reaskMessage = (contract: string, version: string, issues: readonly Issue[], shape: VersionShape | undefined): string => {
  void shape;
  return `Your ${contract} ${version} output was invalid:\n${issues.map((i) => `- ${i.path || "(root)"}: expected ${i.expected}`).join("\n")}`;
};
