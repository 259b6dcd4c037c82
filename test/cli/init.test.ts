// `treaty init`: what it scaffolds, that the example contract is clean, that it never overwrites a
// user's file (package.json is merged, never a script replaced), and that a second run changes nothing.
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempProject } from "../support/temp-project.js";


const project = (files: Record<string, string> = {}): string => tempProject("init", files);

/** Every file under `root`, path → contents. */
const snapshot = (root: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort()
      .map((path) => [relative(root, path), readFileSync(path, "utf8")]),
  );

const manifestOf = (root: string) => JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | string>;

const SCAFFOLD = ["treaty.config.json", "idl/orders/order.placed.yaml", "tsconfig.json", "vitest.config.mts", ".github/workflows/contracts.yml", ".gitignore"];

describe("treaty init in an empty directory", () => {
  const root = project();

  it("creates the scaffold and a package.json with the scripts and devDependencies", async () => {
    const { status, stderr } = await cli(["init"], root);
    expect(status).toBe(0);
    for (const path of SCAFFOLD) expect(stderr).toContain(`created ${path}\n`);
    expect(stderr).toContain("created package.json (");
    expect(Object.keys(snapshot(root)).sort()).toEqual([...SCAFFOLD, "package.json"].sort());
    const manifest = manifestOf(root);
    expect(manifest["type"]).toBe("module");
    expect(manifest["scripts"]).toEqual({ codegen: "treaty generate", "contracts:check": "treaty check" });
    expect(Object.keys(manifest["devDependencies"]!)).toEqual(["typescript", "vitest", "@types/node"]);
    expect(JSON.parse(readFileSync(join(root, "treaty.config.json"), "utf8"))).toEqual({ idl: "idl", out: "generated" });
  });

  it("scaffolds an example contract that check passes without a finding", async () => {
    const summary = "treaty: LLM projections (contracts per provider): openai 1, anthropic 1, gemini 1, mcp 1; 13 constraints of the newest versions left to the contracts' validators (--projections lists them)\n";
    expect(await cli(["check"], root)).toEqual({ status: 0, stdout: "", stderr: `treaty: 1 contract checked\n${summary}` });
  });

  it("scaffolds a CI workflow that runs the scripts it added", () => {
    const workflow = readFileSync(join(root, ".github/workflows/contracts.yml"), "utf8");
    const scripts = manifestOf(root)["scripts"] as Record<string, string>;
    for (const [, script] of workflow.matchAll(/npm run ([\w:]+)/g)) expect(scripts[script!]).toBeDefined();
    expect(workflow).toContain("npm run codegen -- --check");
    expect(workflow).toContain("npm run contracts:check -- --against origin/main");
  });

  it("keeps installed packages out of git, and treaty's tarball in", () => {
    const ignored = readFileSync(join(root, ".gitignore"), "utf8").split("\n").filter((line) => line && !line.startsWith("#"));
    expect(ignored).toEqual(["node_modules/"]);
  });

  it("changes nothing when run again", async () => {
    const before = snapshot(root);
    const { status, stderr } = await cli(["init"], root);
    expect(status).toBe(0);
    expect(stderr).not.toMatch(/^(created|updated) /m);
    for (const path of [...SCAFFOLD, "package.json"]) expect(stderr).toMatch(new RegExp(`^skipped ${path.replace(/\./g, "\\.")} `, "m"));
    expect(snapshot(root)).toEqual(before);
  });
});

