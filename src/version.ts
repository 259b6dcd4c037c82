// treaty's own version, printed in every generated header and trace event. One constant, kept by
// the runtime (which cannot read package.json where it runs); a test keeps it equal to package.json.
export { TREATY_VERSION } from "./runtime/version.js";
