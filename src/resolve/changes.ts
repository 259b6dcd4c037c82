// Applies a version's declared changes to the model of the version it starts from.
import type { DiagnosticCode } from "../diagnostics/codes.js";
import type { Params } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import type { Change, EnumDef, Field, Rule, TypeNode } from "../ir/model.js";

export interface VersionModel {
  readonly fields: readonly Field[];
  readonly enums: ReadonlyMap<string, EnumDef>;
}

type Edit = (siblings: readonly Field[], name: string) => readonly Field[] | undefined;

/** Reports a diagnostic at the change being applied, or at the value of it `at` names (a key of `Change.locs`). */
export type ReportChange = (code: DiagnosticCode, params?: Params, at?: string) => void;

/** `report` pointed at one value of the change, for the helpers that report about that value only. */
const reportingAt = (report: ReportChange, at: string): ReportChange => (code, params, key) => report(code, params, key ?? at);

const describeState = (field: Field): string => (field.optional ? "optional" : "required");

/**
 * Walks `path` (dotted, through inline objects) and replaces the fields of the parent with what
 * `edit` returns. Reports and returns undefined when the path does not lead anywhere.
 */
const editAt = (report: ReportChange, version: string, fields: readonly Field[], path: string, edit: Edit): readonly Field[] | undefined => {
  const segments = path.split(".");
  const walk = (siblings: readonly Field[], depth: number): readonly Field[] | undefined => {
    const name = segments[depth]!;
    if (depth === segments.length - 1) return edit(siblings, name);
    const index = siblings.findIndex((f) => f.name === name);
    const here = segments.slice(0, depth + 1).join(".");
    if (index < 0) {
      reportMissing(report, version, siblings, segments, depth);
      return undefined;
    }
    const parent = siblings[index]!;
    if (parent.type.kind !== "object") {
      report("not-an-object", { path: here, field: segments[depth + 1]! });
      return undefined;
    }
    const inner = walk(parent.type.fields, depth + 1);
    if (!inner) return undefined;
    // Only the fields change: the object keeps its own unknown-key policy.
    const updated: Field = { ...parent, type: { ...parent.type, fields: inner } };
    return siblings.map((f, i) => (i === index ? updated : f));
  };
  return walk(fields, 0);
};

/**
 * The field among `siblings` whose name holds a path separator and starts what is left of a path
 * (`rest`, from the segment that was not found): the field the path meant but cannot name.
 */
export const unaddressableAt = (siblings: readonly Field[], rest: string): string | undefined =>
  siblings.find((f) => /[.[\]]/.test(f.name) && (rest === f.name || rest.startsWith(`${f.name}.`) || rest.startsWith(`${f.name}[`)))?.name;

/** Reports the path that stops at `depth` of `segments` (dotted): unknown, or naming a field it cannot. */
const reportMissing = (report: ReportChange, version: string, siblings: readonly Field[], segments: readonly string[], depth: number): void => {
  const path = segments.join(".");
  const unaddressable = unaddressableAt(siblings, segments.slice(depth).join("."));
  if (unaddressable !== undefined) report("unaddressable-field", { path, name: unaddressable });
  else report("unknown-field", { path: segments.slice(0, depth + 1).join("."), version, suggestion: didYouMean(segments[depth]!, siblings.map((f) => f.name)) });
};

/** Finds a field by dotted path through inline objects. */
export const fieldAt = (fields: readonly Field[], path: string): Field | undefined => fieldAtSegments(fields, path.split("."));

/** Field lists longer than this are looked up through an index by name rather than searched. */
const INDEXED = 16;
const indexes = new WeakMap<readonly Field[], ReadonlyMap<string, Field>>();
/** Long field lists searched once, not yet indexed. */
const searchedOnce = new WeakSet<readonly Field[]>();

/**
 * The field of `siblings` named `name` (the first, as a search finds it). A long list is indexed
 * once (a list of the model is never changed once built; a change makes a new one): the adapter planner and emitter look
 * up every field of a version, which searching made quadratic in a wide object's size. It is
 * indexed when searched a second time: the model after each change is asked for one field (the
 * adapter planner's), and indexing each of those cost a 20,000-field contract's 40 changes 0.3 s.
 */
const fieldNamed = (siblings: readonly Field[], name: string): Field | undefined => {
  if (siblings.length <= INDEXED) return siblings.find((f) => f.name === name);
  let index = indexes.get(siblings);
  if (index === undefined) {
    if (!searchedOnce.has(siblings)) {
      searchedOnce.add(siblings);
      return siblings.find((f) => f.name === name);
    }
    const byName = new Map<string, Field>();
    for (const field of siblings) if (!byName.has(field.name)) byName.set(field.name, field);
    indexes.set(siblings, (index = byName));
  }
  return index.get(name);
};

