// Agent files against the contracts and each other: every name and path an agent uses must exist,
// agree in type across the two contracts it links, and keep the confidence floors of its action.
import { cycleThrough, checkRules } from "../check/check.js";
import { createDiagnostic, type Diagnostic } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { locAt, type Agent, type AgentAction, type AgentContractRef, type AgentPath, type Project, type Rule } from "../ir/model.js";
import { describeType, payloadLabel, payloadOf, resolvePath, sameType, type Located, type Payload } from "./paths.js";

/** The lowest confidence an action may be trusted with (OTAIP's floors). */
const ACTION_FLOORS: Readonly<Record<AgentAction, number>> = { query: 0.7, mutation_reversible: 0.9, mutation_irreversible: 0.95 };
/** A reference agent answers other agents' lookups: its floor is at least this, whatever its action. */
const REFERENCE_FLOOR = 0.9;

/** The floor that binds the agent, and why: the higher of its action's and, for a reference agent, 0.90. */
export const effectiveFloor = (agent: Pick<Agent, "action" | "reference">): { readonly floor: number; readonly reason: string } => {
  const action = ACTION_FLOORS[agent.action];
  return agent.reference && REFERENCE_FLOOR > action
    ? { floor: REFERENCE_FLOOR, reason: "a reference agent" }
    : { floor: action, reason: `a ${agent.action} agent` };
};

/** The threshold the confidence gate applies: the declared one, else the floor. */
export const effectiveThreshold = (agent: Agent): number => agent.confidence?.threshold ?? effectiveFloor(agent).floor;

/** The root field with `role: intent_type`, whose enum values are the intent types agents serve. */
export const intentTypeField = (intent: Payload) => intent.version.fields.find((f) => f.role === "intent_type" && f.type.kind === "enum");

