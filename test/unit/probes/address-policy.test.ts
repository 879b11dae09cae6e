import { describe, expect, it } from '@jest/globals';
import { createAddressPolicy, specialRangeOf } from '../../../src/probes/address-policy.js';
import { parseCidr, type Cidr } from '../../../src/probes/cidr.js';
import { parseIpAddress } from '../../../src/probes/ip-address.js';

function cidrs(...texts: string[]): Cidr[] {
  return texts.map((text) => {
    const parsed = parseCidr(text);
    if (!parsed.ok) throw new Error(parsed.problem);
    return parsed.cidr;
  });
}

const rangeOf = (address: string) => specialRangeOf(parseIpAddress(address)!);

describe('special-purpose addresses', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.255', 'shared (carrier-grade NAT)'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this-network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
    ['::ffff:0:192.168.0.1', 'IPv4-translated private'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 link-local'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4 loopback'],
    ['2002:c0a8:101::1', '6to4 private'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['2001::1', 'Teredo tunnel'],
    ['100::1', 'discard-only'],
  ])('%s is %s', (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(rangeOf(address)).toBeNull();
  });
});

describe('address policy', () => {
  it('allows public addresses and refuses special ones, naming the range', () => {
    const policy = createAddressPolicy([]);
    expect(policy.check('93.184.216.34')).toEqual({ allowed: true });
    expect(policy.check('2606:4700::1111')).toEqual({ allowed: true });
    expect(policy.check('127.0.0.1')).toEqual({ allowed: false, why: 'loopback' });
    expect(policy.check('::ffff:127.0.0.1')).toEqual({ allowed: false, why: 'IPv4-mapped loopback' });
    expect(policy.check('169.254.169.254')).toEqual({ allowed: false, why: 'link-local' });
    expect(policy.check('fe80::1%eth0')).toEqual({ allowed: false, why: 'link-local' });
  });

  it('refuses what is not an IP address at all', () => {
    expect(createAddressPolicy(cidrs('0.0.0.0/0', '::/0')).check('localhost')).toEqual({ allowed: false, why: 'not an IP address' });
  });

  it("lets an operator's ranges through, and only those", () => {
    const policy = createAddressPolicy(cidrs('127.0.0.1/32', 'fd00:1::/32'));
    expect(policy.check('127.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('::ffff:127.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('fd00:1:2::3')).toEqual({ allowed: true });
    expect(policy.check('127.0.0.2')).toEqual({ allowed: false, why: 'loopback' });
    expect(policy.check('::1')).toEqual({ allowed: false, why: 'loopback' });
    expect(policy.check('fd00:2::1')).toEqual({ allowed: false, why: 'unique-local' });
    expect(policy.check('10.0.0.1')).toEqual({ allowed: false, why: 'private' });
  });
});
