// The Verdaccio configuration of the registry test: everything in one temporary folder, no
// uplinks (nothing is proxied to npmjs: a name that was not published here is a 404), publishing
// for an authenticated user only (one, created through the registry's adduser API, with a JWT
// token), no web UI.
import { join } from 'node:path';

export interface RegistryPaths {
  config: string;
  storage: string;
  htpasswd: string;
  log: string;
}

export function registryPaths(dir: string): RegistryPaths {
  return { config: join(dir, 'config.yaml'), storage: join(dir, 'storage'), htpasswd: join(dir, 'htpasswd'), log: join(dir, 'verdaccio.log') };
}

/** A YAML scalar: JSON's double-quoted strings are valid YAML. */
const q = (value: string): string => JSON.stringify(value);

export function verdaccioConfig(paths: RegistryPaths): string {
  return [
    `storage: ${q(paths.storage)}`,
    'auth:',
    '  htpasswd:',
    `    file: ${q(paths.htpasswd)}`,
    '    max_users: 1',
    'uplinks: {}',
    'packages:',
    "  '@cuttle/*':",
    '    access: $all',
    '    publish: $authenticated',
    '    unpublish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    // JWT tokens: verified by signature, not by hashing the password again on every request.
    'security:',
    '  api:',
    '    jwt:',
    '      sign:',
    '        expiresIn: 1h',
    'web:',
    '  enable: false',
    'middlewares:',
    '  audit:',
    '    enabled: false',
    'max_body_size: 200mb',
    `log: { type: file, path: ${q(paths.log)}, level: warn }`,
    '',
  ].join('\n');
}
