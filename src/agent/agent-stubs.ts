// The hand-owned file beside an agent (`<agent>.agent.ts`): its `execute` and the bodies of its
// custom rules, kept by the same mechanism as the adapter stubs.
import { join, posix } from "node:path";
import { specifier } from "../adapt/adapt.js";
import type { Agent, Project, SourceLocation } from "../ir/model.js";
import type { StubFile } from "../stubs/maintain-stubs.js";
import { GENERATED, RUNTIME } from "../stubs/stub-source.js";
import { agentFile } from "../emit/agent.js";
import { AGENT_FILE_SUFFIX } from "./resolve-agent.js";

export interface AgentStubsOptions {
  readonly root: string;
  readonly outDir: string;
}

/** `idl/<domain>/<agent>.agent.ts`, beside the agent file, relative to the project root. */
const agentCodeFile = (agent: Pick<Agent, "file">): string => `${agent.file.slice(0, -AGENT_FILE_SUFFIX.length)}.agent.ts`;

/** How the generated agent module imports the hand-written file. */
export const agentCodeSpecifier = (agent: Agent, options: AgentStubsOptions): string =>
  specifier(join(options.outDir, posix.dirname(agentFile(agent.name))), join(options.root, agentCodeFile(agent)));

const notWritten = (agent: Agent, name: string): string => `throw new ${RUNTIME}.AgentNotImplemented(${JSON.stringify(agent.name)}, ${JSON.stringify(name)});`;

const stub = (agent: Agent, name: string, doc: string, signature: string, loc: SourceLocation) => ({
  name,
  loc,
  source: [`/** ${doc} */`, `export async function ${name}${signature} {`, `  ${notWritten(agent, name)}`, "}"].join("\n"),
});

const agentStubFile = (agent: Agent, options: AgentStubsOptions): StubFile => {
  const file = agentCodeFile(agent);
  const toGenerated = specifier(join(options.root, posix.dirname(file)), join(options.outDir, agentFile(agent.name)));
  return {
    file,
    what: "agent function",
    header: [
      `// Hand-written code of agent ${agent.name} (${agent.file}).`,
      "// `treaty generate` adds `execute` and a stub per custom rule here, and never changes code that is",
      "// already here. Each stub throws until it is written.",
      `import type * as ${GENERATED} from ${JSON.stringify(toGenerated)};`,
      `import * as ${RUNTIME} from "treaty/runtime";`,
      "",
    ].join("\n"),
    imports: [
      { namespace: GENERATED, from: toGenerated, typeOnly: true },
      { namespace: RUNTIME, from: "treaty/runtime", typeOnly: false },
    ],
    // Custom rules are named freely, so only `execute` is known to be treaty's; other exports may be helpers.
    owned: /^execute$/,
    stubs: [
      stub(agent, "execute", `${agent.summary ?? agent.name} Runs only after every gate before it passed.`, `(input: ${GENERATED}.Input): Promise<${GENERATED}.Output>`, agent.loc),
      ...agent.rules.flatMap((rule) =>
        rule.kind === "custom"
          ? [stub(agent, rule.name, `Custom rule of ${agent.name}: ${rule.description ?? rule.name} Returns { ok: true }, or { ok: false, path, message, suggestion? } with path a JSON Pointer into the input ("/field", "" for all of it).`, `(input: ${GENERATED}.Input): Promise<${RUNTIME}.AgentRuleResult>`, rule.loc)]
          : [],
      ),
    ],
  };
};

export const agentStubFiles = (project: Project, options: AgentStubsOptions): StubFile[] => (project.agents ?? []).map((agent) => agentStubFile(agent, options));
