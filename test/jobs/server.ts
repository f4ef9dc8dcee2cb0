/*
 * A real Quire server process (src/server.ts) that also knows the test job kinds of
 * ./fixture.ts, so multi-process tests can enqueue them and count their effects.
 */
import './fixture.ts';
await import('../../src/server.ts');
