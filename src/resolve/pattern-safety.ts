// Every pattern a contract declares runs in generated validators on untrusted input, so it must
// match in time linear in that input. recheck's automaton checker proves it (or finds the string
// that makes a backtracking engine take exponential or polynomial time); what it cannot prove
// (lookaround, say) is refused as well. Verdicts are kept per process (a pattern is checked once),
// and across runs by src/incremental/pattern-verdicts.ts. The checker runs in a process of its own
// (pattern-checker.ts): the patterns of parsed files are handed to it before they are resolved
// (`prefetchVerdicts`), so it judges them while this thread resolves.
import type { Diagnostics } from "recheck";
import { checkPattern, prefetchPatterns, type CheckParams } from "./pattern-checker.js";

/** Why a pattern is refused, in words for a diagnostic; undefined when it is proved linear. */
export type PatternVerdict = string | undefined;

const verdicts = new Map<string, PatternVerdict>();
// Verdicts that depend on how busy the machine was (no proof within the timeout): never kept across runs.
const timedOut = new Set<string>();
const TIMEOUT_MS = 5_000;
const FLAGS = "u";
const PARAMS: CheckParams = { checker: "automaton", timeout: TIMEOUT_MS };

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
  const diagnostics = checkPattern(pattern, FLAGS, PARAMS);
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

/** A quoted value of a `pattern` key, as YAML writes it in block or flow style (a plain one is not looked for). */
const QUOTED_PATTERN = /(?:^|[\s{,])pattern[ \t]*:[ \t]*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\n]|'')*)')/gm;
/** Patterns handed to the checker ahead of time, at most, per call: a head start, not a promise. */
const PREFETCHED = 256;

/**
 * Hands the checker the quoted values of `pattern` keys in `texts` that have no verdict yet, read
 * from the text (a walk of the parsed documents cost a tenth of parsing them). Only a head start:
 * `patternVerdict` asks about every pattern it meets, and what this reads wrong (an escape JSON does
 * not know, a `pattern:` inside a description) is at worst judged for nothing.
 */
export const prefetchVerdicts = (texts: Iterable<string>): void => {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text.includes("pattern")) continue;
    for (const [, doubled, single] of text.matchAll(QUOTED_PATTERN)) {
      const pattern = single !== undefined ? single.replaceAll("''", "'") : unescaped(doubled!);
      if (pattern !== undefined && !verdicts.has(pattern)) found.add(pattern);
      if (found.size >= PREFETCHED) break;
    }
  }
  if (found.size > 0) prefetchPatterns(found, FLAGS, PARAMS);
};

/** A double-quoted YAML scalar's content, where its escapes are JSON's. */
const unescaped = (content: string): string | undefined => {
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return undefined;
  }
};
