// The request-time path (DESIGN.md §7): the host names the contract and the versions it accepts,
// and every input goes parse → envelope → schema → semantic → state → policy → canonical, in that
// order, to a typed result or an operation.error. Each stage is traced; the payload leaves the
// runtime only through `redact`. Without hooks the whole decode is synchronous.
import { createFailure, createStamp, type ErrorClass, type ErrorStamp, type Failure, type FailureFacts, type FailureKind, type Stage } from "./errors.js";
import type { Issue } from "./issue.js";
import { createMetrics, type MeterLike, type MetricsSnapshot } from "./metrics.js";
import { redact, type VersionShape } from "./redact.js";
import {
  invalid,
  lookupContract,
  adaptLane,
  declaredVersion,
  refusedFault,
  type ReadAs,
  readEnvelope,
  readChecked,
  readFrom,
  mappedBack,
  NOT_MAPPED,
  toCanonical,
  versionIssue,
  type CanonicalOf,
  type ContractRegistration,
  type Decoded,
  type Enveloped,
  type Fault,
  type ReadOptions,
  type Registrations,
  type Registry,
} from "./registry.js";
import { repairJson, type RepairFlag } from "./repair.js";
import { readPastMaxNodes, readValue, UNREADABLE, UNREADABLE_ISSUE } from "./snapshot.js";
import { TREATY_VERSION } from "./version.js";
import { endDecodeSpan, spanEvent, startDecodeSpan, wireTraceId, type SpanLike, type TraceEvent, type TracerLike } from "./trace.js";
import { withRepair, type Attempted, type RepairDeps, type RepairLoop } from "./with-repair.js";

/** What the state and policy hooks see: a payload valid at `version`, the version it is read as. */
export interface HookInput {
  readonly contract: string;
  readonly version: string;
  readonly payload: unknown;
  readonly traceId?: string;
}

/** `stale`: the state changed since the producer read it (CONFLICT); `not-found`: it does not exist (NOT_FOUND). */
export type StateOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: "stale" | "not-found" };
/** `policy`: policy forbids it (POLICY_DENIED); `permission`: a scope is missing (PERMISSION_DENIED). */
export type PolicyOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: "policy" | "permission" };

export type StateHook = (input: HookInput) => StateOutcome | Promise<StateOutcome>;
export type PolicyHook = (input: HookInput) => PolicyOutcome | Promise<PolicyOutcome>;

/** One decode as persisted: the seed's "schema version + payload + validation result + adapter version". */
export interface DecodeRecord {
  readonly contract: string;
  /** The known version read; absent when the envelope named none this host reads. */
  readonly version?: string;
  /**
   * The parsed payload after `redact`; absent when the input did not parse, or when a JS value the
   * schema refused (judged where it stands, see `readFirst`) could not be copied for the record.
   */
  readonly payload?: unknown;
  readonly outcome: "ok" | ErrorClass;
  readonly code?: string;
  /** The last stage run: `canonical` on success, the failing stage otherwise. */
  readonly stage: Stage;
  readonly adapterPath: readonly string[];
  readonly repairs: readonly RepairFlag[];
  readonly treatyVersion: string;
  readonly traceId?: string;
  readonly attempt: number;
}

/** Where persisted records go; `internal` sinks keep `internal` fields (never `secret` or raw `pii` ones). */
export interface PersistSink {
  readonly write: (record: DecodeRecord) => void;
  readonly internal?: boolean;
  /**
   * The key of the pii markers in records (HMAC-SHA-256): without it a marker is a plain hash,
   * which anyone who guesses a value can confirm. Keep it out of the records' store.
   */
  readonly piiKey?: string | Uint8Array;
}

export interface RuntimeOptions {
  /** The dotted name put in each error's `source` (default `treaty.runtime`). */
  readonly source?: string;
  /** Versions the host reads, per contract (default: every version the registry knows). */
  readonly accept?: { readonly [contract: string]: readonly string[] };
  readonly state?: StateHook;
  readonly policy?: PolicyHook;
  /** Receives one event per stage run. */
  readonly onTrace?: (event: TraceEvent) => void;
  /** An OpenTelemetry tracer: one span per decode, an event per stage. */
  readonly tracer?: TracerLike;
  /** An OpenTelemetry meter, to mirror the counters of `metrics()`. */
  readonly meter?: MeterLike;
  readonly persist?: PersistSink;
  /** Makes each error's `error_id` (default `ERR-`, a UUID drawn once, and a count). */
  readonly errorId?: () => string;
}

