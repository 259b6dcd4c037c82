// Diagnostics stay one line per finding whatever the names they echo hold: every control, separator
// and bidirectional character is printed as an escape, in text and in GitHub annotations.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "treaty-one-line-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// One of each class: C0 controls, DEL, C1 (NEL), line and paragraph separators, BOM, bidi
// overrides and isolates, zero-width, and an astral format character (a tag).
const CHARACTERS = ["\n", "\r", "\t", "\u0000", "\u001b", "\u007f", "\u0085", "\u2028", "\u2029", "\ufeff", "\u202e", "\u2066", "\u200b", "\u{e0001}"];
const escapeForYaml = (c: string): string => `\\U${c.codePointAt(0)!.toString(16).padStart(8, "0")}`;

const checkOutput = async (c: string, format: "text" | "github"): Promise<string> => {
  const dir = join(scratch, `${c.codePointAt(0)}-${format}`);
  mkdirSync(join(dir, "idl"), { recursive: true });
  const y = escapeForYaml(c);
  writeFileSync(
    join(dir, "idl", "demo.names.yaml"),
    `contract: demo.names\nowner: team\n"owner${y}": x\nversions:\n  "1.0${y}":\n    fields:\n      id: string\n`,
  );
  let out = "";
  const status = await runCli(["check", "--format", format], { cwd: dir, stdout: (t) => (out += t), stderr: (t) => (out += t) });
  expect(status).toBe(1);
  return out;
};

describe("diagnostics echo names on one line", () => {
  for (const c of CHARACTERS) {
    const name = `U+${c.codePointAt(0)!.toString(16).padStart(4, "0")}`;
    it(`escapes ${name} in text`, async () => {
      const lines = (await checkOutput(c, "text")).split("\n").filter((l) => l !== "");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^idl\/demo\.names\.yaml:3:1 - error unknown-key: unknown key 'owner\\/);
      expect(lines[1]).toMatch(/^idl\/demo\.names\.yaml:5:3 - error bad-version-key: version '1\.0\\/);
      expect(lines[2]).toBe("2 errors, 0 warnings");
      for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    });
    it(`escapes ${name} in --format github`, async () => {
      const lines = (await checkOutput(c, "github")).split("\n").filter((l) => l !== "");
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toMatch(/^::error file=idl\/demo\.names\.yaml,line=\d+,col=\d+,title=treaty [a-z-]+::/);
        expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
      }
    });
  }
  it("writes a version key 1.0 with a newline as '1.0\\n'", async () => {
    expect(await checkOutput("\n", "text")).toContain("version '1.0\\n' must be MAJOR.MINOR");
  });
});
