// The tier's log is the project's one logger set-up (proto/log.ts), re-exported for the
// tier's files.
export { createLogger, serializeError } from '../proto/log.js';
export type { Logger } from '../proto/log.js';
