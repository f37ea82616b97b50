import { ApiProperty } from '@nestjs/swagger';
import { randomInt } from 'node:crypto';
import { LANGUAGES, type Language } from '../common/i18n/languages';
import { raw } from '../database/sql';

/*
 * A payment link (docs/payment-links.md): a page at /l/<code> where any customer pays the merchant,
 * each payment its own payment request (`link_<code>_<n>`) and checkout session.
 */

/** The customer-chosen amount's limits when the link does not set them. */
export const DEFAULT_MIN_AMOUNT = 1;
export const DEFAULT_MAX_AMOUNT = 1_000_000;

export const PAYMENT_LINK_LANGUAGES = LANGUAGES;

/** A payment link as the code handles it (a `payment_links` row, camelCased, with its totals). */
export interface PaymentLink {
  id: string;
  environmentId: string;
  code: string;
  name: string;
  description: string | null;
  /** Whole MRU; null: the customer types the amount, between minAmount and maxAmount. */
  amount: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  maxPayments: number | null;
  expiresAt: Date | null;
  successMessage: string | null;
  language: Language;
  active: boolean;
  /** Its requests paid, and the whole MRU they brought. */
  paymentsCount: number;
  amountCollected: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a link under the alias `l`, named as PaymentLink's properties (totals aside). */
export const LINK_COLUMNS = raw(`l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt"`);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 10 random base62 characters (about 59.5 bits), drawn from the CSPRNG: never derived from the id. */
export function newLinkCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += BASE62[randomInt(62)];
  return code;
}

/** A code as the page's path may carry one: anything else names no link. */
export const isLinkCode = (value: string): boolean => /^[0-9A-Za-z]{10}$/.test(value);

export const linkPagePath = (code: string) => `/l/${code}`;

/** Why a link takes no payment now, if it does not; `full` while its places are all held by payments under way. */
export type LinkClosure = 'inactive' | 'expired' | 'exhausted' | 'full';

/**
 * Whether the link takes a payment now. `places` (its requests paid, and its places taken) only
 * matters with `maxPayments`. Exhausted: paid `maxPayments` times, for good; full: the rest of its
 * places are held by payments under way, freed if their sessions end unpaid.
 */
export function closureOf(
  link: Pick<PaymentLink, 'active' | 'expiresAt' | 'maxPayments'>,
  places: { paid: number; taken: number } | null,
  now = new Date(),
): LinkClosure | null {
  if (!link.active) return 'inactive';
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (link.maxPayments !== null && places) {
    if (places.paid >= link.maxPayments) return 'exhausted';
    if (places.taken >= link.maxPayments) return 'full';
  }
  return null;
}

/** The share text's words, in the link's language. */
const SHARE_WORDS: Record<Language, { amount: string; anyAmount: string; pay: string }> = {
  fr: { amount: 'Montant :', anyAmount: 'montant libre', pay: 'Payez ici :' },
  ar: { amount: 'المبلغ:', anyAmount: 'مبلغ حر', pay: 'ادفع هنا:' },
  en: { amount: 'Amount:', anyAmount: 'any amount', pay: 'Pay here:' },
};

/**
 * The text a merchant shares (WhatsApp), in the link's language: the name, the amount (or that the
 * customer chooses it) and the URL, each on its own line so that an Arabic line never reorders the
 * Latin URL. The amount is written in plain digits, as customers type it in their bank app.
 */
export function shareTextOf(link: Pick<PaymentLink, 'name' | 'amount' | 'language'>, url: string): string {
  const w = SHARE_WORDS[link.language];
  const amount = link.amount === null ? w.anyAmount : `${link.amount} MRU`;
  return `${link.name}\n${w.amount} ${amount}\n${w.pay} ${url}`;
}

export const whatsappUrlOf = (text: string) => `https://wa.me/?text=${encodeURIComponent(text)}`;

/** The payment link record, as the API and the SDK show it. */
export class PaymentLinkJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: '10 random base62 characters: the link is `{PUBLIC_URL}/l/<code>`' })
  code!: string;
  @ApiProperty({ format: 'uri', description: 'The page customers pay on' }) url!: string;
  @ApiProperty({ description: '1 to 120 characters' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Whole MRU; null: the customer types the amount, between minAmount and maxAmount',
  })
  amount!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'With a customer-chosen amount (default 1)' })
  minAmount!: number | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'With a customer-chosen amount (default 1000000)',
  })
  maxAmount!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'At most this many payments; null: no limit' })
  maxPayments!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Shown to the customer after paying' })
  successMessage!: string | null;
  @ApiProperty({ enum: PAYMENT_LINK_LANGUAGES, description: 'The language of the share text' })
  language!: Language;
  @ApiProperty({ description: 'false: the page answers 410' }) active!: boolean;
  @ApiProperty({ type: 'integer', description: 'Payments completed through the link' })
  paymentsCount!: number;
  @ApiProperty({ type: 'integer', description: 'Whole MRU paid through the link' }) amountCollected!: number;
  @ApiProperty({ format: 'uri', description: 'The QR code of `url` (SVG); `/qr.png?size=` for a PNG' })
  qrCodeUrl!: string;
  @ApiProperty({ format: 'uri', description: 'Opens WhatsApp with the share text in the link language' })
  whatsappUrl!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export function toPaymentLinkJson(l: PaymentLink, publicUrl: string): PaymentLinkJson {
  const url = publicUrl + linkPagePath(l.code);
  return {
    id: l.id,
    code: l.code,
    url,
    name: l.name,
    description: l.description,
    amount: l.amount,
    minAmount: l.minAmount,
    maxAmount: l.maxAmount,
    maxPayments: l.maxPayments,
    expiresAt: l.expiresAt?.toISOString() ?? null,
    successMessage: l.successMessage,
    language: l.language,
    active: l.active,
    paymentsCount: l.paymentsCount,
    amountCollected: l.amountCollected,
    qrCodeUrl: `${url}/qr.svg`,
    whatsappUrl: whatsappUrlOf(shareTextOf(l, url)),
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}
