// The watch follows links into idl/ as the listing does, and no further: a link to a directory above
// idl/ (`symlink-loop`) is not watched through. chokidar followed it, and through a link to the
// project root watched the whole project: a contract saved outside idl/ started a run.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { watch } from "../../src/watch/watch.js";
import { tempProject } from "../support/temp-project.js";

it("a contract saved where only a looping link under idl/ leads starts no run; one saved in idl/ does", async () => {
  const root = tempProject("watch-symlinks", { "idl/demo/demo.thing.yaml": "contract: demo.thing\n", "other/.keep": "" });
  symlinkSync("../..", join(root, "idl/demo/root"));
  let runs = 0;
  const errors: unknown[] = [];
  const watching = await watch({ idlDir: join(root, "idl"), files: [], ignoredDirs: [], run: async () => void runs++, onError: (error) => errors.push(error), settleMs: 20 });
  try {
    // Through the link, chokidar went round idl/demo/root/idl/demo/root/… until ELOOP, never ready.
    await Promise.race([watching.ready, sleep(10_000).then(() => Promise.reject(new Error("the watch was not ready in 10 s")))]);
    expect(runs).toBe(1);
    writeFileSync(join(root, "other/other.thing.yaml"), "contract: other.thing\n");
    mkdirSync(join(root, "other/deeper"));
    writeFileSync(join(root, "other/deeper/more.thing.yaml"), "contract: more.thing\n");
    await sleep(600);
    expect(runs).toBe(1);
    writeFileSync(join(root, "idl/demo/demo.thing.yaml"), "contract: demo.thing\nowner: x\n");
    await expect.poll(() => runs, { timeout: 5000 }).toBe(2);
    expect(errors).toEqual([]);
  } finally {
    await Promise.race([watching.close(), sleep(5000)]);
  }
});
