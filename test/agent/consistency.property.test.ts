// The cross-agent consistency gate over random paths and values: for any provided path (nested
// lists like `offers[].offer_id`, keys a JSON pointer must escape) and any session of calls, a
// consuming call passes exactly when every value at its consumed path equals one the named agent
// provided earlier in the session, and is refused otherwise at each value that does not, with
// CONSISTENCY_VIOLATED and `consistency.not_provided`. The oracle builds the values and their
// pointers itself; it shares no code with the gate.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, createPipeline, type AgentContract, type ShapeNode, type VersionShape } from "../../src/runtime/index.js";
import { createMemoryStore } from "../../src/store/index.js";
import { agentPath } from "../support/agent-paths.js";

/** A path segment: a key, and whether a list is under it (`offers[]`). */
type Segment = { readonly name: string; readonly items: boolean };
type Leaf = { readonly pointer: string; readonly value: unknown };

const escape = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");
const written = (path: readonly Segment[]): string => path.map((s) => `${s.name}${s.items ? "[]" : ""}`).join(".");
const segments = (path: readonly Segment[]): string[] => path.flatMap((s) => (s.items ? [s.name, "[]"] : [s.name]));
/** The path as the generated agent module holds it, with the reader treaty generates for it. */
const pathData = (path: readonly Segment[]) => agentPath(written(path), segments(path));

const arbitraryPath: fc.Arbitrary<Segment[]> = fc.array(fc.record({ name: fc.constantFrom("offers", "id", "a/b~c"), items: fc.boolean() }), { minLength: 1, maxLength: 3 });
// Few distinct values, so that consumed values often were provided; objects compare by value.
const arbitraryLeaf = fc.oneof(fc.constantFrom("OF-1", "OF-2", "OF-3", 7), fc.record({ k: fc.constantFrom("OF-1", "OF-2") }));

/** A value holding leaves at `path`, and those leaves with their pointers. */
const valueAt = (path: readonly Segment[], pointer = ""): fc.Arbitrary<{ value: unknown; leaves: Leaf[] }> => {
  const [head, ...rest] = path;
  if (head === undefined) return arbitraryLeaf.map((value) => ({ value, leaves: [{ pointer, value }] }));
  const at = `${pointer}/${escape(head.name)}`;
  if (!head.items) return valueAt(rest, at).map(({ value, leaves }) => ({ value: { [head.name]: value }, leaves }));
  return fc
    .integer({ min: 0, max: 3 })
    .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => valueAt(rest, `${at}/${i}`))))
    .map((items) => ({ value: { [head.name]: items.map((item) => item.value) }, leaves: items.flatMap((item) => item.leaves) }));
};

/** The shape declaring `path`, so that refusals keep their paths unmasked. */
const shapeOf = (path: readonly Segment[]): VersionShape => {
  const node = (rest: readonly Segment[]): ShapeNode => {
    const [head, ...tail] = rest;
    if (head === undefined) return { kind: "string" };
    const inner = node(tail);
    return { kind: "object", fields: { [head.name]: head.items ? { kind: "list", of: inner } : inner } };
  };
  const root = node(path);
  return { root: root.kind === "object" ? root.fields : {}, types: {}, enums: {} };
};

const agent = (name: string, options: Partial<AgentContract> & { readonly inShape: VersionShape; readonly outShape: VersionShape }): AgentContract => ({
  name,
  tool: name.replace(".", "_"),
  action: "query",
  reference: false,
  floor: 0.7,
  threshold: 0.7,
  input: { contract: "t.in", version: "1.0", check: (_: unknown): _ is unknown => true, errors: () => [], shape: options.inShape },
  output: { contract: "t.out", version: "1.0", check: (_: unknown): _ is unknown => true, errors: () => [], shape: options.outShape },
  provides: [],
  consumes: [],
  rules: [],
  // A producer returns what its input says it returns: the session's script decides.
  execute: (input: unknown) => (input as { out: unknown }).out,
  tools: {},
  ...options,
});

type Step = { readonly agent: "t.producer" | "t.other" | "t.consumer"; readonly value: unknown; readonly leaves: readonly Leaf[] };

const scenario = fc.tuple(arbitraryPath, arbitraryPath).chain(([provided, consumed]) =>
  fc.record({
    provided: fc.constant(provided),
    consumed: fc.constant(consumed),
    steps: fc.array(
      fc.oneof(
        valueAt(provided).map(({ value, leaves }): Step => ({ agent: "t.producer", value, leaves })),
        // Another agent providing the same path: its values do not count for a consumes naming the producer.
        valueAt(provided).map(({ value, leaves }): Step => ({ agent: "t.other", value, leaves })),
        valueAt(consumed).map(({ value, leaves }): Step => ({ agent: "t.consumer", value, leaves })),
      ),
      { minLength: 1, maxLength: 8 },
    ),
  }),
);

describe("the consistency gate", () => {
  it("passes exactly the consumed values the named agent provided earlier in the session, and refuses each other one at its path", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ provided, consumed, steps }) => {
        const out = shapeOf(provided);
        const producerIn: VersionShape = { root: { out: { kind: "object", fields: out.root } }, types: {}, enums: {} };
        const provides = [pathData(provided)];
        const agents = {
          "t.producer": agent("t.producer", { inShape: producerIn, outShape: out, provides }),
          "t.other": agent("t.other", { inShape: producerIn, outShape: out, provides }),
          "t.consumer": agent("t.consumer", {
            inShape: shapeOf(consumed),
            outShape: shapeOf([]),
            consumes: [{ ...pathData(consumed), from: "t.producer", as: provides[0]! }],
            execute: () => ({}),
          }),
        };
        const session = createPipeline({ agents, store: createMemoryStore() });
        const known = new Set<string>();
        for (const step of steps) {
          if (step.agent !== "t.consumer") {
            expect((await session.run(step.agent, { out: step.value })).ok).toBe(true);
            if (step.agent === "t.producer") for (const leaf of step.leaves) known.add(canonicalJson(leaf.value));
            continue;
          }
          const run = await session.run("t.consumer", step.value);
          const unknown = step.leaves.filter((leaf) => !known.has(canonicalJson(leaf.value))).map((leaf) => leaf.pointer);
          if (unknown.length === 0) expect(run.ok).toBe(true);
          else {
            expect(run.ok ? "ok" : [run.gate, run.error.code, run.error.class]).toEqual(["consistency", "CONSISTENCY_VIOLATED", "INVALID_INPUT"]);
            expect(run.ok || run.issues.map((i) => [i.path, i.code])).toEqual(unknown.map((pointer) => [pointer, "consistency.not_provided"]));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
