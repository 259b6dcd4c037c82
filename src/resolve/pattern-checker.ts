// recheck's checker, asked synchronously (resolving is synchronous) at a fraction of its start-up
// cost. recheck's own `checkSync` loads its 2.9 MB JavaScript build on this thread, starts a worker
// that loads it again, and that worker starts recheck's native binary: about 0.5 s of a run's
// critical path before the first verdict. Here a worker of a few lines starts the native binary
// (`recheck agent`, JSON-RPC over its standard input and output) and this thread waits on a
// shared flag for each answer. The verdicts are the binary's either way: recheck's `check` prefers
// the same binary. Where there is none for this platform (recheck falls back to Java or its
// JavaScript build), or the binary fails, recheck's `checkSync` answers as before.
import { createRequire } from "node:module";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { Diagnostics } from "recheck";

/** What recheck's `checkSync` takes besides the pattern and its flags. */
export interface CheckParams {
  readonly checker: "automaton";
  readonly timeout: number;
}

type Check = (source: string, flags: string, params: CheckParams) => Diagnostics;

const require = createRequire(import.meta.url);

/**
 * The worker, as text (`eval`: nothing to build or find beside this file): it starts the agent,
 * passes each request on as one JSON-RPC line, and posts each answer to the port with its id,
 * counting answers in the shared flag. An agent that cannot start, exits or answers what this
 * cannot read answers `{ failed }` from then on.
 */
const WORKER = `
const { workerData, parentPort } = require("node:worker_threads");
const { spawn } = require("node:child_process");
const { bin, port, flag } = workerData;
let failed;
const answer = (message) => {
  port.postMessage(message);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
};
const agent = spawn(bin, ["agent"], { stdio: ["pipe", "pipe", "ignore"], windowsHide: true });
const fail = (why) => {
  if (failed === undefined) failed = why;
  answer({ failed });
};
agent.on("error", (error) => fail(String(error && error.message)));
agent.on("exit", () => fail("the checker exited"));
agent.stdin.on("error", () => undefined);
let buffered = "";
agent.stdout.setEncoding("utf8");
agent.stdout.on("data", (chunk) => {
  const lines = (buffered + chunk).split("\\n");
  buffered = lines.pop();
  for (const line of lines) {
    let reply;
    try {
      reply = JSON.parse(line);
    } catch {
      reply = undefined;
    }
    // An answer, or a log line (none is asked for); anything else is a protocol this does not speak.
    if (reply && typeof reply.id === "number" && reply.result !== undefined) answer({ id: reply.id, result: reply.result });
    else if (!(reply && reply.message !== undefined)) fail("an answer it could not read");
  }
});
parentPort.on("message", (request) => {
  if (failed !== undefined) return answer({ failed });
  agent.stdin.write(JSON.stringify({ jsonrpc: "2.0+push", id: request.id, method: "check", params: request.params }) + "\\n");
});
`;

/** The path of recheck's native binary for this platform, as recheck finds it; undefined when it has none. */
const nativeBinary = (): string | undefined => {
  const given = process.env["RECHECK_BIN"];
  if (given) return given;
  const os = ({ darwin: "macos", linux: "linux", win32: "windows" } as Record<string, string>)[process.platform];
  const arch = ({ x64: "x64", arm64: "arm64" } as Record<string, string>)[process.arch];
  if (os === undefined || arch === undefined) return undefined;
  try {
    // An optional dependency of recheck: resolved from recheck's own folder.
    const fromRecheck = createRequire(require.resolve("recheck"));
    return fromRecheck.resolve(`recheck-${os}-${arch}/package.json`).replace(/package\.json$/, os === "windows" ? "recheck.exe" : "recheck");
  } catch {
    return undefined;
  }
};

/** recheck's own `checkSync`: its build loaded once, on first use. */
let recheckSync: Check | undefined;
const fallback: Check = (source, flags, params) => {
  recheckSync ??= (require("recheck") as typeof import("recheck")).checkSync as Check;
  return recheckSync(source, flags, params);
};

