// The one failure type of the registry and the runtime: a `Failure` carries its kind, stage,
// issues and known versions as data, and `error`, the same facts as an operation.error 1.0 payload
// (idl/errors/operation.error.yaml) for the wire, whose `details` are flat strings by contract.
// One table says which class and code each way a decode or encode can fail has; `retryable`
// follows the class. Messages and details name the contract, stages, paths and codes, never a
// value of the payload.
import type { Issue } from "./issue.js";
import { printable } from "./printable.js";
import { maskIssuePath, maskPointer } from "./reask.js";
import type { VersionShape } from "./shape.js";

/** The closed set of failure classes of operation.error; callers decide on these, never on message text. */
export type ErrorClass =
  | "TRANSIENT"
  | "RATE_LIMITED"
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PERMISSION_DENIED"
  | "POLICY_DENIED"
  | "UNSUPPORTED_VERSION";

/** Whether the same request may be retried unchanged, per class: only TRANSIENT and RATE_LIMITED (after backoff). */
export const ERROR_CLASSES: { readonly [C in ErrorClass]: { readonly retryable: boolean } } = {
  TRANSIENT: { retryable: true },
  RATE_LIMITED: { retryable: true },
  INVALID_INPUT: { retryable: false },
  NOT_FOUND: { retryable: false },
  CONFLICT: { retryable: false },
  PERMISSION_DENIED: { retryable: false },
  POLICY_DENIED: { retryable: false },
  UNSUPPORTED_VERSION: { retryable: false },
};

/** An operation.error 1.0 payload: the runtime's error type, kept equal to the generated `OperationErrorV1_0` by a test. */
export interface OperationError {
  contract: "operation.error";
  version: "1.0";
  /** `ERR-` and a unique id of this occurrence. */
  error_id: string;
  /** UPPER_SNAKE_CASE refinement of `class`, from `FAILURES`. */
  code: string;
  class: ErrorClass;
  retryable: boolean;
  /** Names the contract and what failed; never payload data. */
  message_safe: string;
  /** Flat strings of at most 500 characters: the stage, failing paths, issue codes, known versions. */
  details?: { [k: string]: string | undefined };
  /** The dotted name of the component that decoded, `treaty.runtime` unless the host names itself. */
  source: string;
  /** The host's trace id as `TRACE-…` (see `wireTraceId`), when the decode was traced. */
  trace_id?: string;
}

/** The stages of a decode, in their fixed order. */
export const STAGES = ["parse", "envelope", "schema", "semantic", "state", "policy", "canonical"] as const;
export type Stage = (typeof STAGES)[number];

type FailureTable = { readonly [kind: string]: { readonly stage: Stage; readonly class: ErrorClass; readonly code: string; readonly message: (contract: string) => string } };

