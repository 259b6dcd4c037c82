// Prettier's document printer (src/document/printer/printer.js), the part treaty's direct layouts
// use: strings, concatenation, groups (with ids and forced breaks), indentation, soft, normal and
// hard lines, and `ifBreak` / `indentIfBreak`. A group prints flat when its contents and what
// follows them up to the next possible line break fit in the rest of the line; a hard line breaks
// every group around it. Widths are of printable ASCII only: callers decline other text.
//
// One addition: a group marked `flatOnly` throws `Unsure` where prettier would break it, for the
// constructs whose broken layout treaty does not print itself (the caller then asks prettier).

export type Doc = string | readonly Doc[] | Group | Indent | Line | IfBreak | IndentIfBreak | BreakParent;

export interface Group {
  readonly kind: "group";
  readonly contents: Doc;
  /** Broken from the start (a hard line inside, or prettier's `shouldBreak`); set by `propagateBreaks`. */
  broken: boolean;
  readonly id?: symbol;
  readonly flatOnly?: boolean;
  /** A conditional group (prettier's conditionalGroup): the states tried in turn, `contents` the first. */
  readonly expandedStates?: readonly Doc[];
}
interface Indent {
  readonly kind: "indent";
  readonly contents: Doc;
}
interface Line {
  readonly kind: "line";
  readonly soft: boolean;
  readonly hard: boolean;
}
interface IfBreak {
  readonly kind: "if-break";
  readonly broken: Doc;
  readonly flat: Doc;
  readonly groupId?: symbol;
}
interface IndentIfBreak {
  readonly kind: "indent-if-break";
  readonly contents: Doc;
  readonly groupId: symbol;
}
interface BreakParent {
  readonly kind: "break-parent";
}

/** Thrown where the printed layout would need what this printer does not do; the caller declines. Not an Error: no stack to capture. */
export class Unsure {}

export const group = (contents: Doc, options: { shouldBreak?: boolean; id?: symbol; flatOnly?: boolean } = {}): Group => ({
  kind: "group",
  contents,
  broken: options.shouldBreak === true,
  ...(options.id === undefined ? {} : { id: options.id }),
  ...(options.flatOnly === true ? { flatOnly: true } : {}),
});
/** Prettier's conditionalGroup: the first of `states` that fits flat (the first one measured with what follows), else the last broken. */
export const conditionalGroup = (states: readonly Doc[]): Group => ({ kind: "group", contents: states[0]!, broken: false, expandedStates: states });
/** Whether `test` holds for `doc` or anything in it (of a conditional group, its first state only), as prettier's findInDoc. */
const someInDoc = (doc: Doc, test: (node: Exclude<Doc, string | readonly Doc[]>) => boolean): boolean => {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) return (doc as readonly Doc[]).some((part) => someInDoc(part, test));
  const node = doc as Exclude<Doc, string | readonly Doc[]>;
  if (test(node)) return true;
  switch (node.kind) {
    case "group":
    case "indent":
    case "indent-if-break":
      return someInDoc(node.contents, test);
    case "if-break":
      return someInDoc(node.broken, test) || someInDoc(node.flat, test);
    default:
      return false;
  }
};
/** Prettier's willBreak: whether `doc` holds a hard line or a group broken from the start. */
export const willBreak = (doc: Doc): boolean =>
  someInDoc(doc, (node) => (node.kind === "group" && node.broken) || (node.kind === "line" && node.hard) || node.kind === "break-parent");
/** Prettier's canBreak: whether `doc` holds any line. */
export const canBreak = (doc: Doc): boolean => someInDoc(doc, (node) => node.kind === "line");
export const indent = (contents: Doc): Doc => ({ kind: "indent", contents });
export const line: Doc = { kind: "line", soft: false, hard: false };
export const softline: Doc = { kind: "line", soft: true, hard: false };
export const breakParent: Doc = { kind: "break-parent" };
export const hardline: Doc = [{ kind: "line", soft: false, hard: true }, breakParent];
export const ifBreak = (broken: Doc, flat: Doc = "", groupId?: symbol): Doc => ({
  kind: "if-break",
  broken,
  flat,
  ...(groupId === undefined ? {} : { groupId }),
});
export const indentIfBreak = (contents: Doc, groupId: symbol): Doc => ({ kind: "indent-if-break", contents, groupId });
export const join = (separator: Doc, docs: readonly Doc[]): Doc[] => docs.flatMap((doc, i) => (i === 0 ? [doc] : [separator, doc]));

