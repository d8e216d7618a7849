/**
 * POST /Token (OAuth2 client credentials) and the bearer check. A token is bound to the tenant it was issued
 * for; a missing, expired or invalid token, or one used with another X-Tenant, is a 401; a good token without the
 * X-Tenant header is a 400 (invalid_request): the token stays good.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from './problem.js';

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/** The browser-mode UI's session lasts a working day. */
const SESSION_LIFETIME_MS = 12 * 3600 * 1000;

export interface Credentials {
  tenant: string;
  clientId: string;
  clientSecret: string;
}

/** A word as a POSIX shell reads it back: as it is when it holds nothing the shell reads, else in single quotes. */
export const shellWord = (word: string) => (/^[\w.,:/@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The command a client runs for a token, as the CLI prints it and the integration screen shows it: it runs as
 * pasted into a shell, the values quoted where a shell would read them otherwise.
 */
export function tokenRequestCurl(url: string, credentials: Credentials): string {
  return tokenCurl(url, credentials, field('client_secret', credentials.clientSecret));
}

/** The shell variable the prompted form of the token request reads the secret into. */
export const SECRET_VARIABLE = 'WB_CLIENT_SECRET';

/**
 * The token request for a secret that must not be printed (one its user chose): the line asks for the secret
 * without echoing it, then sends it. It still runs as pasted.
 */
export function promptedTokenRequestCurl(url: string, credentials: Omit<Credentials, 'clientSecret'>): string {
  return (
    `read -rs -p 'client secret: ' ${SECRET_VARIABLE} && echo && ` +
    tokenCurl(url, credentials, `--data-urlencode "client_secret=$${SECRET_VARIABLE}"`)
  );
}

/** A form field: a value a form would read otherwise (`+` is a space there, `&` ends it) goes encoded. */
const field = (name: string, value: string) =>
  /^[\w.~-]+$/.test(value) ? `-d ${name}=${value}` : `--data-urlencode ${shellWord(`${name}=${value}`)}`;

function tokenCurl(url: string, credentials: Omit<Credentials, 'clientSecret'>, secret: string): string {
  return (
    `curl -s -X POST ${url}/Token -H ${shellWord(`X-Tenant: ${credentials.tenant}`)} ` +
    `-d grant_type=client_credentials ${field('client_id', credentials.clientId)} ${secret}`
  );
}

interface Issued {
  tenant: string;
  expiresAt: number;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The protection space a 401's challenge names. */
const REALM = 'replenishment-workbench';

/**
 * A bearer check refused, with the challenge RFC 6750 §3 asks for: a client library reads it to tell an expired or
 * unknown token (error="invalid_token": fetch a new one) from a call that sent none.
 */
const unauthorized = (detail: string, tokenSent = true) =>
  new HttpProblem(
    401,
    'unauthorized',
    detail,
    {},
    {
      'WWW-Authenticate': tokenSent
        ? `Bearer realm="${REALM}", error="invalid_token", error_description="${detail.replace(/["\\]/g, "'")}"`
        : `Bearer realm="${REALM}"`,
    },
  );

/** What a call without its tenant is told: the header goes on every call, /Token's included. */
export const TENANT_REQUIRED = 'the X-Tenant header is required on every call';
const TENANT_CHALLENGE = `error_description="${TENANT_REQUIRED}"`;

/** What a secret or token is replaced with in logged text. */
export const REDACTED = '***';
/** Secrets shorter than this are not looked for in logged text: they would match ordinary words. */
const MIN_REDACTED_SECRET = 6;
/** Expired tokens still taken out of logged text (the newest ones): a client may keep sending one. */
const RETIRED_KEPT = 1000;
/** Tokens are base64url; a run of these characters is where one can hide. */
const TOKEN_CHARS = /[A-Za-z0-9_-]+/g;

export class TokenIssuer {
  private readonly tokens = new Map<string, Issued>();
  private readonly retired = new Set<string>();
  private readonly tokenLengths = new Set<number>();
  /** The client secret as it appears in a JSON string, a query string or a form body. */
  private readonly secretForms: string[];

  constructor(
    private readonly credentials: Credentials,
    private readonly nowMs: () => number,
    private readonly lifetimeSeconds = DEFAULT_TOKEN_LIFETIME_SECONDS,
  ) {
    const secret = credentials.clientSecret;
    const forms = [
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ];
    this.secretForms = secret.length < MIN_REDACTED_SECRET ? [] : [...new Set(forms)];
  }

  private remember(token: string, expiresAt: number): string {
    this.tokens.set(token, { tenant: this.credentials.tenant, expiresAt });
    this.tokenLengths.add(token.length);
    return token;
  }

  private forget(token: string): void {
    this.tokens.delete(token);
    this.retired.add(token);
    if (this.retired.size > RETIRED_KEPT) this.retired.delete(this.retired.values().next().value!);
  }

  /**
   * Text for a log or the console with the client secret and every token issued (live or recently expired)
   * taken out.
   */
  redact(text: string): string {
    let out = text;
    for (const form of this.secretForms) out = out.replaceAll(form, REDACTED);
    if (this.tokenLengths.size === 0) return out;
    const lengths = [...this.tokenLengths];
    const shortest = Math.min(...lengths);
    return out.replace(TOKEN_CHARS, (run) => {
      if (run.length < shortest) return run;
      // A token can sit inside a longer run (`x=abc<token>`): every window of a token's length is looked up.
      let kept = '';
      let from = 0;
      for (let i = 0; i + shortest <= run.length;) {
        const hit = lengths.find((n) => this.known(run.slice(i, i + n)));
        if (hit === undefined) {
          i++;
          continue;
        }
        kept += run.slice(from, i) + REDACTED;
        i += hit;
        from = i;
      }
      return kept + run.slice(from);
    });
  }

  private known(token: string): boolean {
    return this.tokens.has(token) || this.retired.has(token);
  }

  get tenant(): string {
    return this.credentials.tenant;
  }

  /** Checks the client credentials of a token request and issues a token for its tenant. */
  issue(
    tenantHeader: string | undefined,
    body: unknown,
  ): { access_token: string; token_type: 'Bearer'; expires_in: number } {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (b.grant_type !== 'client_credentials') {
      throw new HttpProblem(400, 'unsupported-grant-type', 'grant_type must be client_credentials', {
        error: 'unsupported_grant_type',
      });
    }
    if (typeof b.client_id !== 'string' || typeof b.client_secret !== 'string') {
      throw new HttpProblem(400, 'invalid-request', 'client_id and client_secret are required (form or JSON body)', {
        error: 'invalid_request',
      });
    }
    if (!tenantHeader) throw new HttpProblem(401, 'invalid-client', TENANT_REQUIRED, { error: 'invalid_client' });
    if (
      !same(tenantHeader, this.credentials.tenant) ||
      !same(b.client_id, this.credentials.clientId) ||
      !same(b.client_secret, this.credentials.clientSecret)
    ) {
      throw new HttpProblem(401, 'invalid-client', 'unknown tenant or client credentials', { error: 'invalid_client' });
    }
    const now = this.nowMs();
    for (const [t, i] of this.tokens) if (i.expiresAt <= now) this.forget(t);
    const token = this.remember(randomBytes(32).toString('base64url'), now + this.lifetimeSeconds * 1000);
    return { access_token: token, token_type: 'Bearer', expires_in: this.lifetimeSeconds };
  }

  /** A token for the workbench's own UI, which holds no client credentials (or the one the app already gave its UI). */
  issueSession(token = randomBytes(32).toString('base64url')): string {
    return this.remember(token, this.nowMs() + SESSION_LIFETIME_MS);
  }

  /** The bearer check of every endpoint but /Token and /openapi.json. */
  verify(req: FastifyRequest): void {
    const header = req.headers.authorization;
    if (!header)
      throw unauthorized(
        'the Authorization header is missing: send "Authorization: Bearer <token>" from POST /Token',
        false,
      );
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorized('the Authorization header must be "Bearer <token>"', false);
    const issued = this.tokens.get(m[1]);
    if (!issued) throw unauthorized('the token is not valid: get one from POST /Token');
    if (issued.expiresAt <= this.nowMs()) {
      this.forget(m[1]);
      throw unauthorized('the token has expired: get a new one from POST /Token');
    }
    const tenant = req.headers['x-tenant'];
    // The token is good and the call is incomplete: invalid_request, which a client library does not read as a reason
    // to throw its token away (RFC 6750 §3.1 answers it with 400).
    if (typeof tenant !== 'string' || tenant === '')
      throw new HttpProblem(
        400,
        'invalid-request',
        TENANT_REQUIRED,
        { error: 'invalid_request' },
        { 'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_request", ${TENANT_CHALLENGE}` },
      );
    if (!same(tenant, issued.tenant))
      throw unauthorized(`the token was issued for another tenant than "${tenant.slice(0, 80)}"`);
  }
}
