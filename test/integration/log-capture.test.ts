import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { logger } from '#lib/logger.ts';
import { createTestOrg, startTestApi, type TestOrg } from '../support/api.ts';

// The whole-run log capture (issue 9, item 5) sees what the service logs in a test worker, at the
// run's level: without that, the check at the end of the run (test/support/global-setup.ts)
// would pass for want of anything to look at.

let api: LocalApi;
let org: TestOrg;
beforeAll(async () => {
  api = await startTestApi();
  org = await createTestOrg(api.url);
});
afterAll(() => api.close());

describe('log capture', () => {
  it("holds this worker's request log lines, with no API key in them", async () => {
    const marker = `/v2/subscribers/capture-${Date.now()}`;
    expect((await org.dev.client.get(marker)).status).toBe(404);
    const capture = readFileSync(join(inject('logCapture').dir, `worker-${process.pid}.log`), 'utf8');
    const lines = capture.split('\n').filter((l) => l.includes(marker));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'INFO', message: 'request', path: marker, status: 404 });
    // The service logs at the run's level: DEBUG, its most verbose, unless one was chosen.
    if (!inject('logCapture').levelChosen) expect(logger.getLevelName()).toBe('DEBUG');
  });
});
