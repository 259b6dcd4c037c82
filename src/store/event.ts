// The record of one agent run, as the pipeline appends it to an event store, and the one check
// both stores run on it before anything is written.
import type { ErrorClass } from "../runtime/errors.js";
import { escapePointer, type Issue } from "../runtime/issue.js";
import type { JsonValue } from "../runtime/repair.js";
import { ERROR_CLASSES } from "../runtime/errors.js";
import { isRecord } from "../runtime/is-record.js";

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

/** Whether `value` is JSON, as `checkJson` decides it, building no path: the usual case costs no strings. */
const isJson = (value: unknown, ancestors: Set<object>): boolean => {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || !isPlain(value) || ancestors.has(value)) return false;
  ancestors.add(value);
  let json = true;
  if (Array.isArray(value)) for (let i = 0; json && i < value.length; i++) json = isJson(value[i], ancestors);
  else for (const key of Object.keys(value)) if (!(json = isJson((value as Record<string, unknown>)[key], ancestors))) break;
  ancestors.delete(value);
  return json;
};

/** Issues where `value` is not JSON: only null, booleans, finite numbers, strings, arrays and plain objects, no cycles. */
export const checkJson = (value: unknown, path: string, issues: Issue[]): void => {
  if (!isJson(value, new Set())) jsonIssues(value, path, issues, new Set());
};

const jsonIssues = (value: unknown, path: string, issues: Issue[], ancestors: Set<object>): void => {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) issues.push(issue(path, "json", "a finite number"));
    return;
  }
  if (typeof value !== "object" || !isPlain(value) || ancestors.has(value)) {
    issues.push(issue(path, "json", "a JSON value"));
    return;
  }
  ancestors.add(value);
  // An index loop, not forEach: a hole (`[1, , 2]`) is no JSON value and must be reported.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) jsonIssues(value[i], `${path}/${i}`, issues, ancestors);
  else for (const key of Object.keys(value)) jsonIssues((value as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`, issues, ancestors);
  ancestors.delete(value);
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
