import fc from "fast-check";

// Property tests are reproducible: every run explores the same values unless FC_SEED says otherwise.
fc.configureGlobal({ seed: Number(process.env["FC_SEED"] ?? 20261129) });
