import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { parseCookies } from '../common/http/cookies';
import { acceptsCsv } from '../common/http/csv';
import { Db } from './db';

/**
 * Set on a dashboard user's browser by a write (any POST of the dashboard) for
 * `DATABASE_READ_MAX_LAG_MS`: while it is there, its pages read the leader, so that a page shown
 * after a write shows it even when the replica has not replayed it yet.
 */
export const READ_LEADER_COOKIE = 'khoums_read_leader';

const READS_REPLICA = Symbol('reads-replica');

/** Runs the routes marked `@ReadsReplica` in `db.readFromReplica` (on those routes only). */
@Injectable()
export class ReadsReplicaInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly db: Db,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const what = this.reflector.get<'page' | 'csv' | undefined>(READS_REPLICA, context.getHandler());
    if (!what || !this.db.replica) return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (what === 'csv' && !acceptsCsv(req.headers.accept)) return next.handle();
    if (what === 'page' && parseCookies(req.headers.cookie)[READ_LEADER_COOKIE]) return next.handle();
    // The handler runs when subscribed to: subscribed inside, it runs (and reads) in the context.
    return new Observable((subscriber) => this.db.readFromReplica(() => next.handle().subscribe(subscriber)));
  }
}

/**
 * What a route reads from `DATABASE_READ_URL`'s replica (docs/operations.md, "Read replica"):
 * `page`, a dashboard page of lists, searches or reports (unless its user has just written);
 * `csv`, an API list asked for as CSV (its JSON stays on the leader: a client reads what it has
 * just created). The interceptor is the route's own, not the application's: a route with no
 * interceptor skips Nest's interceptor chain (an Observable, two `AsyncResource.bind` per request,
 * each of which calls `util.deprecate` twice on Node 20), measured at a tenth of the Node time of
 * the API's look-up under load.
 */
export const ReadsReplica = (what: 'page' | 'csv') =>
  applyDecorators(SetMetadata(READS_REPLICA, what), UseInterceptors(ReadsReplicaInterceptor));
