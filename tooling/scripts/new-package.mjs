#!/usr/bin/env node
// pnpm new-package NAME ["one-line description"] [--no-install]
// Copies tooling/template into packages/NAME, fills in the names, adds a first changeset and
// links the workspace. The result builds, tests, lints and passes the publish checks as is.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const install = !args.includes('--no-install');
const dirArg = args.find((arg) => arg.startsWith('--dir='));
const [name, description = `Cuttle ${args[0] ?? ''} package.`] = args.filter((arg) => !arg.startsWith('--'));

function fail(message) {
  console.error(`new-package: ${message}`);
  process.exit(2);
}

if (!name) fail('usage: pnpm new-package NAME ["one-line description"] [--no-install]');
if (!/^[a-z][a-z0-9-]*$/.test(name)) fail(`"${name}" is not a valid package name: use lowercase letters, digits and dashes, starting with a letter.`);
const target = dirArg ? resolve(dirArg.slice('--dir='.length)) : join(root, 'packages', name);
if (existsSync(target)) fail(`${target} already exists; pick another name or remove it first.`);

const className = name.split('-').map((part) => part[0].toUpperCase() + part.slice(1)).join('');
const replacements = [
  ['__NAME__', name],
  ['__CLASS__', className],
  ['__DESCRIPTION__', description.replaceAll('"', '\\"')],
];

cpSync(join(root, 'tooling/template'), target, { recursive: true });
renameSync(join(target, 'package.json.template'), join(target, 'package.json'));

function fill(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      fill(path);
      continue;
    }
    let text = readFileSync(path, 'utf8');
    for (const [from, to] of replacements) text = text.replaceAll(from, to);
    writeFileSync(path, text);
  }
}
fill(target);

if (!dirArg) {
  writeFileSync(
    join(root, '.changeset', `new-package-${name}.md`),
    `---\n'@cuttle/${name}': minor\n---\n\nFirst release of @cuttle/${name}: ${description}\n`,
  );
}

console.log(`created ${target}`);
if (install) execFileSync('pnpm', ['install'], { cwd: root, stdio: 'inherit' });
console.log(`next: edit packages/${name}/src, then \`pnpm --filter @cuttle/${name} test\` and \`pnpm bench ${name}\``);