/** Finds a field by its names from the root, through inline objects (a name may contain `.`). */
export const fieldAtSegments = (fields: readonly Field[], path: readonly string[]): Field | undefined => {
  let current: Field | undefined;
  let siblings = fields;
  for (const name of path) {
    current = fieldNamed(siblings, name);
    if (!current) return undefined;
    siblings = current.type.kind === "object" ? current.type.fields : [];
  }
  return current;
};

const existing = (report: ReportChange, version: string, path: string) => (siblings: readonly Field[], name: string): number | undefined => {
  const index = siblings.findIndex((f) => f.name === name);
  if (index < 0) report("unknown-field", { path, version, suggestion: didYouMean(name, siblings.map((f) => f.name)) });
  return index < 0 ? undefined : index;
};

const replaceAt = (siblings: readonly Field[], index: number, field: Field): readonly Field[] =>
  siblings.map((f, i) => (i === index ? field : f));

/** Replaces the fields of the object at `parent` (a path of existing inline objects; [] is the root). */
const mapObjectAt = (fields: readonly Field[], parent: readonly string[], edit: (siblings: readonly Field[]) => readonly Field[]): readonly Field[] => {
  if (parent.length === 0) return edit(fields);
  const [name, ...rest] = parent;
  return fields.map((f) => (f.name === name && f.type.kind === "object" ? { ...f, type: { ...f.type, fields: mapObjectAt(f.type.fields, rest, edit) } } : f));
};

/** Creates the inline objects of `parent` that do not exist yet, as required objects. */
const ensureObjectsAt = (fields: readonly Field[], parent: readonly string[], loc: Field["loc"]): readonly Field[] => {
  if (parent.length === 0) return fields;
  const [name, ...rest] = parent;
  const found = fields.find((f) => f.name === name);
  if (!found) return [...fields, { name: name!, type: { kind: "object", fields: ensureObjectsAt([], rest, loc) }, optional: false, loc }];
  return fields.map((f) => (f === found && f.type.kind === "object" ? { ...f, type: { ...f.type, fields: ensureObjectsAt(f.type.fields, rest, loc) } } : f));
};

/** `a` is a proper prefix of `b`. */
const isAbove = (a: readonly string[], b: readonly string[]): boolean => a.length < b.length && a.every((s, i) => s === b[i]);

/**
 * `nest` and `hoist`: moves a field to another object on the same branch. Fields move only between
 * required, non-nullable objects, so a moved value is present exactly when it was before.
 */
const moveField = (report: ReportChange, version: string, fields: readonly Field[], change: Extract<Change, { op: "nest" | "hoist" }>): readonly Field[] | undefined => {
  const { op, from, to } = change;
  const fromPath = from.split(".");
  const toPath = to.split(".");
  const fromParent = fromPath.slice(0, -1);
  const toParent = toPath.slice(0, -1);
  // What is wrong with a move is where it goes, or (a hoist) the objects it leaves: the diagnostic points there.
  const lowerKey = op === "nest" ? "to" : "from";
  const invalid = (reason: string, at = "to"): undefined => {
    report("invalid-move", { op, from, to, reason }, at);
    return undefined;
  };
  if (op === "nest" && !isAbove(fromParent, toParent)) return invalid("must move the field into an object inside its parent");
  if (op === "hoist" && !isAbove(toParent, fromParent)) return invalid("must move the field out to an object that encloses it");
  if (isAbove(fromPath, toPath) || fromPath.join(".") === toParent.join(".")) return invalid("cannot move a field into itself");
  const moved = fieldAt(fields, from);
  if (!moved) {
    // Reports where the path stops leading anywhere.
    const atFrom = reportingAt(report, "from");
    editAt(atFrom, version, fields, from, (siblings, name) => void existing(atFrom, version, from)(siblings, name));
    return undefined;
  }
  const [upper, lower] = op === "nest" ? [fromParent, toParent] : [toParent, fromParent];
  for (let depth = upper.length + 1; depth <= lower.length; depth++) {
    const here = lower.slice(0, depth).join(".");
    const object = fieldAt(fields, here);
    if (!object) break; // nest creates it
    if (object.type.kind !== "object") {
      report("not-an-object", { path: here, field: lower[depth] ?? toPath[toPath.length - 1]! }, lowerKey);
      return undefined;
    }
    if (object.optional || object.nullable !== undefined) {
      return invalid(`passes through '${here}', which is optional or nullable; fields move only between required objects`, lowerKey);
    }
  }
  let next = mapObjectAt(fields, fromParent, (siblings) => siblings.filter((f) => f.name !== moved.name));
  // A hoist removes the objects it leaves empty, as a nest creates the ones it needs.
  for (let depth = fromParent.length; depth > toParent.length; depth--) {
    const object = fieldAt(next, fromParent.slice(0, depth).join("."));
    if (object?.type.kind === "object" && object.type.fields.length === 0) {
      next = mapObjectAt(next, fromParent.slice(0, depth - 1), (siblings) => siblings.filter((f) => f !== object));
    }
  }
  next = ensureObjectsAt(next, toParent, change.loc);
  if (fieldAt(next, to)) {
    report("field-exists", { path: to, version }, "to");
    return undefined;
  }
  const name = toPath[toPath.length - 1]!;
  return mapObjectAt(next, toParent, (siblings) => [...siblings, { ...moved, name }]);
};

