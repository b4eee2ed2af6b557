import { describe, expect, it } from 'vitest';
import { isTrackable, linksOf, withPixel, withTrackedLinks } from '#lib/tracking/links.ts';
import { isPrefetch } from '#lib/engagement/prefetch.ts';
import { applyTracking, DEFAULT_TRACKING, trackingOf } from '#lib/accounts/tracking-settings.ts';
import { eventTypesOf } from '#lib/webhooks/derive.ts';
import { eventTime } from '#lib/webhooks/event-time.ts';

// Link and open tracking's pure parts (docs/engagement.md): which links are tracked and how they
// are replaced, what counts as a machine's fetch of the pixel, the settings' defaults, and the
// webhook events and times an engagement change makes.

describe('links in content', () => {
  const html =
    '<p><a href="https://acme.test/a?x=1&amp;y=2">A</a> <a class="b" href=\'https://acme.test/b\'>B</a>' +
    '<a href="mailto:hi@acme.test">mail</a><a href="tel:+15550100">call</a><a href="#top">top</a><a href="/relative">rel</a>' +
    '<a href="https://acme.test/unsubscribe?u=1">unsubscribe</a><a data-unsubscribe href="https://acme.test/prefs">prefs</a>' +
    '<a data-no-track href="https://acme.test/private">private</a><a href="https://acme.test/a?x=1&amp;y=2">A again</a></p>';

  it('finds the http(s) links of HTML once each, decoded, and leaves mailto, tel, anchors, relative and unsubscribe links', () => {
    expect(linksOf(html, 'html')).toEqual(['https://acme.test/a?x=1&y=2', 'https://acme.test/b']);
  });

  it('replaces each tracked link by the URL of its index and nothing else', () => {
    const out = withTrackedLinks(html, 'html', ['https://t.test/t/0', 'https://t.test/t/1']);
    expect(out.match(/https:\/\/t\.test\/t\/0/g)).toHaveLength(2);
    expect(out).toContain('class="b" href="https://t.test/t/1">B</a>');
    for (const kept of [
      'mailto:hi@acme.test',
      'tel:+15550100',
      '#top',
      '/relative',
      'unsubscribe?u=1',
      'acme.test/prefs',
      'acme.test/private',
    ]) {
      expect(out).toContain(kept);
    }
    expect(out).not.toContain('acme.test/a?');
  });

  it('finds URLs in plain text without the punctuation that ends a sentence', () => {
    const text = 'Reset: https://acme.test/reset?t=1. Or (https://acme.test/help), mailto:x@y.test';
    expect(linksOf(text, 'text')).toEqual(['https://acme.test/reset?t=1', 'https://acme.test/help']);
    expect(withTrackedLinks(text, 'text', ['T0', 'T1'])).toBe('Reset: T0. Or (T1), mailto:x@y.test');
  });

  it('tracks only absolute http(s) URLs of printable ASCII', () => {
    expect(isTrackable('https://acme.test/x')).toBe(true);
    expect(isTrackable('javascript:alert(1)')).toBe(false);
    expect(isTrackable('https://acme.test/a b')).toBe(false);
    expect(isTrackable('https://acme.test/é')).toBe(false);
    expect(isTrackable('https://acme.test/opt-out')).toBe(false);
  });

  it('puts the pixel at the end of the body', () => {
    expect(withPixel('<html><body><p>x</p></body></html>', 'https://t.test/o/1')).toMatch(
      /<p>x<\/p><img src="https:\/\/t\.test\/o\/1" width="1" height="1"[^>]*\/><\/body><\/html>$/,
    );
    expect(withPixel('<p>x</p>', 'P')).toMatch(/^<p>x<\/p><img src="P"/);
  });
});

describe('prefetches of the open pixel', () => {
  it("recognises Apple's proxy, scanners, libraries and browser prefetches; not a person's mail client", () => {
    expect(isPrefetch({ 'user-agent': 'Mozilla/5.0' })).toBe(true);
    expect(isPrefetch({})).toBe(true);
    expect(isPrefetch({ 'user-agent': 'Mozilla/5.0 (compatible; Barracuda Sentinel)' })).toBe(true);
    expect(isPrefetch({ 'user-agent': 'python-requests/2.31' })).toBe(true);
    expect(isPrefetch({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120', 'sec-purpose': 'prefetch' })).toBe(true);
    expect(isPrefetch({ 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Microsoft Outlook 16.0' })).toBe(false);
    expect(isPrefetch({ 'user-agent': 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)' })).toBe(
      false,
    );
  });
});

describe('tracking settings', () => {
  it('default to links in email only and no opens; an update changes only what it names', () => {
    expect(trackingOf(undefined)).toEqual(DEFAULT_TRACKING);
    expect(DEFAULT_TRACKING).toEqual({ links: { email: true, in_app: false, chat: false, sms: false }, opens: { email: false } });
    const next = applyTracking(DEFAULT_TRACKING, { links: { sms: true }, opens: { email: true } });
    expect(next).toEqual({ links: { email: true, in_app: false, chat: false, sms: true }, opens: { email: true } });
    expect(applyTracking(next, { links: { email: false } }).links).toEqual({ email: false, in_app: false, chat: false, sms: true });
  });
});

describe('engagement webhook events and their times', () => {
  const base = {
    type: 'Message',
    _id: 'm1',
    channel: 'email',
    status: 'sent',
    seen: false,
    read: false,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const change = (before: Record<string, unknown>, after: Record<string, unknown>) => ({
    sk: 'MSG#m1',
    before: { ...base, ...before },
    after: { ...base, ...after },
    expired: false,
  });

  it('the first open and the first click make one event each; a later click makes the opt-in one', () => {
    expect(eventTypesOf(change({}, { opened: '2026-01-01T00:00:01.000Z' }))).toEqual(['message.opened']);
    expect(eventTypesOf(change({}, { clicked: 'c', clickCount: 1 }))).toEqual(['message.link_clicked']);
    expect(eventTypesOf(change({ clicked: 'c', clickCount: 1 }, { clicked: 'c', clickCount: 2 }))).toEqual(['message.link_reclicked']);
    expect(eventTypesOf(change({ opened: 'o' }, { opened: 'o', updatedAt: 'later' }))).toEqual([]);
  });

  it("are stamped with the change's own time, not the stream's", () => {
    const at = Date.parse('2026-01-01T00:00:00.000Z');
    const clicked = {
      ...base,
      clicked: '2026-01-01T00:00:07.250Z',
      lastClickedAt: '2026-01-01T00:00:09.500Z',
      updatedAt: '2026-01-01T00:00:09.500Z',
    };
    expect(eventTime('message.link_clicked', { before: base, after: clicked, at })).toBe('2026-01-01T00:00:07.250Z');
    expect(eventTime('message.link_reclicked', { before: base, after: clicked, at })).toBe('2026-01-01T00:00:09.500Z');
    expect(eventTime('message.read', { after: { ...base, lastReadDate: '2026-01-01T00:00:03.100Z' }, at })).toBe(
      '2026-01-01T00:00:03.100Z',
    );
    expect(eventTime('message.sent', { after: { ...base, updatedAt: '2026-01-01T00:00:11.600Z' }, at })).toBe('2026-01-01T00:00:11.600Z');
    // A deletion has no time of its own: the stream's, never before the item's last write.
    expect(eventTime('message.deleted', { before: { ...base, updatedAt: '2026-01-01T00:00:30.000Z' }, at })).toBe(
      '2026-01-01T00:00:30.000Z',
    );
  });
});
