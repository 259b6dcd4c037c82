// The agent pipeline on idl/booking: each gate refuses what it exists to refuse, in the documented
// order, before any side effect; approvals are bound and single-use; an idempotency key makes a
// mutation run once; every run lands in the store (in memory and in a SQLite file).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { agents } from "../../generated/agents/index.js";
import * as publishPost from "../../generated/tool.publish_post.command/v1_0/index.js";
import { GATES, canonicalHash, createApprovals, createPipeline, type AgentContract, type AgentRun, type ApprovalToken, type GateFailure } from "../../src/runtime/index.js";
import type { EventStore } from "../../src/store/index.js";
import { openSqliteStore } from "../../src/store-sqlite/index.js";
import { STORE_KINDS, scratchDir } from "../support/stores.js";
import { agentPath } from "../support/agent-paths.js";

const SECRET = "a host secret of at least thirty-two bytes";
const INTENT = { contract: "booking.intent", version: "1.0", intent_type: "BOOK", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY" };
const SEARCH = { contract: "booking.search", version: "1.0", origin: "LHR", destination: "JFK", departure_date: "2030-05-01", cabin: "ECONOMY", passengers: 1 };
const SELECTION = { contract: "booking.offer_selection", version: "1.0", offer_id: "OF-ABC123", passenger_names: ["Ada Lovelace"] };
const ticketRequest = (orderId: string, requestId = "TR-1") => ({ contract: "booking.ticket_request", version: "1.0", request_id: requestId, order_id: orderId });

type Name = keyof typeof agents;

/** The booking agents with every execute wrapped to record its calls; `outputs` replaces what one returns. */
const spied = (outputs: Partial<Record<Name, (output: Record<string, unknown>) => unknown>> = {}) => {
  const calls: { agent: Name; input: unknown }[] = [];
  const wrapped = Object.fromEntries(
    (Object.entries(agents) as [Name, AgentContract][]).map(([name, agent]) => [
      name,
      {
        ...agent,
        execute: async (input: unknown) => {
          calls.push({ agent: name, input });
          const output = (await agent.execute(input)) as Record<string, unknown>;
          return outputs[name] ? outputs[name](output) : output;
        },
      },
    ]),
  ) as unknown as typeof agents;
  return { agents: wrapped, calls };
};

const setup = (options: { store?: EventStore; now?: () => number; outputs?: Parameters<typeof spied>[0]; intent?: unknown; session?: string } = {}) => {
  const clock = { t: Date.parse("2030-04-01T09:00:00.000Z") };
  const now = options.now ?? (() => clock.t);
  const { agents: wrapped, calls } = spied(options.outputs);
  const approvals = createApprovals({ secret: SECRET, now });
  const store = options.store ?? STORE_KINDS[0]!.open();
  const session = createPipeline({ agents: wrapped, intent: options.intent ?? INTENT, store, approvals, now, ...(options.session && { session: options.session }) });
  return { session, approvals, store, calls, clock };
};

/** Runs search and offer builder, so the session knows an offer and an order; returns the order id. */
const upToOrder = async (session: ReturnType<typeof setup>["session"]): Promise<string> => {
  const search = await session.run("booking.availability_search", SEARCH);
  expect(search.ok).toBe(true);
  const order = await session.run("booking.offer_builder", SELECTION);
  if (!order.ok) throw new Error(`offer_builder refused: ${order.error.code}`);
  return order.output.order_id;
};

const refused = (run: AgentRun<unknown>): GateFailure => {
  if (run.ok) throw new Error("expected the call to be refused");
  return run;
};

const ticketCalls = (calls: readonly { agent: Name }[]) => calls.filter((c) => c.agent === "booking.ticket_issuance").length;

/** The contract's scheduled example (publish_at before unpublish_at). */
const PUBLISH = (
  parse(readFileSync(join(import.meta.dirname, "../../idl/tools/tool.publish_post.command.yaml"), "utf8")) as { examples: { description: string; valid?: Record<string, unknown> }[] }
).examples.find((e) => e.description.startsWith("A scheduled post"))!.valid!;

describe("createPipeline: the gates", () => {
  it("refuses a fabricated offer id at cross-agent consistency, before offer_builder runs", async () => {
    const { session, calls } = setup();
    await session.run("booking.availability_search", SEARCH);
    const failure = refused(await session.run("booking.offer_builder", { ...SELECTION, offer_id: "OF-ZZZ999" }));
    expect([failure.gate, failure.error.code, failure.error.class]).toEqual(["consistency", "CONSISTENCY_VIOLATED", "INVALID_INPUT"]);
    expect(failure.issues.map((i) => [i.path, i.code])).toEqual([["/offer_id", "consistency.not_provided"]]);
    expect(failure.error.details).toMatchObject({ gate: "consistency", agent: "booking.offer_builder" });
    expect(calls.map((c) => c.agent)).toEqual(["booking.availability_search"]);
  });

  it("refuses an offer id before any search ran, suggesting the producing agent", async () => {
    const { session, calls } = setup();
    const failure = refused(await session.run("booking.offer_builder", SELECTION));
    expect(failure.issues[0]!.suggestion).toContain("booking.availability_search");
    expect(calls).toEqual([]);
  });

  it("refuses an intent drift (another destination) at the intent lock", async () => {
    const { session, calls } = setup();
    const failure = refused(await session.run("booking.availability_search", { ...SEARCH, destination: "CDG" }));
    expect([failure.gate, failure.error.code]).toEqual(["intent_lock", "INTENT_DRIFT"]);
    expect(failure.issues.map((i) => [i.path, i.code])).toEqual([["/destination", "intent.locked"]]);
    expect(calls).toEqual([]);
  });

  it("refuses an agent whose intent types do not include the session's, and a session without an intent", async () => {
    const change = refused(await setup({ intent: { ...INTENT, intent_type: "CHANGE" } }).session.run("booking.offer_builder", SELECTION));
    expect([change.gate, change.error.code]).toEqual(["intent_lock", "INTENT_NOT_SERVED"]);
    const none = refused(await setup({ intent: { contract: "booking.intent" } }).session.run("booking.availability_search", SEARCH));
    expect([none.gate, none.error.code]).toEqual(["intent_lock", "INTENT_MISSING"]);
  });

  it("reports the earlier gate when a payload fails two: a drifted destination and a passenger count of 0", async () => {
    const { session } = setup();
    const both = refused(await session.run("booking.availability_search", { ...SEARCH, destination: "CDG", passengers: 0 }));
    expect([both.gate, both.error.code]).toEqual(["intent_lock", "INTENT_DRIFT"]);
    const schema = refused(await session.run("booking.availability_search", { ...SEARCH, passengers: 0 }));
    expect([schema.gate, schema.error.code, schema.issues.map((i) => i.path)]).toEqual(["schema_in", "SCHEMA_INVALID", ["/passengers"]]);
  });

  it("suggests the allowed enum values with their meanings where schema in failed at an enum", async () => {
    // Without its intent lock, which would refuse a cabin the intent does not name first.
    const search = { ...agents["booking.availability_search"], intent: undefined };
    const session = createPipeline({ agents: { search }, store: STORE_KINDS[0]!.open() });
    const failure = refused(await session.run("search", { ...SEARCH, cabin: "FIRST" }));
    expect(failure.gate).toBe("schema_in");
    expect(failure.issues).toEqual([expect.objectContaining({ path: "/cabin", code: "enum", suggestion: "One of: ECONOMY (Economy cabin.); BUSINESS (Business cabin.)" })]);
  });

  it("runs a custom rule through the hand-written function: a past departure fails semantic in", async () => {
    const { session, calls } = setup({ intent: { ...INTENT, departure_date: "2001-01-01" } });
    const failure = refused(await session.run("booking.availability_search", { ...SEARCH, departure_date: "2001-01-01" }));
    expect([failure.gate, failure.error.code, failure.issues.map((i) => [i.path, i.code])]).toEqual(["semantic_in", "RULE_VIOLATED", [["/departure_date", "rule.departureIsInTheFuture"]]]);
    expect(failure.issues[0]!.suggestion).toMatch(/^A day after /);
    expect(calls).toEqual([]);
  });

  it("fails semantic in, not schema in, when the input breaks only its contract's own rules, as decode classifies it", async () => {
    const post = {
      ...agents["booking.availability_search"],
      intent: undefined,
      rules: [],
      input: { contract: "tool.publish_post.command", version: "1.0", check: publishPost.check, errors: publishPost.errors, shape: publishPost.shape },
    };
    const session = createPipeline({ agents: { post }, store: STORE_KINDS[0]!.open() });
    const late = { ...PUBLISH, publish_at: "2030-05-08T09:00:00Z", unpublish_at: "2030-05-01T09:00:00Z" };
    const failure = refused(await session.run("post", late));
    expect([failure.gate, failure.error.code, failure.issues.map((i) => [i.path, i.code])]).toEqual(["semantic_in", "RULE_VIOLATED", [["/unpublish_at", "rule.before"]]]);
    const both = refused(await session.run("post", { ...late, mode: "LATER" }));
    expect([both.gate, both.error.code]).toEqual(["schema_in", "SCHEMA_INVALID"]);
  });

  it("masks a custom rule's path as every issue's: a pointer the input declares stays, anything else becomes *", async () => {
    const search = agents["booking.availability_search"];
    for (const [given, reported] of [["/origin", "/origin"], ["", ""], ["origin", "*"], ["/secret_key", "/*"]] as const) {
      const rule: AgentContract["rules"][number] = { kind: "custom", name: "probe", check: async () => ({ ok: false, path: given, message: "no" }) };
      const session = createPipeline({ agents: { search: { ...search, intent: undefined, rules: [rule] } }, store: STORE_KINDS[0]!.open() });
      const failure = refused(await session.run("search", SEARCH));
      expect(failure.gate).toBe("semantic_in");
      expect(failure.issues[0]!.path).toBe(reported);
    }
  });

  const field = (name: string) => agentPath(name, [name]);
  const ruleCases: [string, AgentContract["rules"][number], string, string][] = [
    ["before", { kind: "before", first: field("departure_date"), second: field("departure_date") }, "/departure_date", "rule.before"],
    ["exclusive", { kind: "exclusive", fields: [field("cabin"), field("origin"), field("destination")] }, "/origin", "rule.exclusive"],
    // booking.search declares no optional field: the missing one is undeclared, so its name is masked like any key that may be data.
    ["requires", { kind: "requires", if: field("cabin"), then: [field("origin"), field("return_date")] }, "/*", "rule.requires"],
  ];
  it.each(ruleCases)("checks a declared %s rule at semantic in, before execute", async (_, rule, path, code) => {
    const { agents: wrapped, calls } = spied();
    const search = { ...wrapped["booking.availability_search"], rules: [rule] };
    const failure = refused(await createPipeline({ agents: { search }, intent: INTENT, store: STORE_KINDS[0]!.open() }).run("search", SEARCH));
    expect([failure.gate, failure.issues.map((i) => [i.path, i.code])]).toEqual(["semantic_in", [[path, code]]]);
    expect(calls).toEqual([]);
  });

  it("withholds a result whose confidence is below the agent's threshold", async () => {
    const { session, calls } = setup({ outputs: { "booking.availability_search": (o) => ({ ...o, confidence: 0.79 }) } });
    const failure = refused(await session.run("booking.availability_search", SEARCH));
    expect([failure.gate, failure.error.code, failure.issues.map((i) => i.path)]).toEqual(["confidence", "CONFIDENCE_TOO_LOW", ["/confidence"]]);
    expect("output" in failure).toBe(false);
    expect(calls).toHaveLength(1);
    // A withheld search provides nothing: the offer it returned cannot be built on.
    expect(refused(await session.run("booking.offer_builder", SELECTION)).gate).toBe("consistency");
  });

  it("passes a result at the threshold", async () => {
    const { session } = setup({ outputs: { "booking.availability_search": (o) => ({ ...o, confidence: agents["booking.availability_search"].threshold }) } });
    expect((await session.run("booking.availability_search", SEARCH)).ok).toBe(true);
  });

  it("refuses an output that breaks its contract at schema out", async () => {
    const { session } = setup({ outputs: { "booking.availability_search": (o) => ({ ...o, confidence: 2 }) } });
    const failure = refused(await session.run("booking.availability_search", SEARCH));
    expect([failure.gate, failure.error.code, failure.issues.map((i) => i.path)]).toEqual(["schema_out", "OUTPUT_INVALID", ["/confidence"]]);
  });
});

describe("createPipeline: a custom rule that throws or answers out of shape", () => {
  const withRule = (check: () => Promise<unknown>) => {
    const { agents: wrapped, calls } = spied();
    const rule = { kind: "custom", name: "known", check } as unknown as AgentContract["rules"][number];
    const search = { ...wrapped["booking.availability_search"], rules: [rule] };
    const store = STORE_KINDS[0]!.open();
    return { session: createPipeline({ agents: { search }, intent: INTENT, store }), store, calls };
  };

  it("appends a RULE_FAILED event, does not execute, and rethrows the host's own error", async () => {
    const boom = new Error("lookup service down");
    const { session, store, calls } = withRule(() => Promise.reject(boom));
    await expect(session.run("search", SEARCH)).rejects.toBe(boom);
    expect(store.query().map((e) => [e.outcome, e.code, e.gates.at(-2)])).toEqual([["TRANSIENT", "RULE_FAILED", { gate: "semantic_in", outcome: "fail", codes: ["RULE_FAILED"] }]]);
    expect(calls).toEqual([]);
  });

  it.each([
    ["no path", { ok: false, message: "no" }],
    ["a path that is not a string", { ok: false, path: 3, message: "no" }],
    ["no ok", { fine: true }],
    ["nothing", undefined],
  ])("names the rule in a TypeError for a result with %s, and appends RULE_FAILED", async (_what, result) => {
    const { session, store, calls } = withRule(async () => result);
    await expect(session.run("search", SEARCH)).rejects.toThrow(/^custom rule known of booking\.availability_search returned .*, not \{ ok: true \}/);
    expect(store.query().map((e) => e.code)).toEqual(["RULE_FAILED"]);
    expect(calls).toEqual([]);
  });
});

describe("createPipeline: an execute that throws", () => {
  it("appends an EXECUTE_FAILED event and rethrows the host's own error", async () => {
    const store = STORE_KINDS[0]!.open();
    const boom = new Error("airline down");
    const search = { ...agents["booking.availability_search"], execute: async () => Promise.reject(boom) };
    const session = createPipeline({ agents: { search }, intent: INTENT, store });
    await expect(session.run("search", SEARCH)).rejects.toBe(boom);
    expect(store.query().map((e) => [e.outcome, e.code, e.gates.at(-2)])).toEqual([["TRANSIENT", "EXECUTE_FAILED", { gate: "execute", outcome: "fail", codes: ["EXECUTE_FAILED"] }]]);
  });
});

describe("createPipeline: approvals", () => {
  const attempt = async (token: (approvals: ReturnType<typeof setup>["approvals"], order: string, sessionId: string) => unknown, advance = 0) => {
    const context = setup();
    const order = await upToOrder(context.session);
    const approval = token(context.approvals, order, context.session.id) as ApprovalToken;
    context.clock.t += advance;
    const run = await context.session.run("booking.ticket_issuance", ticketRequest(order), { approval });
    return { run, calls: context.calls, context, order };
  };
  const issue = (approvals: ReturnType<typeof setup>["approvals"], session: string, agent: string, input: unknown, ttl = 60_000) => approvals.issue({ session, agent, input, ttl });

  it("tickets with an approval for this session, agent and input", async () => {
    const { run, calls } = await attempt((a, order, s) => issue(a, s, "booking.ticket_issuance", ticketRequest(order)));
    expect(run.ok).toBe(true);
    expect(ticketCalls(calls)).toBe(1);
  });

  const cases: [string, string, Parameters<typeof attempt>[0], number?][] = [
    ["no approval", "APPROVAL_MISSING", () => undefined],
    ["an approval for another input", "APPROVAL_WRONG_INPUT", (a, order, s) => issue(a, s, "booking.ticket_issuance", ticketRequest(order, "TR-2"))],
    ["an approval for another session", "APPROVAL_WRONG_SESSION", (a, order) => issue(a, "SES-other", "booking.ticket_issuance", ticketRequest(order))],
    ["an approval for another agent", "APPROVAL_WRONG_AGENT", (a, order, s) => issue(a, s, "booking.offer_builder", ticketRequest(order))],
    ["an expired approval", "APPROVAL_EXPIRED", (a, order, s) => issue(a, s, "booking.ticket_issuance", ticketRequest(order), 1000), 1000],
    ["a forged approval (its claims changed after signing)", "APPROVAL_FORGED", (a, order, s) => ({ ...issue(a, s, "booking.ticket_issuance", ticketRequest(order), 1000), expiresAt: Date.parse("2031-01-01") })],
    [
      "an approval signed with another secret",
      "APPROVAL_FORGED",
      (_, order, s) => issue(createApprovals({ secret: `${SECRET} but another`, now: () => Date.parse("2030-04-01T09:00:00.000Z") }), s, "booking.ticket_issuance", ticketRequest(order)),
    ],
    ["a string instead of a token", "APPROVAL_FORGED", () => "approved"],
  ];
  it.each(cases)("refuses %s with %s, and ticketing never executes", async (_, code, token, advance) => {
    const { run, calls } = await attempt(token, advance);
    const failure = refused(run);
    expect([failure.gate, failure.error.code, failure.error.class]).toEqual(["approval", code, "PERMISSION_DENIED"]);
    expect(failure.issues).toEqual([expect.objectContaining({ path: "", code: expect.stringMatching(/^approval\./), suggestion: expect.stringContaining("approve") })]);
    expect(ticketCalls(calls)).toBe(0);
  });

  it("refuses a fabricated order id at consistency before it looks at the approval (missing here), and ticketing never executes", async () => {
    const { session, calls } = setup();
    await upToOrder(session);
    const failure = refused(await session.run("booking.ticket_issuance", ticketRequest("OR-ZZZZ9999")));
    expect([failure.gate, failure.error.code]).toEqual(["consistency", "CONSISTENCY_VIOLATED"]);
    expect(ticketCalls(calls)).toBe(0);
  });

  it("accepts a token that went through JSON, as a host that stores it does", async () => {
    const { run } = await attempt((a, order, s) => JSON.parse(JSON.stringify(issue(a, s, "booking.ticket_issuance", ticketRequest(order)))));
    expect(run.ok).toBe(true);
  });

  it("accepts an approval until the instant before it expires", async () => {
    const { run } = await attempt((a, order, s) => issue(a, s, "booking.ticket_issuance", ticketRequest(order), 1000), 999);
    expect(run.ok).toBe(true);
  });

  it("refuses a replayed approval, even for the call it was issued for", async () => {
    const { context, order } = await attempt((a, o, s) => issue(a, s, "booking.ticket_issuance", ticketRequest(o)));
    const approval = issue(context.approvals, context.session.id, "booking.ticket_issuance", ticketRequest(order, "TR-9"));
    expect((await context.session.run("booking.ticket_issuance", ticketRequest(order, "TR-9"), { approval })).ok).toBe(true);
    const replay = refused(await context.session.run("booking.ticket_issuance", ticketRequest(order, "TR-9"), { approval }));
    expect([replay.gate, replay.error.code]).toEqual(["approval", "APPROVAL_REPLAYED"]);
    expect(ticketCalls(context.calls)).toBe(2);
  });

  it("asks approvals of a reversible agent the host names, and refuses to build a pipeline that needs approvals without them", async () => {
    const store = STORE_KINDS[0]!.open();
    const approvals = createApprovals({ secret: SECRET });
    const session = createPipeline({ agents, intent: INTENT, store, approvals, approve: ["booking.offer_builder"] });
    await session.run("booking.availability_search", SEARCH);
    expect(refused(await session.run("booking.offer_builder", SELECTION)).error.code).toBe("APPROVAL_MISSING");
    const approval = approvals.issue({ session: session.id, agent: "booking.offer_builder", input: SELECTION, ttl: 60_000 });
    expect((await session.run("booking.offer_builder", SELECTION, { approval })).ok).toBe(true);
    expect(() => createPipeline({ agents, intent: INTENT, store })).toThrow(/booking.ticket_issuance needs approvals/);
    expect(() => createApprovals({ secret: "short" })).toThrow(TypeError);
  });
});

describe("createPipeline: idempotency", () => {
  it("executes the same ticketing call twice with one idempotency key once, returning the recorded result", async () => {
    const { session, approvals, calls } = setup();
    const order = await upToOrder(session);
    const input = ticketRequest(order);
    const runs = [];
    for (let i = 0; i < 2; i++) runs.push(await session.run("booking.ticket_issuance", input, { approval: approvals.issue({ session: session.id, agent: "booking.ticket_issuance", input, ttl: 60_000 }) }));
    const [first, second] = runs.map((run) => (run.ok ? run : expect.fail(`refused: ${run.error.code}`)));
    expect([first!.replayed, second!.replayed]).toEqual([false, true]);
    expect(second!.output).toEqual(first!.output);
    expect(ticketCalls(calls)).toBe(1);
  });

  it("refuses the same key with another input as CONFLICT, without executing", async () => {
    let built = 0;
    const { session, approvals, calls } = setup({ outputs: { "booking.offer_builder": (o) => ({ ...o, order_id: `OR-ABC1230${built++}` }) } });
    const first = await upToOrder(session);
    const second = await session.run("booking.offer_builder", SELECTION);
    if (!second.ok) throw new Error("offer_builder refused");
    const run = (input: ReturnType<typeof ticketRequest>) =>
      session.run("booking.ticket_issuance", input, { approval: approvals.issue({ session: session.id, agent: "booking.ticket_issuance", input, ttl: 60_000 }) });
    expect((await run(ticketRequest(first))).ok).toBe(true);
    const conflict = refused(await run(ticketRequest(second.output.order_id)));
    expect([conflict.gate, conflict.error.code, conflict.error.class, conflict.issues.map((i) => i.path)]).toEqual(["execute", "IDEMPOTENCY_CONFLICT", "CONFLICT", ["/request_id"]]);
    expect((await run(ticketRequest(second.output.order_id, "TR-2"))).ok).toBe(true);
    expect(ticketCalls(calls)).toBe(2);
  });
});

describe.each(STORE_KINDS)("createPipeline: concurrent calls with one idempotency key, in the $name store", (kind) => {
  it("executes once: the others wait, then replay its result or are refused as CONFLICT", async () => {
    const store = kind.open();
    // An execute that takes a while, so the calls overlap.
    const slow = (o: Record<string, unknown>) => new Promise((resolve) => setTimeout(() => resolve(o), 20));
    let built = 0;
    const { session, approvals, calls } = setup({ store, outputs: { "booking.ticket_issuance": slow, "booking.offer_builder": (o) => ({ ...o, order_id: `OR-ABC1230${built++}` }) } });
    const order = await upToOrder(session);
    const run = (input: ReturnType<typeof ticketRequest>) =>
      session.run("booking.ticket_issuance", input, { approval: approvals.issue({ session: session.id, agent: "booking.ticket_issuance", input, ttl: 60_000 }) });
    const same = ticketRequest(order);
    const other = ticketRequest(await (async () => {
      const second = await session.run("booking.offer_builder", SELECTION);
      return second.ok ? second.output.order_id : expect.fail("offer_builder refused");
    })());
    const runs = await Promise.all([run(same), run(same), run({ ...other, request_id: same.request_id }), run(same)]);
    expect(ticketCalls(calls)).toBe(1);
    expect(runs.map((r) => (r.ok ? (r.replayed ? "replayed" : "ran") : r.error.code))).toEqual(["ran", "replayed", "IDEMPOTENCY_CONFLICT", "replayed"]);
    // Every run, the refused one included, is in the store.
    expect(store.query({ agent: "booking.ticket_issuance" }).map((e) => e.code ?? e.outcome).sort()).toEqual(["IDEMPOTENCY_CONFLICT", "ok", "ok", "ok"]);
  });
});

describe("createPipeline: one idempotency key across connections to one SQLite file (as across processes)", () => {
  const sqlite = STORE_KINDS.find((k) => k.name === "sqlite")!;

  it("executes once: a run through another connection is IDEMPOTENCY_IN_PROGRESS (retryable) and replays once the first recorded", async () => {
    const path = join(scratchDir(), "shared.sqlite");
    // Two pipelines, each with its own connection to one file: nothing in this process holds them apart but the file.
    const slow = (o: Record<string, unknown>) => new Promise((resolve) => setTimeout(() => resolve(o), 40));
    const a = setup({ store: openSqliteStore(path), outputs: { "booking.ticket_issuance": slow } });
    const b = setup({ store: openSqliteStore(path), session: "SES-other" });
    const input = ticketRequest(await upToOrder(a.session));
    expect(await upToOrder(b.session)).toBe(input.order_id);
    const run = (side: typeof a) => side.session.run("booking.ticket_issuance", input, { approval: side.approvals.issue({ session: side.session.id, agent: "booking.ticket_issuance", input, ttl: 60_000 }) });
    const running = run(a);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const other = refused(await run(b));
    expect([other.error.code, other.error.retryable]).toEqual(["IDEMPOTENCY_IN_PROGRESS", true]);
    expect((await running).ok).toBe(true);
    const retry = await run(b);
    expect(retry.ok && retry.replayed).toBe(true);
    expect(ticketCalls(a.calls) + ticketCalls(b.calls)).toBe(1);
  });

  it("refuses a run while another holds the key, and runs once that claim has run out", async () => {
    const store = sqlite.open();
    const { session, approvals, calls, clock } = setup({ store });
    const order = await upToOrder(session);
    const input = ticketRequest(order);
    const ref = { agent: "booking.ticket_issuance", key: input.request_id, inputHash: canonicalHash(input) };
    // A run in another process that claimed the key, then died.
    expect(store.claim!(ref, "RUN-dead", clock.t, clock.t + 60_000)).toEqual({ ok: true });
    const approval = () => approvals.issue({ session: session.id, agent: "booking.ticket_issuance", input, ttl: 600_000 });
    const refusedRun = refused(await session.run("booking.ticket_issuance", input, { approval: approval() }));
    expect([refusedRun.gate, refusedRun.error.code, refusedRun.error.class, refusedRun.error.retryable, refusedRun.issues.map((i) => [i.path, i.code])]).toEqual([
      "execute",
      "IDEMPOTENCY_IN_PROGRESS",
      "TRANSIENT",
      true,
      [["/request_id", "idempotency.in_progress"]],
    ]);
    expect(ticketCalls(calls)).toBe(0);
    clock.t += 60_000;
    const run = await session.run("booking.ticket_issuance", input, { approval: approval() });
    expect(run.ok && !run.replayed).toBe(true);
    expect(ticketCalls(calls)).toBe(1);
  });
});

describe.each(STORE_KINDS)("createPipeline: inputs JSON cannot hold, in the $name store", (kind) => {
  it("refuses NaN and ±Infinity at schema in and appends the run's event, their values redacted", async () => {
    const store = kind.open();
    try {
      const { session, calls } = setup({ store, session: "SES-nonfinite" });
      for (const passengers of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        const failure = refused(await session.run("booking.availability_search", { ...SEARCH, passengers }));
        expect([failure.gate, failure.error.code]).toEqual(["schema_in", "SCHEMA_INVALID"]);
      }
      const events = store.query({ session: "SES-nonfinite" });
      expect(events.map((e) => [e.code, (e.payload as { input: { passengers: unknown } }).input.passengers])).toEqual([
        ["SCHEMA_INVALID", "[redacted]"],
        ["SCHEMA_INVALID", "[redacted]"],
        ["SCHEMA_INVALID", "[redacted]"],
      ]);
      // No JSON value holds them: none hashes like null (JSON.stringify would print null).
      expect(events.map((e) => e.inputHash)).not.toContain(canonicalHash({ ...SEARCH, passengers: null }));
      expect(calls).toEqual([]);
    } finally {
      kind.cleanup();
    }
  });

  it("refuses a value that cannot be read (a getter that throws) at schema in, and hands execute the copy it checked", async () => {
    const store = kind.open();
    try {
      const { session, calls } = setup({ store, session: "SES-unreadable" });
      const hostile = Object.defineProperty({ ...SEARCH }, "passengers", { enumerable: true, get: () => { throw new Error("boom"); } });
      const failure = refused(await session.run("booking.availability_search", hostile));
      expect([failure.gate, failure.issues.map((i) => [i.path, i.code])]).toEqual(["schema_in", [["", "parse"]]]);
      expect(store.query({ session: "SES-unreadable" }).map((e) => e.code)).toEqual(["SCHEMA_INVALID"]);
      // A getter that answers 1 the first time and 0 after: the copy the gates checked is what runs.
      let reads = 0;
      const shifty = Object.defineProperty({ ...SEARCH }, "passengers", { enumerable: true, get: () => (reads++ === 0 ? 1 : 0) });
      expect((await session.run("booking.availability_search", shifty)).ok).toBe(true);
      expect(calls.map((c) => (c.input as { passengers: number }).passengers)).toEqual([1]);
    } finally {
      kind.cleanup();
    }
  });
});

describe.each(STORE_KINDS)("createPipeline: events in the $name store", (kind) => {
  afterAll(() => kind.cleanup());

  it("appends one event per run, with its gates in order, duration, confidence, input hash, outcome and a redacted payload", async () => {
    const store = kind.open();
    try {
      // A clock that ticks on every reading, so the events' `at` order is the runs' order.
      let t = Date.parse("2030-04-01T09:00:00.000Z");
      const { session, approvals } = setup({ store, session: "SES-events", now: () => t++ });
      const order = await upToOrder(session);
      await session.run("booking.ticket_issuance", ticketRequest(order));
      const input = ticketRequest(order);
      await session.run("booking.ticket_issuance", input, { approval: approvals.issue({ session: session.id, agent: "booking.ticket_issuance", input, ttl: 60_000 }) });
      const events = store.query({ session: "SES-events" });
      expect(events.map((e) => [e.agent, e.outcome, e.code])).toEqual([
        ["booking.availability_search", "ok", undefined],
        ["booking.offer_builder", "ok", undefined],
        ["booking.ticket_issuance", "PERMISSION_DENIED", "APPROVAL_MISSING"],
        ["booking.ticket_issuance", "ok", undefined],
      ]);
      expect(events[3]!.gates.map((g) => g.gate)).toEqual([...GATES]);
      expect(events[2]!.gates.map((g) => [g.gate, g.outcome])).toEqual([
        ["intent_lock", "pass"],
        ["schema_in", "pass"],
        ["semantic_in", "pass"],
        ["consistency", "pass"],
        ["approval", "fail"],
        ["event_append", "pass"],
      ]);
      expect(events.map((e) => e.confidence)).toEqual([0.9, 0.97, undefined, 0.99]);
      expect(events.every((e) => Number.isSafeInteger(e.durationUs) && e.durationUs >= 0)).toBe(true);
      const { canonicalHash } = await import("../../src/runtime/index.js");
      expect(events[0]!.inputHash).toBe(canonicalHash(SEARCH));
      // passenger_names is pii: the stored payload has its marker, never the names.
      const stored = JSON.stringify(events[1]!.payload);
      expect(stored).not.toContain("Ada Lovelace");
      expect(stored).toMatch(/\[pii:[0-9a-f]{16}\]/);
      expect(store.aggregate({ session: "SES-events", agent: "booking.ticket_issuance" }).count).toBe(2);
    } finally {
      store.close();
    }
  });
});
