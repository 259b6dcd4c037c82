// agent.schema.json, the editors' view of agent files, against the agents in idl/ and against
// the mistakes it must catch before treaty does.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv/dist/ajv.js";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const idlDir = join(root, "idl");
const agentFiles = readdirSync(idlDir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".agent.yaml"))
  .map((e) => join(e.parentPath, e.name))
  .sort();

// strictRequired is off: the rule forms' `oneOf` branches require keys declared on the enclosing mapping.
const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(JSON.parse(readFileSync(join(idlDir, "agent.schema.json"), "utf8")));

const minimal = (): Record<string, unknown> => ({ agent: "demo.finder", tool: "finder", input: "demo.query@1", output: "demo.result@1", action: "query" });

describe("agent.schema.json", () => {
  it("finds the booking agents", () => expect(agentFiles.length).toBeGreaterThanOrEqual(4));

  it.each(agentFiles.map((file) => [relative(root, file), file]))("accepts %s", (_name, file) => {
    const ok = validate(parse(readFileSync(file, "utf8")));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it("accepts every construct of the syntax", () => {
    const doc = {
      ...minimal(),
      summary: "Finds.",
      description: "Finds things.",
      owner: "demo",
      action: "mutation_irreversible",
      reference: true,
      confidence: { threshold: 0.96, field: "confidence" },
      provides: ["items[].ref", "count"],
      consumes: [{ path: "ref", from: "demo.other", as: "refs[].id" }],
      intent: { contract: "demo.intent@1", lock: { ref: "ref" }, serves: ["BOOK"] },
      rules: [{ before: ["a", "b"] }, { exclusive: ["a", "b"] }, { requires: { if: "a", then: ["b"] } }, { custom: "refExists", description: "The ref exists." }],
    };
    validate(doc);
    expect(validate.errors ?? []).toEqual([]);
  });

  // [what, mutation, instancePath and keyword of an error the schema must report]
  const bad: [string, (doc: Record<string, unknown>) => void, string, string][] = [
    ["an unknown key", (doc) => (doc["agents"] = "x"), "", "additionalProperties"],
    ["a missing tool", (doc) => delete doc["tool"], "", "required"],
    ["a tool name with a dot", (doc) => (doc["tool"] = "find.things"), "/tool", "pattern"],
    ["a contract without a major", (doc) => (doc["input"] = "demo.query"), "/input", "pattern"],
    ["an unknown action", (doc) => (doc["action"] = "mutation"), "/action", "enum"],
    ["a threshold above 1", (doc) => (doc["confidence"] = { threshold: 1.5 }), "/confidence/threshold", "maximum"],
    ["a path with a bad segment", (doc) => (doc["provides"] = ["items[0].ref"]), "/provides/0", "pattern"],
    ["a consumes without its source", (doc) => (doc["consumes"] = [{ path: "ref", as: "ref" }]), "/consumes/0", "required"],
    ["a rule with two forms", (doc) => (doc["rules"] = [{ custom: "a", exclusive: ["a", "b"] }]), "/rules/0", "oneOf"],
  ];

  it.each(bad)("rejects %s", (_name, mutate, instancePath, keyword) => {
    const doc = minimal();
    mutate(doc);
    expect(validate(doc)).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath, keyword }));
  });
});
