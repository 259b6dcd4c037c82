// What a new user does, end to end, outside this repository: treaty installed from the tarball
// `npm pack` makes, `treaty init`, codegen, a consumer that type-checks against the generated code,
// the generated tests, a new minor version, an edit to a published one, and the generated package
// imported by name from a second workspace package and run with plain node.
// The steps run in order on one repo; npm's cache is shared between runs (os.tmpdir()).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const WORK = mkdtempSync(join(tmpdir(), "treaty-e2e-"));
const APP = join(WORK, "app");
const CONTRACT = "idl/orders/order.placed.yaml";
const GENERATED_PACKAGE = "@acme/orders-contracts";

// Installing from the registry is most of the cost; a cache outside the temp dir makes reruns fast.
const NPM_CACHE = join(tmpdir(), "treaty-e2e-npm-cache");

/** The environment a user's shell has: none of the npm or vitest variables of the run around this test. */
const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|VITEST|TREATY_|NODE_OPTIONS$)/i.test(key)));
  return { ...env, npm_config_cache: NPM_CACHE, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", npm_config_prefer_offline: "true" };
};

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in `cwd`; fails the test with its output when it does not exit with `status`. */
const run = (command: string, args: readonly string[], { cwd = APP, status = 0 } = {}): Run => {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== status) {
    throw new Error(`${command} ${args.join(" ")} exited ${result.status} (expected ${status})\n${result.stdout}\n${result.stderr}\n${result.error ?? ""}`);
  }
  return result;
};
const npm = (args: readonly string[], options?: { cwd?: string; status?: number }): Run => run("npm", args, options);
/** A bin installed in the app; `--no` so npx never fetches a namesake from the registry. */
const npx = (args: readonly string[], options?: { cwd?: string; status?: number }): Run => run("npx", ["--no", "--", ...args], options);

interface VitestReport {
  readonly numFailedTests: number;
  readonly numPassedTests: number;
  readonly testResults: readonly { readonly name: string; readonly assertionResults: readonly { readonly fullName: string }[] }[];
}

/** Runs the app's tests with vitest's JSON reporter; fails the test when vitest fails. */
const generatedTests = (): VitestReport => {
  const out = join(WORK, "vitest-report.json");
  npx(["vitest", "run", "--reporter=json", `--outputFile=${out}`]);
  return JSON.parse(readFileSync(out, "utf8")) as VitestReport;
};

const read = (path: string): string => readFileSync(join(APP, path), "utf8");
const writeFile = (path: string, text: string): void => {
  mkdirSync(join(APP, path, ".."), { recursive: true });
  writeFileSync(join(APP, path), text);
};
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * `npm pack` of this repository, whose `prepack` cleans and builds. It runs in a copy, so the
 * clean does not pull dist/ from under the tests running beside this one; the copy's
 * node_modules links to this repository's packages (not to its caches).
 */
const packTreaty = (): string => {
  const staging = join(WORK, "treaty");
  for (const path of ["package.json", "tsconfig.json", "README.md", "src", "templates", "idl/idl.schema.json"]) {
    cpSync(join(ROOT, path), join(staging, path), { recursive: true });
  }
  mkdirSync(join(staging, "node_modules"));
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry !== ".cache") symlinkSync(join(ROOT, "node_modules", entry), join(staging, "node_modules", entry));
  }
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", WORK], { cwd: staging }).stdout) as { filename: string }[];
  return join(WORK, packed[0]!.filename);
};

// Timeouts are generous: the first run downloads from the registry, CI has two cores.
const SLOW = 15 * 60_000;

beforeAll(() => {
  const tarball = packTreaty();
  mkdirSync(APP);
  // A new user's first step: install treaty into an empty directory.
  npm(["install", tarball]);
}, SLOW);

afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe("a new producer repo", () => {
  it("treaty init scaffolds it, and running init again changes nothing", () => {
    const first = npx(["treaty", "init"]).stderr;
    for (const path of ["treaty.config.json", CONTRACT, "tsconfig.json", "vitest.config.mts", ".github/workflows/contracts.yml"]) {
      expect(first).toContain(`created ${path}`);
    }
    expect(first).toMatch(/^updated package\.json/m);
    const manifest = read("package.json");
    const second = npx(["treaty", "init"]).stderr;
    expect(second).not.toMatch(/^(created|updated) /m);
    expect(read("package.json")).toBe(manifest);
  }, SLOW);

  it("installs, generates, and a consumer type-checks against the generated code", () => {
    npm(["install"]);
    npm(["run", "codegen"]);
    npm(["run", "contracts:check"]);
    npm(["run", "codegen", "--", "--check"]);
    writeFile(
      "src/consumer.ts",
      [
        'import { decode } from "../generated/index.js";',
        'import { check, errors, type OrderPlacedV1_0 } from "../generated/order.placed/v1_0/index.js";',
        "",
        'const order: OrderPlacedV1_0 = { contract: "order.placed", version: "1.0", order_id: "ORD-1", currency: "EUR", total_cents: 100, items: [{ sku: "A-1", quantity: 2 }] };',
        "const input: unknown = JSON.parse(JSON.stringify(order));",
        'export const currency: "EUR" | "USD" | undefined = check(input) ? input.currency : undefined;',
        "export const problems: readonly string[] = errors(input).map((issue) => issue.path);",
        'const decoded = decode("order.placed", input);',
        "export const id: string | undefined = decoded.ok ? decoded.value.order_id : undefined;",
        "",
      ].join("\n"),
    );
    npx(["tsc", "--noEmit"]);
    // And the compiler catches a consumer that misuses the types.
    writeFile("src/wrong.ts", 'import type { OrderPlacedV1_0 } from "../generated/order.placed/v1_0/index.js";\nexport const o: OrderPlacedV1_0["currency"] = "GBP";\n');
    expect(npx(["tsc", "--noEmit"], { status: 2 }).stdout).toContain("src/wrong.ts");
    rmSync(join(APP, "src/wrong.ts"));
  }, SLOW);

  it("runs the generated tests", () => {
    const report = generatedTests();
    expect(report.numFailedTests).toBe(0);
    expect(report.numPassedTests).toBeGreaterThan(20);
    expect(report.testResults.map((r) => r.name.slice(APP.length + 1))).toContain("generated/order.placed/order.placed.test.ts");
  }, SLOW);

  it("a new minor version passes check, regenerates, and the tests still pass", () => {
    const contract = read(CONTRACT);
    const added = ['  "1.1":', "    changes:", "      - add: note", "        optional: true", "        type: { type: string, maxLength: 500 }", ""].join("\n");
    writeFile(CONTRACT, contract.replace("\nexamples:", `${added}\nexamples:`));
    npx(["treaty", "check"]);
    npm(["run", "codegen"]);
    expect(readdirSync(join(APP, "generated/order.placed"))).toContain("v1_1");
    npx(["tsc", "--noEmit"]);
    const report = generatedTests();
    expect(report.numFailedTests).toBe(0);
    // The new version has its own describe block, and compatibility cases read 1.0 into 1.1.
    const titles = report.testResults.flatMap((r) => r.assertionResults.map((a) => a.fullName));
    expect(titles.some((t) => t.includes("1.1"))).toBe(true);
  }, SLOW);

  it("an edit to a published version fails check --against HEAD at its location", () => {
    run("git", ["init", "--quiet"]);
    run("git", ["add", "."]);
    run("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "--quiet", "-m", "contracts"]);
    const published = read(CONTRACT);
    const edited = published.replace("maxLength: 32\n        role: idempotency_key", "maxLength: 64\n        role: idempotency_key");
    expect(edited).not.toBe(published);
    writeFile(CONTRACT, edited);
    const { stderr } = npx(["treaty", "check", "--against", "HEAD"], { status: 1 });
    const located = /^idl\/orders\/order\.placed\.yaml:(\d+):(\d+) - error published-version-changed: .*1\.0/m.exec(stderr);
    expect(located, stderr).not.toBeNull();
    // It points into version 1.0, at or after its key.
    const versionLine = published.split("\n").indexOf('  "1.0":') + 1;
    expect(Number(located![1])).toBeGreaterThanOrEqual(versionLine);
    writeFile(CONTRACT, published);
    npx(["treaty", "check", "--against", "HEAD"]);
  }, SLOW);
});

describe("the generated package in a workspace", () => {
  it("a second workspace package imports it by name, type-checks and runs with plain node", () => {
    writeFile("treaty.config.json", json({ idl: "idl", out: "generated", package: { name: GENERATED_PACKAGE, version: "1.0.0" } }));
    const manifest = JSON.parse(read("package.json")) as Record<string, unknown>;
    writeFile("package.json", json({ ...manifest, workspaces: ["generated", "consumer"] }));
    writeFile(
      "consumer/package.json",
      json({ name: "consumer", version: "0.0.0", private: true, type: "module", dependencies: { [GENERATED_PACKAGE]: "1.0.0" } }),
    );
    writeFile(
      "consumer/tsconfig.json",
      json({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, types: [], rootDir: "src", outDir: "dist" },
        include: ["src"],
      }),
    );
    writeFile(
      "consumer/src/main.ts",
      [
        `import { decode } from "${GENERATED_PACKAGE}";`,
        `import { versions, type OrderPlaced } from "${GENERATED_PACKAGE}/order.placed";`,
        "",
        'const payload = { contract: "order.placed", version: "1.0", order_id: "ORD-7", currency: "USD", total_cents: 5, items: [{ sku: "B-2", quantity: 1 }] };',
        'const decoded = decode("order.placed", payload);',
        "if (!decoded.ok) throw new Error(decoded.error.message_safe);",
        "const order: OrderPlaced = decoded.value;",
        'export const summary = { order: order.order_id, path: decoded.path, valid: versions["1.1"].check(order), known: Object.keys(versions) };',
        "",
      ].join("\n"),
    );
    npm(["run", "codegen"]);
    expect(JSON.parse(read("generated/package.json"))).toMatchObject({ name: GENERATED_PACKAGE, type: "module" });
    npm(["install"]);
    npm(["run", "build", "--workspace", GENERATED_PACKAGE]);
    // The build's output is not treaty's: the generated files are still current.
    npx(["treaty", "generate", "--check"]);
    npx(["tsc", "-p", "consumer", "--noEmit"]);
    npx(["tsc", "-p", "consumer"]);
    const script = 'const { summary } = await import("./consumer/dist/main.js"); console.log(JSON.stringify(summary));';
    const printed = JSON.parse(run("node", ["--input-type=module", "--eval", script]).stdout) as unknown;
    expect(printed).toEqual({ order: "ORD-7", path: ["1.0", "1.1"], valid: true, known: ["1.0", "1.1"] });
  }, SLOW);
});
