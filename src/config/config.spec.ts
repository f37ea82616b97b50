import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.DATA_DIR).toBe('./.data');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.DEMO_ORG).toBe(true);
    expect(c.LOG_FORMAT).toBeUndefined(); // chosen by the logger: pretty on a terminal, JSON otherwise
  });

  it('reads LOG_FORMAT json or pretty and refuses anything else', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(
      'LOG_FORMAT="yaml": LOG_FORMAT must be json or pretty',
    );
  });

  it('reads and converts the values it knows', () => {
    const c = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://pay.example.mr',
      DEMO_ORG: 'false',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(c.PORT).toBe(8080);
    expect(c.publicUrl).toBe('https://pay.example.mr');
    expect(c.DEMO_ORG).toBe(false);
    expect(c.DATABASE_URL).toBe('postgres://u@h/db');
  });

  it('names every bad variable in one clear message', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'https://pay.example.mr/path',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT="eighty"');
    expect(message).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(message).toContain('PUBLIC_URL must be an http(s) origin');
    expect(message).toContain('LOG_LEVEL');
  });

  it('defaults DEMO_ORG to true only with the embedded database: a deployment never gets a demo owner', () => {
    expect(loadConfig({}).DEMO_ORG).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).DEMO_ORG).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', DEMO_ORG: 'true' }).DEMO_ORG).toBe(true);
    expect(loadConfig({ DEMO_ORG: 'false' }).DEMO_ORG).toBe(false);
  });

  it('reads TRUST_PROXY as a number of proxy hops or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
    ]);
  });

  it('refuses TRUST_PROXY=true (any client could name its own address) and addresses that are not ones', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      'TRUST_PROXY="true": TRUST_PROXY must be the number of proxies in front of the service (e.g. 1) or their addresses and CIDRs (e.g. 10.0.0.0/8,127.0.0.1); "true" would believe any X-Forwarded-For',
    );
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.300', '1.2.3.4,', 'proxy.example.mr', '-1', '1.5'])
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(`TRUST_PROXY=${JSON.stringify(bad)}`);
  });

  it('lets webhooks reach private addresses by default only with the embedded database', () => {
    expect(loadConfig({}).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@h/db', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })
        .WEBHOOK_ALLOW_PRIVATE_URLS,
    ).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' }).WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'maybe' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
  });

  it('reads the rate limits (0 turns one off) and refuses a negative one', () => {
    const c = loadConfig({});
    expect([c.RATE_LIMIT_PER_KEY, c.RATE_LIMIT_PER_IP]).toEqual([200, 50]);
    expect(loadConfig({ RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '10' })).toMatchObject({
      RATE_LIMIT_PER_KEY: 0,
      RATE_LIMIT_PER_IP: 10,
    });
    expect(() => loadConfig({ RATE_LIMIT_PER_KEY: '-1' })).toThrow(/RATE_LIMIT_PER_KEY/);
    expect(() => loadConfig({ RATE_LIMIT_PER_IP: 'many' })).toThrow(/RATE_LIMIT_PER_IP/);
  });
});

describe('prepared statements', () => {
  it('are on against the server itself, off when DATABASE_DIRECT_URL says DATABASE_URL is a pooler, and the setting wins', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).preparedStatements).toBe(true);
    const pooled = {
      DATABASE_URL: 'postgres://u@pgbouncer:6432/db',
      DATABASE_DIRECT_URL: 'postgres://u@h/db',
    };
    expect(loadConfig(pooled).preparedStatements).toBe(false);
    expect(loadConfig({ ...pooled, DATABASE_PREPARED_STATEMENTS: 'true' }).preparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).preparedStatements).toBe(false);
  });
});
