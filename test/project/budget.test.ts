import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.js";
import { compile } from "../../src/pipeline.js";
import { checkRequestBudget } from "../../src/index.js";
import { anthropic } from "../../generated/task.result/v1_2/llm.js";

describe("checkRequestBudget (Anthropic, all strict tools of one request)", () => {
  it("passes a tool set within the budgets", () => {
    expect(checkRequestBudget([anthropic.tool])).toEqual([]);
  });

  it("names each budget a tool set crosses: 21 strict tools, and their optional and union parameters", () => {
    const tools = Array.from({ length: 21 }, (_, i) => ({ ...anthropic.tool, name: `t${i}` }));
    const breaches = checkRequestBudget(tools);
    expect(breaches.map((b) => b.budget)).toEqual(["strictTools", "optionalParameters", "unionParameters"]);
    expect(breaches[0]).toEqual({ budget: "strictTools", max: 20, actual: 21 });
  });

  it("counts only strict tools", () => {
    const tools = Array.from({ length: 21 }, (_, i) => ({ ...anthropic.tool, name: `t${i}`, strict: false }));
    expect(checkRequestBudget(tools)).toEqual([]);
  });
});

describe("a contract whose Anthropic tool crosses a request budget alone", () => {
  const scratch = mkdtempSync(join(tmpdir(), "treaty-budget-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const diagnose = (optional: number, unions: number): string[] => {
    const root = join(scratch, `${optional}-${unions}`);
    mkdirSync(join(root, "idl"), { recursive: true });
    const fields = [
      ...Array.from({ length: optional }, (_, i) => `      o${i}: { type: int, optional: true }`),
      ...Array.from({ length: unions }, (_, i) => `      u${i}: { type: union, variants: [{ type: string, maxLength: 5 }, int] }`),
    ];
    writeFileSync(join(root, "idl", "demo.wide.yaml"), `contract: demo.wide\nowner: t\nllm: { providers: [anthropic] }\nversions:\n  "1.0":\n    fields:\n${fields.join("\n")}\n`);
    return compile({ root, idlDir: join(root, "idl") }).diagnostics.map(formatDiagnostic).filter((d) => d.includes("llm-limit-exceeded"));
  };

  it("is an error at the version, naming each budget, since no request can hold the tool", () => {
    expect(diagnose(30, 20)).toEqual([
      "idl/demo.wide.yaml:5:3 - error llm-limit-exceeded: anthropic allows at most 24 optional parameters over a request's strict tools; this has 30 in this tool alone: simplify the contract or leave anthropic out (llm: { providers: [...] })",
      "idl/demo.wide.yaml:5:3 - error llm-limit-exceeded: anthropic allows at most 16 parameters of a union type over a request's strict tools; this has 20 in this tool alone: simplify the contract or leave anthropic out (llm: { providers: [...] })",
    ]);
  });

  it("is nothing within the budgets, which only the caller's tool set can cross", () => {
    expect(diagnose(24, 16)).toEqual([]);
  });
});
