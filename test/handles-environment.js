/**
 * Jest's node environment, which also says when a test file leaves something running: a timer, a
 * socket, a server or a child process still open once the file's own `afterAll` hooks have run.
 * Jest reuses its workers from file to file, so such a handle outlives its file, keeps the worker
 * from exiting at the end ("A worker process has failed to exit gracefully") and can fire inside
 * the next file. The file is named on stderr with what it left; KHOUMS_TEST_HANDLES=fail makes it
 * fail instead, KHOUMS_TEST_HANDLES=list prints after every file all that keeps its worker alive.
 */
const { promisify } = require('node:util');
const { TestEnvironment } = require('jest-environment-node');

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