describe("treaty init in an existing repo", () => {
  it("never overwrites a file and never replaces a script or dependency", async () => {
    const manifest = { name: "app", type: "commonjs", scripts: { codegen: "make codegen" }, devDependencies: { vitest: "^3.0.0" } };
    const root = project({
      "package.json": `${JSON.stringify(manifest, null, 4)}\n`,
      "tsconfig.json": "{ /* mine */ }\n",
      "vite.config.ts": "export default {};\n",
      "index.js": "module.exports = {};\n",
    });
    const { status, stderr } = await cli(["init"], root);
    expect(status).toBe(0);
    expect(stderr).toContain("skipped tsconfig.json (exists)\n");
    expect(stderr).toContain("skipped vitest.config.mts (vite.config.ts exists)\n");
    expect(stderr).toContain("updated package.json (script contracts:check, devDependency typescript, devDependency @types/node)\n");
    // A CommonJS package stays one; init says what to do instead.
    expect(stderr).toMatch(/note: package\.json says "type": "commonjs".*'package'/);
    // A script of treaty's name that runs something else is kept, and said: CI runs it.
    expect(stderr).toContain('treaty: note: the script codegen runs "make codegen", not "treaty generate": the scaffolded workflow and the README\'s steps run npm run codegen; make it run treaty generate\n');
    // A tsconfig that sets no module (its target's default takes no import.meta) is kept, and said.
    expect(stderr).toContain('treaty: note: tsconfig.json sets no "module", which cannot compile the generated code (ES modules using import.meta): set "module": "NodeNext" (and "moduleResolution": "NodeNext")\n');
    expect(readFileSync(join(root, "tsconfig.json"), "utf8")).toBe("{ /* mine */ }\n");
    const text = readFileSync(join(root, "package.json"), "utf8");
    expect(text).toMatch(/^ {4}"name"/m);
    expect(JSON.parse(text)).toEqual({
      ...manifest,
      scripts: { codegen: "make codegen", "contracts:check": "treaty check" },
      devDependencies: { vitest: "^3.0.0", typescript: expect.any(String), "@types/node": expect.any(String) },
    });
  });

  it("edits package.json in place: what it does not add keeps its text (numbers JSON.parse would round, escapes, layout, a byte-order mark)", async () => {
    const text = '{\n    "name": "x",\n    "type": "commonjs",\n    "description": "caf\\u00e9",\n    "config": { "limit": 1e400, "id": 12345678901234567890123, "zero": -0 },\n    "scripts": {},\n    "devDependencies": {\n        "vitest": "^3.0.0"\n    }\n}\n';
    const root = project({ "package.json": text });
    expect((await cli(["init"], root)).status).toBe(0);
    const { typescript, "@types/node": types } = manifestOf(root)["devDependencies"] as Record<string, string>;
    expect(readFileSync(join(root, "package.json"), "utf8")).toBe(
      '{\n    "name": "x",\n    "type": "module",\n    "description": "caf\\u00e9",\n    "config": { "limit": 1e400, "id": 12345678901234567890123, "zero": -0 },\n' +
        '    "scripts": {\n        "codegen": "treaty generate",\n        "contracts:check": "treaty check"\n    },\n' +
        `    "devDependencies": {\n        "vitest": "^3.0.0",\n        "typescript": "${typescript}",\n        "@types/node": "${types}"\n    }\n}\n`,
    );
    // On one line, with Windows line ends and a byte-order mark: new keys join the object's line; the rest is as it was.
    const windows = project({ "package.json": '\uFEFF{\r\n  "name": "x",\r\n  "scripts": { "build": "tsc" },\r\n  "devDependencies": { "typescript": "5", "vitest": "3", "@types/node": "20" }\r\n}\r\n' });
    expect((await cli(["init"], windows)).status).toBe(0);
    expect(readFileSync(join(windows, "package.json"), "utf8")).toBe(
      '\uFEFF{\r\n  "name": "x",\r\n  "scripts": { "build": "tsc", "codegen": "treaty generate", "contracts:check": "treaty check" },\r\n  "devDependencies": { "typescript": "5", "vitest": "3", "@types/node": "20" },\r\n  "type": "module"\r\n}\r\n',
    );
  });

  it("refuses a package.json that is not UTF-8, at its first bad byte, and writes nothing (it rewrote the byte as U+FFFD)", async () => {
    const root = project();
    writeFileSync(join(root, "package.json"), Buffer.from('{"name":"x",\n"description":"caf\xe9"}\n', "latin1"));
    const { status, stderr } = await cli(["init"], root);
    expect({ status, stderr }).toEqual({ status: 1, stderr: "package.json:2:19 - error read-failed: cannot read package.json: not UTF-8 text (save the file as UTF-8)\n1 error, 0 warnings\n" });
    expect(readdirSync(root)).toEqual(["package.json"]);
  });

  it("leaves the example out when the idl directory has contracts, and puts it where the config says", async () => {
    const withContracts = project({ "idl/x/a.thing.yaml": "contract: a.thing\n" });
    expect((await cli(["init"], withContracts)).stderr).toContain("skipped idl/orders/order.placed.yaml (idl/ already has contracts)\n");

    const configured = project({ "package.json": '{ "name": "app", "type": "module", "treaty": { "idl": "contracts" } }\n' });
    const { stderr } = await cli(["init"], configured);
    expect(stderr).toContain("created contracts/orders/order.placed.yaml\n");
    expect(stderr).toContain("skipped treaty.config.json (package.json has a 'treaty' key)\n");
  });

  it("exits 1 on a package.json that is not JSON, at its line:col, and writes nothing (the scaffold was written before it)", async () => {
    for (const [text, at] of [
      ["{ nope", "1:3"],
      ['{\n  "name": "x",\n  "scripts": { "a": "b", }\n}\n', "3:26"],
      ['{\n  "name": "x"\n  "private": true\n}\n', "3:3"],
    ]) {
      const root = project({ "package.json": text! });
      const { status, stderr } = await cli(["init"], root);
      expect({ status, stderr }).toEqual({ status: 1, stderr: expect.stringMatching(new RegExp(`^package\\.json:${at} - error json-syntax: not valid JSON: expected `)) });
      expect(snapshot(root)).toEqual({ "package.json": text });
    }
  });

  it("makes a package.json without \"type\" an ES module package when nothing in it is CommonJS, and says so", async () => {
    // What `npm install ./vendor/treaty-0.1.0.tgz` leaves in an empty directory, and one with an ES module entry.
    const cases: Record<string, string>[] = [
      { "package.json": '{\n  "dependencies": { "treaty": "file:vendor/treaty-0.1.0.tgz" }\n}\n' },
      { "package.json": '{ "name": "x", "main": "src/main", "bin": { "x": "bin/x.mjs" } }\n', "src/main.js": 'import fs from "node:fs";\n', "tsconfig.json": '{ "compilerOptions": { "module": "NodeNext" } }\n' },
    ];
    for (const files of cases) {
      const root = project(files);
      const { status, stderr } = await cli(["init"], root);
      expect(status).toBe(0);
      expect(manifestOf(root)["type"]).toBe("module");
      expect(stderr).toMatch(/^updated package\.json \(.*, "type": "module": no "type" and no CommonJS entry, bin or tsconfig\)$/m);
      expect(stderr).not.toContain("note: package.json");
      expect((await cli(["init"], root)).stderr).toMatch(/^skipped package\.json /m);
    }
  });

  it("makes the \"type\": \"commonjs\" npm init writes \"module\" when the package has no .js or .cjs file, and keeps it when it has one", async () => {
    // What `npm init -y` (npm 11) writes.
    const npmInit = `${JSON.stringify({ name: "app", version: "1.0.0", main: "index.js", scripts: { test: 'echo "Error: no test specified" && exit 1' }, type: "commonjs" }, null, 2)}\n`;
    const fresh = project({ "package.json": npmInit });
    const { status, stderr } = await cli(["init"], fresh);
    expect(status).toBe(0);
    expect(manifestOf(fresh)["type"]).toBe("module");
    expect(stderr).toMatch(/^updated package\.json \(.*, "type": "module": it said "commonjs" \(as npm init writes it\)/m);
    expect(stderr).not.toContain("note: package.json");
    for (const script of ["scripts/build.js", "lib/x.cjs"]) {
      const withScript = project({ "package.json": npmInit, [script]: "console.log(1);\n" });
      const kept = await cli(["init"], withScript);
      expect(manifestOf(withScript)["type"]).toBe("commonjs");
      expect(kept.stderr).toMatch(/note: package\.json says "type": "commonjs"/);
    }
  });

  it("keeps a package.json without \"type\" CommonJS when its entry, a bin or tsconfig.json is, and says which", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "package.json": '{ "name": "x" }\n', "index.js": 'const fs = require("fs");\n' }, "index.js uses require or exports"],
      [{ "package.json": '{ "name": "x", "main": "lib/main" }\n', "lib/main.js": "module.exports = {};\n" }, "lib/main.js uses require or exports"],
      [{ "package.json": '{ "name": "x", "main": "main.cjs" }\n' }, "main.cjs is a .cjs file"],
      [{ "package.json": '{ "name": "x", "bin": { "x": "bin/x.js" } }\n', "bin/x.js": "#!/usr/bin/env node\nexports.run = 1;\n" }, "bin/x.js uses require or exports"],
      [{ "package.json": '{ "name": "x" }\n', "tsconfig.json": '{\n  // ours\n  "compilerOptions": { "module": "CommonJS" }\n}\n' }, "tsconfig.json compiles to CommonJS"],
    ];
    for (const [files, sign] of cases) {
      const root = project(files);
      const { status, stderr } = await cli(["init"], root);
      expect(status).toBe(0);
      expect(manifestOf(root)["type"]).toBeUndefined();
      expect(stderr).toContain(`note: package.json has no "type" (CommonJS) and ${sign}, and the generated code is ES modules`);
      expect(stderr).toMatch(/'package' in treaty\.config\.json/);
    }
  });

  describe("treaty installed from a tarball outside the repo, which a CI checkout cannot reach", () => {
    const TARBALL = "treaty-0.1.0.tgz";
    /** `app/` beside `treaty/` (with its tarball), as `npm install ../treaty/treaty-0.1.0.tgz` in app/ leaves them. */
    const beside = (files: Record<string, string> = {}, spec = `file:../treaty/${TARBALL}`): string => {
      const manifest = `{\n  "dependencies": {\n    "treaty": "${spec}"\n  }\n}\n`;
      return join(project({ [`treaty/${TARBALL}`]: "the tarball\n", "app/package.json": manifest, ...files }), "app");
    };

    it("copies it into vendor/ and points the dependency there, saying both; a second run changes nothing", async () => {
      const root = beside();
      const { status, stderr } = await cli(["init"], root);
      expect(status).toBe(0);
      expect(stderr).toContain(`created vendor/${TARBALL} (copied from ../treaty/${TARBALL}, which a CI checkout cannot reach)\n`);
      expect(stderr).toMatch(new RegExp(`^updated package\\.json \\(.*, dependency treaty: file:vendor/${TARBALL}\\)$`, "m"));
      expect(stderr).toContain(`note: commit vendor/${TARBALL}: npm ci installs treaty from it\n`);
      expect(readFileSync(join(root, "vendor", TARBALL), "utf8")).toBe("the tarball\n");
      expect((manifestOf(root)["dependencies"] as Record<string, string>)["treaty"]).toBe(`file:vendor/${TARBALL}`);
      const before = snapshot(root);
      const again = await cli(["init"], root);
      expect(again.stderr).not.toMatch(/^(created|updated) /m);
      expect(again.stderr).not.toContain("vendor/");
      expect(snapshot(root)).toEqual(before);
    });

    it("takes a vendor/ copy that is the same file, and never overwrites one that differs", async () => {
      const same = beside({ [`app/vendor/${TARBALL}`]: "the tarball\n" });
      const { stderr } = await cli(["init"], same);
      expect(stderr).toContain(`skipped vendor/${TARBALL} (exists, the same as ../treaty/${TARBALL})\n`);
      expect((manifestOf(same)["dependencies"] as Record<string, string>)["treaty"]).toBe(`file:vendor/${TARBALL}`);

      const other = beside({ [`app/vendor/${TARBALL}`]: "an older build\n" });
      const differs = await cli(["init"], other);
      expect(differs.status).toBe(0);
      expect(differs.stderr).toContain(`skipped vendor/${TARBALL} (exists and differs from ../treaty/${TARBALL})\n`);
      expect(differs.stderr).toMatch(/note: package\.json installs treaty from \.\.\/treaty\/treaty-0\.1\.0\.tgz, outside this repo.*replace or remove it/);
      expect(readFileSync(join(other, "vendor", TARBALL), "utf8")).toBe("an older build\n");
      expect((manifestOf(other)["dependencies"] as Record<string, string>)["treaty"]).toBe(`file:../treaty/${TARBALL}`);
    });

    it("says what to do when the dependency is not a tarball it can copy", async () => {
      for (const spec of ["file:../treaty", "file:../treaty/treaty-9.9.9.tgz"]) {
        const root = beside({}, spec);
        const { status, stderr } = await cli(["init"], root);
        expect(status).toBe(0);
        expect(stderr).toContain(`note: package.json installs treaty from ${spec.slice(5)}, outside this repo, where a CI checkout cannot reach it: put treaty's tarball (npm pack) in vendor/`);
        expect(stderr).not.toContain("vendor/treaty");
        expect((manifestOf(root)["dependencies"] as Record<string, string>)["treaty"]).toBe(spec);
      }
    });

    it("fails without touching package.json when it cannot copy", async () => {
      const root = beside({ "app/vendor": "a file where vendor/ should be\n" });
      const before = readFileSync(join(root, "package.json"), "utf8");
      const files = snapshot(root);
      const { status, stderr } = await cli(["init"], root);
      expect(status).toBe(1);
      expect(stderr).toBe("error write-failed: cannot write into vendor: vendor is a file, not a directory; nothing was written\n1 error, 0 warnings\n");
      expect(readFileSync(join(root, "package.json"), "utf8")).toBe(before);
      expect(snapshot(root)).toEqual(files);
    });
  });

  it("fails before writing anything, with a coded diagnostic and no stack trace, on a manifest it cannot extend or a path it cannot write", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ "package.json": "[]\n" }, "package.json:1:1 - error invalid-value: package.json must be a JSON object\n"],
      [{ "package.json": '{ "scripts": "x" }\n' }, "package.json:1:14 - error invalid-value: 'scripts' in package.json must be an object\n"],
      [{ "package.json": '{\n  "name": "x",\n  "devDependencies": null\n}\n' }, "package.json:3:22 - error invalid-value: 'devDependencies' in package.json must be an object\n"],
      [{ "package.json": '{ "name": "x", "name": "y" }\n' }, "package.json:1:16 - error duplicate-key: duplicate key 'name'\n"],
      // JSON, but nested past what the YAML parser reads (at 1,000 levels V8 aborted the process, exit 134).
      [{ "package.json": `{"name":"x","a":${"[".repeat(1000)}${"]".repeat(1000)}}\n` }, "package.json:1:272 - error limit-exceeded: the nesting of this JSON is more than 256 levels; treaty allows at most 256 levels\n"],
      [{ idl: "a file where idl/ should be\n" }, "error write-failed: cannot write into idl/orders: idl is a file, not a directory; nothing was written\n"],
      [{ ".github": "a file where .github/ should be\n" }, "error write-failed: cannot write into .github/workflows: .github is a file, not a directory; nothing was written\n"],
    ];
    for (const [files, line] of cases) {
      const root = project(files);
      const before = snapshot(root);
      const { status, stderr } = await cli(["init"], root);
      expect({ files, status, stderr }).toEqual({ files, status: 1, stderr: `${line}1 error, 0 warnings\n` });
      expect(snapshot(root)).toEqual(before);
    }
    const dangling = project();
    symlinkSync(join(dangling, "nowhere.json"), join(dangling, "tsconfig.json"));
    const { status, stderr } = await cli(["init"], dangling);
    expect(status).toBe(0);
    expect(stderr).toContain("skipped tsconfig.json (exists)\n");
  });

  it("--help prints its usage and exits 0 without writing", async () => {
    const root = project();
    const { status, stdout } = await cli(["init", "--help"], root);
    expect(status).toBe(0);
    expect(stdout).toContain("treaty init");
    expect(snapshot(root)).toEqual({});
  });
});
