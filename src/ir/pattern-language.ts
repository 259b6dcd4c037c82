// What a pattern accepts, as a language: whether every string one pattern accepts another accepts
// too (compat, adapters), whether two accept no string in common (untagged unions), and strings
// it accepts or rejects (generated tests). JSON Schema's `pattern` is a search: a string matches
// when the regex (with the `u` flag, as treaty's validators run it) matches anywhere in it. The
// patterns contracts use are regular expressions in the formal sense (no backreference), so the
// questions are decided on automata, with refa: each pattern's language (`^[^]*(?:p)[^]*$`, the
// pattern's own anchors resolved) as a minimal DFA. The inner language intersected with the outer
// one's complement is empty exactly when the outer includes the inner, and otherwise its shortest,
// most readable word is a string that shows it does not; two languages are disjoint when their
// intersection is empty. Undecided: a pattern refa cannot make an automaton of (a backreference,
// a lookaround it cannot resolve), one that is no valid regex, or one whose automaton outgrows
// MAX_STATES.
import { createRequire } from "node:module";
import type * as Refa from "refa";

/** Included; not, with a string the inner pattern accepts and the outer rejects; or undecided. */
export type Inclusion = { readonly holds: true } | { readonly holds: false; readonly witness: string } | undefined;

/**
 * States an automaton may have before the question counts as undecided (a pattern's own DFA, or
 * their product). Subset construction over Unicode's character classes costs about 0.15 ms a state:
 * a pattern contracts write needs tens to hundreds (an email address 60), and a pathological one
 * stops within a second.
 */
const MAX_STATES = 4_000;

// Loaded on the first changed pattern: most runs compare none.
let refa: typeof Refa | undefined;
const load = (): typeof Refa => (refa ??= createRequire(import.meta.url)("refa") as typeof Refa);

/** The language of a pattern as a search, and its complement, each made once; null: undecidable. */
interface Language {
  readonly dfa: Refa.DFA;
  complement?: Refa.DFA;
}
const languages = new Map<string, Language | null>();
/** Patterns whose languages are kept: a process compares few, a long-lived one (watch) starts over past this. */
const HELD = 512;

const languageOf = (pattern: string): Language | null => {
  const known = languages.get(pattern);
  if (known !== undefined) return known;
  if (languages.size >= HELD) languages.clear();
  const language = build(pattern);
  languages.set(pattern, language);
  return language;
};

const build = (pattern: string): Language | null => {
  const { JS, NFA, DFA, Transformers, combineTransformers, transform } = load();
  try {
    // Valid on its own with the `u` flag, so it nests as a group: `a)(?:b` would not mean itself
    // (a contract's patterns are checked by the resolver; a schema `treaty compat` reads is not).
    new RegExp(pattern, "u");
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source: `^[^]*(?:${pattern})[^]*$`, flags: "u" }).parse({ assertions: "parse", backreferences: "throw" });
    const resolved = transform(
      combineTransformers([Transformers.simplify(), Transformers.patternEdgeAssertions({ remove: true }), Transformers.applyAssertions(), Transformers.removeUnnecessaryAssertions()]),
      expression,
    );
    const nfa = NFA.fromRegex(resolved, { maxCharacter }, { assertions: "throw", unknowns: "throw" }, new NFA.LimitedNodeFactory(MAX_STATES));
    const dfa = DFA.fromFA(nfa, new DFA.LimitedNodeFactory(MAX_STATES));
    dfa.minimize();
    return { dfa };
  } catch {
    // No valid regex, an assertion left after resolving, a backreference, too many states, a pattern refa rejects.
    return null;
  }
};

/** The first string of `words`, the shortest and most readable, if any. */
const first = (words: Iterable<Refa.ReadonlyWordSet>): string | undefined => {
  const { Words } = load();
  for (const word of words) return Words.fromUnicodeToString(Words.pickMostReadableWord(word));
  return undefined;
};

/** Whether `outer` accepts every string `inner` accepts (undefined for either: no pattern, every string). */
export const patternIncludes = (outer: string | undefined, inner: string | undefined): Inclusion => {
  if (outer === undefined || outer === inner) return { holds: true };
  const o = languageOf(outer);
  const i = inner === undefined ? undefined : languageOf(inner);
  if (o === null || i === null) return undefined;
  const { DFA, getIntersectionWordSets } = load();
  try {
    if (o.complement === undefined) {
      const complement = o.dfa.copy(new DFA.LimitedNodeFactory(MAX_STATES + 1));
      complement.complement(new DFA.LimitedNodeFactory(MAX_STATES + 1));
      o.complement = complement;
    }
    // No inner pattern: any string the outer rejects shows it.
    const witness = first(i === undefined ? o.complement.wordSets() : getIntersectionWordSets(i.dfa, o.complement, MAX_STATES));
    return witness === undefined ? { holds: true } : { holds: false, witness };
  } catch {
    return undefined; // the product outgrew MAX_STATES
  }
};

/** No string matches both; not, with one that does; or undecided. */
export type Disjointness = { readonly disjoint: true } | { readonly disjoint: false; readonly witness: string } | undefined;

/** Whether no string matches both `a` and `b`. */
export const patternsDisjoint = (a: string, b: string): Disjointness => {
  const x = languageOf(a);
  const y = languageOf(b);
  if (x === null || y === null) return undefined;
  try {
    const witness = first(load().getIntersectionWordSets(x.dfa, y.dfa, MAX_STATES));
    return witness === undefined ? { disjoint: true } : { disjoint: false, witness };
  } catch {
    return undefined; // the product outgrew MAX_STATES
  }
};

/**
 * A string `pattern` matches: of `length` code points when given (undefined when it has none that
 * long), else the shortest; the most readable of those. Undefined where the pattern is undecided.
 */
export const matchingString = (pattern: string, length?: number): string | undefined => {
  const language = languageOf(pattern);
  const sized = length === undefined ? undefined : languageOf(`^[^]{${length}}$`);
  if (language === null || sized === null) return undefined;
  try {
    return first(sized === undefined ? language.dfa.wordSets() : load().getIntersectionWordSets(language.dfa, sized.dfa, MAX_STATES));
  } catch {
    return undefined; // the product outgrew MAX_STATES
  }
};

/** The shortest, most readable string `pattern` rejects; undefined when it matches every string, or is undecided. */
export const rejectedString = (pattern: string): string | undefined => {
  const verdict = patternIncludes(pattern, undefined);
  return verdict === undefined || verdict.holds ? undefined : verdict.witness;
};
