import { pushIssue } from "./validator-code.js";
import { MAX_NODES } from "../runtime/max-nodes.js";
import type { Hoister } from "./validator-hoister.js";

/** The key of the module's count of recursive-type values in the value one call of check, read or errors is given (zeroed by the template's `reset`). */
export const VISITS = "visits";

/** The key of the module's count of the times one call's is_ functions entered a recursive-type value, never undone. */
export const CHECKED = "checked";

/**
 * The is_/err_ pair of a recursive named type: the pair `inner` checks its fields, this one counts
 * the level first, so a payload nested past `maxDepth` fails with `depth` instead of exhausting
 * the stack. `finally` keeps the count right when a getter throws. It also counts the values it
 * meets in one call, past MAX_NODES a `depth` failure too: a JS value may share objects (a node
 * whose four children are one node, sixteen levels down), and within `maxDepth` and `maxItems`
 * its walk and its copy would be 4^16 values from a few dozen objects.
 *
 * errors() walks a value once, by err_ alone, except where the err_ of a reference to another
 * contract asks is_ first whether any of its versions passes: a failing is_ takes back what it
 * counted, so `visits` counts the value (each of its values once), not the walk, and `checked`,
 * never taken back, bounds the walk (past it is_ fails at once, and errors descends to find out).
 */
export const depthGuard = (hoister: Hoister, base: string, inner: string | undefined, typeName: string, maxDepth: number, take: boolean): string => {
  // The module's count of recursive-type values enclosing the one being checked.
  const depth = hoister.hoist("depth", "depth", (name) => `let ${name} = 0;`);
  // Both reset by the check, read and errors of the version (the template's `reset`).
  const visits = hoister.hoist(VISITS, VISITS, (name) => `let ${name} = 0;`);
  const checked = hoister.hoist(CHECKED, CHECKED, (name) => `let ${name} = 0;`);
  const expected = `${typeName} nested at most ${maxDepth} deep`;
  const many = `at most ${MAX_NODES} values of recursive types`;
  return [
    `function is_${base}(v: any): boolean {`,
    `  if (${depth} >= ${maxDepth} || ++${checked} > ${MAX_NODES} || ++${visits} > ${MAX_NODES}) return false;`,
    ...(inner === undefined
      ? ["  return true;"]
      : [
          `  const before = ${visits} - 1;`,
          `  ${depth}++;`,
          "  try {",
          `    if (is_${inner}(v)) return true;`,
          `    ${visits} = before;`,
          "    return false;",
          "  } finally {",
          `    ${depth}--;`,
          "  }",
        ]),
    "}",
    "",
    `function err_${base}(v: any, out: Issue[]): void {`,
    `  if (${depth} >= ${maxDepth}) {`,
    `    ${pushIssue("out", '""', "depth", expected, "nested too deep")}`,
    "    return;",
    "  }",
    `  if (++${visits} > ${MAX_NODES}) {`,
    `    ${pushIssue("out", '""', "depth", many, "too many nested values")}`,
    "    return;",
    "  }",
    `  ${depth}++;`,
    "  try {",
    ...(inner === undefined ? [] : [`    err_${inner}(v, out);`]),
    "  } finally {",
    `    ${depth}--;`,
    "  }",
    "}",
    ...(take && inner !== undefined
      ? [
          "",
          `function take_${base}(v: any): any {`,
          `  if (${depth} >= ${maxDepth} || ++${visits} > ${MAX_NODES}) return undefined;`,
          `  ${depth}++;`,
          "  try {",
          `    return take_${inner}(v);`,
          "  } finally {",
          `    ${depth}--;`,
          "  }",
          "}",
        ]
      : []),
  ].join("\n");
};

/**
 * The walk of a version whose contract leaves it unbounded (`walkSpread` past MAX_NODES: a map or
 * list without bound inside another) counts each entry of its maps, lists and kept unknown keys
 * with the recursive types' counters: `check` fails past MAX_NODES of them, `errors` reports
 * `depth` where the count passes. A JS value may share objects, and a map whose two keys hold one
 * map, forty levels down, is 2^40 values walked from eighty references. Entries that are values of
 * a recursive type are counted by its own is_/err_ instead.
 */
export interface EntryCount {
  /** is_'s statement, first in the loop over entries. */
  readonly is: string;
  /** err_'s statements, first in the loop over entries (after the cap on issues). */
  readonly err: readonly string[];
  /**
   * How the err_ of a reference to another contract asks whether the value fails, given is_'s
   * call: `uncount(visits, is_x(x))` is `!is_x(x)`, and a failing is_ gives back what it counted,
   * since err_ then counts the value (as depthGuard's is_ does for a recursive type's value).
   */
  readonly fails: (isCall: string) => string;
}

export const entryCount = (hoister: Hoister): EntryCount => {
  const visits = hoister.hoist(VISITS, VISITS, (name) => `let ${name} = 0;`);
  const checked = hoister.hoist(CHECKED, CHECKED, (name) => `let ${name} = 0;`);
  // Declared where a reference to another contract asks for it (`fails`).
  const failing = (): string =>
    hoister.hoist("uncount", "uncount", (name) =>
      [`function ${name}(before: number, passed: boolean): boolean {`, "  if (passed) return false;", `  ${visits} = before;`, "  return true;", "}"].join("\n"),
    );
  return {
    is: `if (++${checked} > ${MAX_NODES} || ++${visits} > ${MAX_NODES}) return false;`,
    err: [`if (++${visits} > ${MAX_NODES}) {`, `  ${pushIssue("out", '""', "depth", `at most ${MAX_NODES} nested values`, "too many nested values")}`, "  return;", "}"],
    fails: (isCall) => `${failing()}(${visits}, ${isCall})`,
  };
};
