import { EndpointPace, SLOW_CALL_MS } from './endpoint-pace';

describe('EndpointPace', () => {
  let now = 0;
  const pace = () => new EndpointPace(() => now);
  beforeEach(() => (now = 1_000_000));

  it('holds an endpoint it has not seen answer to the small cap, even with calls in flight', () => {
    const p = pace();
    p.started('e1', 'o1', 'd1');
    expect(p.fastEndpoints()).toEqual([]);
  });

  it('lets an endpoint take the large cap once a call to it is answered fast', () => {
    const p = pace();
    p.started('e1', 'o1', 'd1');
    p.finished('e1', 'd1', 5);
    p.started('e1', 'o1', 'd2');
    expect(p.fastEndpoints()).toEqual(['e1']);
  });

  it('holds an endpoint to the small cap again while one of its calls is in flight longer than the slow limit', () => {
    const p = pace();
    p.started('e1', 'o1', 'd1');
    p.finished('e1', 'd1', 5);
    p.started('e1', 'o1', 'd2');
    now += SLOW_CALL_MS + 1;
    expect(p.fastEndpoints()).toEqual([]);
  });

  it('holds an endpoint whose last answer took longer than the slow limit to the small cap', () => {
    const p = pace();
    p.started('e1', 'o1', 'd1');
    p.finished('e1', 'd1', 5);
    p.started('e1', 'o1', 'd2');
    p.finished('e1', 'd2', SLOW_CALL_MS);
    expect(p.fastEndpoints()).toEqual([]);
  });

  it('counts the calls of a hanging endpoint beyond the small cap as overflow, and those of others not', () => {
    const p = pace();
    for (const e of ['hangs', 'answers']) {
      p.started(e, 'o1', `${e}-0`);
      p.finished(e, `${e}-0`, 5);
      for (let i = 1; i <= 10; i++) p.started(e, 'o1', `${e}-${i}`);
    }
    expect(p.overflow(4, 8)).toBe(0);
    now += SLOW_CALL_MS + 1;
    for (let i = 1; i <= 10; i++) p.finished('answers', `answers-${i}`, 5);
    expect(p.overflow(4, 8)).toBe(10 - 4);
    expect(p.fastEndpoints()).toEqual(['answers']);
  });

  it('counts the calls of an organization’s hanging endpoints beyond the organization’s cap as overflow', () => {
    const p = pace();
    // One organization's eight endpoints answered fast, then hang with four calls each; another
    // organization's endpoint hangs with three.
    for (let e = 0; e < 8; e++) {
      p.started(`e${e}`, 'many', `e${e}-0`);
      p.finished(`e${e}`, `e${e}-0`, 5);
      for (let i = 1; i <= 4; i++) p.started(`e${e}`, 'many', `e${e}-${i}`);
    }
    for (let i = 1; i <= 3; i++) p.started('other', 'o2', `other-${i}`);
    expect(p.overflow(4, 8)).toBe(0);
    now += SLOW_CALL_MS + 1;
    // 32 calls, of which the organization's cap (8) hold slots; the other organization's 3 all do.
    expect(p.overflow(4, 8)).toBe(32 - 8);
    // The endpoint cap applies first: each endpoint holds at most 2 of its 4.
    expect(p.overflow(2, 100)).toBe(32 - 16 + 1);
  });

  it('forgets an idle endpoint after a minute: it starts slow again', () => {
    const p = pace();
    p.started('e1', 'o1', 'd1');
    p.finished('e1', 'd1', 5);
    now += 60_001;
    expect(p.fastEndpoints()).toEqual([]);
    p.started('e1', 'o1', 'd2');
    expect(p.fastEndpoints()).toEqual([]);
  });
});
