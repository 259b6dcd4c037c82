// The agent pipeline (DESIGN.md §8): every call of an agent runs the gates in one fixed order,
// and the first gate that fails stops the call with a typed failure. `execute` runs only after
// every gate before it passed, so no side effect happens for a refused call; then every run,
// passed or failed, is appended to the event store with its input redacted by its shape.
//
// The store is imported for its types only: the runtime stays free of dependencies at run time.
import type { AgentEvent, GateResult } from "../store/event.js";
import type { EventStore, IdempotencyRef } from "../store/event-store.js";
import type { AgentAction, AgentContract, AgentPathData } from "./agents.js";
import type { ApprovalFailureKind, ApprovalToken, Approvals } from "./approvals.js";
import { canonicalHash } from "./canonical-json.js";
import { createFailure, createStamp, randomId, type Failure, type FailureKind } from "./errors.js";
import { isBefore } from "./instants.js";
import { escapePointer, type Issue } from "./issue.js";
import { allowedValues } from "./reask.js";
import { redact } from "./redact.js";
import type { JsonValue } from "./repair.js";
import type { VersionShape } from "./shape.js";
import { readValue, UNREADABLE, UNREADABLE_ISSUE } from "./snapshot.js";
import { jsonEqual } from "./unique.js";

/** The gates in the order they run; an event lists those that ran, up to the failing one. */
export const GATES = [
  "intent_lock",
  "schema_in",
  "semantic_in",
  "consistency",
  "approval",
  "execute",
  "schema_out",
  "confidence",
  "action_classification",
  "event_append",
] as const;
export type Gate = (typeof GATES)[number];

/** One problem a gate found: where, its stable code, what was expected, and what to do instead when the gate knows. */
export interface GateIssue extends Issue {
  readonly suggestion?: string;
}

/** A refused call: the runtime's failure (with its operation.error payload) plus the gate that refused it. */
export interface GateFailure extends Failure {
  readonly gate: Gate;
  readonly agent: string;
  readonly issues: readonly GateIssue[];
}

export interface AgentSuccess<O> {
  readonly ok: true;
  readonly output: O;
  readonly action: AgentAction;
  /** `true` when an earlier run with this idempotency key and input had succeeded: its result, `execute` not run. */
  readonly replayed: boolean;
}

export type AgentRun<O> = AgentSuccess<O> | GateFailure;

type AnyAgent = AgentContract<any, any>;
type OutputOf<A extends AnyAgent> = Awaited<ReturnType<A["execute"]>>;

export interface PipelineOptions<Agents extends { readonly [name: string]: AnyAgent }> {
  /** The agents by name, as `generated/agents/index.ts` exports them. */
  readonly agents: Agents;
  /** The session's intent: what the traveller asked for, which agents with an `intent` lock may not drift from. */
  readonly intent?: unknown;
  readonly store: EventStore;
  /** Required when an agent needs approvals: every irreversible one, and those in `approve`. */
  readonly approvals?: Approvals;
  /** Reversible agents the host also wants approved before they run. */
  readonly approve?: readonly string[];
  /** The session id; a random one unless given. */
  readonly session?: string;
  /** The event clock, milliseconds since the epoch. */
  readonly now?: () => number;
  /** Keys pii hashes in stored payloads (see `RedactOptions.piiKey`). */
  readonly piiKey?: string | Uint8Array;
  /**
   * How long a run holds its mutation's idempotency key in the store (`EventStore.claim`), in
   * milliseconds: longer than any `execute` takes. A run that died frees its key after it. 10 minutes unless given.
   */
  readonly claimMs?: number;
  readonly source?: string;
}

export interface RunOptions {
  /** The host's approval of this very call, from `approvals.issue`. */
  readonly approval?: ApprovalToken;
}

export interface Session<Agents extends { readonly [name: string]: AnyAgent }> {
  readonly id: string;
  /**
   * Runs `agent` on `input` through every gate; a refused call resolves to a `GateFailure`. What
   * `execute` or a custom rule throws is rethrown, after an EXECUTE_FAILED or RULE_FAILED event.
   */
  run<N extends keyof Agents & string>(agent: N, input: unknown, options?: RunOptions): Promise<AgentRun<OutputOf<Agents[N]>>>;
}

