import { isolate, isolatePlaceholders } from './bidi';

describe('bidirectional text', () => {
  it('wraps a value in a first-strong isolate', () => {
    expect(isolate('22123456')).toBe('\u206822123456\u2069');
  });

  it('isolates every placeholder of a dictionary, nested ones included, and nothing else', () => {
    const texts = { title: 'طلب {id}', n: { a: '{x} و {y}' }, plain: 'نص' };
    expect(isolatePlaceholders(texts)).toEqual({
      title: 'طلب \u2068{id}\u2069',
      n: { a: '\u2068{x}\u2069 و \u2068{y}\u2069' },
      plain: 'نص',
    });
    expect(texts.title).toBe('طلب {id}');
  });
});
