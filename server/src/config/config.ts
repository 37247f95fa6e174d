import { resolve } from 'node:path';
import { z } from 'zod';
import { mechanismsOff, type Mechanisms } from '../performance/mechanisms.js';

/**
 * Configuration comes only from the environment and is checked once at start-up: a bad value stops the server
 * with one line that names the variable, instead of failing later in a request.
 */
const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  /** PostgreSQL schema the portal's tables live in (default: the connection's search_path, normally `public`). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case SQL identifier (letters, digits, _)')
    .optional(),
  ACCESS_TOKEN_TTL: seconds(300),
  REFRESH_TOKEN_TTL: seconds(43200),
  FILE_LINK_TTL: seconds(600),
  // API clients (docs/API-CLIENTS.md): token lifetime, the old secret's overlap after a rotation, requests a minute.
  API_CLIENT_TOKEN_TTL: seconds(900),
  API_CLIENT_SECRET_OVERLAP_HOURS: z.coerce.number().int().min(0).max(720).default(24),
  API_CLIENT_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().max(100_000).default(600),
  /** Secret for signing file download links; generated per database when unset (see files/signing). */
  FILE_LINK_SECRET: z.string().min(32).optional(),
  PORTAL_DEMO_DATA: bool.optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Handler Portal <no-reply@handler-portal.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_LOCKOUT_SECONDS: seconds(900),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: bool.default(false),
  /** Where the council is told of new account requests (optional). */
  COUNCIL_MAIL: z.email().optional(),
  /** Account requests (sign-ups) one client address may send per hour, and how many may wait for staff at once. */
  ACCOUNT_REQUESTS_PER_HOUR: z.coerce.number().int().positive().default(5),
  ACCOUNT_REQUESTS_MAX_PENDING: z.coerce.number().int().positive().default(200),
  /** Password-reset requests one client address may send per hour (one e-mail address gets at most 3 mails an hour). */
  PASSWORD_RESETS_PER_HOUR: z.coerce.number().int().positive().default(10),
  /** Single sign-on (OpenID Connect): off unless OIDC_ISSUER is set; then the client id and secret are required. */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_LABEL: z.string().min(1).max(60).default('Single sign-on'),
  /** Sent as `audience` to providers that want one (Auth0); optional. */
  OIDC_AUDIENCE: z.string().min(1).optional(),
  /** Reminder e-mails: how often the job looks for what is due (seconds; 0 turns it off), and how many days ahead. */
  REMINDER_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86400).default(3600),
  REMINDER_DAYS_BEFORE: z.coerce.number().int().min(0).max(60).default(3),
  REMINDER_RETRY_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  REMINDER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  ADJUSTMENT_INVOICE_DUE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * Memory for the JSON:API documents each server process keeps (MB; 0 turns the cache off): jsonapi/document-cache.ts.
   */
  DOCUMENT_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /**
   * Longest a statement may run (ms; 0: no limit), then the request answers 503: every statement on PostgreSQL
   * (decision 0006), the costly reads' on SQLite (decision 0009).
   */
  QUERY_TIME_BUDGET_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /**
   * Costly reads' statements run at once, under that budget (decision 0009): SQLite reader threads, PostgreSQL
   * connections of their own (0: none, every read on the server's connection or pool).
   */
  COSTLY_READS_AT_ONCE: z.coerce.number().int().min(0).max(16).default(1),
  /** Performance mechanisms turned off, comma-separated (performance/mechanisms.ts; measurements only). */
  PORTAL_MECHANISMS_OFF: z.string().optional(),
  /** Worker processes sharing the port (node:cluster); 1 (the default, also when empty): no cluster. */
  WEB_CONCURRENCY: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(64).default(1)),
});

