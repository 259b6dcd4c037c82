// With the config's `package` setting, the output directory is an npm package: consumers in another
// workspace or repo depend on it by name. Its TypeScript builds to dist/ (JS + .d.ts) with its
// own tsconfig, so a consumer needs neither a TS loader nor treaty's compiler options.
import type { Project } from "../ir/model.js";
import { contractDir } from "../ir/names.js";
import type { GeneratedPackage } from "../plan/plan.js";
import { TREATY_VERSION } from "../version.js";
import { generatedComment, generatedHeader, type EmittedFile } from "./file-builder.js";

/** Where the build puts a module's JS and declarations; `write` leaves that directory alone. */
export const PACKAGE_BUILD_DIR = "dist";

const entry = (module: string) => ({
  types: `./${PACKAGE_BUILD_DIR}/${module}.d.ts`,
  default: `./${PACKAGE_BUILD_DIR}/${module}.js`,
});

/** `package.json`: the index, each contract and the agents as exports; treaty itself as a peer, for `treaty/runtime`. */
export const emitPackageJson = (project: Project, pkg: GeneratedPackage): EmittedFile => {
  const manifest = {
    // npm's convention for a comment; it marks the file as treaty's, as the `@generated` header does elsewhere.
    "//": generatedComment(pkg.source),
    name: pkg.name,
    version: pkg.version,
    ...(pkg.description !== undefined && { description: pkg.description }),
    type: "module",
    types: entry("index").types,
    exports: {
      ".": entry("index"),
      ...Object.fromEntries(project.contracts.map((c) => [`./${contractDir(c.name)}`, entry(`${contractDir(c.name)}/index`)])),
      ...(project.agents ? { "./agents": entry("agents/index") } : {}),
      "./package.json": "./package.json",
    },
    files: [PACKAGE_BUILD_DIR],
    scripts: { build: "tsc -p tsconfig.json", prepack: "npm run build" },
    peerDependencies: { treaty: `^${TREATY_VERSION}` },
  };
  return { path: "package.json", language: "json", contents: `${JSON.stringify(manifest, null, 2)}\n` };
};

/** `tsconfig.json`: builds the generated modules, not their tests, to `dist/`. */
export const emitPackageTsconfig = (pkg: GeneratedPackage): EmittedFile => {
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023"],
      // Only what the generated code imports; a workspace's hoisted @types stay out.
      types: [],
      strict: true,
      skipLibCheck: true,
      declaration: true,
      rootDir: ".",
      outDir: PACKAGE_BUILD_DIR,
    },
    include: ["**/*.ts"],
    exclude: [PACKAGE_BUILD_DIR, "node_modules", "**/*.test.ts"],
  };
  return { path: "tsconfig.json", language: "json", contents: `${generatedHeader(pkg.source)}\n${JSON.stringify(tsconfig, null, 2)}\n` };
};
