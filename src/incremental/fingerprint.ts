import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TREATY_VERSION } from "../version.js";

/** treaty's own code: the directory this module was loaded from (`dist/`, or `src/` under a loader), and its templates. */
const CODE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE_DIR = dirname(CODE_DIR);

/** The installed version of a dependency, looked up as Node does (`node_modules` of each directory up). */
const installedVersion = (name: string): string => {
  for (let dir = PACKAGE_DIR; ; dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      if (dirname(dir) === dir) return "absent";
    }
  }
};

let computed: string | undefined;

/**
 * What generated output depends on besides the inputs: treaty's version, every file of its code and
 * the versions of its dependencies. A rebuilt treaty of the same version (a checkout between
 * releases) has another fingerprint, so outputs an earlier build recorded are never trusted.
 */
export const compilerFingerprint = (): string => {
  if (computed) return computed;
  const hash = createHash("sha256").update(TREATY_VERSION);
  for (const dir of [CODE_DIR, join(PACKAGE_DIR, "templates")]) {
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(js|ts|hbs|json)$/.test(e.name) && !e.name.endsWith(".d.ts"))
      .map((e) => join(e.parentPath, e.name))
      .sort();
    for (const file of files) hash.update("\0").update(file.slice(PACKAGE_DIR.length)).update("\0").update(readFileSync(file));
  }
  try {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const name of Object.keys(manifest.dependencies ?? {}).sort()) hash.update(`\0${name}@${installedVersion(name)}`);
  } catch {
    hash.update("\0no package.json");
  }
  return (computed = hash.digest("hex"));
};
