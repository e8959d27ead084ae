/**
 * The files that make a folder a Claude Code plugin a team can publish: its manifest
 * (`.claude-plugin/plugin.json`) and an entry in a marketplace (`.claude-plugin/marketplace.json`
 * at the repository root). Both are merged into what is there: keys init did not write stay.
 */

/** A plugin or marketplace manifest as read from disk: any JSON object. */
export type Manifest = Record<string, unknown>;

/**
 * A plugin name Claude Code accepts (kebab-case) from a folder name.
 * @example pluginNameFor('Team Policy_v2') // 'team-policy-v2'
 */
export function pluginNameFor(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return name === '' ? 'hookpolicy-policy' : name;
}

/**
 * The plugin manifest: the existing one with name, version and description filled in where missing.
 * @example pluginManifest(null, 'team-policy') // { name: 'team-policy', version: '0.1.0', description: '...' }
 */
export function pluginManifest(existing: Manifest | null, name: string): Manifest {
  return {
    name,
    version: '0.1.0',
    description: 'Claude Code hooks answered by a declarative hookpolicy policy (policies.yaml).',
    ...(existing ?? {}),
  };
}

export interface MarketplaceEntry {
  name: string;
  /** The plugin folder relative to the marketplace's folder, starting with `./`. */
  source: string;
  description: string;
}

/**
 * The marketplace with this plugin listed once (an entry of the same name is replaced).
 * @example marketplaceWith(null, { name: 'p', source: './p', description: 'd' }, 'team').plugins // [{ name: 'p', ... }]
 */
export function marketplaceWith(existing: Manifest | null, entry: MarketplaceEntry, owner: string): Manifest {
  const base: Manifest = existing ?? { name: pluginNameFor(owner), owner: { name: owner } };
  const plugins = Array.isArray(base.plugins) ? (base.plugins as Array<{ name?: unknown }>) : [];
  const at = plugins.findIndex((p) => p && p.name === entry.name);
  const next = at >= 0 ? plugins.map((p, i) => (i === at ? { ...p, ...entry } : p)) : [...plugins, entry];
  return { ...base, plugins: next };
}