/** `version` and `from` as the registry's `decode` takes them, and what the runtime's stages add. */
export interface DecodeOptions extends ReadOptions {
  /** Versions this call reads, overriding the runtime's `accept`. */
  readonly accept?: readonly string[];
  /**
   * The host's trace id, put on events, records and the result as given, and on errors as
   * operation.error's `trace_id`: `TRACE-…`, a W3C trace id (32 lower-case hex digits, not all
   * zero) or a UUID, the last two behind `TRACE-`. Any other fails the decode as `TRACE_ID_INVALID`.
   */
  readonly traceId?: string;
  /** Which try of a repair loop this is (default 1). */
  readonly attempt?: number;
}

/** A payload read into the canonical model, with what it took. */
export interface RuntimeResult<T> extends Decoded<T> {
  /** Fixes `repairJson` made to read the text, in order. */
  readonly repairs: readonly RepairFlag[];
  readonly traceId?: string;
}

/** The registry's `Failure` with what the runtime's own stages add, as `RuntimeResult` adds them to `Decoded`. */
export interface RuntimeFailure extends Failure {
  /** Fixes `repairJson` made to read the text, in order. */
  readonly repairs: readonly RepairFlag[];
  /** The host's trace id as given, when it was a valid one. */
  readonly traceId?: string;
}

export type Outcome<T> = RuntimeResult<T> | RuntimeFailure;

/** `decode` returns a promise exactly when a state or policy hook (async user code) is set; `boolean`: either. */
export type MaybeAsync<Async extends boolean, T> = [Async] extends [true] ? Promise<T> : [Async] extends [false] ? T : T | Promise<T>;

export interface Runtime<R extends Registrations, Async extends boolean = boolean> {
  readonly registry: Registry<R>;
  /** Reads `input` (JSON text, repaired if need be, or a value) as `contract` through every stage. */
  decode<K extends keyof R & string>(contract: K, input: unknown, options?: DecodeOptions): MaybeAsync<Async, Outcome<CanonicalOf<R[K]>>>;
  /** Asks `produce` until its output decodes or `maxAttempts` tries are spent, re-asking with the failing paths. */
  withRepair<K extends keyof R & string>(loop: RepairLoop<K>): Promise<Attempted<CanonicalOf<R[K]>>>;
  /** The counters so far. */
  metrics(): MetricsSnapshot;
}

/** The host global the runtime times stages with (Node 20, browsers, Deno and Bun have it), typed without DOM or Node types. */
const host = globalThis as unknown as { readonly performance: { now(): number } };

/** One decode in flight: what the stages learned so far, for events, errors and the record. */
interface Run {
  readonly contract: string;
  readonly attempt: number;
  /** The host's trace id, if it gave a valid one. */
  readonly traceId: string | undefined;
  /** The host gave a trace id of no accepted form: the envelope stage fails. */
  readonly traceIdInvalid: boolean;
  readonly stamp: ErrorStamp;
  readonly span: SpanLike | undefined;
  /** When the current stage began (ms), if anything observes durations. */
  mark: number;
  last: TraceEvent | undefined;
  repairs: RepairFlag[];
  parsed: boolean;
  payload: unknown;
  version: string | undefined;
  shape: VersionShape | undefined;
  adapterPath: readonly string[];
}

type Step<T> = { readonly ok: true; readonly value: T } | RuntimeFailure;

