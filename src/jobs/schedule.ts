import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `work` every `intervalMs` and once at start, never two runs at once in this
 * process, logging what it did and any failure. Returns a stop function. Jobs must be
 * safe to run in several processes at once (each re-checks what it removes).
 */
export function scheduleJob(name: string, intervalMs: number, log: FastifyBaseLogger, work: () => Promise<Record<string, unknown> | null>): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const done = await work();
      if (done) log.info(done, name);
    } catch (error) {
      log.error({ err: error }, `${name} failed`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
