import type { JobsQueryOptions, JobsSort, RemoveJobsOptions, SortDirection } from 'agenda';
import { placeholders, type Statement } from './sql-executor.js';

/**
 * WHERE clauses for Agenda's selection options. Precedence as in Agenda's Postgres backend: `id` over `ids`;
 * `name` over `names` over `notNames`; `data` is JSON containment (`@>`). Returns null when nothing selects,
 * so a remove/disable with empty options touches no row.
 */
export function selectionFilter(options: RemoveJobsOptions): Statement | null {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (options.id) {
    clauses.push('id = ?');
    params.push(String(options.id));
  } else if (options.ids && options.ids.length > 0) {
    clauses.push(`id IN ${placeholders(options.ids.length)}`);
    params.push(...options.ids.map(String));
  }
  if (options.name) {
    clauses.push('name = ?');
    params.push(options.name);
  } else if (options.names && options.names.length > 0) {
    clauses.push(`name IN ${placeholders(options.names.length)}`);
    params.push(...options.names);
  } else if (options.notNames && options.notNames.length > 0) {
    clauses.push(`name NOT IN ${placeholders(options.notNames.length)}`);
    params.push(...options.notNames);
  }
  if (options.data !== undefined) {
    clauses.push('json_contains(data, ?)');
    params.push(JSON.stringify(options.data));
  }
  return clauses.length === 0 ? null : { sql: clauses.join(' AND '), params };
}

/** The WHERE clause of `queryJobs` (state is computed afterwards; it is not a column). */
export function queryFilter(options: JobsQueryOptions): Statement {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const selection = selectionFilter({
    id: options.id,
    ids: options.ids,
    name: options.name,
    names: options.names,
    data: options.data,
  });
  if (selection) {
    clauses.push(selection.sql);
    params.push(...selection.params);
  }
  if (options.search) {
    clauses.push('name LIKE ?');
    params.push(`%${options.search}%`);
  }
  if (options.includeDisabled === false) clauses.push('disabled = 0');
  return { sql: clauses.length === 0 ? '1 = 1' : clauses.join(' AND '), params };
}

const SORTABLE: Record<Exclude<keyof JobsSort, 'data'>, { column: string; nullable: boolean }> = {
  nextRunAt: { column: 'next_run_at', nullable: true },
  lastRunAt: { column: 'last_run_at', nullable: true },
  lastFinishedAt: { column: 'last_finished_at', nullable: true },
  priority: { column: 'priority', nullable: false },
  name: { column: 'name', nullable: false },
};

/** ORDER BY for `queryJobs`: nullable dates sort NULLS LAST (spelled portably), ties broken by id for stable pages. */
export function queryOrder(sort: JobsSort | undefined): string {
  const parts: string[] = [];
  for (const [key, { column, nullable }] of Object.entries(SORTABLE)) {
    const direction = sort?.[key as keyof JobsSort];
    if (direction === undefined) continue;
    parts.push(...orderTerm(column, direction, nullable));
  }
  if (parts.length === 0) parts.push(...orderTerm('next_run_at', 'desc', true), ...orderTerm('last_run_at', 'desc', true));
  return [...parts, 'id ASC'].join(', ');
}

function orderTerm(column: string, direction: SortDirection, nullable: boolean): string[] {
  const sql = direction === 'asc' ? 'ASC' : 'DESC';
  return nullable ? [`(${column} IS NULL) ASC`, `${column} ${sql}`] : [`${column} ${sql}`];
}
