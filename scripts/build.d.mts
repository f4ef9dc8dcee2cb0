/** Types of build.mjs (plain JavaScript, so it runs without tsx) for the TypeScript that imports it. */
export declare const ROOT: string;
export declare const ENTRIES: string[];
export declare function buildServer(options?: { outdir?: string }): Promise<string[]>;
export declare function staleReason(root?: string): string | undefined;
export declare function ensureBuilt(name: 'server' | 'cli' | 'worker-main', log: (level: number, msg: string, extra?: Record<string, unknown>) => void): Promise<string>;
