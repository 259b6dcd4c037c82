import type { Contract, LlmProvider, Project, ResolvedVersion } from "../ir/model.js";
import type { NullPlan } from "../project/model.js";
import { projectVersion } from "../project/project.js";
import { createFileBuilder, generatedComment, type EmittedFile } from "./file-builder.js";
import { versionFilePath } from "./json-schema.js";

/** The generated function that maps a provider's nulls back to absent fields: `fromOpenAI`. */
export const NULL_FUNCTIONS: Readonly<Record<LlmProvider, string>> = { openai: "fromOpenAI", anthropic: "fromAnthropic", gemini: "fromGemini", mcp: "fromMcp" };

const NAMES: Record<LlmProvider, string> = { openai: "OpenAI", anthropic: "Anthropic", gemini: "Gemini", mcp: "MCP" };

const CALLS: Record<LlmProvider, string> = {
  openai: "OpenAI: `response_format` of Chat Completions (or `text.format` of Responses), or `tools[]` as a strict function.",
  anthropic: "Anthropic: one entry of `tools` in Messages, strict.",
  gemini: "Gemini: `generationConfig` of generateContent (`responseJsonSchema`).",
  mcp: "MCP: one `Tool` of a server's `tools/list` result.",
};

/** The projection as written to both files: the provider's request fragment, its ledger, and what was widened. */
const projectionData = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider) => {
  const projection = projectVersion(project, contract, version, provider).value;
  return { projection, data: { ...projection.request, ledger: projection.ledger, widened: projection.widened } };
};

/** Straight-line code removing the nulls `plan` names from the value in `expr`. */
const planLines = (plan: NullPlan, expr: string, fresh: () => string): string[] => {
  const indent = (lines: string[]): string[] => lines.map((line) => `  ${line}`);
  switch (plan.kind) {
    case "object":
      return [
        `if (isRecord(${expr})) {`,
        ...indent(
          plan.fields.flatMap((field) => {
            const key = `${expr}[${JSON.stringify(field.name)}]`;
            const lines = field.widened ? [`if (${key} === null) delete ${key};`] : [];
            if (!field.inner) return lines;
            const name = fresh();
            return [...lines, `const ${name} = ${key};`, ...planLines(field.inner, name, fresh)];
          }),
        ),
        "}",
      ];
    case "items":
    case "values": {
      const item = fresh();
      const loop = plan.kind === "items" ? `if (Array.isArray(${expr})) for (const ${item} of ${expr}) {` : `if (isRecord(${expr})) for (const ${item} of Object.values(${expr})) {`;
      return [loop, ...indent(planLines(plan.inner, item, fresh)), "}"];
    }
    case "tagged":
      return [
        `if (isRecord(${expr})) {`,
        ...indent(
          plan.variants.flatMap((variant, i) => [
            `${i === 0 ? "" : "} else "}if (${expr}[${JSON.stringify(plan.tag)}] === ${JSON.stringify(variant.value)}) {`,
            ...indent(planLines(variant.inner, expr, fresh)),
          ]),
        ),
        "  }",
        "}",
      ];
    case "each":
      return plan.plans.flatMap((inner) => planLines(inner, expr, fresh));
  }
};

/** `<contract>/<vX_Y>/llm.ts`: one export per provider the contract projects to, the null → absent functions, and `from`, which the registration carries. */
export const emitLlm = (project: Project, contract: Contract, version: ResolvedVersion): EmittedFile => {
  const file = createFileBuilder(versionFilePath(contract.name, version.version, "llm.ts"), contract.file);
  const projections = contract.llm.providers.map((provider) => ({ provider, ...projectionData(project, contract, version, provider) }));
  return file.render("llm", {
    label: `${contract.name} ${version.version}`,
    projections: projections.map(({ provider, data }) => ({ name: provider, doc: CALLS[provider], value: JSON.stringify(data) })),
    nulls: projections
      .filter(({ projection }) => projection.nulls)
      .map(({ provider, projection }) => {
        let n = 0;
        return {
          provider: NAMES[provider],
          name: provider,
          function: NULL_FUNCTIONS[provider],
          body: planLines(projection.nulls!, "value", () => `v${++n}`).map((line) => `  ${line}`).join("\n"),
        };
      }),
    from: projections.map(({ provider, projection }) => ({ name: provider, function: projection.nulls ? NULL_FUNCTIONS[provider] : "null" })),
  });
};

/** `<contract>/<vX_Y>/llm/<provider>.json`: the same projection, for reviewers and callers outside TypeScript. */
export const emitLlmJson = (project: Project, contract: Contract, version: ResolvedVersion, provider: LlmProvider): EmittedFile => ({
  path: versionFilePath(contract.name, version.version, `llm/${provider}.json`),
  language: "json",
  contents: `${JSON.stringify({ $comment: generatedComment(contract.file), ...projectionData(project, contract, version, provider).data }, null, 2)}\n`,
});
