import { Get } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import type { PaymentMethodChoice } from '../checkout/checkout-payments';
import { CheckoutSessionsService } from '../checkout/checkout-sessions.service';
import { CheckoutError } from '../checkout/checkout.errors';
import { AppError } from '../common/errors/app-error';
import { PageRequest } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { PageCtx, Pages } from '../common/pages/pages.decorator';
import { normalizePhone } from '../common/validation/rules';
import { validIdempotencyKey } from '../idempotency/request-key';
import { OrganizationError } from '../organizations/organizations.errors';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { LinkFormState, LinkPageRenderer, linkTexts } from './link-page.renderer';
import { LinkPageRequest, LinkSurface } from './link-surface';
import { closureOf } from './payment-link';
import type { LinkPageRow } from './payment-links.repository';
import { LinkClosedError, PaymentLinksService } from './payment-links.service';
import { pngSizeOf, QrCodes, QrFormat } from './qr-codes';

/** The link form's fields (all optional: a form is whatever was posted). */
interface LinkFormBody {
  amount?: unknown;
  phoneNumber?: unknown;
  paymentMethodId?: unknown;
  formKey?: unknown;
}

/** Eastern Arabic and Persian digits as ASCII ones: a customer types with the keyboard they have. */
export function asciiDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) & 0xf));
}

/** A whole amount as typed: digits, grouped by thousands with spaces, dots or commas or not; else null. */
export function parseTypedAmount(value: string): number | null {
  const typed = asciiDigits(value).trim();
  if (!/^(\d{1,9}|\d{1,3}([\s\u00a0\u202f.,\u066c]\d{3}){1,2})$/.test(typed)) return null;
  return Number(typed.replace(/\D/g, ''));
}

/**
 * A payment link's public page (docs/payment-links.md): `GET /l/:code` shows the merchant, the
 * name, the amount (or a field for it), the phone and the payment methods, in French, Arabic or
 * English, with no script; its form makes the payment request and its checkout session and sends the
 * customer on to the hosted page; `/paid` shows the merchant's message once the session is paid.
 * A link that takes no payment answers 410 with the reason, an unknown code 404. `/qr.svg` and
 * `/qr.png?size=` are its QR code.
 */
@Public()
@Pages(LinkSurface, 'l')
export class LinkPageController {
  constructor(
    private readonly links: PaymentLinksService,
    private readonly renderer: LinkPageRenderer,
    private readonly sessions: CheckoutSessionsService,
    private readonly methods: PaymentMethodsService,
    private readonly qr: QrCodes,
    surface: LinkSurface,
  ) {
    surface.whenTokenRefused('/l/:code', (ctx) => this.startPage(ctx, true));
  }

  @Get(':code')
  async show(@PageCtx() ctx: LinkPageRequest): Promise<void> {
    const found = this.find(ctx);
    if (!found) return;
    const { page, link } = found;
    const closure = closureOf(link, link.places);
    if (closure) return this.renderer.closed(page, link, closure);
    this.renderer.form(page, link, await this.methodsOf(link), 200, {
      amount: '',
      phoneNumber: '',
    });
  }

  @Post(':code')
  start(@PageCtx() ctx: LinkPageRequest): Promise<void> {
    return this.startPage(ctx, false);
  }

  /** The form's post; `tokenRefused`: the kit's guard refused its token (the form again, 403, after the link's state). */
  private async startPage(ctx: LinkPageRequest, tokenRefused: boolean): Promise<void> {
    const found = this.find(ctx);
    if (!found) return;
    const { page, link } = found;
    const closure = closureOf(link, link.places);
    if (closure) return this.renderer.closed(page, link, closure);
    const t = linkTexts(page);
    const body = (ctx.page.req.body ?? {}) as LinkFormBody;
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const typed: LinkFormState = {
      amount: text(body.amount),
      phoneNumber: text(body.phoneNumber),
      methodId: text(body.paymentMethodId),
    };
    const methods = await this.methodsOf(link);
    const again = (status: number, state: Partial<LinkFormState>) =>
      this.renderer.form(page, link, methods, status, { ...typed, ...state });

    if (tokenRefused) return again(403, { error: t.securityCheck });
    const amount = link.amount ?? parseTypedAmount(typed.amount);
    const outOfLimits =
      link.amount === null && (amount === null || amount < link.minAmount! || amount > link.maxAmount!);
    if (amount === null || outOfLimits)
      return again(400, {
        error: t.invalidAmount
          .replace('{min}', String(link.minAmount))
          .replace('{max}', String(link.maxAmount)),
        amountInvalid: true,
      });
    const phoneNumber = normalizePhone(asciiDigits(typed.phoneNumber));
    if (!phoneNumber) return again(400, { error: t.invalidPhone, phoneInvalid: true });
    // A method the page did not offer (or none) leaves the choice to the hosted page.
    const method = methods?.find((m) => m.id === typed.methodId);

    let sessionId: string;
    try {
      sessionId = await this.links.startPayment(link, {
        amount,
        phoneNumber,
        paymentMethodId: method?.id ?? null,
        formKey: validIdempotencyKey(body.formKey) ? body.formKey : undefined,
      });
    } catch (err) {
      if (err instanceof LinkClosedError) return this.renderer.closed(page, link, err.closure);
      if (AppError.is(err, OrganizationError.NotVerifiedForProduction))
        return again(403, { error: t.merchantNotVerified });
      throw err;
    }
    // On to the hosted page, in the language the customer reads this one in.
    page.redirect(`/checkout/${sessionId}?lang=${page.lang}`);
  }

