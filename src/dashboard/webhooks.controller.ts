import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { isHttpUrl } from '../common/validation/rules';
import { DEFAULT_EVENT_KINDS, EVENT_KINDS, EventKind } from '../webhooks/event-kinds';
import { DELIVERY_STATUSES, WebhookEndpoint } from '../webhooks/webhook';
import { WebhookError } from '../webhooks/webhooks.errors';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { parseChoice, safeReturn } from './forms';
import { deliveryRow, pager } from './presenters';

const PAGE_SIZE = 25;
const DEFAULTS: readonly string[] = DEFAULT_EVENT_KINDS;

/** What an endpoint form sent, checked; `errors` says what to fix. */
function endpointForm(d: DashboardRequest) {
  const url = d.field('url').trim();
  const events = [...new Set(d.fields('events'))].filter((e): e is EventKind =>
    (EVENT_KINDS as readonly string[]).includes(e),
  );
  const errors: Record<string, string> = {};
  if (!isHttpUrl(url)) errors.url = d.t.invalidUrl;
  if (events.length === 0) errors.events = d.t.chooseEvents;
  return { url, events, errors };
}

const eventChoices = (selected: readonly string[]) =>
  EVENT_KINDS.map((kind) => ({ value: kind, checked: selected.includes(kind), id: `event-${kind}` }));

