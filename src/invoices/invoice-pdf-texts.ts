import type { InvoiceStatus } from './invoice';

/** The PDF invoice's texts, per language (a missing one is a compile error). */
export interface InvoicePdfTexts {
  invoice: string;
  number: string;
  issued: string;
  due: string;
  period: string;
  from: string;
  billedTo: string;
  taxId: string;
  phone: string;
  description: string;
  quantity: string;
  unitAmount: string;
  amount: string;
  proration: string;
  subtotal: string;
  discount: string;
  credit: string;
  total: string;
  status: string;
  statuses: Record<InvoiceStatus, string>;
  pay: string;
  currency: string;
}

export const INVOICE_PDF_LANGUAGES = ['fr', 'ar', 'en'] as const;
export type InvoicePdfLanguage = (typeof INVOICE_PDF_LANGUAGES)[number];

export const INVOICE_PDF_TEXTS: Record<InvoicePdfLanguage, InvoicePdfTexts> = {
  fr: {
    invoice: 'Facture',
    number: 'Numéro',
    issued: 'Émise le',
    due: 'Échéance',
    period: 'Période',
    from: 'Émetteur',
    billedTo: 'Facturé à',
    taxId: 'NIF',
    phone: 'Téléphone',
    description: 'Désignation',
    quantity: 'Qté',
    unitAmount: 'Prix unitaire',
    amount: 'Montant',
    proration: 'au prorata',
    subtotal: 'Sous-total',
    discount: 'Remise',
    credit: 'Crédit appliqué',
    total: 'Total à payer',
    status: 'Statut',
    statuses: { pending: 'À payer', paid: 'Payée', void: 'Annulée', refunded: 'Remboursée' },
    pay: 'Payer en ligne',
    currency: 'MRU',
  },
  ar: {
    invoice: 'فاتورة',
    number: 'الرقم',
    issued: 'تاريخ الإصدار',
    due: 'تاريخ الاستحقاق',
    period: 'الفترة',
    from: 'المُصدِر',
    billedTo: 'العميل',
    taxId: 'الرقم الضريبي',
    phone: 'الهاتف',
    description: 'البيان',
    quantity: 'الكمية',
    unitAmount: 'سعر الوحدة',
    amount: 'المبلغ',
    proration: 'تناسبي',
    subtotal: 'المجموع الفرعي',
    discount: 'الخصم',
    credit: 'الرصيد المستخدم',
    total: 'المبلغ المستحق',
    status: 'الحالة',
    statuses: { pending: 'غير مدفوعة', paid: 'مدفوعة', void: 'ملغاة', refunded: 'مستردة' },
    pay: 'ادفع عبر الإنترنت',
    currency: 'أوقية',
  },
  en: {
    invoice: 'Invoice',
    number: 'Number',
    issued: 'Issued',
    due: 'Due',
    period: 'Period',
    from: 'From',
    billedTo: 'Billed to',
    taxId: 'Tax ID',
    phone: 'Phone',
    description: 'Description',
    quantity: 'Qty',
    unitAmount: 'Unit price',
    amount: 'Amount',
    proration: 'prorated',
    subtotal: 'Subtotal',
    discount: 'Discount',
    credit: 'Credit applied',
    total: 'Total due',
    status: 'Status',
    statuses: { pending: 'Pending', paid: 'Paid', void: 'Void', refunded: 'Refunded' },
    pay: 'Pay online',
    currency: 'MRU',
  },
};
