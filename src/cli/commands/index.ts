import type { Command } from "../command.js";
import { checkCommand } from "./check.js";
import { compatCommand } from "./compat.js";
import { diffCommand } from "./diff.js";
import { generateCommand } from "./generate.js";
import { importCommand } from "./import.js";
import { initCommand } from "./init.js";

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [initCommand, generateCommand, checkCommand, diffCommand, compatCommand, importCommand];
