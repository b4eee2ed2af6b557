// Consumer of the `bulk` queue (infra/queues.ts): the events consumer's own handler, as a function
// of its own, so bulk fan-out work runs on instances of its own beside the single triggers'.
export { handler } from './events.ts';
