// Directories a test file made through the support helpers, removed after that file's tests by
// setup.ts. Not by an `afterAll` in the helper's module: with `isolate: false` a module is loaded
// once per worker, so such a hook belonged to the first test file that imported it, and every later
// file's directories stayed in the OS temp directory.
import { rmSync } from "node:fs";

const made: string[] = [];

export const trackTemp = (dir: string): string => {
  made.push(dir);
  return dir;
};

export const removeTemps = (): void => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
};
