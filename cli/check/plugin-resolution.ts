/**
 * Whether every configured plugin can be started at all: its `module` file exists, or its
 * `command` names an executable (a bare name on the plugin's PATH, a path relative to the
 * plugin's `cwd`). The kernel's loader has already rebased relative paths onto the config
 * file's folder, so this judges the paths the kernel will spawn.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { PincerConfig as KernelConfig } from '../../kernel/config/schema.js';
import type { PincerConfig } from '../kernel.js';

export interface PluginProblem {
  path: string;
  message: string;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return isFile(path);
  } catch {
    return false;
  }
}

/** A bare program name, looked up as the plugin's process would: on its PATH (its own env first). */
function onPath(program: string, pathVar: string | undefined): string | undefined {
  return (pathVar ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program)).find(isExecutable);
}

export function checkPluginEntries(config: PincerConfig, cwd: string, env: NodeJS.ProcessEnv): PluginProblem[] {
  const problems: PluginProblem[] = [];
  (config as KernelConfig).plugins?.forEach((plugin, index) => {
    if (plugin.module !== undefined) {
      const file = resolve(cwd, plugin.module);
      if (!isFile(file)) problems.push({ path: `plugins[${index}].module`, message: `plugin "${plugin.id}": no file at ${file}${isAbsolute(plugin.module) ? '' : ' (relative paths resolve against the config file\'s folder)'}` });
      return;
    }
    const program = plugin.command?.[0];
    if (program === undefined) return;
    if (!program.includes('/')) {
      if (!onPath(program, plugin.env?.PATH ?? env.PATH)) problems.push({ path: `plugins[${index}].command[0]`, message: `plugin "${plugin.id}": "${program}" is not an executable on PATH` });
      return;
    }
    const file = resolve(cwd, plugin.cwd ?? '.', program);
    if (!isExecutable(file)) problems.push({ path: `plugins[${index}].command[0]`, message: `plugin "${plugin.id}": ${file} is ${isFile(file) ? 'not executable' : 'missing'}` });
  });
  return problems;
}
