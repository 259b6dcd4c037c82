// The record of one agent run, as the pipeline appends it to an event store, and the one check
// both stores run on it before anything is written.
import type { ErrorClass } from "../runtime/errors.js";
import { escapePointer, type Issue } from "../runtime/issue.js";
import type { JsonValue } from "../runtime/repair.js";
import { ERROR_CLASSES } from "../runtime/errors.js";
import { isRecord } from "../runtime/is-record.js";
import { MAX_NODES } from "../runtime/max-nodes.js";

/** What one gate decided: its name, pass or fail, and the issue codes it reported (empty on a pass). */
export interface GateResult {
  /** The gate's name as the pipeline calls it, e.g. `schema_in`, `approval`. */
  readonly gate: string;
  readonly outcome: "pass" | "fail";
  readonly codes: readonly string[];
}

/**
 * One agent run. Every string id (`id`, `session`, `agent`, `type`, gate names and codes) is 1 to
 * 256 printable ASCII characters without spaces, so both stores order them alike (JavaScript
 * compares UTF-16 units, SQLite compares UTF-8 bytes: they agree on ASCII only).
 */
export interface AgentEvent {
  /** Unique per event: appending the same id twice stores one event. */
  readonly id: string;
  readonly session: string;
  /** The agent's dotted name. */
  readonly agent: string;
  /** What happened, e.g. `agent.run`. */
  readonly type: string;
  /**
   * When the run started, as `Date.prototype.toISOString` prints it (`2026-01-31T09:30:00.000Z`):
   * one fixed UTC form, so text order is time order in both stores.
   */
  readonly at: string;
  /** How long the run took, in whole microseconds (integers keep percentiles exact in both stores). */
  readonly durationUs: number;
  /** The gates run, in the order they ran; a gate after the failing one is not listed. */
  readonly gates: readonly GateResult[];
  /** The confidence the output carried, 0 to 1; absent when the run stopped before it or the output has none. */
  readonly confidence?: number;
  /** `canonicalHash(input)` from treaty/runtime: lower-case hex SHA-256 of the canonical JSON input. */
  readonly inputHash: string;
  /** `ok`, or the operation.error class the run failed with. */
  readonly outcome: "ok" | ErrorClass;
  /** The operation.error code of a failed run (required then, absent on `ok`). */
  readonly code?: string;
  /**
   * The payload as it may be kept: ALREADY REDACTED by the caller (`redact` from treaty/runtime
   * with the contract's shape), because the store keeps whatever it is given. JSON only.
   */
  readonly payload?: JsonValue;
}

const IDENT = /^[\x21-\x7e]{1,256}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HASH = /^[0-9a-f]{64}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
/** Every field of an AgentEvent: any other key is refused. */
export const EVENT_FIELDS = ["id", "session", "agent", "type", "at", "durationUs", "gates", "confidence", "inputHash", "outcome", "code", "payload"] as const;
const KEYS: ReadonlySet<string> = new Set(EVENT_FIELDS);
const GATE_KEYS = new Set(["gate", "outcome", "codes"]);

/** An issue whose message states the expectation only, never the value (it may be a secret). */
export const issue = (path: string, code: string, expected: string): Issue => ({ path, code, message: `expected ${expected}`, expected });


/** `true` for 1 to 256 printable ASCII characters without spaces: ids, names and codes. */
export const isIdent = (value: unknown): value is string => typeof value === "string" && IDENT.test(value);

/** `true` for an instant in the one form the stores keep (`toISOString`'s), naming a real date. */
export const isInstant = (value: unknown): value is string => {
  if (typeof value !== "string" || !INSTANT.test(value)) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
};

export const isHash = (value: unknown): value is string => typeof value === "string" && HASH.test(value);

/** Issues for keys of `value` outside `known`, and for each `required` key it lacks. */
export const checkKeys = (value: Record<string, unknown>, path: string, known: ReadonlySet<string>, required: readonly string[], issues: Issue[]): void => {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) issues.push(issue(`${path}/${escapePointer(key)}`, "unknown", "no such key"));
    // `{ confidence: undefined }` has no JSON form: stored, it would be unreadable.
    else if (value[key] === undefined && !required.includes(key)) issues.push(issue(`${path}/${escapePointer(key)}`, "type", "a value, or no key at all"));
  }
  for (const key of required) if (value[key] === undefined) issues.push(issue(`${path}/${key}`, "required", "a value"));
};

const isPlain = (value: object): boolean => {
  if (Array.isArray(value)) return true;
  const proto: unknown = isRecord(value) ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === null;
};

/**
 * How deep arrays and objects may nest in a payload or an idempotency result. Twice what `redact`
 * keeps (1,024 levels), so a redacted value fits under whatever wraps it (the pipeline's
 * `{ input, output }`); half of where JSON.stringify, which stores and reads back every event, runs
 * out of stack on Node 20's default stack (about 4,100 levels).
 */
export const STORE_JSON_DEPTH = 2_048;

/** Stands on the walk's stack after a container's items: reached, the container is no longer an ancestor. */
const LEAVE = Symbol("leave");

/**
 * Whether `value` is JSON within STORE_JSON_DEPTH levels and MAX_NODES values, walked with a stack of its own (nesting
 * cannot exhaust the call stack). With `issues`, every fault is listed at its path (a container
 * too deep is not walked below); without, the walk stops at the first and builds no path: the
 * usual case costs no strings.
 */