const NO_ISSUES: readonly Issue[] = [];

/** The duration clock, typed without DOM or Node types. */
const host = globalThis as unknown as { readonly performance: { now(): number } };

const issue = (path: string, code: string, expected: string, suggestion?: string): GateIssue => ({
  path,
  code,
  message: `expected ${expected}`,
  expected,
  ...(suggestion !== undefined && { suggestion }),
});

/** A schema issue with the allowed values and their meanings where it failed at an enum, as the re-ask message lists them. */
const withAllowed = (found: Issue, shape: VersionShape): GateIssue => {
  const values = allowedValues(found.path, shape);
  return values.length === 0 ? found : { ...found, suggestion: `One of: ${values.map(([value, meaning]) => `${value} (${meaning})`).join("; ")}` };
};

/** What a gate decided: nothing (pass) or why it refused. */
type Verdict = undefined | { readonly kind: FailureKind; readonly issues: readonly GateIssue[]; readonly contract: string; readonly shape?: VersionShape };

const intentVerdict = (agent: AnyAgent, intent: unknown, input: unknown): Verdict => {
  const lock = agent.intent;
  if (lock === undefined) return undefined;
  const contract = agent.input.contract;
  if (intent === undefined || !lock.check(intent)) {
    const issues = intent === undefined ? [issue("", "required", `a ${lock.contract} intent for the session`)] : lock.errors(intent);
    return { kind: "intent-missing", issues, contract, shape: lock.shape };
  }
  const type = lock.typeField?.read(intent)[0]?.value;
  if (lock.serves.length > 0 && !lock.serves.includes(type as string)) {
    return { kind: "intent-not-served", issues: [issue("", "intent.type", `an intent of type ${lock.serves.join(" or ")}`, `${agent.name} serves ${lock.serves.join(", ")} intents only.`)], contract };
  }
  const drifted = lock.lock.flatMap(({ input: at, intent: from }) => {
    const locked = from.read(intent)[0];
    return at.read(input)
      .filter((found) => locked === undefined || !jsonEqual(found.value, locked.value))
      .map((found) => issue(found.pointer, "intent.locked", `the session intent's ${from.path}`, `Keep ${at.path} as the traveller asked; the session locked it.`));
  });
  return drifted.length > 0 ? { kind: "intent-drift", issues: drifted, contract, shape: agent.input.shape } : undefined;
};

const present = (input: unknown, path: AgentPathData): boolean => path.read(input).some((found) => found.value !== undefined);
const pointerOf = (path: AgentPathData): string => path.segments.map((segment) => `/${escapePointer(segment)}`).join("");

/** What a hand-written custom rule must return: `{ ok: true }`, or `{ ok: false, path, message, suggestion? }` (a path that is not a pointer is masked). */
const isRuleResult = (result: unknown): result is { ok: true } | { ok: false; path: string; message: string; suggestion?: string } => {
  if (typeof result !== "object" || result === null) return false;
  const r = result as { ok?: unknown; path?: unknown; message?: unknown; suggestion?: unknown };
  if (r.ok === true) return true;
  return r.ok === false && typeof r.path === "string" && typeof r.message === "string" && (r.suggestion === undefined || typeof r.suggestion === "string");
};

const describeResult = (result: unknown): string => {
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return "a value that cannot be written as JSON";
  }
};

/** The agent's rules, in the order declared; custom ones through the hand-written functions the generated module wires in. */
const ruleIssues = async (agent: AnyAgent, input: unknown): Promise<GateIssue[]> => {
  const issues: GateIssue[] = [];
  for (const rule of agent.rules) {
    switch (rule.kind) {
      case "before": {
        // As the contracts' `before` rule: two date-times, the second strictly later.
        const [a, b] = [rule.first.read(input)[0]?.value, rule.second.read(input)[0]?.value];
        if (typeof a === "string" && typeof b === "string" && !isBefore(a, b)) issues.push(issue(pointerOf(rule.second), "rule.before", `date-time later than ${rule.first.path}`));
        break;
      }
      case "exclusive": {
        const found = rule.fields.filter((field) => present(input, field));
        if (found.length > 1) issues.push(issue(pointerOf(found[1]!), "rule.exclusive", `at most one of ${rule.fields.map((f) => f.path).join(", ")}`));
        break;
      }
      case "requires":
        if (present(input, rule.if)) for (const field of rule.then) if (!present(input, field)) issues.push(issue(pointerOf(field), "rule.requires", `present when ${rule.if.path} is present`));
        break;
      case "custom": {
        const result = await rule.check(input as never);
        if (!isRuleResult(result)) throw new TypeError(`custom rule ${rule.name} of ${agent.name} returned ${describeResult(result)}, not { ok: true } or { ok: false, path, message }`);
        if (!result.ok) issues.push({ path: result.path, code: `rule.${rule.name}`, message: result.message, expected: result.message, ...(result.suggestion !== undefined && { suggestion: result.suggestion }) });
      }
    }
  }
  return issues;
};