/** Every way a decode or encode fails: the stage it fails in, its class, its code and a safe message about `contract`. */
export const DECODE_FAILURES = {
  "trace-id": { stage: "envelope", class: "INVALID_INPUT", code: "TRACE_ID_INVALID", message: (c: string) => `The trace id given with this ${c} is not a TRACE-, W3C or UUID id.` },
  unparseable: { stage: "parse", class: "INVALID_INPUT", code: "UNPARSEABLE", message: (c: string) => `The ${c} output is not readable JSON.` },
  envelope: { stage: "envelope", class: "INVALID_INPUT", code: "ENVELOPE_INVALID", message: (c: string) => `The ${c} payload does not name its contract and version.` },
  "wrong-contract": { stage: "envelope", class: "INVALID_INPUT", code: "WRONG_CONTRACT", message: (c: string) => `The payload is not a ${c}.` },
  "unknown-contract": { stage: "envelope", class: "UNSUPPORTED_VERSION", code: "UNKNOWN_CONTRACT", message: (c: string) => `This build does not know the contract ${c}.` },
  "unsupported-version": { stage: "envelope", class: "UNSUPPORTED_VERSION", code: "UNSUPPORTED_VERSION", message: (c: string) => `This ${c} version is not supported.` },
  "unknown-provider": { stage: "envelope", class: "UNSUPPORTED_VERSION", code: "UNKNOWN_PROVIDER", message: (c: string) => `The ${c} contract is not projected to the provider this reply is read from.` },
  "not-accepted": { stage: "envelope", class: "UNSUPPORTED_VERSION", code: "VERSION_NOT_ACCEPTED", message: (c: string) => `The host does not accept this ${c} version.` },
  schema: { stage: "schema", class: "INVALID_INPUT", code: "SCHEMA_INVALID", message: (c: string) => `The ${c} payload does not match its schema.` },
  semantic: { stage: "semantic", class: "INVALID_INPUT", code: "RULE_VIOLATED", message: (c: string) => `The ${c} payload breaks a semantic rule.` },
  stale: { stage: "state", class: "CONFLICT", code: "STALE_STATE", message: (c: string) => `The state the ${c} expects has changed; reload it.` },
  "not-found": { stage: "state", class: "NOT_FOUND", code: "STATE_NOT_FOUND", message: (c: string) => `The state the ${c} addresses does not exist.` },
  "state-failed": { stage: "state", class: "TRANSIENT", code: "STATE_CHECK_FAILED", message: (c: string) => `The state check of the ${c} failed.` },
  policy: { stage: "policy", class: "POLICY_DENIED", code: "POLICY_DENIED", message: (c: string) => `Policy does not allow this ${c}.` },
  permission: { stage: "policy", class: "PERMISSION_DENIED", code: "PERMISSION_DENIED", message: (c: string) => `The caller lacks a scope this ${c} needs.` },
  "policy-failed": { stage: "policy", class: "TRANSIENT", code: "POLICY_CHECK_FAILED", message: (c: string) => `The policy check of the ${c} failed.` },
  "adapter-not-implemented": { stage: "canonical", class: "UNSUPPORTED_VERSION", code: "ADAPTER_NOT_IMPLEMENTED", message: (c: string) => `No adapter reads this ${c} version yet.` },
  "not-representable": { stage: "canonical", class: "INVALID_INPUT", code: "NOT_REPRESENTABLE", message: (c: string) => `The ${c} value does not fit the version it is adapted to.` },
} as const satisfies FailureTable;

