/**
 * `policy init --plugin DIR`: the files besides hooks/hooks.json that make DIR a plugin
 * `claude plugin validate` accepts and a team can publish: the manifest, a README when
 * there is none, and the plugin's entry in the repository's marketplace.
 */
import * as fs from 'fs';
import * as path from 'path';
import { marketplaceWith, pluginManifest, pluginNameFor, type Manifest } from '../../engine/init/plugin';
import { fail, show } from './init';

/** bin/policy.cjs inside the plugin: a published plugin runs on other machines, so it carries hookpolicy. */
export function pluginBin(pluginRoot: string, projectRoot: string): string {
  const bin = path.join(pluginRoot, 'node_modules', 'hookpolicy', 'bin', 'policy.cjs');
  if (fs.existsSync(bin)) return bin;
  const dir = show(pluginRoot, projectRoot);
  return fail(`the plugin carries no hookpolicy (${dir}/node_modules/hookpolicy): installed from a marketplace, it runs on machines that have none.\n`
    + `  Install it into the plugin first: npm install --prefix ${dir} hookpolicy   (and ship ${dir}/node_modules with the plugin)`);
}

function readJson(file: string): Manifest | null {
  if (!fs.existsSync(file)) return null;
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Manifest;
  } catch {
    // Reported below.
  }
  return fail(`${file} is not a JSON object; not changed`);
}

function writeJson(file: string, value: Manifest, projectRoot: string, out: (line: string) => void): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  out(`Wrote ${show(file, projectRoot)}`);
}

const README = (name: string) => `# ${name}

A Claude Code plugin that enforces this team's rules with hookpolicy. Its hooks
(hooks/hooks.json) send every event the policy needs to the hookpolicy runner it carries
(node_modules/hookpolicy), which answers from policies.yaml: which agent may write where,
which commands are refused, what context each agent gets. Change the rules in
policies.yaml, check them with \`npx policy lint\` and \`npx policy test\`, and run
\`npx policy init --plugin .\` again after adding events or tools.
`;

/**
 * Writes the manifest, a README when missing, and the marketplace entry at the project root.
 * @example writePluginFiles('/repo/plugins/team-policy', '/repo', console.log)
 */
export function writePluginFiles(pluginRoot: string, projectRoot: string, out: (line: string) => void): void {
  const manifestFile = path.join(pluginRoot, '.claude-plugin', 'plugin.json');
  const manifest = pluginManifest(readJson(manifestFile), pluginNameFor(path.basename(pluginRoot)));
  writeJson(manifestFile, manifest, projectRoot, out);
  const readme = path.join(pluginRoot, 'README.md');
  if (!fs.existsSync(readme)) {
    fs.writeFileSync(readme, README(String(manifest.name)));
    out(`Wrote ${show(readme, projectRoot)}`);
  }
  const rel = path.relative(projectRoot, pluginRoot).split(path.sep).join('/');
  if (rel.startsWith('..') || path.isAbsolute(rel)) return; // a marketplace lists plugins inside its own repository
  const marketFile = path.join(projectRoot, '.claude-plugin', 'marketplace.json');
  const entry = { name: String(manifest.name), source: rel === '' ? './' : `./${rel}`, description: String(manifest.description) };
  writeJson(marketFile, marketplaceWith(readJson(marketFile), entry, path.basename(projectRoot)), projectRoot, out);
}
