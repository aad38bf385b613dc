import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { sandboxSecurityViolations, validateSandboxSecurity } from '../../sdk/sandbox/validate-security.js';
import { makeWorkspace } from './fixtures.js';
import { tempDir } from './services.js';

const home = tempDir('home');
mkdirSync(join(home, '.ssh'));
const env = { home };
const refuse = (config: Parameters<typeof validateSandboxSecurity>[0]) => {
  try {
    validateSandboxSecurity(config, env);
  } catch (e) {
    return e as Error & { code: string };
  }
  throw new Error('expected a SECURITY_VIOLATION');
};

describe('validateSandboxSecurity', () => {
  it.each(['/:/host', '/etc:/e:ro', '/var/run/docker.sock:/var/run/docker.sock', '/run:/r', '/proc/1:/p'])('refuses bind %s naming the bind and the fix', (bind) => {
    const e = refuse({ binds: [bind] });
    expect(e.code).toBe('SECURITY_VIOLATION');
    expect(e.message).toContain(`bind mount "${bind}"`);
    expect(e.message).toContain('sandbox.docker.binds');
  });

  it('refuses credential directories under the home: directly, by covering them, and through a symlinked parent', () => {
    expect(refuse({ binds: [`${home}/.ssh:/keys`] }).message).toContain(`${home}/.ssh`);
    expect(refuse({ binds: [`${home}/.aws/credentials:/c`] }).message).toContain('.aws');
    expect(refuse({ binds: [`${home}:/home`] }).message).toContain('covers');
    const links = tempDir('links');
    symlinkSync('/etc', join(links, 'innocent'));
    symlinkSync(home, join(links, 'h'));
    expect(refuse({ binds: [`${links}/innocent/not-yet-there:/x`] }).message).toContain('resolves to "/etc/not-yet-there"');
    expect(refuse({ binds: [`${links}/h/.ssh:/x`] }).message).toContain('.ssh');
  });

  it('refuses relative sources and reserved targets unless overridden', () => {
    expect(refuse({ binds: ['data:/data'] }).message).toContain('non-absolute');
    const ws = makeWorkspace();
    expect(refuse({ binds: [`${ws}/src:/workspace`] }).message).toContain('reserved container path "/workspace"');
    expect(refuse({ binds: [`${ws}/src:/agent/x`] }).message).toContain('dangerouslyAllowReservedContainerTargets');
    expect(() => validateSandboxSecurity({ binds: [`${ws}/src:/workspace/src`], dangerouslyAllowReservedContainerTargets: true }, env)).not.toThrow();
  });

  it('keeps bind sources inside the allowed roots unless overridden', () => {
    const ws = makeWorkspace();
    const other = tempDir('other');
    expect(refuse({ binds: [`${other}:/data`], allowedSourceRoots: [ws] }).message).toContain('outside the allowed roots');
    expect(() => validateSandboxSecurity({ binds: [`${ws}/src:/data`], allowedSourceRoots: [ws] }, env)).not.toThrow();
    expect(() => validateSandboxSecurity({ binds: [`${other}:/data`], allowedSourceRoots: [ws], dangerouslyAllowExternalBindSources: true }, env)).not.toThrow();
  });

  it('judges a bind whose source is a dangling symlink by where the symlink points', () => {
    const ws = makeWorkspace();
    // Creating the missing mount source would create it at the symlink's target, outside the workspace.
    symlinkSync('/etc/pincer-not-there/x', join(ws, 'dangling-etc'));
    symlinkSync(join(tempDir('outside'), 'not-yet'), join(ws, 'dangling-out'));
    expect(refuse({ binds: [`${ws}/dangling-etc:/data`], allowedSourceRoots: [ws] }).message).toContain('resolves to "/etc/pincer-not-there/x"');
    expect(refuse({ binds: [`${ws}/dangling-out/sub:/data`], allowedSourceRoots: [ws] }).message).toContain('outside the allowed roots');
    symlinkSync('src', join(ws, 'inner-dir-link'));
    expect(() => validateSandboxSecurity({ binds: [`${ws}/inner-dir-link:/data`], allowedSourceRoots: [ws] }, env)).not.toThrow();
  });

  it('refuses host and container:* networking', () => {
    expect(refuse({ network: 'HOST' }).message).toContain('network mode "HOST" is blocked');
    expect(refuse({ network: 'container:db' }).message).toContain('dangerouslyAllowContainerNamespaceJoin');
    expect(() => validateSandboxSecurity({ network: 'container:db', dangerouslyAllowContainerNamespaceJoin: true }, env)).not.toThrow();
  });

  it('reports every problem of a config at once, each naming its bind or key', () => {
    const found = sandboxSecurityViolations({ binds: ['/etc:/e', '/proc:/p'], network: 'host', readOnlyRoot: false }, env);
    expect(found.map((e) => e.data?.rule)).toEqual(['blocked-path', 'blocked-path', 'network-host', 'writable-root']);
  });
});

