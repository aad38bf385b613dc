/**
 * The `nodes` tool's command tables. The generic `invoke` is an escape hatch, so it is
 * fenced: shell commands belong to `exec`, media-returning commands to their dedicated
 * actions (a base64 payload would flood the model's context), and path-policied file
 * transfers to the file-transfer tool, the only place their path policy and approvals run.
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

/** File-transfer commands whose path policy only the dedicated tool enforces. */
const POLICY_REDIRECTS: Readonly<Record<string, string>> = Object.freeze({
  'file.fetch': 'file_fetch',
  'dir.list': 'dir_list',
  'dir.fetch': 'dir_fetch',
  'file.write': 'file_write',
});

const MEDIA_BY_COMMAND: ReadonlyMap<string, string> = new Map(Object.entries(MEDIA_ACTIONS).map(([action, command]) => [command, action]));

export type InvokeRefusalCode = 'SHELL_COMMAND_REFUSED' | 'MEDIA_COMMAND_REFUSED' | 'FILE_COMMAND_REFUSED';

export interface InvokeRefusal {
  code: InvokeRefusalCode;
  message: string;
  hint: string;
  /** The tool or action to use instead. */
  use: string;
}

/** Why the generic `invoke` must not run `command`, or undefined when it may. */
export function refuseGenericInvoke(command: string): InvokeRefusal | undefined {
  const name = command.trim().toLowerCase();
  const quoted = JSON.stringify(command.slice(0, 100));
  // `system.run`, `system.run.prepare` and any later `system.run*` variant.
  if (name.startsWith('system.run')) {
    return { code: 'SHELL_COMMAND_REFUSED', use: 'exec', message: `invokeCommand ${quoted} is reserved for shell execution; nodes.invoke never runs shell commands.`, hint: 'Use the exec tool for commands.' };
  }
  const fileTool = POLICY_REDIRECTS[name];
  if (fileTool) {
    return {
      code: 'FILE_COMMAND_REFUSED',
      use: fileTool,
      message: `invokeCommand ${quoted} enforces a path-allowlist policy and cannot be invoked through the generic nodes.invoke surface.`,
      hint: `Use the dedicated file-transfer tool "${fileTool}".`,
    };
  }
  const mediaAction = MEDIA_BY_COMMAND.get(name);
  if (mediaAction) {
    return { code: 'MEDIA_COMMAND_REFUSED', use: mediaAction, message: `invokeCommand ${quoted} returns media payloads and is blocked to keep base64 out of the conversation.`, hint: `Use action="${mediaAction}".` };
  }
  return undefined;
}
