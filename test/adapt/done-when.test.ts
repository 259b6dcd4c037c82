// The acceptance story: a new repo with a contract at 1.0, 1.1 and 2.0 (one rename, one
// custom step) generates, gets one stub to write, and once it is written decodes 1.0 and 1.1
// payloads into the canonical 2.0 type and encodes canonical values back to 1.1, all of it
// type-checked under strict.
import { afterAll, expect, it } from "vitest";
import type { Decoded, Encoded, Failure } from "../../src/runtime/index.js";
import { createProject } from "./project.js";

const CONTRACT = `contract: demo.ticket
summary: A support ticket.
owner: support-team
kind: event
enums:
  Priority:
    values:
      LOW: Answer within a week.
      HIGH: Answer within a day.
versions:
  "1.0":
    fields:
      ticket_id: { type: string, pattern: "^T-[0-9]+$", maxLength: 20 }
      customer_name: { type: string, minLength: 1, maxLength: 101 }
      priority: Priority
  "1.1":
    changes:
      - add: notes
        type: string
        maxLength: 500
        optional: true
  "2.0":
    changes:
      - rename: { from: ticket_id, to: id }
      - remove: customer_name
      - add: customer
        type:
          type: object
          fields:
            first_name: { type: string, minLength: 1, maxLength: 50 }
            last_name: { type: string, maxLength: 50 }
      - custom: >-
          Split \`customer_name\` at its first space into \`customer.first_name\` and
          \`customer.last_name\`; going back, join them with a space.
`;

const STUBS = "idl/demo/demo.ticket.adapters.ts";

// What the producer writes into the stub's two bodies.
// Middle names have no place in 2.0: the stub says so through the log it is handed.
const UPGRADE = `const [first_name = "", ...rest] = source.customer_name.split(" ");
    if (rest.length > 1) log.dropped.push({ version: "1.1", path: "/customer_name" });
    return { ...draft, customer: { first_name, last_name: rest.at(-1) ?? "" } };`;
const DOWNGRADE = `const { first_name, last_name } = source.customer;
    return { ...draft, customer_name: last_name === "" ? first_name : \`\${first_name} \${last_name}\` };`;

// A consumer module: its types must line up with the registry's signatures.
const CONSUMER = `import { decode, encode } from "../generated/index.js";
import type { DemoTicketV1_1 } from "../generated/demo.ticket/v1_1/index.js";
import type { DemoTicketV2_0 } from "../generated/demo.ticket/v2_0/index.js";

export const read = (input: unknown): DemoTicketV2_0 | undefined => {
  const result = decode("demo.ticket", input);
  return result.ok ? result.value : undefined;
};

export const write = (value: DemoTicketV2_0): DemoTicketV1_1 | undefined => {
  const result = encode("demo.ticket", value, "1.1");
  return result.ok ? result.value : undefined;
};
`;

const project = createProject({ "idl/demo/demo.ticket.yaml": CONTRACT, "src/consumer.ts": CONSUMER });
afterAll(() => project.remove());

interface Registry {
  decode(contract: string, input: unknown): Decoded<Record<string, unknown>> | Failure;
  encode(contract: string, value: unknown, version: string): Encoded<Record<string, unknown>> | Failure;
}

const v1_0 = { contract: "demo.ticket", version: "1.0", ticket_id: "T-1", customer_name: "Ada Lovelace", priority: "HIGH" };
const v1_1 = { contract: "demo.ticket", version: "1.1", ticket_id: "T-2", customer_name: "Grace", priority: "LOW", notes: "Asked twice." };

it("generates, with exactly one stub to write, and everything type-checks", async () => {
  const { status, stderr } = await project.treaty("generate");
  expect(stderr).not.toMatch(/ - error /);
  expect(status).toBe(0);
  expect(stderr).toContain(`added adapter stub customV2_0 to ${STUBS}`);
  const stubs = project.read(STUBS);
  expect(stubs.match(/^export /gm)).toHaveLength(1);
  expect(stubs).toContain("export const customV2_0: treaty.CustomStep<generated.v1_1.DemoTicketV1_1, generated.v2_0.DemoTicketV2_0>");
  expect(project.typecheck(["src/consumer.ts"])).toEqual([]);
});

it("until the stub is written, adapting through it is a typed failure", async () => {
  const { decode } = await project.load<Registry>("generated/index.ts");
  const result = decode("demo.ticket", v1_0);
  expect(result.ok).toBe(false);
  expect(result).toMatchObject({ kind: "adapter-not-implemented", error: { class: "UNSUPPORTED_VERSION", code: "ADAPTER_NOT_IMPLEMENTED", retryable: false } });
  // The canonical version itself needs no adapter.
  expect(decode("demo.ticket", { contract: "demo.ticket", version: "2.0", id: "T-3", priority: "LOW", customer: { first_name: "Alan", last_name: "Turing" } }).ok).toBe(true);
});

it("once written, decodes 1.0 and 1.1 into the canonical 2.0 and encodes back to 1.1", async () => {
  const written = project
    .read(STUBS)
    .replace(/throw new treaty\.AdapterNotImplemented\("demo\.ticket", "customV2_0\.upgrade"\);/, UPGRADE)
    .replace(/throw new treaty\.AdapterNotImplemented\("demo\.ticket", "customV2_0\.downgrade"\);/, DOWNGRADE);
  project.write(STUBS, written);
  const { status } = await project.treaty("generate");
  expect(status).toBe(0);
  expect(project.read(STUBS)).toBe(written);
  expect(project.typecheck(["src/consumer.ts"])).toEqual([]);

  // A copy: the modules of the first load are cached by path.
  const ready = project.clone();
  const { decode, encode } = await ready.load<Registry>("generated/index.ts");
  ready.remove();
  const fromV1_0 = decode("demo.ticket", v1_0);
  expect(fromV1_0).toMatchObject({
    ok: true,
    version: "1.0",
    path: ["1.0", "1.1", "2.0"],
    value: { contract: "demo.ticket", version: "2.0", id: "T-1", priority: "HIGH", customer: { first_name: "Ada", last_name: "Lovelace" } },
  });
  expect(decode("demo.ticket", { ...v1_0, customer_name: "Ada King Lovelace" })).toMatchObject({
    ok: true,
    value: { customer: { first_name: "Ada", last_name: "Lovelace" } },
    dropped: [{ version: "1.1", path: "/customer_name" }],
  });
  const fromV1_1 = decode("demo.ticket", v1_1);
  expect(fromV1_1).toMatchObject({ ok: true, value: { id: "T-2", notes: "Asked twice.", customer: { first_name: "Grace", last_name: "" } } });

  if (!fromV1_0.ok) throw new Error("unreachable");
  const back = encode("demo.ticket", fromV1_0.value, "1.1");
  expect(back).toMatchObject({ ok: true, path: ["2.0", "1.1"], value: { ...v1_0, version: "1.1" } });
});
