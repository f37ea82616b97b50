/**
 * How long a text is as an SMS. GSM-7 (docs/sms-gateway.md): 160 characters in one SMS, the
 * characters of the extension table counting two; anything outside GSM-7 sends the whole text
 * as UCS-2: 70 UTF-16 units in one SMS, 67 per part of a longer one.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

/** The GSM-7 septets the text takes, or null when a character is not in GSM-7 (it goes as UCS-2). */
export function gsm7Length(text: string): number | null {
  let n = 0;
  for (const ch of text) {
    if (GSM7_BASIC.includes(ch)) n += 1;
    else if (GSM7_EXTENSION.includes(ch)) n += 2;
    else return null;
  }
  return n;
}

/** UTF-16 code units: what a UCS-2 SMS counts. */
export const ucs2Length = (text: string): number => text.length;

/** The SMS parts the text takes. */
export function smsParts(text: string): number {
  const gsm = gsm7Length(text);
  if (gsm !== null) return gsm <= 160 ? 1 : Math.ceil(gsm / 153);
  const units = ucs2Length(text);
  return units <= 70 ? 1 : Math.ceil(units / 67);
}

/** A phone number as logs may show it: its first two and last two digits. */
export const maskPhone = (phone: string): string =>
  phone.length <= 4 ? '****' : `${phone.slice(0, 2)}${'*'.repeat(phone.length - 4)}${phone.slice(-2)}`;
