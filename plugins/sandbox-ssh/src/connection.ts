import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientChannel, type ConnectConfig } from 'ssh2';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { ChannelSlots } from './channel-slots.js';
import { fingerprintOf, isHostKeyTrusted, readKnownHosts, revokedKeysFromKnownHosts, trustedKeysFromKnownHosts } from './host-key.js';
import type { ResolvedSshSettings } from './settings.js';

// ssh2 words every refused channel open this way; OpenSSH refuses one past MaxSessions.
const CHANNEL_REFUSED = /Channel open failure/;
/** Refusals of one channel at the server's limit before it fails (about 15 s of waiting). */
const MAX_REFUSALS = 20;

/**
 * One ssh2 connection with keepalive, lazy reconnect (the next call after a drop
 * reconnects) and a cap on concurrent channels that follows the server's limit.
 */
export class SshConnection {
  readonly label: string;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private readonly slots: ChannelSlots;

  constructor(private readonly settings: ResolvedSshSettings) {
    this.label = `ssh ${settings.user}@${settings.host}:${settings.port}`;
    this.slots = new ChannelSlots(settings.maxChannels);
  }

  /** Channels allowed at once: the configured cap, or what the server was seen to allow. */
  get channelLimit(): number {
    return this.slots.limit;
  }

  private connectOnce(): Promise<Client> {
    const s = this.settings;
    const texts = readKnownHosts(s.knownHostsPaths ?? [join(homedir(), '.ssh', 'known_hosts')]);
    const known = trustedKeysFromKnownHosts(texts, s.host, s.port);
    const revoked = revokedKeysFromKnownHosts(texts);
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
        const ok = isHostKeyTrusted(key, s.hostKey, known, revoked);
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
        if (rejectedKey && revoked.some((k) => k.equals(rejectedKey!))) {
          reject(new SandboxError('HOST_KEY_REJECTED', `Host key of ${s.host}:${s.port} (${fingerprintOf(rejectedKey)}) is marked @revoked in known_hosts and is never accepted. The host must present a new key; verify it out of band.`, { cause: error }));
        } else if (rejectedKey) {
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

  private async openChannel(commandLine: string): Promise<ClientChannel> {
    const client = await this.connected();
    return new Promise<ClientChannel>((resolve, reject) => {
      client.exec(commandLine, (error, ch) => (error ? reject(error) : resolve(ch)));
    });
  }

  /** Opens an exec channel; `release` must be called when the channel closes. */
  async exec(commandLine: string): Promise<{ channel: ClientChannel; release: () => void }> {
    for (let refusals = 0; ; refusals++) {
      const slot = await this.slots.acquire();
      try {
        const channel = await this.openChannel(commandLine);
        slot.opened();
        channel.once('close', slot.release);
        return { channel, release: slot.release };
      } catch (error) {
        const limited = CHANNEL_REFUSED.test((error as Error).message) && this.slots.learnFromRefusal();
        slot.release();
        if (limited && refusals < MAX_REFUSALS) {
          // At the server's limit: wait for a slot, briefly, as it may not have freed one we saw close yet.
          await new Promise((r) => setTimeout(r, Math.min(1_000, 10 * 2 ** refusals)));
          continue;
        }
        if (error instanceof SandboxError) throw error;
        throw new SandboxError('BACKEND_UNAVAILABLE', `Cannot open a command channel on ${this.label}: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  close(): void {
    this.client?.end();
    this.client = undefined;
  }
}