export const checkAgents = (project: Project): Diagnostic[] => {
  const agents = project.agents ?? [];
  const diagnostics: Diagnostic[] = [];
  const report = (...args: Parameters<typeof createDiagnostic>): void => void diagnostics.push(createDiagnostic(...args));
  const byName = new Map<string, Agent>();
  const byTool = new Map<string, Agent>();
  for (const agent of agents) {
    const other = byName.get(agent.name);
    if (other) report("duplicate-agent", agent.loc, { name: agent.name, other: other.file });
    else byName.set(agent.name, agent);
    const sameTool = byTool.get(agent.tool);
    if (sameTool) report("duplicate-tool", locAt(agent, "tool"), { name: agent.tool, other: sameTool.name, file: sameTool.file });
    else byTool.set(agent.tool, agent);
  }

  const payload = (ref: AgentContractRef): Payload | undefined => {
    const found = payloadOf(project, ref);
    if (found) return found;
    const contract = project.contracts.find((c) => c.name === ref.contract);
    if (!contract) report("unknown-contract", ref.loc, { name: ref.contract, suggestion: didYouMean(ref.contract, project.contracts.map((c) => c.name)) });
    else {
      const majors = [...new Set(contract.versions.map((v) => `${ref.contract}@${v.major}`))];
      report("unknown-version", ref.loc, { version: `${ref.major}.x`, contract: ref.contract, suggestion: didYouMean(`${ref.contract}@${ref.major}`, majors) });
    }
    return undefined;
  };
  /** The type at `path` of `at`, or undefined (reported at the path). */
  const typeAt = (at: Payload, path: AgentPath): Located | undefined => {
    const resolved = resolvePath(project, at, path.path);
    if (resolved.ok) return resolved.type;
    report(resolved.code, path.loc, resolved.params);
    return undefined;
  };
  const match = (left: { at: Payload; path: AgentPath; type: Located }, right: { at: Payload; path: AgentPath; type: Located }): void => {
    if (sameType(project, left.type, right.type)) return;
    report("path-type-mismatch", left.path.loc, {
      path: left.path.path,
      where: payloadLabel(left.at),
      type: describeType(project, left.type),
      otherPath: right.path.path,
      otherWhere: payloadLabel(right.at),
      otherType: describeType(project, right.type),
    });
  };

  const outputs = new Map(agents.map((agent) => [agent, payloadOf(project, agent.output)]));
  for (const agent of agents) {
    const input = payload(agent.input);
    const output = payload(agent.output);
    const { floor, reason } = effectiveFloor(agent);
    const threshold = agent.confidence?.threshold;
    if (threshold !== undefined && threshold < floor) report("threshold-below-floor", agent.confidence!.loc, { threshold, floor, reason });
    const field = agent.confidence?.field;
    if (!field && agent.action === "mutation_irreversible") report("confidence-missing", agent.confidence?.loc ?? agent.loc, { name: agent.name });
    if (field && output) {
      const resolved = resolvePath(project, output, field.path);
      if (!resolved.ok) report(resolved.code, field.loc, resolved.params);
      else {
        const type = resolved.type.type;
        const isScore = type.kind === "number" && !resolved.field.optional && (type.min ?? type.exclusiveMin ?? -1) >= 0 && (type.max ?? type.exclusiveMax ?? 2) <= 1;
        if (!isScore) report("confidence-not-a-score", field.loc, { path: field.path, where: payloadLabel(output), type: `${resolved.field.optional ? "optional " : ""}${describeType(project, resolved.type)}` });
      }
    }
    if (output) for (const path of agent.provides) typeAt(output, path);
    // Whatever the input contract: the name is wrong on its own.
    for (const consumed of agent.consumes) {
      if (!byName.has(consumed.from)) report("unknown-agent", consumed.fromLoc, { name: consumed.from, suggestion: didYouMean(consumed.from, byName.keys()) });
    }
    if (input) {
      // Rule forms of contracts take plain dotted paths, so the contract checker's reading applies as is.
      diagnostics.push(...checkRules(input.version, agent.rules.filter((rule): rule is Rule => rule.kind !== "custom"), payloadLabel(input)));
      for (const consumed of agent.consumes) {
        const mine = typeAt(input, consumed.path);
        const producer = byName.get(consumed.from);
        if (!producer) continue;
        if (!producer.provides.some((p) => p.path === consumed.as.path)) {
          report("not-provided", consumed.as.loc, { agent: producer.name, path: consumed.as.path, suggestion: didYouMean(consumed.as.path, producer.provides.map((p) => p.path)) });
          continue;
        }
        const theirs = outputs.get(producer);
        const their = theirs && resolvePath(project, theirs, consumed.as.path);
        if (mine && their?.ok) match({ at: input, path: consumed.path, type: mine }, { at: theirs!, path: consumed.as, type: their.type });
      }
      if (agent.intent) {
        const intent = payload(agent.intent.contract);
        for (const lock of intent ? agent.intent.lock : []) {
          const mine = typeAt(input, lock.input);
          const locked = typeAt(intent!, lock.intent);
          if (mine && locked) match({ at: input, path: lock.input, type: mine }, { at: intent!, path: lock.intent, type: locked });
        }
        if (intent && agent.intent.serves.length > 0) {
          const typeField = intentTypeField(intent);
          const values = typeField?.type.kind === "enum" ? (intent.version.enums.get(typeField.type.name)?.values.map((v) => v.name) ?? []) : undefined;
          if (!values) report("no-intent-type", agent.intent.loc, { where: payloadLabel(intent) });
          for (const served of values ? agent.intent.serves : []) {
            if (!values!.includes(served.value)) {
              report("unknown-enum-value", served.loc, { value: served.value, name: (typeField!.type as { name: string }).name, suggestion: didYouMean(served.value, values!) });
            }
          }
        }
      }
    }
  }

  for (const agent of byName.values()) {
    const cycle = cycleThrough(agent.name, (name) => byName.get(name)?.consumes.map((c) => c.from) ?? []);
    if (cycle) report("consumes-cycle", agent.loc, { name: agent.name, path: cycle.join(" → ") });
  }
  return diagnostics;
};
