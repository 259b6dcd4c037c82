// The message that asks a producer (an LLM) to try again. It is built from issue codes, `expected`
// and the shape only, never from the payload: a path segment the shape does not name (an undeclared
// key, a map's key unless the map declares its keys names, any key under a sensitive field) prints
// as `*`, since such a key may itself be data. A key it does print (a map's declared names) is
// printed on one line: a control, line separator or bidirectional character in it is escaped.
import type { Issue } from "./issue.js";
import { printable } from "./printable.js";
import { own, objectFields, type ShapeFields, type ShapeNode, type VersionShape } from "./shape.js";

/** A position a pointer may lead to; `sensitive` once it passed a field with a sensitivity tag. */
interface Position {
  readonly node: ShapeNode;
  readonly shape: VersionShape;
  readonly sensitive: boolean;
}

/** Where a segment leads from a position, and whether the shape names it (so it may be printed). */
interface Step {
  readonly next: readonly Position[];
  readonly named: boolean;
}

const INDEX = /^(0|[1-9][0-9]*)$/;

const NOWHERE: Step = { next: [], named: false };

/** Where any of `steps` leads; a segment is named if any of them names it. */
const merge = (steps: readonly Step[]): Step => (steps.length === 1 ? steps[0]! : { next: steps.flatMap((s) => s.next), named: steps.some((s) => s.named) });

const unescapeSegment = (segment: string): string => (segment.includes("~") ? segment.replace(/~1/g, "/").replace(/~0/g, "~") : segment);

/** A step into an object position's fields; `tag` is a union's tag field, which variants do not list. */
const stepIntoFields = (at: Position, node: ShapeNode, segment: string, tag?: string): Step => {
  if (segment === tag) return { next: [{ node: { kind: "string" }, shape: at.shape, sensitive: at.sensitive }], named: true };
  const field = own(objectFields(node, at.shape) ?? {}, segment);
  return field ? { next: [{ node: field, shape: at.shape, sensitive: at.sensitive || field.sensitivity !== undefined }], named: true } : NOWHERE;
};

/** Every position `segment` may lead to: a union or another contract's versions give several. */
const step = (at: Position, segment: string): Step => {
  const { node } = at;
  switch (node.kind) {
    case "list":
      return INDEX.test(segment) ? { next: [{ ...at, node: node.of }], named: true } : NOWHERE;
    case "tuple": {
      const item = INDEX.test(segment) ? node.items[Number(segment)] : undefined;
      return item ? { next: [{ ...at, node: item }], named: true } : NOWHERE;
    }
    case "json":
      // Keys inside a json value are data, like a map's: below it nothing is named.
      return NOWHERE;
    case "map":
      // A key is data unless the contract declares the map's keys names (`keys: { sensitivity: none }`).
      return { next: [{ ...at, node: node.of }], named: !at.sensitive && node.keysVisible === true };
    case "union":
      return merge(Object.values(node.variants).map((variant) => stepIntoFields(at, variant, segment, node.tag)));
    case "oneOf":
      return merge(node.variants.map((variant) => step({ ...at, node: variant }, segment)));
    case "contract":
      return merge(Object.values(node.versions).map((shape) => stepIntoFields({ ...at, shape }, { kind: "object", fields: shape.root }, segment)));
    default:
      return stepIntoFields(at, node, segment);
  }
};

/** The pointer as it may be printed (`*` for a segment the shape does not name), and the positions it may lead to. */
const locate = (pointer: string, shape: VersionShape | undefined): { readonly printed: string; readonly masked: boolean; readonly at: readonly Position[] } => {
  let at: readonly Position[] = shape ? [{ node: { kind: "object", fields: shape.root }, shape, sensitive: false }] : [];
  if (pointer === "") return { printed: "(root)", masked: false, at };
  if (!pointer.startsWith("/")) return { printed: "*", masked: true, at: [] };
  const printed: string[] = [];
  for (const raw of pointer.slice(1).split("/")) {
    const segment = unescapeSegment(raw);
    // One position is the common case (no union or contract reference on the way): no arrays to merge.
    const { next, named } = at.length === 1 ? step(at[0]!, segment) : merge(at.map((position) => step(position, segment)));
    printed.push(named ? raw : "*");
    at = next;
  }
  return { printed: `/${printed.join("/")}`, masked: printed.includes("*"), at };
};

/** `maskPointer` by the general walk: what the fast one must print (its tests compare them). */
export const maskPointerByLocate = (pointer: string, shape: VersionShape | undefined): string => (pointer === "" ? "" : locate(pointer, shape).printed);

/**
 * `pointer` with every segment the shape does not name replaced by `*` ("" stays the root): what a
 * failure may carry, since an undeclared key or a key of a map may itself be data.
 */
