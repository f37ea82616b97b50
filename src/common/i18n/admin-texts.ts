import { ar } from './admin/ar';
import { en } from './admin/en';
import { AdminTexts, fr } from './admin/fr';
import { isolatePlaceholders } from './bidi';
import type { Language } from './languages';

/**
 * The operators' console's texts, one file per language under `admin/` (French is the shape the
 * others must fill). Arabic's filled-in values are isolated so they keep their own direction.
 */
export type { AdminTexts };
export const ADMIN_TEXTS: Record<Language, AdminTexts> = { fr, ar: isolatePlaceholders(ar), en };
export type AdminNotice = keyof AdminTexts['notices'];
