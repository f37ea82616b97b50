import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidateBy,
} from 'class-validator';
import { isIP } from 'node:net';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const HTTP_URL = /^https?:\/\/[^\s]+$/;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** The proxies in front of the service: none, a number of hops, or their addresses and CIDRs. */
export type TrustedProxies = false | number | string[];

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** TRUST_PROXY's text as `TrustedProxies`; anything else (`true` included) is left as it is, for the validator to refuse. */
const toTrustedProxies = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  return entries.every(isAddressOrCidr) ? entries : value;
};

const IsTrustedProxies = () =>
  ValidateBy({
    name: 'isTrustedProxies',
    validator: {
      validate: (v: unknown) => v === false || typeof v === 'number' || Array.isArray(v),
      defaultMessage: () =>
        'TRUST_PROXY must be the number of proxies in front of the service (e.g. 1) or their addresses and CIDRs (e.g. 10.0.0.0/8,127.0.0.1); "true" would believe any X-Forwarded-For',
    },
  });

/**
 * Every setting the service reads, from environment variables, validated once at start-up.
 * A bad value stops the process with one clear line per problem instead of failing later.
 */
export class AppConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Unset: an embedded PostgreSQL under DATA_DIR. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /**
   * The PostgreSQL server itself, when `DATABASE_URL` points at a pooler in transaction mode
   * (PgBouncer): migrations and LISTEN need a session of their own. Unset: `DATABASE_URL`.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, {
    message: 'DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL',
  })
  DATABASE_DIRECT_URL?: string;

  /**
   * A read replica (a streaming standby, e.g. HAProxy's replica port in front of Patroni's nodes)
   * for the dashboard's lists, searches, reports and CSV exports; never a page that has just
   * written. Unset: everything reads `DATABASE_URL` (docs/operations.md, "Read replica").
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_READ_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_READ_URL?: string;

  /**
   * Reads leave the replica for the leader while it is further behind than this, and a dashboard
   * user who has just written reads the leader for this long.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DATABASE_READ_MAX_LAG_MS = 10_000;

  /**
   * Run pay's and the keyed requests' hot statements as named prepared statements. Unset: on, unless
   * `DATABASE_DIRECT_URL` is set (`DATABASE_URL` is then a pooler that cannot keep them).
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DATABASE_PREPARED_STATEMENTS?: boolean;

  get preparedStatements(): boolean {
    return this.DATABASE_PREPARED_STATEMENTS ?? this.DATABASE_DIRECT_URL === undefined;
  }

  @IsString()
  DATA_DIR = './.data';

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  /** The origin used in checkoutUrl and in links the service prints. Default: http://localhost:PORT. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+$/, {
    message: 'PUBLIC_URL must be an http(s) origin without a path, e.g. https://pay.example.com',
  })
  PUBLIC_URL?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** `json` (one JSON object per line) or `pretty` (readable lines). Unset: pretty when stdout is a terminal, JSON otherwise. */
  @IsOptional()
  @IsIn(['json', 'pretty'], { message: 'LOG_FORMAT must be json or pretty' })
  LOG_FORMAT?: 'json' | 'pretty';

  /** Size of the PostgreSQL connection pool of one service instance. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 20;

  /**
   * How long a statement may go unanswered before it fails (503) and its connection is dropped: a
   * frozen PostgreSQL leader keeps its sockets open and silent (docs/operations.md, "PostgreSQL
   * high availability"). Below BANK_TIMEOUT_MS, so that no request hangs longer on the database
   * than on a bank. 0: no limit.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  DB_QUERY_TIMEOUT_MS = 10_000;

  /**
   * Signs the hosted page's CSRF tokens. Unset: a key generated once and kept in the database, which
   * every instance shares.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'CHECKOUT_CSRF_SECRET must be at least 32 characters' })
  CHECKOUT_CSRF_SECRET?: string;

  /**
   * Behind reverse proxies or load balancers: how many there are (hops), or their addresses and
   * CIDRs. The client address is then the last X-Forwarded-For entry before the trusted proxies,
   * walking from the right (entries further left are the client's to write). Off: the TCP peer.
   * `true` is refused: it would believe the left-most entry, which any client chooses.
   */
  @Transform(toTrustedProxies)
  @IsTrustedProxies()
  TRUST_PROXY: TrustedProxies = false;

  /**
   * Create the demo organization on first start (only on an empty database). Default: true with the
   * embedded database (local development) only, so a deployment never gets a demo owner.
   */
  @Transform(toBool)
  @IsBoolean()
  DEMO_ORG = true;

  /** Deliver webhooks from this instance (every instance may: deliveries are claimed, never shared). */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_WORKER = true;

  /** No answer within this time is a failed attempt. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /**
   * Let webhook endpoints (both environments) reach loopback and private addresses (an operator's
   * choice, e.g. on a private network). Unset: true only with the embedded database (local
   * development), false with DATABASE_URL.
   */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /** Delays before each retry, in ms (default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). */
  @Matches(/^\d{1,9}(,\d{1,9}){0,49}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated milliseconds, e.g. 5000,300000',
  })
  WEBHOOK_RETRY_SCHEDULE_MS = '5000,300000,1800000,7200000,18000000,36000000,50400000,72000000,86400000';

  /** Deliveries in flight per instance. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_CONCURRENCY = 32;

  /**
   * Deliveries of one endpoint in flight at once, over all instances: an endpoint that never
   * answers holds at most this many slots, for the time-out, and every other endpoint keeps its own.
   * An endpoint that answers within 1 s may have up to WEBHOOK_CONCURRENCY, until a call to it hangs.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_ENDPOINT_CONCURRENCY = 4;

  /**
   * Deliveries of one organization in flight at once to its endpoints held to
   * WEBHOOK_ENDPOINT_CONCURRENCY (slow, silent or not yet seen answering), over all instances: an
   * organization's many silent endpoints hold at most this many slots together. Its endpoints
   * that answer within 1 s are not counted.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_ORGANIZATION_CONCURRENCY = 8;

  /** How often an idle worker looks for due deliveries besides being woken by NOTIFY. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  WEBHOOK_POLL_MS = 500;

  /** How long a claimed delivery stays with its worker; after that (a crashed instance) another one retries it. Default: time-out + 30 s. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(200)
  @Max(3_600_000)
  WEBHOOK_LEASE_MS?: number;

  /**
   * Days events and their deliveries are kept: then a job deletes them (never one with a delivery
   * still pending), and replaying a delivery of an older event answers 404.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  EVENT_RETENTION_DAYS = 30;

  /** Run the event retention job every ten minutes from this instance (any number of instances may: they delete disjoint batches). */
  @Transform(toBool)
  @IsBoolean()
  EVENT_RETENTION_SCHEDULER = true;

  get webhookLeaseMs(): number {
    return Math.max(this.WEBHOOK_LEASE_MS ?? this.WEBHOOK_TIMEOUT_MS + 30_000, this.WEBHOOK_TIMEOUT_MS + 100);
  }

  /** How long the Sandbox bank simulator may take before a charge counts as unanswered (5 s by default). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  SANDBOX_BANK_TIMEOUT_MS = 5000;

  /** Time-out of one call to a Production bank gateway (charge or status). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  BANK_TIMEOUT_MS = 15_000;

  /** Production bank gateways (docs/bank-gateway.md). A bank without a URL answers every pay with 502. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'BANK_BANKILY_URL must be an http(s) URL' })
  BANK_BANKILY_URL?: string;
  @IsOptional()
  @IsString()
  BANK_BANKILY_API_KEY?: string;
  @IsOptional()
  @Matches(HTTP_URL, { message: 'BANK_MASRIVI_URL must be an http(s) URL' })
  BANK_MASRIVI_URL?: string;
  @IsOptional()
  @IsString()
  BANK_MASRIVI_API_KEY?: string;
  @IsOptional()
  @Matches(HTTP_URL, { message: 'BANK_SEDAD_URL must be an http(s) URL' })
  BANK_SEDAD_URL?: string;
  @IsOptional()
  @IsString()
  BANK_SEDAD_API_KEY?: string;

  /** How often reconciliation asks the banks about pending payments; 0 turns the schedule off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  RECONCILE_INTERVAL_MS = 30_000;

  /** A pending payment is reconciled only once this old: longer than a bank call may take, so an in-flight pay finishes first. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  RECONCILE_MIN_AGE_MS = 60_000;

  /** Requests per second per API key, bursts up to twice that; counted by each instance; 0 turns the limit off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_KEY = 200;

  /** Requests per second per client IP on the routes that take no key (hosted page, public session views, dashboard); 0: off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  RATE_LIMIT_PER_IP = 50;

  /** Run the billing run every minute from this instance (any number of instances may: they claim disjoint batches). */
  @Transform(toBool)
  @IsBoolean()
  BILLING_SCHEDULER = true;

  /** Subscriptions one transaction of the billing run claims and bills (one set-based statement per batch). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5000)
  BILLING_BATCH_SIZE = 500;

  /** The SMS gateway (docs/sms-gateway.md) Production reminders are sent through; unset: they fail, logged. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'SMS_GATEWAY_URL must be an http(s) URL' })
  SMS_GATEWAY_URL?: string;
  @IsOptional()
  @IsString()
  SMS_GATEWAY_API_KEY?: string;

  /** Time-out of one call to the SMS gateway. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(120_000)
  SMS_TIMEOUT_MS = 10_000;

  /** How often this instance sends the SMS waiting to go; 0: never (another instance does). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  SMS_SEND_INTERVAL_MS = 10_000;

  /** Attempts of one SMS before it is marked failed (a gateway error or time-out is tried again). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  SMS_MAX_ATTEMPTS = 5;

  /** Wait before the second attempt of an SMS; doubled before each next one. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  SMS_RETRY_DELAY_MS = 30_000;

  /**
   * Batches one billing run bills, and one reminder run reminds, at once (each holds a pooled
   * connection while it writes). Keep it well below DB_POOL_SIZE: the API shares the pool. Three:
   * with two, the cores sat idle 5-7 % of a run while both batches were being built by this
   * process; a third keeps PostgreSQL writing meanwhile (docs/billing.md, "Performance").
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(16)
  BILLING_CONCURRENCY = 3;

  /**
   * The key of the go-live documents and ID numbers (AES-256-GCM): 32 bytes, base64 or hex. Unset
   * with the embedded database: one generated under DATA_DIR. Required with DATABASE_URL.
   */
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'DOCUMENTS_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or 44 base64 characters',
  })
  DOCUMENTS_ENCRYPTION_KEY?: string;

  /** The previous key during a rotation (docs/going-live.md): still decrypts what it encrypted. */
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'DOCUMENTS_ENCRYPTION_KEY_PREVIOUS must be 32 bytes, as 64 hex digits or 44 base64 characters',
  })
  DOCUMENTS_ENCRYPTION_KEY_PREVIOUS?: string;

  /** The banks an owner may choose for the payout account (docs/going-live.md): comma-separated codes. */
  @Matches(/^[A-Z][A-Z0-9_]{1,31}(,[A-Z][A-Z0-9_]{1,31}){0,99}$/, {
    message: 'PAYOUT_BANKS must be comma-separated bank codes in capitals, e.g. BNM,BMCI',
  })
  PAYOUT_BANKS = 'BNM,BMCI,BPM,BCI,CHINGUITTY,SGM,ATTIJARI,BAMIS,ORABANK,GBM';
  /** Serves `GET /metrics` (Prometheus) to requests with `Authorization: Bearer <METRICS_TOKEN>`; unset: no metrics route (404). */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** Where OpenTelemetry traces are sent (OTLP over HTTP, e.g. http://collector:4318); unset: no tracing at all. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The fee rate, in basis points of each payment, of an organization whose operator set none (0..10000). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10000)
  DEFAULT_FEE_BPS = 0;

  /** Days from a payment's completion until its money is available to pay out. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(365)
  PAYOUT_DELAY_DAYS = 1;

  /** The payout gateway (docs/bank-gateway.md "Transfers"): where Production payouts are sent; unset: they wait, pending. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'PAYOUT_GATEWAY_URL must be an http(s) URL' })
  PAYOUT_GATEWAY_URL?: string;
  @IsOptional()
  @IsString()
  PAYOUT_GATEWAY_API_KEY?: string;

  /** The hour (UTC) from which the payout job pays each due environment, once a day. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(23)
  PAYOUT_HOUR_UTC = 8;

  /** Run the payout job every minute from this instance (any number of instances may: they claim disjoint environments). */
  @Transform(toBool)
  @IsBoolean()
  PAYOUT_SCHEDULER = true;

  /** Expire checkout sessions past their deadline every minute from this instance (any number may: they claim disjoint batches). */
  @Transform(toBool)
  @IsBoolean()
  CHECKOUT_EXPIRY_SCHEDULER = true;

  /** Delete Idempotency-Key records older than 24 h every minute from this instance (any number may: they delete disjoint batches). */
  @Transform(toBool)
  @IsBoolean()
  IDEMPOTENCY_EXPIRY_SCHEDULER = true;

  /** How long a transfer payment waits for the customer's transfer (docs/transfers.md); 2 minutes of grace follow. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  TRANSFER_CLAIM_MINUTES = 15;

  /** How often transfer payments whose claim (and its grace) ended are failed (`expired`); 0 turns the schedule off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  TRANSFER_CLAIM_EXPIRY_INTERVAL_MS = 30_000;

  /** Write the API keys' last-used times this instance gathered every 30 s (false: only when the instance stops). */
  @Transform(toBool)
  @IsBoolean()
  API_KEY_LAST_USED_SCHEDULER = true;

  get publicUrl(): string {
    return this.PUBLIC_URL ?? `http://localhost:${this.PORT}`;
  }
}

