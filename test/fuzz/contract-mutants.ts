// Contract mutants at the YAML level: a seed file parsed, one to three of its nodes replaced,
// renamed, removed, duplicated, nested deeper or grafted from another seed, then printed; or its
// text cut or spliced. What a careless user or an attacker could write, kept valid YAML mostly so
// that the mutants reach past the parser.
import { isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from "yaml";
import type { Random } from "./random.js";

/** Values a field, a bound, a name or a key might hold by mistake or by malice. */
const HOSTILE_SCALARS: readonly unknown[] = [
  0, -1, 1, 1.5, 3, 64, 1e9, 5e9, 2 ** 32, 2 ** 53, 1e300, -1e300, 0.1,
  "", " ", "x".repeat(300), "a".repeat(5000), "1.0\n", "a\nb", "a\u2028b", "\u0085", "\ufeff", "\u202eevil", "\u0000", "\t",
  null, true, false,
  "string", "int", "number", "bool", "timestamp", "list", "map", "object", "union", "const", "ref<artifact>", "ref<>", "ref<A B>",
  "task.result@1", "operation.error@9", "missing.contract@1", "Claim", "Claimx", "TaskStatus", "SUCCESS",
  "^(a+)+$", "^(\\w|\\d)+$", "^\\d*\\d*$", "^[a-z]+$", "(", "[", "^(?=a)a$", "\\", "%0A", "::error::", "1.0", "2.0", "99.99", "1.0.0",
  "reject", "strip", "backward", "forward", "full", "none", "pii", "secret", "internal", "command", "result",
  // Names of Object.prototype's members, as field names, enum values and keys (json-schema-to-typescript crashed on hasOwnProperty).
  "hasOwnProperty", "constructor", "__proto__", "toString", "valueOf", "isPrototypeOf", "prototype", "then",
  // Names that close a comment, a string or a template, or are not ASCII, where a name may go into generated code.
  "a*/b", 'q"uote', "q'uote", "t`ick", "${x}", "b\\s", "sp ace", "\u{1F600}", "e\u0301", "\u05D0\u05D1", "a.b", "a[]", "a/b", "~0", "-x", "0x",
];

const YAML_BREAKERS: readonly string[] = ["\n", ":", "{", "[", "-", "'", '"', "&a", "*a", "!!str", "\t", "\u2028", "#", " "];

/** `text` cut at a random place, with one of `breakers` put in, a run taken out, or a run copied in. */
export const mutateText = (random: Random, text: string, breakers: readonly string[] = YAML_BREAKERS): string => {
  const at = random.int(text.length + 1);
  switch (random.int(4)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + random.pick(breakers) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + random.int(20));
    default: {
      const from = random.int(text.length);
      return text.slice(0, at) + text.slice(from, from + random.int(200)) + text.slice(at);
    }
  }
};

const mutateKey = (random: Random, key: string): string => {
  switch (random.int(5)) {
    case 0:
      return key + random.pick(["x", "\n", "\u2028", "\u202e", "\ufeff", " ", "\u0085"]);
    case 1:
      return key.slice(0, Math.max(1, key.length - 1));
    case 2:
      return key.toUpperCase();
    case 3:
      return key.repeat(1 + random.int(100));
    default:
      return String(random.pick(HOSTILE_SCALARS));
  }
};

interface Slots {
  readonly pairs: { readonly map: YAMLMap; readonly pair: Pair }[];
  readonly items: { readonly seq: YAMLSeq; readonly index: number }[];
  readonly nodes: Node[];
}

const slotsOf = (doc: Document): Slots => {
  const slots: Slots = { pairs: [], items: [], nodes: [] };
  visit(doc, {
    Map: (_, map) => {
      for (const pair of map.items) if (isPair(pair)) slots.pairs.push({ map, pair });
      slots.nodes.push(map);
    },
    Seq: (_, seq) => {
      seq.items.forEach((_, index) => slots.items.push({ seq, index }));
      slots.nodes.push(seq);
    },
    Scalar: (_, scalar) => void slots.nodes.push(scalar),
  });
  return slots;
};

/** `type: list, of: ...` (or an object, a map) around `inner`, `depth` times. */
const nested = (inner: unknown, depth: number, kind: string): unknown => {
  let value = inner;
  for (let i = 0; i < depth; i++) value = kind === "object" ? { type: "object", fields: { a: value } } : { type: kind, of: value };
  return value;
};

const mutateDocument = (random: Random, doc: Document, donors: readonly Document[]): void => {
  const slots = slotsOf(doc);
  if (slots.pairs.length === 0) return;
  const { map, pair } = random.pick(slots.pairs);
  const donor = slotsOf(random.pick(donors)).nodes;
  switch (random.int(8)) {
    case 0:
      pair.value = doc.createNode(random.pick(HOSTILE_SCALARS));
      break;
    case 1:
      if (isScalar(pair.key)) pair.key = doc.createNode(mutateKey(random, String(pair.key.value)));
      break;
    case 2:
      map.items.splice(map.items.indexOf(pair), 1);
      break;
    case 3:
      map.items.push(doc.createPair(isScalar(pair.key) ? pair.key.value : "dup", (pair.value as Node | null)?.clone?.() ?? null));
      break;
    case 4:
      pair.value = doc.createNode(nested((pair.value as Node | null)?.toJSON?.() ?? "string", random.pick([2, 10, 63, 64, 65, 100, 300]), random.pick(["list", "map", "object"])));
      break;
    case 5:
      if (donor.length > 0) pair.value = random.pick(donor).clone();
      break;
    case 6: {
      if (slots.items.length === 0) break;
      const { seq, index } = random.pick(slots.items);
      if (random.chance(0.5)) seq.items.splice(index, 1);
      else seq.items.push((seq.items[index] as Node).clone());
      break;
    }
    default: {
      const value = isScalar(pair.value) ? pair.value.value : undefined;
      if (typeof value === "number") pair.value = doc.createNode(random.pick([value * 1e9, -value, value + 0.5, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 4294967295, 4294967296]));
      else if (typeof value === "string") pair.value = doc.createNode(mutateText(random, value));
      else if (isMap(pair.value) || isSeq(pair.value)) pair.value = doc.createNode([]);
    }
  }
};

/**
 * A seed's document, or undefined for the one yaml's own parser cannot read (a fixture nested
 * thousands deep runs it out of stack): such a seed is mutated as text only, and gives no donors.
 */
export const parseSeed = (seed: string): Document | undefined => {
  try {
    return parseDocument(seed, { uniqueKeys: false });
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
};

/** One mutant of `seed` (a contract or agent file's text). */
export const mutateContract = (random: Random, seed: string, donors: readonly Document[]): string => {
  const doc = random.chance(0.15) ? undefined : parseSeed(seed);
  if (!doc) return mutateText(random, seed);
  // Mostly one change, so that many mutants get past the checks into generate.
  for (let i = random.pick([1, 1, 1, 1, 1, 1, 2, 2, 2, 3]); i > 0; i--) mutateDocument(random, doc, donors);
  try {
    return doc.toString({ lineWidth: 0 });
  } catch {
    return mutateText(random, seed);
  }
};
