// The validator of an untagged union (test/fixtures/good-untagged-union): it selects the one
// variant a value can be of and reports inside it; a value of no variant gets one `union` issue.
import { describe, expect, it } from "vitest";
import { check, errors } from "../fixtures/good-untagged-union/expected/demo.message/v1_0/validator.js";

const base = { contract: "demo.message", version: "1.0", id: 1, content: [] as unknown[] };

describe("untagged union validators", () => {
  it("report inside the variant the distinguishing constant selects", () => {
    expect(errors({ ...base, content: [{ type: "text", text: 5 }] })).toEqual([expect.objectContaining({ path: "/content/0/text", code: "type" })]);
    expect(errors({ ...base, content: [{ type: "image" }] })).toEqual([expect.objectContaining({ path: "/content/0/data", code: "required" })]);
  });

  it("report one union issue at the union when no variant is selected", () => {
    expect(errors({ ...base, content: [{ type: "audio", text: "x" }] })).toEqual([expect.objectContaining({ path: "/content/0", code: "union" })]);
    expect(errors({ ...base, id: 1.5 })).toEqual([expect.objectContaining({ path: "/id", code: "union" })]);
    expect(errors({ ...base, priority: "MEDIUM" })).toEqual([expect.objectContaining({ path: "/priority", code: "union" })]);
  });

  it("select by own keys only: an inherited key selects no variant", () => {
    const target = Object.assign(Object.create({ url: "https://example.com" }) as object, { path: "a/b" });
    expect(check({ ...base, target })).toBe(true);
    expect(check({ ...base, target: { path: "a/b", url: "https://example.com" } })).toBe(false);
  });
});

describe("untagged unions told apart by patterns (test/fixtures/good-pattern-union)", async () => {
  const { check: checkAccount, errors: accountErrors } = await import("../fixtures/good-pattern-union/expected/demo.account/v1_0/validator.js");
  const account = { contract: "demo.account", version: "1.0", owner_id: "usr_abcd1234", plan: "FREE", holder: { id: "usr_1", name: "Ada" } };

  it("select the variant whose pattern a string matches, and report inside it", () => {
    expect(checkAccount({ ...account, owner_id: "org_abcd1234" })).toBe(true);
    expect(checkAccount({ ...account, plan: "X-042", avatar: "https://cdn/a.png" })).toBe(true);
    expect(accountErrors({ ...account, holder: { id: "org_1", name: "Acme" } })).toEqual([
      expect.objectContaining({ path: "/holder/seats", code: "required" }),
      expect.objectContaining({ path: "/holder/name", code: "unknown" }),
    ]);
  });

  it("report one union issue where a string matches no variant's pattern", () => {
    expect(accountErrors({ ...account, owner_id: "usr_short" })).toEqual([expect.objectContaining({ path: "/owner_id", code: "union" })]);
    expect(accountErrors({ ...account, avatar: "ftp://x" })).toEqual([expect.objectContaining({ path: "/avatar", code: "union" })]);
    expect(accountErrors({ ...account, holder: { id: "grp_1", name: "X" } })).toEqual([expect.objectContaining({ path: "/holder", code: "union" })]);
  });
});

describe("adapters of a union told apart by patterns (good-pattern-union 1.0 → 1.1)", async () => {
  const { registry } = await import("../fixtures/good-pattern-union/expected/index.js");
  const account = { contract: "demo.account", version: "1.0", owner_id: 42, plan: "FREE" };

  it("select the variant by its id's pattern and map only its enum", () => {
    const user = registry.decode("demo.account", { ...account, holder: { id: "usr_1", name: "Ada", role: "GUEST" } });
    expect(user).toMatchObject({ ok: true, value: { version: "1.1", holder: { id: "usr_1", role: "VIEWER" } } });
    const org = registry.decode("demo.account", { ...account, holder: { id: "org_1", seats: 3 } });
    expect(org).toMatchObject({ ok: true, value: { version: "1.1", holder: { id: "org_1", seats: 3 } } });
  });
});
