import { z } from 'zod';
import { AA_TEXT, AA_UI, HEX_COLOUR, contrastRatio, formatRatio } from './colour';
import { displayText } from './display-text';

export const cornerStyles = ['square', 'rounded', 'pill'] as const;
export type CornerStyle = (typeof cornerStyles)[number];
export const logoTypes = ['image/png', 'image/webp', 'image/svg+xml'] as const;
export type LogoType = (typeof logoTypes)[number];
export const schemeNames = ['light', 'dark'] as const;
export type SchemeName = (typeof schemeNames)[number];

/** The brand's colours in one colour scheme (#rrggbb, lower case). */
export interface SchemeColours {
  accent: string;
  background: string;
}

/**
 * What a tenant (or one of its applications, overriding the tenant's) sets; every field optional, absent
 * means Sesame's default. The logo's bytes are kept beside these settings, named here by type and hash.
 */
export interface BrandingSettings {
  displayName?: string;
  logo?: { contentType: LogoType; hash: string };
  light?: SchemeColours;
  dark?: SchemeColours;
  cornerStyle?: CornerStyle;
  supportUrl?: string;
  privacyUrl?: string;
  mailSenderName?: string;
  mailReplyTo?: string;
}

/** The text colour of the hosted pages on the page background, per scheme (sesame.css --text). */
export const PAGE_TEXT: Record<SchemeName, string> = { light: '#111827', dark: '#f3f4f6' };
/** The card the forms sit on, per scheme (sesame.css --card): buttons and links are drawn on it. */
export const CARD: Record<SchemeName, string> = { light: '#ffffff', dark: '#111827' };
const LABELS = ['#ffffff', '#111827'] as const;

/** The label colour of a button in `accent`: white or near-black, whichever reads better. */
export function buttonLabel(accent: string): string {
  return contrastRatio(accent, LABELS[0]) >= contrastRatio(accent, LABELS[1]) ? LABELS[0] : LABELS[1];
}

/**
 * Why a scheme's colours fail WCAG AA, each naming the measured ratio: the page text on the background
 * (4.5:1), the accent as links on the card (4.5:1), a button's label on the accent (4.5:1), and the accent
 * button against the background it stands on (3:1). Empty when they pass.
 */
export function contrastProblems(scheme: SchemeName, c: SchemeColours): string[] {
  const problems: string[] = [];
  const check = (what: string, a: string, b: string, min: number, need: string) => {
    const ratio = contrastRatio(a, b);
    if (ratio < min)
      problems.push(
        `${scheme}: ${what} has a contrast ratio of ${formatRatio(ratio)}; ${need} need at least ${min}:1`,
      );
  };
  check(
    `text ${PAGE_TEXT[scheme]} on background ${c.background}`,
    PAGE_TEXT[scheme],
    c.background,
    AA_TEXT,
    'text and its background',
  );
  check(
    `accent ${c.accent} on the card ${CARD[scheme]}`,
    c.accent,
    CARD[scheme],
    AA_TEXT,
    'links in the accent colour',
  );
  const label = buttonLabel(c.accent);
  check(`button label ${label} on accent ${c.accent}`, label, c.accent, AA_TEXT, 'button labels');
  check(
    `accent ${c.accent} against background ${c.background}`,
    c.accent,
    c.background,
    AA_UI,
    'buttons and other controls',
  );
  return problems;
}

const colour = z
  .string()
  .regex(HEX_COLOUR, 'must be a hex colour like #1d4ed8')
  .transform((s) => s.toLowerCase());
const scheme = z.object({ accent: colour, background: colour }).strict();
const httpsUrl = z
  .string()
  .max(2048)
  .url('must be a URL')
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');
const oneLine = (max: number) =>
  displayText(max).refine((s) => !/[<>]/.test(s), 'must be one line of plain text');

/** The settings an admin sends (the logo goes separately, as bytes); colours checked for contrast. */
export const brandingSettingsSchema = z
  .object({
    displayName: oneLine(80).optional(),
    light: scheme.optional(),
    dark: scheme.optional(),
    cornerStyle: z.enum(cornerStyles).optional(),
    supportUrl: httpsUrl.optional(),
    privacyUrl: httpsUrl.optional(),
    mailSenderName: oneLine(80)
      .refine((s) => !/["\\,;:@]/.test(s), 'must not contain quotes, commas, colons, semicolons or @')
      .optional(),
    mailReplyTo: z.string().email('must be one email address').max(254).optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    for (const name of schemeNames) {
      const c = value[name];
      if (!c) continue;
      for (const message of contrastProblems(name, c))
        ctx.addIssue({ code: 'custom', path: [name], message });
    }
  });
export type BrandingSettingsInput = z.infer<typeof brandingSettingsSchema>;

/** An application's settings over its tenant's: a field the app sets wins, the rest come from the tenant. */
export function mergeBranding(
  tenant: BrandingSettings | undefined,
  app: BrandingSettings | undefined,
): BrandingSettings {
  const merged: BrandingSettings = { ...tenant };
  for (const [k, v] of Object.entries(app ?? {}))
    if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return merged;
}
