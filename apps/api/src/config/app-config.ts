/** The service's whole configuration, read and validated once at start-up (see load-config.ts). */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  readonly database: DatabaseConfig;
  readonly auth: AuthConfig;
  /** `true` reflects any origin; otherwise the exact origins allowed. */
  readonly corsOrigins: true | readonly string[];
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
];

export interface DatabaseConfig {
  /** An external PostgreSQL; `undefined` starts the embedded one. */
  readonly url: string | undefined;
  readonly embedded: { readonly dataDir: string; readonly port: number };
  readonly poolSize: number;
  /** Upper bound for connecting, waiting for a pooled connection and running one statement. */
  readonly timeoutMs: number;
  readonly migrateOnStart: boolean;
}

export interface AuthConfig {
  readonly tokenTtlSeconds: number;
  readonly signUpEnabled: boolean;
}

/** Injection token of the AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');
