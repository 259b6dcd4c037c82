// OpenTelemetry through the runtime's structural interfaces: a real tracer from the SDK, spans read
// back from its in-memory exporter; a meter stand-in records what the counters add.
import { SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { registry } from "../../generated/index.js";
import { readFileSync } from "node:fs";
import { TREATY_VERSION } from "../../src/version.js";
import { createRuntime, STAGES, type MeterLike } from "treaty/runtime";

const task = (overrides: Record<string, unknown> = {}) => ({
  contract: "task.result",
  version: "1.2",
  task_id: "TASK-123",
  status: "SUCCESS",
  result: { artifact_ref: "artifact://report/1", summary: "Done.", claims: [] },
  ...overrides,
});

const tracing = () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("treaty-test") };
};

describe("treaty's version in traces", () => {
  it("is package.json's, though the runtime cannot read package.json", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(TREATY_VERSION).toBe(manifest.version);
  });
});

describe("OpenTelemetry spans", () => {
  it("records one span per decode with an event per stage", () => {
    const { exporter, tracer } = tracing();
    createRuntime(registry, { tracer }).decode("task.result", task());
    const [span, ...rest] = exporter.getFinishedSpans();
    expect(rest).toEqual([]);
    expect(span!.name).toBe("treaty.decode task.result");
    expect(span!.events.map((e) => e.name)).toEqual(STAGES.map((s) => `treaty.${s}`));
    expect(span!.status.code).toBe(SpanStatusCode.OK);
    expect(span!.attributes).toMatchObject({
      "treaty.contract": "task.result",
      "treaty.contract.version": "1.2",
      "treaty.adapter_path": ["1.2", "2.0"],
      "treaty.outcome": "ok",
      "treaty.release": TREATY_VERSION,
      "treaty.attempt": 1,
    });
  });

  it("marks a failed decode ERROR with its class, code and issue codes", () => {
    const { exporter, tracer } = tracing();
    createRuntime(registry, { tracer }).decode("task.result", task({ status: "DONE" }));
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: "SCHEMA_INVALID" });
    expect(span!.attributes).toMatchObject({ "treaty.stage": "schema", "treaty.error.class": "INVALID_INPUT", "treaty.error.code": "SCHEMA_INVALID" });
    expect(span!.events.at(-1)).toMatchObject({ name: "treaty.schema", attributes: { "treaty.outcome": "fail", "treaty.issue_codes": ["enum"] } });
  });
});

describe("OpenTelemetry counters", () => {
  it("mirrors every counter to the meter with contract and version attributes", () => {
    const added: [string, number, unknown][] = [];
    const meter: MeterLike = { createCounter: (name) => ({ add: (value, attributes) => added.push([name, value, attributes]) }) };
    createRuntime(registry, { meter }).decode("task.result", "```\n" + JSON.stringify(task({ version: "3.0" })) + "\n```");
    expect(added).toEqual([
      ["treaty.repairs_tried", 1, { "treaty.contract": "task.result", "treaty.contract.version": "-" }],
      ["treaty.unsupported_versions", 1, { "treaty.contract": "task.result", "treaty.contract.version": "-" }],
    ]);
  });
});
