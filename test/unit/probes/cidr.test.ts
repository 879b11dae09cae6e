import { describe, expect, it } from '@jest/globals';
import { cidrContains, formatCidr, parseCidr, splitCidrList, type Cidr } from '../../../src/probes/cidr.js';
import { parseIpAddress } from '../../../src/probes/ip-address.js';

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.cidr;
}

function contains(range: string, address: string): boolean {
  return cidrContains(cidr(range), parseIpAddress(address)!);
}

describe('CIDR ranges', () => {
  it.each([
    ['127.0.0.1/32', '127.0.0.1/32'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    [' 192.168.0.0/16 ', '192.168.0.0/16'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['127.0.0.1', '127.0.0.1/32'],
    ['::1/128', '::1/128'],
    ['fd00::/8', 'fd00::/8'],
    ['FE80::/10', 'fe80::/10'],
    ['::/0', '::/0'],
    ['2001:db8::', '2001:db8::/128'],
  ])('reads %j as %s', (text, written) => {
    expect(formatCidr(cidr(text))).toBe(written);
  });

  it.each([
    ['10.0.0.1/8', '"10.0.0.1/8" has bits set past its /8 prefix (did you mean 10.0.0.0/8?)'],
    ['fd00::1/8', '"fd00::1/8" has bits set past its /8 prefix (did you mean fd00::/8?)'],
    ['127.0.0.1/33', '"127.0.0.1/33" needs a prefix length from 0 to 32 after the "/"'],
    ['::1/129', '"::1/129" needs a prefix length from 0 to 128 after the "/"'],
    ['10.0.0.0/', '"10.0.0.0/" needs a prefix length from 0 to 32 after the "/"'],
    ['10.0.0.0/08', '"10.0.0.0/08" needs a prefix length from 0 to 32 after the "/"'],
    ['10.0.0.0/-1', '"10.0.0.0/-1" needs a prefix length from 0 to 32 after the "/"'],
    ['10.0.0.0/8/8', '"10.0.0.0/8/8" needs a prefix length from 0 to 32 after the "/"'],
    ['localhost/32', '"localhost/32" is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8'],
    ['[::1]/128', '"[::1]/128" is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8'],
    ['fe80::1%eth0/128', '"fe80::1%eth0/128" is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8'],
    ['', '"" is not an IPv4 or IPv6 range like 127.0.0.1/32 or fd00::/8'],
  ])('refuses %j, saying why', (text, problem) => {
    expect(parseCidr(text)).toEqual({ ok: false, problem });
  });

  it('splits a comma-separated list, dropping blanks', () => {
    expect(splitCidrList(' 127.0.0.1/32 ,, fd00::/8 ,')).toEqual(['127.0.0.1/32', 'fd00::/8']);
    expect(splitCidrList('')).toEqual([]);
  });

  it.each([
    ['10.0.0.0/8', '10.0.0.0', true],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['172.16.0.0/12', '172.31.255.255', true],
    ['172.16.0.0/12', '172.32.0.0', false],
    ['100.64.0.0/10', '100.127.0.1', true],
    ['100.64.0.0/10', '100.128.0.1', false],
    ['127.0.0.1/32', '127.0.0.1', true],
    ['127.0.0.1/32', '127.0.0.2', false],
    ['0.0.0.0/0', '203.0.113.7', true],
    ['127.0.0.1/32', '::ffff:127.0.0.1', true],
    ['10.0.0.0/8', '::ffff:a00:1', true],
    ['127.0.0.1/32', '::1', false],
    ['127.0.0.1/32', '::127.0.0.1', false],
    ['127.0.0.1/32', '64:ff9b::127.0.0.1', false],
    ['0.0.0.0/0', '2001:db8::1', false],
    ['::1/128', '::1', true],
    ['::1/128', '127.0.0.1', false],
    ['fc00::/7', 'fd12:3456::1', true],
    ['fc00::/7', 'fe00::1', false],
    ['fe80::/10', 'febf:ffff::1', true],
    ['fe80::/10', 'fec0::1', false],
    ['::/0', '2606:4700::1111', true],
    ['::/0', '1.1.1.1', false],
  ])('%s holds %s: %s', (range, address, expected) => {
    expect(contains(range, address)).toBe(expected);
  });
});
