import { expect, test } from 'vitest';
import { cleanOutcome, registryKeys } from '../src/npm-cache.ts';

test('only the keys fetched from the local registry (that port) are forgotten', () => {
  const ls = [
    'make-fetch-happen:request-cache:http://127.0.0.1:4873/@cuttle%2fecs',
    'make-fetch-happen:request-cache:http://127.0.0.1:4873/@cuttle/ecs/-/ecs-0.1.0.tgz',
    'make-fetch-happen:request-cache:http://127.0.0.1:48730/@cuttle%2fecs',
    'make-fetch-happen:request-cache:https://registry.npmjs.org/three',
    'pacote:tarball:http://127.0.0.1:4873/x',
  ].join('\n');
  expect(registryKeys(ls, 'http://127.0.0.1:4873')).toEqual(ls.split('\n').slice(0, 2));
});

test('cleanOutcome reads what npm cache clean deleted and where it stopped', () => {
  const out = cleanOutcome('Deleted: k1\nDeleted: k2\n', 'npm warn cache Not Found: k3\n');
  expect([...out.deleted]).toEqual(['k1', 'k2']);
  expect(out.notFound).toBe('k3');
  expect(cleanOutcome('', '').notFound).toBeUndefined();
});
