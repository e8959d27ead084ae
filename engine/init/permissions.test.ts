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

  it('adds Edit and Read rules once, keeps the team\'s own, and writes nothing under sandbox (Claude Code merges the rules into it)', () => {
    const before = { permissions: { allow: ['Bash(git status)'], deny: ['Read(.env)'] } };
    const guarded = { write: ['/.claude/settings.json'], read: ['~/.cache/hookpolicy/serve/**'] };
    const once = withSelfProtectionPermissions(before, guarded);
    expect(once).toEqual({ permissions: { allow: ['Bash(git status)'], deny: ['Read(.env)', 'Edit(/.claude/settings.json)', 'Read(~/.cache/hookpolicy/serve/**)'] } });
    expect(withSelfProtectionPermissions(once, guarded)).toEqual(once);
    const sandboxed = withSelfProtectionPermissions({ sandbox: { enabled: true } }, guarded);
    expect(sandboxed).toEqual({ permissions: { deny: ['Edit(/.claude/settings.json)', 'Read(~/.cache/hookpolicy/serve/**)'] }, sandbox: { enabled: true } });
  });

  it('takes out only what it added, a list it alone filled, and the sandbox entries earlier versions wrote', () => {
    const guarded = { write: ['/a'], read: ['~/s/**'] };
    const added = withSelfProtectionPermissions({ permissions: { allow: ['Bash(ls)'] }, sandbox: { enabled: true, filesystem: { denyWrite: ['/a', 'b'] } } }, guarded);
    expect(withoutSelfProtectionPermissions(added, guarded)).toEqual({ permissions: { allow: ['Bash(ls)'] }, sandbox: { enabled: true, filesystem: { denyWrite: ['b'] } } });
    expect(withoutSelfProtectionPermissions({ permissions: { deny: ['Edit(/a)', 'Read(~/s/**)'] } }, guarded)).toEqual({});
  });
});
