const DAY_MS = 86_400_000;

/** A reminder an invoice can get: N days before its due date (upcoming) or N days after (overdue). */
export interface ReminderDay {
  kind: 'upcoming' | 'overdue';
  days: number;
  /**
   * Its place in the order reminders come in, stored on the invoice once sent (`reminder_step`):
   * upcoming N is -2N-1, overdue N is 2N, so on the due date itself "0 days after" comes after
   * "0 days before", and a later day always has a greater step.
   */
  step: number;
  at: Date;
}

export interface ReminderDecision {
  /** The latest reminder day reached and not yet sent, if any (older ones are skipped). */
  send: ReminderDay | null;
  /** When the next reminder day comes; null when none is left. */
  nextAt: Date | null;
}

/** The reminder days of an invoice due at `dueDate`, in the order they come. */
export function reminderDays(
  dueDate: Date,
  settings: { beforeDueDays: number[]; afterDueDays: number[] },
): ReminderDay[] {
  const due = dueDate.getTime();
  const days: ReminderDay[] = [
    ...settings.beforeDueDays.map((d) => ({
      kind: 'upcoming' as const,
      days: d,
      step: -2 * d - 1,
      at: new Date(due - d * DAY_MS),
    })),
    ...settings.afterDueDays.map((d) => ({
      kind: 'overdue' as const,
      days: d,
      step: 2 * d,
      at: new Date(due + d * DAY_MS),
    })),
  ];
  return days.sort((a, b) => a.step - b.step);
}

/**
 * What the reminder run does with an invoice at `now`: of the days after the last reminder sent
 * (`sentStep`), the latest one reached is sent, at most one per run, never one older than a
 * reminder already sent; and the next one's time is when to look again.
 */
export function decideReminder(
  dueDate: Date,
  settings: { beforeDueDays: number[]; afterDueDays: number[] },
  sentStep: number | null,
  now: Date,
): ReminderDecision {
  const left = reminderDays(dueDate, settings).filter((d) => sentStep === null || d.step > sentStep);
  const reached = left.filter((d) => d.at.getTime() <= now.getTime());
  const send = reached.length > 0 ? reached[reached.length - 1] : null;
  const after = send ? left.filter((d) => d.step > send.step) : left;
  return { send, nextAt: after.length > 0 ? after[0].at : null };
}
