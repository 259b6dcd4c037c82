// `npm run test:e2e`: the end-to-end test of a new user (npm pack, install from the tarball, init,
// codegen, the scaffolded CI in a fresh clone), kept out of `npm test` for its minute of npm work.
import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// Not mergeConfig: it would append to `include` and `exclude` rather than replace them.
export default defineConfig({ ...base, test: { ...base.test, include: ["test/e2e/**/*.test.ts"], exclude: configDefaults.exclude } });
