// TRUST_PROXY as a hop count: which X-Forwarded-For entry is the client, and what a client can
// (not) forge. A fake request context is enough: the exemption reads the socket address and one header.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PaymentConfigError, readPaymentSettings } from '../../http/payments/config.ts';
import { clientAddress, exemption, type ClientRequest } from '../../http/payments/exemption.ts';

function request(socket: string, forwardedFor?: string): ClientRequest {
  return { socket: { remoteAddress: socket }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } };
}

test('TRUST_PROXY reads as a hop count: unset/false/0 none, true one, a number that many', () => {
  const hops = (value: string | undefined) => readPaymentSettings(value === undefined ? {} : { TRUST_PROXY: value }).proxyHops;
  assert.equal(hops(undefined), 0);
  assert.equal(hops(''), 0);
  assert.equal(hops('false'), 0);
  assert.equal(hops('0'), 0);
  assert.equal(hops('true'), 1);
  assert.equal(hops('TRUE'), 1);
  assert.equal(hops('1'), 1);
  assert.equal(hops('2'), 2);
  assert.equal(hops('16'), 16);
  assert.equal(readPaymentSettings({ TRUST_PROXY: '2' }).trustProxy, true);
  assert.equal(readPaymentSettings({ TRUST_PROXY: '0' }).trustProxy, false);
  for (const bad of ['sure', '-1', '1.5', '17', '2 proxies', '0x2']) {
    assert.throws(
      () => readPaymentSettings({ TRUST_PROXY: bad }),
      (error: unknown) => error instanceof PaymentConfigError && /^TRUST_PROXY must be/.test(error.message) && error.message.includes(`"${bad}"`),
      bad,
    );
  }
});

test('no trusted proxy: the socket address, whatever X-Forwarded-For says', () => {
  assert.equal(clientAddress(request('203.0.113.5', '127.0.0.1'), 0), '203.0.113.5');
  assert.equal(clientAddress(request('::ffff:203.0.113.5'), 0), '203.0.113.5');
});

test('one proxy: the right-most entry (the one the proxy appended), never the client-written left ones', () => {
  assert.equal(clientAddress(request('10.0.0.2', '198.51.100.7'), 1), '198.51.100.7');
  // A client sends "X-Forwarded-For: 127.0.0.1" itself; the proxy appends its real address.
  assert.equal(clientAddress(request('10.0.0.2', '127.0.0.1, 198.51.100.7'), 1), '198.51.100.7');
  assert.equal(clientAddress(request('10.0.0.2', '10.9.9.9,198.51.100.7'), 1), '198.51.100.7');
});

test('two proxies: the second entry from the right (appended by the outer proxy)', () => {
  // client 198.51.100.7 -> CDN (appends 198.51.100.7) -> nginx 192.0.2.10 (appends the CDN's 192.0.2.44) -> server
  assert.equal(clientAddress(request('192.0.2.10', '198.51.100.7, 192.0.2.44'), 2), '198.51.100.7');
  assert.equal(clientAddress(request('192.0.2.10', '127.0.0.1, 198.51.100.7, 192.0.2.44'), 2), '198.51.100.7');
  // Headers sent twice are joined by Node with ", ": the same count from the right.
  assert.equal(clientAddress(request('192.0.2.10', '10.1.1.1, 10.2.2.2, 198.51.100.7, 192.0.2.44'), 2), '198.51.100.7');
});

test('fewer entries than hops: the socket address', () => {
  assert.equal(clientAddress(request('192.0.2.10', '198.51.100.7'), 2), '192.0.2.10');
  assert.equal(clientAddress(request('192.0.2.10'), 1), '192.0.2.10');
  assert.equal(clientAddress(request('192.0.2.10', ''), 1), '192.0.2.10');
});

test('entries with ports, brackets or IPv4-mapped form are read; junk is no address', () => {
  assert.equal(clientAddress(request('10.0.0.2', '198.51.100.7:51234'), 1), '198.51.100.7');
  assert.equal(clientAddress(request('10.0.0.2', '[2001:db8::7]:443'), 1), '2001:db8::7');
  assert.equal(clientAddress(request('10.0.0.2', '2001:db8::7'), 1), '2001:db8::7');
  assert.equal(clientAddress(request('10.0.0.2', '::ffff:127.0.0.1'), 1), '127.0.0.1');
  assert.equal(clientAddress(request('10.0.0.2', '127.0.0.1, unknown'), 1), '');
  assert.equal(clientAddress(request('10.0.0.2', '127.0.0.1, '), 1), '');
});

test('the exemption cannot be forged from the left of X-Forwarded-For', () => {
  const oneProxy = exemption({ exemptLoopback: true, allowlist: ['10.0.0.0/8'], proxyHops: 1 });
  assert.equal(oneProxy(request('127.0.0.1', '10.2.3.4')), true, 'an allowlisted client behind the proxy');
  assert.equal(oneProxy(request('127.0.0.1', '10.2.3.4, 203.0.113.9')), false, 'forged allowlisted entry');
  assert.equal(oneProxy(request('127.0.0.1', '127.0.0.1, 203.0.113.9')), false, 'forged loopback entry');
  assert.equal(oneProxy(request('127.0.0.1', 'unknown')), false, 'junk is not the loopback proxy');
  const twoProxies = exemption({ exemptLoopback: false, allowlist: ['10.0.0.0/8'], proxyHops: 2 });
  assert.equal(twoProxies(request('192.0.2.10', '10.2.3.4, 192.0.2.44')), true);
  assert.equal(twoProxies(request('192.0.2.10', '10.2.3.4, 203.0.113.9, 192.0.2.44')), false);
  assert.equal(twoProxies(request('192.0.2.10', '10.2.3.4')), false, 'one entry for two hops: the socket (not allowlisted)');
  const direct = exemption({ exemptLoopback: false, allowlist: ['10.0.0.0/8'], proxyHops: 0 });
  assert.equal(direct(request('203.0.113.9', '10.2.3.4')), false);
  assert.equal(direct(request('10.7.7.7', '203.0.113.9')), true);
});

test('with no allowlist and no loopback exemption nobody is exempt, whatever the address', () => {
  const nobody = exemption({ exemptLoopback: false, allowlist: [], proxyHops: 1 });
  assert.equal(nobody(request('127.0.0.1', '127.0.0.1')), false, 'loopback behind the proxy');
  assert.equal(nobody(request('10.0.0.2', '10.2.3.4')), false);
  const loopbackOnly = exemption({ exemptLoopback: true, allowlist: [], proxyHops: 0 });
  assert.equal(loopbackOnly(request('127.0.0.1')), true, 'the loopback exemption alone still exempts loopback');
  assert.equal(loopbackOnly(request('203.0.113.9')), false);
});
