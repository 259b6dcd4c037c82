// Every pattern a contract declares runs in generated validators on untrusted input, so it must
// match in time linear in that input. recheck's automaton checker proves it (or finds the string
// that makes a backtracking engine take exponential or polynomial time); what it cannot prove
// (lookaround, say) is refused as well. Verdicts are kept per process (a pattern is checked once),
// and across runs by src/incremental/pattern-verdicts.ts.
import { createRequire } from "node:module";
import type { Diagnostics } from "recheck";

/** Why a pattern is refused, in words for a diagnostic; undefined when it is proved linear. */
export type PatternVerdict = string | undefined;

const verdicts = new Map<string, PatternVerdict>();
// Verdicts that depend on how busy the machine was (no proof within the timeout): never kept across runs.
const timedOut = new Set<string>();
// Loaded on the first pattern only: recheck starts its checker (a native binary, or Java, or its
// JavaScript build) once per process, and a project without patterns should not pay for it.
let checkSync: ((source: string, flags: string, params: object) => Diagnostics) | undefined;

const TIMEOUT_MS = 5_000;

const explain = (d: Diagnostics): PatternVerdict => {
  switch (d.status) {
    case "safe":
      return d.complexity.isFuzz ? "was not proved to run in linear time" : undefined;
    case "vulnerable":
      return `takes ${d.complexity.summary} time on input such as ${d.attack.pattern}`;
    case "unknown":
      return `cannot be proved to run in linear time (${d.error.kind === "timeout" ? `no proof within ${TIMEOUT_MS / 1000} s` : "message" in d.error ? d.error.message : d.error.kind} is not supported)`;
  }
};

/** Whether `pattern` (valid with the `u` flag) matches in linear time, and why not. */
export const patternVerdict = (pattern: string): PatternVerdict => {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  checkSync ??= (createRequire(import.meta.url)("recheck") as typeof import("recheck")).checkSync;
  const diagnostics = checkSync(pattern, "u", { checker: "automaton", timeout: TIMEOUT_MS });
  if (diagnostics.status === "unknown" && diagnostics.error.kind === "timeout") timedOut.add(pattern);
  const verdict = explain(diagnostics);
  verdicts.set(pattern, verdict);
  return verdict;
};

/** The verdicts this process reached that hold on any machine, by pattern. */
export const durableVerdicts = (): [string, PatternVerdict][] => [...verdicts].filter(([pattern]) => !timedOut.has(pattern));

/** Verdicts an earlier run reached with this same checker: their patterns are not checked again. */
export const rememberVerdicts = (known: Iterable<readonly [string, PatternVerdict]>): void => {
  for (const [pattern, verdict] of known) if (!verdicts.has(pattern)) verdicts.set(pattern, verdict);
};
