import { expect, test } from 'vitest';
import { publishedList } from '../src/release.ts';

test('publishedList reads what changeset publish says it published', () => {
  const esc = String.fromCharCode(27);
  const output = [
    '🦋  info Publishing "@cuttle/ecs" at "0.2.1"',
    `🦋  ${esc}[32msuccess${esc}[39m packages published successfully:`,
    '🦋  @cuttle/ecs@0.2.1',
    `🦋  ${esc}[36m@cuttle/render@0.1.0${esc}[39m`,
    '🦋  Creating git tags...',
    '🦋  New tag:  @cuttle/ecs@0.2.1',
  ].join('\n');
  expect(publishedList(output)).toEqual(['@cuttle/ecs@0.2.1', '@cuttle/render@0.1.0']);
  expect(publishedList('🦋  warn No unpublished projects to publish\n')).toEqual([]);
});