/**
 * The settings that turn a scheduled job on or off on an instance (docs/operations.md, "Jobs"):
 * every job names one of them (`JobSchedule.switch`), so this list is where a new job's switch
 * starts, and what the test apps and the CLI turn off.
 */
export const JOB_SWITCHES = [
  'CHECKOUT_EXPIRY_SCHEDULER',
  'IDEMPOTENCY_EXPIRY_SCHEDULER',
  'API_KEY_LAST_USED_SCHEDULER',
  'EVENT_RETENTION_SCHEDULER',
  'BILLING_SCHEDULER',
  'PAYOUT_SCHEDULER',
  'RECONCILE_INTERVAL_MS',
  'SMS_SEND_INTERVAL_MS',
  'TRANSFER_CLAIM_EXPIRY_INTERVAL_MS',
] as const satisfies ReadonlyArray<keyof AppConfig>;
export type JobSwitch = (typeof JOB_SWITCHES)[number];

/** The environment that turns every scheduled job off (`false`, or 0 for an interval). */
export function allJobsOff(): Record<JobSwitch, string> {
  const defaults = new AppConfig();
  return Object.fromEntries(
    JOB_SWITCHES.map((s) => [s, typeof defaults[s] === 'boolean' ? 'false' : '0']),
  ) as Record<JobSwitch, string>;
}

