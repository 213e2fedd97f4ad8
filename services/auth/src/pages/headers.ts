import { htmlPageHeaders } from '@sesame/platform';

/**
 * Response headers for every hosted page. `form-action` lists the relying party's redirect_uri origin
 * (or a native app's scheme) because Chrome applies form-action to the redirect that follows a form POST.
 */
export function hostedPageHeaders(opts: { formActionOrigins?: string[] } = {}): Record<string, string> {
  const origins = (opts.formActionOrigins ?? []).map((origin) => {
    const parsed = new URL(origin);
    // A native app's custom-scheme redirect (com.example.app:/cb) has no origin: allow its scheme.
    return parsed.origin === 'null' ? parsed.protocol : parsed.origin;
  });
  const formAction = ["'self'", ...new Set(origins)].join(' ');
  return htmlPageHeaders(["script-src 'self'", "connect-src 'self'", `form-action ${formAction}`]);
}
