// What a decode tells the outside about itself: one event per stage to a callback, one
// OpenTelemetry span per decode with an event per stage, and counters. Events carry names, paths,
// codes and durations, never a value of the payload. OpenTelemetry is reached through the
// structural interfaces below, so the runtime depends on no package: pass `trace.getTracer(…)`.
import type { ErrorClass, Stage } from "./errors.js";

/** One stage of one decode. */
export interface TraceEvent {
  readonly contract: string;
  /** The known version the payload is read as; absent before the envelope stage has read one. */
  readonly version?: string;
  readonly stage: Stage;
  readonly outcome: "ok" | "fail";
  /** Set when `outcome` is `fail`. */
  readonly errorClass?: ErrorClass;
  readonly errorCode?: string;
  /** Codes of the issues the stage found (`enum`, `rule.before`, …). */
  readonly issueCodes: readonly string[];
  /** Versions from the version read to the canonical one, once known. */
  readonly adapterPath: readonly string[];
  readonly durationUs: number;
  readonly treatyVersion: string;
  /** 1 for a single decode; the attempt number inside `withRepair`. */
  readonly attempt: number;
  readonly traceId?: string;
}

/** OpenTelemetry attribute values the runtime sets (arrays mutable, as OpenTelemetry declares them). */
export type AttributeValue = string | number | boolean | string[];
export type Attributes = { [key: string]: AttributeValue | undefined };

/** The part of an OpenTelemetry `Span` the runtime uses. */
export interface SpanLike {
  setAttributes(attributes: Attributes): unknown;
  addEvent(name: string, attributes?: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/** The part of an OpenTelemetry `Tracer` the runtime uses: `trace.getTracer("my-service")` fits. */
export interface TracerLike {
  startSpan(name: string, options?: { attributes?: Attributes }): SpanLike;
}

/** OpenTelemetry's `SpanStatusCode` values. */
const SPAN_OK = 1;
const SPAN_ERROR = 2;

/** The span of one decode: attributes of the whole decode, an event per stage, ERROR status on failure. */
export const startDecodeSpan = (tracer: TracerLike, contract: string, attempt: number, treatyVersion: string): SpanLike =>
  tracer.startSpan(`treaty.decode ${contract}`, { attributes: { "treaty.contract": contract, "treaty.attempt": attempt, "treaty.release": treatyVersion } });

export const spanEvent = (span: SpanLike, event: TraceEvent): void => {
  span.addEvent(`treaty.${event.stage}`, {
    "treaty.outcome": event.outcome,
    "treaty.issue_codes": [...event.issueCodes],
    "treaty.duration_us": event.durationUs,
    "treaty.error.class": event.errorClass,
  });
};

export const endDecodeSpan = (span: SpanLike, last: TraceEvent): void => {
  span.setAttributes({
    "treaty.contract.version": last.version,
    "treaty.adapter_path": [...last.adapterPath],
    "treaty.outcome": last.outcome,
    "treaty.stage": last.stage,
    "treaty.error.class": last.errorClass,
    "treaty.error.code": last.errorCode,
  });
  span.setStatus(last.outcome === "ok" ? { code: SPAN_OK } : { code: SPAN_ERROR, message: last.errorCode ?? last.stage });
  span.end();
};

/** operation.error 1.0's `trace_id` pattern, at most 64 characters. */
const TRACE_ID = /^TRACE-[A-Za-z0-9-]+$/;
/** A W3C Trace Context trace id: 32 lower-case hex digits, not all zero. */
const W3C_TRACE_ID = /^(?!0{32}$)[0-9a-f]{32}$/;
/** An RFC 9562 UUID, in either case (its hex digits are case-insensitive on input). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The trace id as operation.error 1.0 carries it, or undefined if it is none of the forms a host may
 * pass: a `TRACE-…` id as given; a W3C trace id or a UUID behind `TRACE-`, which the contract's
 * pattern admits, so the wire contract stays 1.0 and the id is still found by searching for it.
 */
export const wireTraceId = (traceId: string): string | undefined =>
  TRACE_ID.test(traceId) ? (traceId.length <= 64 ? traceId : undefined) : W3C_TRACE_ID.test(traceId) || UUID.test(traceId) ? `TRACE-${traceId}` : undefined;
