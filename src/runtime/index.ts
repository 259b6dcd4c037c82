// The runtime that generated code imports as "treaty/runtime". Small and dependency-free.
export { type Issue, MAX_ISSUES, capIssues, escapePointer, nest, truncated } from "./issue.js";
export { MAX_NODES, startWalks, walksLeft } from "./max-nodes.js";
export { dropClaimed, isJsonData, keptKeys } from "./open-objects.js";
export { codePointLength } from "./code-point-length.js";
export { isMultipleOf } from "./multiple-of.js";
export { JSON_DEPTH_LIMIT, jsonFault, type JsonFault } from "./json-value.js";
export { hasDuplicates, jsonEqual } from "./unique.js";
export { checkPolluted, countTaken, ownView, polluted, putKey, readPastMaxNodes, snapshot, startReading, strippedCopy, strippedEntry, takeChecked } from "./snapshot.js";
export { canonicalHash, canonicalJson } from "./canonical-json.js";
export { rebuildRecord } from "./rebuild-record.js";
export { recordOfEntries } from "./record-of-entries.js";
export { isByte, isDate, isDateTime, isDuration, isEmail, isHostname, isInt64, isIpv4, isIpv6, isTime, isUri, isUriTemplate, isUuid } from "./formats.js";
export { isBefore } from "./instants.js";
export {
  AgentNotImplemented,
  agentToTool,
  type AgentAction,
  type AgentContract,
  type AgentFound,
  type AgentPathData,
  type AgentPathSegments,
  type AgentPayload,
  type AgentRuleData,
  type AgentRuleResult,
  type AgentTool,
  type AgentToolProvider,
} from "./agents.js";
export { AdapterNotImplemented, createAdaptLog, filled, unchecked, type AdaptLog, type CustomStep, type FieldAt, type Located } from "./adapters.js";
export {
  createRegistry,
  type CanonicalOf,
  type ContractRegistration,
  type Decoded,
  type Encoded,
  type PayloadOf,
  type ReadOptions,
  type Registry,
  type RegistryOptions,
  type VersionRegistration,
} from "./registry.js";
export { REDACTED, reaskMessage, redact, type RedactOptions } from "./redact.js";
export { type FieldShape, type Sensitivity, type ShapeFields, type ShapeNode, type VersionShape } from "./shape.js";
export { MAX_REPAIRED_LENGTH, REPAIR_FLAGS, repairJson, type JsonValue, type RepairError, type RepairFlag, type RepairResult } from "./repair.js";
export { DECODE_FAILURES, ERROR_CLASSES, FAILURES, GATE_FAILURES, STAGES, type ErrorClass, type Failure, type FailureKind, type OperationError, type Stage } from "./errors.js";
export type { AttributeValue, Attributes, SpanLike, TraceEvent, TracerLike } from "./trace.js";
export type { MeterLike, MetricsSnapshot } from "./metrics.js";
export {
  createRuntime,
  type DecodeOptions,
  type DecodeRecord,
  type HookInput,
  type MaybeAsync,
  type Outcome,
  type PersistSink,
  type PolicyHook,
  type PolicyOutcome,
  type Runtime,
  type RuntimeFailure,
  type RuntimeOptions,
  type RuntimeResult,
  type StateHook,
  type StateOutcome,
} from "./runtime.js";
export { DEFAULT_MAX_ATTEMPTS, type Attempt, type Attempted, type RepairLoop, type RepairRequest } from "./with-repair.js";
export { createApprovals, type ApprovalCall, type ApprovalFailureKind, type ApprovalCheck, type ApprovalOptions, type ApprovalRequest, type ApprovalToken, type Approvals } from "./approvals.js";
export {
  GATES,
  createPipeline,
  type AgentRun,
  type AgentSuccess,
  type Gate,
  type GateFailure,
  type GateIssue,
  type PipelineOptions,
  type RunOptions,
  type Session,
} from "./agent-pipeline.js";
export { callError, createAgentTools, toolError, type AgentTools, type AgentToolsOptions, type ToolCall, type ToolCallResult, type ToolError, type ToolIssue } from "./agent-tools.js";
export {
  runAgentLoop,
  runOpenAIAgentLoop,
  type AnthropicMessage,
  type AnthropicModel,
  type LoopOptions,
  type LoopOutcome,
  type OpenAIAssistantMessage,
  type OpenAIMessage,
  type OpenAIModel,
  type OpenAIToolCall,
  type TextBlock,
  type ToolResultBlock,
  type ToolUseBlock,
} from "./agent-loop.js";
