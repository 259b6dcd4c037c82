// Adapters convert through an untagged union's variants: the source variant a value is of (selected
// as the validators select it) converts into the target variant it pairs with, so an enum mapping
// inside a variant needs no stub.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Decoded, Encoded, Failure } from "../../src/runtime/index.js";
import { createProject } from "./project.js";

const CONTRACT = `contract: demo.signal
summary: A signal with a level.
owner: demo-team
kind: event
enums:
  Level:
    values:
      LOW: Can wait.
      HIGH: Needs attention now.
versions:
  "1.0":
    fields:
      level:
        type: union
        variants: [Level, { type: number, min: 0, max: 10 }]
      levels:
        type: list
        of: { type: union, variants: [Level, bool] }
        maxItems: 8
  "2.0":
    changes:
      - enum: Level
        add:
          URGENT: Needs attention now.
        remove: [HIGH]
        map: { HIGH: URGENT }
`;

interface Registry {
  decode(contract: string, input: unknown): Decoded<Record<string, unknown>> | Failure;
  encode(contract: string, value: unknown, version: string): Encoded<Record<string, unknown>> | Failure;
}

describe("an enum mapping inside an untagged union's variant", () => {
  const project = createProject({ "idl/demo/demo.signal.yaml": CONTRACT });
  afterAll(() => project.remove());

  it("generates without a stub, type-checks, and maps the value both ways", async () => {
    const { status, stderr } = await project.treaty("generate");
    expect(stderr).not.toMatch(/stub|error/i);
    expect(status).toBe(0);
    expect(existsSync(join(project.root, "idl/demo/demo.signal.adapters.ts"))).toBe(false);
    expect(project.typecheck()).toEqual([]);
    const { decode, encode } = await project.load<Registry>("generated/index.ts");
    const v1 = { contract: "demo.signal", version: "1.0", level: "HIGH", levels: ["LOW", true, "HIGH"] };
    const up = decode("demo.signal", v1);
    expect(up).toMatchObject({ ok: true, value: { version: "2.0", level: "URGENT", levels: ["LOW", true, "URGENT"] } });
    expect(decode("demo.signal", { ...v1, level: 2.5 })).toMatchObject({ ok: true, value: { level: 2.5 } });
    if (!up.ok) throw new Error("unreachable");
    expect(encode("demo.signal", up.value, "1.0")).toMatchObject({ ok: true, value: v1 });
  });
});
