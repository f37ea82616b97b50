import { isolatePlaceholders } from './bidi';
import { ar } from './dashboard/ar';
import { en } from './dashboard/en';
import { DashboardTexts, fr } from './dashboard/fr';
import type { Language } from './languages';

/**
 * The merchant dashboard's texts, one file per language under `dashboard/` (French is the shape
 * the others must fill). Arabic is written right to left: the values filled into its texts are
 * isolated so they keep their own direction.
 */
export type { DashboardTexts };
export const DASHBOARD_TEXTS: Record<Language, DashboardTexts> = { fr, ar: isolatePlaceholders(ar), en };
export type Notice = keyof DashboardTexts['notices'];
