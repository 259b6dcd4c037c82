import { Composer, isAlias, isCollection, isPair, isScalar, LineCounter, Parser, Scalar, visit, YAMLParseError, type Document, type Node, type YAMLError } from "yaml";
import { jsonSyntaxDiagnostic, jsonSyntaxError } from "./json-syntax.js";
import { MAX_BLOCK_ESTIMATE, MAX_NESTING, blockNesting, nestingPastLimit } from "./nesting-past-limit.js";
import { createDiagnostic, hasErrors, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { SourceLocation } from "../ir/model.js";
import { readSources, type RawSource } from "./read-sources.js";

export { readSources, type RawSource } from "./read-sources.js";

/** A parsed contract file; its YAML nodes keep their ranges for diagnostics. */
export interface SourceFile {
  /** Relative to the project root, `/`-separated: what diagnostics and generated headers print. */
  readonly path: string;
  readonly text: string;
  readonly doc: Document.Parsed;
  readonly lineCounter: LineCounter;
}

export const locate = (file: Pick<SourceFile, "path" | "lineCounter">, offset: number): SourceLocation => {
  const { line, col } = file.lineCounter.linePos(offset);
  return { file: file.path, line, col };
};

// What may stand between the token before an empty key and the ':' after it.
const BEFORE_INDICATOR = /(?:[ \t\r\n]|#[^\n]*)*/y;

/**
 * An empty key (a line `: x`) is a null scalar that yaml places where the token before it ended: at
 * the end of the line before, or where its indentation starts. It is placed at its ':', which is
 * what writes it, so every diagnostic about it points there.
 */
const placeEmptyKey = (file: SourceFile, key: Scalar): void => {
  const range = key.range;
  if (!range || range[0] !== range[1]) return;
  BEFORE_INDICATOR.lastIndex = range[0];
  BEFORE_INDICATOR.test(file.text);
  const at = BEFORE_INDICATOR.lastIndex;
  key.range = [at, at, at];
};

/**
 * Keys a mapping holds twice, compared as YAML's `uniqueKeys` does (the same scalar value), in one
 * pass with a set per mapping: yaml's own check compares each key with every earlier one, which
 * made a 20,000-field contract take 44 s to parse. Also YAML 1.1's merge key, an unquoted `<<`:
 * YAML 1.2 reads it as a key like any other, so `<<: *base` among fields was a field named `<<`.
 * On the way, each empty key is placed where it is written (`placeEmptyKey`).
 */
const keyProblems = (file: SourceFile): Diagnostic[] => {
  const diagnostics: Diagnostic[] = [];
  visit(file.doc, {
    Map: (_, map) => {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        placeEmptyKey(file, pair.key);
        if (pair.key.value === "<<" && pair.key.type === Scalar.PLAIN) diagnostics.push(createDiagnostic("merge-key", locate(file, pair.key.range?.[0] ?? 0)));
        const value = pair.key.value;
        const id = typeof value === "string" ? `s${value}` : value;
        if (!seen.has(id)) seen.add(id);
        else diagnostics.push(createDiagnostic("duplicate-key", locate(file, pair.key.range?.[0] ?? 0), { key: String(value) }));
      }
    },
  });
  return diagnostics;
};

/** yaml's messages that speak to a programmer using the library, said to the file's author instead. */
const YAML_DETAILS: ReadonlyMap<string, string> = new Map([["MULTIPLE_DOCS", "a contract file holds one YAML document, and this one holds more (a second '---' starts another)"]]);

/** A mapping's key indented unlike its siblings: yaml places the error at the start of the line, its message says nothing of which line. */
const MISALIGNED = "All mapping items must start at the same column";

/** Where `error` is, and what it says, for the file's author. */
const yamlDiagnostic = (file: SourceFile, error: YAMLError): Diagnostic => {
  const message = error.message.split(/ at line \d/)[0]!;
  // Out of stack within MAX_NESTING (a caller that left little of it): a limit all the same, not a syntax error.
  if (message.includes("Maximum call stack size exceeded")) {
    return createDiagnostic("limit-exceeded", locate(file, error.pos[0]), { what: "the nesting of this YAML", actual: "deeper than its parser can read", max: `${MAX_NESTING} levels` });
  }
  if (error.code === "BAD_INDENT" && message === MISALIGNED) {
    // At the key itself, past the indentation yaml points at.
    const line = /^[ \t]*/.exec(file.text.slice(error.pos[0]))![0];
    const indent = file.lineCounter.linePos(error.pos[0]).col - 1 + line.length;
    return createDiagnostic("yaml-syntax", locate(file, error.pos[0] + line.length), {
      detail: `this key is indented ${indent} space${indent === 1 ? "" : "s"}, unlike the keys before it in its mapping: line it up with them`,
    });
  }
  return createDiagnostic("yaml-syntax", locate(file, error.pos[0]), { detail: YAML_DETAILS.get(error.code) ?? message });
};

/** How many more nodes a source's aliases may add to it, expanded: enough for any schema, and no alias bomb. */
const MAX_ALIASED_NODES = 1_000_000;

/**
 * Whether the document's aliases expand within `MAX_ALIASED_NODES`, or the diagnostic at the alias
 * that takes them past it (or into its own anchor, without end). Counted in one pass, each anchored
 * node's size once, so a billion laughs costs what its text does; yaml's own `maxAliasCount`
 * refuses a schema that merely uses one definition a hundred times.
 */
const aliasExpansion = (source: SourceFile): Diagnostic | undefined => {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let added = 0;
  const tooMany = (alias: Node, actual: string): Diagnostic =>
    createDiagnostic("limit-exceeded", locate(source, alias.range?.[0] ?? 0), { what: "the count of nodes the source's aliases expand to", actual, max: `${MAX_ALIASED_NODES}` });
  // The size of `node` expanded; a diagnostic ends the walk.
  const size = (node: unknown): number | Diagnostic => {
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) return 0;
      if (open.has(target)) return tooMany(node, `without end (*${node.source} is within &${node.source})`);
      added += sizes.get(target) ?? 0;
      return added > MAX_ALIASED_NODES ? tooMany(node, `more than ${MAX_ALIASED_NODES}`) : (sizes.get(target) ?? 0);
    }
    if (isPair(node)) {
      const [key, value] = [size(node.key), size(node.value)];
      return typeof key !== "number" ? key : typeof value !== "number" ? value : key + value;
    }
    if (!isScalar(node) && !isCollection(node)) return 0;
    if (node.anchor) anchors.set(node.anchor, node);
    open.add(node);
    let total = 1;
    for (const item of isCollection(node) ? node.items : []) {
      const inner = size(item);
      if (typeof inner !== "number") return inner;
      total = Math.min(total + inner, Number.MAX_SAFE_INTEGER);
    }
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  const result = size(source.doc.contents);
  return typeof result === "number" ? undefined : result;
};

