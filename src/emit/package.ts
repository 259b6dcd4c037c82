// With the config's `package` setting, the output directory is an npm package: consumers in another
// workspace or repo depend on it by name. Its TypeScript builds to dist/ (JS + .d.ts) with its
// own tsconfig, so a consumer needs neither a TS loader nor treaty's compiler options. Generated code
// imports the hand-written modules beside the contracts (adapter stubs, agent bodies): the package
// compiles them too, so what it exports runs as the producer wrote it.
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { Project } from "../ir/model.js";
import { contractDir } from "../ir/names.js";
import type { GeneratedPackage } from "../plan/plan.js";
import { TREATY_VERSION } from "../version.js";
import { generatedComment, generatedHeader, jsonFile, type EmittedFile } from "./file-builder.js";

/** Where the build puts a module's JS and declarations; `write` leaves that directory alone. */
export const PACKAGE_BUILD_DIR = "dist";

/** Where the package's sources lie, as its tsconfig and exports name them. */
export interface PackageLayout {
  /** The tsconfig's `rootDir`, relative to the package: the nearest directory holding both the package and the IDL directory. */
  readonly rootDir: string;
  /** The package's directory relative to `rootDir` ("" when it is `rootDir`): where its modules land under dist/. */
  readonly dir: string;
}

const posixPath = (path: string): string => path.split(sep).join("/");
const outside = (from: string, to: string): boolean => {
  const path = relative(from, to);
  return path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path);
};

/**
 * The hand-written modules generated code imports are beside the contracts, in the IDL directory,
 * so the package's root is the nearest directory above both. It depends on the two directories
 * only, never on whether a stub exists yet: dist/ keeps one layout as stubs come and go.
 */
export const packageLayout = (outDir: string, idlDir: string): PackageLayout => {
  let root = resolve(outDir);
  while (outside(root, resolve(idlDir)) && dirname(root) !== root) root = dirname(root);
  return { rootDir: posixPath(relative(outDir, root)) || ".", dir: posixPath(relative(root, outDir)) };
};

const entry = (layout: PackageLayout, module: string) => {
  const at = [PACKAGE_BUILD_DIR, layout.dir, module].filter((part) => part !== "").join("/");
  return { types: `./${at}.d.ts`, default: `./${at}.js` };
};

/** `package.json`: the index, each contract and the agents as exports; treaty itself as a peer, for `treaty/runtime`. */
export const emitPackageJson = (project: Project, pkg: GeneratedPackage, layout: PackageLayout): EmittedFile => {
  const manifest = {
    // npm's convention for a comment; it marks the file as treaty's, as the `@generated` header does elsewhere.
    "//": generatedComment(pkg.source),
    name: pkg.name,
    version: pkg.version,
    ...(pkg.description !== undefined && { description: pkg.description }),
    type: "module",
    types: entry(layout, "index").types,
    exports: {
      ".": entry(layout, "index"),
      ...Object.fromEntries(project.contracts.map((c) => [`./${contractDir(c.name)}`, entry(layout, `${contractDir(c.name)}/index`)])),
      ...(project.agents ? { "./agents": entry(layout, "agents/index") } : {}),
      "./package.json": "./package.json",
    },
    files: [PACKAGE_BUILD_DIR],
    scripts: { build: "tsc -p tsconfig.json", prepack: "npm run build" },
    peerDependencies: { treaty: `^${TREATY_VERSION}` },
  };
  return jsonFile("package.json", manifest);
};

/** `tsconfig.json`: builds the generated modules, not their tests, and the hand-written ones they import, to `dist/`. */
export const emitPackageTsconfig = (pkg: GeneratedPackage, layout: PackageLayout): EmittedFile => {
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      // ES modules whatever the repo's own `type`: the package is one, and the hand-written files
      // it compiles in sit outside it, where NodeNext would follow the repo's package.json and
      // could emit CommonJS (a CommonJS repo is what `treaty init` suggests `package` for).
      module: "ES2022",
      moduleResolution: "Bundler",
      lib: ["ES2023"],
      // Every ambient type package installed beside it (the producer's @types/node), as the
      // producer's own build sees them: the hand-written bodies compiled in use console, fetch and
      // node: modules; the generated code itself needs none. TypeScript 6 includes none by default.
      types: ["*"],
      strict: true,
      skipLibCheck: true,
      declaration: true,
      rootDir: layout.rootDir,
      outDir: PACKAGE_BUILD_DIR,
    },
    include: ["**/*.ts"],
    exclude: [PACKAGE_BUILD_DIR, "node_modules", "**/*.test.ts"],
  };
  return { path: "tsconfig.json", language: "json", contents: `${generatedHeader(pkg.source)}\n${JSON.stringify(tsconfig, null, 2)}\n` };
};
