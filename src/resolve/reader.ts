// Typed, reporting access to YAML nodes. Every accessor that finds a node of the wrong shape reports
// a diagnostic at that node and returns undefined, so the resolver never throws on bad input.
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import { LINT_RULES, type DiagnosticCode } from "../diagnostics/codes.js";
import { createDiagnostic, type Diagnostic, type Params } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import type { JsonValue, LintIgnores, SourceLocation } from "../ir/model.js";
import { complexKey, locate, type SourceFile } from "../load/load.js";

export interface Entry {
  readonly key: string;
  readonly keyNode: Node;
  readonly value: Node | null;
}

export interface Reader {
  readonly file: SourceFile;
  readonly diagnostics: Diagnostic[];
  loc(node: Node | null | undefined, fallback?: Node): SourceLocation;
  report(code: DiagnosticCode, node: Node | null | undefined, params?: Params, fallback?: Node): void;
  /** Reports at a location kept from an earlier read (an IR object's `loc` or `locs`). */
  reportAt(code: DiagnosticCode, loc: SourceLocation, params?: Params): void;
  /** The entries of a mapping, reporting unknown keys (with the closest known one). */
  entries(node: Node | null, where: string, known?: readonly string[]): Entry[] | undefined;
  map(node: Node | null, where: string): YAMLMap | undefined;
  seq(node: Node | null, where: string): YAMLSeq | undefined;
  string(node: Node | null, where: string): string | undefined;
  number(node: Node | null, where: string): number | undefined;
  count(node: Node | null, where: string): number | undefined;
  bool(node: Node | null, where: string): boolean | undefined;
  oneOf<T extends string>(node: Node | null, where: string, values: readonly T[]): T | undefined;
  json(node: Node | null): JsonValue;
  /** `lint: { rule: reason }`: the lint rules turned off where this key stands. */
  lintIgnores(node: Node | null): LintIgnores;
}

/** A scalar key as written: `1.0` stays "1.0" although YAML reads it as the number 1. */
const keyText = (pair: Pair): string => {
  const key = pair.key as Node | null;
  if (isScalar(key)) return (key as Scalar & { source?: string }).source ?? String(key.value);
  return String(key);
};

export const createReader = (file: SourceFile): Reader => {
  const diagnostics: Diagnostic[] = [];
  const root = file.doc.contents as Node | null;
  const loc = (node: Node | null | undefined, fallback?: Node): SourceLocation => {
    const range = node?.range ?? fallback?.range ?? root?.range;
    return locate(file, range?.[0] ?? 0);
  };
  const report = (code: DiagnosticCode, node: Node | null | undefined, params: Params = {}, fallback?: Node): void => {
    diagnostics.push(createDiagnostic(code, loc(node, fallback), params));
  };
  const invalid = (node: Node | null, where: string, expected: string): undefined => {
    // An alias is read as itself, not as the node it names: said so, where "must be a mapping" puzzled.
    if (isAlias(node)) report("alias-not-read", node, { where, alias: node.source });
    else report("invalid-value", node, { where, expected });
    return undefined;
  };
  const scalar = (node: Node | null): unknown => (isScalar(node) ? node.value : undefined);

  const reader: Reader = {
    file,
    diagnostics,
    loc,
    report,
    reportAt: (code, at, params = {}) => void diagnostics.push(createDiagnostic(code, at, params)),
    map: (node, where) => (isMap(node) ? node : invalid(node, where, "a mapping")),
    seq: (node, where) => (isSeq(node) ? node : invalid(node, where, "a list")),
    entries: (node, where, known) => {
      const map = reader.map(node, where);
      if (!map) return undefined;
      const result: Entry[] = [];
      for (const pair of map.items) {
        const keyNode = pair.key as Node;
        // A mapping or list as a key (`? [a, b]`) is no name: YAML allows it, the IDL does not.
        if (keyNode !== null && !isScalar(keyNode)) {
          invalid(keyNode, `a key of ${where}`, "a string");
          continue;
        }
        const key = keyText(pair);
        if (known && !known.includes(key)) {
          report("unknown-key", keyNode, { key, where, suggestion: didYouMean(key, known) });
          continue;
        }
        result.push({ key, keyNode, value: pair.value as Node | null });
      }
      return result;
    },
    string: (node, where) => {
      const value = scalar(node);
      return typeof value === "string" ? value : invalid(node, where, "a string");
    },
    number: (node, where) => {
      const value = scalar(node);
      return typeof value === "number" && Number.isFinite(value) ? value : invalid(node, where, "a number");
    },
    count: (node, where) => {
      const value = scalar(node);
      return typeof value === "number" && Number.isInteger(value) && value >= 0
        ? value
        : invalid(node, where, "a non-negative integer");
    },
    bool: (node, where) => {
      const value = scalar(node);
      return typeof value === "boolean" ? value : invalid(node, where, "true or false");
    },
    oneOf: (node, where, values) => {
      const value = scalar(node);
      return typeof value === "string" && (values as readonly string[]).includes(value)
        ? (value as (typeof values)[number])
        : invalid(node, where, `one of ${values.join(", ")}`);
    },
    // With the document, so that an alias is the value it names; yaml refuses (throws) an alias
    // that would expand exponentially (a "billion laughs"), which is an error at the value.
    json: (node) => {
      if (node === null) return null;
      const complex = complexKey(node);
      if (complex !== undefined) return invalid(complex, "a key in this value", "a string") ?? null;
      try {
        return node.toJS(file.doc, { maxAliasCount: 100 }) as JsonValue;
      } catch (error) {
        report("invalid-value", node, { where: "this value", expected: `written out, not expanded from aliases this far (${(error as Error).message})` });
        return null;
      }
    },
    lintIgnores: (node) => {
      const ignores = new Map<string, { reason: string; loc: SourceLocation }>();
      for (const entry of reader.entries(node, "lint") ?? []) {
        if (!(LINT_RULES as readonly string[]).includes(entry.key)) {
          report("unknown-lint-rule", entry.keyNode, { name: entry.key, suggestion: didYouMean(entry.key, LINT_RULES) });
          continue;
        }
        const reason = scalar(entry.value);
        if (typeof reason !== "string" || reason.trim() === "") report("lint-ignore-without-reason", entry.keyNode, { name: entry.key });
        else ignores.set(entry.key, { reason: reason.trim(), loc: loc(entry.keyNode) });
      }
      return ignores;
    },
  };
  return reader;
};
