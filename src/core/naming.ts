/**
 * The job interface under its two naming sets (spec, top): one core and one table, named at the edge. Set A says
 * jobs, checks, projects and findings; Set B says runs, scenarios, repositories and reports.
 */
export interface NamingSet {
  readonly set: 'A' | 'B';
  /** Path segment: `/api/jobs` or `/api/runs`. */
  readonly collection: 'jobs' | 'runs';
  /** The record's key in a GET response. */
  readonly record: 'job' | 'run';
  readonly id: 'jobId' | 'runId';
  readonly workflowId: 'workflowIdentity' | 'workflowRunId';
  readonly checkId: 'testId' | 'scenarioId';
  readonly repositoryId: 'projectId' | 'repositoryId';
  readonly parentId: 'parentJobId' | 'parentRunId';
  readonly childIds: 'childJobIds' | 'childRunIds';
  readonly results: 'findings' | 'reports';
}

export const SET_A: NamingSet = {
  set: 'A',
  collection: 'jobs',
  record: 'job',
  id: 'jobId',
  workflowId: 'workflowIdentity',
  checkId: 'testId',
  repositoryId: 'projectId',
  parentId: 'parentJobId',
  childIds: 'childJobIds',
  results: 'findings',
};

export const SET_B: NamingSet = {
  set: 'B',
  collection: 'runs',
  record: 'run',
  id: 'runId',
  workflowId: 'workflowRunId',
  checkId: 'scenarioId',
  repositoryId: 'repositoryId',
  parentId: 'parentRunId',
  childIds: 'childRunIds',
  results: 'reports',
};
