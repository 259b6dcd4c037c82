// `treaty check` on the LLM projections: one summary line in text (information, not findings),
// --projections for the per-version listing, and in --format json every contract version's
// providers (projected or opted out) with the ledger the generated llm/<provider>.json carries.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ContractProjections } from "../../src/project/report.js";
import { cli, tempProject } from "../support/temp-project.js";


const BOOKING = `contract: demo.booking
owner: demo-team
kind: result
enums:
  Seat:
    values:
      AISLE: Next to the aisle.
      WINDOW: Next to the window.
versions:
  "1.0":
    fields:
      note: { type: string, maxLength: 200, optional: true }
      guests: { type: int, min: 1, max: 9 }
      seat: Seat
      start_at: timestamp
      end_at: timestamp
    rules:
      - before: [start_at, end_at]
  "1.1":
    changes:
      - constrain: guests
        max: 12
`;

const ONLY_MCP = `contract: demo.ping
owner: demo-team
llm: { providers: [mcp] }
versions:
  "1.0":
    fields:
      id: { type: string, maxLength: 8 }
`;

const project = (files: Record<string, string> = {}): string => tempProject("check-projections", files);

describe("treaty check reports the LLM projections", () => {
  const root = project({ "idl/demo.booking.yaml": BOOKING, "idl/demo.ping.yaml": ONLY_MCP });

  it("in text, as one line however many contracts, and nothing as a finding", async () => {
    const { status, stderr } = await cli(["check"], root);
    expect(status).toBe(0);
    expect(stderr.split("\n").filter((line) => line.includes("projections"))).toEqual([
      // 1.1 of demo.booking: openai drops maxLength and the rule (2), anthropic also guests' min and max (4), gemini like openai (2), mcp the rule (1); demo.ping's mcp nothing.
      "treaty: LLM projections (contracts per provider): openai 1, anthropic 1, gemini 1, mcp 2; 9 constraints of the newest versions left to the contracts' validators (--projections lists them)",
    ]);
    expect(stderr).not.toMatch(/warning|error/);
  });

  it("--projections lists each version's providers with what each does not enforce", async () => {
    const { status, stderr } = await cli(["check", "--projections"], root);
    expect(status).toBe(0);
    const lines = stderr.split("\n");
    expect(lines).toEqual(
      expect.arrayContaining([
        "demo.booking (idl/demo.booking.yaml)",
        "  1.0 openai: 2 not enforced: /note maxLength, /end_at rule.before",
        "  1.0 anthropic: 4 not enforced: /note maxLength, /guests min, /guests max, /end_at rule.before",
        "  1.1 mcp: 1 not enforced: /end_at rule.before",
        "demo.ping (idl/demo.ping.yaml)",
        "  1.0 openai: opted out",
        "  1.0 mcp: enforces everything",
      ]),
    );
  });

  it("in --format json, per contract, version and provider, the ledger generate writes", async () => {
    const { status, stdout } = await cli(["check", "--format", "json"], root);
    expect(status).toBe(0);
    const { projections } = JSON.parse(stdout) as { projections: ContractProjections[] };
    expect(projections.map((c) => [c.contract, c.file, c.versions.map((v) => v.version)])).toEqual([
      ["demo.booking", "idl/demo.booking.yaml", ["1.0", "1.1"]],
      ["demo.ping", "idl/demo.ping.yaml", ["1.0"]],
    ]);
    const ping = projections[1]!.versions[0]!.providers;
    expect(ping.map((p) => [p.provider, p.status])).toEqual([["openai", "opted-out"], ["anthropic", "opted-out"], ["gemini", "opted-out"], ["mcp", "projected"]]);
    const anthropic = projections[0]!.versions[1]!.providers.find((p) => p.provider === "anthropic")!;
    expect(anthropic).toMatchObject({ status: "projected", name: "demo_booking", widened: [] });
    expect(anthropic.status === "projected" && anthropic.ledger).toContainEqual({ path: "/guests", constraint: "max", value: 12, words: "at most 12" });
    const openai = projections[0]!.versions[0]!.providers.find((p) => p.provider === "openai")!;
    expect(openai).toMatchObject({ widened: ["/note"] });

    // The same ledgers as the generated files, for every projected provider.
    expect((await cli(["generate"], root)).status).toBe(0);
    for (const contract of projections) {
      for (const version of contract.versions) {
        for (const p of version.providers) {
          const file = join(root, "generated", contract.contract, `v${version.version.replace(".", "_")}`, "llm", `${p.provider}.json`);
          if (p.status === "opted-out") expect(() => readFileSync(file)).toThrow();
          else expect(p.ledger).toEqual((JSON.parse(readFileSync(file, "utf8")) as { ledger: unknown }).ledger);
        }
      }
    }
  });

  it("follows the config's llm setting", async () => {
    const configured = project({ "treaty.config.json": '{ "llm": { "providers": ["gemini"] } }\n', "idl/demo.booking.yaml": BOOKING });
    const { projections } = JSON.parse((await cli(["check", "--format", "json"], configured)).stdout) as { projections: ContractProjections[] };
    expect(projections[0]!.versions[0]!.providers.filter((p) => p.status === "projected").map((p) => p.provider)).toEqual(["gemini"]);
  });

  it("leaves them out when an error stops the check", async () => {
    const broken = project({ "idl/demo.booking.yaml": BOOKING.replace("timestamp\n    rules", "timestampp\n    rules") });
    const json = await cli(["check", "--format", "json"], broken);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).not.toHaveProperty("projections");
    const text = await cli(["check", "--projections"], broken);
    expect(text.status).toBe(1);
    expect(text.stderr).not.toContain("projections");
  });
});
