/** Query keys of the jobs list, shared by the screens that change it (a new job, an answer). */
export const JOB_LISTS_KEY = ['jobs', 'list'] as const;
