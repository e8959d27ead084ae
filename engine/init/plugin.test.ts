import { marketplaceWith, pluginManifest, pluginNameFor } from './plugin';

describe('plugin files', () => {
  it('names a plugin in kebab-case from its folder', () => {
    expect(pluginNameFor('Team Policy_v2')).toBe('team-policy-v2');
    expect(pluginNameFor('___')).toBe('hookpolicy-policy');
  });

  it('fills in a manifest, keeping what the team wrote', () => {
    expect(pluginManifest(null, 'team-policy')).toEqual({ name: 'team-policy', version: '0.1.0', description: expect.stringContaining('hookpolicy') });
    expect(pluginManifest({ name: 'ours', version: '2.0.0', author: { name: 'Ops' } }, 'team-policy')).toEqual({
      name: 'ours', version: '2.0.0', author: { name: 'Ops' }, description: expect.any(String),
    });
  });

  it('lists the plugin once in a marketplace, replacing an entry of the same name', () => {
    const entry = { name: 'team-policy', source: './plugins/team-policy', description: 'rules' };
    const fresh = marketplaceWith(null, entry, 'Acme');
    expect(fresh).toEqual({ name: 'acme', owner: { name: 'Acme' }, plugins: [entry] });
    const other = { name: 'other', source: './other', description: 'x' };
    const again = marketplaceWith({ ...fresh, plugins: [other, { name: 'team-policy', source: './old', description: 'old', category: 'security' }] }, entry, 'Acme');
    expect(again.plugins).toEqual([other, { ...entry, category: 'security' }]);
  });
});
