// Two schema documents compared definition by definition (`$defs`, or draft-07's `definitions`), for
// documents that are a library of types rather than one payload: a protocol's schema (MCP's has no
// root at all), or OpenAPI-style components. Each definition is read as the document's `$ref` to
// it, so references between definitions resolve as in the document.
import { compare, verdictOf } from "./compare.js";
import type { Difference, Direction, Verdict } from "./difference.js";
import { shapeOfJsonSchema } from "./shape-of-json-schema.js";

type Schema = { readonly [key: string]: unknown };

const isSchemaObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords that say what a document is, not what a value must be: a document with only these has no root. */
const METADATA = new Set(["$schema", "$id", "$comment", "$anchor", "$vocabulary", "title", "description", "examples", "$defs", "definitions"]);

/** Whether the document constrains no value by itself, only defines types (MCP's schema is such). */
export const hasNoRoot = (document: unknown): boolean => isSchemaObject(document) && Object.keys(document).every((key) => METADATA.has(key));

/** A definition's name → the pointer of its schema in the document (`$defs` first, as 2020-12 names it). */
export const definitionsOf = (document: unknown): ReadonlyMap<string, string> => {
  const found = new Map<string, string>();
  if (!isSchemaObject(document)) return found;
  for (const key of ["$defs", "definitions"]) {
    const defs = document[key];
    if (!isSchemaObject(defs)) continue;
    for (const name of Object.keys(defs)) if (!found.has(name)) found.set(name, `#/${key}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  }
  return found;
};

export type DefinitionStatus = "added" | "removed" | "changed" | "unchanged";

export interface DefinitionComparison {
  readonly name: string;
  readonly status: DefinitionStatus;
  readonly backward: Verdict;
  readonly forward: Verdict;
  /** Paths are within the definition's values. */
  readonly differences: readonly Difference[];
}

export interface DefinitionProblem {
  readonly name: string;
  /** The document whose definition could not be read; absent when neither defines the name. */
  readonly side?: "old" | "new";
  readonly reason: string;
}

export interface DefinitionsReport {
  readonly definitions: readonly DefinitionComparison[];
  /** Names that could not be compared; the others still are. */
  readonly problems: readonly DefinitionProblem[];
}

/** The document, with its root replaced by a reference to one of its definitions. */
const rootedAt = (document: Schema, pointer: string): Schema => {
  const rooted: Record<string, unknown> = { $ref: pointer };
  for (const key of ["$schema", "$id", "$defs", "definitions"]) if (document[key] !== undefined) rooted[key] = document[key];
  return rooted;
};

/**
 * A definition only one side has is one difference at its root, judged as a payload of that type
 * would be: a reader on the new schema cannot read old payloads of a removed type (backward
 * breaking), one on the old schema cannot read new payloads of an added type (forward breaking).
 */
const presence = (name: string, status: "added" | "removed"): Difference =>
  status === "added"
    ? { kind: "definition-added", path: "", backward: "compatible", forward: "breaking", reason: `definition ${name} was added: a reader on the old schema does not know it` }
    : { kind: "definition-removed", path: "", backward: "breaking", forward: "compatible", reason: `definition ${name} was removed: a reader on the new schema cannot read what was written as it` };

const judged = (name: string, status: DefinitionStatus, differences: readonly Difference[]): DefinitionComparison => {
  const verdict = (direction: Direction) => verdictOf(differences, direction);
  return { name, status, backward: verdict("backward"), forward: verdict("forward"), differences };
};

/**
 * Compares the definitions `names` (all those of either document when absent), in name order.
 * A name neither document defines, or a definition that cannot be imported, is a problem; the
 * other names are compared all the same.
 */
export const compareDefinitions = (older: unknown, newer: unknown, names?: readonly string[]): DefinitionsReport => {
  const oldDefs = definitionsOf(older);
  const newDefs = definitionsOf(newer);
  const chosen = names ?? [...new Set([...oldDefs.keys(), ...newDefs.keys()])].sort();
  const problems: DefinitionProblem[] = [];
  const definitions: DefinitionComparison[] = [];
  for (const name of chosen) {
    const oldPointer = oldDefs.get(name);
    const newPointer = newDefs.get(name);
    if (oldPointer === undefined && newPointer === undefined) {
      problems.push({ name, reason: "neither schema defines it" });
      continue;
    }
    if (oldPointer === undefined || newPointer === undefined) {
      const status = oldPointer === undefined ? "added" : "removed";
      definitions.push(judged(name, status, [presence(name, status)]));
      continue;
    }
    const oldShape = shapeOfJsonSchema(rootedAt(older as Schema, oldPointer));
    const newShape = shapeOfJsonSchema(rootedAt(newer as Schema, newPointer));
    if (!oldShape.ok) problems.push({ name, side: "old", reason: oldShape.reason });
    if (!newShape.ok) problems.push({ name, side: "new", reason: newShape.reason });
    if (!oldShape.ok || !newShape.ok) continue;
    const differences = compare(oldShape.shape, newShape.shape);
    definitions.push(judged(name, differences.length === 0 ? "unchanged" : "changed", differences));
  }
  return { definitions, problems };
};
