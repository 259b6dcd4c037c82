// A generated TypeBox schema's static type is the version's generated type, both ways: tuples,
// maps and json fields were `unknown`, `{}` and `unknown` (Type.Unsafe, an Object of no
// properties, Type.Unknown), so a Static value could not be used as the contract's type.
import { afterAll, expect, it } from "vitest";
import { createProject } from "../adapt/project.js";

const CONTRACT = `contract: demo.shapes
summary: Tuples, maps and json values, alone and in a union.
owner: demo-team
kind: event
versions:
  "1.0":
    fields:
      position: { type: tuple, items: [number, number] }
      labels: { type: map, of: { type: string, maxLength: 9 } }
      args: { type: json, maxDepth: 4 }
      either:
        type: union
        variants:
          - { type: tuple, items: [int, { type: string, maxLength: 3 }] }
          - { type: string, maxLength: 5 }
        optional: true
      nested: { type: map, of: { type: tuple, items: [bool] }, optional: true }
`;

const USE = `import type { Static } from "treaty/typebox";
import { DemoShapesV1_0Schema } from "./generated/demo.shapes/v1_0/schema.js";
import type { DemoShapesV1_0 } from "./generated/demo.shapes/v1_0/types.js";

type FromSchema = Static<typeof DemoShapesV1_0Schema>;
export const toSchema = (value: DemoShapesV1_0): FromSchema => value;
export const fromSchema = (value: FromSchema): DemoShapesV1_0 => value;
`;

const project = createProject({ "idl/demo/demo.shapes.yaml": CONTRACT, "use.ts": USE });
afterAll(() => project.remove());

it("types the schema as the generated type, both ways", async () => {
  expect((await project.treaty("generate")).status).toBe(0);
  expect(project.typecheck(["use.ts"])).toEqual([]);
});
