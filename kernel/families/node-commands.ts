/**
 * The `nodes` tool's command tables. The generic `invoke` is an escape hatch, so it is
 * fenced: shell commands, media-returning commands (a base64 payload would flood the model's
 * context) and path-policied file transfers never run through it. Only media has a dedicated
 * action in Pincer today. The reference sends shell commands to `exec` with `host=node` and
 * file transfers to a file-transfer tool; Pincer has neither yet, so those refusals say that
 * no path exists instead of naming a tool the model would look for in vain (or, worse, the
 * local `exec`, which runs in the agent's own sandbox and not on the device).
 * Commands compare lower-cased.
 */

/** Actions that read one node command. */
export const READ_ACTIONS: Readonly<Record<string, string>> = Object.freeze({
  device_status: 'device.status',
  device_info: 'device.info',
  device_permissions: 'device.permissions',
  device_health: 'device.health',
  notifications_list: 'notifications.list',
  camera_list: 'camera.list',
  location_get: 'location.get',
});

/** Media commands and the dedicated action for each. */
export const MEDIA_ACTIONS: Readonly<Record<string, string>> = Object.freeze({
  camera_snap: 'camera.snap',
  camera_clip: 'camera.clip',
  photos_latest: 'photos.latest',
  screen_record: 'screen.record',
  screen_snapshot: 'screen.snapshot',
});

/** File-transfer commands whose path policy only a dedicated file-transfer tool could enforce (none ships). */
const POLICY_FENCED: ReadonlySet<string> = new Set(['file.fetch', 'dir.list', 'dir.fetch', 'file.write']);

const MEDIA_BY_COMMAND: ReadonlyMap<string, string> = new Map(Object.entries(MEDIA_ACTIONS).map(([action, command]) => [command, action]));

export type InvokeRefusalCode = 'SHELL_COMMAND_REFUSED' | 'MEDIA_COMMAND_REFUSED' | 'FILE_COMMAND_REFUSED';

export interface InvokeRefusal {
  code: InvokeRefusalCode;
  message: string;
  hint: string;
  /** The `nodes` action to use instead; absent when Pincer has no path for the command yet. */
  use?: string;
}

/** Why the generic `invoke` must not run `command`, or undefined when it may. */
export function refuseGenericInvoke(command: string): InvokeRefusal | undefined {
  const name = command.trim().toLowerCase();
  const quoted = JSON.stringify(command.slice(0, 100));
  // `system.run`, `system.run.prepare` and any later `system.run*` variant.
  if (name.startsWith('system.run')) {
    return {
      code: 'SHELL_COMMAND_REFUSED',
      message: `invokeCommand ${quoted} is reserved for shell execution; nodes.invoke never runs shell commands.`,
      hint: 'Pincer has no way yet to run a shell command on a node (the exec tool runs in this agent\'s own sandbox, not on the node).',
    };
  }
  if (POLICY_FENCED.has(name)) {
    return {
      code: 'FILE_COMMAND_REFUSED',
      message: `invokeCommand ${quoted} enforces a path-allowlist policy and cannot be invoked through the generic nodes.invoke surface.`,
      hint: 'Pincer has no file-transfer tool for nodes yet, so this command cannot be run on a node.',
    };
  }
  const mediaAction = MEDIA_BY_COMMAND.get(name);
  if (mediaAction) {
    return { code: 'MEDIA_COMMAND_REFUSED', use: mediaAction, message: `invokeCommand ${quoted} returns media payloads and is blocked to keep base64 out of the conversation.`, hint: `Use action="${mediaAction}".` };
  }
  return undefined;
}
