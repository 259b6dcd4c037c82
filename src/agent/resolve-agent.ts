// One agent file (`*.agent.yaml`) → one `Agent`. Names and paths are only read here; whether they
// exist, and whether their types agree across contracts, is `checkAgents`'s business.
import { isMap, isScalar, type Node } from "yaml";
import {
  AGENT_ACTIONS,
  type Agent,
  type AgentConsumes,
  type AgentContractRef,
  type AgentIntent,
  type AgentPath,
  type AgentRule,
} from "../ir/model.js";
import { reservedAgentName } from "../ir/names.js";
import type { SourceFile } from "../load/load.js";
import { parseRule } from "../resolve/contract.js";
import { checkNameLength } from "../resolve/limits.js";
import { createReader, type Entry, type Reader } from "../resolve/reader.js";

/** How the loader tells an agent file from a contract file. */
export const AGENT_FILE_SUFFIX = ".agent.yaml";
export const isAgentFile = (path: string): boolean => path.endsWith(AGENT_FILE_SUFFIX);

const TOP_KEYS = [
  "agent", "tool", "summary", "description", "owner", "input", "output", "action", "reference", "confidence",
  "provides", "consumes", "intent", "rules",
];
const AGENT_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
/** What every provider takes as a tool name (Anthropic's and OpenAI's rule; MCP's is wider). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CONTRACT_REF = /^([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)@(0|[1-9][0-9]*)$/;
// A segment is any name without `.`, `[` or `]`: those are the path's own syntax.
const AGENT_PATH = /^[^.[\]]+(\[\])?(\.[^.[\]]+(\[\])?)*$/;
const CUSTOM_RULE = /^[a-z][A-Za-z0-9]*$/;

const byKey = (entries: readonly Entry[]): Map<string, Entry> => new Map(entries.map((e) => [e.key, e]));

const contractRef = (r: Reader, node: Node | null, where: string): AgentContractRef | undefined => {
  const text = r.string(node, where);
  if (text === undefined) return undefined;
  const match = CONTRACT_REF.exec(text);
  if (!match) {
    r.report("invalid-name", node, { what: where, name: text, rule: "name@MAJOR (booking.offers@1)" });
    return undefined;
  }
  return { contract: match[1]!, major: Number(match[2]), loc: r.loc(node) };
};

const agentPath = (r: Reader, node: Node | null, where: string): AgentPath | undefined => {
  const path = r.string(node, where);
  if (path === undefined) return undefined;
  if (!AGENT_PATH.test(path)) {
    r.report("invalid-name", node, { what: "field path", name: path, rule: "dotted field names, [] after a list (offers[].offer_id)" });
    return undefined;
  }
  return { path, loc: r.loc(node) };
};

const paths = (r: Reader, node: Node | null, where: string): AgentPath[] =>
  (r.seq(node, where)?.items ?? []).flatMap((item) => agentPath(r, item as Node, `an entry of ${where}`) ?? []);

const parseConsumes = (r: Reader, node: Node | null): AgentConsumes[] =>
  (r.seq(node, "consumes")?.items ?? []).flatMap((item) => {
    const keys = byKey(r.entries(item as Node, "an entry of consumes", ["path", "from", "as"]) ?? []);
    if (!isMap(item)) return [];
    for (const key of ["path", "from", "as"]) if (!keys.has(key)) r.report("missing-key", item as Node, { where: "an entry of consumes", key });
    const path = keys.get("path") && agentPath(r, keys.get("path")!.value, "consumes' path");
    const from = keys.get("from") && r.string(keys.get("from")!.value, "consumes' from");
    const as = keys.get("as") && agentPath(r, keys.get("as")!.value, "consumes' as");
    return path && from !== undefined && as ? [{ path, from, fromLoc: r.loc(keys.get("from")!.value), as, loc: r.loc(item as Node) }] : [];
  });

const parseIntent = (r: Reader, entry: Entry): AgentIntent | undefined => {
  const keys = byKey(r.entries(entry.value, "intent", ["contract", "lock", "serves"]) ?? []);
  if (!isMap(entry.value)) return undefined;
  if (!keys.has("contract")) {
    r.report("missing-key", entry.keyNode, { where: "intent", key: "contract" });
    return undefined;
  }
  const contract = contractRef(r, keys.get("contract")!.value, "the intent contract");
  const lock = (keys.has("lock") ? (r.entries(keys.get("lock")!.value, "intent's lock") ?? []) : []).flatMap((e) => {
    const input = agentPath(r, e.keyNode, "a locked input path");
    const intent = agentPath(r, e.value, "an intent path");
    return input && intent ? [{ input, intent }] : [];
  });
  const serves = (keys.has("serves") ? (r.seq(keys.get("serves")!.value, "intent's serves")?.items ?? []) : []).flatMap((item) => {
    const value = r.string(item as Node, "an intent type");
    return value === undefined ? [] : [{ value, loc: r.loc(item as Node) }];
  });
  return contract && { contract, lock, serves, loc: r.loc(entry.keyNode) };
};

const parseAgentRules = (r: Reader, node: Node | null): AgentRule[] => {
  // Each custom rule is an export of the hand-written file beside `execute`: names must not clash.
  const named = new Set(["execute"]);
  return (r.seq(node, "rules")?.items ?? []).flatMap((item): AgentRule[] => {
    const isCustom = isMap(item) && item.items.some((pair) => isScalar(pair.key) && pair.key.value === "custom");
    if (!isCustom) return [parseRule(r, item as Node) ?? []].flat();
    const keys = byKey(r.entries(item as Node, "a custom rule", ["custom", "description"]) ?? []);
    const name = r.string(keys.get("custom")!.value, "a custom rule's name");
    if (name === undefined) return [];
    if (!CUSTOM_RULE.test(name)) {
      r.report("invalid-name", keys.get("custom")!.value, { what: "custom rule", name, rule: "a camelCase function name (originIsKnown)" });
      return [];
    }
    if (named.has(name)) {
      r.report("duplicate-rule", keys.get("custom")!.value, { name, other: name === "execute" ? "the agent's execute function" : "another custom rule of this agent" });
      return [];
    }
    named.add(name);
    const description = keys.has("description") ? r.string(keys.get("description")!.value, "a rule's description") : undefined;
    return [{ kind: "custom", name, ...(description === undefined ? {} : { description }), loc: r.loc(item as Node) }];
  });
};

const parseConfidence = (r: Reader, entry: Entry): Agent["confidence"] => {
  const keys = byKey(r.entries(entry.value, "confidence", ["threshold", "field"]) ?? []);
  const threshold = keys.has("threshold") ? r.number(keys.get("threshold")!.value, "confidence's threshold") : undefined;
  if (threshold !== undefined && (threshold < 0 || threshold > 1)) {
    r.report("invalid-value", keys.get("threshold")!.value, { where: "confidence's threshold", expected: "a number in [0, 1]" });
  }
  const field = keys.has("field") ? agentPath(r, keys.get("field")!.value, "confidence's field") : undefined;
  return { ...(threshold === undefined ? {} : { threshold }), ...(field ? { field } : {}), loc: r.loc(keys.get("threshold")?.value ?? entry.keyNode) };
};

/** Resolves one agent file; undefined when it is too broken to name an agent and its contracts. */
export const resolveAgent = (file: SourceFile): { agent: Agent | undefined; reader: Reader } => {
  const r = createReader(file);
  const rootNode = file.doc.contents as Node | null;
  const entries = r.entries(rootNode, "an agent", TOP_KEYS);
  if (!entries) return { agent: undefined, reader: r };
  const top = byKey(entries);
  const text = (key: string): string | undefined => (top.has(key) ? r.string(top.get(key)!.value, `'${key}'`) : undefined);
  for (const key of ["agent", "tool", "input", "output", "action"]) if (!top.has(key)) r.report("missing-key", rootNode, { where: "an agent", key });

  const name = text("agent");
  const reserved = name === undefined ? undefined : reservedAgentName(name);
  if (name !== undefined && !AGENT_NAME.test(name)) {
    r.report("invalid-name", top.get("agent")!.value, { what: "agent name", name, rule: "dotted lower-case words (booking.offer_builder)" });
  } else if (name !== undefined && reserved !== undefined) {
    r.report("reserved-name", top.get("agent")!.value, { what: "agent", name, output: `file agents/${name}.ts`, why: reserved });
  } else if (name !== undefined) checkNameLength(r, top.get("agent")!.value, "agent name", name);
  const tool = text("tool");
  if (tool !== undefined && !TOOL_NAME.test(tool)) r.report("invalid-name", top.get("tool")!.value, { what: "tool name", name: tool, rule: String(TOOL_NAME) });
  const input = top.has("input") ? contractRef(r, top.get("input")!.value, "input contract") : undefined;
  const output = top.has("output") ? contractRef(r, top.get("output")!.value, "output contract") : undefined;
  const action = top.has("action") ? r.oneOf(top.get("action")!.value, "'action'", AGENT_ACTIONS) : undefined;
  const reference = top.has("reference") ? r.bool(top.get("reference")!.value, "'reference'") : false;
  const confidence = top.has("confidence") ? parseConfidence(r, top.get("confidence")!) : undefined;
  const intent = top.has("intent") ? parseIntent(r, top.get("intent")!) : undefined;
  const agent: { -readonly [K in keyof Agent]: Agent[K] } | undefined =
    name !== undefined && AGENT_NAME.test(name) && tool !== undefined && input && output && action && reference !== undefined
      ? {
          name,
          tool,
          file: file.path,
          input,
          output,
          action,
          reference,
          provides: top.has("provides") ? paths(r, top.get("provides")!.value, "provides") : [],
          consumes: top.has("consumes") ? parseConsumes(r, top.get("consumes")!.value) : [],
          rules: top.has("rules") ? parseAgentRules(r, top.get("rules")!.value) : [],
          loc: r.loc(top.get("agent")!.keyNode),
          locs: { tool: r.loc(top.get("tool")!.value, top.get("tool")!.keyNode) },
        }
      : undefined;
  if (!agent) return { agent, reader: r };
  for (const key of ["summary", "description", "owner"] as const) {
    const value = text(key);
    if (value !== undefined) agent[key] = value;
  }
  if (confidence) agent.confidence = confidence;
  if (intent) agent.intent = intent;
  return { agent, reader: r };
};
