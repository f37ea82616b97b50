import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, TestApp } from './app';

/** The dashboard's app: per-address sign-in limits need the client address, sent as X-Forwarded-For. */
export const DASHBOARD_ENV = { TRUST_PROXY: 'true' };

let addresses = 0;
/** A client address of its own (10.x.y.z), so parallel tests never share a sign-in limit. */
export function freshIp(): string {
  addresses += 1;
  const n = (process.pid % 200) * 50_000 + addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export const csrfOf = (html: string): string => {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1];
};

/** A browser on the dashboard: its cookies, its address, and the CSRF token of its last page. */
export class DashboardBrowser {
  readonly agent: TestAgent;
  csrf = '';

  constructor(
    readonly t: TestApp,
    readonly ip = freshIp(),
    readonly language = 'en',
  ) {
    this.agent = request.agent(t.app.getHttpServer());
  }

  async get(path: string) {
    const res = await this.agent
      .get(path)
      .set('x-forwarded-for', this.ip)
      .set('accept-language', this.language);
    const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (m) this.csrf = m[1];
    return res;
  }

  /** A form post; with the CSRF token of the last page unless `_csrf` is given (null: none). */
  async post(path: string, form: Record<string, string | string[] | null> = {}) {
    const body: Record<string, string | string[]> = {};
    if (!('_csrf' in form)) body._csrf = this.csrf;
    for (const [k, v] of Object.entries(form)) if (v !== null) body[k] = v;
    const res = await this.agent
      .post(path)
      .type('form')
      .set('x-forwarded-for', this.ip)
      .set('accept-language', this.language)
      .send(
        new URLSearchParams(
          Object.entries(body).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
          ),
        ).toString(),
      );
    const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (m) this.csrf = m[1];
    return res;
  }

  async signIn(email: string, password: string) {
    await this.get('/dashboard/login');
    const res = await this.post('/dashboard/login', { email, password });
    if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 200)}`);
    await this.get('/dashboard');
    return res;
  }
}

/** A new organization (newTenant) and a browser signed in as its owner. */
export async function signedInOwner(
  t: TestApp,
  name = 'Dashboard Merchant',
): Promise<{ org: CreatedOrganization; browser: DashboardBrowser }> {
  const org = await newTenant(t, name);
  const browser = new DashboardBrowser(t);
  await browser.signIn(org.email, org.password);
  return { org, browser };
}
