// The engine on JSON Schema against two peer suites, run on their files as they are:
// Apicurio Registry's labelled pairs and getsentry/json-schema-diff's cases. Each case we disagree
// with (or cannot import) stands in an expectations file with a one-line reason, so any change of
// outcome fails here, in either direction: a case that starts agreeing must leave the file too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compare, verdictOf } from "../../src/compat/compare.js";
import { shapeOfJsonSchema } from "../../src/compat/shape-of-json-schema.js";

const ROOT = join(import.meta.dirname, "../..");
const SUITES = join(ROOT, "test/reference/schema-evolution");
const read = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

interface Expectation {
  readonly id: string;
  readonly ours: string | boolean;
  readonly reason: string;
}

interface Outcome {
  readonly id: string;
  readonly theirs: string | boolean;
  readonly ours: string | boolean;
}

const CANNOT_IMPORT = "cannot import";

/** Our backward and forward verdicts on one pair, or undefined when a schema cannot be imported. */
const judge = (older: unknown, newer: unknown) => {
  const o = shapeOfJsonSchema(older);
  const n = shapeOfJsonSchema(newer);
  if (!o.ok || !n.ok) return undefined;
  const differences = compare(o.shape, n.shape);
  return { backward: verdictOf(differences, "backward"), forward: verdictOf(differences, "forward") };
};

/** Apicurio ids repeat ("String: minLength" three times): later occurrences get ` #2`, ` #3`. */
const uniqueIds = (ids: readonly string[]): string[] => {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const count = (seen.get(id) ?? 0) + 1;
    seen.set(id, count);
    return count === 1 ? id : `${id} #${count}`;
  });
};

const checkAgainst = (suite: string, outcomes: readonly Outcome[]): number => {
  const expectations = read(join(import.meta.dirname, "expectations", `${suite}.json`)) as Expectation[];
  const expected = new Map(expectations.map((e) => [e.id, e]));
  expect(expected.size, `${suite}: duplicate ids in the expectations`).toBe(expectations.length);
  const ids = new Set(outcomes.map((o) => o.id));
  for (const e of expectations) expect(ids.has(e.id), `${suite}: expectation for unknown case "${e.id}"`).toBe(true);
  for (const o of outcomes) {
    const e = expected.get(o.id);
    if (o.ours === o.theirs) expect(e, `${suite}: "${o.id}" now agrees (${o.ours}); remove it from the expectations`).toBeUndefined();
    else {
      expect(e, `${suite}: "${o.id}": ours ${o.ours}, theirs ${o.theirs}; add it to the expectations with a reason`).toBeDefined();
      expect(e!.ours, `${suite}: "${o.id}" changed outcome`).toBe(o.ours);
      expect(e!.reason.trim().length, `${suite}: "${o.id}" needs a reason`).toBeGreaterThan(0);
    }
  }
  const agreeing = outcomes.filter((o) => o.ours === o.theirs).length;
  const rate = agreeing / outcomes.length;
  console.log(`${suite}: ${agreeing}/${outcomes.length} agree (${(rate * 100).toFixed(1)}%)`);
  return rate;
};

describe("reference suites", () => {
  it("Apicurio: at least 90% agreement on the enabled cases", () => {
    // backward: BACKWARD holds and FORWARD fails; both: both hold; none: BACKWARD fails.
    const { tests } = read(join(SUITES, "apicurio-jsonschema-compatibility.json")) as {
      tests: { id: string; enabled: boolean; compatibility: string; original: unknown; updated: unknown }[];
    };
    const ids = uniqueIds(tests.map((t) => t.id));
    const outcomes = tests.flatMap((t, i): Outcome[] => {
      if (!t.enabled) return [];
      const verdict = judge(t.original, t.updated);
      const ours = !verdict ? CANNOT_IMPORT : verdict.backward === "breaking" ? "none" : verdict.forward === "breaking" ? "backward" : "both";
      return [{ id: ids[i]!, theirs: t.compatibility, ours }];
    });
    expect(outcomes.length).toBeGreaterThan(0);
    expect(checkAgainst("apicurio", outcomes)).toBeGreaterThanOrEqual(0.9);
  });

  it("getsentry: any_breaking is our backward verdict", () => {
    // any_breaking: the new schema rejects some value the old one accepted, so a reader on the new
    // schema fails on old data: exactly a backward break. Their forward direction is not labelled.
    const { cases } = read(join(SUITES, "getsentry-json-schema-diff-cases.json")) as {
      cases: { name: string; lhs_old: unknown; rhs_new: unknown; any_breaking: boolean }[];
    };
    const outcomes = cases.map((c): Outcome => {
      const verdict = judge(c.lhs_old, c.rhs_new);
      return { id: c.name, theirs: c.any_breaking, ours: verdict ? verdict.backward === "breaking" : CANNOT_IMPORT };
    });
    expect(outcomes.length).toBe(85);
    checkAgainst("getsentry", outcomes);
  });
});
