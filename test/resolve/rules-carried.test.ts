// A version built by `changes:` keeps the rules of the version it builds on: they follow the fields
// they name where a change moves them, go with a field removed, and one it lists again counts once.
// Before, they were kept as written: renaming a field a rule names made `check` fail (unknown-field
// at the old name, with no way to drop the rule), and a rule listed again was checked twice.
import { expect, it } from "vitest";
import { compile } from "../../src/pipeline.js";
import { tempProject } from "../support/temp-project.js";

const CONTRACT = `contract: demo.rules
owner: tests
versions:
  "1.0":
    fields:
      opened_at: { type: timestamp }
      closed_at: { type: timestamp, optional: true }
      email: { type: string, maxLength: 50, optional: true }
      phone: { type: string, maxLength: 20, optional: true }
      fax: { type: string, maxLength: 20, optional: true }
      billing: { type: object, fields: { vat_id: { type: string, maxLength: 20, optional: true }, country: { type: string, maxLength: 2, optional: true } } }
    rules:
      - before: [opened_at, closed_at]
      - exclusive: [email, phone]
      - requires: { if: billing.vat_id, then: [billing.country] }
      - exclusive: [phone, fax]
  "2.0":
    changes:
      - rename: { from: closed_at, to: ended_at }
      - hoist: { from: billing.vat_id, to: vat_id }
      - remove: fax
    rules:
      - exclusive: [email, phone]
      - before: [opened_at, ended_at]
`;

it("rules follow renamed and moved fields, go with removed ones, and count once when listed again", () => {
  const root = tempProject("rules-carried", { "idl/demo.rules.yaml": CONTRACT });
  const { value, diagnostics } = compile({ root, idlDir: `${root}/idl` });
  expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const rules = value!.contracts[0]!.versions.find((v) => v.version === "2.0")!.rules.map(({ loc: _, locs: _locs, ...rule }) => rule);
  expect(rules).toEqual([
    { kind: "before", first: "opened_at", second: "ended_at" },
    { kind: "exclusive", fields: ["email", "phone"] },
    { kind: "requires", if: "vat_id", then: ["billing.country"] },
  ]);
});