/** The OpenID Connect provider the sign-in page offers, when configured. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  audience?: string;
}

export interface Config {
  env: string;
  port: number;
  host: string;
  databaseUrl: string;
  databaseSchema?: string;
  accessTokenTtl: number;
  /** API clients: access token lifetime (s), the old secret's overlap after a rotation (h), requests a minute. */
  apiClients: { tokenTtl: number; overlapHours: number; perMinute: number };
  refreshTokenTtl: number;
  fileLinkTtl: number;
  fileLinkSecret?: string;
  demoData: boolean;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  loginMaxFailures: number;
  loginLockoutSeconds: number;
  webDist?: string;
  trustProxy: boolean;
  councilMail?: string;
  accountRequestsPerHour: number;
  accountRequestsMaxPending: number;
  passwordResetsPerHour: number;
  oidc?: OidcConfig;
  /** Seconds between two passes of the reminder job; 0: no reminders. */
  reminderIntervalSeconds: number;
  /** Days before a period's due date that the first reminder goes out. */
  reminderDaysBefore: number;
  /** Minutes before the first retry of a reminder whose mail failed; each further retry waits twice as long. */
  reminderRetryMinutes: number;
  /** Sends of one reminder before it is given up as failed (the first send included). */
  reminderMaxAttempts: number;
  /**
   * Days after issue an adjustment invoice is due when the period's own due date has passed (never overdue at birth).
   */
  adjustmentInvoiceDueDays: number;
  /** Worker processes serving the port: more than 1 makes main.ts a cluster primary. */
  webConcurrency: number;
  /** Bytes of JSON:API documents a process keeps for reads that nothing has changed since; 0: none. */
  documentCacheBytes: number;
  /** PostgreSQL's statement_timeout for the serving connections (ms; 0: none). */
  queryTimeBudgetMs: number;
  costlyReadsAtOnce: number;
  /** The performance mechanisms on (all but those PORTAL_MECHANISMS_OFF names): performance/mechanisms.ts. */
  mechanisms: Mechanisms;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL ?? `sqlite:${resolve('data/portal.sqlite')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(
      `Invalid configuration: DATABASE_URL must be sqlite:PATH or postgres://..., got "${databaseUrl}"`,
    );
  }
  const isEmbedded = databaseUrl.startsWith('sqlite:');
  let mechanisms: Mechanisms;
  try {
    mechanisms = mechanismsOff(e.PORTAL_MECHANISMS_OFF);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: PORTAL_MECHANISMS_OFF: ${(error as Error).message}`);
  }
  let oidc: OidcConfig | undefined;
  if (e.OIDC_ISSUER) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
      if (!e[name]) throw new ConfigError(`Invalid configuration: ${name}: required when OIDC_ISSUER is set`);
    }
    oidc = {
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID as string,
      clientSecret: e.OIDC_CLIENT_SECRET as string,
      label: e.OIDC_LABEL,
      audience: e.OIDC_AUDIENCE,
    };
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl,
    databaseSchema: e.DATABASE_SCHEMA,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    apiClients: {
      tokenTtl: e.API_CLIENT_TOKEN_TTL,
      overlapHours: e.API_CLIENT_SECRET_OVERLAP_HOURS,
      perMinute: e.API_CLIENT_REQUESTS_PER_MINUTE,
    },
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    fileLinkTtl: e.FILE_LINK_TTL,
    fileLinkSecret: e.FILE_LINK_SECRET,
    // Demo data only on an embedded database outside production, unless asked for explicitly.
    demoData: e.PORTAL_DEMO_DATA ?? (isEmbedded && e.NODE_ENV !== 'production'),
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    loginLockoutSeconds: e.LOGIN_LOCKOUT_SECONDS,
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY,
    councilMail: e.COUNCIL_MAIL,
    accountRequestsPerHour: e.ACCOUNT_REQUESTS_PER_HOUR,
    accountRequestsMaxPending: e.ACCOUNT_REQUESTS_MAX_PENDING,
    passwordResetsPerHour: e.PASSWORD_RESETS_PER_HOUR,
    oidc,
    reminderIntervalSeconds: e.REMINDER_INTERVAL_SECONDS,
    reminderDaysBefore: e.REMINDER_DAYS_BEFORE,
    reminderRetryMinutes: e.REMINDER_RETRY_MINUTES,
    reminderMaxAttempts: e.REMINDER_MAX_ATTEMPTS,
    adjustmentInvoiceDueDays: e.ADJUSTMENT_INVOICE_DUE_DAYS,
    webConcurrency: e.WEB_CONCURRENCY,
    documentCacheBytes: mechanisms['document-cache'] ? e.DOCUMENT_CACHE_MB * 1024 * 1024 : 0,
    queryTimeBudgetMs: e.QUERY_TIME_BUDGET_MS,
    costlyReadsAtOnce: e.COSTLY_READS_AT_ONCE,
    mechanisms,
  };
}
