import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { fingerprintOf, isHostKeyTrusted, readKnownHosts, trustedKeysFromKnownHosts } from './host-key.js';
import type { ResolvedSshSettings } from './settings.js';

/**
 * One ssh2 connection with keepalive, lazy reconnect (the next call after a drop
 * reconnects) and a cap on concurrent channels.
 */
export class SshConnection {
  readonly label: string;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly settings: ResolvedSshSettings) {
    this.label = `ssh ${settings.user}@${settings.host}:${settings.port}`;
  }

  private connectOnce(): Promise<Client> {
    const s = this.settings;
    const known = trustedKeysFromKnownHosts(readKnownHosts(s.knownHostsPaths ?? [join(homedir(), '.ssh', 'known_hosts')]), s.host, s.port);
    let rejectedKey: Buffer | undefined;
    const config: ConnectConfig = {
      host: s.host,
      port: s.port,
      username: s.user,
      readyTimeout: s.readyTimeoutMs,
      keepaliveInterval: s.keepaliveIntervalMs,
      keepaliveCountMax: s.keepaliveCountMax,
      agent: s.agent,
      passphrase: s.passphrase,
      privateKey: s.privateKeyPath ? readFileSync(s.privateKeyPath) : undefined,
      hostVerifier: (key: Buffer) => {
        const ok = isHostKeyTrusted(key, s.hostKey, known);
        if (!ok) rejectedKey = key;
        return ok;
      },
    };
    if (!config.privateKey && !config.agent) {
      return Promise.reject(new SandboxError('CONFIG_INVALID', `No ssh credentials for ${this.label}: set sandbox.ssh.privateKeyPath or sandbox.ssh.agent.`));
    }
    return new Promise((resolve, reject) => {
      const client = new Client();
      client.once('ready', () => resolve(client));
      client.once('error', (error: Error & { level?: string }) => {
        if (rejectedKey) {
          reject(new SandboxError('HOST_KEY_REJECTED', `Host key of ${s.host}:${s.port} (${fingerprintOf(rejectedKey)}) is not trusted. Verify it out of band, then add it to known_hosts (ssh-keyscan -p ${s.port} ${s.host}) or pin it with sandbox.ssh.hostKey="${fingerprintOf(rejectedKey)}".`, { cause: error }));
        } else if (error.level === 'client-authentication') {
          reject(new SandboxError('AUTH_FAILED', `ssh authentication failed for ${this.label}: check sandbox.ssh.privateKeyPath / agent and the remote authorized_keys.`, { cause: error }));
        } else {
          reject(new SandboxError('BACKEND_UNAVAILABLE', `Cannot reach ${this.label}: ${error.message}`, { cause: error }));
        }
      });
      client.on('close', () => { if (this.client === client) this.client = undefined; });
      client.connect(config);
    });
  }

  /** The live client, connecting (with retries for transient failures) when needed. */
  async connected(): Promise<Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      let delay = 250;
      for (let attempt = 1; ; attempt++) {
        try {
          this.client = await this.connectOnce();
          return this.client;
        } catch (error) {
          const fatal = error instanceof SandboxError && error.code !== 'BACKEND_UNAVAILABLE';
          if (fatal || attempt >= this.settings.connectAttempts) throw error;
          await new Promise((r) => setTimeout(r, delay));
          delay *= 2;
        }
      }
    })().finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private async acquire(): Promise<() => void> {
    if (this.active >= this.settings.maxChannels) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }

  /** Opens an exec channel; `release` must be called when the channel closes. */
  async exec(commandLine: string): Promise<{ channel: ClientChannel; release: () => void }> {
    const release = await this.acquire();
    try {
      const client = await this.connected();
      const channel = await new Promise<ClientChannel>((resolve, reject) => {
        client.exec(commandLine, (error, ch) => (error ? reject(error) : resolve(ch)));
      });
      channel.once('close', release);
      return { channel, release };
    } catch (error) {
      release();
      if (error instanceof SandboxError) throw error;
      throw new SandboxError('BACKEND_UNAVAILABLE', `Cannot open a command channel on ${this.label}: ${(error as Error).message}`, { cause: error });
    }
  }

  close(): void {
    this.client?.end();
    this.client = undefined;
  }
}
