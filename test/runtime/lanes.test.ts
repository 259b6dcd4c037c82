// The runtime's quick path keeps, per contract, the lane of the version the last payload named,
// and the last contract asked for (runtime.ts, `lanesOf` and `laneOf`). Interleaved decodes of
// several contracts and versions, valid and not, must each come out as they do alone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createRuntime } from "treaty/runtime";
import { registry } from "../../generated/index.js";
import { registry as devices } from "../fixtures/good-sensitive/expected/index.js";

const ROOT = join(import.meta.dirname, "../..");

/** The valid examples of `file` in idl/, by version. */
const examples = (file: string): Map<string, Record<string, unknown>> => {
  const contract = parse(readFileSync(join(ROOT, "idl", file), "utf8")) as { examples: { version: string; valid?: Record<string, unknown> }[] };
  return new Map(contract.examples.filter((e) => e.valid).map((e) => [e.version, e.valid!]));
};

/** An outcome without its error id, which counts occurrences. */
const comparable = (outcome: { ok: boolean }): unknown => JSON.parse(JSON.stringify(outcome, (key, value) => (key === "error_id" ? "ERR" : value)));

describe("decode's lanes", () => {
  const task = examples("task/task.result.yaml");
  const agent = examples("agents/agent.task.yaml");
  const calls: [string, unknown][] = [];
  for (const [version, valid] of task) {
    calls.push(["task.result", valid]);
    calls.push(["task.result", { ...valid, task_id: "no" }]);
    calls.push(["agent.task", valid]);
    calls.push(["task.result", { ...valid, version: "9.9" }]);
    calls.push(["task.result", { ...valid, version: version === "1.0" ? "2.0" : "1.0" }]);
  }
  for (const valid of agent.values()) calls.push(["agent.task", valid], ["agent.task", { ...valid, version: 3 }], ["task.result", valid]);

  it("decode interleaved contracts and versions each as a runtime that decodes it alone", () => {
    expect(task.size).toBeGreaterThanOrEqual(4);
    const shared = createRuntime(registry);
    const outcomes = [...calls, ...[...calls].reverse(), ...calls].map(([contract, value]) => comparable(shared.decode(contract as "task.result", value)));
    const alone = [...calls, ...[...calls].reverse(), ...calls].map(([contract, value]) => comparable(createRuntime(registry).decode(contract as "task.result", value)));
    expect(outcomes).toEqual(alone);
    // Each kind of outcome is there: read as its own version, and refused.
    const read = outcomes.filter((o) => (o as { ok: boolean }).ok) as { readAs: string; contract: string }[];
    expect(new Set(read.map((o) => `${o.contract} ${o.readAs}`))).toEqual(new Set([...[...task.keys()].map((v) => `task.result ${v}`), ...[...agent.keys()].map((v) => `agent.task ${v}`)]));
    const codes = new Set(outcomes.filter((o) => !(o as { ok: boolean }).ok).map((o) => (o as { error: { code: string } }).error.code));
    expect(codes).toEqual(new Set(["SCHEMA_INVALID", "WRONG_CONTRACT", "UNSUPPORTED_VERSION", "ENVELOPE_INVALID"]));
  });

  it("read a payload without an envelope as the version each call names", () => {
    // demo.device 1.1 adds owner_note: valid as 1.1, an unknown field as 1.0.
    const device = { model: "M1", serial: "S-1", pin: "1234", owner_note: "desk" };
    const runtime = createRuntime(devices);
    for (let i = 0; i < 3; i++) {
      const newer = runtime.decode("demo.device", device, { version: "1.1" });
      expect(newer.ok && newer.readAs).toBe("1.1");
      const older = runtime.decode("demo.device", device, { version: "1.0" });
      expect(older.ok ? older.readAs : older.error.code).toBe("SCHEMA_INVALID");
    }
  });
});
