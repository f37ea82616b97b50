/**
 * Jest's node environment, which also says when a test file leaves something running: a timer, a
 * socket, a server or a child process still open once the file's own `afterAll` hooks have run.
 * Jest reuses its workers from file to file, so such a handle outlives its file, keeps the worker
 * from exiting at the end ("A worker process has failed to exit gracefully") and can fire inside
 * the next file. The file is named on stderr with what it left; KHOUMS_TEST_HANDLES=fail makes it
 * fail instead, KHOUMS_TEST_HANDLES=list prints after every file all that keeps its worker alive.
 */
const { createHook } = require('node:async_hooks');
const { promisify } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

/**
 * KHOUMS_TEST_HANDLES=timers: where every timer of the worker still pending was started, whoever
 * started it (the file's code, a library, Node itself), printed after each file: for a timer the
 * file's own `setTimeout` does not see (one of `node:timers`, of a module holding Node's own).
 */
const timerStacks = new Map();
if (process.env.KHOUMS_TEST_HANDLES === 'timers')
  createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') timerStacks.set(id, { resource, stack: new Error().stack });
    },
    destroy(id) {
      timerStacks.delete(id);
    },
  }).enable();

/**
 * KHOUMS_TEST_HANDLES=timers also writes, 300 ms after Jest asks the worker to end (it stops
 * listening for messages and waits for the loop to empty), what still keeps it alive, to
 * /tmp/khoums-worker-<pid>.txt.
 */
if (process.env.KHOUMS_TEST_HANDLES === 'timers') {
  const removeListener = process.removeListener.bind(process);
  process.removeListener = (event, listener) => {
    const result = removeListener(event, listener);
    if (event === 'message') {
      const { appendFileSync, writeFileSync } = require('node:fs');
      const file = `/tmp/khoums-worker-${process.pid}.txt`;
      const asked = Date.now();
      writeFileSync(file, 'asked to end\n');
      process.on('beforeExit', () => appendFileSync(file, `beforeExit +${Date.now() - asked} ms\n`));
      process.on('exit', () =>
        appendFileSync(
          file,
          `exit +${Date.now() - asked} ms; exit listeners: ${process
            .listeners('exit')
            .map((l) => l.name || l.toString().slice(0, 120))
            .join(' | ')}\n`,
        ),
      );
      setTimeout(() => {
        const handles = process._getActiveHandles().map((h) => {
          const name = h?.constructor?.name;
          const extra =
            name === 'Socket' || name === 'Pipe'
              ? ` fd=${h._handle?.fd ?? h.fd} remote=${h.remoteAddress}:${h.remotePort} local=${h.localPort} readable=${h.readable}`
              : '';
          return `${name}${extra}`;
        });
        appendFileSync(
          file,
          [
            `resources: ${process.getActiveResourcesInfo().join(', ')}`,
            `handles: ${handles.join('; ')}`,
            `message listeners: ${process.listenerCount('message')} ${process
              .listeners('message')
              .map((l) => l.toString().slice(0, 300))
              .join(' | ')}`,
            `channel: ${process.channel ? 'open' : 'none'}`,
            'timers:',
            ...pendingTimers(),
          ].join('\n'),
        );
      }, 300).unref();
    }
    return result;
  };
}

function pendingTimers() {
  return [...timerStacks.values()]
    .filter(({ resource }) => !resource._destroyed && resource.hasRef?.())
    .map(({ resource, stack }) =>
      [`${resource._idleTimeout} ms`, ...stack.split('\n').slice(2, 9)].join('\n    '),
    );
}

/**
 * Resources that keep a process alive, by type, as Node counts them; timers apart (the runner's own
 * come and go while a file runs): those of the file are followed one by one.
 */
function counts() {
  const seen = new Map();
  for (const type of process.getActiveResourcesInfo())
    if (type !== 'Timeout' && type !== 'Immediate') seen.set(type, (seen.get(type) ?? 0) + 1);
  return seen;
}

/** How long a closed handle may take to leave the loop (a socket's close event, a child's exit). */
const SETTLE_MS = 500;

class HandlesEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    this.before = counts();
    await super.setup();
    // The file's timers: every one its code (and the packages it loads) starts.
    this.timers = new Set();
    const follow = (start) => {
      const started = (...args) => {
        const timer = start(...args);
        this.timers.add(timer);
        return timer;
      };
      started[promisify.custom] = start[promisify.custom];
      return started;
    };
    this.global.setTimeout = follow(setTimeout);
    this.global.setInterval = follow(setInterval);
  }

  async teardown() {
    await super.teardown();
    const deadline = Date.now() + SETTLE_MS;
    let left = this.left();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      left = this.left();
    }
    if (process.env.KHOUMS_TEST_HANDLES === 'timers')
      process.stderr.write(
        `\n[handles] pid ${process.pid} after ${this.testPath}: ${process.getActiveResourcesInfo().join(', ')}\n  ` +
          pendingTimers().join('\n  ') +
          '\n',
      );
    if (process.env.KHOUMS_TEST_HANDLES === 'list')
      process.stderr.write(
        `\n[handles] after ${this.testPath}: ${process.getActiveResourcesInfo().join(', ')}\n`,
      );
    if (left.length === 0) return;
    const message = `${this.testPath} left running after its hooks: ${left.join(', ')}`;
    if (process.env.KHOUMS_TEST_HANDLES === 'fail') throw new Error(message);
    process.stderr.write(`\n[handles] ${message}\n`);
  }

  /** What is running now and was not when the file started, as `type ×n`. */
  left() {
    const now = counts();
    const extra = [];
    const timers = [...this.timers].filter((t) => !t._destroyed && t.hasRef()).length;
    if (timers > 0) extra.push(`timer ×${timers}`);
    for (const [type, n] of now) {
      const more = n - (this.before.get(type) ?? 0);
      if (more > 0) extra.push(`${type} ×${more}`);
    }
    return extra;
  }
}

module.exports = HandlesEnvironment;
