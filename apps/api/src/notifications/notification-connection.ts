import { type Socket } from 'node:net';
import { Client } from 'pg';
import { type DatabaseConfig } from '../config/app-config';

/**
 * The `application_name` of every instance's notification connection: counting the sessions
 * of that name on the database counts the instances that listen (or are about to).
 */
export const NOTIFICATION_SESSION_NAME = 'layout-service notifications';

/** What DatabaseNotifications needs of its connection (see openNotificationConnection). */
export interface NotificationConnection {
  /** Runs one statement; rejects when it fails, the connection fails or the deadline passes. */
  query(sql: string, values?: readonly unknown[]): Promise<void>;
  /** Receives every notification the connection delivers. */
  onNotification(handler: (channel: string, payload: string) => void): void;
  /** Called once when the connection ends, however it ends. */
  onClose(handler: (error?: Error) => void): void;
  /**
   * Ends the connection: politely (the server sees a clean goodbye) when it answers, else by
   * closing the socket once `waitMs` has passed, since a server that stopped answering would
   * never confirm.
   */
  close(waitMs: number): Promise<void>;
}

/**
 * A connection of its own for LISTEN, outside the pool: a LISTEN belongs to the session that
 * ran it, and a pooled connection serves whoever takes it next. The deadlines are the
 * database's (DATABASE_TIMEOUT_MS); TCP keep-alive lets the system notice a peer that vanished.
 */
export async function openNotificationConnection(
  url: string,
  config: DatabaseConfig,
): Promise<NotificationConnection> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: config.timeoutMs,
    query_timeout: config.timeoutMs,
    keepAlive: true,
    application_name: NOTIFICATION_SESSION_NAME,
  });
  let closed = false;
  let onClose: ((error?: Error) => void) | undefined;
  const ended = (error?: Error) => {
    if (closed) return;
    closed = true;
    onClose?.(error);
  };
  // Unheard, an 'error' event would take the process down.
  client.on('error', (error) => ended(error));
  client.on('end', () => ended());
  try {
    await client.connect();
  } catch (error) {
    socketOf(client)?.destroy();
    throw error;
  }
  return {
    query: async (sql, values) => {
      await client.query(sql, values === undefined ? undefined : [...values]);
    },
    onNotification: (handler) =>
      client.on('notification', (message) => handler(message.channel, message.payload ?? '')),
    onClose: (handler) => {
      onClose = handler;
    },
    close: async (waitMs) => {
      let timer: NodeJS.Timeout | undefined;
      const cutOff = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          socketOf(client)?.destroy();
          resolve();
        }, waitMs);
      });
      try {
        await Promise.race([client.end().catch(() => undefined), cutOff]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The socket beneath a client (node-postgres keeps it on `connection.stream`). */
function socketOf(client: Client): Socket | undefined {
  return (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
}
