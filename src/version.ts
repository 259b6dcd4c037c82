import { readFileSync } from "node:fs";

/** treaty's own version, printed in every generated header and trace event. */
export const TREATY_VERSION: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
