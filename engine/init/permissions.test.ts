import { permissionPath, withoutSelfProtectionPermissions, withSelfProtectionPermissions } from './permissions';

describe('permission deny rules for the protected files', () => {
  it('names project files from the root, home files with ~, and no machine folder in shared settings', () => {
    const shared = { home: '/home/me', shared: true };
    expect(permissionPath('.claude/settings.json', shared)).toBe('/.claude/settings.json');
    expect(permissionPath('/home/me/.claude/settings.json', shared)).toBe('~/.claude/settings.json');
    expect(permissionPath('/opt/hookpolicy/**', shared)).toBeNull();
    expect(permissionPath('/opt/hookpolicy/**', { home: '/home/me', shared: false })).toBe('//opt/hookpolicy/**');
    expect(permissionPath('team.yaml', { home: null, shared: false, projectRoot: '/work/app' })).toBe('//work/app/team.yaml');
  });

  it('adds Edit rules once, keeps the team\'s own, and the sandbox denials only where the sandbox is on', () => {
    const before = { permissions: { allow: ['Bash(git status)'], deny: ['Read(.env)'] } };
    const once = withSelfProtectionPermissions(before, ['/.claude/settings.json']);
    expect(once).toEqual({ permissions: { allow: ['Bash(git status)'], deny: ['Read(.env)', 'Edit(/.claude/settings.json)'] } });
    expect(withSelfProtectionPermissions(once, ['/.claude/settings.json'])).toEqual(once);
    const sandboxed = withSelfProtectionPermissions({ sandbox: { enabled: true } }, ['/.claude/settings.json']);
    expect(sandboxed).toEqual({ permissions: { deny: ['Edit(/.claude/settings.json)'] }, sandbox: { enabled: true, filesystem: { denyWrite: ['/.claude/settings.json'] } } });
  });

  it('takes out only what it added, and a list it alone filled', () => {
    const added = withSelfProtectionPermissions({ permissions: { allow: ['Bash(ls)'] }, sandbox: { enabled: true } }, ['/a']);
    expect(withoutSelfProtectionPermissions(added, ['/a'])).toEqual({ permissions: { allow: ['Bash(ls)'] }, sandbox: { enabled: true, filesystem: { denyWrite: [] } } });
    expect(withoutSelfProtectionPermissions({ permissions: { deny: ['Edit(/a)'] } }, ['/a'])).toEqual({});
  });
});
