// An enum's fallback, as the README promises it: "a value the reader reads instead of failing on a
// value it does not know, which makes adding values forward-compatible". A build that knows 1.0
// reads a 1.1 payload (a newer minor, under strip) whose enums hold values 1.1 added: each is read
// as its enum's fallback and named in `stripped`. The old reader failed SCHEMA_INVALID at the enum,
// while `check` called the change forward-compatible.
import { afterAll, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const OLD = `contract: demo.level
summary: Enums with and without a fallback, where a newer minor may add values.
owner: demo-team
kind: event
unknown_fields: strip
compatibility: forward
enums:
  Level:
    fallback: OTHER
    values: { LOW: Low., HIGH: High., OTHER: Some other level. }
  Strict:
    values: { ON: On., OFF: Off. }
types:
  Reading:
    fields:
      level: Level
      at: { type: int, min: 0 }
versions:
  "1.0":
    fields:
      level: Level
      strict: Strict
      readings: { type: list, of: Reading, maxItems: 5 }
      by_sensor: { type: map, of: Level, optional: true }
      event:
        type: union
        tag: kind
        optional: true
        variants:
          alarm: { fields: { level: Level } }
`;

type Decode = (contract: string, value: unknown) => { ok: boolean; value?: unknown; stripped?: string[]; readAs?: string; error?: { code: string } };

const project = createProject({ "idl/demo/demo.level.yaml": OLD });
afterAll(() => project.remove());

it("reads a newer minor's unknown values of an enum with a fallback as the fallback, and names them", async () => {
  expect((await project.treaty("generate")).status).toBe(0);
  const { decode } = await project.load<{ decode: Decode }>("generated/index.ts");
  const newer = {
    contract: "demo.level",
    version: "1.1",
    level: "EXTREME",
    strict: "ON",
    readings: [{ level: "LOW", at: 1 }, { level: "EXTREME", at: 2 }],
    by_sensor: { a: "HIGH", "b/c": "EXTREME" },
    event: { kind: "alarm", level: "EXTREME" },
  };
  const decoded = decode("demo.level", newer);
  expect(decoded).toMatchObject({
    ok: true,
    readAs: "1.0",
    value: {
      level: "OTHER",
      readings: [{ level: "LOW", at: 1 }, { level: "OTHER", at: 2 }],
      by_sensor: { a: "HIGH", "b/c": "OTHER" },
      event: { kind: "alarm", level: "OTHER" },
    },
  });
  expect(decoded.stripped).toEqual(["/level", "/readings/1/level", "/by_sensor/b~1c", "/event/level"]);
  // The payload given is not changed.
  expect(newer.level).toBe("EXTREME");
  // A map whose every value is new: each read as the fallback, its keys in order.
  const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, i % 2 === 0 ? "EXTREME" : "LOW"]));
  const wide = decode("demo.level", { ...newer, by_sensor: many }) as { value: { by_sensor: Record<string, string> }; stripped: string[] };
  expect(Object.entries(wide.value.by_sensor)).toEqual(Object.entries(many).map(([k, v]) => [k, v === "EXTREME" ? "OTHER" : v]));
  expect(wide.stripped.filter((p) => p.startsWith("/by_sensor/"))).toHaveLength(10);
  // An enum without a fallback: the older reader cannot read the new value.
  expect(decode("demo.level", { ...newer, strict: "MAYBE" })).toMatchObject({ ok: false, error: { code: "SCHEMA_INVALID" } });
  // Its own version: an unknown value is the validator's, as ever.
  expect(decode("demo.level", { ...newer, version: "1.0" })).toMatchObject({ ok: false, error: { code: "SCHEMA_INVALID" } });
});
