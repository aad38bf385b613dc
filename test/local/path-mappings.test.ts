import { describe, expect, it } from 'vitest';
import { isWorkspaceError, mapWorkspacePath, resolvePathMapping, type PathMapping } from '../../sdk/fs-bridge/index.js';

const ws: PathMapping = { hostRoot: '/srv/ws', containerRoot: '/workspace' };

describe('path mapping admission', () => {
  it('admits nothing when the mapping list is empty', () => {
    expect(resolvePathMapping([], '/workspace/a.txt')).toBeNull();
    expect(() => mapWorkspacePath([], 'a.txt')).toThrow(/no path mappings/);
  });

  it('resolves a relative path against the primary container root', () => {
    const mapped = mapWorkspacePath([ws], 'src/a.ts');
    expect(mapped.containerPath).toBe('/workspace/src/a.ts');
    expect(mapped.hostPath).toBe('/srv/ws/src/a.ts');
  });

  it('admits an absolute path inside the namespace and the root itself', () => {
    expect(mapWorkspacePath([ws], '/workspace/x').hostPath).toBe('/srv/ws/x');
    expect(mapWorkspacePath([ws], '/workspace').hostPath).toBe('/srv/ws');
    expect(mapWorkspacePath([ws], '').hostPath).toBe('/srv/ws');
  });

  it('never falls back to the host root for an unmatched path', () => {
    expect(resolvePathMapping([ws], '/srv/ws/a.txt')).toBeNull();
    expect(() => mapWorkspacePath([ws], '/etc/passwd')).toThrow(expect.objectContaining({ code: 'PATH_NOT_ADMITTED' }));
  });

  it('refuses a dot-dot escape lexically with PATH_OUTSIDE_MOUNT', () => {
    for (const input of ['../etc/passwd', 'a/../../etc', '/workspace/../etc/passwd']) {
      try {
        mapWorkspacePath([ws], input);
        expect.unreachable(input);
      } catch (error) {
        expect(isWorkspaceError(error, 'PATH_OUTSIDE_MOUNT')).toBe(true);
      }
    }
    expect(mapWorkspacePath([ws], 'a/../b').containerPath).toBe('/workspace/b');
  });

  it('does not confuse a sibling with a common prefix for a child', () => {
    expect(resolvePathMapping([ws], '/workspace2/a')).toBeNull();
  });

  it('lets the deepest matching root win regardless of order', () => {
    const skills: PathMapping = { hostRoot: '/srv/skills', containerRoot: '/workspace/skills', readOnly: true };
    expect(resolvePathMapping([ws, skills], '/workspace/skills/a/SKILL.md')?.mapping).toBe(skills);
    expect(resolvePathMapping([skills, ws], '/workspace/skills/a/SKILL.md')?.hostPath).toBe('/srv/skills/a/SKILL.md');
    expect(resolvePathMapping([skills, ws], '/workspace/skillsx')?.mapping).toBe(ws);
  });

  it('keeps the given order between equal roots', () => {
    const first: PathMapping = { hostRoot: '/one', containerRoot: '/workspace' };
    const second: PathMapping = { hostRoot: '/two', containerRoot: '/workspace/' };
    expect(resolvePathMapping([first, second], '/workspace/a')?.mapping).toBe(first);
    expect(resolvePathMapping([second, first], '/workspace/a')?.mapping).toBe(second);
  });

  it('keeps a literal backslash as a file name character under a POSIX root', () => {
    const mapped = resolvePathMapping([ws], '/workspace/dir\\..\\..\\etc');
    expect(mapped?.relative).toBe('dir\\..\\..\\etc');
    expect(mapped?.hostPath).toBe('/srv/ws/dir\\..\\..\\etc');
  });

  it('compares a Windows drive root case-insensitively and keeps the file name case', () => {
    const win: PathMapping = { hostRoot: '/srv/win', containerRoot: 'C:\\Work' };
    const mapped = resolvePathMapping([win], 'c:\\WORK\\Src\\Main.TS');
    expect(mapped?.relative).toBe('Src\\Main.TS');
    expect(mapped?.hostPath).toBe('/srv/win/Src/Main.TS');
    expect(resolvePathMapping([win], 'C:/work/a.txt')?.relative).toBe('a.txt');
    expect(resolvePathMapping([win], 'D:\\Work\\a.txt')).toBeNull();
    expect(resolvePathMapping([win], 'C:\\Work\\..\\Other')).toBeNull();
  });

  it('compares a UNC root case-insensitively and refuses a rootless Windows path', () => {
    const unc: PathMapping = { hostRoot: '/srv/unc', containerRoot: '\\\\Server\\Share' };
    expect(resolvePathMapping([unc], '\\\\SERVER\\share\\Docs\\A.md')?.hostPath).toBe('/srv/unc/Docs/A.md');
    expect(resolvePathMapping([unc], '\\\\other\\share\\a')).toBeNull();
    expect(resolvePathMapping([{ hostRoot: '/x', containerRoot: '\\rootless' }], '\\rootless\\a')).toBeNull();
  });

  it('resolves relative paths against a Windows primary root in Windows syntax', () => {
    const win: PathMapping = { hostRoot: '/srv/win', containerRoot: 'C:\\Work' };
    expect(mapWorkspacePath([win], 'sub\\File.txt').hostPath).toBe('/srv/win/sub/File.txt');
    expect(() => mapWorkspacePath([win], '..\\escape')).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_MOUNT' }));
  });

  it('refuses a path with a NUL byte', () => {
    expect(() => mapWorkspacePath([ws], 'a\0b')).toThrow(expect.objectContaining({ code: 'PATH_NOT_ADMITTED' }));
  });
});
