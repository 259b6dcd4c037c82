// .mts: an ES module whatever package.json's "type" says.
import { defineConfig } from "vitest/config";

// treaty generates tests beside each contract's code (generated/<contract>/*.test.ts); vitest's
// default include finds them. Built copies under dist/ are not run twice.
export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "**/dist/**"],
  },
});