/** Every way an agent call fails at one of the pipeline's gates (agent-pipeline.ts); `c` is the payload's contract, `details` name the agent and the gate. */
export const GATE_FAILURES = {
  "intent-missing": { stage: "policy", class: "INVALID_INPUT", code: "INTENT_MISSING", message: (c: string) => `The session holds no valid intent for this ${c}.` },
  "intent-not-served": { stage: "policy", class: "POLICY_DENIED", code: "INTENT_NOT_SERVED", message: (c: string) => `The agent taking this ${c} does not serve the session's intent type.` },
  "intent-drift": { stage: "policy", class: "POLICY_DENIED", code: "INTENT_DRIFT", message: (c: string) => `The ${c} departs from the session's locked intent.` },
  inconsistent: { stage: "state", class: "INVALID_INPUT", code: "CONSISTENCY_VIOLATED", message: (c: string) => `The ${c} refers to a value no earlier agent of this session provided.` },
  "approval-missing": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_MISSING", message: (c: string) => `This ${c} needs an approval for its input.` },
  "approval-forged": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_FORGED", message: (c: string) => `The approval given with this ${c} is malformed or not signed by this host.` },
  "approval-expired": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_EXPIRED", message: (c: string) => `The approval given with this ${c} has expired.` },
  "approval-other-session": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_WRONG_SESSION", message: (c: string) => `The approval given with this ${c} belongs to another session.` },
  "approval-other-agent": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_WRONG_AGENT", message: (c: string) => `The approval given with this ${c} is for another agent.` },
  "approval-other-input": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_WRONG_INPUT", message: (c: string) => `The approval given with this ${c} is for another input.` },
  "approval-replayed": { stage: "policy", class: "PERMISSION_DENIED", code: "APPROVAL_REPLAYED", message: (c: string) => `The approval given with this ${c} was already used.` },
  "idempotency-conflict": { stage: "state", class: "CONFLICT", code: "IDEMPOTENCY_CONFLICT", message: (c: string) => `A ${c} with this idempotency key already ran with another input.` },
  "idempotency-in-progress": { stage: "state", class: "TRANSIENT", code: "IDEMPOTENCY_IN_PROGRESS", message: (c: string) => `A ${c} with this idempotency key is running elsewhere; retry to get its result.` },
  "rule-failed": { stage: "semantic", class: "TRANSIENT", code: "RULE_FAILED", message: (c: string) => `A custom rule checking this ${c} threw; the call did not run.` },
  "execute-failed": { stage: "state", class: "TRANSIENT", code: "EXECUTE_FAILED", message: (c: string) => `The agent taking this ${c} threw while it ran; whether it took effect is unknown.` },
  "output-invalid": { stage: "schema", class: "INVALID_INPUT", code: "OUTPUT_INVALID", message: (c: string) => `The ${c} an agent returned does not match its schema.` },
  "confidence-low": { stage: "policy", class: "POLICY_DENIED", code: "CONFIDENCE_TOO_LOW", message: (c: string) => `The ${c} is not confident enough; the result is withheld.` },
} as const satisfies FailureTable;

/** One table for both, so a failure's kind says its class and code wherever it arose. */
export const FAILURES = { ...DECODE_FAILURES, ...GATE_FAILURES } as const;
export type FailureKind = keyof typeof FAILURES;

/** The longest string operation.error allows in `message_safe` and in each `details` value. */
export const MAX_TEXT = 500;

