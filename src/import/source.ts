// The document `treaty import` reads: a JSON Schema (draft-07 or 2020-12) or an OpenAPI 3.0/3.1
// description, JSON or YAML, with every JSON pointer in it locatable at its line and column.
import { isAlias, isCollection, isMap, isPair, isScalar, isSeq, type Node } from "yaml";
import { createDiagnostic, type Diagnostic, type StageResult } from "../diagnostics/diagnostic.js";
import type { SourceLocation } from "../ir/model.js";
import { complexKey, locate, parseJsonSource, parseSource, type SourceFile } from "../load/load.js";

export type Schema = { readonly [key: string]: unknown };

export const isSchemaObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

export type Dialect = "draft-07" | "2020-12" | "openapi-3.0" | "openapi-3.1";

export interface SchemaSource {
  /** As diagnostics print it: relative to the project root. */
  readonly file: string;
  readonly document: Schema;
  readonly dialect: Dialect;
  /** Where named schemas live: `#/$defs/`, `#/definitions/`, or `#/components/schemas/`. */
  readonly definitions: ReadonlyMap<string, { readonly pointer: string; readonly schema: unknown }>;
  /** Keywords at the root that constrain a value: none means the document only defines types. */
  readonly hasRoot: boolean;
  /** Where `pointer` is written (the nearest enclosing node that exists). */
  locate(pointer: string): SourceLocation;
}

/** Keywords that say what a document is rather than what a value must be. */
const METADATA = new Set(["$schema", "$id", "id", "$comment", "$anchor", "$vocabulary", "title", "description", "examples", "$defs", "definitions"]);

export const escapePointer = (segment: string): string => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** The names in a JSON pointer as this importer writes one (`#/properties/a%b`: no URI escapes). */
export const pointerSegments = (pointer: string): string[] =>
  pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

/**
 * A `$ref`'s JSON pointer as `pointerSegments` reads one, or undefined for a ref that is no pointer
 * (`#anchor`). A `$ref` is a URI, so its fragment is percent-decoded (RFC 6901 §6); a `%` that
 * begins no valid escape is taken as written, as it most likely is a name's own `%`.
 */
export const refPointer = (ref: string): string | undefined => {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  return ref.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
};

const dialectOf = (document: Schema): Dialect => {
  const openapi = document["openapi"];
  if (typeof openapi === "string") return openapi.startsWith("3.0") ? "openapi-3.0" : "openapi-3.1";
  const declared = typeof document["$schema"] === "string" ? document["$schema"] : "";
  if (/draft-0[4-7]\b/.test(declared)) return "draft-07";
  if (declared === "" && document["definitions"] !== undefined && document["$defs"] === undefined) return "draft-07";
  return "2020-12";
};

const collectDefinitions = (document: Schema, dialect: Dialect): Map<string, { pointer: string; schema: unknown }> => {
  const found = new Map<string, { pointer: string; schema: unknown }>();
  const places: [string, unknown][] = dialect.startsWith("openapi")
    ? [["/components/schemas", isSchemaObject(document["components"]) ? document["components"]["schemas"] : undefined]]
    : [
        ["/$defs", document["$defs"]],
        ["/definitions", document["definitions"]],
      ];
  for (const [prefix, defs] of places) {
    if (!isSchemaObject(defs)) continue;
    for (const [name, schema] of Object.entries(defs)) if (!found.has(name)) found.set(name, { pointer: `#${prefix}/${escapePointer(name)}`, schema });
  }
  return found;
};

/** The YAML node at `segments` under `node`, as deep as it exists, and how deep that is. */
const nodeAt = (node: Node | null, segments: readonly string[]): Node | null => {
  let current = node;
  for (const segment of segments) {
    let next: Node | null = null;
    if (isMap(current)) {
      const pair = current.items.find((p) => isScalar(p.key) && String(p.key.value) === segment);
      next = (pair?.key as Node | undefined) ?? null;
      if (pair && pair.value) next = pair.value as Node;
    } else if (isSeq(current) && /^\d+$/.test(segment)) next = (current.items[Number(segment)] as Node | undefined) ?? null;
    if (!next) return current;
    current = next;
  }
  return current;
};


/** The node at `pointer` in `document` (own keys only: `#/$defs/constructor` is no prototype's), or undefined. */
export const nodeAtPointer = (document: unknown, pointer: string): unknown => {
  let node = document;
  for (const segment of pointerSegments(pointer)) node = (isSchemaObject(node) || Array.isArray(node)) && Object.hasOwn(node, segment) ? (node as Record<string, unknown>)[segment] : undefined;
  return node;
};

/**
 * The document's root schema and its pointer: a root that is only a reference (`{ "$ref":
 * "#/definitions/Foo" }`, beside what says what the document is) is the schema it names.
 */
export const rootSchema = (source: SchemaSource): { pointer: string; schema: unknown } => {
  let root: { pointer: string; schema: unknown } = { pointer: "#", schema: source.document };
  const seen = new Set<string>();
  for (;;) {
    const schema = root.schema;
    if (!isSchemaObject(schema) || typeof schema["$ref"] !== "string" || !Object.keys(schema).every((k) => k === "$ref" || METADATA.has(k))) return root;
    const pointer = refPointer(schema["$ref"]);
    const target = pointer === undefined || seen.has(pointer) ? undefined : nodeAtPointer(source.document, pointer);
    if (pointer === undefined || target === undefined) return root;
    seen.add(pointer);
    root = { pointer, schema: target };
  }
};

/**
 * Reads `text` as a schema document; `file` is how diagnostics name it. A `.json` file is JSON (what
 * YAML would also take, a trailing comma or a comment, is a json-syntax error); any other is YAML.
 */
export const readSchemaSource = (file: string, text: string): StageResult<SchemaSource | undefined> => {
  const parsed = (/\.json$/i.test(file) ? parseJsonSource : parseSource)(file, text);
  const source = parsed.value;
  if (!source || parsed.diagnostics.length > 0) return { value: undefined, diagnostics: parsed.diagnostics };
  const complex = complexKey(source.doc);
  if (complex !== undefined) return { value: undefined, diagnostics: [createDiagnostic("invalid-value", locate(source, complex.range?.[0] ?? 0), { where: "a key of the schema", expected: "a string" })] };
  // Bounded above; an alias is the same object wherever it is used, so memory is the text's.
  const document: unknown = source.doc.toJS({ maxAliasCount: -1 });
  const at = (pointer: string): SourceLocation => {
    const node = nodeAt(source.doc.contents, pointerSegments(pointer));
    return locate(source, node?.range?.[0] ?? 0);
  };
  if (!isSchemaObject(document)) {
    return { value: undefined, diagnostics: [createDiagnostic("import-not-a-schema", at(""), { file, got: Array.isArray(document) ? "a list" : document === null ? "empty" : typeof document })] };
  }
  const dialect = dialectOf(document);
  const diagnostics: Diagnostic[] = [];
  const hasRoot = !dialect.startsWith("openapi") && Object.keys(document).some((key) => !METADATA.has(key));
  return { value: { file, document, dialect, definitions: collectDefinitions(document, dialect), hasRoot, locate: at }, diagnostics };
};
