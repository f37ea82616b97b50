/**
 * The hosted page's languages: French (default), Arabic (right to left) and English. Typed
 * dictionaries, so a missing translation is a compile error rather than a blank on the page.
 */
export const LANGUAGES = ['fr', 'ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';

const fr = {
  languageName: 'Français',
  title: 'Paiement',
  payTo: 'Paiement à',
  amount: 'Montant',
  reference: 'Référence',
  testMode: 'Mode test : aucun argent réel ne sera débité.',
  chooseMethod: 'Choisissez votre application bancaire',
  phone: 'Numéro de téléphone',
  phoneHint: '8 chiffres, par exemple 22123456',
  passCode: 'Code secret',
  passCodeHint: 'Uniquement pour Bankily',
  pay: 'Payer {amount}',
  cancel: 'Annuler et retourner au marchand',
  methodsUnavailable: 'Le paiement est momentanément indisponible. Veuillez réessayer plus tard.',
  chooseMethodError: 'Choisissez une application bancaire.',
  invalidPhone: 'Numéro de téléphone invalide.',
  passCodeRequired: 'Le code secret est requis pour Bankily.',
  bankFailure:
    'Le paiement a échoué à cause d’une erreur de la banque. Veuillez réessayer ou choisir une autre application.',
  securityCheck: 'La vérification de sécurité a échoué. Veuillez recharger la page et réessayer.',
  pendingTitle: 'Paiement en cours',
  pendingBody:
    'Confirmez le paiement dans votre application bancaire. Cette page se met à jour automatiquement.',
  checkStatus: 'Vérifier l’état du paiement',
  completedTitle: 'Paiement reçu',
  completedBody: 'Merci. Votre paiement a bien été reçu.',
  backToMerchant: 'Retourner chez le marchand',
  cancelledTitle: 'Paiement annulé',
  cancelledBody: 'Ce paiement a été annulé. Aucun montant n’a été débité.',
  expiredTitle: 'Session expirée',
  expiredBody: 'Cette page de paiement a expiré. Retournez chez le marchand pour recommencer.',
  notFoundTitle: 'Page introuvable',
  notFoundBody: 'Cette page de paiement n’existe pas.',
  notOpen: 'Cette session de paiement n’est plus ouverte.',
  languages: 'Langue',
};

export type Dictionary = typeof fr;

const ar: Dictionary = {
  languageName: 'العربية',
  title: 'الدفع',
  payTo: 'الدفع إلى',
  amount: 'المبلغ',
  reference: 'المرجع',
  testMode: 'وضع الاختبار: لن يتم خصم أي مبلغ حقيقي.',
  chooseMethod: 'اختر تطبيقك البنكي',
  phone: 'رقم الهاتف',
  phoneHint: '8 أرقام، مثلا 22123456',
  passCode: 'الرمز السري',
  passCodeHint: 'لـ Bankily فقط',
  pay: 'ادفع {amount}',
  cancel: 'إلغاء والعودة إلى التاجر',
  methodsUnavailable: 'الدفع غير متاح حاليا. يرجى المحاولة لاحقا.',
  chooseMethodError: 'اختر تطبيقا بنكيا.',
  invalidPhone: 'رقم الهاتف غير صالح.',
  passCodeRequired: 'الرمز السري مطلوب لـ Bankily.',
  bankFailure: 'فشل الدفع بسبب خطأ من البنك. يرجى المحاولة مرة أخرى أو اختيار تطبيق آخر.',
  securityCheck: 'فشل التحقق الأمني. يرجى إعادة تحميل الصفحة والمحاولة مرة أخرى.',
  pendingTitle: 'الدفع قيد المعالجة',
  pendingBody: 'أكد الدفع في تطبيقك البنكي. يتم تحديث هذه الصفحة تلقائيا.',
  checkStatus: 'التحقق من حالة الدفع',
  completedTitle: 'تم استلام الدفع',
  completedBody: 'شكرا لك. تم استلام دفعتك.',
  backToMerchant: 'العودة إلى التاجر',
  cancelledTitle: 'تم إلغاء الدفع',
  cancelledBody: 'تم إلغاء هذا الدفع. لم يتم خصم أي مبلغ.',
  expiredTitle: 'انتهت صلاحية الجلسة',
  expiredBody: 'انتهت صلاحية صفحة الدفع هذه. عد إلى التاجر للبدء من جديد.',
  notFoundTitle: 'الصفحة غير موجودة',
  notFoundBody: 'صفحة الدفع هذه غير موجودة.',
  notOpen: 'جلسة الدفع هذه لم تعد مفتوحة.',
  languages: 'اللغة',
};

const en: Dictionary = {
  languageName: 'English',
  title: 'Payment',
  payTo: 'Pay',
  amount: 'Amount',
  reference: 'Reference',
  testMode: 'Test mode: no real money will be taken.',
  chooseMethod: 'Choose your bank app',
  phone: 'Phone number',
  phoneHint: '8 digits, for example 22123456',
  passCode: 'Pass code',
  passCodeHint: 'Only for Bankily',
  pay: 'Pay {amount}',
  cancel: 'Cancel and return to the merchant',
  methodsUnavailable: 'Payment is unavailable right now. Please try again later.',
  chooseMethodError: 'Choose a bank app.',
  invalidPhone: 'Invalid phone number.',
  passCodeRequired: 'The pass code is required for Bankily.',
  bankFailure:
    'Payment failed due to a third party error, please try again later. You can retry or choose another bank app.',
  securityCheck: 'The security check failed. Please reload the page and try again.',
  pendingTitle: 'Payment in progress',
  pendingBody: 'Confirm the payment in your bank app. This page updates by itself.',
  checkStatus: 'Check the payment status',
  completedTitle: 'Payment received',
  completedBody: 'Thank you. Your payment has been received.',
  backToMerchant: 'Return to the merchant',
  cancelledTitle: 'Payment cancelled',
  cancelledBody: 'This payment was cancelled. Nothing was charged.',
  expiredTitle: 'Session expired',
  expiredBody: 'This payment page has expired. Go back to the merchant to start again.',
  notFoundTitle: 'Page not found',
  notFoundBody: 'This payment page does not exist.',
  notOpen: 'This checkout session is no longer open.',
  languages: 'Language',
};

export const DICTIONARIES: Record<Language, Dictionary> = { fr, ar, en };

const NUMBER_LOCALES: Record<Language, string> = { fr: 'fr-MR', ar: 'ar-MR', en: 'en' };
const formatters = new Map(
  LANGUAGES.map((l) => [l, new Intl.NumberFormat(NUMBER_LOCALES[l], { maximumFractionDigits: 0 })]),
);

/** Whole MRU with the language's digit grouping (and digits), then the currency code. */
export function formatMru(amount: number, language: Language): string {
  return `${formatters.get(language)!.format(amount)} MRU`;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first supported language of an Accept-Language header, by quality then order. */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        primary: tag.trim().toLowerCase().split('-')[0],
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((r) => r.primary).find(isLanguage);
}

/** ?lang= first (the switcher), then the remembered choice, then the browser's preference. */
export function chooseLanguage(input: {
  query?: unknown;
  cookie?: unknown;
  acceptLanguage?: string;
}): Language {
  if (isLanguage(input.query)) return input.query;
  if (isLanguage(input.cookie)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage) ?? DEFAULT_LANGUAGE;
}

export function direction(language: Language): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}
