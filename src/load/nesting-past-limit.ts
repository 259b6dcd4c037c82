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
