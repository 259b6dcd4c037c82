// What `decode` validates and hands over is one copy of the input, read once: a JS value may be a
// Proxy or carry getters that answer differently on each read, and the first read is the one the
// validator checked. JSON text needs none (JSON.parse builds fresh plain data).
import { MAX_NODES } from "./max-nodes.js";

/** A container still to copy: `source` into `copy`, made already so keys keep their order. */
type Pending = { readonly source: object; readonly copy: unknown[] | Record<string, unknown> } | { readonly leave: object };

/**
 * A plain copy of `value` as JSON sees it: arrays item by item, objects by their own enumerable
 * string keys (inherited fields are not the value's, as Ajv's `ownProperties` has it), each
 * property read exactly once; anything else as it is, for the validator to judge. Throws what a
 * getter or Proxy trap throws, and RangeError on a cyclic value or one of more than MAX_NODES
 * values (shared objects counted each time they are reached: the copy holds them each time). A
 * loop, not recursion: a payload nested 100,000 deep is copied for the validator to reject, not a
 * stack overflow.
 */
export const snapshot = (value: unknown): unknown => {
  if (typeof value !== "object" || value === null) return value;
  // The count is the module's (no allocation per copy), kept across a copy a getter starts inside this one.
  const outer = copied;
  try {
    copied = 1;
    try {
      return copyShallowNested(value, 0);
    } catch (error) {
      if (error !== TOO_DEEP) throw error;
    }
    // Nested deeper than the recursive copy goes, or cyclic: the loop below copies it again, and
    // alone decides (its copy is the one returned, so it is still one reading that is handed over).
    copied = 1;
    return copyIteratively(value);
  } finally {
    // Counted into the `read` in progress too (refused ones as well: past MAX_NODES, that read stops).
    taken += copied;
    copied = outer;
  }
};

/**
 * Values the generated `read` in progress has copied: the items of its lists and the snapshots it
 * takes (`takeChecked`). A value that shares objects (`a = [a0, a0]` nested 30 times) is copied
 * each time it is reached, so without this bound `read` built a copy as large as the value's JSON
 * (2^30 items, an out-of-memory abort), where `snapshot` refuses it past MAX_NODES.
 */
let taken = 0;

/** Starts the count of the generated `read` about to run (its first statement). */
export const startReading = (): void => {
  taken = 0;
};

/** Counts `n` more values into the copy `read` makes; past MAX_NODES the read is refused (the generated `read` catches the RangeError). */
export const countTaken = (n: number): void => {
  if ((taken += n) > MAX_NODES) throw new RangeError(`read: more than ${MAX_NODES} values`);
};

/**
 * Whether the last generated `read` stopped because its copy passed MAX_NODES values: it refused
 * the value without judging it, and judging it where it stands (`errors` on a value sharing
 * objects) could take as long as its JSON is large, so decode copies it instead (`snapshot`,
 * which refuses it as UNPARSEABLE past the same bound).
 */
export const readPastMaxNodes = (): boolean => taken > MAX_NODES;

/** Values the copy in progress has taken so far. */
let copied = 0;

/** Counts `n` more values into the copy in progress; past MAX_NODES the copy is refused. */
const count = (n: number): void => {
  if ((copied += n) > MAX_NODES) throw new RangeError(`snapshot: more than ${MAX_NODES} values`);
};

/** Levels the recursive copy goes down before leaving the value to the loop (a cycle ends up there too). */
const RECURSIVE_LEVELS = 64;
const TOO_DEEP: unique symbol = Symbol("too deep");

/** The common case, about four times faster than the loop: a value nested less than RECURSIVE_LEVELS deep. */
const copyShallowNested = (value: object, depth: number): unknown => {
  if (depth >= RECURSIVE_LEVELS) throw TOO_DEEP;
  if (Array.isArray(value)) {
    const n = value.length;
    count(n);
    const list: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const item: unknown = value[i];
      list.push(typeof item === "object" && item !== null ? copyShallowNested(item, depth + 1) : item);
    }
    return list;
  }
  const record = value as Record<string, unknown>;
  const target: Record<string, unknown> = {};
  const keys = Object.keys(record);
  count(keys.length);
  for (const key of keys) {
    const item = record[key];
    putKey(target, key, typeof item === "object" && item !== null ? copyShallowNested(item, depth + 1) : item);
  }
  return target;
};