/** Settings without a default (so absent from `new AppConfig()`), read when set. */
const OPTIONAL_SETTINGS = [
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_READ_URL',
  'DATABASE_PREPARED_STATEMENTS',
  'PUBLIC_URL',
  'LOG_FORMAT',
  'CHECKOUT_CSRF_SECRET',
  'WEBHOOK_LEASE_MS',
  'DOCUMENTS_ENCRYPTION_KEY',
  'DOCUMENTS_ENCRYPTION_KEY_PREVIOUS',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  ...(['BANKILY', 'MASRIVI', 'SEDAD'] as const).flatMap((b) => [`BANK_${b}_URL`, `BANK_${b}_API_KEY`]),
  'PAYOUT_GATEWAY_URL',
  'PAYOUT_GATEWAY_API_KEY',
];

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const input: Record<string, string> = {};
  for (const key of [...known, ...OPTIONAL_SETTINGS]) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const config = plainToInstance(AppConfig, input);
  const errors = validateSync(config);
  if (errors.length > 0) {
    const lines = errors.flatMap((e) =>
      Object.values(e.constraints ?? {}).map((m) => `  ${e.property}=${JSON.stringify(e.value)}: ${m}`),
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (input.DEMO_ORG === undefined) config.DEMO_ORG = config.DATABASE_URL === undefined;
  if (input.WEBHOOK_ALLOW_PRIVATE_URLS === undefined)
    config.WEBHOOK_ALLOW_PRIVATE_URLS = !config.DATABASE_URL;
  return config;
}
