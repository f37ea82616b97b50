import { isUUID } from 'class-validator';
import { timeOrderedId } from './time-ordered-id';

describe('timeOrderedId', () => {
  it('makes RFC 9562 version 7 UUIDs that every UUID check accepts', () => {
    const id = timeOrderedId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isUUID(id, 'all')).toBe(true);
  });

  it('starts with the time in milliseconds', () => {
    const at = Date.now() + 1000;
    const id = timeOrderedId(at);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('orders ids made one after the other, within a millisecond too, and repeats none', () => {
    const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps counting forward when the clock steps back', () => {
    const later = timeOrderedId(Date.now() + 60_000);
    const after = timeOrderedId(Date.now());
    expect(after > later).toBe(true);
  });
});
