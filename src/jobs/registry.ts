import type { JobHandler, RecurringSchedule } from './queue.ts';

/** A recurring job of the registry: its schedule and the handler that runs a period. */
export interface RecurringJob extends RecurringSchedule {
  handler: JobHandler;
}

/**
 * The job kinds one process works, built from the list it was composed with
 * (src/composition.ts for the app; tests add their own). A worker claims only these
 * kinds: jobs of others are left for processes that know them (rolling deploys).
 */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly schedules: RecurringJob[] = [];

  constructor(handlers: readonly JobHandler[]) {
    for (const handler of handlers) {
      const { kind } = handler.job;
      if (this.handlers.has(kind)) throw new Error(`job kind "${kind}" is handled twice`);
      this.handlers.set(kind, handler);
      if (handler.recurring) this.schedules.push({ ...handler.recurring, handler });
    }
  }

  handler(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  recurring(): readonly RecurringJob[] {
    return this.schedules;
  }
}
