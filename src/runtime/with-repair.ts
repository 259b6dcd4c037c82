// Bounded repair of a producer's (an LLM's) output: each try is repaired by `repairJson` and decoded
// like any input; a failure the producer can fix is sent back as a re-ask message naming each
// failing path and what was expected, until a try decodes or the tries are spent.
import type { ErrorClass, FailureKind, Stage } from "./errors.js";
import type { Issue } from "./issue.js";
import { reaskMessage, type VersionShape } from "./redact.js";
import type { RepairFlag } from "./repair.js";
import type { DecodeOptions, Outcome } from "./runtime.js";

/** What the producer is asked: which try this is and, after a failed one, what to fix. */
export interface RepairRequest {
  readonly attempt: number;
  /** The re-ask message of the previous try's failure; absent on the first try. */
  readonly reask?: string;
}

export interface RepairLoop<K extends string> {
  readonly contract: K;
  /** Returns the producer's output: text (repaired and parsed) or a value. Its exceptions propagate. */
  readonly produce: (request: RepairRequest) => unknown;
  /** Tries in all, the first included (default 2). */
  readonly maxAttempts?: number;
  readonly accept?: readonly string[];
  readonly version?: string;
  /** The LLM provider whose projection the producer answers under (see `DecodeOptions.from`). */
  readonly from?: string;
  readonly traceId?: string;
}

/** One try, as the loop's result reports it: outcome, repairs and issue paths, never the output itself. */
export interface Attempt {
  readonly attempt: number;
  readonly outcome: "ok" | ErrorClass;
  readonly code?: string;
  readonly stage: Stage;
  readonly repairs: readonly RepairFlag[];
  readonly issues: readonly Issue[];
}

export type Attempted<T> = Outcome<T> & { readonly attempts: readonly Attempt[] };

/** What the loop needs of its runtime. */
export interface RepairDeps {
  decode(contract: string, input: unknown, options: DecodeOptions): Outcome<unknown> | Promise<Outcome<unknown>>;
  /** The versions the host reads of `contract`, oldest first. */
  readable(contract: string, accept: readonly string[] | undefined): readonly string[];
  shapeOf(contract: string, version: string | undefined): VersionShape | undefined;
}

/** Failures a producer can fix by answering again; the host's trace id, state, policy and adapter failures it cannot. */
const REASKABLE: ReadonlySet<FailureKind> = new Set(["unparseable", "envelope", "wrong-contract", "unsupported-version", "not-accepted", "schema", "semantic"]);

export const DEFAULT_MAX_ATTEMPTS = 2;

/** Runs `loop` against `deps`: the first decoded try, or the last failure with every try. */
export const withRepair = async (deps: RepairDeps, loop: RepairLoop<string>): Promise<Attempted<unknown>> => {
  const maxAttempts = loop.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError(`withRepair: maxAttempts must be a positive integer`);
  const attempts: Attempt[] = [];
  let reask: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const output = await loop.produce(reask === undefined ? { attempt } : { attempt, reask });
    const options: DecodeOptions = {
      attempt,
      ...(loop.accept && { accept: loop.accept }),
      ...(loop.version !== undefined && { version: loop.version }),
      ...(loop.from !== undefined && { from: loop.from }),
      ...(loop.traceId !== undefined && { traceId: loop.traceId }),
    };
    const outcome = await deps.decode(loop.contract, output, options);
    attempts.push(summary(attempt, outcome));
    if (outcome.ok || attempt >= maxAttempts || !REASKABLE.has(outcome.kind)) return { ...outcome, attempts };
    const version = outcome.version ?? deps.readable(loop.contract, loop.accept).at(-1) ?? "";
    reask = reaskMessage(loop.contract, version, outcome.issues, deps.shapeOf(loop.contract, version));
  }
};

const summary = (attempt: number, outcome: Outcome<unknown>): Attempt =>
  outcome.ok
    ? { attempt, outcome: "ok", stage: "canonical", repairs: outcome.repairs, issues: [] }
    : { attempt, outcome: outcome.error.class, code: outcome.error.code, stage: outcome.stage, repairs: outcome.repairs, issues: outcome.issues };
