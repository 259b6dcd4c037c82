// `agents/<agent>.ts`: one agent's contract as typed data, with its tools built from the input
// contract's LLM projections; `agents/index.ts`: every agent by name.
import { effectiveFloor, effectiveThreshold, intentTypeField } from "../agent/check-agents.js";
import { pathSegments, payloadOf, type Payload } from "../agent/paths.js";
import type { Agent, AgentContractRef, AgentPath, JsonValue, LlmProvider, Project } from "../ir/model.js";
import { bindingName, contractDir, rootTypeName, versionId } from "../ir/names.js";
import { paragraphs, projectVersion } from "../project/project.js";
import { createFileBuilder, type EmittedFile, type FileBuilder } from "./file-builder.js";

/** Where an agent's module is, relative to the output root. */
export const agentFile = (agent: string): string => `agents/${agent}.ts`;

const TOOL_PROVIDERS = ["anthropic", "openai", "mcp"] as const satisfies readonly LlmProvider[];

/** Source text of a value: JSON, except `Code` pieces, which are printed as written. */
class Code {
  constructor(readonly text: string) {}
}
type Literal = JsonValue | Code | undefined | readonly Literal[] | { readonly [key: string]: Literal };
const print = (value: Literal): string => {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map(print).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${print(v as Literal)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
};

const segments = (path: string): string[] => pathSegments(path).flatMap((s) => (s.items ? [s.name, "[]"] : [s.name]));

/** A key as a JSON pointer spells it (`~0`, `~1`). */
const pointerText = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * The reader of one path as a function `name` of straight-line code: one test per step (an own key
 * of an object, or each item of a list) and the values found with their JSON pointers.
 * `["offers", "[]", "offer_id"]` reads `value.offers[i].offer_id` for every `i`, at `/offers/<i>/offer_id`.
 * Written as statements prettier's layout keeps (code-layout.ts prints them): a cast read from, the
 * pointer put together with `+`.
 */
export const pathReader = (name: string, steps: readonly string[]): string => {
  const lines = ["const found: AgentFound[] = [];"];
  let depth = 0;
  const line = (text: string): void => {
    lines.push(`${"  ".repeat(depth)}${text}`);
  };
  // The pointer's parts: text, and the index variables of the lists stepped into.
  const pointer: string[] = [];
  let text = "";
  let current = "value";
  steps.forEach((step, i) => {
    const next = `v${i + 1}`;
    if (step === "[]") {
      const index = `i${i + 1}`;
      line(`if (Array.isArray(${current})) for (let ${index} = 0; ${index} < ${current}.length; ${index}++) {`);
      depth++;
      line(`const ${next}: unknown = ${current}[${index}];`);
      pointer.push(JSON.stringify(`${text}/`), index);
      text = "";
    } else {
      const key = JSON.stringify(step);
      line(`if (typeof ${current} === "object" && ${current} !== null && !Array.isArray(${current}) && Object.prototype.hasOwnProperty.call(${current}, ${key})) {`);
      depth++;
      line(`const ${next}: unknown = (${current} as Record<string, unknown>)[${key}];`);
      text += `/${pointerText(step)}`;
    }
    current = next;
  });
  if (text !== "" || pointer.length === 0) pointer.push(JSON.stringify(text));
  line(`found.push({ pointer: ${pointer.join(" + ")}, value: ${current} });`);
  while (depth > 0) {
    depth--;
    line("}");
  }
  lines.push("return found;");
  return `function ${name}(value: unknown): AgentFound[] {\n${lines.map((l) => `  ${l}`).join("\n")}\n}`;
};

/** The paths of one agent, each with a reader of its own (`readPath1`...), one per distinct path. */
const createPaths = () => {
  const readers = new Map<string, { readonly name: string; readonly code: string }>();
  return {
    data: (path: AgentPath | string) => {
      const text = typeof path === "string" ? path : path.path;
      const steps = segments(text);
      const key = JSON.stringify(steps);
      let reader = readers.get(key);
      if (reader === undefined) {
        const name = `readPath${readers.size + 1}`;
        reader = { name, code: `/** What is at \`${text}\`: each value found, with its JSON pointer. */\n${pathReader(name, steps)}` };
        readers.set(key, reader);
      }
      return { path: text, segments: steps, read: new Code(reader.name) };
    },
    /** Every reader, with what it reads. */
    readers: () => [...readers.values()].map(({ code }) => code),
  };
};

/** Imports a payload's version module under a name of its own; returns that name. */
const importPayload = (file: FileBuilder, at: Payload): string => {
  const root = rootTypeName(at.contract.name, at.version.version);
  const alias = root[0]!.toLowerCase() + root.slice(1);
  file.importNamespace(`../${contractDir(at.contract.name)}/${versionId(at.version.version)}/index.js`, alias);
  return alias;
};

const payloadData = (module: string, at: Payload) => ({
  contract: at.contract.name,
  version: at.version.version,
  check: new Code(`${module}.check`),
  errors: new Code(`${module}.errors`),
  shape: new Code(`${module}.shape`),
});

/**
 * The input contract's projections, renamed to the tool and described by the agent; MCP hints from
 * the action. Each names the projection its contract version already exports (`llm.<provider>`)
 * and says only what the agent changes, so the schema is written once, in the contract's llm.ts.
 */
const tools = (project: Project, agent: Agent, input: Payload, output: Payload, inputModule: string, outputModule: string): Record<string, Literal> => {
  const result: Record<string, Literal> = {};
  for (const provider of TOOL_PROVIDERS.filter((p) => input.contract.llm.providers.includes(p))) {
    const projection = projectVersion(project, input.contract, input.version, provider).value;
    const description = paragraphs([agent.summary, agent.description, projection.description]) ?? agent.name;
    const tool = `${inputModule}.llm.${provider}.tool`;
    const renamed = `name: ${JSON.stringify(agent.tool)}, description: ${JSON.stringify(description)}`;
    if (provider === "openai") {
      result[provider] = new Code(`{ ...${tool}, function: { ...${tool}.function, ${renamed} } }`);
      continue;
    }
    if (provider !== "mcp") {
      result[provider] = new Code(`{ ...${tool}, ${renamed} }`);
      continue;
    }
    const idempotent = input.version.fields.some((f) => f.role === "idempotency_key");
    const annotations: Record<string, JsonValue> = { readOnlyHint: agent.action === "query" };
    if (agent.action !== "query") annotations["destructiveHint"] = agent.action === "mutation_irreversible";
    if (idempotent) annotations["idempotentHint"] = true;
    // The output's MCP projection is the schema of what the tool returns.
    const outputSchema = output.contract.llm.providers.includes("mcp") ? `, outputSchema: ${outputModule}.llm.mcp.tool.inputSchema` : "";
    result[provider] = new Code(`{ ...${tool}, ${renamed}, title: ${JSON.stringify(agent.name)}${outputSchema}, annotations: ${print(annotations)} }`);
  }
  return result;
};

const resolved = (project: Project, ref: AgentContractRef): Payload => {
  const at = payloadOf(project, ref);
  if (!at) throw new Error(`treaty bug: ${ref.contract}@${ref.major} was checked but does not resolve`);
  return at;
};

/** `code`: the import specifier of the agent's hand-written file (`execute`, custom rules). */
export const emitAgent = (project: Project, agent: Agent, code: string): EmittedFile => {
  const file = createFileBuilder(agentFile(agent.name), agent.file);
  file.importNamespace(code, "code");
  file.importType("treaty/runtime", "AgentContract");
  file.importType("treaty/runtime", "AgentFound");
  const input = resolved(project, agent.input);
  const output = resolved(project, agent.output);
  const inputModule = importPayload(file, input);
  const outputModule = importPayload(file, output);
  const intentAt = agent.intent && resolved(project, agent.intent.contract);
  const intentModule = intentAt && importPayload(file, intentAt);
  const idempotencyKey = input.version.fields.find((f) => f.role === "idempotency_key");
  const typeField = intentAt && intentTypeField(intentAt);
  const paths = createPaths();
  const pathData = paths.data;
  const data = {
    name: agent.name,
    tool: agent.tool,
    summary: agent.summary,
    action: agent.action,
    reference: agent.reference,
    floor: effectiveFloor(agent).floor,
    threshold: effectiveThreshold(agent),
    input: { ...payloadData(inputModule, input), from: new Code(`${inputModule}.llm.from`) },
    output: payloadData(outputModule, output),
    confidence: agent.confidence?.field && pathData(agent.confidence.field),
    idempotencyKey: idempotencyKey && pathData(idempotencyKey.name),
    provides: agent.provides.map(pathData),
    consumes: agent.consumes.map((c) => ({ ...pathData(c.path), from: c.from, as: pathData(c.as) })),
    intent: intentAt && {
      ...payloadData(intentModule!, intentAt),
      lock: agent.intent!.lock.map((l) => ({ input: pathData(l.input), intent: pathData(l.intent) })),
      serves: agent.intent!.serves.map((s) => s.value),
      typeField: typeField && pathData(typeField.name),
    },
    rules: agent.rules.map((rule): Literal => {
      switch (rule.kind) {
        case "before":
          return { kind: rule.kind, first: pathData(rule.first), second: pathData(rule.second) };
        case "exclusive":
          return { kind: rule.kind, fields: rule.fields.map((f) => pathData(f)) };
        case "requires":
          return { kind: rule.kind, if: pathData(rule.if), then: rule.then.map((f) => pathData(f)) };
        case "custom":
          return { kind: rule.kind, name: rule.name, check: new Code(`code.${rule.name}`) };
      }
    }),
    execute: new Code("code.execute"),
    tools: tools(project, agent, input, output, inputModule, outputModule),
  };
  return file.render("agent", {
    name: agent.name,
    input: `${input.contract.name} ${input.version.version}`,
    output: `${output.contract.name} ${output.version.version}`,
    inputType: `${inputModule}.${rootTypeName(input.contract.name, input.version.version)}`,
    outputType: `${outputModule}.${rootTypeName(output.contract.name, output.version.version)}`,
    readers: paths.readers(),
    agent: print(data),
  });
};

/** What agents/index.ts itself binds (see templates/agents-index.hbs). */
const AGENTS_INDEX_NAMES: ReadonlySet<string> = new Set(["agents"]);

export const emitAgentsIndex = (project: Project, source: string): EmittedFile => {
  const file = createFileBuilder("agents/index.ts", source);
  const agents = (project.agents ?? []).map((agent) => {
    const id = bindingName(agent.name, AGENTS_INDEX_NAMES);
    file.importNamespace(`./${agent.name}.js`, id);
    return { name: JSON.stringify(agent.name), id };
  });
  return file.render("agents-index", { agents });
};