interface Agent {
  readonly worker: Worker;
  readonly port: MessagePort;
  /** How many answers the worker posted. */
  readonly flag: Int32Array;
  next: number;
  /** The pattern each request in flight asks about, by id; and those patterns. */
  readonly asked: Map<number, string>;
  readonly pending: Set<string>;
  /** Answers received and not yet taken, by pattern. */
  readonly answers: Map<string, Diagnostics>;
}

/** Past the checker's own timeout: an agent that has not answered by then is not going to. */
const GRACE_MS = 30_000;

/** Unstarted, running, or retired (null: recheck's `checkSync` answers). */
let agent: Agent | undefined | null;

const startAgent = (): Agent | null => {
  // One that cannot run here (a musl system, say, and the glibc build) fails the first request.
  const bin = nativeBinary();
  if (bin === undefined) return null;
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, { eval: true, execArgv: [], workerData: { bin, port: port2, flag }, transferList: [port2] });
  // Neither keeps the process alive: a run ends when its work does.
  worker.unref();
  port1.unref();
  return { worker, port: port1, flag, next: 0, asked: new Map(), pending: new Set(), answers: new Map() };
};

/** The agent stopped for good: every later pattern goes to recheck's `checkSync`. */
const retire = (current: Agent): void => {
  void current.worker.terminate();
  agent = null;
};

/** Which checker answers now: recheck's native binary here, or recheck's `checkSync` (none started yet: undefined). */
export const answeringChecker = (): "native" | "checkSync" | undefined => (agent === undefined ? undefined : agent === null ? "checkSync" : "native");

/** Starts the checker (in the background: a worker and a process) if it has not started. */
const warmPatternChecker = (): void => {
  agent ??= startAgent();
};

const ask = (current: Agent, source: string, flags: string, params: CheckParams): void => {
  const id = current.next++;
  current.asked.set(id, source);
  current.pending.add(source);
  current.worker.postMessage({ id, params: { source, flags, params } });
};

/**
 * Asks about each of `sources` now, without waiting: the checker works on them (concurrently, in
 * its own process) while this thread goes on, and `checkPattern` finds the answers waiting. Each
 * must later be asked with the same `flags` and `params`.
 */
export const prefetchPatterns = (sources: Iterable<string>, flags: string, params: CheckParams): void => {
  warmPatternChecker();
  const current = agent;
  if (!current) return;
  for (const source of sources) if (!current.pending.has(source) && !current.answers.has(source)) ask(current, source, flags, params);
};

/** Takes in what the worker posted; false when the agent failed. */
const drain = (current: Agent): boolean => {
  for (let received = receiveMessageOnPort(current.port); received !== undefined; received = receiveMessageOnPort(current.port)) {
    const reply = received.message as { id?: number; result?: Diagnostics; failed?: string };
    if (reply.failed !== undefined) return false;
    const source = current.asked.get(reply.id!);
    if (source === undefined) continue;
    current.asked.delete(reply.id!);
    current.pending.delete(source);
    current.answers.set(source, reply.result!);
  }
  return true;
};

/** recheck's diagnostics on `source` with `flags`, from its native binary where it has one. */
export const checkPattern: Check = (source, flags, params) => {
  warmPatternChecker();
  const current = agent;
  if (!current) return fallback(source, flags, params);
  if (!current.answers.has(source) && !current.pending.has(source)) ask(current, source, flags, params);
  const deadline = Date.now() + params.timeout + GRACE_MS;
  for (;;) {
    const seen = Atomics.load(current.flag, 0);
    if (!drain(current)) break;
    const answer = current.answers.get(source);
    if (answer !== undefined) {
      current.answers.delete(source);
      return answer;
    }
    const left = deadline - Date.now();
    if (left <= 0 || Atomics.wait(current.flag, 0, seen, left) === "timed-out") break;
  }
  retire(current);
  return fallback(source, flags, params);
};
