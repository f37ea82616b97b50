import type { CreatedOrganization } from './organizations/organizations.service';

/**
 * The start-up banner: the service's links and, on the first start, the demo keys, in a box that
 * fits an 80-column terminal (measured in display width, so a wide character counts twice). A line
 * too long for the box wraps at a space, its continuation indented under it; a single word longer
 * than the box (a deep DATA_DIR path) is cut.
 */
export const BANNER_COLUMNS = 80;

/** Terminal columns a string takes: combining marks and zero-width characters take none, East Asian wide and fullwidth characters two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (/\p{Mark}|\p{Default_Ignorable_Code_Point}|\p{Control}/u.test(char)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) || // Hangul Jamo
    (code >= 0x2e80 && code <= 0x303e) || // CJK radicals, punctuation
    (code >= 0x3041 && code <= 0x33ff) || // kana, CJK symbols
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) || // CJK ideographs
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) || // fullwidth forms
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) || // emoji
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** The longest head of `word` that fits in `columns` (at least one character), and the rest. */
function splitAt(word: string, columns: number): [string, string] {
  let head = '';
  for (const char of word) {
    if (head !== '' && displayWidth(head + char) > columns) break;
    head += char;
  }
  return [head, word.slice(head.length)];
}

/** One line wrapped to `width` columns; continuation lines are indented two more than the line. */
export function wrapLine(line: string, width: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const indent = /^ */.exec(line)![0];
  const next = indent + '  ';
  const out: string[] = [];
  let current = indent;
  for (const word of line.trim().split(/ +/)) {
    const lead = current.trim() === '' ? current : current + ' ';
    if (displayWidth(lead + word) <= width) {
      current = lead + word;
      continue;
    }
    if (current.trim() !== '') out.push(current);
    let start = out.length === 0 ? indent : next;
    let rest = word;
    while (displayWidth(start + rest) > width) {
      const [head, tail] = splitAt(rest, width - displayWidth(start));
      out.push(start + head);
      [start, rest] = [next, tail];
    }
    current = start + rest;
  }
  out.push(current);
  return out;
}

/** The banner's lines: the sections one under the other, separated by a blank line, boxed. */
export function bannerLines(sections: string[][], columns = BANNER_COLUMNS): string[] {
  const inner = columns - 4; // "│ " and " │"
  const lines = sections
    .flatMap((section, i) => (i === 0 ? section : ['', ...section]))
    .flatMap((line) => wrapLine(line, inner));
  const width = Math.max(...lines.map(displayWidth));
  const rule = '─'.repeat(width + 2);
  const pad = (line: string) => line + ' '.repeat(width - displayWidth(line));
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${pad(line)} │`), `└${rule}┘`];
}

export interface StartUpBanner {
  publicUrl: string;
  /** `DATABASE_URL`, or where the embedded PostgreSQL lives. */
  database: string;
  migrationsApplied: number;
  /**
   * The demo organization: just created (its keys, shown once), or created earlier (its file).
   * `keysHidden` when the logs are JSON (collected, shipped, kept): then only the file is named.
   */
  demo?: { created?: CreatedOrganization; savedTo?: string; keysHidden?: boolean };
}

/** What `npm start` prints once it listens: the links, and the demo keys on the first start. */
export function startUpBanner(info: StartUpBanner, columns = BANNER_COLUMNS): string[] {
  const { publicUrl, demo } = info;
  const migrations = info.migrationsApplied ? `, ${info.migrationsApplied} migration(s) applied` : '';
  const sections = [
    [
      `Khoums is listening on ${publicUrl}`,
      `  Database:  ${info.database}${migrations}`,
      `  API:       ${publicUrl}/api/v1`,
      `  API docs:  ${publicUrl}/api/docs`,
      `  Dashboard: ${publicUrl}/dashboard`,
    ],
  ];
  if (demo?.created && demo.keysHidden) {
    sections.push([`Demo organization created: its keys and dashboard login are in ${demo.savedTo}`]);
  } else if (demo?.created) {
    const { sandbox, email, password } = demo.created;
    sections.push([
      'Demo organization created (shown once; keep these):',
      `  Sandbox secret key:      ${sandbox.secretKey}`,
      `  Sandbox publishable key: ${sandbox.publishableKey}`,
      `  Dashboard login:         ${email} / ${password}`,
      ...(demo.savedTo ? [`  Also saved to ${demo.savedTo} (local development only).`] : []),
    ]);
  } else if (demo?.savedTo) {
    sections.push([`Demo credentials: ${demo.savedTo}`]);
  }
  return bannerLines(sections, columns);
}
