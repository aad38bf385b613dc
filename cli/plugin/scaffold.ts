/**
 * `pincer plugin new`: a plugin folder from the templates shipped with Pincer (`templates/plugin-
 * <lang>/**.tmpl`, `{{KEY}}` placeholders), plus the config entry that loads it. The TypeScript
 * plugin depends on the running Pincer package through `file:` until a registry release exists.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export type PluginLang = 'ts' | 'python';

export interface ScaffoldPlan {
  id: string;
  lang: PluginLang;
  /** The folder to create (must not exist, or be empty). */
  dir: string;
  /** The Pincer package root the new plugin builds against. */
  pincerRoot: string;
}

export interface ScaffoldResult {
  files: string[];
  toolName: string;
  configEntry: Record<string, unknown>;
}

/** `acme-tools` → `acme_tools_count_lines`: a tool name (`^[A-Za-z0-9_.-]{1,64}$`) that says whose it is. */
function toolNameFor(id: string): string {
  return `${id.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 50)}_count_lines`;
}

function configEntryFor(plan: ScaffoldPlan): Record<string, unknown> {
  return plan.lang === 'ts'
    ? { id: plan.id, module: join(plan.dir, 'dist', 'src', 'main.js'), lazy: true }
    : // The manifest says what the sandbox grants it (read before the process starts); keep its tools in step with TOOLS.
      { id: plan.id, command: ['python3', join(plan.dir, 'plugin.py')], manifest: join(plan.dir, 'pincer-plugin.json') };
}

/** package.json of a TypeScript plugin: the versions Pincer itself is built and tested with. */
function packageJson(plan: ScaffoldPlan): string {
  const own = JSON.parse(readFileSync(join(plan.pincerRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const pkg = {
    name: `pincer-plugin-${plan.id.toLowerCase()}`,
    version: '0.1.0',
    private: true,
    type: 'module',
    main: 'dist/src/main.js',
    scripts: { build: 'tsc -p tsconfig.json && node dist/src/write-manifest.js', test: 'vitest run' },
    dependencies: { pincer: `file:${plan.pincerRoot}`, zod: own.dependencies.zod },
    devDependencies: { '@types/node': own.devDependencies['@types/node'], typescript: own.devDependencies.typescript, vitest: own.devDependencies.vitest },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function templateFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? templateFiles(root, path) : entry.name.endsWith('.tmpl') ? [relative(root, path)] : [];
  });
}

/** Writes every file; the caller has checked that `plan.dir` is free. */
export function scaffoldPlugin(plan: ScaffoldPlan): ScaffoldResult {
  const templates = join(plan.pincerRoot, 'templates', `plugin-${plan.lang}`);
  const toolName = toolNameFor(plan.id);
  const configEntry = configEntryFor(plan);
  const values: Record<string, string> = {
    PLUGIN_ID: plan.id,
    TOOL_NAME: toolName,
    PINCER_SPEC: `file:${plan.pincerRoot}`,
    CONFIG_ENTRY: JSON.stringify(configEntry),
  };
  const files: string[] = [];
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(plan.dir, name)), { recursive: true });
    writeFileSync(join(plan.dir, name), text, { flag: 'wx' });
    files.push(name);
  };
  for (const template of templateFiles(templates).sort()) {
    // npm never packs a file named .gitignore, so the template is `gitignore.tmpl`.
    const name = template.replace(/\.tmpl$/, '').replace(/^gitignore$/, '.gitignore');
    write(name, readFileSync(join(templates, template), 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (all, key: string) => values[key] ?? all));
  }
  if (plan.lang === 'ts') write('package.json', packageJson(plan));
  return { files, toolName, configEntry };
}
