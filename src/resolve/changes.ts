// Applies a version's declared changes to the model of the version it starts from.
import { didYouMean } from "../diagnostics/suggest.js";
import type { Change, EnumDef, Field, TypeNode } from "../ir/model.js";
import type { Reader } from "./reader.js";
import type { Node } from "yaml";

export interface VersionModel {
  readonly fields: readonly Field[];
  readonly enums: ReadonlyMap<string, EnumDef>;
}

type Edit = (siblings: readonly Field[], name: string) => readonly Field[] | undefined;

const describeState = (field: Field): string => (field.optional ? "optional" : "required");

/**
 * Walks `path` (dotted, through inline objects) and replaces the fields of the parent with what
 * `edit` returns. Reports and returns undefined when the path does not lead anywhere.
 */
const editAt = (r: Reader, node: Node, version: string, fields: readonly Field[], path: string, edit: Edit): readonly Field[] | undefined => {
  const segments = path.split(".");
  const walk = (siblings: readonly Field[], depth: number): readonly Field[] | undefined => {
    const name = segments[depth]!;
    if (depth === segments.length - 1) return edit(siblings, name);
    const index = siblings.findIndex((f) => f.name === name);
    const here = segments.slice(0, depth + 1).join(".");
    if (index < 0) {
      r.report("unknown-field", node, { path: here, version, suggestion: didYouMean(name, siblings.map((f) => f.name)) });
      return undefined;
    }
    const parent = siblings[index]!;
    if (parent.type.kind !== "object") {
      r.report("not-an-object", node, { path: here, field: segments[depth + 1]! });
      return undefined;
    }
    const inner = walk(parent.type.fields, depth + 1);
    if (!inner) return undefined;
    const updated: Field = { ...parent, type: { kind: "object", fields: inner } };
    return siblings.map((f, i) => (i === index ? updated : f));
  };
  return walk(fields, 0);
};

/** Finds a field by dotted path through inline objects. */
export const fieldAt = (fields: readonly Field[], path: string): Field | undefined => {
  let current: Field | undefined;
  let siblings = fields;
  for (const name of path.split(".")) {
    current = siblings.find((f) => f.name === name);
    if (!current) return undefined;
    siblings = current.type.kind === "object" ? current.type.fields : [];
  }
  return current;
};

const existing = (r: Reader, node: Node, version: string, path: string) => (siblings: readonly Field[], name: string): number | undefined => {
  const index = siblings.findIndex((f) => f.name === name);
  if (index < 0) r.report("unknown-field", node, { path, version, suggestion: didYouMean(name, siblings.map((f) => f.name)) });
  return index < 0 ? undefined : index;
};

const replaceAt = (siblings: readonly Field[], index: number, field: Field): readonly Field[] =>
  siblings.map((f, i) => (i === index ? field : f));

/** Applies one change; the node is what diagnostics point at. */
export const applyChange = (r: Reader, node: Node, version: string, model: VersionModel, change: Change): VersionModel | undefined => {
  const { fields, enums } = model;
  const withFields = (next: readonly Field[] | undefined): VersionModel | undefined => next && { fields: next, enums };
  switch (change.op) {
    case "add":
      return withFields(
        editAt(r, node, version, fields, change.path, (siblings, name) => {
          if (siblings.some((f) => f.name === name)) {
            r.report("field-exists", node, { path: change.path, version });
            return undefined;
          }
          return [...siblings, { ...change.field, name }];
        }),
      );
    case "remove":
      return withFields(
        editAt(r, node, version, fields, change.path, (siblings, name) => {
          const index = existing(r, node, version, change.path)(siblings, name);
          return index === undefined ? undefined : siblings.filter((_, i) => i !== index);
        }),
      );
    case "rename": {
      const fromParent = change.from.split(".").slice(0, -1).join(".");
      const toParts = change.to.split(".");
      if (toParts.length > 1 && toParts.slice(0, -1).join(".") !== fromParent) {
        r.report("rename-across-objects", node, { from: change.from, to: change.to });
        return undefined;
      }
      const newName = toParts[toParts.length - 1]!;
      return withFields(
        editAt(r, node, version, fields, change.from, (siblings, name) => {
          const index = existing(r, node, version, change.from)(siblings, name);
          if (index === undefined) return undefined;
          if (siblings.some((f) => f.name === newName)) {
            r.report("rename-target-exists", node, { from: change.from, to: change.to, version });
            return undefined;
          }
          return replaceAt(siblings, index, { ...siblings[index]!, name: newName });
        }),
      );
    }
    case "require":
    case "relax": {
      const optional = change.op === "relax";
      return withFields(
        editAt(r, node, version, fields, change.path, (siblings, name) => {
          const index = existing(r, node, version, change.path)(siblings, name);
          if (index === undefined) return undefined;
          const field = siblings[index]!;
          if (field.optional === optional) {
            r.report("change-no-effect", node, { op: change.op, path: change.path, state: describeState(field) });
            return undefined;
          }
          const { default: _dropped, ...rest } = field;
          return replaceAt(siblings, index, optional ? { ...field, optional } : { ...rest, optional });
        }),
      );
    }
    case "retype":
      return withFields(
        editAt(r, node, version, fields, change.path, (siblings, name) => {
          const index = existing(r, node, version, change.path)(siblings, name);
          return index === undefined ? undefined : replaceAt(siblings, index, { ...siblings[index]!, type: change.type });
        }),
      );
    case "constrain":
      return withFields(
        editAt(r, node, version, fields, change.path, (siblings, name) => {
          const index = existing(r, node, version, change.path)(siblings, name);
          if (index === undefined) return undefined;
          const field = siblings[index]!;
          const type = { ...field.type } as Record<string, unknown>;
          for (const [key, value] of Object.entries(change.constraints)) {
            if (value === null) delete type[key];
            else type[key] = value;
          }
          return replaceAt(siblings, index, { ...field, type: type as unknown as TypeNode });
        }),
      );
    case "enum": {
      const def = enums.get(change.name);
      if (!def) {
        r.report("unknown-enum", node, { name: change.name, suggestion: didYouMean(change.name, enums.keys()) });
        return undefined;
      }
      let values = [...def.values];
      for (const value of change.add) {
        if (values.some((v) => v.name === value.name)) r.report("duplicate-enum-value", node, { name: def.name, value: value.name });
        else values.push(value);
      }
      for (const name of change.remove) {
        if (!values.some((v) => v.name === name)) {
          r.report("unknown-enum-value", node, { name: def.name, value: name, suggestion: didYouMean(name, values.map((v) => v.name)) });
        }
        values = values.filter((v) => v.name !== name);
      }
      for (const [from, to] of Object.entries(change.map)) {
        if (!def.values.some((v) => v.name === from) && !change.add.some((v) => v.name === from)) {
          r.report("unknown-enum-value", node, { name: def.name, value: from, suggestion: didYouMean(from, def.values.map((v) => v.name)) });
        }
        if (!values.some((v) => v.name === to)) {
          r.report("unknown-enum-value", node, { name: def.name, value: to, suggestion: didYouMean(to, values.map((v) => v.name)) });
        }
      }
      if (values.length === 0) r.report("empty-enum", node, { name: def.name });
      const next = new Map(enums);
      const fallback = change.fallback ?? def.fallback;
      next.set(def.name, fallback === undefined ? { ...def, values } : { ...def, values, fallback });
      return { fields, enums: next };
    }
    case "custom":
      return model;
  }
};
