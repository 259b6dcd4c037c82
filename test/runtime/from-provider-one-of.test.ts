// An untagged union's reply mapping runs for the values of the variant it belongs to only: the
// variants are disjoint in the contract, and each is selected as the provider writes it. Where the
// projection makes two variants alike (a map written as entries is a list, a tuple written by
// position an object keyed "0", "1"), a reply could not be read back as meant: a compile error.
import { afterAll, describe, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const SHARED = `contract: demo.shared
summary: Two variants with a field of the same name, optional in one and nullable in the other.
owner: demo-team
kind: result
types:
  Draft:
    fields:
      kind: { type: const, value: draft }
      note: { type: string, maxLength: 10, optional: true }
  Final:
    fields:
      kind: { type: const, value: final }
      note: { type: string, maxLength: 10, nullable: deliberately left blank }
versions:
  "1.0":
    fields:
      doc: { type: union, variants: [Draft, Final] }
      # Null is this field's one value: widened, a null would mean absent and it could not be written.
      gone: { type: const, value: null, optional: true }
`;

const project = createProject({ "idl/demo/demo.shared.yaml": SHARED });
afterAll(() => project.remove());

describe("variants sharing a field name", () => {
  it("removes a widened null in the variant that widened it, and keeps the null another variant gives a meaning", async () => {
    expect((await project.treaty("generate")).status).toBe(0);
    expect(project.typecheck()).toEqual([]);
    const { decode } = await project.load<{ decode(contract: string, value: unknown, options?: { from?: string }): { ok: boolean; value?: unknown } }>("generated/index.ts");
    const reply = (doc: object) => ({ contract: "demo.shared", version: "1.0", doc });
    // Was SCHEMA_INVALID (required at /doc/note): the mapping removed every null at /doc/note.
    expect(decode("demo.shared", reply({ kind: "final", note: null }), { from: "openai" })).toMatchObject({ ok: true, value: { doc: { kind: "final", note: null } } });
    expect(decode("demo.shared", reply({ kind: "draft", note: null }), { from: "openai" })).toMatchObject({ ok: true, value: { doc: { kind: "draft" } } });
    const draft = decode("demo.shared", reply({ kind: "draft", note: null }), { from: "openai" }) as { value: { doc: object } };
    expect(Object.hasOwn(draft.value.doc, "note")).toBe(false);
  });

  it("keeps the null of an optional field whose type is null itself", async () => {
    const { decode } = await project.load<{ decode(contract: string, value: unknown, options?: { from?: string }): { ok: boolean; value?: object } }>("generated/index.ts");
    const decoded = decode("demo.shared", { contract: "demo.shared", version: "1.0", doc: { kind: "final", note: null }, gone: null }, { from: "openai" });
    expect(decoded).toMatchObject({ ok: true, value: { gone: null } });
    const openai = JSON.parse(project.read("generated/demo.shared/v1_0/llm/openai.json")) as { widened: string[]; response_format: { json_schema: { schema: { properties: { gone: unknown } } } } };
    expect(openai.widened).not.toContain("/gone");
    expect(openai.response_format.json_schema.schema.properties.gone).toEqual({ description: "The field cannot be left out here.", type: "null" });
  });
});

const variants = (union: string, providers = "[openai, anthropic, gemini, mcp]") => `contract: demo.alike
summary: A union whose variants the projection may make alike.
owner: demo-team
kind: result
llm: { providers: ${providers} }
types:
  Pair:
    fields:
      key: { type: string, maxLength: 10 }
      value: int
versions:
  "1.0":
    fields:
      x: { type: union, variants: ${union} }
`;

const diagnostics = async (contract: string): Promise<string[]> => {
  const alike = createProject({ "idl/demo/demo.alike.yaml": contract });
  try {
    const { status, stderr } = await alike.treaty("check");
    return stderr.split("\n").filter((line) => line.includes("llm-union-overlap")).concat(status === 0 ? ["exit 0"] : []);
  } finally {
    alike.remove();
  }
};

describe("variants the projection makes alike", () => {
  it("a map and a list of {key, value} objects: an error for the providers that write the map as entries", async () => {
    const lines = await diagnostics(variants("[{ type: map, of: int }, { type: list, of: Pair, maxItems: 5 }]"));
    expect(lines).toEqual([
      "idl/demo/demo.alike.yaml:14:60 - error llm-union-overlap: variants 1 (map) and 2 (list) of this union cannot be told apart as openai is told to write them (both accept arrays), so a reply could not be read back as the variant meant: give the union a tag, or make the variants differ, or leave openai out (llm: { providers: [...] })",
      "idl/demo/demo.alike.yaml:14:60 - error llm-union-overlap: variants 1 (map) and 2 (list) of this union cannot be told apart as anthropic is told to write them (both accept arrays), so a reply could not be read back as the variant meant: give the union a tag, or make the variants differ, or leave anthropic out (llm: { providers: [...] })",
    ]);
    // gemini and mcp write the map as an object: nothing to tell apart.
    expect(await diagnostics(variants("[{ type: map, of: int }, { type: list, of: Pair, maxItems: 5 }]", "[gemini, mcp]"))).toEqual(["exit 0"]);
  });

  it("a tuple and an object keyed by position: an error where the tuple is written as that object", async () => {
    const lines = await diagnostics(variants('[{ type: tuple, items: [int, int] }, { type: object, fields: { "0": int, "1": int } }]', "[openai, mcp]"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("variants 1 (tuple) and 2 (object) of this union cannot be told apart as openai is told to write them");
  });

  it("variants alike as written but mapped by no provider are left to the contract's validator", async () => {
    // A list of ints and a list of strings are both arrays once written; neither has a mapping.
    expect(await diagnostics(variants("[{ type: list, of: int, maxItems: 3 }, { type: string, maxLength: 3 }]"))).toEqual(["exit 0"]);
  });
});
