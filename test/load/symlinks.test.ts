// Contract files and directories under idl/ that are symlinks are read like any other, at their
// path under idl/ (they were skipped without a word: a contract linked in was not compiled, or
// `no-contracts`). A directory link that leads to a directory it is in is a loop: `symlink-loop`,
// a warning, and the contracts around it are read. Real symlinks in a temp directory.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { cli, tempProject } from "../support/temp-project.js";

const contract = (name: string, extra = ""): string =>
  `contract: ${name}\nowner: tests\nversions:\n  "1.0":\n    fields:\n      id: { type: string, maxLength: 10${extra} }\n`;

it("a symlinked contract file is read at its path under idl/, and a symlinked directory is searched, wherever it leads", async () => {
  // Contracts shared from outside the project: one file linked in, one directory linked in.
  const shared = tempProject("symlinks-shared", { "demo.thing.yaml": contract("demo.thing"), "billing/billing.invoice.yaml": contract("billing.invoice") });
  const root = tempProject("symlinks", { "treaty.config.json": `{ "tests": false }\n`, "idl/local/local.item.yaml": contract("local.item") });
  mkdirSync(join(root, "idl/demo"));
  symlinkSync(join(shared, "demo.thing.yaml"), join(root, "idl/demo/demo.thing.yaml"));
  symlinkSync(join(shared, "billing"), join(root, "idl/billing"));
  expect(await cli(["generate", "--quiet"], root)).toEqual({ status: 0, stdout: "", stderr: "" });
  for (const name of ["local.item", "demo.thing", "billing.invoice"]) expect(existsSync(join(root, `generated/${name}/v1_0/types.ts`)), name).toBe(true);
  expect(readFileSync(join(root, "generated/billing.invoice/v1_0/types.ts"), "utf8")).toContain("idl/billing/billing.invoice.yaml");

  // A diagnostic in a linked file is at its path under idl/.
  writeFileSync(join(shared, "billing/billing.invoice.yaml"), contract("billing.invoice", ", colour: red"));
  const { status, stderr } = await cli(["check"], root);
  expect(status).toBe(1);
  expect(stderr).toMatch(/^idl\/billing\/billing\.invoice\.yaml:6:\d+ - error unknown-key: /m);
});

it("a directory link into a directory it is in is symlink-loop, not followed; a link leading nowhere is read-failed at its path", async () => {
  const root = tempProject("symlinks-loop", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("demo.thing") });
  symlinkSync("..", join(root, "idl/demo/up"));
  symlinkSync(join(root, "idl"), join(root, "idl/demo/self"));
  const loops = {
    status: 0,
    stdout: "",
    stderr:
      "warning symlink-loop: idl/demo/self is a symlink to idl, a directory it is in: not followed (it would list the same contracts without end)\n" +
      "warning symlink-loop: idl/demo/up is a symlink to idl, a directory it is in: not followed (it would list the same contracts without end)\n" +
      "0 errors, 2 warnings\n",
  };
  expect(await cli(["generate", "--quiet"], root)).toEqual(loops);
  expect(existsSync(join(root, "generated/demo.thing/v1_0/types.ts"))).toBe(true);
  // A rerun that finds nothing changed, and check, say it too.
  expect(await cli(["generate", "--quiet"], root)).toEqual(loops);
  expect(await cli(["check"], root)).toMatchObject({ status: 0, stderr: expect.stringContaining(loops.stderr.split("\n")[0]!) });

  symlinkSync("gone.yaml", join(root, "idl/demo/other.thing.yaml"));
  expect(await cli(["check"], root)).toMatchObject({
    status: 1,
    stderr: expect.stringContaining("idl/demo/other.thing.yaml:1:1 - error read-failed: cannot read idl/demo/other.thing.yaml: no such file\n"),
  });
});

it("a directory link to a directory above idl/ (the project root, or past it) is symlink-loop at the link, not followed", async () => {
  // Followed, the link to the root compiled other/ from outside idl/, and said idl/demo/root/idl was the loop.
  const root = tempProject("symlinks-above", { "treaty.config.json": `{ "tests": false }\n`, "idl/demo/demo.thing.yaml": contract("demo.thing"), "other/other.thing.yaml": contract("other.thing") });
  symlinkSync("../..", join(root, "idl/demo/root"));
  symlinkSync(join(root, ".."), join(root, "idl/demo/past"));
  expect(await cli(["generate", "--quiet"], root)).toEqual({
    status: 0,
    stdout: "",
    stderr:
      "warning symlink-loop: idl/demo/past is a symlink to .., a directory it is in: not followed (it would list the same contracts without end)\n" +
      "warning symlink-loop: idl/demo/root is a symlink to ., a directory it is in: not followed (it would list the same contracts without end)\n" +
      "0 errors, 2 warnings\n",
  });
  expect(existsSync(join(root, "generated/demo.thing/v1_0/types.ts"))).toBe(true);
  expect(existsSync(join(root, "generated/other.thing"))).toBe(false);
});