const walkJson = (value: unknown, path: string, issues?: Issue[]): boolean => {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const paths: string[] = [path];
  const ancestors = new Set<object>();
  const open: object[] = [];
  let json = true;
  let visited = 0;
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    const at = issues === undefined ? path : paths.pop()!;
    if (v === LEAVE) {
      ancestors.delete(open.pop()!);
      continue;
    }
    // Shared objects count each time they are reached: a value of a few arrays may be 2^26 values as JSON.
    if (++visited > MAX_NODES) {
      issues?.push(issue(path, "size", `at most ${MAX_NODES.toLocaleString("en-US")} values (a shared object counts each time it is reached)`));
      return false;
    }
    if (v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) continue;
    let fault: Issue;
    if (typeof v === "number") fault = issue(at, "json", "a finite number");
    else if (typeof v !== "object" || !isPlain(v) || ancestors.has(v)) fault = issue(at, "json", "a JSON value");
    else if (depth >= STORE_JSON_DEPTH) fault = issue(at, "depth", `at most ${STORE_JSON_DEPTH} levels of arrays and objects`);
    else {
      ancestors.add(v);
      open.push(v);
      values.push(LEAVE);
      depths.push(depth);
      if (issues !== undefined) paths.push(at);
      // Last first, so issues come in the value's order. An index loop, not forEach: a hole
      // (`[1, , 2]`) is no JSON value and must be reported.
      if (Array.isArray(v))
        for (let i = v.length - 1; i >= 0; i--) {
          values.push(v[i]);
          depths.push(depth + 1);
          if (issues !== undefined) paths.push(`${at}/${i}`);
        }
      else {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) {
          values.push((v as Record<string, unknown>)[keys[i]!]);
          depths.push(depth + 1);
          if (issues !== undefined) paths.push(`${at}/${escapePointer(keys[i]!)}`);
        }
      }
      continue;
    }
    if (issues === undefined) return false;
    issues.push(fault);
    json = false;
  }
  return json;
};

/**
 * Issues where `value` is not JSON (only null, booleans, finite numbers, strings, arrays and plain
 * objects, no cycles) or nests arrays and objects more than STORE_JSON_DEPTH levels.
 */
export const checkJson = (value: unknown, path: string, issues: Issue[]): void => {
  if (!walkJson(value, path)) walkJson(value, path, issues);
};

const checkGates = (gates: unknown, issues: Issue[]): void => {
  if (!Array.isArray(gates)) {
    issues.push(issue("/gates", "type", "a list of gate results"));
    return;
  }
  gates.forEach((gate: unknown, i) => {
    const path = `/gates/${i}`;
    if (!isRecord(gate)) return void issues.push(issue(path, "type", "a gate result object"));
    checkKeys(gate, path, GATE_KEYS, ["gate", "outcome", "codes"], issues);
    if (gate["gate"] !== undefined && !isIdent(gate["gate"])) issues.push(issue(`${path}/gate`, "pattern", "a gate name"));
    if (gate["outcome"] !== undefined && gate["outcome"] !== "pass" && gate["outcome"] !== "fail") issues.push(issue(`${path}/outcome`, "enum", "one of pass, fail"));
    const codes = gate["codes"];
    if (codes !== undefined && !(Array.isArray(codes) && codes.every(isIdent))) issues.push(issue(`${path}/codes`, "type", "a list of issue codes"));
  });
};

/** Every way `value` is not an `AgentEvent`; empty when it is one. Both stores refuse an event with issues. */
export const checkEvent = (value: unknown): Issue[] => {
  const issues: Issue[] = [];
  if (!isRecord(value)) return [issue("", "type", "an event object")];
  checkKeys(value, "", KEYS, ["id", "session", "agent", "type", "at", "durationUs", "gates", "inputHash", "outcome"], issues);
  for (const key of ["id", "session", "agent", "type"]) if (value[key] !== undefined && !isIdent(value[key])) issues.push(issue(`/${key}`, "pattern", "1 to 256 printable ASCII characters"));
  if (value["at"] !== undefined && !isInstant(value["at"])) issues.push(issue("/at", "format", "an instant as toISOString prints it"));
  const duration = value["durationUs"];
  if (duration !== undefined && !(Number.isSafeInteger(duration) && (duration as number) >= 0)) issues.push(issue("/durationUs", "min", "a whole number of microseconds, 0 or more"));
  if (value["gates"] !== undefined) checkGates(value["gates"], issues);
  const confidence = value["confidence"];
  if (confidence !== undefined && !(typeof confidence === "number" && confidence >= 0 && confidence <= 1)) issues.push(issue("/confidence", "max", "a number from 0 to 1"));
  if (value["inputHash"] !== undefined && !isHash(value["inputHash"])) issues.push(issue("/inputHash", "pattern", "64 lower-case hex digits"));
  const outcome = value["outcome"];
  if (outcome !== undefined && outcome !== "ok" && !(typeof outcome === "string" && Object.hasOwn(ERROR_CLASSES, outcome))) issues.push(issue("/outcome", "enum", "ok or an operation.error class"));
  const code = value["code"];
  if (code !== undefined && !(typeof code === "string" && CODE.test(code))) issues.push(issue("/code", "pattern", "an UPPER_SNAKE_CASE code"));
  if (outcome === "ok" && code !== undefined) issues.push(issue("/code", "unknown", "no code on an ok run"));
  if (outcome !== undefined && outcome !== "ok" && code === undefined) issues.push(issue("/code", "required", "the code of a failed run"));
  if (value["payload"] !== undefined) checkJson(value["payload"], "/payload", issues);
  return issues;
};