  /** Where the hosted page sends the customer once paid (the session's successUrl). */
  @Get(':code/paid')
  async paid(@PageCtx() ctx: LinkPageRequest): Promise<void> {
    const found = this.find(ctx);
    if (!found) return;
    const { page, link } = found;
    const sessionId = ctx.query('session_id');
    const session =
      typeof sessionId === 'string' && isUUID(sessionId) ? await this.sessionOf(sessionId) : null;
    // Only a paid session of this link shows the merchant's message; anything else is the link's page.
    if (!session || session.paymentLinkId !== link.id || session.status !== 'completed')
      return page.redirect(`/l/${link.code}`);
    this.renderer.paid(page, link, session);
  }

  @Get(':code/qr.svg')
  qrSvg(@PageCtx() ctx: LinkPageRequest): Promise<void> {
    return this.sendQr(ctx, 'svg', 0);
  }

  /** `?size=` pixels, 128 to 1024 (default 512); another size is 400. */
  @Get(':code/qr.png')
  async qrPng(@PageCtx() ctx: LinkPageRequest): Promise<void> {
    const { reply } = ctx.page;
    const size = pngSizeOf((ctx.page.req.query as Record<string, unknown>).size);
    if (size === null)
      return void reply
        .status(400)
        .type('text/plain; charset=utf-8')
        .send('size must be a whole number of pixels from 128 to 1024');
    return this.sendQr(ctx, 'png', size);
  }

  /**
   * The QR code of the link's URL. Cacheable: it changes only with the URL, so a browser, a
   * printer's tool or a CDN keeps it a day and revalidates it with its ETag (304, nothing drawn).
   * It is served for a link that takes no payment too: a printed code keeps leading to the page
   * that says why.
   */
  private async sendQr(ctx: LinkPageRequest, format: QrFormat, size: number): Promise<void> {
    const { link } = ctx;
    const { req, reply } = ctx.page;
    if (!link) return void reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const url = this.links.toJson(link).url;
    const etag = this.qr.etagOf(url, format, size);
    void reply.header('etag', etag).header('cache-control', 'public, max-age=86400');
    if (req.headers['if-none-match'] === etag) return void reply.status(304).send();
    const image = await this.qr.image(url, format, size);
    const name = `khoums-${link.code}${format === 'png' ? `-${size}` : ''}.${format}`;
    void reply
      .type(image.contentType)
      .header('content-disposition', `inline; filename="${name}"`)
      .header('x-content-type-options', 'nosniff')
      .send(image.body);
  }

  /** The link of the path with its page (in the link's language when the customer's chooses none), or the 404 page. */
  private find(ctx: LinkPageRequest): { page: PageRequest; link: LinkPageRow } | undefined {
    if (ctx.link) return { page: ctx.page, link: ctx.link };
    this.renderer.notFound(ctx.page);
    return undefined;
  }

  private async sessionOf(id: string) {
    try {
      return await this.sessions.forPage(id);
    } catch (err) {
      if (AppError.is(err, CheckoutError.NotFound)) return null;
      throw err;
    }
  }

  /** The payment methods the environment lists (push and transfer alike), in display order. */
  private async methodsOf(link: LinkPageRow): Promise<PaymentMethodChoice[] | null> {
    const methods = await this.methods.listEnabled(link.environmentId);
    return methods.map((m) => ({
      id: m.id,
      type: m.type,
      name: m.name,
      requiresPassCode: m.requiresPassCode,
    }));
  }
}
