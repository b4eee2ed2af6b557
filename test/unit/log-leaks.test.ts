import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiKeyCandidates, findLeaks } from '../support/log-leaks.ts';

// The whole-run log check (test/support/global-setup.ts) can fail: each kind of leak it looks
// for is found when planted, and ordinary log output passes.

const apiKey = randomBytes(24).toString('hex');
const password = `pw-${randomBytes(8).toString('hex')}`;
const line = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ level: 'INFO', message: 'request', service: 'notify', ...fields })}\n`;
const known = { secrets: [password, 'short'], isApiKey: (t: string) => t === apiKey };

describe('log leak finder', () => {
  it('passes ordinary logs: ids, hashes and short stored values are not secrets', () => {
    const text = [
      line({ path: '/v1/integrations', status: 200, organizationId: randomBytes(12).toString('hex') }),
      line({ hash: randomBytes(32).toString('hex'), note: 'a short value' }),
      'RUN v4 test/integration/http-layer.test.ts > rejects a missing Authorization header\n',
    ].join('');
    expect(findLeaks(new Map([['main.log', text]]), known)).toEqual([]);
  });

  it('finds a live API key anywhere, a stored secret anywhere, and an Authorization header in a log line', () => {
    const files = new Map([
      ['worker-1.log', line({ message: 'debug', key: apiKey })],
      ['worker-2.log', `some library printed ${password}\n`],
      ['main.log', line({ headers: { Authorization: 'ApiKey 0123456789abcdef0123' } })],
    ]);
    const leaks = findLeaks(files, known);
    expect(leaks.map((l) => [l.file, l.what])).toEqual([
      ['worker-1.log', 'API key'],
      ['worker-2.log', 'integration secret'],
      ['main.log', 'Authorization header in a log line'],
      ['main.log', '`ApiKey <key>` in a log line'],
    ]);
    // The report shows the start of a value only.
    expect(JSON.stringify(leaks)).not.toContain(apiKey);
    expect(JSON.stringify(leaks)).not.toContain(password);
  });

  it('takes only whole 48-hex tokens as key candidates', () => {
    const sha256 = randomBytes(32).toString('hex');
    expect(apiKeyCandidates(`${sha256} ${apiKey} x${apiKey.toUpperCase()}`)).toEqual(new Set([apiKey]));
  });
});