/**
 * Marks every group that holds a hard line (or a broken group) as broken, as prettier's
 * propagateBreaks does: a conditional group is never marked, but what its states hold is. The
 * states of a conditional group share their parts, so a conditional group is kept in `seen` once
 * walked and what it holds is walked once: walked again at every place, nested conditional groups
 * took time exponential in their depth (a list of lists 16 deep: 37 s). Only conditional groups
 * are remembered: a map entry for every node was most of the walk's cost.
 */
const propagateBreaks = (doc: Doc, seen: Set<Group>): boolean => {
  if (typeof doc === "string") return false;
  if (Array.isArray(doc)) {
    let breaks = false;
    for (const part of doc as readonly Doc[]) if (typeof part !== "string" && propagateBreaks(part, seen)) breaks = true;
    return breaks;
  }
  const node = doc as Exclude<Doc, string | readonly Doc[]>;
  switch (node.kind) {
    case "group": {
      if (node.expandedStates !== undefined) {
        if (seen.has(node)) return node.broken;
        seen.add(node);
        // What breaks inside stops here: prettier's printer puts a breakParent beside such a group where it must.
        for (const state of node.expandedStates) propagateBreaks(state, seen);
        return node.broken;
      }
      if (propagateBreaks(node.contents, seen)) node.broken = true;
      return node.broken;
    }
    case "indent":
    case "indent-if-break":
      return propagateBreaks(node.contents, seen);
    case "if-break": {
      const a = propagateBreaks(node.broken, seen);
      const b = propagateBreaks(node.flat, seen);
      return a || b;
    }
    case "break-parent":
      return true;
    case "line":
      return false;
  }
};

const BREAK = 1;
const FLAT = 2;
type Mode = typeof BREAK | typeof FLAT;

/**
 * The printer's commands (indentation, mode, document) as three parallel stacks, and `fits`'s
 * own two: one object a command was most of the printer's garbage. `fits` never runs inside
 * itself, so its stacks are shared (what they hold past their length is stale, overwritten by
 * the next call).
 */
interface Commands {
  readonly indents: number[];
  readonly modes: Mode[];
  readonly docs: Doc[];
  length: number;
}
const fitModes: Mode[] = [];
const fitDocs: Doc[] = [];

/**
 * Prettier's `fits`: whether `doc` (in `mode`) and the commands after it, up to the first line
 * break, fit in `width`.
 */
const fits = (mode0: Mode, doc0: Doc, rest: Commands, width: number, modes: Map<symbol, Mode>): boolean => {
  let restIndex = rest.length;
  let length = 1;
  fitModes[0] = mode0;
  fitDocs[0] = doc0;
  let pendingSpace = false;
  while (width >= 0) {
    let mode: Mode;
    let doc: Doc;
    if (length === 0) {
      if (restIndex === 0) return true;
      restIndex--;
      mode = rest.modes[restIndex]!;
      doc = rest.docs[restIndex]!;
    } else {
      length--;
      mode = fitModes[length]!;
      doc = fitDocs[length]!;
    }
    if (typeof doc === "string") {
      if (doc !== "") {
        if (pendingSpace) {
          width -= 1;
          pendingSpace = false;
        }
        width -= doc.length;
      }
      continue;
    }
    if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) {
        fitModes[length] = mode;
        fitDocs[length++] = (doc as readonly Doc[])[i]!;
      }
      continue;
    }
    const node = doc as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
      case "indent-if-break":
        fitModes[length] = mode;
        fitDocs[length++] = node.contents;
        break;
      case "group": {
        const groupMode = node.broken ? BREAK : mode;
        fitModes[length] = groupMode;
        fitDocs[length++] = node.expandedStates !== undefined && groupMode === BREAK ? node.expandedStates[node.expandedStates.length - 1]! : node.contents;
        break;
      }
      case "if-break": {
        const groupMode = node.groupId === undefined ? mode : (modes.get(node.groupId) ?? FLAT);
        const contents = groupMode === BREAK ? node.broken : node.flat;
        if (contents !== "") {
          fitModes[length] = mode;
          fitDocs[length++] = contents;
        }
        break;
      }
      case "line":
        if (mode === BREAK || node.hard) return true;
        if (!node.soft) pendingSpace = true;
        break;
      case "break-parent":
        break;
    }
  }
  return false;
};

