import { RedisNotificationChannel } from '@agendajs/redis-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type AgendaBackend } from 'agenda';
import { MySqlBackend } from '../../src/queue/mysql-backend/index.js';
import type { AgendaSettings, BackendKind, Endpoints, NotifyKind } from './config.js';

/** Our backend on MariaDB (notifications via Redis, or none) or the peer on PostgreSQL (LISTEN/NOTIFY, or none). */
export function createBackend(kind: BackendKind, notify: NotifyKind, endpoints: Endpoints): AgendaBackend {
  if (kind === 'ours') {
    if (notify === 'pg') throw new Error('our backend has no LISTEN/NOTIFY channel');
    return new MySqlBackend(
      { url: endpoints.mysqlUrl },
      {
        tableName: endpoints.table,
        notificationChannel:
          notify === 'redis'
            ? new RedisNotificationChannel({ connectionString: endpoints.redisUrl, channelName: endpoints.channel })
            : undefined,
      },
    );
  }
  if (notify === 'redis') throw new Error('the peer is measured with its own LISTEN/NOTIFY channel');
  return new PostgresBackend({
    connectionString: endpoints.pgUrl,
    tableName: endpoints.table,
    channelName: endpoints.channel,
    disableNotifications: notify === 'off',
  });
}

export function createAgenda(backend: AgendaBackend, settings: AgendaSettings, name: string): Agenda {
  return new Agenda({
    backend,
    name,
    processEvery: settings.processEvery,
    maxConcurrency: settings.maxConcurrency,
    defaultConcurrency: settings.defaultConcurrency,
    lockLimit: settings.lockLimit,
  });
}
