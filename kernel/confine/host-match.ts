/**
 * Which destinations a confined plugin's network grant admits: `loopback` admits this machine's
 * loopback names and addresses only; `{ hosts }` admits each name exactly, `*.domain` any
 * subdomain (not the domain itself), and a pattern with `:port` only that port.
 */
import net from 'node:net';
import type { ConfinedNetwork } from '../../protocol/v1/confinement.js';

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost') return true;
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  return bare === '::1';
}

function matchesPattern(pattern: string, host: string, port: number): boolean {
  const colon = pattern.lastIndexOf(':');
  const [name, wantPort] = colon > 0 ? [pattern.slice(0, colon), Number(pattern.slice(colon + 1))] : [pattern, undefined];
  if (wantPort !== undefined && wantPort !== port) return false;
  const want = name.toLowerCase();
  const got = host.toLowerCase().replace(/\.$/, '');
  return want.startsWith('*.') ? got.endsWith(want.slice(1)) && got.length > want.length - 1 : got === want;
}

export function admitsDestination(network: ConfinedNetwork, host: string, port: number): boolean {
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return false;
  if (network === 'host') return true;
  if (network === 'none') return false;
  if (network === 'loopback') return isLoopback(host);
  return network.hosts.some((pattern) => matchesPattern(pattern, host, port));
}
