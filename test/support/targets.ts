// The projects the property tests run over: this repository's idl/ (generated into generated/) and
// every good fixture (generated into its expected/).
import { readdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

export interface Target {
  readonly name: string;
  /** The project root, with its idl/ below it. */
  readonly root: string;
  /** Where its generated code is. */
  readonly out: string;
}

export const targets: readonly Target[] = [
  { name: "idl", root: ROOT, out: join(ROOT, "generated") },
  ...readdirSync(join(ROOT, "test/fixtures"))
    .filter((c) => c.startsWith("good-"))
    .sort()
    .map((c) => ({ name: c, root: join(ROOT, "test/fixtures", c), out: join(ROOT, "test/fixtures", c, "expected") })),
];
