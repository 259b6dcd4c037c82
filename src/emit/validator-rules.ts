import type { Rule } from "../ir/model.js";
import { indent, isObject, member, pointerTail, pushIssue } from "./validator-code.js";
import type { Hoister } from "./validator-hoister.js";

// Semantic rules JSON Schema cannot express. A field is present when every object on its dotted
// path from the root exists and the field holds a value other than undefined (null counts, as in
// JSON Schema's `required`). Rules run whenever the root is an object, schema issues or not.

/** A JS expression reading the dotted `path` from the root object `v`; undefined when unreachable. */
const createReader = (hoister: Hoister, prefix: string) => (path: string): string => {
  const segments = path.split(".");
  if (segments.length === 1) return member("v", path);
  const name = hoister.hoist(`${prefix}at:${path}`, `${prefix}${segments.join("_")}`, (base) => {
    const lines = segments.slice(0, -1).flatMap((segment, i) => {
      const [from, to] = [i === 0 ? "v" : `o${i}`, `o${i + 1}`];
      return [`const ${to} = ${member(from, segment)};`, `if (!(${isObject(to)})) return undefined;`];
    });
    const last = `o${segments.length - 1}`;
    return [
      `/** The value at \`${path}\`. */`,
      `function at_${base}(v: any): any {`,
      ...indent([...lines, `return ${member(last, segments[segments.length - 1]!)};`]),
      "}",
    ].join("\n");
  });
  return `at_${name}(v)`;
};

interface RuleCode {
  /** Statements returning false when the rule fails. */
  readonly check: readonly string[];
  /** Statements reporting the rule's issues into `out`, paths below the root's. */
  readonly errors: readonly string[];
}

/** `runtime(name)`: the name of a treaty/runtime export the code uses, imported. */
const compileRule = (rule: Rule, read: (path: string) => string, runtime: (name: string) => string): RuleCode => {
  const pointer = (path: string): string => pointerTail(path.split("."));
  const present = (path: string): string => `${read(path)} !== undefined`;
  switch (rule.kind) {
    case "before": {
      // Compared exactly (Date.parse keeps milliseconds only and has no leap second).
      const failed = `typeof a === "string" && typeof b === "string" && !${runtime("isBefore")}(a, b)`;
      const values = [`const a = ${read(rule.first)};`, `const b = ${read(rule.second)};`];
      const expected = `date-time later than ${rule.first}`;
      return {
        check: ["{", ...indent([...values, `if (${failed}) return false;`]), "}"],
        errors: ["{", ...indent([...values, `if (${failed}) ${pushIssue("out", pointer(rule.second), "rule.before", expected, "out of order")}`]), "}"],
      };
    }
    case "exclusive": {
      const expected = `at most one of ${rule.fields.join(", ")}`;
      const [first, ...rest] = rule.fields;
      if (first === undefined) return { check: [], errors: [] };
      return {
        check: [`if (${rule.fields.map((f) => `(${present(f)} ? 1 : 0)`).join(" + ")} > 1) return false;`],
        // One issue, at the second field present.
        errors: [
          "{",
          ...indent([
            "let n = 0;",
            `if (${present(first)}) n++;`,
            ...rest.map((f) => `if (${present(f)} && ++n === 2) ${pushIssue("out", pointer(f), "rule.exclusive", expected, "conflicting field")}`),
          ]),
          "}",
        ],
      };
    }
    case "requires": {
      const expected = `present when ${rule.if} is present`;
      return {
        check: [`if (${present(rule.if)} && (${rule.then.map((f) => `${read(f)} === undefined`).join(" || ")})) return false;`],
        errors: [
          `if (${present(rule.if)}) {`,
          ...indent(rule.then.map((f) => `if (${read(f)} === undefined) ${pushIssue("out", pointer(f), "rule.requires", expected, "missing dependent field")}`)),
          "}",
        ],
      };
    }
  }
};

/**
 * Hoists `is_<base>(v)` and `err_<base>(v, out)` for a version's rules, for a root `v` that is
 * already known to be an object; undefined when there are no rules. `ownFields` is the statement
 * that makes `v` a view of its own fields; `runtime` imports what the code uses of treaty/runtime.
 */
export const hoistRules = (hoister: Hoister, rules: readonly Rule[], prefix: string, ownFields: () => string, runtime: (name: string) => string): string | undefined => {
  if (rules.length === 0) return undefined;
  return hoister.hoist(`${prefix}rules`, `${prefix}rules`, (base) => {
    const read = createReader(hoister, prefix);
    const code = rules.map((rule) => compileRule(rule, read, runtime));
    return [
      `function is_${base}(v: any): boolean {`,
      ...indent([ownFields(), ...code.flatMap((c) => c.check), "return true;"]),
      "}",
      "",
      `function err_${base}(v: any, out: Issue[]): void {`,
      ...indent([ownFields(), ...code.flatMap((c) => c.errors)]),
      "}",
    ].join("\n");
  });
};
