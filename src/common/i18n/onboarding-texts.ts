import type { Language } from './languages';

/*
 * The onboarding page a platform's link opens (docs/platforms.md), in the three languages of the
 * pages. Its own dictionary, typed by the French one: a missing translation is a compile error.
 */

const fr = {
  title: 'Bienvenue sur Khoums',
  intro:
    '{platform} a ouvert un compte Khoums pour {organization}. Choisissez votre mot de passe, puis demandez le passage en production.',
  submit: 'Choisir ce mot de passe',
  invalidTitle: 'Lien inconnu',
  invalidBody: "Ce lien d'accès n'existe pas. Demandez-en un nouveau à la plateforme qui vous l'a envoyé.",
};

export type OnboardingTexts = typeof fr;

const ar: OnboardingTexts = {
  title: 'مرحبًا بك في خمس',
  intro: 'فتحت {platform} حسابًا في خمس لـ {organization}. اختر كلمة المرور، ثم اطلب الانتقال إلى الإنتاج.',
  submit: 'اختيار كلمة المرور هذه',
  invalidTitle: 'رابط غير معروف',
  invalidBody: 'رابط الدخول هذا غير موجود. اطلب رابطًا جديدًا من المنصة التي أرسلته إليك.',
};

const en: OnboardingTexts = {
  title: 'Welcome to Khoums',
  intro:
    '{platform} opened a Khoums account for {organization}. Choose your password, then apply to go live.',
  submit: 'Set this password',
  invalidTitle: 'Unknown link',
  invalidBody: 'This sign-in link does not exist. Ask the platform that sent it for a new one.',
};

export const ONBOARDING_TEXTS: Record<Language, OnboardingTexts> = { fr, ar, en };