describe('container hardening: each weakening needs its dangerouslyAllow… override', () => {
  const profiles = tempDir('seccomp');
  const profile = (name: string, body: unknown) => {
    const file = join(profiles, name);
    writeFileSync(file, JSON.stringify(body));
    return file;
  };
  const allowAll = profile('allow-all.json', { defaultAction: 'SCMP_ACT_ALLOW' });
  const allowAndLog = profile('allow-log.json', { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mkdir'], action: 'SCMP_ACT_LOG' }] });
  const denyMkdir = profile('deny-mkdir.json', { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mkdir', 'mkdirat'], action: 'SCMP_ACT_ERRNO' }] });

  it.each([
    ['an allow-all seccomp profile', { seccompProfile: allowAll }, 'dangerouslyAllowUnconfinedSeccomp'],
    ['a profile whose only rule logs', { seccompProfile: allowAndLog }, 'dangerouslyAllowUnconfinedSeccomp'],
    ['seccomp unconfined', { seccompProfile: 'Unconfined' }, 'dangerouslyAllowUnconfinedSeccomp'],
    ['apparmor unconfined', { apparmorProfile: 'unconfined' }, 'dangerouslyAllowUnconfinedAppArmor'],
    ['capDrop []', { capDrop: [] }, 'dangerouslyAllowCapabilities'],
    ['capDrop without ALL', { capDrop: ['NET_RAW'] }, 'dangerouslyAllowCapabilities'],
    ['readOnlyRoot false', { readOnlyRoot: false }, 'dangerouslyAllowWritableRoot'],
    ['user 0:0', { user: '0:0' }, 'dangerouslyAllowRootUser'],
    ['user root', { user: 'root' }, 'dangerouslyAllowRootUser'],
    ['user 00:1000', { user: '00:1000' }, 'dangerouslyAllowRootUser'],
  ] as const)('refuses %s, naming the override, and accepts it with the override', (_what, weak, flag) => {
    const e = refuse(weak);
    expect(e.code).toBe('SECURITY_VIOLATION');
    expect(e.message).toContain(`sandbox.docker.${flag}=true`);
    expect(() => validateSandboxSecurity({ ...weak, [flag]: true }, env)).not.toThrow();
  });

  it('accepts a profile that denies something, an unprivileged user and the defaults', () => {
    expect(() => validateSandboxSecurity({ seccompProfile: denyMkdir, user: '1000:1000', capDrop: ['ALL'], readOnlyRoot: true }, env)).not.toThrow();
    const defaults = resolveSandboxConfig().docker;
    expect(() => validateSandboxSecurity(defaults, env)).not.toThrow();
  });

  it('refuses a seccomp profile it cannot read or that is not one, as a config error naming the key', () => {
    expect(refuse({ seccompProfile: 'profile.json' })).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('not an absolute path') });
    expect(refuse({ seccompProfile: join(profiles, 'missing.json') })).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('cannot be read (ENOENT)') });
    expect(refuse({ seccompProfile: profile('not-seccomp.json', { hello: 1 }) })).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('no "defaultAction"') });
  });

  it('ships resource limits by default, each overridable', () => {
    expect(resolveSandboxConfig().docker).toMatchObject({ pidsLimit: 512, memory: '2g' });
    expect(resolveSandboxConfig({ docker: { pidsLimit: 0, memory: '8g' } }).docker).toMatchObject({ pidsLimit: 0, memory: '8g' });
  });

  it('refuses a misspelt setting instead of ignoring it, above all a dangerous override', () => {
    expect(() => resolveSandboxConfig({ docker: { dangerouslyAllowWritableroot: true } as never })).toThrow(/docker\.dangerouslyAllowWritableroot: Unrecognized key/);
    expect(() => resolveSandboxConfig({ docker: { containerPrefix: '' } })).toThrow(/containerPrefix/);
  });
});

