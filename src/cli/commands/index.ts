import type { Command } from "../command.js";
import { checkCommand } from "./check.js";
import { compatCommand } from "./compat.js";
import { diffCommand } from "./diff.js";
import { generateCommand } from "./generate.js";

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [generateCommand, checkCommand, diffCommand, compatCommand];
