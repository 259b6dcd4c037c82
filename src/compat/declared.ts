// What the changes declared between two versions tell the engine: the former names and places of
// renamed and moved fields, the defaults that fill newly required fields, the mappings of removed
// enum values, the fields wrapped into lists or cut to their head, and where each change is written. Paths are dotted from the payload root, in the newer version's names.
import type { Change, JsonValue, SourceLocation } from "../ir/model.js";

export interface Declared {
  /** Names the field `name` of the object at `parent` had before, most recent first; none when it was added since. */
  formerNames(parent: string, name: string): readonly { readonly name: string; readonly loc: SourceLocation }[];
  /** The default a `require` of the field at `path` declares, unless relaxed again since. */
  requireDefault(path: string): { readonly value: JsonValue; readonly loc: SourceLocation } | undefined;
  /** The value an `enum` change maps the removed `value` of enum `name` to. */
  enumMapping(name: string, value: string): { readonly to: string; readonly loc: SourceLocation } | undefined;
  /** Where the most recent change of the field at `path` is written. */
  fieldLoc(path: string): SourceLocation | undefined;
  /** Where the most recent change of enum `name` touching `value` is written, else its most recent change. */
  enumLoc(name: string, value: string): SourceLocation | undefined;
  /** Paths a field now at `path` was moved from (`nest`, `hoist`, and renames along the way), most recent first; none without a move. */
  movedFrom(path: string): readonly { readonly path: string; readonly loc: SourceLocation }[];
  /** Whether a declared move takes the field at `path` elsewhere (renamed first or not). */
  movedAway(path: string): boolean;
  /** Where a declared move that puts a field under the object at `path` (`under: "to"`) or takes one out of it is written; undefined without one. */
  movesUnder(path: string, under: "from" | "to"): SourceLocation | undefined;
  /** The declared `wrap` (T → list of T) or `head` (list of T → T) of the field at `path`. */
  reshape(path: string): Extract<Change, { op: "wrap" | "head" }> | undefined;
}

const parentOf = (path: string): string => path.split(".").slice(0, -1).join(".");
const lastOf = (path: string): string => path.slice(path.lastIndexOf(".") + 1);

/** A rename in parent/name terms: `to` may be a bare name or a path under the same parent. */
const renameOf = (change: Extract<Change, { op: "rename" }>) => ({
  parent: parentOf(change.from),
  from: lastOf(change.from),
  to: lastOf(change.to),
  loc: change.loc,
});

const pathOf = (change: Change): string | undefined => {
  switch (change.op) {
    case "rename": {
      const rename = renameOf(change);
      return rename.parent === "" ? rename.to : `${rename.parent}.${rename.to}`;
    }
    case "enum":
    case "custom":
      return undefined;
    case "nest":
    case "hoist":
      return change.to;
    case "add":
    case "remove":
    case "require":
    case "relax":
    case "retype":
    case "constrain":
    case "wrap":
    case "head":
      return change.path;
  }
};

/** `changes`: oldest first, as the versions between the two declare them. */
export const createDeclared = (changes: readonly Change[]): Declared => {
  const newestFirst = [...changes].reverse();
  const moves = changes.filter((c): c is Extract<Change, { op: "nest" | "hoist" }> => c.op === "nest" || c.op === "hoist");
  return {
    formerNames: (parent, name) => {
      const names: { name: string; loc: SourceLocation }[] = [];
      let current = name;
      for (const change of newestFirst) {
        // Added under this name since: a new field, whatever had the name before it.
        if (change.op === "add" && change.path === (parent === "" ? current : `${parent}.${current}`)) return [];
        if (change.op !== "rename") continue;
        const rename = renameOf(change);
        if (rename.parent === parent && rename.to === current) {
          names.push({ name: rename.from, loc: rename.loc });
          current = rename.from;
        }
      }
      return names;
    },
    requireDefault: (path) => {
      const last = newestFirst.find((c) => (c.op === "require" || c.op === "relax") && c.path === path);
      return last?.op === "require" && last.default !== undefined ? { value: last.default, loc: last.loc } : undefined;
    },
    enumMapping: (name, value) => {
      for (const change of newestFirst) {
        if (change.op === "enum" && change.name === name && Object.hasOwn(change.map, value)) {
          return { to: change.map[value]!, loc: change.loc };
        }
      }
      return undefined;
    },
    fieldLoc: (path) => newestFirst.find((c) => pathOf(c) === path)?.loc,
    enumLoc: (name, value) => {
      const changes = newestFirst.filter((c): c is Extract<Change, { op: "enum" }> => c.op === "enum" && c.name === name);
      const touching = changes.find((c) => c.add.some((v) => v.name === value) || c.remove.includes(value) || Object.hasOwn(c.map, value));
      return (touching ?? changes[0])?.loc;
    },
    movedFrom: (path) => {
      // Renames before or after a move count along its way (`line1` was `addr.street`, nested from
      // `street`); renames alone are `formerNames`'.
      const paths: { path: string; loc: SourceLocation }[] = [];
      let current = path;
      let moved = false;
      for (const change of newestFirst) {
        const from = (change.op === "nest" || change.op === "hoist") && change.to === current ? change.from : change.op === "rename" && pathOf(change) === current ? change.from : undefined;
        if (from === undefined) continue;
        moved ||= change.op !== "rename";
        paths.push({ path: from, loc: change.loc });
        current = from;
      }
      return moved ? paths : [];
    },
    movedAway: (path) => {
      // Renamed, then moved: `s` renamed `t`, then `t` nested as `obj.t`, is moved away too.
      let current = path;
      for (const change of changes) {
        if ((change.op === "nest" || change.op === "hoist") && change.from === current) return true;
        if (change.op === "rename" && change.from === current) current = pathOf(change)!;
      }
      return false;
    },
    movesUnder: (path, under) => moves.find((m) => m[under].startsWith(`${path}.`))?.loc,
    reshape: (path) =>
      newestFirst.find((c): c is Extract<Change, { op: "wrap" | "head" }> => (c.op === "wrap" || c.op === "head") && c.path === path),
  };
};