const copyIteratively = (value: object): unknown => {
  const root = Array.isArray(value) ? [] : {};
  const pending: Pending[] = [{ source: value, copy: root }];
  const ancestors = new Set<object>();
  const containerFor = (item: unknown): unknown[] | Record<string, unknown> | undefined =>
    typeof item !== "object" || item === null ? undefined : Array.isArray(item) ? [] : {};
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ("leave" in next) {
      ancestors.delete(next.leave);
      continue;
    }
    const { source, copy } = next;
    if (ancestors.has(source)) throw new RangeError("a cyclic value has no JSON form");
    ancestors.add(source);
    pending.push({ leave: source });
    const children: Pending[] = [];
    if (Array.isArray(source)) {
      const n = source.length;
      count(n);
      const list = copy as unknown[];
      for (let i = 0; i < n; i++) {
        const item: unknown = source[i];
        const container = containerFor(item);
        list[i] = container ?? item;
        if (container) children.push({ source: item as object, copy: container });
      }
    } else {
      const record = source as Record<string, unknown>;
      const target = copy as Record<string, unknown>;
      const keys = Object.keys(record);
      count(keys.length);
      for (const key of keys) {
        const item = record[key];
        const container = containerFor(item);
        // `__proto__` stays a data property, as JSON.parse makes it, never the copy's prototype.
        putKey(target, key, container ?? item);
        if (container) children.push({ source: item as object, copy: container });
      }
    }
    // Children are copied in order: the first comes off the stack first.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return root;
};

/** What `readValue` returns for a value that threw while it was read. */
export const UNREADABLE: unique symbol = Symbol("unreadable");

/** The snapshot of `value`, or UNREADABLE when reading it threw (a getter, a Proxy trap, a cycle, too many values). */
export const readValue = (value: unknown): unknown => {
  try {
    return snapshot(value);
  } catch {
    return UNREADABLE;
  }
};

/** The issue of an UNREADABLE value: a `parse` issue at the root, as for text that is not JSON. */
export const UNREADABLE_ISSUE = Object.freeze({
  path: "",
  code: "parse",
  message: "unreadable value: a getter or Proxy threw, or the value is cyclic",
  expected: "a JSON value",
});

/**
 * Whether Object.prototype holds an enumerable key (left by a prototype-pollution bug elsewhere in
 * the process): a plain object then inherits fields a payload never had. Each generated `check`,
 * `read` and `errors` asks once (`checkPolluted`), and its validators then read every object as
 * its own view.
 */
export let polluted = false;

/** Sets `polluted` for the call about to read a payload: a `for in` over Object.prototype, a few nanoseconds. */
export const checkPolluted = (): void => {
  for (const _ in Object.prototype) {
    polluted = true;
    return;
  }
  polluted = false;
};

/**
 * `value` (an object) as generated validators read it: itself when it is a plain object (its
 * prototype Object.prototype or null, so a field read is an own one, the members of Object.prototype
 * aside, which the validator reads with Object.hasOwn); otherwise, or when Object.prototype is
 * `polluted`, a copy of its own enumerable properties without a prototype, so a field it only
 * inherits counts as absent, as in Ajv with `ownProperties`.
 */
export const ownView = (value: object): object => {
  const proto = Object.getPrototypeOf(value);
  if (proto === null || (proto === Object.prototype && !polluted)) return value;
  const own = Object.create(null) as Record<string, unknown>;
  // On an object without a prototype, `__proto__` is an own key like any other.
  for (const [key, item] of Object.entries(value)) own[key] = item;
  return own;
};

/**
 * For a generated `read`: the snapshot of `value` when `check` accepts it, else undefined. Where a
 * validator has no reader of its own for a type (a map, a tuple, a union, a `json` value), the
 * value is copied first and the copy checked, so what passed is what is returned. Throws what
 * `snapshot` throws, and past MAX_NODES values copied by the `read` in progress (`countTaken`); the
 * generated `read` catches both.
 */
export const takeChecked = (value: unknown, check: (copy: unknown) => boolean): unknown => {
  const copy = snapshot(value);
  countTaken(0);
  return check(copy) ? copy : undefined;
};

/**
 * The copy `read` keeps of an unknown key's value in a `strip` object, for decode to drop and
 * report (`stripped`): a value that cannot be copied (a cycle, a throwing getter, past MAX_NODES)
 * is kept as null, since it is dropped all the same, rather than failing a payload `check` passes.
 */
export const strippedCopy = (value: unknown): unknown => {
  // Past MAX_NODES copied by the `read` in progress, the rest is dropped uncopied: keys without
  // number may each hold a large value (or the same one, shared), and none of it is handed over.
  if (taken > MAX_NODES) return null;
  try {
    return snapshot(value);
  } catch {
    return null;
  }
};

/**
 * `strippedCopy` of `owner[key]`, read inside the guard: a getter on the undeclared key itself
 * that throws is dropped like a value that cannot be copied, as `check`, which never reads it,
 * passes the payload.
 */
export const strippedEntry = (owner: Record<string, unknown>, key: string): unknown => {
  let value: unknown;
  try {
    value = owner[key];
  } catch {
    return null;
  }
  return strippedCopy(value);
};

/** Sets `key` of the fresh object `target` as a data property: `__proto__` too, as JSON.parse makes it. */
export const putKey = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
};
