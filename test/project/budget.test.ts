import { describe, expect, it } from "vitest";
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
