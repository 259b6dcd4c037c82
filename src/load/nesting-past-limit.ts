// How deep a file's collections may nest, checked on yaml's syntax tree before its recursive
// composer reads it: out of stack there, the error was JavaScript's, wherever the stack ran out
// (and for JSON, in init, V8 aborted the process, exit 134).
import type { CST } from "yaml";

type Collection = CST.BlockMap | CST.BlockSequence | CST.FlowCollection;

/**
 * How deep the brackets and block collections of any file treaty reads (a contract, an agent, the
 * config, package.json, a schema to import or compare; an example's value included) may nest: twice
 * what a contract needs (64 levels of types, two YAML levels each, under a few of the contract's
 * own), and a third of where yaml's composer ran out of stack in `treaty check` on Node 20's default
 * stack (about 780 levels of flow collections, 900 of block ones; 512 needed 700 KB of its 984).
 */
export const MAX_NESTING = 256;

/**
 * The offset of the first collection (block or flow) nested past `MAX_NESTING` in a syntax tree,
 * or undefined. yaml's parser builds the tree without recursion; this walks it with a stack of its
 * own, once, in the text's order, so it costs what the tree's size does.
 */
export const nestingPastLimit = (tree: CST.Token): number | undefined => {
  // Collections only, each with its depth (1 outermost) in a parallel stack: a scalar nests nothing.
  const open: Collection[] = [];
  const depths: number[] = [];
  const enter = (token: CST.Token | null | undefined, depth: number): void => {
    if (token && (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection")) {
      open.push(token);
      depths.push(depth);
    }
  };
  enter(tree.type === "document" ? tree.value : tree, 1);
  for (let token = open.pop(); token; token = open.pop()) {
    const depth = depths.pop()!;
    if (depth > MAX_NESTING) return token.offset;
    // Last first, so the text's first collection past the limit is the one found.
    for (let i = token.items.length - 1; i >= 0; i--) {
      const item: CST.CollectionItem = token.items[i]!;
      enter(item.value, depth + 1);
      enter(item.key, depth + 1);
    }
  }
  return undefined;
};

/**
 * How deep a text's block collections may look, counted from its indentation and `- ` markers
 * alone, before yaml's parser may read it: that parser closes the collections a line leaves by
 * recursion, and ran out of stack closing about 1,300 levels of lists of mappings at once (2,400
 * of `- `, 1,800 of mappings) on Node 20, fewer in a caller that used more of the stack, more once
 * its code was optimised. Past this many, the text is past `MAX_NESTING` by this estimate, not by
 * whether the stack held out, so the same text always says the same.
 */
export const MAX_BLOCK_ESTIMATE = 2 * MAX_NESTING;

/** A column that opens a block collection: a mapping's keys, a list's `- `, or a mapping whose value is a list at its own column. */
interface Column {
  readonly col: number;
  /** How many collections open at this column: a mapping and the list that is one of its values, at most. */
  depth: number;
  readonly map: boolean;
}

/** Whether a line's content (past its indentation and `- `) is a mapping's key: `? `, or a plain or quoted key and a `:` followed by a space or the line's end. By `indexOf`, in time linear in the line. */
const isKey = (content: string): boolean => {
  const first = content[0];
  if (first === undefined || "#[]{},|>".includes(first)) return false;
  if (first === "?") return content.length === 1 || content[1] === " " || content[1] === "\t";
  let from = 0;
  if (first === '"' || first === "'") {
    // The closing quote (a doubled `''` or an escaped `\"` is not one); a key quoted past its line is not counted.
    for (from = 1; from < content.length; from++) {
      if (first === '"' && content[from] === "\\") from++;
      else if (content[from] === first && !(first === "'" && content[from + 1] === "'")) break;
      else if (first === "'" && content[from] === "'") from++;
    }
  }
  for (let colon = content.indexOf(":", from); colon !== -1; colon = content.indexOf(":", colon + 1)) {
    const after = content[colon + 1];
    if (after === undefined || after === " " || after === "\t") return !content.slice(from, colon).includes(" #");
  }
  return false;
};
/** A line ending in a block scalar's header (`|`, `>-`, ...), after a key or a `- `. */
const BLOCK_SCALAR = /(?:^|[ \t:])[|>][1-9+-]{0,2}[ \t]*(?:#.*)?$/;

/**
 * An estimate of the block nesting of a YAML text, in one pass over its lines: the deepest it
 * goes, and the offset where it first goes past `MAX_NESTING` (the `- ` or key that opens the
 * collection one level too deep), or undefined. Flow collections are not counted (yaml's parser
 * reads them without recursion; `nestingPastLimit` counts them on the tree), nor the lines of a
 * block scalar.
 */
export const blockNesting = (text: string): { depth: number; past: number | undefined } => {
  const columns: Column[] = [];
  let depth = 0;
  let deepest = 0;
  let past: number | undefined;
  let scalarAbove = -1;
  const open = (col: number, map: boolean, at: number): void => {
    const top = columns.at(-1);
    if (top && top.col === col) {
      // A list at a mapping's column is that mapping's value; a key at a list's column ends nothing here.
      if (!map && top.map && top.depth === 1) (top.depth = 2), depth++;
      else if (map && top.map && top.depth === 2) (top.depth = 1), depth--;
      else return;
    } else {
      columns.push({ col, depth: 1, map });
      depth++;
    }
    if (depth > deepest) deepest = depth;
    if (depth > MAX_NESTING && past === undefined) past = at;
  };
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const next = end + 1;
    let at = start;
    while (at < end && text[at] === " ") at++;
    const indent = at - start;
    const blank = at === end || text[at] === "#" || text[at] === "\r";
    if (blank || (scalarAbove >= 0 && indent > scalarAbove)) {
      start = next;
      continue;
    }
    scalarAbove = -1;
    if (indent === 0 && (text.startsWith("---", at) || text.startsWith("...", at))) {
      columns.length = depth = 0;
      start = next;
      continue;
    }
    while (columns.length > 0 && columns.at(-1)!.col > indent) depth -= columns.pop()!.depth;
    let col = indent;
    let marker = indent;
    while (at < end && text[at] === "-" && (at + 1 === end || text[at + 1] === " ")) {
      open(col, false, at);
      marker = col;
      at += 1;
      while (at < end && text[at] === " ") at++;
      col = at - start;
    }
    const content = text.slice(at, text[end - 1] === "\r" ? end - 1 : end);
    const key = isKey(content);
    if (key) open(col, true, at);
    // A block scalar's lines are those indented past the node that holds it: the key, or the `- `.
    // Most lines hold neither header character: the expression only where one is.
    if ((content.includes("|") || content.includes(">")) && BLOCK_SCALAR.test(content)) scalarAbove = key ? col : marker;
    start = next;
  }
  return { depth: deepest, past };
};
