import { describe, expect, it } from '@jest/globals';
import { formatIpAddress, parseIpAddress, parseIpv4, parseIpv6, unmappedIpv4 } from '../../../src/probes/ip-address.js';

const hex = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('hex'));

describe('IP address parsing', () => {
  it.each([
    ['0.0.0.0', [0, 0, 0, 0]],
    ['127.0.0.1', [127, 0, 0, 1]],
    ['255.255.255.255', [255, 255, 255, 255]],
    ['192.168.1.10', [192, 168, 1, 10]],
  ])('reads the dotted quad %s', (text, bytes) => {
    expect(Array.from(parseIpv4(text)!)).toEqual(bytes);
  });

  it.each(['256.0.0.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.04', '0x7f.0.0.1', '2130706433', '1.2.3.4 ', ' 1.2.3.4', '', '1..3.4', '-1.2.3.4'])(
    'refuses %j as an IPv4 address (no octal, hex or short forms)',
    (text) => {
      expect(parseIpv4(text)).toBeNull();
    },
  );

  it.each([
    ['::', '00000000000000000000000000000000'],
    ['::1', '00000000000000000000000000000001'],
    ['1::', '00010000000000000000000000000000'],
    ['fe80::1', 'fe800000000000000000000000000001'],
    ['FE80::ABCD', 'fe80000000000000000000000000abcd'],
    ['2001:db8:0:0:0:0:2:1', '20010db8000000000000000000020001'],
    ['2001:db8::2:1', '20010db8000000000000000000020001'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['::2:3:4:5:6:7:8', '00000002000300040005000600070008'],
    ['::ffff:127.0.0.1', '00000000000000000000ffff7f000001'],
    ['::ffff:7f00:1', '00000000000000000000ffff7f000001'],
    ['64:ff9b::10.0.0.1', '0064ff9b00000000000000000a000001'],
    ['1:2:3:4:5:6:1.2.3.4', '00010002000300040005000601020304'],
  ])('reads the IPv6 address %s', (text, bytes) => {
    expect(hex(parseIpv6(text))).toBe(bytes);
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':::',
    ':1::',
    '1:2:3:4:5:6:7:8::',
    '12345::',
    'g::1',
    '::1.2.3',
    '::1.2.3.256',
    '1.2.3.4::',
    '1:2:3:4:5:6:7:1.2.3.4',
    '',
    'localhost',
  ])('refuses %j as an IPv6 address', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });

  it('takes bracketed IPv6 hosts and drops a zone, but refuses names', () => {
    expect(parseIpAddress('[::1]')).toEqual({ family: 6, bytes: parseIpv6('::1') });
    expect(parseIpAddress('fe80::1%eth0')).toEqual({ family: 6, bytes: parseIpv6('fe80::1') });
    expect(parseIpAddress('10.0.0.1')).toEqual({ family: 4, bytes: Uint8Array.from([10, 0, 0, 1]) });
    expect(parseIpAddress('example.com')).toBeNull();
    expect(parseIpAddress('[10.0.0.1]')).toBeNull();
  });

  it('unwraps only the IPv4-mapped form', () => {
    expect(unmappedIpv4(parseIpAddress('::ffff:10.1.2.3')!)).toEqual({ family: 4, bytes: Uint8Array.from([10, 1, 2, 3]) });
    expect(unmappedIpv4(parseIpAddress('64:ff9b::10.1.2.3')!)).toBeNull();
    expect(unmappedIpv4(parseIpAddress('::10.1.2.3')!)).toBeNull();
    expect(unmappedIpv4(parseIpAddress('10.1.2.3')!)).toBeNull();
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80:0000:0000::0001', 'fe80::1'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
  ])('writes %s as %s', (text, written) => {
    expect(formatIpAddress(parseIpAddress(text)!)).toBe(written);
  });
});
