/**
 * A local OpenID Connect provider for the browser suite's single sign-on journey (the `oidc-provider` package).
 *
 * - Issuer http://127.0.0.1:<E2E_OIDC_PORT, default 3196>.
 * - One confidential client (OIDC_CLIENT_ID / OIDC_CLIENT_SECRET, defaults portal-e2e / portal-e2e-secret) whose
 *   redirect URI is the portal's /auth0loginCallback (E2E_PUBLIC_URL, default http://127.0.0.1:3199).
 * - The provider's own development log-in form: any login name is accepted, the name is the account id. Account
 *   `alice` has the e-mail alice@example.com (the demo user alice); any other name gets <name>@example.com.
 * - Consent is given automatically for this first-party client, so after the log-in form the browser goes straight
 *   back to the portal.
 *
 * Run with `node --import tsx e2e/support/oidc-provider.ts` (scripts/e2e-server.mjs starts it).
 */
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

const PORT = Number(process.env.E2E_OIDC_PORT ?? 3196);
const ISSUER = `http://127.0.0.1:${PORT}`;
const PUBLIC_URL = (process.env.E2E_PUBLIC_URL ?? 'http://127.0.0.1:3199').replace(/\/$/, '');
const CLIENT_ID = process.env.OIDC_CLIENT_ID ?? 'portal-e2e';
const CLIENT_SECRET = process.env.OIDC_CLIENT_SECRET ?? 'portal-e2e-secret';

const ACCOUNTS: Record<string, { email: string; given_name: string; family_name: string }> = {
  alice: { email: 'alice@example.com', given_name: 'Alice', family_name: 'Moreno' },
};

const configuration: Configuration = {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [
        `${PUBLIC_URL}/auth0loginCallback`,
        `${PUBLIC_URL.replace('127.0.0.1', 'localhost')}/auth0loginCallback`,
      ],
      post_logout_redirect_uris: [`${PUBLIC_URL}/`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      // The same client for a server that authenticates with client_secret_post.
      client_id: `${CLIENT_ID}-post`,
      client_secret: CLIENT_SECRET,
      redirect_uris: [`${PUBLIC_URL}/auth0loginCallback`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
  scopes: ['openid', 'email', 'profile', 'offline_access'],
  pkce: { required: () => false },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ['portal-e2e-cookie-key-0123456789abcdef'] },
  async findAccount(_ctx, id) {
    const name = String(id).toLowerCase();
    const known = ACCOUNTS[name] ?? { email: `${name}@example.com`, given_name: name, family_name: '' };
    return {
      accountId: name,
      async claims() {
        return {
          sub: name,
          email: known.email,
          email_verified: true,
          name: `${known.given_name} ${known.family_name}`.trim(),
          given_name: known.given_name,
          family_name: known.family_name,
        };
      },
    };
  },
  // First-party client: grant what it asks for without a consent screen.
  async loadExistingGrant(ctx: KoaContextWithOIDC) {
    const session = ctx.oidc.session!;
    const clientId = ctx.oidc.client!.clientId;
    const existing = ctx.oidc.result?.consent?.grantId || session.grantIdFor(clientId);
    if (existing) return ctx.oidc.provider.Grant.find(existing);
    const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
    grant.addOIDCScope('openid email profile offline_access');
    grant.addOIDCClaims(['email', 'email_verified', 'name', 'given_name', 'family_name']);
    await grant.save();
    session.grantIdFor(clientId, grant.jti);
    return grant;
  },
  ttl: { Session: 3600, Interaction: 3600, Grant: 3600, AccessToken: 3600, AuthorizationCode: 600, IdToken: 3600 },
};

const provider = new Provider(ISSUER, configuration);
provider.proxy = false;
const server = provider.listen(PORT, '127.0.0.1');
server.on('listening', () =>
  console.log(`[oidc] issuer ${ISSUER}, client ${CLIENT_ID}, redirect ${PUBLIC_URL}/auth0loginCallback`),
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