/** Applies one change; `report` puts diagnostics at the change. */
export const applyChange = (report: ReportChange, version: string, model: VersionModel, change: Change): VersionModel | undefined => {
  const { fields, enums } = model;
  const withFields = (next: readonly Field[] | undefined): VersionModel | undefined => next && { fields: next, enums };
  // What goes wrong with a change's path is said at the path.
  const atPath = reportingAt(report, "path");
  switch (change.op) {
    case "add":
      return withFields(
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          if (siblings.some((f) => f.name === name)) {
            atPath("field-exists", { path: change.path, version });
            return undefined;
          }
          return [...siblings, { ...change.field, name }];
        }),
      );
    case "remove":
      return withFields(
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          const index = existing(atPath, version, change.path)(siblings, name);
          return index === undefined ? undefined : siblings.filter((_, i) => i !== index);
        }),
      );
    case "rename": {
      const fromParent = change.from.split(".").slice(0, -1).join(".");
      const toParts = change.to.split(".");
      if (toParts.length > 1 && toParts.slice(0, -1).join(".") !== fromParent) {
        report("rename-across-objects", { from: change.from, to: change.to }, "to");
        return undefined;
      }
      const newName = toParts[toParts.length - 1]!;
      const atFrom = reportingAt(report, "from");
      return withFields(
        editAt(atFrom, version, fields, change.from, (siblings, name) => {
          const index = existing(atFrom, version, change.from)(siblings, name);
          if (index === undefined) return undefined;
          if (siblings.some((f) => f.name === newName)) {
            report("rename-target-exists", { from: change.from, to: change.to, version }, "to");
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
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          const index = existing(atPath, version, change.path)(siblings, name);
          if (index === undefined) return undefined;
          const field = siblings[index]!;
          if (field.optional === optional) {
            atPath("change-no-effect", { op: change.op, path: change.path, state: describeState(field) });
            return undefined;
          }
          const { default: _dropped, ...rest } = field;
          return replaceAt(siblings, index, optional ? { ...field, optional } : { ...rest, optional });
        }),
      );
    }
    case "retype":
      return withFields(
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          const index = existing(atPath, version, change.path)(siblings, name);
          return index === undefined ? undefined : replaceAt(siblings, index, { ...siblings[index]!, type: change.type });
        }),
      );
    case "constrain":
      return withFields(
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          const index = existing(atPath, version, change.path)(siblings, name);
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
        report("unknown-enum", { name: change.name, suggestion: didYouMean(change.name, enums.keys()) }, "name");
        return undefined;
      }
      let values = [...def.values];
      for (const value of change.add) {
        if (values.some((v) => v.name === value.name)) report("duplicate-enum-value", { name: def.name, value: value.name }, `add.${value.name}`);
        else values.push(value);
      }
      for (const name of change.remove) {
        if (!values.some((v) => v.name === name)) {
          report("unknown-enum-value", { name: def.name, value: name, suggestion: didYouMean(name, values.map((v) => v.name)) }, `remove.${name}`);
        }
        values = values.filter((v) => v.name !== name);
      }
      for (const [from, to] of Object.entries(change.map)) {
        if (!def.values.some((v) => v.name === from) && !change.add.some((v) => v.name === from)) {
          report("unknown-enum-value", { name: def.name, value: from, suggestion: didYouMean(from, def.values.map((v) => v.name)) }, `map.${from}`);
        }
        if (!values.some((v) => v.name === to)) {
          report("unknown-enum-value", { name: def.name, value: to, suggestion: didYouMean(to, values.map((v) => v.name)) }, `map.${from}.to`);
        }
      }
      // Only a removal empties an enum: the diagnostic points at its `remove`.
      if (values.length === 0) report("empty-enum", { name: def.name }, "remove");
      const next = new Map(enums);
      // A fallback the change renames (`map: { OLD: NEW }`) is the new name.
      const carried = def.fallback !== undefined && change.remove.includes(def.fallback) && Object.hasOwn(change.map, def.fallback) ? change.map[def.fallback] : def.fallback;
      const fallback = change.fallback ?? carried;
      // The value read in place of an unknown one must be one the version has: a removed fallback
      // left a reader mapping old values to a value its own validator rejects.
      if (fallback !== undefined && values.length > 0 && !values.some((v) => v.name === fallback)) {
        const removed = change.fallback === undefined && change.remove.includes(fallback);
        report(
          "unknown-enum-value",
          {
            name: def.name,
            value: fallback,
            suggestion: removed ? "; the change removes the enum's fallback: give it another with `fallback:`" : didYouMean(fallback, values.map((v) => v.name)),
          },
          removed ? `remove.${fallback}` : change.fallback !== undefined ? "fallback" : undefined,
        );
      }
      next.set(def.name, fallback === undefined ? { ...def, values } : { ...def, values, fallback });
      return { fields, enums: next };
    }
    case "nest":
    case "hoist":
      return withFields(moveField(report, version, fields, change));
    case "wrap":
    case "head":
      return withFields(
        editAt(atPath, version, fields, change.path, (siblings, name) => {
          const index = existing(atPath, version, change.path)(siblings, name);
          if (index === undefined) return undefined;
          // A default of the old type does not fit the new one; the change's own default is for adapters.
          const { default: _dropped, ...field } = siblings[index]!;
          if (change.op === "head") {
            if (field.type.kind === "list") return replaceAt(siblings, index, { ...field, type: field.type.of });
            atPath("invalid-value", { where: `head '${change.path}'`, expected: "a list field" });
            return undefined;
          }
          const { op: _op, path: _path, default: _default, loc: _loc, locs: _locs, ...constraints } = change;
          return replaceAt(siblings, index, { ...field, type: { kind: "list", of: field.type, ...constraints } });
        }),
      );
    case "custom":
      return model;
  }
};

