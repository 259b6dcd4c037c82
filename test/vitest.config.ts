import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  resolve: {
    // Generated code imports treaty's runtime by package name; tests run it from source.
    alias: {
      "treaty/runtime": fileURLToPath(new URL("../src/runtime/index.ts", import.meta.url)),
      "treaty/typebox": fileURLToPath(new URL("../src/runtime/typebox.ts", import.meta.url)),
    },
  },
  test: {
    // Also the regression tests treaty generates beside each contract, here and in the golden fixtures.
    include: ["test/**/*.test.ts", "generated/**/*.test.ts"],
    setupFiles: ["test/support/setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