/** Webhook endpoints (add, edit, disable, delete, rotate the secret, test) and the delivery log with replay. */
@DashboardPages('webhooks')
export class DashboardWebhooksController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly webhooks: WebhooksService,
  ) {}

  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    await this.renderList(d, { url: '', events: [...DEFAULTS], errors: {} }, 200);
  }

  /** Answers with a page showing the endpoint's signing secret, once. */
  @Post()
  async create(@Dash() d: DashboardRequest): Promise<void> {
    const form = endpointForm(d);
    if (Object.keys(form.errors).length > 0) return this.renderList(d, form, 200);
    try {
      const created = await this.webhooks.create(d.scope, { url: form.url, events: form.events });
      this.renderSecret(d, created.id, created.url, created.secret!, false);
    } catch (err) {
      if (!AppError.is(err, WebhookError.UrlMustBePublic, WebhookError.UrlMustBePublicInProduction))
        throw err;
      return this.renderList(d, { ...form, errors: { url: d.t.urlMustBePublic } }, 200);
    }
  }

  @Get('deliveries')
  async deliveries(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const scope = d.scope;
    const endpoints = await this.webhooks.allEndpoints(scope.environmentId);
    const filters = {
      endpointId: parseChoice(
        d.query('endpointId'),
        endpoints.map((e) => e.id),
      ),
      event: parseChoice(d.query('event'), EVENT_KINDS),
      status: parseChoice(d.query('status'), DELIVERY_STATUSES),
    };
    const page = await this.webhooks.searchDeliveries(scope.environmentId, filters, {
      after: d.query('after'),
      before: d.query('before'),
      limit: PAGE_SIZE,
    });
    const here = d.page.req.url.replace(/([?&])notice=[^&]*&?/, '$1').replace(/[?&]$/, '');
    this.renderer.render(d, 'deliveries', t.deliveriesTitle, {
      filtered: Object.values(filters).some(Boolean),
      endpoints: endpoints.map((e) => ({ value: e.id, label: e.url, selected: e.id === filters.endpointId })),
      events: EVENT_KINDS.map((e) => ({ value: e, label: e, selected: e === filters.event })),
      statuses: DELIVERY_STATUSES.map((s) => ({
        value: s,
        label: t[`deliveryStatus_${s}`],
        selected: s === filters.status,
      })),
      deliveries: page.items.map((x) => deliveryRow(d, x, here)),
      pager: pager(d, '/dashboard/webhooks/deliveries', filters, page),
    });
  }

  /** One delivery: every attempt (status code, time, duration, response snippet), the body, replay. */
  @Get('deliveries/:id')
  async delivery(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const { t } = d;
    const scope = d.scope;
    const delivery = await this.webhooks.deliveryWithEvent(scope.environmentId, idOr404(id));
    if (!delivery) throw dashboardError(DashboardError.NotFound);
    const attempts = await this.webhooks.listAttempts(scope, delivery.id);
    const here = `/dashboard/webhooks/deliveries/${delivery.id}`;
    this.renderer.render(d, 'delivery', fill(t.deliveryTitle, { event: delivery.event }), {
      delivery: deliveryRow(d, delivery, here),
      eventId: delivery.eventId,
      payload: JSON.stringify(
        {
          id: delivery.eventId,
          event: delivery.event,
          createdAt: delivery.eventCreatedAt,
          data: delivery.eventData,
        },
        null,
        2,
      ),
      attempts: attempts.reverse().map((a) => ({
        at: formatTime(a.createdAt, d.lang),
        statusCode: a.statusCode ?? t.none,
        ok: a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300,
        duration: fill(t.durationMs, { ms: a.durationMs }),
        error: a.error,
        snippet: a.responseSnippet,
      })),
    });
  }

  /** Due again now, with the whole retry schedule; back to where the form was. */
  @Post('deliveries/:id/replay')
  async replay(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.webhooks.retryDelivery(d.scope, idOr404(id)));
    const back = safeReturn(d.field('return'), `/dashboard/webhooks/deliveries/${id}`);
    d.page.redirect(`${back}${back.includes('?') ? '&' : '?'}notice=replayed`);
  }

  @Get(':id')
  async endpoint(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const endpoint = await this.orNotFoundPage(() => this.webhooks.get(d.scope, idOr404(id)));
    await this.renderEndpoint(d, endpoint, { url: endpoint.url, events: endpoint.events, errors: {} });
  }

  @Post(':id')
  async update(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const endpoint = await this.orNotFoundPage(() => this.webhooks.get(d.scope, idOr404(id)));
    const form = endpointForm(d);
    if (Object.keys(form.errors).length > 0) return this.renderEndpoint(d, endpoint, form);
    try {
      await this.webhooks.update(d.scope, endpoint.id, { url: form.url, events: form.events });
    } catch (err) {
      if (!AppError.is(err, WebhookError.UrlMustBePublic, WebhookError.UrlMustBePublicInProduction))
        throw err;
      return this.renderEndpoint(d, endpoint, { ...form, errors: { url: d.t.urlMustBePublic } });
    }
    d.page.redirect(`/dashboard/webhooks/${endpoint.id}?notice=endpointSaved`);
  }

  @Post(':id/enable')
  async enable(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.webhooks.update(d.scope, idOr404(id), { enabled: true }));
    d.page.redirect(`/dashboard/webhooks/${id}?notice=endpointEnabled`);
  }

  @Post(':id/disable')
  async disable(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.webhooks.update(d.scope, idOr404(id), { enabled: false }));
    d.page.redirect(`/dashboard/webhooks/${id}?notice=endpointDisabled`);
  }

  @Post(':id/delete')
  async remove(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.webhooks.remove(d.scope, idOr404(id)));
    d.page.redirect('/dashboard/webhooks?notice=endpointDeleted');
  }

  /** Answers with a page showing the new secret, once; the old one signs for 24 h more. */
  @Post(':id/rotate-secret')
  async rotate(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const rotated = await this.orNotFoundPage(() => this.webhooks.rotateSecret(d.scope, idOr404(id)));
    this.renderSecret(d, rotated.id, rotated.url, rotated.secret!, true);
  }

  /** A test event to this endpoint only; shows its delivery. */
  @Post(':id/test')
  async test(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const endpoint = await this.orNotFoundPage(() => this.webhooks.get(d.scope, idOr404(id)));
    const event = parseChoice(d.field('event'), endpoint.events);
    if (!event) throw dashboardError(DashboardError.InvalidForm);
    const delivery = await this.webhooks.sendTestEvent(d.scope, endpoint.id, { event });
    d.page.redirect(`/dashboard/webhooks/deliveries/${delivery.id}?notice=testSent`);
  }

  /** Runs a webhooks call; its "not found" (another organization's or environment's id) is the 404 page. */
  private async orNotFoundPage<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (AppError.is(err, WebhookError.EndpointNotFound, WebhookError.DeliveryNotFound))
        throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }

  private async renderList(
    d: DashboardRequest,
    form: { url: string; events: readonly string[]; errors: Record<string, string> },
    status: number,
  ): Promise<void> {
    const { t } = d;
    const endpoints = await this.webhooks.allEndpoints(d.scope.environmentId);
    this.renderer.render(
      d,
      'webhooks',
      t.webhooksTitle,
      {
        endpoints: endpoints.map((e) => ({
          href: `/dashboard/webhooks/${e.id}`,
          url: e.url,
          events: e.events.join(', '),
          enabled: e.enabled,
          statusText: e.enabled ? t.enabled : t.disabled,
          created: formatTime(e.createdAt, d.lang),
        })),
        form: { url: form.url, events: eventChoices(form.events), errors: form.errors },
      },
      status,
    );
  }

  private async renderEndpoint(
    d: DashboardRequest,
    endpoint: WebhookEndpoint,
    form: { url: string; events: readonly string[]; errors: Record<string, string> },
  ): Promise<void> {
    const { t } = d;
    const here = `/dashboard/webhooks/${endpoint.id}`;
    const recent = await this.webhooks.searchDeliveries(
      d.scope.environmentId,
      { endpointId: endpoint.id },
      { limit: 10 },
    );
    this.renderer.render(d, 'webhook', fill(t.endpointTitle, { url: endpoint.url }), {
      endpoint: {
        id: endpoint.id,
        url: endpoint.url,
        enabled: endpoint.enabled,
        statusText: endpoint.enabled ? t.enabled : t.disabled,
        disabledReason:
          endpoint.disabledReason && fill(t.disabledBecause, { reason: endpoint.disabledReason }),
        created: formatTime(endpoint.createdAt, d.lang),
        action: here,
        logHref: `/dashboard/webhooks/deliveries?endpointId=${endpoint.id}`,
      },
      form: { url: form.url, events: eventChoices(form.events), errors: form.errors },
      testEvents: endpoint.events.map((e) => ({ value: e, selected: e === 'payment-request-created' })),
      deliveries: recent.items.map((x) => deliveryRow(d, x, here)),
    });
  }

  private renderSecret(d: DashboardRequest, id: string, url: string, secret: string, rotated: boolean): void {
    const { t } = d;
    this.renderer.render(d, 'webhook-secret', t.secretTitle, {
      secret,
      url,
      rotated: rotated ? t.secretRotated : undefined,
      href: `/dashboard/webhooks/${id}`,
    });
  }
}
