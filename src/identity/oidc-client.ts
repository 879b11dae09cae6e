import * as oidc from 'openid-client';
import { AppError, ErrorCode } from '../core/errors.js';

export interface OidcSettings {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  /** `{PUBLIC_BASE_URL}/auth/callback`, registered with the provider. */
  redirectUri: string;
}

/** Who the provider says signed in. The directory is matched on `sub` only; the rest is for display. */
export interface SignedInIdentity {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The OpenID Connect relying party: the authorization-code flow with PKCE, `state` and `nonce` (openid-client). */
export interface OidcClient {
  /** Fresh random checks for one sign-in. */
  newChecks(): AuthorizationRequest;
  /** Where to send the browser for this sign-in. */
  authorizationUrl(checks: AuthorizationRequest): Promise<URL>;
  /**
   * Checks the provider's redirect (`currentUrl`: the public URL the browser was sent to), redeems the code with the
   * PKCE verifier and the client secret, and verifies the ID token (signature against the provider's JWKS, issuer,
   * audience, expiry, nonce). Throws `signin.failed` when a check fails, `signin.unavailable` when the provider does.
   */
  redeem(currentUrl: URL, checks: AuthorizationRequest): Promise<SignedInIdentity>;
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  let configuration: Promise<oidc.Configuration> | undefined;

  const configured = (): Promise<oidc.Configuration> => {
    configuration ??= discover(settings).catch((error: unknown) => {
      // Not cached: the next sign-in tries discovery again (the provider may be back).
      configuration = undefined;
      throw new AppError({ kind: 'operational', code: ErrorCode.SigninUnavailable, status: 502, message: 'The identity provider could not be reached; try again shortly', cause: error });
    });
    return configuration;
  };

  return {
    newChecks() {
      return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    },

    async authorizationUrl(checks) {
      const config = await configured();
      return oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
    },

    async redeem(currentUrl, checks) {
      const config = await configured();
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        throw redeemError(error);
      }
      if (claims === undefined || typeof claims.sub !== 'string' || claims.sub === '') {
        throw signInFailed('The provider sent no ID token subject');
      }
      return {
        sub: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    },
  };
}

async function discover(settings: OidcSettings): Promise<oidc.Configuration> {
  const insecure = new URL(settings.issuerUrl).protocol === 'http:';
  return oidc.discovery(new URL(settings.issuerUrl), settings.clientId, undefined, oidc.ClientSecretPost(settings.clientSecret), {
    // The config allows http only for an issuer on loopback (a provider on this machine).
    execute: [
      ...(insecure ? [oidc.allowInsecureRequests] : []),
      // Verify the ID token's signature against the provider's JWKS too, not only trust the TLS channel it came by.
      oidc.enableNonRepudiationChecks,
    ],
    timeout: 10,
  });
}

function signInFailed(message: string, cause?: unknown): AppError {
  return new AppError({ kind: 'user', code: ErrorCode.SigninFailed, status: 400, message: `Sign-in failed: ${message}; start again at /auth/login`, cause });
}

/** A failed check is the caller's (400); a provider that cannot be reached is operational (502). */
function redeemError(error: unknown): AppError {
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
    return new AppError({ kind: 'operational', code: ErrorCode.SigninUnavailable, status: 502, message: 'The identity provider could not be reached; try again shortly', cause: error });
  }
  const message = error instanceof Error ? error.message : 'the provider answer failed a check';
  return signInFailed(message, error);
}
