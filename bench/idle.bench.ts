/**
 * What an idle worker costs: an Agenda with the service's kinds of job and its poll interval, nothing to do, for
 * BENCH_IDLE_SECONDS (20). Agenda claims every kind at each poll; a fleet of idle workers does that all day against
 * the one database, and on a worker running a browser job it is CPU taken from the job.
 *
 *   npm run bench:idle
 *
 * Three idle processes of the same shape, one after the other, in this process (each is a fresh Agenda):
 * 1. nothing: no Agenda at all, for this process's own idle CPU (timers, GC), which is taken off the others;
 * 2. ours: the project's backend on MariaDB (BENCH_MYSQL_URL, database dropped and created again);
 * 3. Agenda's official Postgres backend (BENCH_PG_URL), notifications off so it polls as ours does.
 * Each prints claims asked a second, this process's CPU (ms a second, less the idle baseline) and the database
 * server's (ms a second), and the ratio ours ÷ Postgres.
 */
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type AgendaBackend } from 'agenda';
import { MySqlBackend } from '../src/queue/mysql-backend/index.js';
import { intFromEnv } from './support/config.js';
import { MYSQL_SERVERS, nodeSeconds, serverSeconds } from './support/cpu.js';
import { freshBenchDatabase, freshPostgresBenchDatabase } from './support/database.js';
import { fmt, table } from './support/stats.js';

const MYSQL_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/qa_bench_idle';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/qa_bench_idle';
const SECONDS = intFromEnv('BENCH_IDLE_SECONDS', 20);
/** The service's defaults: QUEUE_POLL_INTERVAL_MS, and the kinds of job a `qa worker` defines. */
const POLL_MS = intFromEnv('BENCH_POLL_MS', 250);
const KINDS = intFromEnv('BENCH_KINDS', 4);

interface Idle {
  label: string;
  claimsPerSecond: number;
  /** ms of CPU a second. */
  node: number;
  database: number;
}

async function idle(label: string, comms: readonly string[], backend: AgendaBackend | undefined): Promise<Idle> {
  let agenda: Agenda | undefined;
  let claims = 0;
  if (backend) {
    agenda = new Agenda({ backend, name: `idle-${label}`, processEvery: POLL_MS, defaultConcurrency: 1, defaultLockLimit: 1 });
    for (let kind = 0; kind < KINDS; kind++) agenda.define(`kind-${kind}`, async () => undefined);
    await agenda.ready;
    const repository = agenda.db;
    const claim = repository.getNextJobToRun.bind(repository);
    repository.getNextJobToRun = (...args) => {
      claims++;
      return claim(...args);
    };
    await agenda.start();
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // past start-up
  claims = 0;
  const [node0, db0, at0] = [nodeSeconds(), serverSeconds(comms), performance.now()];
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const seconds = (performance.now() - at0) / 1000;
  const result = {
    label,
    claimsPerSecond: claims / seconds,
    node: ((nodeSeconds() - node0) / seconds) * 1000,
    database: ((serverSeconds(comms) - db0) / seconds) * 1000,
  };
  await agenda?.stop();
  if (backend instanceof MySqlBackend) await backend.disconnect();
  return result;
}

await freshBenchDatabase(MYSQL_URL, { create: true });
await freshPostgresBenchDatabase(PG_URL);
console.log(`idle for ${SECONDS} s each: ${KINDS} kinds of job, a poll every ${POLL_MS} ms…`);
const nothing = await idle('nothing', [...MYSQL_SERVERS, 'postgres'], undefined);
const ours = await idle('ours, MariaDB', MYSQL_SERVERS, new MySqlBackend({ url: MYSQL_URL }));
const peer = await idle("Agenda's Postgres backend", ['postgres'], new PostgresBackend({ connectionString: PG_URL, disableNotifications: true }));
const less = (one: Idle) => Math.max(0, one.node - nothing.node);
console.log('');
console.log(
  table(
    ['idle worker', 'claims asked/s', 'this process, ms CPU/s (less idle Node)', 'database server, ms CPU/s', 'both, ms CPU/s'],
    [ours, peer].map((one) => [one.label, fmt(one.claimsPerSecond, 1), fmt(less(one), 1), fmt(one.database, 1), fmt(less(one) + one.database, 1)]),
    [false, true, true, true, true],
  ),
);
console.log(`  (this process with no Agenda: ${fmt(nothing.node, 1)} ms CPU/s; the servers meanwhile: ${fmt(nothing.database, 1)} ms CPU/s)`);
console.log(`  ours / Agenda's Postgres backend, CPU of both: ${fmt((less(ours) + ours.database) / (less(peer) + peer.database), 2)}`);
process.exit(0);