/** An approval refused: one issue at the root, `approval.<reason>`, telling the model what the host needs. */
const approvalVerdict = (kind: ApprovalFailureKind, contract: string): NonNullable<Verdict> => ({
  kind,
  contract,
  issues: [
    issue(
      "",
      `approval.${kind.slice("approval-".length)}`,
      "an approval of this exact call by the host",
      "Ask the user to approve this exact call; the host then calls again with a new approval.",
    ),
  ],
});

/** Values agents provided in this session: agent → provided path → values. */
type Provided = Map<string, Map<string, unknown[]>>;

const consistencyIssues = (agent: AnyAgent, input: unknown, provided: Provided): GateIssue[] =>
  agent.consumes.flatMap((consumed) => {
    const known = provided.get(consumed.from)?.get(consumed.as.path) ?? [];
    return consumed.read(input)
      .filter((found) => !known.some((value) => jsonEqual(value, found.value)))
      .map((found) =>
        issue(
          found.pointer,
          "consistency.not_provided",
          `a ${consumed.as.path} that ${consumed.from} provided in this session`,
          known.length === 0 ? `Run ${consumed.from} first in this session.` : `Use a ${consumed.as.path} from ${consumed.from}'s result in this session.`,
        ),
      );
  });

/** Adds what `output` provides to the session, each value once: a session repeating a search does not grow. */
const keep = (provided: Provided, agent: AnyAgent, output: unknown): void => {
  const byPath = provided.get(agent.name) ?? new Map<string, unknown[]>();
  provided.set(agent.name, byPath);
  for (const path of agent.provides as readonly AgentPathData[]) {
    const known = byPath.get(path.path) ?? [];
    for (const { value } of path.read(output)) if (!known.some((k) => jsonEqual(k, value))) known.push(value);
    byPath.set(path.path, known);
  }
};

/**
 * The idempotency keys whose run is between its lookup and its recorded result, per store, in this
 * process: a run with the same key waits for that one, then finds its result (replayed) or its
 * conflict, so concurrent calls (an MCP client's retry, parallel tool calls) execute once.
 */
const inFlight = new WeakMap<EventStore, Map<string, Promise<void>>>();

/** Holds `ref`'s key in `store` once no other run holds it; the release lets the next one go. */
const holdKey = async (store: EventStore, ref: IdempotencyRef): Promise<() => void> => {
  let held = inFlight.get(store);
  if (held === undefined) inFlight.set(store, (held = new Map()));
  const id = JSON.stringify([ref.agent, ref.key]);
  for (let running = held.get(id); running !== undefined; running = held.get(id)) await running;
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  held.set(id, done);
  return () => {
    held.delete(id);
    release();
  };
};

