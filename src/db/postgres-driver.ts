import type pg from 'pg';
import { loadOnUse } from '../lib/load-on-use.ts';

const loadPg = loadOnUse<typeof pg>('pg');
let driver: typeof pg | undefined;

/**
 * node-postgres, loaded on first use: an installation on SQLite never loads it (about
 * 0.1 s of every start). A CommonJS package, required as Node requires it.
 */
export function postgresDriver(): typeof pg {
  if (!driver) {
    driver = loadPg();
    // COUNT(*) and BIGINT arrive as strings from pg; numbers in this app stay far below 2^53.
    driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  }
  return driver;
}
