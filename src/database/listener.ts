import { Client } from 'pg';

/**
 * A LISTEN on its own connection (a pooled one cannot keep it), reconnecting after a second
 * when the connection breaks. `onReady` runs once it listens (again), so a caller can catch up
 * on what was notified while it was not listening; `onLost` when the connection breaks.
 */
export class PgListener {
  private client?: Client;
  private running = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onNotify: (payload: string) => void,
    private readonly onReady: () => void = () => undefined,
    private readonly onLost: () => void = () => undefined,
  ) {}

  /**
   * Sends a notification on the channel from this listener's own connection, which receives it
   * too, after everything committed before: a heartbeat proving notifications still arrive.
   * False when not listening.
   */
  async notify(payload: string): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    try {
      await client.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
      return true;
    } catch {
      return false;
    }
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const client = new Client({ connectionString: this.url });
    const retry = () => {
      if (this.client === client) {
        this.client = undefined;
        this.onLost();
      }
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.running) setTimeout(() => void this.connect(), 1000).unref();
    };
    client.on('error', retry);
    client.on('notification', (msg) => this.onNotify(msg.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      if (!this.running) {
        await client.end();
        return;
      }
      this.client = client;
      this.onReady();
    } catch {
      retry();
    }
  }
}
