/**
 * Paths whose next segment is a secret (a one-time invitation or onboarding link of the dashboard, a customer portal link): the request
 * log keeps the path and drops the secret, since anyone reading logs could otherwise use the link.
 */
const SECRET_SEGMENT_AFTER = ['/dashboard/invite/', '/dashboard/onboarding/', '/portal/link/'];

export function loggableUrl(url: string): string {
  for (const prefix of SECRET_SEGMENT_AFTER) {
    if (url.startsWith(prefix))
      return `${prefix}[redacted]${url.slice(prefix.length).replace(/^[^/?#]*/, '')}`;
  }
  return url;
}
