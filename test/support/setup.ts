import { join } from "node:path";
import fc from "fast-check";
import { afterAll } from "vitest";
import { removeTemps } from "./temps.js";

// Property tests are reproducible: every run explores the same values unless FC_SEED says otherwise.
fc.configureGlobal({ seed: Number(process.env["FC_SEED"] ?? 20261129) });

// The throwaway projects of the tests share the repository's format cache (entries are keyed by
// content, treaty's and prettier's versions), so a file many tests generate is formatted once.
// Tests of the cache itself unset it.
process.env["TREATY_CACHE_DIR"] ??= join(import.meta.dirname, "../../node_modules/.cache/treaty");

// What this file's tests made through the support helpers (see temps.ts).
afterAll(removeTemps);
