// treaty's version, for the compiler (src/version.ts re-exports it) and the runtime alike. A
// constant, not a read of package.json: generated code compiles the runtime without Node's types
// and may run where there is no file system. A test keeps it equal to package.json.

/** treaty's own version (package.json `version`). */
export const TREATY_VERSION = "0.1.0";