/** A session of agent calls locked to one intent: the gates, the approvals they check and the store they write to. */
export const createPipeline = <Agents extends { readonly [name: string]: AnyAgent }>(options: PipelineOptions<Agents>): Session<Agents> => {
  const { agents, intent, store, approvals } = options;
  const approve = new Set(options.approve ?? []);
  const needsApproval = (agent: AnyAgent): boolean => agent.action === "mutation_irreversible" || approve.has(agent.name);
  for (const agent of Object.values(agents)) {
    if (needsApproval(agent) && approvals === undefined) throw new TypeError(`createPipeline: ${agent.name} needs approvals; pass { approvals: createApprovals(...) }`);
  }
  const session = options.session ?? randomId("SES");
  const now = options.now ?? Date.now;
  const claimMs = options.claimMs ?? 10 * 60_000;
  if (!(Number.isSafeInteger(claimMs) && claimMs > 0)) throw new TypeError("createPipeline: claimMs must be a whole number of milliseconds above 0");
  const stamp = createStamp("createPipeline", options.source ?? "treaty.runtime", undefined);
  const provided: Provided = new Map();

  const run = async (name: string, given: unknown, runOptions: RunOptions = {}): Promise<AgentRun<unknown>> => {
    const agent = Object.hasOwn(agents, name) ? agents[name] : undefined;
    if (agent === undefined) throw new TypeError(`session.run: no agent ${name} in this pipeline`);
    const started = host.performance.now();
    const at = new Date(now()).toISOString();
    // Read once, into the copy every gate, the event and `execute` see (see snapshot.ts): what was
    // checked is what runs. A value that cannot be read (a getter or Proxy that throws) is refused.
    const read = readValue(given);
    const input = read === UNREADABLE ? undefined : read;
    const inputHash = canonicalHash(input);
    const gates: GateResult[] = [];
    let output: unknown;
    let confidence: number | undefined;

    const record = (failure?: GateFailure): void => {
      const redaction = { internal: false, ...(options.piiKey !== undefined && { piiKey: options.piiKey }) };
      const payload = { input: redact(input, agent.input.shape, redaction), ...(output !== undefined && { output: redact(output, agent.output.shape, redaction) }) } as JsonValue;
      const event: AgentEvent = {
        id: randomId("EV"),
        session,
        agent: agent.name,
        type: "agent.run",
        at,
        durationUs: Math.max(0, Math.round((host.performance.now() - started) * 1000)),
        gates: [...gates, { gate: "event_append", outcome: "pass", codes: [] }],
        ...(confidence !== undefined && { confidence }),
        inputHash,
        outcome: failure ? failure.error.class : "ok",
        ...(failure && { code: failure.error.code }),
        payload,
      };
      store.append(event);
    };
    const pass = (gate: Gate): void => void gates.push({ gate, outcome: "pass", codes: [] });
    const refuse = (gate: Gate, verdict: NonNullable<Verdict>): GateFailure => {
      const failure = createFailure(verdict.kind, { contract: verdict.contract, issues: verdict.issues, shape: verdict.shape }, stamp);
      const codes = [...new Set(verdict.issues.map((i) => i.code))];
      gates.push({ gate, outcome: "fail", codes: codes.length > 0 ? codes : [failure.error.code] });
      const refused: GateFailure = {
        ...failure,
        error: { ...failure.error, details: { ...failure.error.details, gate, agent: agent.name } },
        gate,
        agent: agent.name,
        // createFailure keeps each issue's fields, masking only its path: the suggestions are still there.
        issues: failure.issues as readonly GateIssue[],
      };
      record(refused);
      return refused;
    };
    const inContract = agent.input.contract;

    if (read === UNREADABLE) return refuse("schema_in", { kind: "schema", issues: [UNREADABLE_ISSUE], contract: inContract, shape: agent.input.shape });

    const drift = intentVerdict(agent, intent, input);
    if (drift) return refuse("intent_lock", drift);
    pass("intent_lock");

    // `check` first: a valid payload, the usual case, costs no issue list.
    const schema = agent.input.check(input) ? NO_ISSUES : agent.input.errors(input);
    // The contract's own rules are in its validator: a payload failing only those fails the semantic gate, as decode has it.
    const ruled = schema.length > 0 && schema.every((i) => i.code.startsWith("rule."));
    if (schema.length > 0 && !ruled) return refuse("schema_in", { kind: "schema", issues: schema.map((i) => withAllowed(i, agent.input.shape)), contract: inContract, shape: agent.input.shape });
    pass("schema_in");
    if (ruled) return refuse("semantic_in", { kind: "semantic", issues: schema, contract: inContract, shape: agent.input.shape });

    let rules: GateIssue[];
    try {
      rules = await ruleIssues(agent, input);
    } catch (error) {
      // A custom rule that throws (its lookup service down, say) is appended like any refusal, and the host gets its own error.
      refuse("semantic_in", { kind: "rule-failed", issues: [], contract: inContract });
      throw error;
    }
    if (rules.length > 0) return refuse("semantic_in", { kind: "semantic", issues: rules, contract: inContract, shape: agent.input.shape });
    pass("semantic_in");

    const inconsistent = consistencyIssues(agent, input, provided);
    if (inconsistent.length > 0) return refuse("consistency", { kind: "inconsistent", issues: inconsistent, contract: inContract, shape: agent.input.shape });
    pass("consistency");

    if (needsApproval(agent)) {
      const token = runOptions.approval;
      const checked = token === undefined ? ({ ok: false, kind: "approval-missing" } as const) : approvals!.verify(token, { session, agent: agent.name, inputHash });
      if (!checked.ok) return refuse("approval", approvalVerdict(checked.kind, inContract));
      // Consumed only once every other check passed: a refused token stays usable for its own call.
      if (!store.consume(checked.id).ok) return refuse("approval", approvalVerdict("approval-replayed", inContract));
    }
    pass("approval");

    // A mutation with an idempotency key that already succeeded returns that result: the side effect happens once.
    const keyAt = agent.action === "query" || agent.idempotencyKey === undefined ? undefined : agent.idempotencyKey.read(input)[0];
    const ref: IdempotencyRef | undefined = keyAt && { agent: agent.name, key: String(keyAt.value), inputHash };
    const conflict = (): GateFailure =>
      refuse("execute", { kind: "idempotency-conflict", issues: [issue(keyAt!.pointer, "idempotency.conflict", "a key not used before with another input")], contract: inContract, shape: agent.input.shape });
    // From the lookup to the recorded result the key is held: a concurrent run with it in this
    // process waits here; one in another process sharing the store's file is refused by its claim.
    const release = ref && (await holdKey(store, ref));
    let claimed: string | undefined;
    let replayed: boolean;
    try {
      let earlier = ref && store.lookup(ref);
      if (ref && earlier?.ok && !earlier.found && store.claim !== undefined) {
        const holder = randomId("RUN");
        const at = now();
        if (!store.claim(ref, holder, at, at + claimMs).ok) {
          return refuse("execute", { kind: "idempotency-in-progress", issues: [issue(keyAt!.pointer, "idempotency.in_progress", "a key no other run is executing")], contract: inContract, shape: agent.input.shape });
        }
        claimed = holder;
        // The run that held the key before may have recorded its result and released it since the lookup.
        earlier = store.lookup(ref);
      }
      if (earlier && !earlier.ok) return conflict();
      replayed = earlier?.found === true;
      if (earlier?.found) output = earlier.result;
      else {
        try {
          output = await agent.execute(input);
        } catch (error) {
          // The side effect may have happened: the run goes into the store, and the host gets its own error.
          refuse("execute", { kind: "execute-failed", issues: [], contract: inContract });
          throw error;
        }
      }
      // Recorded as soon as the side effect is known to have produced a valid result, before the
      // confidence gate may withhold it: a retry must not run the side effect again either way.
      if (ref && !replayed && agent.output.check(output)) {
        const recorded = store.recordResult(ref, output as JsonValue);
        if (!recorded.ok) return conflict();
      }
    } finally {
      if (claimed !== undefined) store.release?.(ref!, claimed);
      release?.();
    }
    pass("execute");

    const outContract = agent.output.contract;
    const outSchema = agent.output.check(output) ? NO_ISSUES : agent.output.errors(output);
    if (outSchema.length > 0) return refuse("schema_out", { kind: "output-invalid", issues: outSchema, contract: outContract, shape: agent.output.shape });
    pass("schema_out");

    const carried = agent.confidence?.read(output)[0];
    if (carried && typeof carried.value === "number") {
      confidence = carried.value;
      if (confidence < agent.threshold) return refuse("confidence", { kind: "confidence-low", issues: [issue(carried.pointer, "confidence.low", `a confidence of at least ${agent.threshold}`)], contract: outContract, shape: agent.output.shape });
    }
    pass("confidence");

    // The approval an action needs was checked before execute; here the result is classified by
    // its action for the caller, and what it provides is kept for later agents' consistency.
    pass("action_classification");
    keep(provided, agent, output);

    record();
    return { ok: true, output, action: agent.action, replayed };
  };

  return { id: session, run: run as Session<Agents>["run"] };
};