export const parseSource = (path: string, text: string): StageResult<SourceFile> => {
  let lineCounter = new LineCounter();
  // yaml's parseDocument, with the depth checked between parsing and composing: past the limit,
  // the composer ran out of stack, and its error was JavaScript's, said wherever it ran out.
  let tokens: ReturnType<Parser["parse"]> extends Generator<infer T> ? T[] : never = [];
  let parsed = false;
  // yaml's parser closes the block collections a line leaves by recursion: a text whose indentation
  // says it nests past MAX_BLOCK_ESTIMATE is past the limit by that estimate, and not parsed.
  const estimate = blockNesting(text);
  let deep = estimate.depth > MAX_BLOCK_ESTIMATE ? estimate.past : undefined;
  if (deep === undefined) {
    try {
      tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
      parsed = true;
      for (const token of tokens) deep ??= nestingPastLimit(token);
    } catch (error) {
      // Out of stack all the same (a caller that left little of it): past the limit, where the estimate says.
      if (!(error instanceof RangeError)) throw error;
      deep = estimate.past ?? 0;
    }
  }
  if (!parsed) {
    // Lines counted here, for the diagnostic's place, as the parser would have.
    lineCounter = new LineCounter();
    lineCounter.addNewLine(0);
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lineCounter.addNewLine(at + 1);
  }
  // Too deep, an empty document: nothing else is said of the file. forceDoc: there is always a first.
  const documents = new Composer({ uniqueKeys: false, keepSourceTokens: false }).compose(deep === undefined ? tokens : [], true, text.length);
  const doc = documents.next().value as Document.Parsed;
  const second = documents.next().value;
  if (second) doc.errors.push(new YAMLParseError([second.range[0], second.range[1]], "MULTIPLE_DOCS", "Source contains multiple documents"));
  const file: SourceFile = { path, text, doc, lineCounter };
  if (deep !== undefined) {
    const max = `${MAX_NESTING} levels`;
    return { value: file, diagnostics: [createDiagnostic("limit-exceeded", locate(file, deep), { what: "the nesting of this YAML", actual: `more than ${max}`, max })] };
  }
  // After one misaligned key, yaml reads the lines below it in the wrong mapping: their
  // misalignments follow from the first, which is the one reported.
  const first = doc.errors.find((error) => error.code === "BAD_INDENT" && error.message.startsWith(MISALIGNED));
  const errors = doc.errors.filter((error) => error === first || !(error.code === "BAD_INDENT" && error.message.startsWith(MISALIGNED)));
  const diagnostics: Diagnostic[] = [...errors, ...doc.warnings].map((error) => yamlDiagnostic(file, error));
  // An alias within its own anchor makes a value without end (an example's, an imported schema's).
  // Only an anchored node expands (an alias of no anchor adds nothing), so a text without `&` is
  // not walked: `*` alone is in most patterns, and the walk cost a 20,000-field contract 0.2 s.
  const aliased = errors.length === 0 && text.includes("*") && text.includes("&") ? aliasExpansion(file) : undefined;
  return { value: file, diagnostics: [...diagnostics, ...(aliased ? [aliased] : []), ...keyProblems(file)] };
};