export const maskPointer = (pointer: string, shape: VersionShape | undefined): string => {
  if (pointer === "") return "";
  if (shape === undefined || !pointer.startsWith("/")) return locate(pointer, shape).printed;
  // One position at a time, nothing allocated but the segments, and the result only once a segment
  // is masked: what every failure pays for each issue. A union, untagged union or another contract
  // on the way can lead to several positions: `locate`.
  let fields: ShapeFields | undefined = shape.root;
  let node: ShapeNode | undefined;
  let sensitive = false;
  let printed: string | undefined;
  for (let start = 1; start <= pointer.length; ) {
    const slash = pointer.indexOf("/", start);
    const end = slash === -1 ? pointer.length : slash;
    const raw = pointer.slice(start, end);
    const segment = start - 1;
    start = end + 1;
    let named = false;
    if (fields !== undefined) {
      const field = own(fields, unescapeSegment(raw));
      fields = undefined;
      node = field;
      if (field) {
        named = true;
        sensitive ||= field.sensitivity !== undefined;
      }
    } else if (node !== undefined) {
      switch (node.kind) {
        case "list":
          named = INDEX.test(raw);
          node = named ? node.of : undefined;
          break;
        case "tuple":
          node = INDEX.test(raw) ? node.items[Number(raw)] : undefined;
          named = node !== undefined;
          break;
        case "map":
          named = !sensitive && node.keysVisible === true;
          node = node.of;
          break;
        case "union":
        case "oneOf":
        case "contract":
          return locate(pointer, shape).printed;
        default:
          node = undefined;
      }
    }
    if (node !== undefined && fields === undefined && (node.kind === "object" || node.kind === "named")) {
      fields = objectFields(node, shape);
      if (fields === undefined) node = undefined;
    }
    if (printed !== undefined) printed += named ? `/${raw}` : "/*";
    else if (!named) printed = `${pointer.slice(0, segment)}/*`;
    if (end === pointer.length) break;
  }
  return printed ?? pointer;
};

/**
 * The path of an issue a generated validator reported into a payload of `shape`, masked as
 * `maskPointer` masks it. In a shape treaty marked `plain` those paths name declared fields and
 * list items only, but the key of an `unknown` issue (always its last segment): the path is
 * printed as it is, or with that segment masked, without walking the shape (which was a third of
 * a failing decode). Any other shape: `maskPointer`.
 */
export const maskIssuePath = (issue: Issue, shape: VersionShape): string => {
  if (shape.plain !== true) return maskPointer(issue.path, shape);
  if (issue.code !== "unknown") return issue.path;
  const slash = issue.path.lastIndexOf("/");
  return slash === -1 ? maskPointer(issue.path, shape) : `${issue.path.slice(0, slash)}/*`;
};

/** The values (with meanings) of the enums a path may lead to, each value once. */
const enumValues = (at: readonly Position[]): [string, string][] => {
  const meanings = new Map<string, string>();
  for (const { node, shape } of at) {
    if (node.kind !== "enum") continue;
    for (const [value, meaning] of Object.entries(own(shape.enums, node.name) ?? {})) if (!meanings.has(value)) meanings.set(value, meaning);
  }
  return [...meanings];
};

/** The allowed values (with meanings) where `pointer` leads to an enum of `shape`; empty elsewhere. */
export const allowedValues = (pointer: string, shape: VersionShape | undefined): [string, string][] => enumValues(locate(pointer, shape).at);

/** One issue's lines: path, code and expectation, then the allowed values where the path is an enum. */
const describe = (issue: Issue, shape: VersionShape | undefined): { readonly text: string; readonly masked: boolean } => {
  const { printed, masked, at } = locate(issue.path, shape);
  const values = enumValues(at);
  // The pointer is data; as text it is one line, whatever a key the shape lets it show holds.
  const line = `- ${printable(printed)} (${issue.code}): expected ${issue.expected}`;
  const lines = values.length === 0 ? [line] : [`${line}. Allowed values:`, ...values.map(([value, meaning]) => `  - ${value}: ${meaning}`)];
  return { text: lines.join("\n"), masked };
};

/**
 * The message that asks a producer (an LLM) to try again: each failing path, what was expected,
 * and the allowed values with their meanings where the path is an enum. It never quotes the
 * payload: paths print only segments the shape names (others as `*`), each issue's on one line
 * (`printable`: a newline in a map's declared key prints as `\n`). Same input, same text.
 */
export const reaskMessage = (contract: string, version: string, issues: readonly Issue[], shape: VersionShape | undefined): string => {
  const described = issues.map((issue) => describe(issue, shape));
  return [
    `Your output is not a valid ${contract} ${version}. Reply with the whole corrected JSON and nothing else. Fix these problems:`,
    ...new Set(described.map((d) => d.text)),
    ...(described.some((d) => d.masked) ? ["A * in a path stands for a key that is not shown."] : []),
  ].join("\n");
};
