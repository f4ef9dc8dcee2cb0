/*
 * Every job kind of the app, registered by importing its module. A process that enqueues
 * or works jobs imports this file (src/app.ts, src/worker.ts).
 */
import './housekeeping.ts';
import './space-purge.ts';
import './pdf-sweep.ts';
import '../modules/pdf/pdf.jobs.ts';
import '../modules/conversations/conversations.jobs.ts';
import '../modules/git-sync/git-sync.jobs.ts';
import '../modules/translations/translations.jobs.ts';
import '../modules/openapi-specs/openapi-specs.jobs.ts';
