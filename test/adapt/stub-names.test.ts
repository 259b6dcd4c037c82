// Stub names built from field paths are identifiers even when a quoted field name holds a space or a
// dash, and stay distinct when two names sanitize alike.
import { afterAll, expect, it } from "vitest";
import { createProject } from "./project.js";

const CONTRACT = `contract: demo.item
summary: An item.
owner: shop-team
kind: event
versions:
  "1.0":
    fields:
      sku: { type: string, maxLength: 20 }
  "2.0":
    changes:
      - add: "with space"
        type: int
      - add: "with-space"
        type: int
`;

const project = createProject({ "idl/demo/demo.item.yaml": CONTRACT });
afterAll(() => project.remove());

it("names field stubs with identifiers, distinct and deterministic", async () => {
  const { status, stderr } = await project.treaty("generate");
  expect(status, stderr).toBe(0);
  const text = project.read("idl/demo/demo.item.adapters.ts");
  const exported = [...text.matchAll(/^export (?:function|const) (\S+?)\(/gm)].map((m) => m[1]!);
  expect(exported).toEqual(["upgradeV2_0$with_space", "upgradeV2_0$with_space$2"]);
  expect(project.typecheck(["idl/demo/demo.item.adapters.ts"])).toEqual([]);
});