/** A runtime over `registry`: typed results and typed errors, traced, counted and persisted as `options` say. */
export function createRuntime<R extends Registrations>(registry: Registry<R>, options: RuntimeOptions & ({ readonly state: StateHook } | { readonly policy: PolicyHook })): Runtime<R, true>;
export function createRuntime<R extends Registrations>(registry: Registry<R>, options?: RuntimeOptions & { readonly state?: undefined; readonly policy?: undefined }): Runtime<R, false>;
export function createRuntime<R extends Registrations>(registry: Registry<R>, options?: RuntimeOptions): Runtime<R>;
export function createRuntime<R extends Registrations>(registry: Registry<R>, opts: RuntimeOptions = {}): Runtime<R> {
  const stamp = createStamp("createRuntime", opts.source ?? "treaty.runtime", opts.errorId);
  const { onTrace, tracer, persist, state, policy } = opts;
  const observed = onTrace !== undefined || tracer !== undefined;
  const metrics = createMetrics(opts.meter);

  // One counter per version read, kept: counting traffic is on every decode's path.
  const trafficCounters = new Map<Enveloped["registration"], () => void>();
  const countTraffic = (contract: string, read: Enveloped): void => {
    let count = trafficCounters.get(read.registration);
    if (!count) trafficCounters.set(read.registration, (count = metrics.counter("traffic", contract, read.readAs)));
    count();
  };

  const start = (contract: string, options: DecodeOptions): Run => {
    const wire = options.traceId === undefined ? undefined : wireTraceId(options.traceId);
    const traceId = wire === undefined ? undefined : options.traceId;
    const attempt = options.attempt ?? 1;
    return {
      contract,
      attempt,
      traceId,
      traceIdInvalid: options.traceId !== undefined && wire === undefined,
      stamp: wire === undefined ? stamp : { ...stamp, traceId: wire },
      span: tracer && startDecodeSpan(tracer, contract, attempt, TREATY_VERSION),
      mark: observed ? host.performance.now() : 0,
      last: undefined,
      repairs: [],
      parsed: false,
      payload: undefined,
      version: undefined,
      shape: undefined,
      adapterPath: [],
    };
  };

  /** Records that `stage` ended; builds the event only when someone observes it. */
  const emit = (run: Run, stage: Stage, failure?: RuntimeFailure, issues: readonly Issue[] = []): void => {
    if (!observed) return;
    const now = host.performance.now();
    const event: TraceEvent = {
      contract: run.contract,
      ...(run.version !== undefined && { version: run.version }),
      stage,
      outcome: failure ? "fail" : "ok",
      ...(failure && { errorClass: failure.error.class, errorCode: failure.error.code }),
      issueCodes: [...new Set(issues.map((i) => i.code))],
      adapterPath: run.adapterPath,
      durationUs: Math.round((now - run.mark) * 1000),
      treatyVersion: TREATY_VERSION,
      attempt: run.attempt,
      ...(run.traceId !== undefined && { traceId: run.traceId }),
    };
    run.mark = now;
    run.last = event;
    onTrace?.(event);
    if (run.span) spanEvent(run.span, event);
  };

  const pass = <T>(run: Run, stage: Stage, value: T): Step<T> => {
    emit(run, stage);
    return { ok: true, value };
  };

  /** The failure of `kind` as this runtime returns it: the registry's, with its decode's repairs and trace id. */
  const stamped = (kind: FailureKind, facts: FailureFacts, stamp: ErrorStamp, repairs: readonly RepairFlag[], traceId: string | undefined): RuntimeFailure => {
    const failure = createFailure(kind, facts, stamp, repairs) as Failure & { repairs: readonly RepairFlag[]; traceId?: string };
    if (traceId !== undefined) failure.traceId = traceId;
    return failure;
  };

  /** The failure of `kind` at the version read so far; issues from a validator point into the payload, so they are masked by the shape they point into. */
  const fail = (run: Run, kind: FailureKind, facts: Omit<Fault, "ok" | "kind"> = {}): RuntimeFailure => {
    // Fact by fact, not by spread: a failing decode's cost is mostly building its failure.
    const failure = stamped(
      kind,
      {
        contract: run.contract,
        version: "version" in facts ? facts.version : run.version,
        shape: "shape" in facts ? facts.shape : run.shape,
        issues: facts.issues,
        validated: facts.validated,
        known: facts.known,
        attempt: run.attempt,
      },
      run.stamp,
      run.repairs,
      run.traceId,
    );
    emit(run, failure.stage, failure, failure.issues);
    return failure;
  };

  /** A registry fault, stamped by this runtime. */
  const faulted = (run: Run, fault: Fault): RuntimeFailure => fail(run, fault.kind, fault);

  const parse = (run: Run, input: unknown): Step<unknown> => {
    if (typeof input !== "string") {
      // A value is read once, into the copy every later stage sees (see snapshot.ts).
      const value = readValue(input);
      return value === UNREADABLE ? fail(run, "unparseable", { issues: [UNREADABLE_ISSUE] }) : parsed(run, value);
    }
    const read = repairJson(input);
    run.repairs = read.repairs;
    if (!read.ok || read.repairs.length > 0) metrics.count("repairsTried", run.contract);
    if (!read.ok) return fail(run, "unparseable", { issues: [{ path: "", code: "parse", message: read.error.message, expected: "a JSON value" }] });
    return parsed(run, read.value);
  };

  const parsed = (run: Run, value: unknown): Step<unknown> => {
    run.parsed = true;
    run.payload = value;
    return pass(run, "parse", value);
  };

  /**
   * What the request is: a valid trace id, a known contract, a version the host accepts. `taken`
   * is a value `readFirst` took: its envelope is read already, and a provider's reply mapped back.
   */
  const envelope = (run: Run, value: unknown, options: DecodeOptions, taken?: Enveloped): Step<Enveloped> => {
    if (run.traceIdInvalid) return fail(run, "trace-id");
    const entry = lookupContract(registry.contracts, run.contract);
    if ("ok" in entry) return faulted(run, entry);
    const accepted = readable(entry, options.accept);
    const enveloped = taken ?? readEnvelope(entry, value, options.version);
    // The host reads fewer versions than the build knows: those are what the producer may send.
    const unread = (kind: "unsupported-version" | "not-accepted"): RuntimeFailure => fail(run, kind, { issues: [versionIssue(accepted)], known: accepted });
    if (!enveloped.ok) return enveloped.kind === "unsupported-version" ? unread(enveloped.kind) : faulted(run, enveloped);
    if (!accepted.includes(enveloped.readAs)) return unread("not-accepted");
    // After the version is known: the mapping undoing the projection is that version's.
    const read = taken ?? readFrom(enveloped, options.from);
    if (!read.ok) return faulted(run, read);
    run.version = read.readAs;
    run.shape = read.registration.shape;
    run.adapterPath = read.registration.path;
    countTraffic(run.contract, read);
    return pass(run, "envelope", read);
  };

  /** Schema, then semantic rules: the generated `check` runs both; `invalid` says which stage failed first. */
  const validate = (run: Run, read: Enveloped): Step<Enveloped> => {
    if (read.registration.check(read.value)) {
      emit(run, "schema");
      return pass(run, "semantic", read);
    }
    return judged(run, invalid(read, read.registration.errors(read.value)));
  };

  /** The schema or semantic stage failed as `failed` says; a semantic failure passed the schema. */
  const judged = (run: Run, failed: Fault): RuntimeFailure => {
    if (failed.kind === "semantic") emit(run, "schema");
    return faulted(run, failed);
  };

  const known = new Map(Object.values(registry.contracts).map((entry) => [entry, Object.keys(entry.versions)]));

  /** The versions the host reads of `entry`: this call's, else the runtime's, else every known one. */
  const readable = (entry: ContractRegistration, accept: readonly string[] | undefined): readonly string[] =>
    accept ?? opts.accept?.[entry.name] ?? known.get(entry)!;

  /** Runs the user's hook of `stage`; one that throws fails the stage as TRANSIENT, its error kept from the output. */
  const hook = async (run: Run, stage: "state" | "policy", user: StateHook | PolicyHook | undefined, read: Enveloped): Promise<Step<Enveloped>> => {
    if (!user) return pass(run, stage, read);
    let outcome: StateOutcome | PolicyOutcome;
    try {
      outcome = await user({ contract: run.contract, version: read.readAs, payload: read.value, ...(run.traceId !== undefined && { traceId: run.traceId }) });
    } catch {
      return fail(run, stage === "state" ? "state-failed" : "policy-failed");
    }
    return outcome.ok ? pass(run, stage, read) : fail(run, outcome.reason);
  };

  /** The canonical stage: the payload adapted into the contract's canonical model. */
  const adapt = (run: Run, read: Enveloped): Outcome<unknown> => {
    const decoded = toCanonical(read);
    if (!decoded.ok) return faulted(run, decoded);
    emit(run, "canonical");
    const { value, contract, version, readAs, canonical, path, stripped, dropped, filled } = decoded;
    // Field by field: V8 copies this object by spread several times slower than the validator runs.
    const result = { ok: true, value, contract, version, readAs, canonical, path, stripped, dropped, filled, repairs: run.repairs } as const;
    return run.traceId === undefined ? result : { ...result, traceId: run.traceId };
  };

  /** Counts, persists and closes the span of a finished decode. */
  const finish = <T>(run: Run, outcome: Outcome<T>): Outcome<T> => {
    if (outcome.ok) {
      if (run.repairs.length > 0) metrics.count("repairsSucceeded", run.contract);
    } else if (outcome.error.class === "INVALID_INPUT") {
      metrics.count("validationFailures", run.contract, run.version);
    } else if (outcome.error.class === "UNSUPPORTED_VERSION") {
      metrics.count("unsupportedVersions", run.contract);
    }
    if (persist) persist.write(record(run, outcome, persist));
    if (run.span && run.last) endDecodeSpan(run.span, run.last);
    return outcome;
  };

  const record = (run: Run, outcome: Outcome<unknown>, sink: PersistSink): DecodeRecord => ({
    contract: run.contract,
    ...(run.version !== undefined && { version: run.version }),
    ...(run.parsed && { payload: redact(run.payload, run.shape, { internal: sink.internal ?? false, ...(sink.piiKey !== undefined && { piiKey: sink.piiKey }) }) }),
    outcome: outcome.ok ? "ok" : outcome.error.class,
    ...(!outcome.ok && { code: outcome.error.code }),
    stage: outcome.ok ? "canonical" : outcome.stage,
    adapterPath: run.adapterPath,
    repairs: run.repairs,
    treatyVersion: TREATY_VERSION,
    ...(run.traceId !== undefined && { traceId: run.traceId }),
    attempt: run.attempt,
  });

  /** parse → envelope → schema → semantic: the stages that need no user code. */
  const front = (run: Run, input: unknown, options: DecodeOptions): Step<Enveloped> => {
    if (typeof input !== "string") {
      const taken = readFirst(run, input, options);
      if (taken !== undefined) return taken;
    }
    const value = parse(run, input);
    if (!value.ok) return value;
    const read = envelope(run, value.value, options);
    return read.ok ? validate(run, read.value) : read;
  };

  /**
   * A JS value read as the quick path and the registry's `decode` read it (`readChecked`): by the
   * generated `read` of the version it names (of a provider's reply, the reply mapped back), which
   * checks and copies it in one pass and never judges the value of a key the contract strips (one
   * it cannot copy is dropped all the same); a value `read` refuses is judged where it stands
   * (`refusedFault`). So whether a value is accepted never depends on whether anything observes
   * the decode. Each stage is traced and recorded as for a copied value. Undefined where this does
   * not apply or does not decide (no `read`, an envelope that fails, a newer minor, a mapping that
   * finds fault, a getter that throws, a refusal errors() finds no issue for): `parse` then copies
   * the whole value first and every stage judges the copy.
   */
  const readFirst = (run: Run, input: unknown, options: DecodeOptions): Step<Enveloped> | undefined => {
    const entry = lookupContract(registry.contracts, run.contract);
    if ("ok" in entry) return undefined;
    const taken = readChecked(entry, input, options.version, options.from);
    if (taken === undefined) return undefined;
    if (!("refused" in taken)) {
      // `read`'s copy is what every later stage, the result and the record see.
      parsed(run, taken.value);
      const read = envelope(run, taken.value, options, taken);
      if (!read.ok) return read;
      emit(run, "schema");
      return pass(run, "semantic", read.value);
    }
    const failed = refusedFault(taken.refused, taken.refused.value);
    if (failed === undefined) return undefined;
    // Nothing of a refused value is handed over; a record holds a copy of it, if it can be copied.
    if (persist) {
      const copy = readValue(taken.refused.value);
      if (copy !== UNREADABLE) {
        run.parsed = true;
        run.payload = copy;
      }
    }
    emit(run, "parse");
    const read = envelope(run, taken.refused.value, options, taken.refused);
    return read.ok ? judged(run, failed) : read;
  };

  const decodeHooked = async (run: Run, read: Enveloped): Promise<Outcome<unknown>> => {
    const stated = await hook(run, "state", state, read);
    if (!stated.ok) return finish(run, stated);
    const allowed = await hook(run, "policy", policy, read);
    return finish(run, allowed.ok ? adapt(run, read) : allowed);
  };

  // The quick path's lanes, by contract then by the version a payload names: each known version
  // with a generated `read` that this runtime accepts. A payload naming any other (a newer minor read
  // as an older one, a version not accepted, an unknown one) goes through the full pipeline.
  // Each contract's lanes remember the last one a payload named, and the runtime the last
  // contract asked for: most calls name what the one before named, and a string compared costs a
  // fraction of a Map's lookup (two of them were a tenth of a successful decode).
  interface Lanes {
    readonly entry: ContractRegistration;
    readonly embedded: boolean;
    readonly versions: ReadonlyMap<string, Lane>;
    last: Lane | undefined;
  }
  const lanes = new Map<string, Lanes>();
  for (const [name, entry] of Object.entries(registry.contracts)) {
    const accepted = opts.accept?.[name];
    const versions = new Map<string, Lane>();
    for (const [version, registration] of Object.entries(entry.versions)) {
      const { read } = registration;
      if (read !== undefined && (accepted === undefined || accepted.includes(version))) versions.set(version, { entry, readAs: version, registration, read, adapt: adaptLane(entry, registration, version, NO_REPAIRS), traffic: undefined, failures: undefined });
    }
    lanes.set(name, { entry, embedded: entry.envelope === "embedded", versions, last: undefined });
  }
  let lastContract: string | undefined;
  let lastLanes: Lanes | undefined;
  /** The lanes of `contract`, if it has any. */
  const lanesOf = (contract: string): Lanes | undefined => {
    if (contract === lastContract) return lastLanes;
    lastLanes = lanes.get(contract);
    lastContract = contract;
    return lastLanes;
  };
  /** The lane of `version` in `byVersion`, if it has one. */
  const laneOf = (byVersion: Lanes, version: unknown): Lane | undefined => {
    const last = byVersion.last;
    if (last !== undefined && last.readAs === version) return last;
    const lane = byVersion.versions.get(version as string);
    if (lane !== undefined) byVersion.last = lane;
    return lane;
  };

  /** Nothing to trace, persist or ask a hook: the stages can run without a `Run` to record them in. */
  const unobserved = !observed && !persist && !state && !policy;

  /**
   * A value the `read` of `lane` refused, failed as the schema (or semantic) stage fails it, and
   * counted as `finish` counts it; nothing observes the decode, so no `Run` records it. Undefined
   * sends it through the full pipeline.
   */
  const refused = (contract: string, lane: Lane, input: unknown, value: unknown, options: DecodeOptions): RuntimeFailure | undefined => {
    try {
      // A payload of another contract, or one whose envelope reads differently the second time, is not the lane's to fail.
      if (declaredVersion(lane.entry, input, options.version) !== lane.readAs) return undefined;
    } catch {
      return undefined;
    }
    const failed = refusedFault(lane, value);
    if (failed === undefined) return undefined;
    (lane.traffic ??= metrics.counter("traffic", contract, lane.readAs))();
    (lane.failures ??= metrics.counter("validationFailures", contract, lane.readAs))();
    const facts = { contract, version: failed.version, shape: failed.shape, issues: failed.issues, validated: failed.validated, attempt: options.attempt ?? 1 };
    return stamped(failed.kind, facts, stamp, NO_REPAIRS, undefined);
  };

  /**
   * The same stages without a `Run` to record them in, for a value that passes them all or that
   * the generated `read` refuses (failed at once, without copying it: see `refusedFault`):
   * undefined sends the input through the full pipeline instead, which builds every other failure
   * (and counts it, so a failure is never counted twice). A reply from a provider (`from`) is
   * mapped back first (`mappedBack`), and what `read` checks and copies is the mapped value.
   */
  const quick = (contract: string, input: unknown, options: DecodeOptions): Outcome<unknown> | undefined => {
    const byVersion = lanesOf(contract);
    if (byVersion === undefined) return undefined;
    let lane: Lane | undefined;
    let given: unknown = input;
    let value: unknown;
    try {
      if (options === NO_OPTIONS && byVersion.embedded) {
        // The common call, a payload and nothing else: its lane is the version it names. Its
        // contract's name is checked on the copy `read` makes (a refused payload's envelope is read in full).
        if (typeof input !== "object" || input === null) return undefined;
        lane = laneOf(byVersion, (input as { version?: unknown }).version);
        if (lane === undefined) return undefined;
        value = lane.read(input);
        if (value !== undefined && (value as { contract?: unknown }).contract !== byVersion.entry.name) return undefined;
      } else {
        if (typeof input === "string" || options.traceId !== undefined) return undefined;
        const named = declaredVersion(byVersion.entry, input, options.version);
        lane = typeof named === "string" ? laneOf(byVersion, named) : undefined;
        if (lane === undefined || (options.accept !== undefined && !options.accept.includes(lane.readAs))) return undefined;
        if (options.from !== undefined) {
          given = mappedBack(lane.registration, input, options.from);
          if (given === NOT_MAPPED) return undefined;
        }
        value = lane.read(given);
      }
    } catch {
      return undefined; // a getter or Proxy trap threw reading the envelope (or the mapping did)
    }
    // A copy past MAX_NODES values is not judged where it stands (see `readChecked`).
    if (value === undefined) return readPastMaxNodes() ? undefined : refused(contract, lane, input, given, options);
    const decoded = lane.adapt(value);
    if (!decoded.ok) return undefined;
    (lane.traffic ??= metrics.counter("traffic", contract, lane.readAs))();
    return decoded;
  };

  const decode = (contract: string, input: unknown, options: DecodeOptions = NO_OPTIONS): Outcome<unknown> | Promise<Outcome<unknown>> => {
    const passed = unobserved ? quick(contract, input, options) : undefined;
    if (passed) return passed;
    const run = start(contract, options);
    const read = front(run, input, options);
    if (state || policy) return read.ok ? decodeHooked(run, read.value) : Promise.resolve(finish(run, read));
    if (!read.ok) return finish(run, read);
    emit(run, "state");
    emit(run, "policy");
    return finish(run, adapt(run, read.value));
  };

  const deps: RepairDeps = {
    decode,
    readable: (contract, accept) => {
      const entry = lookupContract(registry.contracts, contract);
      return "ok" in entry ? [] : readable(entry, accept);
    },
    shapeOf: (contract, version) => {
      const entry = lookupContract(registry.contracts, contract);
      return "ok" in entry || version === undefined ? undefined : entry.versions[version]?.shape;
    },
  };

  const runtime = { registry, decode, withRepair: (loop: RepairLoop<string>) => withRepair(deps, loop), metrics: metrics.snapshot };
  // The signatures of `Runtime` recover each contract's canonical type, and promise or not from the overload.
  return runtime as unknown as Runtime<R>;
}

/** A version a payload may name and be read as, with what reading it needs, found once per runtime. */
interface Lane extends ReadAs {
  readonly entry: ContractRegistration;
  /** The generated `read`: `check` and the snapshot in one pass. */
  readonly read: (value: unknown) => unknown;
  /** `adaptRead` of this version read as itself. */
  readonly adapt: (read: unknown) => Outcome<unknown> | Fault;
  /** The version's counters of traffic and of validation failures, each made at its first use. */
  traffic: (() => void) | undefined;
  failures: (() => void) | undefined;
}

const NO_OPTIONS: DecodeOptions = Object.freeze({});
const NO_REPAIRS: readonly RepairFlag[] = Object.freeze([]);
