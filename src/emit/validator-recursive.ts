import { pushIssue } from "./validator-code.js";
import type { Hoister } from "./validator-hoister.js";

/**
 * The is_/err_ pair of a recursive named type: the pair `inner` checks its fields, this one counts
 * the level first, so a payload nested past `maxDepth` fails with `depth` instead of exhausting
 * the stack. `finally` keeps the count right when a getter throws.
 */
export const depthGuard = (hoister: Hoister, base: string, inner: string | undefined, typeName: string, maxDepth: number, take: boolean): string => {
  // The module's count of recursive-type values enclosing the one being checked.
  const depth = hoister.hoist("depth", "depth", (name) => `let ${name} = 0;`);
  const expected = `${typeName} nested at most ${maxDepth} deep`;
  return [
    `function is_${base}(v: any): boolean {`,
    `  if (${depth} >= ${maxDepth}) return false;`,
    `  ${depth}++;`,
    "  try {",
    `    return ${inner === undefined ? "true" : `is_${inner}(v)`};`,
    "  } finally {",
    `    ${depth}--;`,
    "  }",
    "}",
    "",
    `function err_${base}(v: any, p: string, out: Issue[]): void {`,
    `  if (${depth} >= ${maxDepth}) {`,
    `    ${pushIssue("out", "p", "depth", expected, "nested too deep")}`,
    "    return;",
    "  }",
    `  ${depth}++;`,
    "  try {",
    ...(inner === undefined ? [] : [`    err_${inner}(v, p, out);`]),
    "  } finally {",
    `    ${depth}--;`,
    "  }",
    "}",
    ...(take && inner !== undefined
      ? [
          "",
          `function take_${base}(v: any): any {`,
          `  if (${depth} >= ${maxDepth}) return undefined;`,
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
