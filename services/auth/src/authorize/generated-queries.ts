import type { Gen } from '@sesame/testing';

/**
 * Generated /authorize queries for the differential tests of the raw GET /authorize: a valid request for
 * `client-1` and `redirectUri` (PKCE with `challenge` now and then), then none to three changes — a parameter
 * removed, replaced by a value the checks refuse, repeated, bracketed, renamed, added (request objects,
 * unknown names, many names) or made huge — and each value spelled the usual way or oddly (raw, `+` for
 * spaces, double-encoded, broken percent escapes).
 */
export function authorizeQueries(redirectUri: string, challenge: string): (g: Gen) => string {
  type Pair = [name: string, value: string];

  const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~';
  const ODD = [...' +&=%#?/[]é🙂"<\',;\u0000'];

  function token(g: Gen, min = 1, max = 24): string {
    let out = g.text(CHARS, min, max);
    if (g.chance(0.15)) out += g.pick(ODD) + g.text(CHARS, 0, 4);
    return out;
  }

  /** Each parameter: mostly its valid values, sometimes one the full checks refuse. */
  const values: Record<string, (g: Gen) => string> = {
    client_id: (g) => g.pick(['client-1', 'client-1', 'client-1', 'client-public', 'nobody', 'CLIENT-1', '']),
    redirect_uri: (g) =>
      g.pick([
        redirectUri,
        redirectUri,
        redirectUri,
        'https://rp.example/other',
        `${redirectUri}/`,
        `${redirectUri}?x=1`,
        `${redirectUri}#f`,
        redirectUri.replace('rp.example', 'RP.example'),
        'https://evil.example/callback',
        'http://rp.example/callback',
        `${redirectUri}%2F..`,
        redirectUri.slice(0, -1),
        '',
      ]),
    response_type: (g) => g.pick(['code', 'code', 'code', 'token', 'code id_token', 'CODE', ' code', '']),
    scope: (g) =>
      g.pick([
        'openid',
        'openid email',
        'openid email',
        'email openid',
        'openid  email',
        'openid email email',
        'email',
        'openid bogus',
        'OPENID',
        'openid\temail',
        '',
      ]),
    state: (g) => token(g),
    nonce: (g) => token(g),
    prompt: (g) => g.pick(['login', 'none', 'consent', 'login consent', '']),
    ui_locales: (g) => g.pick(['de', 'fr de', 'en-US', 'xx', 'de  fr', '*', '']),
    login_hint: (g) =>
      g.pick([`email:${token(g, 1, 8)}@example.com`, "email:o'neil+x@example.com", 'email:', token(g), '']),
    code_challenge: (g) =>
      g.pick([challenge, challenge, challenge.slice(1), `${challenge}=`, token(g, 43, 43), '']),
    code_challenge_method: (g) => g.pick(['S256', 'S256', 'plain', 's256', '']),
    acr_values: (g) => g.pick(['', 'urn:x', token(g)]),
    display: (g) => g.pick(['page', 'popup', 'touch', 'wap', 'bogus']),
    response_mode: (g) => g.pick(['query', 'fragment', 'form_post', 'bogus']),
    max_age: (g) => g.pick(['0', '300', '-1', 'x']),
    id_token_hint: (g) => token(g),
    svc_custom_message: (g) => g.pick([token(g), 'x'.repeat(g.int(90, 300))]),
    svc_aux_link: (g) =>
      g.pick([
        'https://rp.example/help/',
        'https://rp.example/help/more/',
        'https://rp.example/help/../x/',
        'https://evil.example/help/',
        'https://rp.example/help',
      ]),
    svc_aux_link_title: (g) => token(g),
    claims: (g) => g.pick(['{}', '{"x":1}', 'not json', '[]', token(g)]),
    bound_to: (g) => token(g),
    request: (g) => g.pick(['a.b.c.d.e', 'eyJhbGciOiJub25lIn0.e30.', token(g)]),
    request_uri: (g) => g.pick(['https://rp.example/req', 'urn:x']),
    unknown: (g) => token(g),
  };

  /** Valid values of the optional parameters a valid request starts with. */
  const valid: Record<string, (g: Gen) => string> = {
    ui_locales: (g) => g.pick(['de', 'fr de', 'en-US', '']),
    login_hint: (g) => g.pick([`email:${g.text(CHARS, 1, 8)}@example.com`, "email:o'neil+x@example.com"]),
    prompt: (g) => g.pick(['login', '']),
  };

  function validPairs(g: Gen): Pair[] {
    const pairs: Pair[] = [
      ['client_id', 'client-1'],
      ['redirect_uri', redirectUri],
      ['response_type', 'code'],
      ['scope', g.pick(['openid', 'openid email'])],
    ];
    for (const name of g.some(['state', 'nonce', 'ui_locales', 'login_hint', 'prompt'], 3))
      pairs.push([name, (valid[name] ?? values[name]!)(g)]);
    if (g.chance(0.5)) pairs.push(['code_challenge', challenge], ['code_challenge_method', 'S256']);
    return pairs;
  }

  /** A generated value of the parameter (any string for a name that is no parameter). */
  const anyValue = (g: Gen, name: string) => (Object.hasOwn(values, name) ? values[name]! : token)(g);

  /** One change to a valid request: a parameter removed, replaced, repeated, renamed, added or made huge. */
  function mutate(g: Gen, pairs: Pair[]): void {
    const i = g.int(0, pairs.length - 1);
    const [name, value] = pairs[i]!;
    g.pick([
      () => pairs.splice(i, 1),
      () => {
        pairs[i] = [name, anyValue(g, name)];
      },
      () => pairs.push([name, g.chance(0.5) ? value : anyValue(g, name)]),
      () => pairs.splice(g.int(0, pairs.length), 0, [name, value]),
      () => {
        pairs[i] = [g.pick([`${name}[]`, `${name}[x]`, name.toUpperCase(), `${name} `, '__proto__']), value];
      },
      () => {
        const extra = g.pick(Object.keys(values));
        pairs.push([
          extra === 'unknown' ? g.pick(['foo', 'x_y', 'constructor', 'toString']) : extra,
          values[extra]!(g),
        ]);
      },
      () => {
        pairs[i] = [name, value + 'x'.repeat(g.pick([100, 5000, 70_000]))];
      },
      () => {
        for (let n = g.pick([50, 120, 1100]); n > 0; n--) pairs.push([`p${n}`, '1']);
      },
    ])();
  }

  /** How a browser, an RP library or a hand-written link may spell a value in the query (mostly the usual way). */
  function encode(g: Gen, value: string): string {
    if (g.chance(0.8)) return encodeURIComponent(value);
    return g.pick([
      () => new URLSearchParams({ v: value }).toString().slice(2),
      () => value,
      () => encodeURIComponent(encodeURIComponent(value)),
      () => {
        const hex = [...Buffer.from(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
        return g.chance(0.5) ? hex : hex.toUpperCase();
      },
      () => `${encodeURIComponent(value)}${g.pick(['%', '%zz', '%E0%A4%A', '%C3'])}`,
    ])();
  }

  function query(g: Gen): string {
    const pairs = validPairs(g);
    for (let n = g.pick([0, 0, 1, 1, 2, 3]); n > 0; n--) mutate(g, pairs);
    const parts = pairs.map(([name, value]) =>
      g.chance(0.03) ? name : `${g.chance(0.9) ? name : encode(g, name)}=${encode(g, value)}`,
    );
    if (g.chance(0.05)) parts.splice(g.int(0, parts.length), 0, '');
    return parts.join('&');
  }
  return query;
}
