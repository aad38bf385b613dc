/**
 * What a plugin declares it needs from the host, in its static manifest (`pincer-plugin.json`,
 * key `confinement`). The kernel starts the plugin under bubblewrap with exactly that: every
 * other path absent, no network unless declared, no new process unless declared, a cleared
 * environment plus the declared names. A plugin with no declaration gets none of these.
 */
import * as z from 'zod';
import { lazySchema } from '../lazy-schema.js';

/**
 * Placeholders a declared path may start with. `${workspace}` stands for every workspace of
 * the agents that enable the plugin; `${dataDir}` for the plugin's own data directory;
 * `${skillRoots}` for the configured skill roots (nothing when none is configured).
 * @since 1
 */
export const CONFINEMENT_PLACEHOLDERS = ['${workspace}', '${dataDir}', '${skillRoots}'] as const;

/**
 * `${settings.a.b}`: the path (or list of paths) the operator's setting at that dot path names,
 * relative to the plugin's working directory; nothing while the setting is unset. For a plugin
 * whose settings say where it keeps or reads its files (an outbox directory, a secret file).
 * @since 1
 */
const SETTING_PLACEHOLDER = /^\$\{settings\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\}(?:\/|$)/;

/** One declared path: absolute, or a placeholder followed by an optional `/sub/path`. @since 1 */
export const ConfinedPath = lazySchema(() => z.strictObject({
  path: z
    .string()
    .min(1)
    .refine((p) => p.startsWith('/') || SETTING_PLACEHOLDER.test(p) || CONFINEMENT_PLACEHOLDERS.some((h) => p === h || p.startsWith(`${h}/`)), {
      message: `must be absolute or start with one of ${CONFINEMENT_PLACEHOLDERS.join(', ')}, \${settings.<key>}`,
    })
    .refine((p) => !p.split('/').includes('..') && !p.includes('\0'), { message: 'must not contain ".." or NUL' }),
  access: z.enum(['ro', 'rw']),
}));
export type ConfinedPath = z.infer<typeof ConfinedPath>;

/** A host name, `*.domain`, or either with `:port`. @since 1 */
const HostPattern = lazySchema(() => z.string().regex(/^(\*\.)?[a-z0-9]([a-z0-9.-]{0,252})(:\d{1,5})?$/i, 'a host name, "*.domain", optionally ":port"'));

/**
 * Network: `none` (an empty network namespace), `loopback` (only services on this machine's
 * loopback, through the kernel's filtering proxy), `{ hosts }` (only those names, through the
 * same proxy), or `host` (the host's network, unfiltered).
 * @since 1
 */
export const ConfinedNetwork = lazySchema(() => z.union([z.enum(['none', 'loopback', 'host']), z.strictObject({ hosts: z.array(HostPattern).min(1) })]));
export type ConfinedNetwork = z.infer<typeof ConfinedNetwork>;

/** Environment variable names: the plugin gets these from its config's `env` or the kernel's environment. */
const EnvName = lazySchema(() => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'));

/** The grants themselves. @since 1 */
export const ConfinementGrants = lazySchema(() => z.strictObject({
  filesystem: z.array(ConfinedPath).default([]),
  network: ConfinedNetwork.default('none'),
  /** May start other processes (without it, fork is refused by a seccomp filter). */
  spawn: z.boolean().default(false),
  env: z.array(EnvName).default([]),
}));
export type ConfinementGrants = z.output<typeof ConfinementGrants>;

/**
 * A grant that depends on the operator's settings for the plugin: when the setting at `setting`
 * (a dot path into `settings`) equals (or, with `notEquals`, differs from) the value, the plugin
 * gets `add` on top, or runs `unconfined` (for modes an operator names as dangerous).
 * @since 1
 */
export const ConditionalGrant = lazySchema(() => z
  .strictObject({
    setting: z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'a dot path into the settings'),
    equals: z.union([z.string(), z.number(), z.boolean()]).optional(),
    notEquals: z.union([z.string(), z.number(), z.boolean()]).optional(),
    add: ConfinementGrants.partial().optional(),
    unconfined: z.literal(true).optional(),
  })
  .refine((g) => (g.equals === undefined) !== (g.notEquals === undefined), { message: 'give exactly one of "equals" and "notEquals"' })
  .refine((g) => (g.add === undefined) !== (g.unconfined === undefined), { message: 'give exactly one of "add" and "unconfined"' }));
export type ConditionalGrant = z.infer<typeof ConditionalGrant>;

/**
 * A plugin that cannot be confined meaningfully says so, and why (shown by `pincer plugins`):
 * it runs unconfined, and `confinement.requireDeclaration` refuses it like an undeclared one.
 * @since 1
 */
export const DeclaredUnconfined = lazySchema(() => z.strictObject({ unconfined: z.string().min(1).max(300) }));

/** The manifest's `confinement` block: grants, or a stated reason to run unconfined. @since 1 */
export const PluginConfinement = lazySchema(() => z.union([DeclaredUnconfined, ConfinementGrants.extend({ when: z.array(ConditionalGrant).default([]) })]));
export type PluginConfinement = z.output<typeof PluginConfinement>;
export type PluginConfinementInput = z.input<typeof PluginConfinement>;

/**
 * Env var naming the Unix socket of the kernel's filtering proxy inside a confined plugin
 * (declared `loopback` or `hosts`): an HTTP proxy accepting `CONNECT host:port` and absolute-URI
 * `http:` requests; the plugin speaks to it over that socket (its namespace has no other route).
 * @since 1
 */
export const PROXY_SOCKET_ENV = 'PINCER_PROXY_SOCKET';
/** Env var carrying the grants a confined plugin runs with (JSON), so the SDK can name a denial. @since 1 */
export const CONFINEMENT_ENV = 'PINCER_CONFINEMENT';
