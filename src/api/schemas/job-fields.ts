import { z } from 'zod';
import { JOB_STATUSES } from '../../core/job-lifecycle.js';
import { JOB_TRIGGERS } from '../../core/job.js';

/**
 * A job's status and trigger as schemas of their own, so the dashboard (which may import src/api/schemas but not
 * src/core) offers the same values in its filters and types its rows with them.
 */
export const jobStatusSchema = z.enum(JOB_STATUSES);
export const jobTriggerSchema = z.enum(JOB_TRIGGERS);
