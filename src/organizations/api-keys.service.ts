import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DATABASE_DIRECT_URL } from '../database/database.module';
import { Db } from '../database/db';
import { PgListener } from '../database/listener';
import { ApiKeyCache } from './api-key-cache';
import { OrganizationError, organizationError } from './organizations.errors';
import { ApiKeyInfo, OrganizationsRepository } from './organizations.repository';
import { displayKey, generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, sameHash } from './secrets';
import type { EnvironmentKind, EnvironmentScope, KeyKind, Tenant } from './tenant';

/** The channel on which the database announces ended keys (a trigger on api_keys), and heartbeats travel. */
export const ENDED_KEYS_CHANNEL = 'api_keys_ended';
/** How often the listening connection sends itself a heartbeat: well within the cache's 1 s. */
const HEARTBEAT_MS = 250;
const HEARTBEAT = 'heartbeat:';

/** The longest name a key is given (the dashboard's form cuts it there). */
export const API_KEY_NAME_MAX = 100;

/** How long a rolled key keeps working beside its successor, in seconds: now, 1 h, 24 h, 7 days. */
export const ROLL_DELAYS = [0, 3600, 86_400, 604_800] as const;
export type RollDelay = (typeof ROLL_DELAYS)[number];

export function isRollDelay(value: number): value is RollDelay {
  return (ROLL_DELAYS as readonly number[]).includes(value);
}

export interface IssuedKey {
  id: string;
  kind: KeyKind;
  key: string;
}

@Injectable()
export class ApiKeysService implements OnApplicationBootstrap, OnApplicationShutdown {
  /**
   * Keys used since the last flush: last-used times are written in batches (FlushLastUsedTimesJob,
   * and when the instance stops), never on every request.
   */
  private readonly used = new Set<string>();
  private heartbeats?: NodeJS.Timeout;
  /** Keys looked up recently (docs/architecture.md, "The API-key cache"). */
  readonly cache = new ApiKeyCache();
  private readonly listener: PgListener;
  /** Tells this instance's heartbeats from other instances' on the shared channel. */
  private readonly heartbeatTag = `${HEARTBEAT}${randomUUID()}:`;

  constructor(
    private readonly db: Db,
    private readonly repo: OrganizationsRepository,
    @Inject(DATABASE_DIRECT_URL) listenUrl: string,
  ) {
    this.listener = new PgListener(
      listenUrl,
      ENDED_KEYS_CHANNEL,
      (payload) => this.notified(payload),
      () => this.cache.listening(),
      () => this.cache.lost(),
    );
  }

  onApplicationBootstrap(): void {
    this.listener.start();
    this.heartbeats = setInterval(
      () => void this.listener.notify(this.heartbeatTag + String(performance.now())),
      HEARTBEAT_MS,
    );
    this.heartbeats.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.heartbeats);
    await this.listener.stop();
    await this.flushLastUsed().catch(() => undefined);
  }

  /**
   * The tenant of a live key, or null for an unknown, malformed or ended one: from the cache, or
   * one indexed query. Unknown keys are never cached.
   */
  async authenticate(key: string): Promise<Tenant | null> {
    if (!looksLikeApiKey(key)) return null;
    const hash = hashApiKey(key);
    const cacheKey = hash.toString('base64');
    const cached = this.cache.get(cacheKey);
    if (cached) {
      this.used.add(cached.keyId);
      return cached;
    }
    const mark = this.cache.begin();
    const row = await this.repo.liveKeyByHash(hash);
    if (!row || !sameHash(row.key_hash, hash)) return null;
    // The prefix must agree with what the key is: a tampered row never widens access.
    if (!key.startsWith(keyPrefix(row.kind, row.environment))) return null;
    this.used.add(row.id);
    const tenant: Tenant = {
      organizationId: row.organization_id,
      environmentId: row.environment_id,
      environment: row.environment,
      keyKind: row.kind,
      keyId: row.id,
      verification: row.verification,
    };
    // A Production key of an organization not yet verified is looked up on every request, so its
    // verification opens Production at once on every instance (a change of a verified one is
    // announced: `org:<id>` on the channel of ended keys).
    if (tenant.environment === 'sandbox' || tenant.verification === 'verified')
      this.cache.set(cacheKey, tenant, row.ms_left, mark);
    return tenant;
  }

  private notified(payload: string): void {
    if (payload.startsWith(HEARTBEAT)) {
      if (payload.startsWith(this.heartbeatTag))
        this.cache.heartbeat(Number(payload.slice(this.heartbeatTag.length)));
    } else if (payload) {
      this.cache.forget(payload);
    } else {
      this.cache.clear();
    }
  }

  /** Issues a key; the full key is returned once and only its SHA-256 hash is stored. */
  async issue(
    organizationId: string,
    environment: { id: string; kind: EnvironmentKind },
    kind: KeyKind,
    name: string | null = null,
  ): Promise<IssuedKey> {
    const key = generateApiKey(kind, environment.kind);
    const id = randomUUID();
    await this.repo.insertKey({
      id,
      organizationId,
      environmentId: environment.id,
      kind,
      hash: hashApiKey(key),
      display: displayKey(key),
      name,
    });
    return { id, kind, key };
  }

  /**
   * Revokes a key of the organization (of one environment, when given); its very next request gets
   * 401 here, and within a second on every other instance (notified by the database's trigger).
   */
  async revoke(organizationId: string, keyId: string, environmentId?: string): Promise<boolean> {
    try {
      return await this.repo.revokeKey(organizationId, keyId, environmentId);
    } finally {
      this.cache.forget(keyId);
    }
  }

  /** The environment's live keys, newest first (prefix and last four only: the rest was shown once). */
  list(scope: EnvironmentScope): Promise<ApiKeyInfo[]> {
    return this.repo.liveKeys(scope.organizationId, scope.environmentId);
  }

  /**
   * Roll: a new key of the same kind and name, and the old one keeps working for `delay` seconds
   * (0: it stops now). One transaction, the old key locked, so two rolls of one key make one successor.
   */
  async roll(
    scope: EnvironmentScope,
    keyId: string,
    delay: RollDelay,
  ): Promise<{ issued: IssuedKey; previous: ApiKeyInfo; previousExpiresAt: Date }> {
    return this.db
      .transaction(async () => {
        const previous = await this.repo.lockLiveKey(scope.organizationId, scope.environmentId, keyId);
        if (!previous) throw organizationError(OrganizationError.ApiKeyNotFound);
        const issued = await this.issue(
          scope.organizationId,
          { id: scope.environmentId, kind: scope.environment },
          previous.kind,
          previous.name,
        );
        const previousExpiresAt = await this.repo.expireKey(previous.id, delay);
        return { issued, previous, previousExpiresAt };
      })
      .finally(() => this.cache.forget(keyId));
  }

  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used.clear();
    await this.repo.touchKeys(ids);
  }
}
