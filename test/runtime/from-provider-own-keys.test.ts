// Decoding a provider's reply reads fields as own properties only: a field named `__proto__` that
// the reply lacks is absent, never Object.prototype read through the prototype chain.
import { afterAll, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const CONTRACT = `contract: demo.proto
summary: A payload with an inherited key as a field name.
owner: demo-team
kind: result
versions:
  "1.0":
    fields:
      "__proto__":
        type: object
        optional: true
        fields:
          polluted: { type: string, optional: true, maxLength: 5 }
`;

const project = createProject({ "idl/demo/demo.proto.yaml": CONTRACT });
afterAll(() => project.remove());

it("an absent __proto__ field is not Object.prototype", async () => {
  const { status } = await project.treaty("generate");
  expect(status).toBe(0);
  const text = project.read("generated/demo.proto/v1_0/llm-reply.ts");

  expect(text).toContain('Object.hasOwn(value, "__proto__")');
  expect(project.typecheck()).toEqual([]);
  const module = await project.load<{ fromOpenAI(value: unknown): unknown }>("generated/demo.proto/v1_0/llm.ts");
  // A polluted prototype (non-enumerable, so nothing else sees it) holding a null the mapping would remove.
  Object.defineProperty(Object.prototype, "polluted", { value: null, configurable: true });
  try {
    const reply = { contract: "demo.proto", version: "1.0" };
    const decoded = module.fromOpenAI(reply);
    expect(Object.hasOwn(decoded as object, "__proto__")).toBe(false);
    expect(decoded).toBe(reply);
  } finally {
    delete (Object.prototype as Record<string, unknown>)["polluted"];
  }
});

it("the projected schema keeps a __proto__ property as a property", async () => {
  const module = await project.load<{ openai: { response_format: { json_schema: { schema: { properties: object; required: string[] } } } } }>("generated/demo.proto/v1_0/llm.ts");
  const schema = module.openai.response_format.json_schema.schema;
  expect(Object.hasOwn(schema.properties, "__proto__")).toBe(true);
  expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
});
