import { TestBrowser, authorizePath, type startAuth } from './hosted-test-client';

type Auth = Awaited<ReturnType<typeof startAuth>>;

/**
 * A new browser runs /authorize asking for a verified email and phone (acr ts.svc.iac.phone_number), then the
 * email step and its mailed code: the email is proven. `proven` is the answer to the code.
 */
export async function emailProvenForPhone(auth: Auth, email: string) {
  const browser = auth.browser();
  const first = await browser.request(
    authorizePath({ scope: 'openid email phone', acr_values: 'ts.svc.iac.email ts.svc.iac.phone_number' }),
  );
  const csrf = TestBrowser.csrf(first.body);
  const sent = await browser.request(TestBrowser.formAction(first.body), { form: { csrf, email } });
  const flow = sent.location;
  const proven = await browser.request(`${flow}/code`, { form: { csrf, code: auth.codeFor(email) } });
  return { browser, csrf, flow, proven };
}