/**
 * A JSON file, parsed by YAML for its nodes' positions; what JSON does not allow (YAML's comments,
 * trailing commas, unquoted keys, a missing value) is a `json-syntax` error at the first character
 * JSON does not take, in place of what YAML says of it. Checked first, so a file nested past
 * `MAX_NESTING` (`limit-exceeded`) never reaches the YAML parser; no file on an error.
 */
export const parseJsonSource = (path: string, text: string): StageResult<SourceFile | undefined> => {
  const error = jsonSyntaxError(text);
  return error ? { value: undefined, diagnostics: [jsonSyntaxDiagnostic(path, text, error)] } : parseSource(path, text);
};

/** Parses read sources. */
export const parseSources = (sources: readonly RawSource[]): StageResult<SourceFile[]> => {
  const files: SourceFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const source of sources) {
    const parsed = parseSource(source.path, source.text);
    files.push(parsed.value);
    diagnostics.push(...parsed.diagnostics);
  }
  return { value: files, diagnostics };
};

/** Reads and parses every `*.yaml` under `idlDir`, in a stable order. */
export const load = (root: string, idlDir: string): StageResult<SourceFile[]> => {
  const read = readSources(root, idlDir);
  if (hasErrors(read.diagnostics)) return { value: [], diagnostics: read.diagnostics };
  const parsed = parseSources(read.value);
  return { value: parsed.value, diagnostics: [...read.diagnostics, ...parsed.diagnostics] };
};

/**
 * The first mapping or list written as a key under `node` (YAML's `? [a, b]`), or undefined. JSON
 * and the IDL name things by strings only: yaml would write such a key as its text, and print a
 * warning of its own.
 */
export const complexKey = (node: Node | Document): Node | undefined => {
  let found: Node | undefined;
  visit(node, {
    Pair: (_, pair) => {
      if (pair.key === null || isScalar(pair.key)) return undefined;
      found = pair.key as Node;
      return visit.BREAK;
    },
  });
  return found;
};
