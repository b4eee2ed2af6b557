// Imported first by bench/run.ts, before any module creates its logger: log lines only for
// errors (one INFO line per request and per job would be the bench's biggest cost on two cores).
process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// The metrics' EMF lines too (lib/observability/metrics.ts): they would fill the bench's output.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
