import { reminderMessages } from './reminder-messages';
import { gsm7Length, smsParts, ucs2Length } from './sms-text';

const longest = {
  merchantName: 'Boutique Ahmed Salem', // 20 characters
  amount: '999999.00',
  dueDate: new Date('2026-12-31T10:00:00Z'),
  checkoutUrl: 'https://pay.khoums-mr.com/checkout/invoices/0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', // 80 characters
};

describe('reminder messages', () => {
  it('counts GSM-7 septets (extension characters twice) and falls back to UCS-2 units outside GSM-7', () => {
    expect(gsm7Length('Payer : é à')).toBe(11);
    expect(gsm7Length('a€[')).toBe(5);
    expect(gsm7Length('فاتورة')).toBeNull();
    expect(ucs2Length('فاتورة 12')).toBe(9);
    expect(smsParts('x'.repeat(160))).toBe(1);
    expect(smsParts('x'.repeat(161))).toBe(2);
    expect(smsParts('ف'.repeat(70))).toBe(1);
    expect(smsParts('ف'.repeat(134))).toBe(2);
    expect(smsParts('ف'.repeat(135))).toBe(3);
  });

  it.each(['upcoming', 'overdue'] as const)(
    'keeps a %s reminder for a 20-character name within one GSM-7 SMS in French and English and two UCS-2 parts in Arabic',
    (kind) => {
      const m = reminderMessages({ ...longest, reminder: { kind } });
      for (const text of [m.fr, m.en]) {
        expect(gsm7Length(text)).not.toBeNull();
        expect(gsm7Length(text)!).toBeLessThanOrEqual(160);
      }
      expect(gsm7Length(m.ar)).toBeNull();
      expect(ucs2Length(m.ar)).toBeLessThanOrEqual(134);
      expect(smsParts(m.ar)).toBe(2);
    },
  );

  it('names the merchant, the amount in MRU, the due date and the page in each language, and cuts a longer name to 20 characters', () => {
    const m = reminderMessages({
      ...longest,
      merchantName: 'Société Commerciale de Nouakchott',
      amount: '1500.00',
      reminder: { kind: 'overdue' },
    });
    expect(m.fr).toBe(
      `Société Commerciale: facture 1500 MRU impayée depuis le 31/12/2026. Payer: ${longest.checkoutUrl}`,
    );
    expect(m.en).toBe(
      `Société Commerciale: invoice of 1500 MRU overdue since 31/12/2026. Pay: ${longest.checkoutUrl}`,
    );
    expect(m.ar).toBe(`Société Commerciale: فاتورة 1500 MRU استحقت 31/12 ${longest.checkoutUrl}`);
    const up = reminderMessages({ ...longest, amount: '700.00', reminder: { kind: 'upcoming' } });
    expect(up.fr).toContain('700 MRU à régler avant le 31/12/2026');
    expect(up.en).toContain('700 MRU due on 31/12/2026');
    expect(up.ar).toContain('700 MRU تستحق 31/12');
  });
});