/** Where `change` moves the field at `path` (or one inside it); undefined: removed; `path` itself: untouched. */
const movedPath = (change: Change, path: string): string | undefined => {
  const under = (from: string, to: string): string => (path === from ? to : path.startsWith(`${from}.`) ? `${to}${path.slice(from.length)}` : path);
  switch (change.op) {
    case "rename": {
      const parent = change.from.split(".").slice(0, -1);
      return under(change.from, [...parent, change.to.split(".").at(-1)!].join("."));
    }
    case "nest":
    case "hoist":
      return under(change.from, change.to);
    case "remove":
      return path === change.path || path.startsWith(`${change.path}.`) ? undefined : path;
    default:
      return path;
  }
};

/** The fields a rule names, and the rule with others in their place. */
const rulePaths = (rule: Rule): { paths: string[]; withPaths: (paths: readonly string[]) => Rule } => {
  switch (rule.kind) {
    case "before":
      return { paths: [rule.first, rule.second], withPaths: ([first, second]) => ({ ...rule, first: first!, second: second! }) };
    case "exclusive":
      return { paths: [...rule.fields], withPaths: (fields) => ({ ...rule, fields }) };
    case "requires":
      return { paths: [rule.if, ...rule.then], withPaths: ([first, ...then]) => ({ ...rule, if: first!, then }) };
  }
};

/**
 * The rules of a version built by `changes` on one holding `inherited`, with `own` (its `rules:`):
 * an inherited rule follows the fields it names where the changes move them (rename, nest, hoist)
 * and goes with a field removed; one of `own` that an inherited rule already is (the same fields,
 * in the same places) counts once.
 */
export const carryRules = (inherited: readonly Rule[], changes: readonly Change[], own: readonly Rule[]): Rule[] => {
  const carried: Rule[] = [];
  for (const rule of inherited) {
    const { paths, withPaths } = rulePaths(rule);
    let moved: (string | undefined)[] = paths;
    for (const change of changes) moved = moved.map((path) => (path === undefined ? undefined : movedPath(change, path)));
    if (moved.every((path) => path !== undefined)) carried.push(withPaths(moved as string[]));
  }
  const key = (rule: Rule): string => JSON.stringify([rule.kind, rulePaths(rule).paths]);
  const held = new Set(carried.map(key));
  return [...carried, ...own.filter((rule) => !held.has(key(rule)))];
};
