import type { DestinationStream } from 'pino';

/**
 * pino's JSON lines made readable on a terminal, one line per entry:
 * `14:03:07.512 WARN  [PaymentsService] bank call failed paymentId=… requestId=…`,
 * with an error's stack on the lines below it. Production logs stay JSON.
 */

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '90' },
  30: { label: 'INFO', color: '32' },
  40: { label: 'WARN', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '31;1' },
};

export interface PrettyOptions {
  /** ANSI colours for the time, level and context. */
  color?: boolean;
}

const paint = (on: boolean | undefined, code: string, text: string) =>
  on ? `\x1b[${code}m${text}\x1b[0m` : text;

/** A value parsed from JSON, as text: strings as they are, anything else as JSON. */
const text = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');

/** `key=value`: bare when the value has no spaces, quotes or `=`, JSON otherwise. */
const formatValue = (value: unknown): string =>
  typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);

function clock(time: unknown): string {
  const date = new Date(typeof time === 'string' || typeof time === 'number' ? time : Date.now());
  if (Number.isNaN(date.getTime())) return text(time);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** One JSON log line as pino writes it, made readable; a line that is not JSON is passed through. */
export function formatLogLine(line: string, options: PrettyOptions = {}): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : line + '\n';
  }
  if (entry === null || typeof entry !== 'object') return line.endsWith('\n') ? line : line + '\n';
  const { time, level, msg, context, ...fields } = entry;
  const known = LEVELS[level as number] ?? { label: text(level), color: '0' };
  const color = options.color;

  const parts = [paint(color, '2', clock(time)), paint(color, known.color, known.label.padEnd(5))];
  if (context !== undefined) parts.push(paint(color, '36', `[${text(context)}]`));
  if (msg !== undefined) parts.push(text(msg));

  const below: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const error = value as { type?: unknown; message?: unknown; stack?: unknown } | null;
    if (key === 'err' && error !== null && typeof error === 'object') {
      parts.push(`err=${formatValue(`${text(error.type ?? 'Error')}: ${text(error.message ?? '')}`)}`);
      if (typeof error.stack === 'string') below.push(error.stack);
    } else if (key === 'stack' && typeof value === 'string') {
      below.push(value);
    } else {
      parts.push(`${key}=${formatValue(value)}`);
    }
  }
  const indented = below.map(
    (stack) =>
      '\n' +
      stack
        .split('\n')
        .map((l) => `    ${l.trimStart()}`)
        .join('\n'),
  );
  return parts.join(' ') + indented.join('') + '\n';
}

/** A pino destination that writes each entry to `out` as a readable line. */
export function prettyStream(out: DestinationStream, options: PrettyOptions = {}): DestinationStream {
  return { write: (line: string) => out.write(formatLogLine(line, options)) };
}
