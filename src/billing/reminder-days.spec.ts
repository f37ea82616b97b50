import { decideReminder, reminderDays } from './reminder-days';

const DAY = 86_400_000;
const due = new Date('2026-12-10T00:00:00Z');
const at = (days: number) => new Date(due.getTime() + days * DAY);
const defaults = { beforeDueDays: [3], afterDueDays: [1, 3, 7] };

describe('reminder days', () => {
  it('orders the days as they come, "0 days before" before "0 days after" on the due date itself', () => {
    const days = reminderDays(due, { beforeDueDays: [0, 10, 3], afterDueDays: [0, 2] });
    expect(days.map((d) => `${d.kind}:${d.days}`)).toEqual([
      'upcoming:10',
      'upcoming:3',
      'upcoming:0',
      'overdue:0',
      'overdue:2',
    ]);
    expect(days.map((d) => d.at.getTime())).toEqual(
      [at(-10), at(-3), at(0), at(0), at(2)].map((d) => d.getTime()),
    );
  });

  it('sends nothing before the first day, and says when to look again', () => {
    expect(decideReminder(due, defaults, null, at(-4))).toEqual({ send: null, nextAt: at(-3) });
  });

  it('sends a day once it is reached, then waits for the next one', () => {
    const first = decideReminder(due, defaults, null, at(-3));
    expect(first.send).toMatchObject({ kind: 'upcoming', days: 3 });
    expect(first.nextAt).toEqual(at(1));
    expect(decideReminder(due, defaults, first.send!.step, at(-2))).toEqual({ send: null, nextAt: at(1) });
  });

  it('sends only the latest of several days passed unsent, never one older than a reminder already sent', () => {
    const late = decideReminder(due, defaults, null, at(5));
    expect(late.send).toMatchObject({ kind: 'overdue', days: 3 });
    expect(late.nextAt).toEqual(at(7));
    const sent7 = decideReminder(due, defaults, 14, at(30));
    expect(sent7).toEqual({ send: null, nextAt: null });
  });

  it('has nothing left when the last day is sent or no day is configured', () => {
    expect(decideReminder(due, { beforeDueDays: [], afterDueDays: [] }, null, at(0))).toEqual({
      send: null,
      nextAt: null,
    });
    const last = decideReminder(due, defaults, null, at(7));
    expect(last.send).toMatchObject({ kind: 'overdue', days: 7 });
    expect(last.nextAt).toBeNull();
  });
});
