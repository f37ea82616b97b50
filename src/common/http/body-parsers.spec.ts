import { nestsDeeperThan } from './body-parsers';

describe('nestsDeeperThan', () => {
  const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

  it('counts arrays and objects together, up to the limit included', () => {
    expect(nestsDeeperThan(objects(32), 32)).toBe(false);
    expect(nestsDeeperThan(objects(33), 32)).toBe(true);
    expect(nestsDeeperThan('[{"a":[' + ']}]', 2)).toBe(true);
    expect(nestsDeeperThan('[{"a":[' + ']}]', 3)).toBe(false);
  });

  it('measures depth, not the number of brackets: siblings do not add up', () => {
    expect(nestsDeeperThan('[' + '[],'.repeat(100) + '[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'say \\"[[[[ \\\\' }), 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\"}', 1)).toBe(false);
  });
});