/** `doc` printed at `width` columns with two-space indentation, as prettier prints it. */
export const printDoc = (doc: Doc, width: number): string => {
  propagateBreaks(doc, new Set());
  const modes = new Map<symbol, Mode>();
  const out: string[] = [];
  let position = 0;
  let remeasure = false;
  const commands: Commands = { indents: [0], modes: [BREAK], docs: [doc], length: 1 };
  const { indents, modes: commandModes, docs } = commands;
  const push = (level: number, mode: Mode, next: Doc): void => {
    const at = commands.length++;
    indents[at] = level;
    commandModes[at] = mode;
    docs[at] = next;
  };
  /** Drops trailing spaces of the output, as prettier's `trim` does before a line break. */
  const trim = (): void => {
    while (out.length > 0) {
      const last = out[out.length - 1]!;
      if (last === "") {
        out.pop();
        continue;
      }
      const end = last.charCodeAt(last.length - 1);
      if (end !== 32 && end !== 9) break;
      const trimmed = last.replace(/[ \t]+$/, "");
      if (trimmed === "") {
        out.pop();
        continue;
      }
      out[out.length - 1] = trimmed;
      break;
    }
  };
  while (commands.length > 0) {
    const top = --commands.length;
    const level = indents[top]!;
    const mode = commandModes[top]!;
    const doc = docs[top]!;
    if (typeof doc === "string") {
      out.push(doc);
      position += doc.length;
      continue;
    }
    if (Array.isArray(doc)) {
      for (let i = doc.length - 1; i >= 0; i--) push(level, mode, (doc as readonly Doc[])[i]!);
      continue;
    }
    const node = doc as Exclude<Doc, string | readonly Doc[]>;
    switch (node.kind) {
      case "indent":
        push(level + 2, mode, node.contents);
        break;
      case "group": {
        let chosen: Mode;
        let contents = node.contents;
        if (mode === FLAT && !remeasure) chosen = node.broken ? BREAK : FLAT;
        else {
          remeasure = false;
          const rest = width - position;
          chosen = !node.broken && fits(FLAT, node.contents, commands, rest, modes) ? FLAT : BREAK;
          const states = node.expandedStates;
          if (chosen === BREAK && states !== undefined) {
            // The states after the first, each printed flat where it fits (its broken groups still break), else the last broken.
            contents = states[states.length - 1]!;
            if (!node.broken) {
              for (let i = 1; i < states.length - 1; i++) {
                if (fits(FLAT, states[i]!, commands, rest, modes)) {
                  contents = states[i]!;
                  chosen = FLAT;
                  break;
                }
              }
            }
          }
        }
        if (chosen === BREAK && node.flatOnly) throw new Unsure();
        push(level, chosen, contents);
        if (node.id !== undefined) modes.set(node.id, chosen);
        break;
      }
      case "if-break": {
        const groupMode = node.groupId === undefined ? mode : modes.get(node.groupId);
        const contents = groupMode === BREAK ? node.broken : groupMode === FLAT ? node.flat : "";
        if (contents !== "") push(level, mode, contents);
        break;
      }
      case "indent-if-break": {
        const groupMode = modes.get(node.groupId);
        if (groupMode === BREAK) push(level, mode, indent(node.contents));
        else if (groupMode === FLAT) push(level, mode, node.contents);
        break;
      }
      case "line":
        if (mode === FLAT && !node.hard) {
          if (!node.soft) {
            out.push(" ");
            position += 1;
          }
          break;
        }
        if (mode === FLAT) remeasure = true;
        trim();
        out.push(`\n${" ".repeat(level)}`);
        position = level;
        break;
      case "break-parent":
        break;
    }
  }
  return out.join("");
};
