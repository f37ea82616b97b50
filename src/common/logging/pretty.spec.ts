import { formatLogLine, prettyStream } from './pretty';

const at = new Date(2026, 0, 15, 14, 3, 7, 512).toISOString(); // 14:03:07.512 local time

describe('formatLogLine', () => {
  it('writes time, level, context, message and key=value fields on one line', () => {
    const line = JSON.stringify({
      level: 40,
      time: at,
      context: 'PaymentsService',
      paymentId: 'pay_1',
      ms: 12,
      msg: 'bank call failed',
    });
    expect(formatLogLine(line + '\n')).toBe(
      '14:03:07.512 WARN  [PaymentsService] bank call failed paymentId=pay_1 ms=12\n',
    );
  });

  it('quotes values with spaces, and writes objects, booleans and null as JSON', () => {
    const line = JSON.stringify({
      level: 30,
      time: at,
      msg: 'request',
      url: '/a b',
      ok: true,
      none: null,
      q: { a: 1 },
    });
    expect(formatLogLine(line)).toBe('14:03:07.512 INFO  request url="/a b" ok=true none=null q={"a":1}\n');
  });

  it('shows an error as type and message, its stack indented below', () => {
    const err = { type: 'Error', message: 'disk on fire', stack: 'Error: disk on fire\n    at f (a.js:1:2)' };
    const line = JSON.stringify({ level: 50, time: at, requestId: 'r1', err, msg: 'unhandled error' });
    expect(formatLogLine(line)).toBe(
      '14:03:07.512 ERROR unhandled error requestId=r1 err="Error: disk on fire"\n    Error: disk on fire\n    at f (a.js:1:2)\n',
    );
  });

  it('colours the level only when asked', () => {
    const line = JSON.stringify({ level: 50, time: at, msg: 'x' });
    expect(formatLogLine(line, { color: true })).toContain('\x1b[31mERROR\x1b[0m');
    expect(formatLogLine(line)).not.toContain('\x1b[');
  });

  it('passes a line that is not JSON through unchanged', () => {
    expect(formatLogLine('not json')).toBe('not json\n');
  });

  it('is a pino destination writing the formatted lines', () => {
    const written: string[] = [];
    const stream = prettyStream({ write: (s: string) => written.push(s) });
    stream.write(
      JSON.stringify({ level: 20, time: at, msg: 'Mapped {/health, GET} route', context: 'RouterExplorer' }) +
        '\n',
    );
    expect(written).toEqual(['14:03:07.512 DEBUG [RouterExplorer] Mapped {/health, GET} route\n']);
  });
});