const clip = (text: string): string => (text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`);

/** What a failing stage knows beyond its kind; every value here is the host's or the registry's, never the payload's. */
export interface FailureFacts {
  readonly contract: string;
  /** The known version the payload is read as (decode) or written as (encode). */
  readonly version?: string | undefined;
  /** Issues as the validator reports them; paths are masked by `shape` before they go anywhere. */
  readonly issues?: readonly Issue[] | undefined;
  /** The shape the issues' paths point into: segments it does not name print as `*`. */
  readonly shape?: VersionShape | undefined;
  /**
   * The issues are the version's own validator's (its `errors()`), whose paths name declared fields
   * (`maskIssuePath` relies on it); issues from elsewhere (an agent's rules, a hook) are masked by
   * walking the shape.
   */
  readonly validated?: boolean | undefined;
  /** Versions (or contracts, or providers) the host accepts or the build knows, for UNSUPPORTED_VERSION. */
  readonly known?: readonly string[] | undefined;
  readonly attempt?: number | undefined;
}

/** A failed decode or encode, from the registry or the runtime: decide on `error.class` and `error.code` (or `kind`), never on a message. */
export interface Failure {
  readonly ok: false;
  /** The key of `FAILURES`: the code, class and stage in one. */
  readonly kind: FailureKind;
  readonly stage: Stage;
  /** The same failure as an operation.error 1.0 payload, to send or log as it is. */
  readonly error: OperationError;
  readonly contract: string;
  /** The known version the payload was read as (decode) or written as (encode), when it got that far. */
  readonly version?: string;
  /** Every problem found, with JSON pointers into the payload (segments no shape names as `*`). */
  readonly issues: readonly Issue[];
  /** UNSUPPORTED_VERSION: the versions the reader reads (the contracts, for an unknown contract; the providers, for an unknown provider). */
  readonly known?: readonly string[];
}

/** How a registry or runtime stamps its errors. */
export interface ErrorStamp {
  readonly source: string;
  readonly errorId: () => string;
  /** The trace id as operation.error carries it. */
  readonly traceId?: string;
}

const SOURCE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** The host global the ids use (Node 20, browsers, Deno and Bun have it), typed without DOM or Node types. */
const host = globalThis as unknown as { readonly crypto: { randomUUID(): string } };

/** A random id `<prefix>-<uuid>`: error, event, session and approval ids. */
export const randomId = (prefix: string): string => `${prefix}-${host.crypto.randomUUID()}`;

/**
 * Unique error ids drawn once: `ERR-`, a random UUID per registry or runtime, and a counter (base
 * 36, at least two digits), at most 52 characters. A random draw for every failure cost more than
 * the rest of a failing decode; an id only tells occurrences apart, so one draw and a count do the same.
 */
const countedIds = (): (() => string) => {
  const base = `${randomId("ERR")}-`;
  // The count's last digit from a table, the digits before it converted once every 36 ids:
  // converting the whole count (a call into the engine) was most of the id's cost.
  let high = 0;
  let low = 0;
  let prefix = `${base}0`;
  return () => {
    if (low === 36) {
      low = 0;
      prefix = base + (++high).toString(36);
    }
    return prefix + BASE36[low++]!;
  };
};
const BASE36 = Array.from({ length: 36 }, (_, digit) => digit.toString(36));

/** The stamp of a registry's or runtime's errors: `source` checked against operation.error's pattern, `error_id` unique unless given. */
export const createStamp = (who: string, source: string, errorId: (() => string) | undefined): ErrorStamp => {
  if (!SOURCE.test(source) || source.length > 128) throw new TypeError(`${who}: source must be a dotted lower-case name of at most 128 characters`);
  return { source, errorId: errorId ?? countedIds() };
};

/**
 * The failure of `kind`: its facts as data, and as the operation.error payload. `repairs`, given by
 * the runtime, is one more property of the failure (a `RuntimeFailure`), made with it rather than
 * added after, which would give the object a second store for its properties.
 */
export function createFailure(kind: FailureKind, facts: FailureFacts, stamp: ErrorStamp): Failure;
export function createFailure<R>(kind: FailureKind, facts: FailureFacts, stamp: ErrorStamp, repairs: R): Failure & { readonly repairs: R };
export function createFailure(kind: FailureKind, facts: FailureFacts, stamp: ErrorStamp, repairs?: unknown): Failure {
  const shape = facts.shape;
  const found = facts.issues ?? NO_ISSUES;
  const issues = shape === undefined ? found : maskIssues(found, shape, facts.validated === true);
  // Assigned one by one, in the order a failure prints, rather than spread: building the failure is
  // most of a failing decode.
  const about = FAILURES[kind];
  const stage = about.stage;
  const error = operationError(about, facts, issues, stamp);
  const { contract, version } = facts;
  // One literal for the common failures (a version, nothing known): no property added to it after.
  let failure: { -readonly [K in keyof Failure]: Failure[K] } & { repairs?: unknown };
  if (repairs === undefined) failure = version !== undefined ? { ok: false, kind, stage, error, contract, version, issues } : { ok: false, kind, stage, error, contract, issues };
  else failure = version !== undefined ? { ok: false, kind, stage, error, contract, version, issues, repairs } : { ok: false, kind, stage, error, contract, issues, repairs };
  if (facts.known) failure.known = facts.known;
  return failure;
}

/** `issues` with their paths masked by `shape`: the same list when nothing in it is masked (most failures, so none copies it). */
const maskIssues = (issues: readonly Issue[], shape: VersionShape, validated: boolean): readonly Issue[] => {
  let masked: Issue[] | undefined;
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i]!;
    const kept = maskIssue(issue, shape, validated);
    if (masked === undefined && kept !== issue) masked = issues.slice(0, i);
    masked?.push(kept);
  }
  return masked ?? issues;
};

/** `issue` with its path masked by `shape`: the same issue when nothing in its path is masked. */
const maskIssue = (issue: Issue, shape: VersionShape, validated: boolean): Issue => {
  const path = validated ? maskIssuePath(issue, shape) : maskPointer(issue.path, shape);
  return path === issue.path ? issue : { path, code: issue.code, message: issue.message, expected: issue.expected };
};

const NO_ISSUES: readonly Issue[] = Object.freeze([]);

/** The operation.error payload for a failure of `FAILURES`' kind `failure`, its paths those of `issues` (already masked). */
const operationError = (failure: (typeof FAILURES)[FailureKind], facts: FailureFacts, issues: readonly Issue[], stamp: ErrorStamp): OperationError => {
  const error: OperationError = {
    contract: "operation.error",
    version: "1.0",
    error_id: stamp.errorId(),
    code: failure.code,
    class: failure.class,
    retryable: ERROR_CLASSES[failure.class].retryable,
    message_safe: clip(failure.message(facts.contract)),
    details: errorDetails(failure.stage, facts, issues),
    source: stamp.source,
  };
  if (stamp.traceId !== undefined) error.trace_id = stamp.traceId;
  return error;
};

/** The distinct values of `pick` over `issues`, in order, joined by ", ". */
const distinct = (issues: readonly Issue[], pick: (issue: Issue) => string): string => [...new Set(issues.map(pick))].join(", ");

/** A masked path as the wire shows it: the root as `/`, anything else on one line (`printable`). */
const shownPath = (issue: Issue): string => (issue.path === "" ? "/" : printable(issue.path));
/**
 * The same for a path masked by a `plain` shape, which names declared fields and list or tuple
 * items only, every other segment `*` (`maskIssuePath`): a field's name holds no character
 * `printable` escapes (ir/names.ts's FIELD_NAME), so the path is shown as it is, unread. Reading
 * it would flatten the string the validator built by concatenation, a third of a failing decode.
 */
const shownPlainPath = (issue: Issue): string => (issue.path === "" ? "/" : issue.path);
const issueCode = (issue: Issue): string => issue.code;
/** An attempt's number as text, the first ten from a table (converting a number calls into the engine). */
const attemptText = (attempt: number): string => ATTEMPTS[attempt] ?? String(attempt);
const ATTEMPTS = Array.from({ length: 11 }, (_, n) => String(n));

/**
 * The wire's flat strings (operation.error 1.0 allows no nesting): lists joined, each clipped to
 * 500 characters. Paths are shown there, as text: each on one line (`printable`), where `issues`
 * keeps the pointers as data.
 */
const errorDetails = (stage: Stage, facts: FailureFacts, issues: readonly Issue[]): { [k: string]: string } => {
  const contract = clip(facts.contract);
  const { version, attempt } = facts;
  const shown = facts.shape?.plain === true ? shownPlainPath : shownPath;
  // One issue, most failures: read once, no set.
  const only = issues.length === 1 ? issues[0]! : undefined;
  const paths = issues.length === 0 ? "" : clip(only ? shown(only) : distinct(issues, shown));
  const codes = issues.length === 0 ? "" : clip(only ? only.code : distinct(issues, issueCode));
  // The common failure (a payload of a known version with issues, nothing else known) as one
  // literal: no property added after it is made.
  if (version !== undefined && issues.length > 0 && !facts.known && attempt !== undefined) {
    return { stage, contract, version, paths, issue_codes: codes, attempt: attemptText(attempt) };
  }
  const details: { [k: string]: string } = { stage, contract };
  if (version !== undefined) details["version"] = version;
  if (issues.length > 0) {
    details["paths"] = paths;
    details["issue_codes"] = codes;
  }
  if (facts.known) details["known"] = clip(facts.known.join(", "));
  if (attempt !== undefined) details["attempt"] = attemptText(attempt);
  return details;
};
