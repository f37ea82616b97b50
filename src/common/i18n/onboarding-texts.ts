import { isolatePlaceholders } from './bidi';
import type { Language } from './languages';

/*
 * The onboarding page a platform's link opens and the platform's list of its connected accounts
 * (docs/platforms.md), in the three languages of the pages. Its own dictionary, typed by the French one: a missing translation is a compile error.
 */

const fr = {
  title: 'Bienvenue sur Khoums',
  intro:
    '{platform} a ouvert un compte Khoums pour {organization}. Choisissez votre mot de passe, puis demandez le passage en production.',
  submit: 'Choisir ce mot de passe',
  setUpTitle: 'Compte déjà configuré',
  setUpBody:
    '{organization} a déjà un mot de passe : ce lien ne le change pas. Connectez-vous avec votre mot de passe.',
  signIn: 'Se connecter',
  invalidTitle: 'Lien inconnu',
  invalidBody: "Ce lien d'accès n'existe pas. Demandez-en un nouveau à la plateforme qui vous l'a envoyé.",
  accountsTitle: 'Comptes connectés',
  accountsIntro:
    "Les commerçants que votre plateforme a connectés, leur vérification et leur solde dans l'environnement affiché.",
  accountsEmpty:
    'Aucun compte connecté : créez-en avec POST /accounts (voir la documentation des plateformes).',
  notPlatform: "Cette organisation n'est pas une plateforme.",
  name: 'Nom',
  email: 'E-mail',
  verification: 'Vérification',
  available: 'Disponible',
  pending: 'À venir',
  verification_unverified: 'Non vérifié',
  verification_submitted: 'Demande envoyée',
  verification_verified: 'Vérifié',
  verification_rejected: 'Refusé',
  accountPayments: 'Paiements',
  accountPaymentsLink: 'Voir les paiements de {name}',
  accountPaymentsTitle: 'Paiements de {name}',
  accountPaymentsIntro:
    "Les paiements de ce compte connecté dans l'environnement affiché, du plus récent au plus ancien. En lecture seule : le commerçant les gère dans son propre tableau de bord.",
  backToAccounts: 'Retour aux comptes connectés',
};

export type OnboardingTexts = typeof fr;

const ar: OnboardingTexts = {
  title: 'مرحبًا بك في خمس',
  intro: 'فتحت {platform} حسابًا في خمس لـ {organization}. اختر كلمة المرور، ثم اطلب الانتقال إلى الإنتاج.',
  submit: 'اختيار كلمة المرور هذه',
  setUpTitle: 'الحساب مُعدّ مسبقًا',
  setUpBody: 'لدى {organization} كلمة مرور بالفعل: هذا الرابط لا يغيّرها. سجّل الدخول بكلمة المرور الخاصة بك.',
  signIn: 'تسجيل الدخول',
  invalidTitle: 'رابط غير معروف',
  invalidBody: 'رابط الدخول هذا غير موجود. اطلب رابطًا جديدًا من المنصة التي أرسلته إليك.',
  accountsTitle: 'الحسابات المرتبطة',
  accountsIntro: 'التجار الذين ربطتهم منصتك، وحالة التحقق منهم ورصيدهم في البيئة المعروضة.',
  accountsEmpty: 'لا يوجد حساب مرتبط: أنشئ حسابات عبر POST /accounts (راجع توثيق المنصات).',
  notPlatform: 'هذه المؤسسة ليست منصة.',
  name: 'الاسم',
  email: 'البريد الإلكتروني',
  verification: 'التحقق',
  available: 'المتاح',
  pending: 'قيد الانتظار',
  verification_unverified: 'غير متحقق منه',
  verification_submitted: 'الطلب مرسل',
  verification_verified: 'متحقق منه',
  verification_rejected: 'مرفوض',
  accountPayments: 'المدفوعات',
  accountPaymentsLink: 'عرض مدفوعات {name}',
  accountPaymentsTitle: 'مدفوعات {name}',
  accountPaymentsIntro:
    'مدفوعات هذا الحساب المرتبط في البيئة المعروضة، من الأحدث إلى الأقدم. للقراءة فقط: يديرها التاجر من لوحة التحكم الخاصة به.',
  backToAccounts: 'العودة إلى الحسابات المرتبطة',
};

const en: OnboardingTexts = {
  title: 'Welcome to Khoums',
  intro:
    '{platform} opened a Khoums account for {organization}. Choose your password, then apply to go live.',
  submit: 'Set this password',
  setUpTitle: 'Account already set up',
  setUpBody:
    '{organization} already has a password: this link does not change it. Sign in with your password.',
  signIn: 'Sign in',
  invalidTitle: 'Unknown link',
  invalidBody: 'This sign-in link does not exist. Ask the platform that sent it for a new one.',
  accountsTitle: 'Connected accounts',
  accountsIntro:
    'The merchants your platform connected, their verification and their balance in the environment shown.',
  accountsEmpty: 'No connected account yet: create them with POST /accounts (see the platforms guide).',
  notPlatform: 'This organization is not a platform.',
  name: 'Name',
  email: 'Email',
  verification: 'Verification',
  available: 'Available',
  pending: 'Pending',
  verification_unverified: 'Unverified',
  verification_submitted: 'Application sent',
  verification_verified: 'Verified',
  verification_rejected: 'Rejected',
  accountPayments: 'Payments',
  accountPaymentsLink: 'See the payments of {name}',
  accountPaymentsTitle: 'Payments of {name}',
  accountPaymentsIntro:
    'The payments of this connected account in the environment shown, newest first. Read only: the merchant manages them in their own dashboard.',
  backToAccounts: 'Back to connected accounts',
};

export const ONBOARDING_TEXTS: Record<Language, OnboardingTexts> = { fr, ar: isolatePlaceholders(ar), en };
