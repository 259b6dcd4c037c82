// patternIncludes against JavaScript's own RegExp engine (the `u` flag, a search, as generated
// validators run a pattern): where it says one pattern includes another, no string up to five
// characters of a small alphabet matches the inner and not the outer; where it says not, its
// witness does exactly that.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patternIncludes } from "../../src/ir/pattern-language.js";

const ALPHABET = ["a", "b", "c", "\n"];
/** Every string of ALPHABET of at most 5 characters (1,365). */
const STRINGS = ((): string[] => {
  const all = [""];
  for (let start = 0, length = 1; length <= 5; length++) {
    const end = all.length;
    for (let i = start; i < end; i++) for (const c of ALPHABET) all.push(all[i] + c);
    start = end;
  }
  return all;
})();

/** Random regexes of the size contracts write: characters, classes, groups, alternation, quantifiers, edge anchors. */
const pattern: fc.Arbitrary<string> = (() => {
  const leaf = fc.constantFrom("a", "b", "c", ".", "[ab]", "[^a]", "[a-c]", "\\n", "[^]");
  const body = fc.memo((depth): fc.Arbitrary<string> => {
    const atom = depth <= 1 ? leaf : fc.oneof(leaf, leaf, body(depth - 1).map((inner) => `(?:${inner})`), fc.tuple(body(depth - 1), body(depth - 1)).map(([x, y]) => `(?:${x}|${y})`));
    return fc
      .array(fc.tuple(atom, fc.constantFrom("", "", "", "*", "+", "?", "{2}", "{1,2}")), { minLength: 1, maxLength: 3 })
      .map((parts) => parts.map(([a, quantifier]) => a + quantifier).join(""));
  });
  return fc.tuple(fc.boolean(), body(3), fc.boolean()).map(([start, text, end]) => `${start ? "^" : ""}${text}${end ? "$" : ""}`);
})();

/** Whether the verdict on `inner` ⊆ `outer` was decided; when it was, RegExp agrees with it. */
const agrees = (outer: string, inner: string): boolean => {
  const o = new RegExp(outer, "u");
  const i = new RegExp(inner, "u");
  const verdict = patternIncludes(outer, inner);
  if (verdict === undefined) return false;
  if (verdict.holds) {
    const counter = STRINGS.find((s) => i.test(s) && !o.test(s));
    expect(counter, `/${inner}/ ⊆ /${outer}/ said to hold`).toBeUndefined();
  } else {
    expect(i.test(verdict.witness) && !o.test(verdict.witness), `witness ${JSON.stringify(verdict.witness)} of /${inner}/ ⊄ /${outer}/`).toBe(true);
  }
  return true;
};

describe("pattern inclusion", () => {
  it.each([
    ["^ORD-[0-9A-Z]+$", "^ORD-[0-9]+$", true],
    ["^ORD-[0-9]+$", "^ORD-[0-9A-Z]+$", false],
    ["^[0-9]+$", "^\\d+$", true],
    ["^\\d+$", "^[0-9]+$", true],
    ["[A-Z]*", "[a-z]*", true], // unanchored and matching "": every string
    ["^\\p{L}+$", "^[a-z]+$", true],
    ["^[a-z]+$", "^\\p{L}+$", false],
    ["^src://", "^src://.+", true],
    ["^src://.+", "^src://", false], // "src://" alone
    ["^.+$", "^[^]+$", false], // "." leaves out line terminators
    ["^c[0-9]+$", "^c[0-9]{1,3}$", true],
    ["abc", "^abc", true],
    ["^abc", "abc", false],
  ])("/%s/ accepts every string /%s/ does: %s", (outer, inner, holds) => {
    expect(patternIncludes(outer, inner)?.holds).toBe(holds);
    expect(agrees(outer, inner)).toBe(true);
  });

  it("no pattern is every string: it includes any, and a pattern includes it only when it matches everything", () => {
    expect(patternIncludes(undefined, "^a$")).toEqual({ holds: true });
    expect(patternIncludes("x*", undefined)).toEqual({ holds: true });
    const rejected = patternIncludes("^[a-z]+$", undefined);
    expect(rejected?.holds).toBe(false);
    expect(/^[a-z]+$/u.test((rejected as { witness: string }).witness)).toBe(false);
  });

  it("a backreference to a group of any length is undecided", () => {
    expect(patternIncludes("^(?:[ab][ab])+$", "^([ab]+)\\1$")).toBeUndefined();
  });

  it("agrees with RegExp on random patterns, both ways, and decides nearly all", () => {
    let asked = 0;
    let decided = 0;
    fc.assert(
      fc.property(pattern, pattern, (p, q) => {
        asked += 2;
        decided += Number(agrees(q, p)) + Number(agrees(p, q));
      }),
      { numRuns: 200 },
    );
    // Undecided only where an automaton outgrows its bound (nested counted repetitions).
    expect(decided / asked).toBeGreaterThan(0.9);
  });

  it("a pattern whose automaton outgrows the bound is undecided, within a second", () => {
    const explosive = "(?:(?:a|(?:a|(?:a{2}|b[^a]{2}.{1,2})+)[^]{0,3})(?:[a-c]{0,3}|(?:[^a]|\\na)+[ab]{2}[^]{1,2})){0,3}";
    expect(patternIncludes("a", explosive)).toBeUndefined();
  });
});

describe("a pattern that is no valid regex", () => {
  it("is undecided, never read as the text it makes inside a group", () => {
    // `(?:a)(?:b)` is valid, `a)(?:b` alone is not.
    expect(patternIncludes("^ab$", "a)(?:b")).toBeUndefined();
    expect(patternIncludes("a)(?:b", "^ab$")).toBeUndefined();
  });
});
